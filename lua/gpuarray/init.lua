--- gpuarray: NumPy-style n-dimensional arrays on NVIDIA GPUs, for Lua 5.4.
--
--    local ga = require "gpuarray"
--    local x = ga.arange(6, "float32")
--    print(x * 2 + 1)
--
-- The C module `gpuarray.core` does the work; this file assembles the
-- public API from it with CuPy's names.
-- @module gpuarray

local core = require "gpuarray.core"
local format = require "gpuarray.format"
local cuda = require "gpuarray.cuda"

local ga = { cuda = cuda, core = core, __version = "0.1.0" }
local host = {}
ga.host = host

-- dtype names: ga.float32 == "float32"
for _, name in ipairs(core.dtypes) do ga[name] = name; host[name] = name end

-- creation functions: ga.X makes arrays on the current device, ga.host.X on the host
for name, f in pairs(core.host) do host[name] = f; ga[name] = core[name] end

-- ufuncs (rows of the op table); names starting with "_" are internal
for name, f in pairs(core.ufuncs) do
  if name:sub(1, 1) ~= "_" then ga[name] = f; host[name] = f end
end
ga.copy, host.copy = core.copy, core.host.copy   -- the creation function, not the COPY row
ga.divide, host.divide = ga.true_divide, ga.true_divide
ga.matmul, host.matmul = core.matmul, core.matmul

--- The module (`ga` or `ga.host`) that made array x: write code once for
-- both, as with `cupy.get_array_module`.
-- @usage local xp = ga.get_array_module(x); local y = xp.zeros(3)
function ga.get_array_module(x)
  if getmetatable(x) == core.ndarray_mt and x.device ~= "cpu" then return ga end
  return host
end
host.get_array_module = ga.get_array_module
host.asnumpy = core.asnumpy

---------------------------------------------------------------------------
-- ndarray methods (the C __index looks here first)

local M = core.ndarray_methods
M.get = core.get
M.set = core.set
M.totable = core.totable
M.tolist = core.totable
M.item = core.item
M.copy = core.copy
M.dot = core.matmul

local kinds = { bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i",
  uint8 = "u", uint16 = "u", uint32 = "u", uint64 = "u",
  float16 = "f", float32 = "f", float64 = "f", complex64 = "c", complex128 = "c" }

core.ndarray_mt.__tostring = function(x)
  local ok, t = pcall(core.repr_table, x)
  if not ok then return "<freed gpuarray.ndarray>" end
  return format.repr(t, { dtype = x.dtype, shape = x.shape, kind = kinds[x.dtype] })
end

---------------------------------------------------------------------------
-- memory pools

local function current_pool_id()
  return core.get_device()   -- -1 (host pool) when the host is current
end

local Pool = {}
Pool.__index = Pool

local function pool(idf)
  return setmetatable({ _id = idf }, Pool)
end

--- Bytes in use by arrays.
function Pool:used_bytes() return (core.pool_stats(self._id())) end
--- Bytes held from the device (in use + cached).
function Pool:total_bytes() local _, t = core.pool_stats(self._id()); return t end
--- Number of cached free blocks.
function Pool:n_free_blocks() local _, _, n = core.pool_stats(self._id()); return n end
--- Give every cached, unused block back to the device.
function Pool:free_all_blocks() core.pool_free_all(self._id()) end
--- Limit of the pool in bytes (0: none).
function Pool:get_limit() local _, _, _, l = core.pool_stats(self._id()); return l end
--- Set the limit: `pool:set_limit(2^30)`, `pool:set_limit{size=2^30}` or `{fraction=0.5}`.
function Pool:set_limit(arg)
  local size
  if type(arg) == "table" then
    if arg.fraction then
      local id = self._id()
      if id < 0 then error("set_limit: fraction needs a CUDA device", 2) end
      local _, total = core.mem_info(id)
      size = math.floor(arg.fraction * total)
    else
      size = arg.size or 0
    end
  else
    size = arg or 0
  end
  if math.type(size) ~= "integer" then
    if type(size) == "number" and size == math.floor(size) then size = math.tointeger(size)
    else error("set_limit: size must be an integer number of bytes", 2) end
  end
  core.pool_set_limit(self._id(), size)
end

local default_pool = pool(current_pool_id)
local pinned_pool = pool(function() return -1 end)

--- The memory pool arrays of the current device come from.
-- @usage print(ga.get_default_memory_pool():used_bytes())
function ga.get_default_memory_pool() return default_pool end
--- The (pinned, when a GPU is present) pool host arrays come from.
function ga.get_default_pinned_memory_pool() return pinned_pool end

return ga
