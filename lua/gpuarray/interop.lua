--- Interchange with other libraries and the replaceable allocator.
--
-- **DLPack** (1.x): `x:__dlpack{stream=, max_version=, copy=}` gives a
-- capsule (a userdata holding a `DLManagedTensorVersioned`, or the
-- unversioned `DLManagedTensor` for a consumer that asks for a version
-- below 1 or names none), `x:__dlpack_device()` the DLPack device, and
-- `ga.from_dlpack(obj)` takes a capsule or any object with those two
-- methods.  Both ways are zero-copy: the array and the capsule share the
-- memory, and the producer's deleter runs exactly once, when the last
-- array over it is gone, or by the capsule's `__gc` when nobody imported
-- it.  Streams follow the DLPack Python specification: the consumer passes
-- its stream, the producer makes it wait on an event recorded on its own
-- stream (no device synchronisation).
--
-- **Raw memory**: `x.data_ptr`, `x:__cuda_array_interface()` (CuPy's v3
-- fields), `ga.cuda.UnownedMemory(ptr, size, owner)` and
-- `ga.cuda.MemoryPointer(mem, offset)` wrap memory someone else owns, and
-- `ga.ndarray(shape, dtype, memptr, strides)` makes an array over it; the
-- owner object stays referenced while any array (or DLPack export) uses
-- the bytes (so the consumer of such an export calls the deleter on the
-- thread that runs this `lua_State`, before it closes).
--
-- **Allocators** (CuPy's `set_allocator`): `ga.cuda.set_allocator(alloc)`
-- with `nil` (plain `cudaMalloc`/`cudaFree`, no caching), a
-- `ga.cuda.MemoryPool()` (a pool of its own, with its own statistics and
-- limit), the default pool (`ga.get_default_memory_pool()`), or a function
-- `(nbytes) -> MemoryPointer`; `ga.cuda.using_allocator` and
-- `ga.cuda.set_pinned_memory_allocator`.  The allocator serves the new
-- arrays of the current device in this `lua_State` (host arrays when the
-- host is current); every array gives its memory back to the allocator it
-- came from, whatever the allocator is when it is freed.  Temporaries the
-- library makes inside one call (cast and overlap copies, sort buffers,
-- reduction partials, library workspaces taken as scratch) come from the
-- allocator in use too, so a counting allocator sees them and a pool's
-- statistics stay true; an allocator's error inside a call is that call's
-- error.  The GPU libraries' workspaces are among them: a cuFFT plan's work
-- area is taken at every execution (cached plans hold none: cuFFT's own
-- allocation is off and `cufftSetWorkArea` gets ours), cuBLAS gets its
-- workspace per call (`cublasSetWorkspace`: 32 MiB on Hopper, else 4 MiB,
-- less under a tight pool limit; `GPUARRAY_CUBLAS_WORKSPACE=bytes`
-- overrides), cuSOLVER's buffers and its cuBLAS handle's workspace per
-- call, cuDNN's convolution workspace per call.  What no allocator can
-- serve: the small buffers the libraries allocate when a handle or plan is
-- created, and NCCL's communication buffers (CuPy's allocator does not
-- serve those either).  On the host the libraries' work arrays are the C
-- heap's, as NumPy's.
-- @module gpuarray.interop
local core = require "gpuarray.core"
local cuda = require "gpuarray.cuda"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local M = { ga = {}, host = {} }
local methods = core.ndarray_methods

local kDLCUDA = 2   -- (kDLCPU is 1)
local FLAG_IS_COPIED = 2

-- a stream argument -> the integer DLPack passes (nil: none given)
local function stream_number(fname, s)
  if s == nil or math.type(s) == "integer" then return s end
  if type(s) == "userdata" and s._info then
    local _, h = s:_info()
    return h == 0 and 1 or h   -- the null stream is DLPack's 1 (legacy default)
  end
  if type(s) == "table" and s.device_id then return nil end   -- a host stream: nothing to order
  fail(fname, "stream must be an integer (a cudaStream_t, 1 legacy default, 2 per-thread default, -1 none) " ..
       "or a ga.cuda.Stream, got %s", typename(s))
end

local function current_stream_number(dev)
  if dev ~= core.get_device() then return 1 end
  return stream_number("from_dlpack", cuda.get_current_stream()) or 1
end

--- DLPack.
-- @section dlpack

