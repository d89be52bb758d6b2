--- gpuarray: NumPy-style n-dimensional arrays on NVIDIA GPUs, for Lua 5.4.
--
--    local ga = require "gpuarray"
--    local x = ga.arange(6, "float32")
--    print(x * 2 + 1)
--
-- The C module `gpuarray.core` does the work; this file assembles the
-- public API from it with CuPy's names.
--
-- Arrays are created on the *current device*: `cuda:0` by default, `cpu`
-- (the host backend) when there is no usable GPU, or what
-- `GPUARRAY_DEVICE=cpu|cuda:N` says.  `ga.host.X` makes the same array on
-- the host.  Devices, streams and events are in `ga.cuda` (module
-- `gpuarray.cuda`), printing in `gpuarray.format`.
--
-- dtypes are strings: `"bool"`, `"int8"` `"int16"` `"int32"` `"int64"`,
-- `"uint8"` ... `"uint64"`, `"float16"` `"float32"` `"float64"`,
-- `"complex64"` `"complex128"`; `ga.float32` etc. are the same strings, and
-- aliases such as `"float"`, `"int"`, `"f4"`, `"double"` are accepted.  A
-- dtype argument may also be given as an options table `{dtype = "int32"}`.
-- Shapes are an integer or a table of integers (`{}` is 0-d).  Axes and
-- indices are 1-based; values are not indices (`ga.arange(3)` is 0, 1, 2).
-- Errors are Lua errors of the form `"<function>: <problem>"`.
-- @module gpuarray

local core = require "gpuarray.core"
local format = require "gpuarray.format"
local cuda = require "gpuarray.cuda"

local ga = { cuda = cuda, core = core, __version = "0.1.0" }
local host = {}
--- The same API for host arrays (device `"cpu"`): `ga.host.zeros`,
-- `ga.host.array` ... take the arguments of `ga.zeros`, `ga.array` ... and
-- make arrays in host memory whatever the current device is.  It also has
-- the ufuncs, `matmul`, `asnumpy`, `get_array_module` and the dtype names.
-- @table ga.host
-- @usage
-- local h = ga.host.arange(3)
-- print(h.device)                    --> <CPU>
-- print(ga.get_array_module(h) == ga.host)   --> true
ga.host = host

-- dtype names: ga.float32 == "float32"
for _, name in ipairs(core.dtypes) do ga[name] = name; host[name] = name end

--- Creation.
-- Functions that make arrays.  `ga.X` makes the array on the current device
-- (`ga.zeros` ... `ga.identity`, `ga.array`, `ga.asarray`), or, for the
-- functions that take an array (`*_like`, `ascontiguousarray`, `copy`), on
-- that array's device; `ga.host.X` takes the same arguments and always makes
-- a host array.  The default dtype is float64.
-- @section creation

--- A new array whose values are not initialised.
-- @function ga.empty
-- @tparam int|table shape an integer or a table of integers (`{}` is 0-d)
-- @tparam[opt="float64"] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- local a = ga.empty({2, 3}, "float32")
-- print(a.dtype, a.shape[1], a.shape[2])   --> float32  2  3

--- A new array of zeros.
-- @function ga.zeros
-- @tparam int|table shape an integer or a table of integers (`{}` is 0-d)
-- @tparam[opt="float64"] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.zeros(3))                       --> array([0., 0., 0.])
-- print(ga.zeros({2, 2}, {dtype = "int32"}).dtype)   --> int32

--- A new array of ones.
-- @function ga.ones
-- @tparam int|table shape an integer or a table of integers (`{}` is 0-d)
-- @tparam[opt="float64"] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.ones({2, 2}, "int8"))
-- --> array([[1, 1],
-- -->        [1, 1]], dtype=int8)

--- A new array filled with one value.
-- @function ga.full
-- @tparam int|table shape an integer or a table of integers (`{}` is 0-d)
-- @tparam number|boolean fill the value of every element
-- @tparam[opt] string|table dtype a dtype name or `{dtype=}`; by default
--   the fill value's: int64 for a Lua integer, float64 for a float, bool for
--   a boolean
-- @treturn ndarray
-- @usage
-- print(ga.full(3, 7))                --> array([7, 7, 7])
-- print(ga.full({2}, 0.5, "float32")) --> array([0.5, 0.5], dtype=float32)

--- A new uninitialised array with the shape of `a`, on `a`'s device.
-- @function ga.empty_like
-- @tparam ndarray a the array whose shape (and dtype) to take
-- @tparam[opt=a.dtype] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- local a = ga.zeros({2, 3}, "float32")
-- local b = ga.empty_like(a)
-- print(b.dtype, b.shape[2])          --> float32  3

--- A new array of zeros with the shape of `a`, on `a`'s device.
-- @function ga.zeros_like
-- @tparam ndarray a the array whose shape (and dtype) to take
-- @tparam[opt=a.dtype] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.zeros_like(ga.arange(3)))  --> array([0, 0, 0])

