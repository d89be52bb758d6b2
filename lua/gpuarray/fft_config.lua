--- The FFT plan cache, CuPy's `cupy.fft.config`: `ga.fft.config` (the
-- current device's cache; the host's when the host is current) and
-- `ga.host.fft.config` (the host's). A cache is per device and LRU: it
-- holds at most `size` plans (default 16; 0 turns caching off) and, when
-- `memsize` is set (default -1: no limit), at most that many bytes of
-- plans. On a GPU a plan is a cuFFT plan keyed by length, layout, batch,
-- type and device; it holds no work area between calls: each execution
-- takes its work area from the allocator in use (`ga.cuda.set_allocator`:
-- the default pool, a `MemoryPool`, a Lua function, the C API's) and gives
-- it back when the transform is queued, so a cached plan never keeps memory
-- of an allocator no longer in use, and `used_bytes` counts a work area
-- only while its transform runs.  A plan's bytes (`memsize`) are the work
-- area it takes per execution.  On the host a plan is the twiddle tables
-- of one length and precision.
-- @module gpuarray.fft_config
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local fail, typename = C.fail, C.typename

local GET, SET_SIZE, SET_MEMSIZE, CLEAR = 0, 1, 2, 3

return function(host)
  local config = {}
  local function device() return host and -1 or core.get_device() end

  local PlanCache = {}
  PlanCache.__index = PlanCache
  PlanCache.__name = "gpuarray.fft.PlanCache"

  local function info(self, op, v, fname) return core._fft_cache(self.device, op, v, fname) end

  local function int_arg(fname, v)
    local i = math.tointeger(v)
    if not i then fail(fname, "expected an integer, got %s", typename(v)) end
    if i < -1 then fail(fname, "expected -1 (no limit) or a value >= 0, got %d", i) end
    return i
  end

  --- The plan cache of the current device (`ga.fft.config`) or of the host
  -- (`ga.host.fft.config`).
  -- @function ga.fft.config.get_plan_cache
  -- @treturn PlanCache
  -- @usage
  -- local cache = ga.fft.config.get_plan_cache()
  -- print(cache:get_size())   --> 16
  function config.get_plan_cache()
    return setmetatable({ device = device() }, PlanCache)
  end

  --- The most plans the cache keeps (-1: no limit; 0: no caching).
  -- @function PlanCache:get_size
  -- @treturn int
  -- @usage print(ga.fft.config.get_plan_cache():get_size())   --> 16
  function PlanCache:get_size() return info(self, GET, 0, "get_size").max_size end

  --- Sets the most plans the cache keeps; extra plans go, least recently
  -- used first.
  -- @function PlanCache:set_size
  -- @tparam int n
  -- @usage
  -- local c = ga.host.fft.config.get_plan_cache()
  -- c:set_size(8); print(c:get_size()); c:set_size(16)   --> 8
  function PlanCache:set_size(n) info(self, SET_SIZE, int_arg("set_size", n), "set_size") end

  --- The plans held now.
  -- @function PlanCache:get_curr_size
  -- @treturn int
  -- @usage
  -- ga.host.fft.fft(ga.host.ones(8))
  -- print(ga.host.fft.config.get_plan_cache():get_curr_size() >= 1)   --> true
  function PlanCache:get_curr_size() return info(self, GET, 0, "get_curr_size").size end

  --- The most bytes the cache's plans may hold (-1: no limit).
  -- @function PlanCache:get_memsize
  -- @treturn int
  -- @usage print(ga.fft.config.get_plan_cache():get_memsize())   --> -1
  function PlanCache:get_memsize() return info(self, GET, 0, "get_memsize").max_memsize end

  --- Sets the most bytes the cache's plans may hold (-1: no limit).
  -- @function PlanCache:set_memsize
  -- @tparam int bytes
  -- @usage
  -- local c = ga.host.fft.config.get_plan_cache()
  -- c:set_memsize(1 << 20); c:set_memsize(-1)
  function PlanCache:set_memsize(n) info(self, SET_MEMSIZE, int_arg("set_memsize", n), "set_memsize") end

  --- The bytes the cache's plans hold now.
  -- @function PlanCache:get_curr_memsize
  -- @treturn int
  -- @usage print(ga.fft.config.get_plan_cache():get_curr_memsize() >= 0)   --> true
  function PlanCache:get_curr_memsize() return info(self, GET, 0, "get_curr_memsize").memsize end

  --- Drops every plan (their work areas go back to the memory pool).
  -- @function PlanCache:clear
  -- @usage ga.fft.config.get_plan_cache():clear()
  function PlanCache:clear() info(self, CLEAR, 0, "clear") end

  --- The cache's numbers as a table: size, max_size, memsize, max_memsize,
  -- hits, misses, created (plans made since the process started).
  -- @function PlanCache:info
  -- @treturn table
  -- @usage print(type(ga.fft.config.get_plan_cache():info().hits))   --> number
  function PlanCache:info() return info(self, GET, 0, "info") end

  --- Prints the cache's state (CuPy's `show_info`).
  -- @function PlanCache:show_info
  -- @usage ga.fft.config.get_plan_cache():show_info()
  function PlanCache:show_info()
    local t = info(self, GET, 0, "show_info")
    print(string.format("------------------- FFT plan cache (device %s) -------------------",
                        self.device < 0 and "cpu" or ("cuda:" .. self.device)))
    print(string.format("cache enabled? %s", tostring(t.max_size ~= 0)))
    print(string.format("current / max size   : %d / %s (counts)", t.size,
                        t.max_size < 0 and "unlimited" or t.max_size))
    print(string.format("current / max memsize: %d / %s (bytes)", t.memsize,
                        t.max_memsize < 0 and "(unlimited)" or t.max_memsize))
    print(string.format("hits / misses: %d / %d (plans created: %d)", t.hits, t.misses, t.created))
  end

  --- Sets the current device's cache size (`get_plan_cache():set_size(n)`).
  -- @function ga.fft.config.set_plan_cache_size
  -- @tparam int n
  -- @usage ga.fft.config.set_plan_cache_size(16)
  function config.set_plan_cache_size(n) config.get_plan_cache():set_size(n) end

  --- The current device's cache size.
  -- @function ga.fft.config.get_plan_cache_size
  -- @treturn int
  -- @usage print(ga.fft.config.get_plan_cache_size())   --> 16
  function config.get_plan_cache_size() return config.get_plan_cache():get_size() end

  --- Sets the current device's cache byte limit (-1: none).
  -- @function ga.fft.config.set_plan_cache_max_memsize
  -- @tparam int bytes
  -- @usage ga.fft.config.set_plan_cache_max_memsize(-1)
  function config.set_plan_cache_max_memsize(n) config.get_plan_cache():set_memsize(n) end

  --- The current device's cache byte limit.
  -- @function ga.fft.config.get_plan_cache_max_memsize
  -- @treturn int
  -- @usage print(ga.fft.config.get_plan_cache_max_memsize())   --> -1
  function config.get_plan_cache_max_memsize() return config.get_plan_cache():get_memsize() end

  --- Drops the current device's plans.
  -- @function ga.fft.config.clear_plan_cache
  -- @usage ga.fft.config.clear_plan_cache()
  function config.clear_plan_cache() config.get_plan_cache():clear() end

  --- Prints the current device's cache state.
  -- @function ga.fft.config.show_plan_cache_info
  -- @usage ga.fft.config.show_plan_cache_info()
  function config.show_plan_cache_info() config.get_plan_cache():show_info() end

  config._PlanCache = PlanCache
  return config
end
