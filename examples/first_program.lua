-- first_program.lua — the gpuarray demo.
--
-- Multiplies two N x N float32 matrices on the GPU (cuBLAS) and on the CPU
-- (ga.host, OpenBLAS), times both properly and checks that they agree.
--
--   lua5.4 examples/first_program.lua [N]        (N = 4096 with a GPU, 1024 without)
--
-- Timing a GPU correctly: the first call pays one-off costs (cuBLAS handle,
-- memory pool growth), and kernels run asynchronously, so warm up first and
-- measure with CUDA events recorded on the stream around the timed calls,
-- waiting for the last event before reading the time.
local ga = require "gpuarray"

local has_gpu = ga.cuda.is_available()
local N = math.tointeger(tonumber(arg and arg[1] or "") or (has_gpu and 4096 or 1024))
assert(N and N > 0, "usage: first_program.lua [N]")

-- gpuarray's monotonic wall clock, in seconds, for the CPU side.
local wall_seconds = ga.core.clock

-- The data: standard normal matrices from ga.random.  For one seed the
-- host (ga.host.random) and the GPU (ga.random) draw the same stream, so
-- both sides multiply the same matrices (normals agree to 2 ulp).
local function make(xp)
  xp.random.seed(12345)
  return xp.random.randn(N, N):astype("float32"), xp.random.randn(N, N):astype("float32")
end

local flop = 2 * N ^ 3
print(string.format("gpuarray %s: C = A @ B, A and B %d x %d float32 (%.1f GFLOP per product)",
  ga.__version or "", N, N, flop / 1e9))

-- CPU: OpenBLAS through the host backend
local ah, bh = make(ga.host)
local ch = ga.matmul(ah, bh) -- warm-up (threads, pages)
local cpu_reps = N >= 4096 and 2 or 3
local t0 = wall_seconds()
for _ = 1, cpu_reps do ch = ga.matmul(ah, bh) end
local cpu_s = (wall_seconds() - t0) / cpu_reps
print(string.format("CPU (ga.host, OpenBLAS): %9.3f ms  %8.1f GFLOP/s", cpu_s * 1e3, flop / cpu_s / 1e9))

if not has_gpu then
  print("No GPU available (ga.cuda.is_available() is false): ran on the host only.")
  -- check a few entries of the host product against sums computed in Lua
  local worst = 0
  for _, ij in ipairs { { 1, 1 }, { 1, N }, { N, 1 }, { N, N }, { (N + 1) // 2, (N + 1) // 3 } } do
    local i, j = ij[1], ij[2]
    local ra, cb, want = ah[i]:tolist(), bh.T[j]:tolist(), 0
    for k = 1, N do want = want + ra[k] * cb[k] end
    local rel = math.abs(ch[i][j]:item() - want) / (math.abs(want) + 1)
    if rel > worst then worst = rel end
  end
  print(string.format("max relative error vs sums in Lua: %.2e", worst))
  assert(worst < 1e-3, "host result is wrong")
  return
end

-- GPU: the same data, drawn on the GPU from the same seed
local dev = ga.cuda.Device()
print(string.format("GPU: %s (compute capability %s)", dev.name, dev.compute_capability))
local a, b = make(ga)
local c = ga.matmul(a, b) -- warm-up: cuBLAS handle, workspace, pool
dev:synchronize()
local gpu_reps = 10
local e1, e2 = ga.cuda.Event(), ga.cuda.Event()
e1:record()
for _ = 1, gpu_reps do c = ga.matmul(a, b) end
e2:record()
e2:synchronize()
local gpu_s = ga.cuda.get_elapsed_time(e1, e2) / 1e3 / gpu_reps
print(string.format("GPU (cuBLAS):            %9.3f ms  %8.1f GFLOP/s", gpu_s * 1e3, flop / gpu_s / 1e9))
print(string.format("speedup: %.1fx", cpu_s / gpu_s))

-- agreement, allclose-style: max |gpu - cpu| / (|cpu| + 1) over every element
local d = c:get() - ch
local r = (d * d) / (ch * ch + 1)
local worst = 0
for _, rw in ipairs(r:totable()) do
  for _, v in ipairs(rw) do if v > worst then worst = v end end
end
worst = math.sqrt(worst)
print(string.format("max relative difference GPU vs CPU: %.2e (%s)", worst, worst < 1e-3 and "agree" or "DISAGREE"))
if worst >= 1e-3 then os.exit(1) end