--- Export the array as a DLPack capsule (the Python array API's
-- `__dlpack__`): zero-copy, the capsule holds a reference on the memory
-- until a consumer's deleter call (or the capsule's `__gc` when nobody
-- consumed it).
-- @function ndarray:__dlpack
-- @tparam[opt] table opts `stream` (the consumer's stream: an integer
--   `cudaStream_t`, 1 the legacy default, 2 the per-thread default, -1 no
--   ordering, or a `ga.cuda.Stream`; nil: the legacy default), `max_version`
--   (`{major, minor}` the consumer reads; nil or a major below 1 gives the
--   unversioned struct), `copy` (true: export a copy, flagged IS_COPIED;
--   false: never copy; nil: no copy is needed here), `dl_device` (`{type,
--   id}`: the array's own device, or `{1, 0}` for a copy on the host)
-- @return a capsule (`capsule.name` is `"dltensor_versioned"` or `"dltensor"`)
-- @usage
-- local x = ga.arange(6):reshape(2, 3)
-- local cap = x:__dlpack{max_version = {1, 0}}
-- print(cap.name)                                 --> dltensor_versioned
-- local y = ga.from_dlpack(cap)                   -- shares x's memory
-- y[{1, 1}] = 42
-- print(x[{1, 1}]:item())                         --> 42
function methods.__dlpack(x, opts)
  local fname = "__dlpack"
  if not is_array(x) then fail(fname, "expected an ndarray, got %s", typename(x)) end
  if opts ~= nil and type(opts) ~= "table" then fail(fname, "options must be a table, got %s", typename(opts)) end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "stream" and k ~= "max_version" and k ~= "copy" and k ~= "dl_device" then
      fail(fname, "unknown option '%s' (stream, max_version, copy, dl_device)", tostring(k))
    end
  end
  local mv = opts.max_version
  local versioned = false
  if mv ~= nil then
    if type(mv) ~= "table" or math.type(mv[1]) ~= "integer" then
      fail(fname, "max_version must be a table {major, minor}, got %s", typename(mv))
    end
    versioned = mv[1] >= 1
  end
  local copy = opts.copy
  if copy ~= nil and type(copy) ~= "boolean" then
    fail(fname, "copy must be a boolean or nil, got %s", typename(copy))
  end
  local dd = opts.dl_device
  local to_host = false
  if dd ~= nil then
    local t, id = core._dlpack_device(x)
    if type(dd) ~= "table" or dd[1] ~= t or (dd[2] or 0) ~= id then
      -- another device: the host only, and only as a copy (the array API's rule)
      if type(dd) == "table" and dd[1] == 1 and (dd[2] or 0) == 0 and copy ~= false then
        to_host = true
      else
        fail(fname, "dl_device {%s, %s} is not the array's device {%d, %d}%s",
             tostring(type(dd) == "table" and dd[1]), tostring(type(dd) == "table" and dd[2]), t, id,
             copy == false and " and copy=false forbids a copy" or " (only the host {1, 0} can take a copy)")
      end
    end
  end
  local stream = stream_number(fname, opts.stream)
  if stream == 0 then fail(fname, "stream 0 is ambiguous for CUDA (use 1 for the legacy default stream)") end
  local flags = 0
  if to_host then
    x = x:get()
    flags = FLAG_IS_COPIED
  elseif copy then
    x = x:copy()
    flags = FLAG_IS_COPIED
  end
  return core._dlpack_export(x, versioned, flags, stream)
end

--- The array's DLPack device: `device_type, device_id` (`1, 0` for the
-- host, `kDLCPU`; `2, N` for CUDA device N, `kDLCUDA`).
-- @function ndarray:__dlpack_device
-- @treturn int device type
-- @treturn int device id
-- @usage
-- local t, id = ga.host.zeros(3):__dlpack_device()
-- print(t, id)                                    --> 1  0
function methods.__dlpack_device(x)
  if not is_array(x) then fail("__dlpack_device", "expected an ndarray, got %s", typename(x)) end
  return core._dlpack_device(x)
end

--- An array over a DLPack tensor, without a copy: `obj` is a capsule (made
-- by `x:__dlpack()` or by C code through the C API) or any object with
-- `__dlpack` and `__dlpack_device` methods, which is asked for a versioned
-- tensor on this state's current stream (DLPack's stream handover).  The
-- array lives on the tensor's device (`cpu` for kDLCPU and kDLCUDAHost).
-- A capsule can be consumed once.  `{copy = true}` returns a copy (on the
-- same device) instead.  A DLPack 1.x tensor flagged READ_ONLY imports as
-- a read-only array (`x.flags.writeable` false, as NumPy's): it and its
-- views can be read, and every write into them (`x[i] = v`, `out=`,
-- `x:fill`, in-place sorts, scatters, kernels' outputs...) raises
-- "<function>: array is read-only ..."; `{copy = true}` or `x:copy()`
-- gives a writable copy, and re-exporting a read-only array sets the flag.
-- @function ga.from_dlpack
-- @param obj a capsule or an object with `__dlpack`/`__dlpack_device`
-- @tparam[opt] table opts `{copy = true}`
-- @treturn ndarray
-- @usage
-- local x = ga.arange(4, "float32")
-- local y = ga.from_dlpack(x)                     -- the same memory
-- print(y.data_ptr == x.data_ptr, y.dtype)        --> true  float32
local function import(obj)
  local fname = "from_dlpack"
  if core._is("capsule", obj) then return core._from_capsule(obj) end
  local okd, dlpack_device = pcall(function() return obj.__dlpack_device end)
  local okp, dlpack = pcall(function() return obj.__dlpack end)
  if not (okd and okp and dlpack_device and dlpack) then
    fail(fname, "expected a DLPack capsule or an object with __dlpack and __dlpack_device, got %s", typename(obj))
  end
  local t, id = dlpack_device(obj)
  local stream
  if t == kDLCUDA then stream = current_stream_number(id) end
  local cap = dlpack(obj, { stream = stream, max_version = { 1, 1 } })
  if not core._is("capsule", cap) then
    fail(fname, "__dlpack returned %s, not a DLPack capsule", typename(cap))
  end
  return core._from_capsule(cap)
end

local function from_dlpack(obj, opts)
  if opts ~= nil then
    if type(opts) ~= "table" then fail("from_dlpack", "options must be a table, got %s", typename(opts)) end
    for k in pairs(opts) do
      if k ~= "copy" then fail("from_dlpack", "unknown option '%s' (copy)", tostring(k)) end
    end
    if opts.copy ~= nil and type(opts.copy) ~= "boolean" then
      fail("from_dlpack", "copy must be a boolean or nil, got %s", typename(opts.copy))
    end
    if opts.copy then
      local y = import(obj)
      local c = y:copy()
      y:free()
      return c
    end
  end
  return import(obj)
end
M.ga.from_dlpack, M.host.from_dlpack = from_dlpack, from_dlpack

--- Raw memory.
-- @section memory

local typestr_of = {
  bool = "|b1", int8 = "|i1", uint8 = "|u1", int16 = "<i2", uint16 = "<u2", int32 = "<i4", uint32 = "<u4",
  int64 = "<i8", uint64 = "<u8", float16 = "<f2", float32 = "<f4", float64 = "<f8", complex64 = "<c8",
  complex128 = "<c16",
}

--- The address of element 0 as an integer (CuPy's `x.data.ptr`): a device
-- pointer for a GPU array, a host address for a host array.  Views point
-- into their base's memory.
-- @field ndarray.data_ptr
-- @usage
-- local x = ga.zeros(4, "float32")
-- print(x[{{2, 4}}].data_ptr - x.data_ptr)        --> 4

-- the interface table for any device (the method refuses host arrays)
local function array_interface(x)
  core._array_ready(x)
  local f = x.flags
  local shape = {}
  for i, n in ipairs(x.shape) do shape[i] = n end
  local t = {
    shape = shape,
    typestr = typestr_of[x.dtype],
    descr = { { "", typestr_of[x.dtype] } },
    data = { x.data_ptr, false },
    version = 3,
    strides = (not f.c_contiguous) and x.strides or nil,
  }
  local dev = core.get_device()
  if dev >= 0 then t.stream = current_stream_number(dev) end
  return t
end
M._array_interface = array_interface

--- CuPy's `__cuda_array_interface__` (version 3) as a Lua table: `shape`,
-- `typestr` (`"<f4"` ...), `descr`, `data = {ptr, readonly}`, `version = 3`,
-- `strides` (bytes; nil when C-contiguous) and `stream` (the current stream,
-- 1 for the legacy default; consumers order their work after it).  Queued
-- kernels are submitted first.  Host arrays have none (an error).
-- @function ndarray:__cuda_array_interface
-- @treturn table
-- @usage
-- if ga.cuda.is_available() then
--   local cai = ga.zeros({2, 3}, "float32"):__cuda_array_interface()
--   print(cai.typestr, cai.version, cai.strides)  --> <f4  3  nil
-- end
function methods.__cuda_array_interface(x)
  local fname = "__cuda_array_interface"
  if not is_array(x) then fail(fname, "expected an ndarray, got %s", typename(x)) end
  local t = core._dlpack_device(x)
  if t ~= kDLCUDA then
    fail(fname, "a host array has no CUDA array interface (use x.data_ptr or x:__dlpack())")
  end
  return array_interface(x)
end

--- Memory someone else owns, as `cupy.cuda.UnownedMemory`: `ptr` (an
-- integer address, e.g. another library's `data_ptr`), `size` in bytes,
-- `owner` (any Lua value that keeps the memory valid: it stays referenced
-- while arrays use the memory), `device_id` (default: the current device;
-- -1 the host).  Fields: `ptr`, `size`, `device_id`, `owner`.
-- @function ga.cuda.UnownedMemory
-- @tparam int ptr address
-- @tparam int size bytes
-- @param owner the object that owns the memory
-- @tparam[opt] int device_id
-- @return memory
-- @usage
-- local buf = ga.arange(8, "float32")
-- local mem = ga.cuda.UnownedMemory(buf.data_ptr, buf.nbytes, buf)
-- local x = ga.ndarray({2, 4}, "float32", ga.cuda.MemoryPointer(mem, 0))
-- print(x[{2, 1}]:item())                          --> 4.0
function cuda.UnownedMemory(ptr, size, owner, device_id)
  local fname = "cuda.UnownedMemory"
  if math.type(ptr) ~= "integer" then fail(fname, "ptr must be an integer address, got %s", typename(ptr)) end
  if math.type(size) ~= "integer" then fail(fname, "size must be an integer, got %s", typename(size)) end
  if device_id ~= nil and math.type(device_id) ~= "integer" then
    fail(fname, "device_id must be an integer, got %s", typename(device_id))
  end
  return core._unowned_memory(ptr, size, owner, device_id or core.get_device())
end

--- A pointer into memory, as `cupy.cuda.MemoryPointer(mem, offset)`: what
-- `ga.ndarray` takes as `memptr` and what an allocator function returns.
-- Fields: `ptr` (the address: the memory's plus offset), `size` (bytes
-- from there), `device_id`, `mem`, `offset`.
-- @function ga.cuda.MemoryPointer
-- @param mem a `ga.cuda.UnownedMemory`
-- @tparam[opt=0] int offset bytes
-- @return memory pointer
-- @usage
-- local buf = ga.arange(4, "int32")
-- local p = ga.cuda.MemoryPointer(ga.cuda.UnownedMemory(buf.data_ptr, 16, buf), 8)
-- print(p.ptr - buf.data_ptr, p.size)              --> 8  8
function cuda.MemoryPointer(mem, offset)
  if offset ~= nil and math.type(offset) ~= "integer" then
    fail("cuda.MemoryPointer", "offset must be an integer, got %s", typename(offset))
  end
  return core._memory_pointer(mem, offset or 0)
end

-- ga.ndarray(shape, dtype, memptr, strides): construct.lua calls this when
-- its third argument is a memory pointer
function M.wrap_memory(shape, dtype, memptr, strides)
  if strides ~= nil and type(strides) ~= "table" then
    fail("ndarray", "strides must be a table of byte strides, got %s", typename(strides))
  end
  return core._wrap_memory(memptr, dtype, shape, strides)
end
M.is_memory = function(v) return core._is("memory", v) end

--- Allocators.
-- @section allocators

local Pool   -- the class of ga.get_default_memory_pool() (init.lua calls M.bind_pools)
local pools = setmetatable({}, { __mode = "k" })   -- userdata -> its Pool object

--- A new caching memory pool with its own statistics and limit (as
-- `cupy.cuda.MemoryPool()`), to pass to `ga.cuda.set_allocator`.  It has
-- the methods of `ga.get_default_memory_pool()` (`used_bytes`,
-- `total_bytes`, `n_free_blocks`, `free_all_blocks`, `set_limit`,
-- `get_limit`), counting its own blocks on every device.  Arrays from it
-- give their blocks back to it even after the allocator changed; its
-- memory goes back to the device once it is unreferenced and empty.
-- @function ga.cuda.MemoryPool
-- @treturn Pool
-- @usage
-- local pool = ga.cuda.MemoryPool()
-- ga.cuda.using_allocator(pool, function()
--   local x = ga.zeros(256, "float32")
--   print(pool:used_bytes())                       --> 1024
-- end)
function cuda.MemoryPool()
  local ud = core._mempool_new()
  local p = setmetatable({ _ud = ud, _id = function() return ud end }, Pool)
  pools[ud] = p
  return p
end

local function to_core(fname, alloc, default_pool)
  if alloc == nil then return "plain" end
  if rawequal(alloc, default_pool) then return false end
  if type(alloc) == "table" and rawget(alloc, "_ud") then return alloc._ud end
  if type(alloc) == "function" then return alloc end
  fail(fname, "allocator must be nil, a pool (ga.cuda.MemoryPool(), ga.get_default_memory_pool()) or a " ..
       "function (nbytes) -> MemoryPointer, got %s", typename(alloc))
end

local function from_core(v, default_pool)
  if v == false then return default_pool end
  if v == "plain" then return nil end
  if core._is("mempool", v) then return pools[v] end
  return v
end

local default_of = { [0] = function() return M.default_pool end, [1] = function() return M.pinned_pool end }

local function set(which, fname, alloc)
  core._set_allocator(which, to_core(fname, alloc, default_of[which]()))
end

--- Choose where new arrays of the current device get their memory (in
-- this `lua_State`): `nil` (plain `cudaMalloc`/`cudaFree` for every array,
-- no caching), `ga.get_default_memory_pool()` (the default, caching),
-- a `ga.cuda.MemoryPool()`, or a function `(nbytes) -> MemoryPointer`
-- (the memory pointer's owner stays referenced until the array is gone).
-- On the host backend it serves host arrays.  It also serves the
-- temporaries of every call of this `lua_State` (see the module's notes).
-- @function ga.cuda.set_allocator
-- @param alloc the allocator
-- @usage
-- local pool = ga.cuda.MemoryPool()
-- ga.cuda.set_allocator(pool)
-- local x = ga.ones(100)
-- ga.cuda.set_allocator(ga.get_default_memory_pool())
-- print(pool:used_bytes() > 0)                     --> true
function cuda.set_allocator(alloc) set(0, "cuda.set_allocator", alloc) end

--- The allocator in use (see `ga.cuda.set_allocator`): a pool, a
-- function, or nil for the plain allocator.
-- @function ga.cuda.get_allocator
-- @return the allocator
-- @usage print(ga.cuda.get_allocator() == ga.get_default_memory_pool())   --> true
function cuda.get_allocator() return from_core(core._get_allocator(0), M.default_pool) end

-- run fn with allocator `which` set to alloc, restored after (also on error);
-- without fn, a guard to close
local function using(which, fname, alloc, fn, ...)
  local prev = core._get_allocator(which)
  set(which, fname, alloc)
  local function restore() core._set_allocator(which, prev) end
  if fn == nil then
    local done = false
    local g = {}
    function g.close() if not done then done = true; restore() end end
    return setmetatable(g, { __close = g.close })
  end
  if type(fn) ~= "function" then restore(); fail(fname, "expected a function, got %s", typename(fn)) end
  local res = table.pack(pcall(fn, ...))
  restore()
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

--- Run `fn(...)` with `alloc` as the allocator and restore the previous one
-- after it, also when it raises (CuPy's `using_allocator`); without `fn`,
-- set it and return a guard whose `close` (or `<close>`) restores it.
-- @function ga.cuda.using_allocator
-- @param alloc the allocator (as `set_allocator`'s)
-- @tparam[opt] function fn
-- @return fn's results, or a guard
-- @usage
-- local pool = ga.cuda.MemoryPool()
-- do
--   local _ <close> = ga.cuda.using_allocator(pool)
--   local x = ga.zeros(8)
--   print(pool:used_bytes())                       --> 512
-- end
-- print(ga.cuda.get_allocator() == ga.get_default_memory_pool())   --> true
function cuda.using_allocator(alloc, fn, ...) return using(0, "cuda.using_allocator", alloc, fn, ...) end

--- The allocator of host arrays while a CUDA device is current (pinned
-- memory, through which transfers run): nil (plain `cudaHostAlloc`, no
-- caching), `ga.get_default_pinned_memory_pool()`, a `ga.cuda.MemoryPool()`
-- (its host pool is pinned when a GPU is present), or a function
-- `(nbytes) -> MemoryPointer` of host memory (device_id -1).
-- @function ga.cuda.set_pinned_memory_allocator
-- @param alloc the allocator
-- @usage
-- ga.cuda.set_pinned_memory_allocator(nil)
-- ga.cuda.set_pinned_memory_allocator(ga.get_default_pinned_memory_pool())
function cuda.set_pinned_memory_allocator(alloc) set(1, "cuda.set_pinned_memory_allocator", alloc) end

-- set by init.lua: the Pool class and the two default pool objects
function M.bind_pools(pool_class, default_pool, pinned_pool)
  Pool = pool_class
  M.default_pool, M.pinned_pool = default_pool, pinned_pool
end

return M
