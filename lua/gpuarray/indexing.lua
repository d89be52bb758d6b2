--- Advanced indexing and item selection: `x[idx]` and `x[mask]` (get and
-- set), `take`, `put`, `compress`, `add_at` / `scatter_add` (the C side is
-- src/binding/lga_advindex.c; kernels in src/cuda/ga_cuda_gather.c).
--
-- **Index arrays.**  A key item may be an integer array (any integer dtype;
-- **1-based**, negatives count from the end, as every index here) or a bool
-- mask.  `x[idx]` then returns a **copy** on `x`'s device, as NumPy:
--
-- * several index arrays broadcast together, and the result has their
--   broadcast shape in place of the axes they index;
-- * mixed with basic items (integers, ranges, `ga.newaxis`, `ga.ellipsis`),
--   NumPy's rule decides where those dimensions land: in place when the
--   advanced items (index arrays, and integers when there is an array) are
--   adjacent in the key, first when a basic item separates them
--   (`x[{idx, {}, idx}]` has the index dimensions first);
-- * a mask over k axes must have exactly their shape and selects the true
--   elements along them in C order (`x[x:gt(0)]` is 1-D).  A mask on the GPU
--   is read back to count its elements (as CuPy does);
-- * a float index array, a mask of the wrong shape, more indices than axes
--   or an out-of-range index is an error naming `getitem` / `setitem`.
--
-- **Assignment** `x[idx] = v`: `v` (a Lua number or boolean, a nested table
-- or an array on any device) is cast to `x`'s dtype and broadcast to the
-- selection's shape (a Lua number out of an integer dtype's range is an
-- error, as for basic indexing).  With repeated positions the last write
-- wins on the host (NumPy's order); on a GPU which write wins is
-- unspecified (as CuPy).
-- Use `ga.add_at` to accumulate.
--
-- **Bounds on the GPU.**  Index arrays stay on the device: the kernel never
-- reads or writes outside `x`; it skips an out-of-range index and raises a
-- flag in device memory, which the indexing call reads back at its end.  So
-- advanced indexing with index arrays synchronises the current stream once,
-- and the error is raised by that same call (`x[idx]`, `x[idx] = v`, `take`,
-- `put`, `compress`, `add_at`).  After a failed assignment on the GPU the
-- in-range elements may already be written; on the host every index is
-- checked first and nothing changes.
-- @module gpuarray.indexing

local core = require "gpuarray.core"

local F = {}

--- Advanced indexing `x[idx]` / `x[mask]` (a copy) and `x[idx] = v`;
-- see the module description for the rules.
-- @function ndarray:__advget
-- @usage
-- local x = ga.arange(12):reshape({3, 4})
-- print(x[ga.array({3, 1})])           --> array([[ 8,  9, 10, 11],
-- -->                                             [ 0,  1,  2,  3]])
-- print(x[{ga.array({1, 3}), ga.array({2, -1})}])   --> array([ 1, 11])
-- print(x[x:gt(8)])                    --> array([ 9, 10, 11])
-- x[{{}, ga.array({1, 4})}] = 0        -- a number, a table or an array
-- print(x[1])                          --> array([0, 1, 2, 0])

--- Elements of `x` at 1-based `indices` along `axis` (NumPy's `take`): the
-- result has `x`'s dimensions before `axis`, then the indices' shape, then
-- those after.  With no axis, `x` is read flattened (C order).
-- @function ga.take
-- @tparam ndarray x the array
-- @param indices an integer array, a nested table of integers or an integer
--   (1-based; negatives count from the end)
-- @tparam[opt] int axis 1-based; `nil` for the flattened array
-- @treturn ndarray a new array on `x`'s device
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}})
-- print(ga.take(x, {1, -1}))           --> array([1, 6])
-- print(ga.take(x, {3, 1}, 2))         --> array([[3, 1],
-- -->                                             [6, 4]])
F.take = core.take

