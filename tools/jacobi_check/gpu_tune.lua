-- On a GPU: checks ga.linalg.eigh of the bench's stack (symmetric 16x16
-- float32, bench key eigh_batched_f32_16384x16_ms) against the host under
-- the current GPUARRAY_JSYM_* / GPUARRAY_JACOBI settings: the residual
-- |A V - V w|, orthonormality |Vᵀ V - I| and the eigenvalues against the
-- host's eigvalsh, on a slice of the batch.  Timing is bench/run.lua's own
-- (one definition of gpu_ms): tools/jacobi_check/speed.sh runs both for
-- every variant.
--   lua5.4 tools/jacobi_check/gpu_tune.lua [batch [n [dtype]]]   (default 16384 16 float32)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local ga = require "gpuarray"
local nb, n, dt = tonumber(arg[1]) or 16384, tonumber(arg[2]) or 16, arg[3] or "float32"

local S = ga.random.random({ nb, n, n }, dt)
S = S + S:swapaxes(-1, -2)
local L = ga.linalg
local w, v = L.eigh(S)
local k = math.min(nb, 256)
local H = ga.host
local a = ga.asnumpy(S[{ { 1, k } }]):astype("float64")
local hw, hv = ga.asnumpy(w[{ { 1, k } }]):astype("float64"), ga.asnumpy(v[{ { 1, k } }]):astype("float64")
local function bmm(x, y) return H.sum(H.expand_dims(x, -1) * H.expand_dims(y, -3), -2) end
local res = H.max(H.absolute(bmm(a, hv) - hv * H.expand_dims(hw, -2))):item()
local orth = H.max(H.absolute(bmm(hv:swapaxes(-1, -2), hv) - H.eye(n))):item()
local werr = H.max(H.absolute(hw - H.linalg.eigvalsh(a))):item()
local tol = dt == "float32" and 1e-4 or 1e-11
local ok = res < tol * n and orth < tol and werr < tol * n
print(("eigh %d x %dx%d %s: |AV-Vw| %.3g |VtV-I| %.3g |w-host| %.3g %s  [JACOBI=%s WPB=%s SWEEPS=%s MINB=%s SHFLT=%s FAST=%s]")
  :format(nb, n, n, dt, res, orth, werr, ok and "ok" or "FAILED", os.getenv("GPUARRAY_JACOBI") or "-",
          os.getenv("GPUARRAY_JSYM_WPB") or "-", os.getenv("GPUARRAY_JSYM_SWEEPS") or "-",
          os.getenv("GPUARRAY_JSYM_MINB") or "-", os.getenv("GPUARRAY_JSYM_SHFLT") or "-",
          os.getenv("GPUARRAY_JSYM_FAST") or "-"))
os.exit(ok and 0 or 1)