--- A new array of ones with the shape of `a`, on `a`'s device.
-- @function ga.ones_like
-- @tparam ndarray a the array whose shape (and dtype) to take
-- @tparam[opt=a.dtype] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.ones_like(ga.arange(3), "float32"))   --> array([1., 1., 1.], dtype=float32)

--- A new array filled with one value, with the shape of `a`, on `a`'s device.
-- @function ga.full_like
-- @tparam ndarray a the array whose shape (and dtype) to take
-- @tparam number|boolean fill the value of every element
-- @tparam[opt=a.dtype] string|table dtype a dtype name, or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.full_like(ga.zeros(2), 9))   --> array([9., 9.])

--- An array from Lua values or another array; a copy unless `copy = false`.
-- @function ga.array
-- @param obj a rectangular nested table of numbers or booleans, an array
--   (host or device), a single number or boolean (0-d), or a table of
--   arrays (and nested tables of them), stacked along a new first axis
-- @tparam[opt] string|table dtype a dtype name or `{dtype=, copy=}`; by
--   default an array's own dtype, else bool for booleans, int64 when every
--   value is a Lua integer, float64 otherwise (and for tables without
--   values); `copy` as NumPy 2's: true (the default) always copies, nil
--   copies only when needed, false never (an error when it must)
-- @treturn ndarray a new array on the current device
-- @usage
-- print(ga.array({{1, 2}, {3, 4}}, "float32"))
-- --> array([[1., 2.],
-- -->        [3., 4.]], dtype=float32)
-- print(ga.array({true, false}).dtype)   --> bool
-- local a = ga.arange(2)
-- print(ga.array({a, a + 2}))         --> array([[0, 1], [2, 3]])
-- print(rawequal(ga.array(a, {copy = false}), a))   --> true

--- An array from Lua values or another array, without copying when `obj`
-- is already an array on the target device with the requested dtype.
-- @function ga.asarray
-- @param obj a nested table, an array or a number, as for `ga.array`
-- @tparam[opt] string|table dtype a dtype name or `{dtype=, copy=, device=}`
--   (copy nil by default: see `ga.array`; `device`: made there instead of
--   on the current device, as `x:to(device)`)
-- @treturn ndarray `obj` itself, or a new array on the current device
-- @usage
-- local x = ga.array({1, 2, 3})
-- print(rawequal(ga.asarray(x), x))   --> true
-- local h = ga.host.array({1, 2, 3})
-- local d = ga.asarray(h)             -- host -> current device
-- print(ga.asarray(x, "float32").dtype)   --> float32

--- A C-contiguous array with the values of `a`: `a` itself when it is
-- already C-contiguous with that dtype, else a contiguous copy on `a`'s
-- device.  A nested table or number gives a new array on the current device.
-- @function ga.ascontiguousarray
-- @param a an array (or what `ga.array` takes)
-- @tparam[opt] string|table dtype a dtype name or `{dtype=}`
-- @treturn ndarray
-- @usage
-- local m = ga.zeros({2, 3})
-- print(m.T.flags.c_contiguous)                        --> false
-- print(ga.ascontiguousarray(m.T).flags.c_contiguous)  --> true

--- Evenly spaced values in `[start, stop)`, as NumPy's `arange`:
-- `ga.arange(stop)` or `ga.arange(start, stop, step?, dtype?)`.
-- @function ga.arange
-- @tparam[opt=0] number start first value
-- @tparam number stop end of the interval (not included)
-- @tparam[opt=1] number step spacing (not zero)
-- @tparam[opt] string|table dtype a dtype name or `{dtype=}` (always the
--   last argument); by default int64 when every number is a Lua integer,
--   else float64
-- @treturn ndarray a 1-D array
-- @usage
-- print(ga.arange(5))                 --> array([0, 1, 2, 3, 4])
-- print(ga.arange(1, 2, 0.25))        --> array([1.  , 1.25, 1.5 , 1.75])
-- print(ga.arange(0, 5, 2, "float32"))   --> array([0., 2., 4.], dtype=float32)

--- `num` evenly spaced values from `start` to `stop`.
-- @function ga.linspace
-- @tparam number start first value
-- @tparam number stop last value (unless `endpoint = false`)
-- @tparam[opt=50] int num number of values
-- @tparam[opt] string|table opts a dtype name, or
--   `{num=, endpoint=true, dtype="float64"}`
-- @treturn ndarray a 1-D array
-- @usage
-- print(ga.linspace(0, 1, 5))         --> array([0.  , 0.25, 0.5 , 0.75, 1.  ])
-- print(ga.linspace(0, 1, 4, {endpoint = false}))   --> array([0.  , 0.25, 0.5 , 0.75])
-- print(ga.linspace(0, 1, {num = 3, dtype = "float32"}))   --> array([0. , 0.5, 1. ], dtype=float32)

