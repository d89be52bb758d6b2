-- On a GPU: times ga.linalg.eigh of the bench's stack (16384 symmetric
-- 16x16 float32, bench key eigh_batched_f32_16384x16_ms) as bench/run.lua's
-- gpu_ms does, the eigh kernel alone, and checks the results against the
-- host.  Run it under the tuning variables to compare settings, e.g.
--   for w in 2 4 8; do GPUARRAY_JSYM_WPB=$w lua5.4 tools/jacobi_check/gpu_tune.lua; done
--   GPUARRAY_JACOBI=1 lua5.4 tools/jacobi_check/gpu_tune.lua   (the one-sided kernel)
--   GPUARRAY_JACOBI=0 lua5.4 tools/jacobi_check/gpu_tune.lua   (cuSOLVER syevjBatched)
-- Arguments: [batch [n [dtype]]] (default 16384 16 float32).
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local ga = require "gpuarray"
local cuda = ga.cuda
local nb, n, dt = tonumber(arg[1]) or 16384, tonumber(arg[2]) or 16, arg[3] or "float32"

local function gpu_ms(f, reps, warm)
  for _ = 1, warm do f() end
  local s, e = cuda.Event(), cuda.Event()
  s:record()
  for _ = 1, reps do f() end
  e:record()
  e:synchronize()
  return cuda.get_elapsed_time(s, e) / reps
end

local S = ga.random.random({ nb, n, n }, dt)
S = S + S:swapaxes(-1, -2)
local L = ga.linalg
local t_eigh = gpu_ms(function() return L.eigh(S) end, 10, 2)
local t_nocheck = gpu_ms(function() return L.eigh(S, { check = false }) end, 10, 2)
local t_copy = gpu_ms(function() return S:copy() end, 10, 2)

-- correctness on a slice: A V = V w, Vᵀ V = I, w against the host
local w, v = L.eigh(S)
local k = math.min(nb, 256)
local H = ga.host
local a = ga.asnumpy(S[{ { 1, k } }]):astype("float64")
local hw, hv = ga.asnumpy(w[{ { 1, k } }]):astype("float64"), ga.asnumpy(v[{ { 1, k } }]):astype("float64")
local function bmm(x, y) return H.sum(H.expand_dims(x, -1) * H.expand_dims(y, -3), -2) end
local res = H.max(H.absolute(bmm(a, hv) - hv * H.expand_dims(hw, -2))):item()
local orth = H.max(H.absolute(bmm(hv:swapaxes(-1, -2), hv) - H.eye(n))):item()
local werr = H.max(H.absolute(hw - H.linalg.eigvalsh(a))):item()

print(("eigh %d x %dx%d %s: %.4f ms (check=false %.4f ms; the input copy alone %.4f ms)  " ..
       "|AV-Vw| %.3g |VtV-I| %.3g |w-host| %.3g  [JACOBI=%s WPB=%s SWEEPS=%s MINB=%s SHFLT=%s FAST=%s]"):format(
  nb, n, n, dt, t_eigh, t_nocheck, t_copy, res, orth, werr, os.getenv("GPUARRAY_JACOBI") or "-",
  os.getenv("GPUARRAY_JSYM_WPB") or "-", os.getenv("GPUARRAY_JSYM_SWEEPS") or "-",
  os.getenv("GPUARRAY_JSYM_MINB") or "-", os.getenv("GPUARRAY_JSYM_SHFLT") or "-",
  os.getenv("GPUARRAY_JSYM_FAST") or "-"))
