--- Joining, splitting and item selection: `concatenate stack hstack vstack
-- dstack column_stack`, `split array_split hsplit vsplit dsplit`,
-- `diagonal diag diagflat tril triu asfortranarray`, and the methods
-- `x:diagonal`, `x:fill`, `x:view`.  The C half is src/binding/lga_join.c and
-- src/binding/lga_select.c; gpuarray/init.lua puts these in `ga` and `ga.host`.
--
-- Joins make one new array and copy each input into a slice of it; splits
-- and `diagonal` return views that share memory with their input.  Axes
-- and split points are 1-based, negative counting from the end.
-- @module gpuarray.join
local core = require "gpuarray.core"

--- Joining.
-- Every input must be on one device (the result goes there); Lua tables
-- and numbers in the list become arrays on that device.  The result's dtype
-- is NumPy's `result_type` of the inputs, unless `dtype=` or `out=` says
-- otherwise; the inputs are then cast under `casting=` (default
-- `"same_kind"`).  `ga.host.X` is the same function.
-- @section joining

--- Join arrays along an existing axis.
-- @function ga.concatenate
-- @tparam table arrays a list of arrays with the same number of
--   dimensions, equal in every dimension but `axis`
-- @tparam[opt=1] int|boolean axis 1-based axis (negative from the end);
--   `false` flattens every input first and joins them into one 1-D array
--   (NumPy's `axis=None`)
-- @tparam[opt] table opts `{axis=, dtype=, out=, casting="same_kind"}`
--   (`out=` and `dtype=` exclude each other)
-- @treturn ndarray a new array (or `out`)
-- @usage
-- local a = ga.array({{1, 2}, {3, 4}})
-- local b = ga.array({{5, 6}}, "float32")
-- print(ga.concatenate({a, b}))
-- --> array([[1., 2.],
-- -->        [3., 4.],
-- -->        [5., 6.]])
-- print(ga.concatenate({a, b.T}, 2).shape[2])          --> 3
-- print(ga.concatenate({a, b}, {axis = false}).shape[1])   --> 6
-- print(ga.concatenate({a, a}, {dtype = "int32"}).dtype)   --> int32
-- print(pcall(ga.concatenate, {a, b}, 2))
-- --> false  ...: concatenate: all the input array dimensions except for the concatenation axis must match exactly, ...

--- Join arrays of one shape along a new axis.
-- @function ga.stack
-- @tparam table arrays a list of arrays of the same shape
-- @tparam[opt=1] int axis where the new axis goes in the result (1-based,
--   from 1 to ndim + 1; negative from the end)
-- @tparam[opt] table opts `{axis=, dtype=, out=, casting=}`
-- @treturn ndarray
-- @usage
-- local a, b = ga.arange(3), ga.arange(3) + 10
-- print(ga.stack({a, b}).shape[1], ga.stack({a, b}, 2).shape[1])   --> 2  3
-- print(ga.stack({a, b}, -1))
-- --> array([[ 0, 10],
-- -->        [ 1, 11],
-- -->        [ 2, 12]])

--- Join horizontally: along axis 1 for 1-D inputs, else axis 2 (0-d
-- inputs count as 1-D).
-- @function ga.hstack
-- @tparam table arrays
-- @tparam[opt] table opts `{dtype=, casting=}`
-- @treturn ndarray
-- @usage
-- print(ga.hstack({ga.arange(2), ga.arange(3)}))   --> array([0, 1, 0, 1, 2])
-- print(ga.hstack({ga.zeros({2, 1}), ga.ones({2, 2})}).shape[2])   --> 3

--- Join vertically: along axis 1, with 1-D inputs of length n seen as
-- rows (1, n).
-- @function ga.vstack
-- @tparam table arrays
-- @tparam[opt] table opts `{dtype=, casting=}`
-- @treturn ndarray
-- @usage
-- print(ga.vstack({ga.arange(2), ga.arange(2) + 2}))
-- --> array([[0, 1],
-- -->        [2, 3]])

--- Join along the third axis, with inputs seen as at least 3-D: (n,)
-- as (1, n, 1), (m, n) as (m, n, 1).
-- @function ga.dstack
-- @tparam table arrays
-- @tparam[opt] table opts `{dtype=, casting=}`
-- @treturn ndarray
-- @usage
-- local d = ga.dstack({ga.arange(2), ga.arange(2)})
-- print(d.shape[1], d.shape[2], d.shape[3])   --> 1  2  2

--- Join 1-D arrays as the columns of a 2-D array (2-D inputs are joined
-- along axis 2 as they are).
-- @function ga.column_stack
-- @tparam table arrays
-- @tparam[opt] table opts `{dtype=, casting=}`
-- @treturn ndarray
-- @usage
-- print(ga.column_stack({ga.array({1, 2}), ga.array({3, 4})}))
-- --> array([[1, 3],
-- -->        [2, 4]])

--- Splitting.
-- The pieces are views of the input (they share its memory), returned as
-- a Lua table.  `n_or_points` is a number of pieces, or a table of 1-based
-- split points: a point `p` starts a new piece at 1-based index `p`, so
-- NumPy's `split(x, [2, 5])` is `ga.split(x, {3, 6})`.  Points are clipped
-- to the axis as slice bounds are (negative points count from the end:
-- -1 is the last element), and a point before the previous one gives an
-- empty piece.
-- @section splitting

--- Split into equal pieces, or at split points.  A count that does not
-- divide the axis is an error (use `ga.array_split`).
-- @function ga.split
-- @tparam ndarray x
-- @tparam int|table n_or_points a number of pieces or a table of 1-based
--   split points
-- @tparam[opt=1] int axis
-- @treturn table a list of views
-- @usage
-- local x = ga.arange(9)
-- local p = ga.split(x, 3)
-- print(#p, p[2])                       --> 3  array([3, 4, 5])
-- local q = ga.split(x, {3, 6})         -- NumPy's split(x, [2, 5])
-- print(q[1], q[2], q[3])               --> array([0, 1])  array([2, 3, 4])  array([5, 6, 7, 8])
-- print(rawequal(q[1].base, x))         --> true
-- print(pcall(ga.split, ga.arange(7), 3))   --> false  ...: split: array split does not result in an equal division ...

--- Split into `n` pieces that may differ in length by one (the first
-- `len % n` pieces are one longer), or at split points as `ga.split`.
-- @function ga.array_split
-- @tparam ndarray x
-- @tparam int|table n_or_points
-- @tparam[opt=1] int axis
-- @treturn table a list of views
-- @usage
-- local p = ga.array_split(ga.arange(7), 3)
-- print(p[1], p[2], p[3])               --> array([0, 1, 2])  array([3, 4])  array([5, 6])

--- `ga.split` along axis 2 (along axis 1 for a 1-D array).
-- @function ga.hsplit
-- @tparam ndarray x at least 1-D
-- @tparam int|table n_or_points
-- @treturn table a list of views
-- @usage
-- local p = ga.hsplit(ga.zeros({2, 4}), 2)
-- print(#p, p[1].shape[1], p[1].shape[2])   --> 2  2  2

--- `ga.split` along axis 1 of an array of at least 2 dimensions.
-- @function ga.vsplit
-- @tparam ndarray x at least 2-D
-- @tparam int|table n_or_points
-- @treturn table a list of views
-- @usage
-- local p = ga.vsplit(ga.zeros({4, 2}), {2})
-- print(p[1].shape[1], p[2].shape[1])   --> 1  3

--- `ga.split` along axis 3 of an array of at least 3 dimensions.
-- @function ga.dsplit
-- @tparam ndarray x at least 3-D
-- @tparam int|table n_or_points
-- @treturn table a list of views
-- @usage
-- local p = ga.dsplit(ga.zeros({1, 2, 4}), 2)
-- print(#p, p[2].shape[3])              --> 2  2

--- Item selection.
-- @section selection

--- The diagonal `offset` of the 2-D planes of axes `axis1`, `axis2`: a
-- view (writing through it changes `x`).  The diagonal becomes the last
-- axis of the result; the other axes keep their order.  The same as
-- `x:diagonal(...)`.
-- @function ga.diagonal
-- @tparam ndarray x at least 2-D
-- @tparam[opt=0] int offset 0 the main diagonal, > 0 above it, < 0 below
-- @tparam[opt=1] int axis1
-- @tparam[opt=2] int axis2
-- @treturn ndarray a view
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
-- print(ga.diagonal(x), ga.diagonal(x, 1), ga.diagonal(x, -1))
-- --> array([1, 5, 9])  array([2, 6])  array([4, 8])

--- 1-D `v`: a new 2-D array with `v` on diagonal `k`; 2-D `v`: a copy of
-- its diagonal `k`.
-- @function ga.diag
-- @param v a 1-D or 2-D array (or a table)
-- @tparam[opt=0] int k the diagonal: 0 the main one, > 0 above, < 0 below
-- @treturn ndarray a new array
-- @usage
-- print(ga.diag(ga.array({1, 2}), 1))
-- --> array([[0, 1, 0],
-- -->        [0, 0, 2],
-- -->        [0, 0, 0]])
-- print(ga.diag(ga.array({{1, 2}, {3, 4}})))   --> array([1, 4])

--- A new 2-D array with the values of `v`, flattened in C order, on
-- diagonal `k`.
-- @function ga.diagflat
-- @param v an array of any shape (or a table)
-- @tparam[opt=0] int k
-- @treturn ndarray
-- @usage
-- print(ga.diagflat(ga.array({{1, 2}, {3, 4}})):diagonal())   --> array([1, 2, 3, 4])

--- A copy of `x` with the elements above diagonal `k` set to zero (over
-- the last two axes; a 1-D `x` of length n gives an n x n result, as
-- NumPy).
-- @function ga.tril
-- @param x an array of at least 1 dimension (or a table)
-- @tparam[opt=0] int k
-- @treturn ndarray a new array
-- @usage
-- print(ga.tril(ga.ones({3, 3}, "int32")))
-- --> array([[1, 0, 0],
-- -->        [1, 1, 0],
-- -->        [1, 1, 1]], dtype=int32)

--- A copy of `x` with the elements below diagonal `k` set to zero.
-- @function ga.triu
-- @param x an array of at least 1 dimension (or a table)
-- @tparam[opt=0] int k
-- @treturn ndarray a new array
-- @usage
-- print(ga.triu(ga.ones({2, 3}, "int32"), 1))
-- --> array([[0, 1, 1],
-- -->        [0, 0, 1]], dtype=int32)

--- An F-contiguous (column-major) array with the values of `a`: `a`
-- itself when it already is one with that dtype, else a copy on `a`'s
-- device (`ga.host.asfortranarray`: on the host).
-- @function ga.asfortranarray
-- @param a an array (or what `ga.array` takes)
-- @tparam[opt] string|table dtype a dtype name or `{dtype=}`
-- @treturn ndarray
-- @usage
-- local f = ga.asfortranarray(ga.zeros({2, 3}, "float32"))
-- print(f.flags.f_contiguous, f.flags.c_contiguous, f.strides[1], f.strides[2])   --> true  false  4  8
-- print(rawequal(ga.asfortranarray(f), f))   --> true

local M = core.ndarray_methods

--- The diagonal as a view; the same as `ga.diagonal(x, ...)`.
-- @function ndarray:diagonal
-- @tparam[opt=0] int offset
-- @tparam[opt=1] int axis1
-- @tparam[opt=2] int axis2
-- @treturn ndarray a view
-- @usage print(ga.array({{1, 2}, {3, 4}}):diagonal())   --> array([1, 4])
M.diagonal = core._join_methods.diagonal

--- Set every element to `v`, cast to the array's dtype (as NumPy's
-- unsafe cast: 2.7 in an integer array is 2); returns the array.
-- @function ndarray:fill
-- @param v a number, a boolean or a size-1 array
-- @treturn ndarray the array itself
-- @usage
-- local x = ga.zeros(3, "int32")
-- x:fill(7)
-- print(x)                              --> array([7, 7, 7], dtype=int32)
-- print(x:fill(2.7), ga.zeros(2):fill(true))   --> array([2, 2, 2], dtype=int32)  array([1., 1.])
M.fill = core._join_methods.fill

--- A view of the same bytes as another dtype (no copy); `x:view()` is a
-- plain view.  With the same itemsize any layout works; with another
-- itemsize (NumPy's rule) the last axis must be contiguous, and its length
-- is rescaled: it must hold a whole number of the new elements.  The view
-- must be aligned to the new itemsize, which the GPU needs.
-- @function ndarray:view
-- @tparam[opt] string dtype
-- @treturn ndarray a view
-- @usage
-- local x = ga.array({1, 2}, "int32")
-- print(x:view("uint32"), x:view("int64"))   --> array([1, 2], dtype=uint32)  array([8589934593])
-- print(ga.array({1.0}):view("uint8").shape[1])   --> 8
-- print(pcall(function() return ga.zeros({3, 2}, "int32").T:view("int64") end))
-- --> false  ...: view: To change to a dtype of a different size, the last axis must be contiguous
M.view = core._join_methods.view

return { ga = core._join, host = core._join_host }
