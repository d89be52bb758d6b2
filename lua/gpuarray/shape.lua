--- Shape manipulation: `reshape`, `ravel`, `flatten`, `transpose`,
-- `swapaxes`, `rollaxis`, `moveaxis`, `squeeze`, `expand_dims`,
-- `broadcast_to`, `broadcast_arrays`, `atleast_1d/2d/3d`, `flip`, `fliplr`,
-- `flipud`, `roll`, `repeat`, `tile`, as in NumPy.
--
-- The functions are C closures (`src/binding/lga_shape.c`), in `ga` and `ga.host`;
-- this file documents them and adds the ndarray methods NumPy has
-- (`reshape ravel flatten transpose swapaxes squeeze repeat`).
--
-- Views: everything but `flatten`, `roll`, `repeat` and `tile` returns a
-- view sharing `x`'s memory whenever NumPy does (`reshape` and `ravel` when
-- the strides allow it, otherwise a new array); `x.base` is the array that
-- owns the memory and `flags.owndata` is false.  Writing through a view
-- changes `x`.  The result is on `x`'s device; an argument that is not an
-- array (a nested table, a number) is made an array first, on the current
-- device (`ga.X`) or on the host (`ga.host.X`).
--
-- Axes are 1-based, negative ones count from the end (`-1` is the last).
--
-- `repeat` is a Lua keyword: call it as `ga["repeat"](x, n)` or
-- `x["repeat"](x, n)`.
-- @submodule gpuarray

local core = require "gpuarray.core"
local M = core.ndarray_methods

--- Shape manipulation.
-- @section shape