--- A 2-D array with ones on a diagonal and zeros elsewhere.
-- @function ga.eye
-- @tparam int N number of rows
-- @tparam[opt=N] int M number of columns (`nil` for N)
-- @tparam[opt=0] int k the diagonal: 0 the main one, > 0 above, < 0 below
-- @tparam[opt="float64"] string|table dtype a dtype name or `{dtype=}`
--   (always the last argument)
-- @treturn ndarray an N x M array
-- @usage
-- print(ga.eye(2, 3, "int8"))
-- --> array([[1, 0, 0],
-- -->        [0, 1, 0]], dtype=int8)
-- print(ga.eye(3, nil, 1).shape[2])   --> 3

--- The n x n identity matrix.
-- @function ga.identity
-- @tparam int n number of rows and columns
-- @tparam[opt="float64"] string|table dtype a dtype name or `{dtype=}`
-- @treturn ndarray
-- @usage
-- print(ga.identity(2, "float32"))
-- --> array([[1., 0.],
-- -->        [0., 1.]], dtype=float32)
for name, f in pairs(core.host) do host[name] = f; ga[name] = core[name] end

-- The parts written in Lua, each documented in its file: each returns
-- { ga = functions for ga, host = those for ga.host } and adds its ndarray
-- methods itself.  ufuncs: the ufuncs, their aliases, round/angle/real/imag/
-- clip and the dtype rules; shape: methods only (ga.reshape ... come from
-- core.host above); kernel and raw: the user kernels (GPU only); construct
-- (after ufuncs): ga.copy, the creation function, over the COPY row.
for _, part in ipairs { "ufuncs", "shape", "index", "indexing", "join", "sort", "scan", "reduce", "kernel", "raw",
                        "random", "numeric", "construct", "files", "fft", "window", "fuse", "products", "linalg",
                        "interop", "cudnn" } do
  local p = require("gpuarray." .. part)
  for k, f in pairs(p.ga) do ga[k] = f end
  for k, f in pairs(p.host) do host[k] = f end
end
-- several GPUs and processes: ga.distributed (NCCL), ga.host.distributed (a one-rank world)
do
  local d = require "gpuarray.distributed"
  ga.distributed, host.distributed = d.ga, d.host
end

