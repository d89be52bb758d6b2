-- transfer_overhead.lua — where the time goes in a GPU round trip.
--
-- Moves a large float32 array to the GPU (host -> device), runs a short
-- elementwise computation on it, and brings the result back (device -> host),
-- timing each phase with CUDA events.  The usual lesson (as in CuPy's docs):
-- for cheap elementwise work the transfers dominate, so keep data on the GPU
-- across many operations and move it only at the ends.
--
--   lua5.4 examples/transfer_overhead.lua [log2 of the element count]
local ga = require "gpuarray"

local has_gpu = ga.cuda.is_available()
local log2n = math.tointeger(tonumber(arg and arg[1] or "") or (has_gpu and 26 or 22))
local n = 1 << log2n
local bytes = n * 4

-- gpuarray's monotonic wall clock, in seconds, for the CPU side.
local wall_seconds = ga.core.clock

local function compute(x) -- three elementwise kernels
  return (x * x + 1) / 2
end

print(string.format("%d float32 elements (%.0f MiB)", n, bytes / 2 ^ 20))
local h = ga.host.linspace(0, 1, n, { dtype = "float32" })

local t = {}
if has_gpu then
  print("GPU: " .. ga.cuda.Device().name)
  -- warm-up: kernel compilation, pool growth, pinned staging buffers
  compute(ga.asarray(h)):get()
  local ev = {}
  for i = 1, 4 do ev[i] = ga.cuda.Event() end
  ga.cuda.Device():synchronize()
  ev[1]:record()
  local d = ga.asarray(h)         -- host -> device
  ev[2]:record()
  local y = compute(d)            -- on the device
  ev[3]:record()
  local r = y:get()               -- device -> host
  ev[4]:record()
  ev[4]:synchronize()
  t.h2d = ga.cuda.get_elapsed_time(ev[1], ev[2])
  t.compute = ga.cuda.get_elapsed_time(ev[2], ev[3])
  t.d2h = ga.cuda.get_elapsed_time(ev[3], ev[4])
  assert(r.device.id < 0 and r.size == n)
else
  print("No GPU available: the same steps on the host (ga.array copies stand in for transfers).")
  compute(ga.array(h)):get()
  local t0 = wall_seconds()
  local d = ga.array(h)            -- a copy, standing in for host -> device
  local t1 = wall_seconds()
  local y = compute(d)
  local t2 = wall_seconds()
  local r = ga.asnumpy(y)          -- a copy, standing in for device -> host
  local t3 = wall_seconds()
  t.h2d, t.compute, t.d2h = (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3
  assert(r.size == n)
end

local total = t.h2d + t.compute + t.d2h
local function line(name, ms, moved)
  local rate = moved and string.format("  %7.2f GB/s", moved / (ms / 1e3) / 1e9) or ""
  print(string.format("  %-22s %9.3f ms  %5.1f %%%s", name, ms, 100 * ms / total, rate))
end
line(has_gpu and "host -> device" or "copy in", t.h2d, bytes)
line("compute (3 kernels)", t.compute, nil)
line(has_gpu and "device -> host" or "copy out", t.d2h, bytes)
print(string.format("  %-22s %9.3f ms", "total", total))
if has_gpu then
  print(string.format("transfers take %.0f %% of the round trip: keep arrays on the device between operations.",
    100 * (t.h2d + t.d2h) / total))
end
