-- On a GPU: where the time of a small ga.matmul goes.  ga.profiler.benchmark
-- times each call alone (it waits for the GPU after every call), so its
-- CPU time is the host's own work per call with no back-pressure from a
-- busy GPU, and its GPU time one product's device time (events around it:
-- the launch and the kernel).  Compare with the bench's overhead_matmul64_us
-- (back-to-back calls): if that is near the GPU time here, the loop is
-- GPU-bound; if near the CPU time, host-bound.
--   lua5.4 tools/jacobi_check/mm_probe.lua   (GPUARRAY_BATCH=0: launches not queued)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local ga = require "gpuarray"
local P = ga.profiler
local function mean(t)
  local s = 0
  for i = 1, #t do s = s + t[i] end
  return s / #t * 1e6
end
local function probe(label, f)
  local r = P.benchmark(f, {}, { n_repeat = 2000, n_warmup = 200 })
  print(("%-34s cpu %6.2f us  gpu %6.2f us  [BATCH=%s]"):format(label, mean(r.cpu_times),
        r.gpu_times and mean(r.gpu_times) or 0 / 0, os.getenv("GPUARRAY_BATCH") or "-"))
end
for _, dt in ipairs { "float32", "float64" } do
  for _, n in ipairs { 4, 64 } do
    local m = ga.ones({ n, n }, dt)
    probe(("matmul %dx%d %s"):format(n, n, dt), function() return ga.matmul(m, m) end)
    local out = ga.empty({ n, n }, dt)
    probe(("matmul %dx%d %s out="):format(n, n, dt), function() return ga.matmul(m, m, { out = out }) end)
  end
end
local x, y = ga.ones(1, "float32"), ga.ones(1, "float32")
probe("add 1 float32", function() return x + y end)
probe("empty 64x64 float32", function() return ga.empty({ 64, 64 }, "float32") end)