-- ga.array / ga.asarray of a table holding arrays (NumPy's np.array([a, b])):
-- found by following first elements, or anywhere in a short top level;
-- each level is stacked (the C converter takes numbers and booleans only)
local function holds_array(t)
  local v = t
  while type(v) == "table" and getmetatable(v) == nil do v = rawget(v, 1) end
  if getmetatable(v) == core.ndarray_mt then return true end
  if #t <= 1024 then
    for i = 1, #t do if getmetatable(t[i]) == core.ndarray_mt then return true end end
  end
  return false
end
local device_id = require("gpuarray.util").device_id
-- run fn with device id current (the host: -1)
local function on_device(id, fn, ...)
  if id == core.get_device() then return fn(...) end
  return core._devices[id]:with(fn, ...)
end

for _, m in ipairs { ga, host } do
  local c_array, c_asarray = m.array, m.asarray
  local function stacked(t)
    local parts = {}
    for i = 1, #t do
      local e = t[i]
      parts[i] = type(e) == "table" and getmetatable(e) == nil and stacked(e) or c_asarray(e)
    end
    return m.stack(parts)
  end
  -- the C function, or the stacked levels of a table holding arrays
  local function taking_arrays(c_fn)
    return function(obj, dtype)
      if type(obj) == "table" and getmetatable(obj) == nil and holds_array(obj) then
        return dtype == nil and stacked(obj) or c_asarray(stacked(obj), dtype)
      end
      return c_fn(obj, dtype)
    end
  end
  local asarray = taking_arrays(c_asarray)
  m.array, m.asarray = taking_arrays(c_array), asarray
  if m == ga then
    -- ga.asarray(x, {device = d}): made on d (CuPy's cupy.asarray under a device)
    m.asarray = function(obj, dtype)
      if type(dtype) == "table" and getmetatable(dtype) == nil and dtype.device ~= nil then
        local id, rest = device_id("asarray", dtype.device), {}
        for k, v in pairs(dtype) do if k ~= "device" then rest[k] = v end end
        return on_device(id, asarray, obj, next(rest) ~= nil and rest or nil)
      end
      return asarray(obj, dtype)
    end
  end
end

--- The array on `device` (a copy there, or x itself when it is already
-- there): `"cpu"`, `"cuda:N"`, an ordinal N or a `ga.cuda.Device`.
-- The same as `ga.asarray(x, {device = device})`.
-- @function ndarray:to
-- @param device where the array should be
-- @treturn ndarray
-- @usage
-- local h = ga.arange(3):to("cpu")
-- print(h.device, rawequal(h:to("cpu"), h))   --> <CPU>  true
function core.ndarray_methods.to(x, device)
  local id = device_id("to", device)
  return on_device(id, core.asarray, x)
end
-- tools for users: assertions (numpy.testing's) and timing (cupyx.profiler's)
ga.testing, host.testing = require "gpuarray.testing", require "gpuarray.testing"
ga.profiler, host.profiler = require "gpuarray.profiler", require "gpuarray.profiler"

--- Matrix product with NumPy's `matmul` rules (the `@` operator):
-- 2-D operands multiply as matrices; a 1-D first operand is a row and a
-- 1-D second one a column, and that axis is dropped from the result (two
-- vectors give a 0-d array); N-d operands are stacks of matrices in their
-- last two axes, whose leading (batch) axes broadcast.  Every numeric
-- dtype: the operands' dtypes promote (NumPy rules); floats and complex
-- run on cuBLAS (one strided-batched GEMM for a stack; broadcast,
-- transposed and stepped operands are read in place) or OpenBLAS on the
-- host; integers and bool on our own kernel (exact: integer sums wrap in
-- the result dtype as NumPy's).  Options: `out=` (an array of the
-- result's shape; a same-kind cast), `dtype=` (the dtype to compute in).
-- Both operands must be on the same device.
-- @function ga.matmul
-- @tparam ndarray a (..., n, k) or (k,)
-- @tparam ndarray b (..., k, m) or (k,)
-- @tparam[opt] table opts `{out=, dtype=}`
-- @treturn ndarray (..., n, m), or `out`
-- @usage
-- local a = ga.array({{1, 2}, {3, 4}}, "float32")
-- print(ga.matmul(a, ga.identity(2, "float32")))
-- --> array([[1., 2.],
-- -->        [3., 4.]], dtype=float32)
-- print(ga.matmul(ga.ones({5, 2, 3}), ga.ones(3)).shape[2])   --> 2
-- print(ga.matmul(ga.array({1, 2}, "int8"), ga.array({{100}, {14}}, "int8")))   --> array([-128], dtype=int8)
ga.matmul, host.matmul = core.matmul, core.matmul
-- the array API's ga.linalg.matmul, matrix_transpose, vecdot (products.lua)
do
  local p = require "gpuarray.products"
  for k, f in pairs(p.linalg.ga) do ga.linalg[k] = f end
  for k, f in pairs(p.linalg.host) do host.linalg[k] = f end
end

--- Host and device.
-- @section hostdevice

--- The module (`ga` or `ga.host`) that made array x: write code once for
-- both, as with `cupy.get_array_module`.
-- @param x an array (anything else gives `ga.host`)
-- @treturn table `ga` for a device array, `ga.host` for a host array
-- @usage
-- local function double(x)
--   local xp = ga.get_array_module(x)
--   return ga.multiply(x, 2, {out = xp.empty(x.shape, x.dtype)})
-- end
-- print(double(ga.host.arange(3)))    --> array([0, 2, 4])
function ga.get_array_module(x)
  if getmetatable(x) == core.ndarray_mt and x.device.id >= 0 then return ga end
  return host
end
host.get_array_module = ga.get_array_module
--- A host copy of `x` (CuPy's `asnumpy`): always a new host array, also
-- when `x` is already on the host; the same as `x:get()`.  A nested table
-- or a number gives a new host array, as `ga.host.array` does.
-- @function ga.asnumpy
-- @param x an array (any device), a nested table or a number
-- @treturn ndarray a host array (device `"cpu"`)
-- @usage
-- local x = ga.arange(3)
-- local h = ga.asnumpy(x)
-- print(h.device, h)                  --> <CPU>  array([0, 1, 2])
host.asnumpy = core.asnumpy

-- ndarray methods (the C __index looks here first) --------------------------

--- The n-dimensional array (userdata `gpuarray.ndarray`).
-- Its attributes are read-only; methods are called with `:`, and the
-- operators `+ - * / // % ^`, unary `-`, `& | ~ << >>` and unary `~`,
-- `#`, `==` (true for one object, an error for two arrays), `tostring`
-- and `<close>` work on it.  Element-wise
-- comparisons are methods (`x:lt(y)` ...): Lua makes one boolean of
-- `<`, `<=` and `==`.
-- @type ndarray

--- The shape: a new table of integers (`{}` for 0-d).
-- @field ndarray.shape
-- @usage
-- local s = ga.zeros({2, 3}).shape
-- print(s[1], s[2])                   --> 2  3

--- Number of dimensions.
-- @field ndarray.ndim
-- @usage print(ga.zeros({2, 3}).ndim)   --> 2

--- Number of elements.
-- @field ndarray.size
-- @usage print(ga.zeros({2, 3}).size)   --> 6

--- The dtype name, a string such as `"float32"`.
-- @field ndarray.dtype
-- @usage print(ga.zeros(2, "float32").dtype == ga.float32)   --> true

--- Bytes per element.
-- @field ndarray.itemsize
-- @usage print(ga.zeros(2, "float32").itemsize)   --> 4

--- Bytes of all elements (`size * itemsize`).
-- @field ndarray.nbytes
-- @usage print(ga.zeros({2, 3}, "float32").nbytes)   --> 24

--- Strides in bytes: a new table, one entry per axis.
-- @field ndarray.strides
-- @usage
-- local x = ga.zeros({2, 3}, "int32")
-- print(x.strides[1], x.strides[2], x.T.strides[1])   --> 12  4  4

--- The array's device, as CuPy's `x.device`: a `ga.cuda.Device` object
-- (`<CUDA Device 0>`), or the host's `<CPU>`, with `.id` (-1 for the host),
-- `==`, `:use()` and `:with(fn)`; one object per device, so `a.device ==
-- b.device` tells whether two arrays share one.
-- @field ndarray.device
-- @usage
-- local h = ga.host.zeros(2)
-- print(h.device, h.device.id)        --> <CPU>  -1
-- print(h.device == ga.host.ones(1).device)   --> true

--- The array that owns the memory of a view (`nil` for an array that owns
-- its memory).
-- @field ndarray.base
-- @usage
-- local x = ga.zeros({2, 3})
-- print(x.base, rawequal(x.T.base, x))   --> nil  true

--- Memory layout flags: a new table
-- `{c_contiguous=, f_contiguous=, owndata=, writeable=}` of booleans.
-- `writeable` is false for read-only memory (a DLPack tensor flagged
-- READ_ONLY, a file loaded with `mmap_mode = "r"`, a C host's read-only
-- buffer) and all views of it: writes into it raise an error.
-- @field ndarray.flags
-- @usage
-- local x = ga.zeros({2, 3})
-- print(x.flags.c_contiguous, x.T.flags.f_contiguous, x.T.flags.owndata)   --> true  true  false

--- The transpose: a view with the axes reversed (no copy).
-- @field ndarray.T
-- @usage print(ga.zeros({2, 3}).T.shape[1])   --> 3

--- Release the array's memory now (back to its pool) instead of at garbage
-- collection.  Calling it again does nothing; any other later use raises
-- `"<function>: array has been freed"`.
-- @function ndarray:free
-- @usage
-- local x = ga.zeros(1000)
-- x:free()
-- print(pcall(function() return x:get() end))   --> false  ...: get: array has been freed
local M = core.ndarray_methods
--- A host copy of the array (the same as `ga.asnumpy(x)`); for a device
-- array the transfer is synchronous.
-- @function ndarray:get
-- @treturn ndarray a new host array
-- @usage
-- local h = ga.arange(3):get()
-- print(h.device)                     --> <CPU>
M.get = core.get
--- Copy values into the array, converting them to its dtype.
-- @function ndarray:set
-- @param src a host array, a device array or a nested table, of the
--   array's shape
-- @treturn ndarray the array itself
-- @usage
-- local x = ga.zeros(3)
-- x:set({1, 2, 3})
-- x:set(ga.host.arange(3))
-- print(x)                            --> array([0., 1., 2.])
M.set = core.set
--- The values as nested Lua tables: bool gives booleans, integer dtypes
-- Lua integers, floats Lua floats, complex `{re, im}`; a 0-d array gives a
-- plain value.
-- @function ndarray:totable
-- @treturn table|number|boolean
-- @usage
-- local t = ga.array({{1, 2}, {3, 4}}):totable()
-- print(t[2][1], math.type(t[2][1]))  --> 3  integer
M.totable = core.totable
--- The same as `x:totable()` (NumPy's name).
-- @function ndarray:tolist
-- @treturn table|number|boolean
-- @usage print(ga.arange(3):tolist()[3])   --> 2
M.tolist = core.totable
--- The value of a size-1 array as a Lua value (a complex value as two
-- numbers, re and im).
-- @function ndarray:item
-- @return number|boolean (and the imaginary part for a complex dtype)
-- @usage
-- print(ga.array({42}):item())        --> 42
-- print(ga.zeros(1, "complex64"):item())   --> 0.0  0.0
M.item = core.item
local kinds = { bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i",
  uint8 = "u", uint16 = "u", uint32 = "u", uint64 = "u",
  float16 = "f", float32 = "f", float64 = "f", complex64 = "c", complex128 = "c" }

--- `a + b`: the same as `ga.add(a, b)`; either operand may be a Lua number.
-- @function ndarray:__add
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage
-- local x = ga.arange(3)
-- print(x + 1, 1 + x, x + x)          --> array([1, 2, 3]) ...

--- `a - b`: the same as `ga.subtract(a, b)`.
-- @function ndarray:__sub
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(2 - ga.arange(3))      --> array([2, 1, 0])

--- `a * b`: the same as `ga.multiply(a, b)` (element-wise; the matrix
-- product is `ga.matmul`).
-- @function ndarray:__mul
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3) * 2)      --> array([0, 2, 4])

--- `a / b`: the same as `ga.true_divide(a, b)`.
-- @function ndarray:__div
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3) / 2)      --> array([0. , 0.5, 1. ])

--- `-a`: the same as `ga.negative(a)`.
-- @function ndarray:__unm
-- @treturn ndarray
-- @usage print(-ga.arange(3))         --> array([ 0, -1, -2])

--- `a // b`: the same as `ga.floor_divide(a, b)`.
-- @function ndarray:__idiv
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.array({7, -7}) // 2)   --> array([ 3, -4])

--- `a % b`: the same as `ga.remainder(a, b)` (the sign of `b`, as Lua's `%`).
-- @function ndarray:__mod
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.array({7, -7}) % 3, 7 % ga.array({3, -3}))   --> array([1, 2])  array([ 1, -2])

--- `a ^ b`: the same as `ga.power(a, b)` (NumPy's `a ** b`; integer arrays
-- stay integer).
-- @function ndarray:__pow
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(4) ^ 2, 2 ^ ga.arange(4))   --> array([0, 1, 4, 9])  array([1, 2, 4, 8])

