--- Timing for users, as `cupyx.profiler`: `ga.profiler.benchmark` (the
-- seed's `cp.testing.benchmark`), and `ga.profiler.time_range`.
-- @module gpuarray.profiler
local core = require "gpuarray.core"

local P = {}

local Result = {}
Result.__index = Result
Result.__name = "BenchmarkResult"

local function stats(t)
  local n, s, mn, mx = #t, 0, math.huge, -math.huge
  for i = 1, n do s = s + t[i]; mn = math.min(mn, t[i]); mx = math.max(mx, t[i]) end
  local mean = s / math.max(n, 1)
  local v = 0
  for i = 1, n do v = v + (t[i] - mean) ^ 2 end
  return mean, math.sqrt(v / math.max(n, 1)), mn, mx
end

local function line(label, t)
  local mean, sd, mn, mx = stats(t)
  return ("%s: %9.3f us   +/- %7.3f (min: %9.3f / max: %9.3f) us"):format(label, mean * 1e6, sd * 1e6, mn * 1e6,
                                                                          mx * 1e6)
end

-- CuPy's line: name, then CPU and each GPU's times
Result.__tostring = function(r)
  local parts = { ("%-20s:"):format(r.name), line("    CPU", r.cpu_times) }
  if r.gpu_times then parts[#parts + 1] = line("    GPU-" .. r.device, r.gpu_times) end
  return table.concat(parts, "")
end

--- Time `fn(...)` as cupyx.profiler.benchmark does: `n_warmup` calls, then
-- up to `n_repeat` timed calls (stopping after `max_duration` seconds), each
-- timed on the CPU (wall clock around the call) and on the current GPU
-- (CUDA events around it, on the current stream; none on a machine without
-- a GPU).  Returns a result with `cpu_times` and `gpu_times` (seconds, one
-- per run) whose `tostring` is CuPy's line.
-- @function ga.profiler.benchmark
-- @tparam function fn
-- @tparam[opt] table args arguments for fn
-- @tparam[opt] table opts `{n_repeat=10000, n_warmup=10, max_duration=math.huge, name=}`
-- @usage
-- local r = ga.profiler.benchmark(function(x) return x + 1 end, {ga.arange(10)}, {n_repeat = 5, n_warmup = 1})
-- print(#r.cpu_times)   --> 5
function P.benchmark(fn, args, opts)
  if type(fn) ~= "function" then error("benchmark: fn must be a function, got " .. type(fn), 2) end
  args, opts = args or {}, opts or {}
  local n_repeat, n_warmup = math.tointeger(opts.n_repeat or 10000), math.tointeger(opts.n_warmup or 10)
  if not n_repeat or n_repeat < 1 then error("benchmark: n_repeat must be a positive integer", 2) end
  if not n_warmup or n_warmup < 0 then error("benchmark: n_warmup must be a non-negative integer", 2) end
  local max_duration = opts.max_duration or math.huge
  local ga = require "gpuarray"
  local gpu = ga.cuda.is_available() and core.get_device() >= 0
  local n = select("#", table.unpack(args))
  for _ = 1, n_warmup do fn(table.unpack(args, 1, n)) end
  local cpu, gput = {}, gpu and {} or nil
  local start = core.clock()
  local e1, e2
  if gpu then e1, e2 = ga.cuda.Event(), ga.cuda.Event() end
  for i = 1, n_repeat do
    if gpu then e1:record() end
    local t0 = core.clock()
    fn(table.unpack(args, 1, n))
    local t1 = core.clock()
    if gpu then
      e2:record()
      e2:synchronize()
      gput[i] = ga.cuda.get_elapsed_time(e1, e2) / 1e3
    end
    cpu[i] = t1 - t0
    if t1 - start >= max_duration then break end
  end
  return setmetatable({ name = opts.name or "fn", cpu_times = cpu, gpu_times = gput,
                        device = gpu and core.get_device() or nil }, Result)
end

--- Run `fn(...)` as a named range: its wall time is added to
-- `ga.profiler.ranges()[name]` (calls and seconds), so a script can print
-- where its time went; it is also an NVTX range (shown by Nsight Systems)
-- when libnvToolsExt or CUDA's libnvtx3interop can be loaded (with dlopen:
-- nothing is linked, and nothing happens without them).  Returns fn's
-- results.
-- @function ga.profiler.time_range
-- @tparam string name
-- @tparam function fn
-- @usage
-- ga.profiler.time_range("setup", function() return ga.zeros(3) end)
-- print(ga.profiler.ranges().setup.calls >= 1)   --> true
local ranges = {}
function P.time_range(name, fn, ...)
  if type(name) ~= "string" then error("time_range: name must be a string", 2) end
  if type(fn) ~= "function" then error("time_range: fn must be a function", 2) end
  local pushed = core._range_push(name)
  local t0 = core.clock()
  local res = table.pack(pcall(fn, ...))
  if pushed then core._range_pop() end
  local r = ranges[name] or { calls = 0, seconds = 0 }
  r.calls, r.seconds = r.calls + 1, r.seconds + (core.clock() - t0)
  ranges[name] = r
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

--- The ranges timed so far: `{name = {calls=, seconds=}}` (a copy).
-- @function ga.profiler.ranges
-- @usage
-- print(type(ga.profiler.ranges()))   --> table
function P.ranges()
  local out = {}
  for k, v in pairs(ranges) do out[k] = { calls = v.calls, seconds = v.seconds } end
  return out
end

return P