--- Writes `values` into `x` at 1-based flat `indices` (C order), in place
-- (NumPy's `put`): `values` is cast to `x`'s dtype and repeated cyclically
-- when shorter than `indices`.  Repeated indices: the last write wins on
-- the host, unspecified on a GPU.
-- @function ga.put
-- @tparam ndarray x the array to write
-- @param indices an integer array, a nested table of integers or an integer
-- @param values a number, a nested table or an array
-- @usage
-- local x = ga.zeros(5, "int32")
-- ga.put(x, {1, 3, 5}, {7, 8})
-- print(x)                              --> array([7, 0, 8, 0, 7], dtype=int32)
F.put = core.put

--- The slices of `x` along `axis` where `condition` is true (NumPy's
-- `compress`); `condition` may be shorter than the axis (the rest counts as
-- false).  With no axis, `x` is read flattened.
-- @function ga.compress
-- @param condition a 1-D array or table of booleans (or numbers: non-zero
--   is true)
-- @tparam ndarray x the array
-- @tparam[opt] int axis 1-based; `nil` for the flattened array
-- @treturn ndarray a new array on `x`'s device
-- @usage
-- local x = ga.array({{1, 2}, {3, 4}, {5, 6}})
-- print(ga.compress({false, true, true}, x, 1))   --> array([[3, 4],
-- -->                                                        [5, 6]])
-- print(ga.compress({true, false, true}, x))      --> array([1, 3])
F.compress = core.compress

--- `x[key] += v` without buffering (NumPy's `np.add.at`): positions that
-- the key selects several times accumulate every contribution.  The key is
-- any index `x[key]` accepts (index arrays, masks, integers, ranges); `v`
-- is cast to `x`'s dtype and broadcast to the selection.  Integers wrap,
-- bool is a logical or.  On a GPU this uses atomics (float16 and 8/16-bit
-- integers through a compare-and-swap loop; the order of the float
-- additions, so their rounding, is unspecified).
-- @function ga.add_at
-- @tparam ndarray x the array to update in place
-- @param key an index array, or any key of `x[key]`
-- @param v a number, a nested table or an array
-- @usage
-- local x = ga.zeros(4)
-- ga.add_at(x, ga.array({1, 1, 3, 1}), 1)
-- print(x)                              --> array([3., 0., 1., 0.])
F.add_at = core.add_at

--- The same as `ga.add_at` (CuPy's `cupyx.scatter_add`).
-- @function ga.scatter_add
-- @tparam ndarray x the array to update in place
-- @param key an index array, or any key of `x[key]`
-- @param v a number, a nested table or an array
-- @usage
-- local x = ga.zeros({2, 2}, "int32")
-- ga.scatter_add(x, {ga.array({1, 1}), ga.array({2, 2})}, {5, 6})
-- print(x)                              --> array([[ 0, 11],
-- -->                                             [ 0,  0]], dtype=int32)
F.scatter_add = core.scatter_add

local methods = core.ndarray_methods

--- `x:take(indices, axis)`: the same as `ga.take(x, indices, axis)`.
-- @function ndarray:take
-- @param indices an integer array, a nested table of integers or an integer
-- @tparam[opt] int axis 1-based; `nil` for the flattened array
-- @treturn ndarray
-- @usage
-- print(ga.arange(10, 15):take({2, -1}))   --> array([11, 14])
function methods.take(x, indices, axis) return core.take(x, indices, axis) end

--- `x:put(indices, values)`: the same as `ga.put(x, indices, values)`.
-- @function ndarray:put
-- @param indices an integer array, a nested table of integers or an integer
-- @param values a number, a nested table or an array
-- @usage
-- local x = ga.zeros(3)
-- x:put({3}, 1)
-- print(x)                              --> array([0., 0., 1.])
function methods.put(x, indices, values) core.put(x, indices, values) end

--- `x:compress(condition, axis)`: the same as `ga.compress(condition, x, axis)`.
-- @function ndarray:compress
-- @param condition a 1-D array or table of booleans
-- @tparam[opt] int axis 1-based; `nil` for the flattened array
-- @treturn ndarray
-- @usage
-- print(ga.arange(4):compress({true, false, true}))   --> array([0, 2])
function methods.compress(x, condition, axis) return core.compress(condition, x, axis) end

return { ga = F, host = F }