--- `a & b`: the same as `ga.bitwise_and(a, b)` (bool and integer dtypes;
-- a float array is an error naming `bitwise_and`).
-- @function ndarray:__band
-- @param b an array or a Lua integer
-- @treturn ndarray
-- @usage
-- print(ga.array({12, 10}) & 6)       --> array([4, 2])
-- print(pcall(function() return ga.array({1.5}) & 1 end))
-- --> false  ...: bitwise_and: ufunc 'bitwise_and' not supported for the input types (float64, float64)

--- `a | b`: the same as `ga.bitwise_or(a, b)`.
-- @function ndarray:__bor
-- @param b an array or a Lua integer
-- @treturn ndarray
-- @usage print(ga.array({true, false}) | ga.array({false, false}))   --> array([ True, False])

--- `a ~ b` (binary): the same as `ga.bitwise_xor(a, b)`.
-- @function ndarray:__bxor
-- @param b an array or a Lua integer
-- @treturn ndarray
-- @usage print(ga.array({12, 10}) ~ 6)   --> array([10, 12])

--- `~a` (unary): the same as `ga.invert(a)`.
-- @function ndarray:__bnot
-- @treturn ndarray
-- @usage print(~ga.array({0, 5}, "uint8"))   --> array([255, 250], dtype=uint8)

