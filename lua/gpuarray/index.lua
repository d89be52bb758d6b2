--- Basic indexing: `x[key]` and `x[key] = value` (the C side is
-- src/binding/lga_index.c).  Indices are 1-based, negatives count from the end.
-- A key is an integer (`x[2]`), or a table of items, one per axis
-- (`x[{2, 3}]`); an item is
--
-- * an integer: picks one position and removes the axis;
-- * a range `{start, stop}` or `{start, stop, step}`, **inclusive** at both
--   ends (`{2, 4}` is positions 2, 3, 4; `{-1, 1, -1}` runs backwards);
--   a missing bound (`{}`, `{2}`, `{nil, 4}`) is the end of the axis in the
--   step's direction, and bounds past the ends are clamped, as Python slices;
-- * `ga.newaxis` (inserts a length-1 axis) or `ga.ellipsis` (as many whole
--   axes as the other items leave);
-- * an index array or a boolean mask (advanced indexing, a copy).
--
-- Integers here are Lua numbers with an integral value; a string is never
-- an index, not even `"2"` (NumPy's rule).  Bounds and steps may be any
-- int64, `math.mininteger` and `math.maxinteger` included: a range gives
-- Python's slice of the same bounds.
--
-- Basic indexing gives a **view** sharing `x`'s memory (a full index gives a
-- 0-d view, never a copy and never a synchronisation).  Assignment casts the
-- value (a Lua number or boolean, a nested table, or an array on any device)
-- to `x`'s dtype and broadcasts it to the selection; overlapping
-- self-assignment gives NumPy's result.  A Lua number that does not fit an
-- integer dtype is an error, as NumPy's OverflowError ("Lua number 1e+300
-- out of bounds for int32"; NaN and infinities cannot be converted); a float
-- in range is truncated toward zero (`x[1] = -1.5` stores -1).
-- @module gpuarray.index

local core = require "gpuarray.core"

local F = {}

--- Inserts a length-1 axis where it stands in an index (NumPy's `np.newaxis`).
-- @field ga.newaxis
-- @usage
-- local x = ga.arange(3)
-- print(x[{ga.newaxis}].shape[1], x[{{}, ga.newaxis}].shape[2])   --> 1  1
F.newaxis = core.newaxis

--- Stands for as many whole axes as the rest of the index leaves (NumPy's `...`).
-- @field ga.ellipsis
-- @usage
-- local y = ga.array({{1, 2, 3}, {4, 5, 6}})
-- print(y[{ga.ellipsis, 2}])   --> array([2, 5])
-- print(y[{2, ga.ellipsis}])   --> array([4, 5, 6])
F.ellipsis = core.ellipsis

--- Indexing with `x[key]`: a view for integers, ranges, `ga.newaxis` and
-- `ga.ellipsis` (see the module description for the key language).
-- @function ndarray:__index
-- @param key an integer, a table of index items, or an index array
-- @treturn ndarray a view (basic indexing) or a copy (advanced indexing)
-- @usage
-- local y = ga.array({{1, 2, 3}, {4, 5, 6}})
-- print(y[2])                   --> array([4, 5, 6])
-- print(y[{2, -1}])             --> array(6)
-- print(y[{{}, {3, 1, -2}}])    --> array([[3, 1],
-- -->                                    [6, 4]])
-- y[{1, {2, 3}}] = 0            -- assignment: a number, a table or an array
-- print(y)                      --> array([[1, 0, 0],
-- -->                                    [4, 5, 6]])

return { ga = F, host = F }