--- `x` with a new shape and the same elements, read (and placed) in C
-- order (last axis fastest) or F order (first axis fastest): a view when
-- the strides allow it (always for a contiguous array), else a new array.
-- One dimension may be `-1`: it is computed from the size.
-- @function ga.reshape
-- @tparam ndarray x
-- @tparam int|table shape the new shape (its size must be x's)
-- @tparam[opt="C"] string|table order `"C"`, `"F"` or `"A"` (F when x is
--   F- but not C-contiguous), or `{order=}`
-- @treturn ndarray
-- @usage
-- local x = ga.arange(6)
-- local m = ga.reshape(x, {2, -1})
-- print(m)
-- --> array([[0, 1, 2],
-- -->        [3, 4, 5]])
-- print(rawequal(m.base, x))                   --> true
-- print(ga.reshape(x, {2, 3}, "F"))
-- --> array([[0, 2, 4],
-- -->        [1, 3, 5]])

--- `x` with a new shape (see `ga.reshape`); the shape may also be given as
-- separate integers.
-- @function ndarray:reshape
-- @tparam int|table shape a table, or the dimensions as arguments
-- @tparam[opt="C"] string|table order `"C"`, `"F"`, `"A"` or `{order=}`
-- @treturn ndarray
-- @usage
-- local m = ga.arange(6):reshape(3, 2)
-- print(m.shape[1], m.shape[2])                --> 3  2
-- print(m:reshape({-1}))                       --> array([0, 1, 2, 3, 4, 5])
M.reshape = core.reshape

--- The elements of `x` as a 1-D array, in C (or F) order: a view when the
-- strides allow it, else a copy.
-- @function ga.ravel
-- @tparam ndarray x
-- @tparam[opt="C"] string|table order `"C"`, `"F"`, `"A"` or `{order=}`
-- @treturn ndarray
-- @usage
-- local m = ga.arange(6):reshape(2, 3)
-- print(ga.ravel(m), rawequal(ga.ravel(m).base, m.base))   --> array([0, 1, 2, 3, 4, 5])  true
-- print(ga.ravel(m.T))                         --> array([0, 3, 1, 4, 2, 5])

--- The elements as a 1-D array (see `ga.ravel`): a view when possible.
-- @function ndarray:ravel
-- @tparam[opt="C"] string|table order
-- @treturn ndarray
-- @usage print(ga.arange(4):reshape(2, 2):ravel("F"))   --> array([0, 2, 1, 3])
M.ravel = core.ravel

--- A new 1-D array with the elements of `x` in C (or F) order: always a
-- copy.
-- @function ga.flatten
-- @tparam ndarray x
-- @tparam[opt="C"] string|table order `"C"`, `"F"`, `"A"` or `{order=}`
-- @treturn ndarray
-- @usage
-- local f = ga.flatten(ga.arange(4):reshape(2, 2))
-- print(f, f.flags.owndata)                    --> array([0, 1, 2, 3])  true

--- A copy of the array as 1-D (see `ga.flatten`).
-- @function ndarray:flatten
-- @tparam[opt="C"] string|table order
-- @treturn ndarray
-- @usage print(ga.arange(4):reshape(2, 2):flatten("F"))   --> array([0, 2, 1, 3])
M.flatten = core.flatten

--- A view of `x` with its axes permuted: new axis i is old axis `axes[i]`;
-- without `axes`, reversed (the same as `x.T`).
-- @function ga.transpose
-- @tparam ndarray x
-- @tparam[opt] table axes a permutation of 1..ndim (negatives allowed)
-- @treturn ndarray
-- @usage
-- local x = ga.zeros({2, 3, 4})
-- local t = ga.transpose(x, {2, 3, 1})
-- print(t.shape[1], t.shape[2], t.shape[3])    --> 3  4  2
-- print(ga.transpose(x).shape[1])              --> 4

--- A view with the axes permuted (see `ga.transpose`); the axes may be
-- given as a table or as separate integers.
-- @function ndarray:transpose
-- @param[opt] ... a table of axes, or the axes as arguments
-- @treturn ndarray
-- @usage
-- print(ga.arange(6):reshape(2, 3):transpose(2, 1))
-- --> array([[0, 3],
-- -->        [1, 4],
-- -->        [2, 5]])
M.transpose = core.transpose

--- A view of `x` with two axes interchanged.
-- @function ga.swapaxes
-- @tparam ndarray x
-- @tparam int axis1
-- @tparam int axis2
-- @treturn ndarray
-- @usage
-- local s = ga.swapaxes(ga.zeros({2, 3, 4}), 1, -1)
-- print(s.shape[1], s.shape[2], s.shape[3])    --> 4  3  2

--- A view with two axes interchanged (see `ga.swapaxes`).
-- @function ndarray:swapaxes
-- @tparam int axis1
-- @tparam int axis2
-- @treturn ndarray
-- @usage print(ga.arange(2):reshape(1, 2):swapaxes(1, 2).shape[1])   --> 2
M.swapaxes = core.swapaxes

--- A view of `x` with `axis` moved to just before position `start`
-- (`1` .. `ndim + 1`; negatives count from the end).  `ga.moveaxis` is
-- usually clearer.
-- @function ga.rollaxis
-- @tparam ndarray x
-- @tparam int axis
-- @tparam[opt=1] int start
-- @treturn ndarray
-- @usage
-- local x = ga.zeros({3, 4, 5, 6})
-- print(table.concat(ga.rollaxis(x, 4, 2).shape, ","))   --> 3,6,4,5
-- print(table.concat(ga.rollaxis(x, 3).shape, ","))      --> 5,3,4,6
-- print(table.concat(ga.rollaxis(x, 2, 5).shape, ","))   --> 3,5,6,4

--- A view of `x` with axes moved to new positions; the other axes keep
-- their order.
-- @function ga.moveaxis
-- @tparam ndarray x
-- @tparam int|table source the axes to move
-- @tparam int|table destination their positions (as many as `source`)
-- @treturn ndarray
-- @usage
-- local x = ga.zeros({3, 4, 5})
-- print(table.concat(ga.moveaxis(x, 1, -1).shape, ","))            --> 4,5,3
-- print(table.concat(ga.moveaxis(x, {1, 2}, {-1, -2}).shape, ","))  --> 5,4,3

--- A view of `x` without length-1 axes: all of them, or those given
-- (which must have length 1).
-- @function ga.squeeze
-- @tparam ndarray x
-- @tparam[opt] int|table axis
-- @treturn ndarray
-- @usage
-- local x = ga.zeros({1, 3, 1})
-- print(table.concat(ga.squeeze(x).shape, ","))      --> 3
-- print(table.concat(ga.squeeze(x, 1).shape, ","))   --> 3,1

--- A view without length-1 axes (see `ga.squeeze`).
-- @function ndarray:squeeze
-- @tparam[opt] int|table axis
-- @treturn ndarray
-- @usage print(ga.zeros({1, 2}):squeeze().ndim)   --> 1
M.squeeze = core.squeeze

--- A view of `x` with length-1 axes inserted; `axis` gives their positions
-- in the result.
-- @function ga.expand_dims
-- @tparam ndarray x
-- @tparam int|table axis
-- @treturn ndarray
-- @usage
-- local x = ga.arange(3)
-- print(table.concat(ga.expand_dims(x, 1).shape, ","))          --> 1,3
-- print(table.concat(ga.expand_dims(x, {1, -1}).shape, ","))    --> 1,3,1

--- A view of `x` broadcast to `shape` (zero strides on the repeated axes;
-- write to it only with care: its elements share memory).
-- @function ga.broadcast_to
-- @tparam ndarray x
-- @tparam int|table shape a shape x broadcasts to (NumPy's rules)
-- @treturn ndarray
-- @usage
-- print(ga.broadcast_to(ga.arange(3), {2, 3}))
-- --> array([[0, 1, 2],
-- -->        [0, 1, 2]])

--- Views of the arrays, all broadcast to their common shape.
-- @function ga.broadcast_arrays
-- @tparam ndarray ... arrays
-- @return one view per argument
-- @usage
-- local a, b = ga.broadcast_arrays(ga.arange(3), ga.zeros({2, 1}))
-- print(table.concat(a.shape, ","), table.concat(b.shape, ","))   --> 2,3  2,3

--- Views with at least one dimension (a 0-d array becomes shape (1,)).
-- @function ga.atleast_1d
-- @param ... arrays (or numbers, tables)
-- @return one array per argument
-- @usage
-- print(ga.atleast_1d(ga.array(5)), ga.atleast_1d(7))   --> array([5])  array([7])

--- Views with at least two dimensions: (N) becomes (1, N), 0-d (1, 1).
-- @function ga.atleast_2d
-- @param ... arrays (or numbers, tables)
-- @return one array per argument
-- @usage print(table.concat(ga.atleast_2d(ga.arange(3)).shape, ","))   --> 1,3

--- Views with at least three dimensions: (N) becomes (1, N, 1), (M, N)
-- (M, N, 1), 0-d (1, 1, 1).
-- @function ga.atleast_3d
-- @param ... arrays (or numbers, tables)
-- @return one array per argument
-- @usage
-- local a, b = ga.atleast_3d(ga.arange(3), ga.zeros({2, 3}))
-- print(table.concat(a.shape, ","), table.concat(b.shape, ","))   --> 1,3,1  2,3,1

--- A view of `x` with the order of elements reversed along the given axes
-- (all of them by default): negative strides, no copy.
-- @function ga.flip
-- @tparam ndarray x
-- @tparam[opt] int|table axis
-- @treturn ndarray
-- @usage
-- local m = ga.arange(6):reshape(2, 3)
-- print(ga.flip(m, 2))
-- --> array([[2, 1, 0],
-- -->        [5, 4, 3]])
-- print(ga.flip(ga.arange(4)))                 --> array([3, 2, 1, 0])

--- A view with the columns (axis 2) reversed; x must be at least 2-D.
-- @function ga.fliplr
-- @tparam ndarray x
-- @treturn ndarray
-- @usage
-- print(ga.fliplr(ga.arange(4):reshape(2, 2)))
-- --> array([[1, 0],
-- -->        [3, 2]])

--- A view with the rows (axis 1) reversed; x must be at least 1-D.
-- @function ga.flipud
-- @tparam ndarray x
-- @treturn ndarray
-- @usage
-- print(ga.flipud(ga.arange(4):reshape(2, 2)))
-- --> array([[2, 3],
-- -->        [0, 1]])

--- A new array with the elements shifted by `shift` along `axis`, those
-- shifted past the end coming back at the start.  Without `axis`, over the
-- flattened array (the shape is kept).  With tables, each shift goes with
-- the axis at the same position (one of them may be a single value).
-- @function ga.roll
-- @tparam ndarray x
-- @tparam int|table shift
-- @tparam[opt] int|table axis
-- @treturn ndarray
-- @usage
-- print(ga.roll(ga.arange(5), 2))              --> array([3, 4, 0, 1, 2])
-- print(ga.roll(ga.arange(6):reshape(2, 3), -1, 2))
-- --> array([[1, 2, 0],
-- -->        [4, 5, 3]])

--- A new array with each element repeated: `repeats` times, or
-- `repeats[i]` times for element i along `axis` (a table or 1-D integer
-- array with one count per element).  Without `axis`, over the flattened
-- array.  `repeat` is a Lua keyword: write `ga["repeat"](x, ...)`.
-- @function ga.repeat
-- @tparam ndarray x
-- @tparam int|table|ndarray repeats non-negative counts
-- @tparam[opt] int axis
-- @treturn ndarray
-- @usage
-- print(ga["repeat"](ga.arange(3), 2))        --> array([0, 0, 1, 1, 2, 2])
-- print(ga["repeat"](ga.arange(4):reshape(2, 2), {1, 2}, 1))
-- --> array([[0, 1],
-- -->        [2, 3],
-- -->        [2, 3]])

--- A new array with each element repeated (see `ga.repeat`); as a method,
-- `x["repeat"](x, repeats, axis)`.
-- @function ndarray:repeat
-- @tparam int|table|ndarray repeats
-- @tparam[opt] int axis
-- @treturn ndarray
-- @usage
-- local x = ga.arange(2)
-- print(x["repeat"](x, 3))                     --> array([0, 0, 0, 1, 1, 1])
M["repeat"] = core["repeat"]

--- A new array made of `x` repeated `reps` times along each axis (NumPy's
-- rule: the shorter of x's shape and reps is padded with leading 1s).
-- @function ga.tile
-- @tparam ndarray x
-- @tparam int|table reps
-- @treturn ndarray
-- @usage
-- print(ga.tile(ga.arange(3), 2))              --> array([0, 1, 2, 0, 1, 2])
-- print(ga.tile(ga.arange(2), {2, 2}))
-- --> array([[0, 1, 0, 1],
-- -->        [0, 1, 0, 1]])

return { ga = {}, host = {} }   -- methods only