--- `a << b`: the same as `ga.left_shift(a, b)`.
-- @function ndarray:__shl
-- @param b an integer array or a Lua integer
-- @treturn ndarray
-- @usage print(ga.arange(4) << 2, 1 << ga.arange(4))   --> array([ 0,  4,  8, 12])  array([1, 2, 4, 8])

--- `a >> b`: the same as `ga.right_shift(a, b)`.
-- @function ndarray:__shr
-- @param b an integer array or a Lua integer
-- @treturn ndarray
-- @usage print(ga.array({16, -16}) >> 2)   --> array([ 4, -4])

--- `a < b` and `a > b` raise an error: Lua makes one boolean of them.
-- Compare element-wise with `a:lt(b)`, `a:gt(b)` or `ga.less(a, b)`,
-- `ga.greater(a, b)`.
-- @function ndarray:__lt
-- @usage
-- local x = ga.arange(3)
-- print(pcall(function() return x < 1 end))   --> false  ...: lt: arrays cannot be compared with < <= > >= ...
-- print(x:lt(1))                      --> array([ True, False, False])

--- `a <= b` and `a >= b` raise an error, as `<`; use `a:le(b)`, `a:ge(b)`,
-- `ga.less_equal(a, b)` or `ga.greater_equal(a, b)`.
-- @function ndarray:__le
-- @usage
-- local x = ga.arange(3)
-- print(x:le(1), x:ge(1))             --> array([ True,  True, False])  array([False,  True,  True])

