--- Scans and nonzero selection: `cumsum cumprod nancumsum nancumprod`,
-- `nonzero argwhere flatnonzero` (and `ga.where(cond)` with one argument),
-- and the methods `x:cumsum`, `x:cumprod`, `x:nonzero`.  The C half is
-- src/binding/lga_scan.c (kernels in src/cuda/ga_cuda_scan.c, host loops in
-- src/host/ga_host_scan.c); gpuarray/init.lua puts these in `ga` and `ga.host`.
--
-- **Scans** are the reduction rows `sum prod nansum nanprod` of
-- src/base/ga_reduce.def run along one axis.  The result's dtype is NumPy's:
-- bool and signed integers give int64, unsigned integers uint64, the others
-- keep their dtype; `dtype=` sets the loop dtype and the result's dtype
-- (`cumsum(int8, {dtype="int8"})` wraps, as NumPy).  float16 is accumulated
-- in float32 and rounded once per element (NumPy accumulates in float16, so
-- long float16 scans may differ in the last bits, CuPy does the same as
-- here).  Results are deterministic: the same data gives the same bits on
-- every run (the GPU combines in a fixed order that depends only on the
-- shape; no atomics).  Float results on the GPU may differ from the host's
-- sequential sums in the last bits (a different combining order).
--
-- **Nonzero selection** returns **1-based** positions (int64), so that
-- `x[ga.nonzero(m)]` selects the true elements.  A truth value is "not
-- zero": NaN is true, a complex number is true when either part is.  The
-- result's size depends on the data, so on the GPU these calls synchronise
-- the current stream once (to read the count back), as CuPy does.
-- @module gpuarray.scan
local core = require "gpuarray.core"

--- Scans.
-- `ga.host.X` is the same function (a Lua table argument becomes a host
-- array).  The axis is 1-based (negative from the end); with no axis the
-- array is flattened first (C order) and the result is 1-D (NumPy's
-- `axis=None`).
-- @section scans

--- Cumulative sum along an axis.
-- @function ga.cumsum
-- @param x an array (or a nested table / number)
-- @tparam[opt] int axis 1-based; `nil` flattens
-- @tparam[opt] table opts `{axis=, dtype=, out=}`; `out` must have the
--   result's shape and be on x's device; any dtype (the values are cast)
-- @treturn ndarray a new array, or `out`
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}})
-- print(ga.cumsum(x))           --> array([ 1,  3,  6, 10, 15, 21])
-- print(ga.cumsum(x, 1))
-- --> array([[1, 2, 3],
-- -->        [5, 7, 9]])
-- print(x:cumsum(-1))
-- --> array([[ 1,  3,  6],
-- -->        [ 4,  9, 15]])
-- print(ga.cumsum(ga.array({100, 100}, "int8"), {dtype = "int8"}))   --> array([ 100,  -56], dtype=int8)
-- print(pcall(ga.cumsum, x, 3))
-- --> false  ...: cumsum: axis 3 is out of bounds for array of dimension 2 (axes are 1-based)

--- Cumulative product along an axis (arguments as `ga.cumsum`).
-- @function ga.cumprod
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, dtype=, out=}`
-- @treturn ndarray
-- @usage
-- print(ga.cumprod(ga.array({1, 2, 3, 4})))   --> array([ 1,  2,  6, 24])
-- print(ga.array({{1, 2}, {3, 4}}, "float32"):cumprod(1))
-- --> array([[1., 2.],
-- -->        [3., 8.]], dtype=float32)

--- Cumulative sum treating NaN as zero (arguments as `ga.cumsum`).
-- @function ga.nancumsum
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, dtype=, out=}`
-- @treturn ndarray
-- @usage print(ga.nancumsum(ga.array({1, 0/0, 2})))   --> array([1., 1., 3.])

--- Cumulative product treating NaN as one (arguments as `ga.cumsum`).
-- @function ga.nancumprod
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, dtype=, out=}`
-- @treturn ndarray
-- @usage print(ga.nancumprod(ga.array({0/0, 2, 0/0, 3})))   --> array([1., 2., 2., 6.])

--- Nonzero selection.
-- Positions are 1-based; each of these synchronises the device once.
-- @section nonzero

--- The positions of the true (non-zero) elements: a table of `x.ndim`
-- int64 arrays, one per axis, in C order of the elements, so that
-- `x[ga.nonzero(x)]` is the 1-D array of those elements.  A 0-d array is an
-- error (as NumPy 2).
-- @function ga.nonzero
-- @param x an array of any dtype
-- @treturn table a sequence of 1-D int64 arrays (views of one array)
-- @usage
-- local m = ga.array({{0, 7, 0}, {5, 0, 9}})
-- local idx = ga.nonzero(m)
-- print(idx[1], idx[2])        --> array([1, 2, 2])  array([2, 1, 3])
-- print(m[idx])                --> array([7, 5, 9])
-- print(#m:nonzero())          --> 2

--- The positions of the true elements as rows of an (N, ndim) int64 array
-- (1-based).
-- @function ga.argwhere
-- @param x an array of any dtype
-- @treturn ndarray
-- @usage
-- print(ga.argwhere(ga.array({{0, 7}, {5, 0}})))
-- --> array([[1, 2],
-- -->        [2, 1]])

--- The 1-based positions of the true elements of `x` flattened (C order).
-- @function ga.flatnonzero
-- @param x an array of any dtype
-- @treturn ndarray a 1-D int64 array
-- @usage print(ga.flatnonzero(ga.array({{0, 7}, {5, 0}})))   --> array([2, 3])

local M = core.ndarray_methods
--- `x:cumsum(axis, opts)`: the same as `ga.cumsum(x, axis, opts)`.
-- @function ndarray:cumsum
-- @tparam[opt] int axis
-- @tparam[opt] table opts
-- @treturn ndarray
-- @usage print(ga.arange(4):cumsum())   --> array([0, 1, 3, 6])
M.cumsum = core._scan.cumsum
--- `x:cumprod(axis, opts)`: the same as `ga.cumprod(x, axis, opts)`.
-- @function ndarray:cumprod
-- @tparam[opt] int axis
-- @tparam[opt] table opts
-- @treturn ndarray
-- @usage print(ga.arange(1, 5):cumprod())   --> array([ 1,  2,  6, 24])
M.cumprod = core._scan.cumprod
--- `x:nonzero()`: the same as `ga.nonzero(x)`.
-- @function ndarray:nonzero
-- @treturn table
-- @usage print(ga.array({0, 3, 0, 4}):nonzero()[1])   --> array([2, 4])
M.nonzero = core._scan.nonzero

return { ga = core._scan, host = core._scan_host }
