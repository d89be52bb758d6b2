-- bench/multi_gpu.lua — gpuarray's side of ../shared/bench/cupy_nccl_reference.py.
--
-- Prints ONE JSON object with the reference's keys, measured the same way
-- (one process, every GPU, a non-blocking stream per GPU made current,
-- CUDA events on GPU 0's stream around 10 calls after 2 warm-up calls):
--   allreduce_f32_1GiB_busGBps, allreduce_f32_1GiB_ms  in-place all_reduce
--       of 2^28 float32 per GPU; bus bandwidth as nccl-tests:
--       bytes * 2 (n - 1) / n / time
--   peer_copy_1GiB_GBps  x:to(1) of 1 GiB on GPU 0 (cudaMemcpyPeerAsync),
--       bytes moved once / time (the copy's destination goes back to the
--       pool after each call, as CuPy's copy into one buffer)
-- and the many-small-arrays keys (no CuPy counterpart; the bar is >= 3x):
--   allreduce_1000x4KiB_grouped_ms  1000 all_reduces of 4 KiB float32
--       arrays per GPU in one call (one NCCL group), wall time per call
--   allreduce_1000x4KiB_loop_ms     the same as 1000 separate calls
--   allreduce_1000x4KiB_speedup     loop / grouped
-- The small-array keys run with one GPU too (one rank).  NCCL must be
-- loadable (GPUARRAY_NCCL); NVLink multicast stays off:
--
--   NCCL_NVLS_ENABLE=0 lua5.4 bench/multi_gpu.lua > ours.json
--   NCCL_NVLS_ENABLE=0 python3 ../shared/bench/cupy_nccl_reference.py > cupy.json
local ga = require "gpuarray"

local keys, R = {}, {}
local function put(k, v)
  if R[k] == nil then keys[#keys + 1] = k end
  R[k] = v
end
local function encode(v)
  if type(v) == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    return math.type(v) == "integer" and tostring(v) or string.format("%.6g", v)
  end
  return '"' .. tostring(v):gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end
local function emit()
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = " " .. encode(k) .. ": " .. encode(R[k]) end
  io.write("{\n", table.concat(parts, ",\n"), "\n}\n")
end

local n = ga.cuda.device_count()
put("library", "gpuarray")
put("gpus", n)
if n == 0 then put("note", "no GPU"); emit(); return end
local ok, why = ga.distributed.is_available()
if not ok then put("note", "NCCL not available: " .. tostring(why)); emit(); return end
put("nccl_version", ga.distributed.nccl_version())

local QUICK = os.getenv("GPUARRAY_BENCH_QUICK") == "1"
local devs, streams = {}, {}
for d = 0, n - 1 do
  devs[#devs + 1] = d
  streams[#streams + 1] = ga.cuda.Device(d):with(function()
    local s = ga.cuda.Stream{ non_blocking = true }
    s:use()                                        -- the device's current stream from now on
    return s
  end)
end
local comm <close> = ga.distributed.init{ devices = devs }

local function on(d, fn, ...) return ga.cuda.Device(d):with(fn, ...) end
local function sync_all() for i, d in ipairs(devs) do on(d, function() streams[i]:synchronize() end) end end

-- ms per call of f: events on GPU 0's stream around reps calls
local function timed(f, reps, warm)
  reps, warm = reps or 10, warm or 2
  for _ = 1, warm do f() end
  sync_all()
  local s, e = on(0, function() return ga.cuda.Event(), ga.cuda.Event() end)
  on(0, function() s:record(streams[1]) end)
  for _ = 1, reps do f() end
  on(0, function() e:record(streams[1]) end)
  sync_all()
  return ga.cuda.get_elapsed_time(s, e) / reps
end

local function wall(f, reps)
  f()
  sync_all()
  local t0 = ga.core.clock()
  for _ = 1, reps do f() end
  sync_all()
  return (ga.core.clock() - t0) * 1e3 / reps
end

if n >= 2 then
  local COUNT = QUICK and 1 << 22 or 1 << 28       -- 2^28 float32 = 1 GiB per GPU
  local bufs = {}
  for i, d in ipairs(devs) do bufs[i] = on(d, ga.ones, COUNT, { dtype = "float32" }) end
  local ms = timed(function() comm:all_reduce(bufs) end)
  put("allreduce_f32_1GiB_busGBps", COUNT * 4 * 2 * (n - 1) / n / (ms / 1e3) / 1e9)
  put("allreduce_f32_1GiB_ms", ms)
  local src = bufs[1]
  ms = timed(function() local y = src:to(1); y:free() end)
  put("peer_copy_1GiB_GBps", COUNT * 4 / (ms / 1e3) / 1e9)
  bufs, src = nil, nil
  collectgarbage()
else
  put("note", "fewer than 2 GPUs: only the small-array keys")
end

-- 1000 all_reduces of 4 KiB per GPU: one grouped call vs a loop
local K, EL = 1000, 1024
local lists = {}
for k = 1, K do
  lists[k] = {}
  for i, d in ipairs(devs) do lists[k][i] = on(d, ga.ones, EL, { dtype = "float32" }) end
end
local reps = QUICK and 2 or 10
local grouped = wall(function() comm:all_reduce(lists) end, reps)
local loop = wall(function() for k = 1, K do comm:all_reduce(lists[k]) end end, reps)
put("allreduce_1000x4KiB_grouped_ms", grouped)
put("allreduce_1000x4KiB_loop_ms", loop)
put("allreduce_1000x4KiB_speedup", loop / grouped)
emit()