--- `#x`: the length of the first axis (an error for a 0-d array).
-- @function ndarray:__len
-- @treturn int
-- @usage print(#ga.zeros({4, 2}))     --> 4

--- `a == b` of two different arrays is an error: Lua makes one boolean of
-- `==`, so it cannot compare element-wise, and a silent identity test would
-- read as "not equal".  Use `ga.equal(a, b)` / `a:eq(b)` (element-wise),
-- `ga.array_equal(a, b)` (one boolean) or `rawequal(a, b)` (identity).
-- (`x == 0` is false whatever x holds: Lua never asks an array about a number.)
-- @function ndarray:__eq
-- @treturn boolean true for `x == x`
-- @usage
-- local x = ga.arange(3)
-- print(x == x, rawequal(x, x:copy()))          --> true  false
-- print(ga.array_equal(x, x:copy()))            --> true
-- print(pcall(function() return x == x:copy() end))   --> false  ...==: two different arrays...

--- `local x <close> = ...`: the array is freed (as by `x:free()`) when the
-- variable goes out of scope.
-- @function ndarray:__close
-- @usage
-- do
--   local tmp <close> = ga.zeros(1000)
-- end                                 -- tmp's memory is back in the pool here

--- `tostring(x)`: NumPy's `repr` of the array, summarised with `...` when it
-- has more than 1000 elements; a freed array prints as
-- `<freed gpuarray.ndarray>`.  It costs O(printed elements), whatever the
-- size; any failure (out of memory, say) raises `tostring: ...`.
-- @function ndarray:__tostring
-- @treturn string
-- @usage
-- print(tostring(ga.array({1, 2}, "int32")))   --> array([1, 2], dtype=int32)
-- print(ga.arange(2000))              --> array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))
local function repr(x)
  local po = format.get_printoptions()   -- ga.set_printoptions
  local t = core.repr_table(x, po.threshold, po.edgeitems)   -- nil only for a freed array
  if t == nil then return "<freed gpuarray.ndarray>" end
  return format.repr(t, { dtype = x.dtype, shape = x.shape, kind = kinds[x.dtype] })
end
core.ndarray_mt.__tostring = function(x)
  local ok, s = pcall(repr, x)
  if ok then return s end
  -- any other failure (out of memory included) is the caller's error
  if type(s) == "string" and not s:find("tostring: ", 1, true) then s = "tostring: " .. s end
  error(s, 0)
end

-- memory pools --------------------------------------------------------------

local function current_pool_id()
  return core.get_device()   -- -1 (host pool) when the host is current
end

--- A caching memory pool, as returned by `ga.get_default_memory_pool()`
-- and `ga.get_default_pinned_memory_pool()`.  Freed arrays return their
-- blocks to the pool, which keeps them for reuse instead of giving them back
-- to the driver.
-- @type Pool
local Pool = {}
Pool.__index = Pool

local function pool(idf)
  return setmetatable({ _id = idf }, Pool)
end

--- Bytes in use by arrays.
-- @treturn int
-- @usage
-- local pool = ga.get_default_memory_pool()
-- local before = pool:used_bytes()
-- local x = ga.zeros(1024, "float32")
-- print(pool:used_bytes() - before)   --> 4096
function Pool:used_bytes() return (core.pool_stats(self._id())) end
--- Bytes held from the device (in use + cached).
-- @treturn int
-- @usage
-- local pool = ga.get_default_memory_pool()
-- print(pool:total_bytes() >= pool:used_bytes())   --> true
function Pool:total_bytes() local _, t = core.pool_stats(self._id()); return t end
--- Number of cached free blocks.
-- @treturn int
-- @usage
-- local x = ga.zeros(1000)
-- x:free()                            -- its block is now cached in the pool
-- print(ga.get_default_memory_pool():n_free_blocks())
function Pool:n_free_blocks() local _, _, n = core.pool_stats(self._id()); return n end
--- Give every cached, unused block back to the device.
-- @usage ga.get_default_memory_pool():free_all_blocks()
function Pool:free_all_blocks() core.pool_free_all(self._id()) end
--- Limit of the pool in bytes (0: none).
-- @treturn int
-- @usage print(ga.get_default_memory_pool():get_limit())   --> 0
function Pool:get_limit() local _, _, _, l = core.pool_stats(self._id()); return l end
-- A byte count for set_limit: a non-negative integer (an integral float
-- too); one past int64 is clamped to math.maxinteger (no pool holds that
-- much, so it is as good as no limit), inf and NaN are refused (CuPy cannot
-- convert them either).
local function limit_bytes(v, what)
  if type(v) ~= "number" then
    error(string.format("set_limit: %s must be a number of bytes, got %s", what, type(v)), 3)
  end
  if v ~= v or v == math.huge or v == -math.huge then
    error(string.format("set_limit: %s must be a finite number of bytes, got %s (0 removes the limit)", what,
      tostring(v)), 3)
  end
  if v < 0 then error(string.format("set_limit: memory limit size out of range: %s", tostring(v)), 3) end
  if math.type(v) == "integer" then return v end
  if v ~= math.floor(v) then
    error(string.format("set_limit: %s must be an integer number of bytes, got %s", what, tostring(v)), 3)
  end
  return math.tointeger(v) or math.maxinteger
end

