-- spectrum.lua — the windowed spectrum of the seed tutorial, written once
-- for host and GPU arrays, and a 2-D FFT convolution checked against a
-- direct one.
--
-- `process(x)` is `fft(x) * hamming(#x)`: `ga.get_array_module(x)` gives the
-- module that made x (`ga` for a GPU array, `ga.host` for a host array), as
-- `cupy.get_array_module` does, so the same code runs on either device.
--
--   lua5.4 examples/spectrum.lua
local ga = require "gpuarray"

local function process(x)
  local xp = ga.get_array_module(x)
  return xp.fft.fft(x) * xp.hamming(x.shape[1])
end

-- a test signal: two tones and a little deterministic noise
local n, sig, seed = 4096, {}, 7
for i = 1, n do
  seed = (seed * 1103515245 + 12345) % 2147483648
  local t = (i - 1) / n
  sig[i] = math.sin(2 * math.pi * 440 * t) + 0.5 * math.sin(2 * math.pi * 1000 * t) + (seed / 2147483648 - 0.5) * 0.1
end

local has_gpu = ga.cuda.is_available()
local xh = ga.host.array(sig)
local sh = process(xh)
print(string.format("host:  fft(x) * hamming(%d) on %s, %s", n, sh.device, sh.dtype))
local sd
if has_gpu then
  sd = process(ga.asarray(xh))
  print(string.format("GPU:   the same function on %s", sd.device))
else
  print("No GPU available (ga.cuda.is_available() is false): the same function runs on the host twice.")
  sd = process(ga.host.array(sig))
end
local diff = ga.max(ga.absolute(ga.asnumpy(sd) - sh)):item()
print(string.format("max |GPU - host| = %.3g", diff))
assert(diff < 1e-9 * n, "spectra differ")

-- 2-D convolution through the FFT: pad image and kernel to the full output
-- size, multiply the spectra, transform back; against the direct sum
local function fft_convolve(img, ker)
  local xp = ga.get_array_module(img)
  local s = { img.shape[1] + ker.shape[1] - 1, img.shape[2] + ker.shape[2] - 1 }
  return xp.fft.irfft2(xp.fft.rfft2(img, s) * xp.fft.rfft2(ker, s), s)
end

local H, W, K = 96, 128, 5
local img, ker = {}, {}
for i = 1, H do
  img[i] = {}
  for j = 1, W do
    seed = (seed * 1103515245 + 12345) % 2147483648
    img[i][j] = seed / 2147483648
  end
end
for i = 1, K do
  ker[i] = {}
  for j = 1, K do ker[i][j] = math.exp(-((i - 3) ^ 2 + (j - 3) ^ 2) / 4) end
end
local xp = has_gpu and ga or ga.host
local conv = fft_convolve(xp.array(img), xp.array(ker)):get():tolist()
-- direct: out[i][j] = sum img[a][b] ker[i-a+1][j-b+1]
local worst = 0
for i = 1, H + K - 1, 7 do
  for j = 1, W + K - 1, 5 do
    local acc = 0
    for a = math.max(1, i - K + 1), math.min(H, i) do
      for b = math.max(1, j - K + 1), math.min(W, j) do acc = acc + img[a][b] * ker[i - a + 1][j - b + 1] end
    end
    worst = math.max(worst, math.abs(acc - conv[i][j]))
  end
end
print(string.format("2-D FFT convolution of a %dx%d image with a %dx%d kernel on %s: max |fft - direct| = %.3g",
  H, W, K, K, has_gpu and "the GPU" or "the host", worst))
assert(worst < 1e-10, "FFT convolution differs from the direct sum")
print("ok")
