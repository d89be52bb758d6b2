-- mimo.lua — the seed's massive-MIMO case: 16384 subcarriers, each with an
-- 8x8 complex channel matrix H (8 transmit, 8 receive antennas).
--
-- * a batched SVD of every channel (one call, never a loop over
--   subcarriers): the singular values give each subcarrier's capacity with
--   equal power per stream, U and Vh are checked by reconstructing H;
-- * a zero-forcing precoder W = H^-1 per subcarrier, by a batched solve
--   (H W = I) and by the batched pseudo-inverse: H W must be the identity;
-- * the same code on the GPU and on the host, timed (on a machine without a
--   GPU it runs on the host twice and says so).
--
--   lua5.4 examples/mimo.lua
local ga = require "gpuarray"

local NSC, NA = 16384, 8
local SNR = 10 ^ (20 / 10)   -- 20 dB

-- the channels: i.i.d. Rayleigh fading, CN(0, 1) entries (the same numbers
-- on the host and on any GPU: counter-based generator)
local function channels(xp)
  local g = xp.random.default_rng(2024)
  local H = xp.zeros({ NSC, NA, NA }, "complex64")
  H.real[ga.ellipsis] = g:standard_normal({ NSC, NA, NA }, "float32") * math.sqrt(0.5)
  H.imag[ga.ellipsis] = g:standard_normal({ NSC, NA, NA }, "float32") * math.sqrt(0.5)
  return H
end

local function sync(xp)
  if xp == ga and ga.cuda.is_available() then ga.cuda.Device():synchronize() end
end

local function timed(xp, what, f)
  if xp == ga then f() end   -- warm up the GPU (library handles, kernels)
  sync(xp)
  local t0 = ga.core.clock()
  local r = table.pack(f())
  sync(xp)
  print(string.format("  %-34s %9.2f ms", what, (ga.core.clock() - t0) * 1e3))
  return table.unpack(r, 1, r.n)
end

local function run(xp, label)
  print(label)
  local H = channels(xp)
  local U, S, Vh = timed(xp, "batched SVD (16384 x 8x8 c64)", function() return xp.linalg.svd(H) end)
  -- capacity per subcarrier, equal power over the 8 streams, in bit/s/Hz
  local cap = xp.sum(xp.log2(1 + (SNR / NA) * S * S), -1)
  local mean_cap = xp.mean(cap):item()
  -- U diag(S) Vh = H
  local US = U * xp.expand_dims(S:astype("complex64"), -2)
  local rec = xp.sum(xp.expand_dims(US, -1) * xp.expand_dims(Vh, -3), -2)
  local svd_err = xp.max(xp.absolute(rec - H)):item()
  -- zero-forcing precoders
  local I = xp.broadcast_to(xp.eye(NA, nil, nil, "complex64"), { NSC, NA, NA })
  local W = timed(xp, "zero-forcing by batched solve", function() return xp.linalg.solve(H, I) end)
  local Wp = timed(xp, "zero-forcing by batched pinv", function() return xp.linalg.pinv(H) end)
  local HW = xp.sum(xp.expand_dims(H, -1) * xp.expand_dims(W, -3), -2)
  local zf_err = xp.max(xp.absolute(HW - I)):item()
  local pinv_diff = xp.max(xp.absolute(Wp - W)):item() / xp.max(xp.absolute(W)):item()
  print(string.format("  mean capacity %.3f bit/s/Hz at 20 dB; |U S Vh - H| <= %.2g; |H W - I| <= %.2g; " ..
    "pinv vs solve %.2g (relative)", mean_cap, svd_err, zf_err, pinv_diff))
  assert(svd_err < 1e-3 and zf_err < 1e-2, "MIMO identities failed")
  return mean_cap
end

local c_host = run(ga.host, "host (LAPACK through OpenBLAS):")
if ga.cuda.is_available() then
  local c_gpu = run(ga, "GPU (" .. ga.cuda.Device().name .. "):")
  print(string.format("capacity GPU vs host: %.3g relative difference", math.abs(c_gpu - c_host) / c_host))
else
  print("No GPU available (ga.cuda.is_available() is false): the host run above is the whole example.")
end