--- Set the limit: `pool:set_limit(2^30)`, `pool:set_limit{size=2^30}` or `{fraction=0.5}`.
-- An allocation that would take the pool's total over the limit fails with
-- `out of memory` (after the pool has freed its cached blocks and run a full
-- garbage collection).
-- @tparam int|table arg a size in bytes, `{size=bytes}`, or `{fraction=f}`
--   of the device's total memory (CUDA devices only, 0 <= f <= 1); 0 or nil
--   removes the limit; sizes past int64 are clamped to `math.maxinteger`,
--   `math.huge` and negative sizes are errors
-- @usage
-- local pool = ga.get_default_memory_pool()
-- pool:set_limit{size = 1 << 30}      -- at most 1 GiB
-- print(pool:get_limit())             --> 1073741824
-- if ga.cuda.is_available() then pool:set_limit{fraction = 0.5} end
-- pool:set_limit(0)                   -- no limit
function Pool:set_limit(arg)
  local size
  if type(arg) == "table" then
    for k in pairs(arg) do
      if k ~= "size" and k ~= "fraction" then error("set_limit: unknown option '" .. tostring(k) .. "'", 2) end
    end
    local f = arg.fraction
    if f ~= nil and arg.size ~= nil then error("set_limit: size and fraction cannot be specified at one time", 2) end
    if f ~= nil then
      if type(f) ~= "number" or not (f >= 0 and f <= 1) then
        error("set_limit: memory limit fraction out of range: " .. tostring(f), 2)
      end
      local id = self._id()
      if math.type(id) ~= "integer" or id < 0 then error("set_limit: fraction needs a CUDA device's pool", 2) end
      local _, total = core.mem_info(id)
      size = math.floor(f * total)
    else
      size = arg.size == nil and 0 or limit_bytes(arg.size, "size")
    end
  elseif arg == nil then
    size = 0
  else
    size = limit_bytes(arg, "size")
  end
  core.pool_set_limit(self._id(), size)
end

local default_pool = pool(current_pool_id)
local pinned_pool = pool(function() return -1 end)
require("gpuarray.interop").bind_pools(Pool, default_pool, pinned_pool)   -- ga.cuda.MemoryPool, set_allocator

--- Memory pools.
-- @section pools

--- The memory pool arrays of the current device come from.  The returned
-- object always acts on the pool of the device current at the time of each
-- call: a CUDA device's pool, or the host pool when the host is current.
-- @treturn Pool
-- @usage print(ga.get_default_memory_pool():used_bytes())
function ga.get_default_memory_pool() return default_pool end
--- The (pinned, when a GPU is present) pool host arrays come from.
-- With a GPU it holds page-locked memory (`cudaHostAlloc`), so host arrays
-- transfer at bus rate; without one it is an ordinary aligned-malloc pool.
-- @treturn Pool
-- @usage
-- local pinned = ga.get_default_pinned_memory_pool()
-- print(pinned:n_free_blocks() >= 0)  --> true
-- pinned:free_all_blocks()
function ga.get_default_pinned_memory_pool() return pinned_pool end

--- Timing.
-- @section timing

--- Monotonic wall-clock time in seconds (`clock_gettime(CLOCK_MONOTONIC)`),
-- as Python's `time.perf_counter`; it does not synchronise a device, so
-- time GPU work with `ga.cuda.Event`s or after a `synchronize()`.
-- @function ga.core.clock
-- @treturn number seconds from an arbitrary origin
-- @usage
-- local t0 = ga.core.clock()
-- local x = ga.ones(1000) * 2
-- print(ga.core.clock() - t0 >= 0)   --> true

-- A name a module lacks is an error that names it (with the closest name),
-- not a nil that fails later as "attempt to call a nil value"
local function distance(a, b)   -- Levenshtein, for the hint only
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a:byte(i) == b:byte(j) and 0 or 1))
    end
    prev = cur
  end
  return prev[#b]
end
local function strict(t, name)
  setmetatable(t, { __index = function(_, k)
    if type(k) ~= "string" then return nil end
    local best, bd = nil, #k >= 5 and 3 or 2   -- 2 edits only in a longer name
    for key in pairs(t) do
      if type(key) == "string" and key:sub(1, 1) ~= "_" then
        local d = distance(k:lower(), key:lower())
        if d < bd or (d == bd and best and key < best) then best, bd = key, d end
      end
    end
    error(("%s.%s: %s has no function or value named '%s'%s"):format(name, k, name, k,
      best and ("; did you mean %s.%s?"):format(name, best) or ""), 2)
  end })
end
strict(ga, "ga")
strict(host, "ga.host")
for _, sub in ipairs { "random", "linalg", "fft", "cudnn" } do
  strict(ga[sub], "ga." .. sub)
  strict(host[sub], "ga.host." .. sub)
end
-- GPUARRAY_SYNC_LEDGER=1: count implicit synchronisations from the start,
-- and print them when the state closes (ga.cuda.sync_ledger)
if os.getenv("GPUARRAY_SYNC_LEDGER") == "1" then core.sync_ledger(true) end

strict(ga.distributed, "ga.distributed")
strict(host.distributed, "ga.host.distributed")
strict(ga.testing, "ga.testing")
strict(ga.profiler, "ga.profiler")

return ga
