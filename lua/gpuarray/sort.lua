--- Sorting and searching: `sort argsort lexsort partition argpartition
-- unique searchsorted`, and the methods `x:sort` (in place), `x:argsort`,
-- `x:partition` (in place), `x:searchsorted`.  The C half is
-- src/binding/lga_sort.c (sort, argsort, searchsorted on both backends: a stable
-- merge sort on the host, an LSD radix sort on the GPU); the rest is
-- composed here.  gpuarray/init.lua puts these in `ga` and `ga.host`.
--
-- The order is NumPy's and every sort is stable: equal elements keep their
-- order, `-0.0` and `0.0` are equal, NaN comes after every number, complex
-- numbers order by real part then imaginary part, with those holding a NaN
-- last (`R + nanj`, then `nan + Rj`, then `nan + nanj`).  Positions are
-- 1-based (`argsort`, `lexsort`, `searchsorted`, `unique`'s index and
-- inverse); the results are int64 arrays.  Nothing here synchronises
-- except `unique`, whose result size depends on the data, and
-- `searchsorted` with a `sorter` (its range is checked, as NumPy does).
-- @module gpuarray.sort
local core = require "gpuarray.core"
local ufuncs = require("gpuarray.ufuncs").ga

local C = require "gpuarray.util"   -- the shared argument checks
local is_array, fail, typename = C.is_array, C.fail, C.typename

-- creation functions of x's backend
local function mod_of(x) return x.device.id < 0 and core.host or core end

--- Sorting.
-- `axis` is 1-based (negative counts from the end, default -1, the last);
-- `false` sorts the flattened array (NumPy's `axis=None`).  An options
-- table `{axis=, kind=}` is accepted too; `kind` ("quicksort", "mergesort",
-- "heapsort", "stable") changes nothing: every sort is stable.
-- @section sorting

--- A sorted copy of `x` along an axis.
-- @function ga.sort
-- @tparam ndarray x an array (or a Lua table: `ga.host.sort` makes a host array of it)
-- @tparam[opt=-1] int|boolean|table axis
-- @treturn ndarray a new array of x's shape and dtype (1-D for `axis = false`)
-- @usage
-- print(ga.sort(ga.array({3, 1, 2})))              --> array([1, 2, 3])
-- print(ga.sort(ga.array({{3, 1}, {0, 5}}), 1))
-- --> array([[0, 1],
-- -->        [3, 5]])
-- print(ga.sort(ga.array({0 / 0, 1, -math.huge})))   --> array([-inf,   1.,  nan])
-- print(ga.sort(ga.array({{2, 1}, {0, 3}}), false))   --> array([0, 1, 2, 3])
-- print(pcall(ga.sort, ga.zeros({2, 2}), 3))
-- --> false  ...: sort: axis 3 is out of range for an array of 2 dimensions (axes are 1-based)

--- The 1-based positions that sort `x` along an axis (int64), stable.
-- @function ga.argsort
-- @tparam ndarray x
-- @tparam[opt=-1] int|boolean|table axis
-- @treturn ndarray int64 positions along the axis (of the flattened array for `false`)
-- @usage
-- print(ga.argsort(ga.array({30, 10, 20, 10})))    --> array([2, 4, 3, 1])

--- Sort `x` in place along an axis (NumPy's `ndarray.sort`).
-- @function ndarray:sort
-- @tparam[opt=-1] int|table axis (not `false`)
-- @treturn ndarray x itself
-- @usage
-- local x = ga.array({3, 1, 2})
-- x:sort()
-- print(x)                                          --> array([1, 2, 3])

--- `ga.argsort(x, axis)`.
-- @function ndarray:argsort
-- @tparam[opt=-1] int|boolean|table axis
-- @treturn ndarray
-- @usage print(ga.array({2.5, -1}):argsort())     --> array([2, 1])

--- Indirect stable sort on several keys: the last key is the primary one
-- (NumPy's `lexsort`).
-- @function ga.lexsort
-- @tparam table|ndarray keys a table of 1-D arrays of one length, or a
--   2-D array whose rows are the keys (a 1-D array is one key)
-- @treturn ndarray int64 1-based positions
-- @usage
-- local first = ga.array({1, 5, 1, 4, 3, 4, 4})
-- local last = ga.array({9, 4, 0, 4, 0, 2, 1})
-- print(ga.lexsort({first, last}))                 --> array([3, 5, 7, 6, 4, 2, 1])

--- Partition along an axis: the element at position `kth` is the one a
-- full sort would put there, smaller (or equal) ones before it and larger
-- (or equal) ones after.  Implemented as a full stable sort, which is one
-- valid answer (NumPy's order within the parts is unspecified).
-- @function ga.partition
-- @tparam ndarray x
-- @tparam int|table kth 1-based position (negative from the end), or a
--   table of them
-- @tparam[opt=-1] int|boolean axis
-- @treturn ndarray
-- @usage
-- local p = ga.partition(ga.array({7, 1, 5, 3}), 2)
-- print(p[2]:item())                                --> 3

--- The positions that partition `x` (see `ga.partition`), int64, 1-based.
-- @function ga.argpartition
-- @tparam ndarray x
-- @tparam int|table kth
-- @tparam[opt=-1] int|boolean axis
-- @treturn ndarray
-- @usage print(ga.argpartition(ga.array({7, 1, 5, 3}), 1)[1]:item())   --> 2

--- Partition `x` in place (see `ga.partition`).
-- @function ndarray:partition
-- @tparam int|table kth
-- @tparam[opt=-1] int axis
-- @treturn ndarray x itself
-- @usage
-- local x = ga.array({7, 1, 5, 3})
-- print(x:partition(-1)[4]:item())                  --> 7

--- Searching and unique values.
-- @section searching

--- Where values would be inserted into a sorted 1-D array to keep it
-- sorted: 1-based positions in `[1, n + 1]` (NumPy's `i` is `i + 1`).
-- The values and `a` are compared in their common dtype, a Lua number or
-- table counting as the array `ga.array` makes of it (as NumPy's
-- searchsorted: a float is float64, so 0.1 against a float32 array
-- compares in float64).
-- @function ga.searchsorted
-- @tparam ndarray a a sorted 1-D array (ascending, NaNs last as `ga.sort`
--   leaves them), or unsorted with `sorter`
-- @param v an array, a Lua number or a table of numbers
-- @tparam[opt] string|table opts `"left"` (default: before equal
--   elements) or `"right"` (after them), or `{side=, sorter=}` where
--   `sorter` holds the 1-based positions that sort `a` (as from `ga.argsort`)
-- @treturn ndarray int64 of v's shape (0-d for a number)
-- @usage
-- local a = ga.array({1, 2, 2, 3})
-- print(ga.searchsorted(a, ga.array({2, 5})))               --> array([2, 5])
-- print(ga.searchsorted(a, 2, "right"):item())              --> 4
-- local u = ga.array({3, 1, 2})
-- print(ga.searchsorted(u, 2, {sorter = ga.argsort(u)}):item())   --> 2
-- print(pcall(ga.searchsorted, a, 2, "middle"))
-- --> false  ...: searchsorted: side must be 'left' or 'right', got 'middle'

--- `ga.searchsorted(a, v, side)`.
-- @function ndarray:searchsorted
-- @param v
-- @tparam[opt] string|table side
-- @treturn ndarray
-- @usage print(ga.array({1, 3}):searchsorted(2):item())   --> 2

--- The sorted unique values of the flattened array, and optionally (as
-- more return values, in this order) the 1-based position of each one's
-- first occurrence, the 1-based position in the unique values of each
-- element of `x` (with x's shape), and the count of each.  NaNs are one
-- value (NumPy 2's `equal_nan=True`).  It synchronises: the number of
-- unique values decides the result's size.
-- @function ga.unique
-- @tparam ndarray x
-- @tparam[opt] table opts `{return_index=, return_inverse=, return_counts=}`
-- @treturn ndarray the unique values (1-D)
-- @treturn[opt] ndarray index, inverse, counts (int64), those asked for
-- @usage
-- local u, idx, inv, cnt = ga.unique(ga.array({3, 1, 3, 2}),
--   {return_index = true, return_inverse = true, return_counts = true})
-- print(u, idx)                  --> array([1, 2, 3])  array([2, 4, 1])
-- print(inv, cnt)                --> array([3, 1, 3, 2])  array([1, 1, 2])

-- partition's axis and kth, checked here so that the sort it runs never
-- names itself
local function kth_check(fname, x, kth, axis)
  local n
  if axis == false then
    n = x.size
  else
    local a = axis == nil and -1 or axis
    if math.type(a) ~= "integer" then
      fail(fname, "axis must be an integer or false (flatten), got %s", typename(a))
    end
    n = x.shape[C.norm_axis(fname, a, x.ndim)]
  end
  local list = type(kth) == "table" and not is_array(kth) and kth or { kth }
  if #list == 0 and type(kth) == "table" then fail(fname, "kth must not be empty") end
  for _, k in ipairs(list) do
    if math.type(k) ~= "integer" then
      fail(fname, "kth must be an integer or a table of integers, got %s", typename(k))
    end
    if k == 0 or k > n or k < -n then
      fail(fname, "kth %d is out of range for an axis of length %d (kth is 1-based; negative counts from the end)",
        k, n)
    end
  end
end

local function build(S, create)
  local F = {}
  local function arr(fname, x, i) return C.array(fname, x, create.asarray, i) end

  F.sort, F.argsort = S.sort, S.argsort

  -- searchsorted's arguments are all checked here (the sorter's values
  -- too, which reads two numbers back), so neither take nor the C search
  -- sees a bad one
  local SS_OPTS = C.set("side", "sorter")
  function F.searchsorted(a, v, opts)
    local fname = "searchsorted"
    local side, sorter = opts, nil
    if type(opts) == "table" and not is_array(opts) then
      C.options(fname, opts, SS_OPTS)
      side, sorter = opts.side, opts.sorter
    end
    if side ~= nil and side ~= "left" and side ~= "right" then
      fail(fname, "side must be 'left' or 'right', got %s", type(side) == "string" and "'" .. side .. "'"
           or typename(side))
    end
    a = arr(fname, a)
    if a.ndim ~= 1 then fail(fname, "a must be 1-D, got an array of %d dimensions", a.ndim) end
    local tv = type(v)
    if not (is_array(v) or tv == "number" or tv == "boolean" or tv == "table") then
      fail(fname, "bad argument #2 (an array, a number or a table expected, got %s)", tv)
    end
    if is_array(v) and v.device ~= a.device then
      fail(fname, "a and v are on different devices (%s and %s); move one with ga.asarray(x) or x:get()",
           a.device, v.device)
    end
    if sorter ~= nil then
      local ts = type(sorter)
      if not (is_array(sorter) or ts == "table") then
        fail(fname, "sorter must be an integer array, got %s", typename(sorter))
      end
      sorter = arr(fname, sorter, 3)
      local k = sorter.dtype
      if not (k:match("^int") or k:match("^uint")) then fail(fname, "sorter must be an integer array, got %s", k) end
      if sorter.ndim ~= 1 or sorter.size ~= a.size then
        fail(fname, "sorter must be 1-D with a's length %d, got shape %s", a.size, C.shape_str(sorter.shape))
      end
      if sorter.device ~= a.device then
        fail(fname, "a and sorter are on different devices (%s and %s)", a.device, sorter.device)
      end
      local n = a.size
      if n > 0 then
        local R = core._reduce
        local lo, hi = R.min(sorter):item(), R.max(sorter):item()
        if lo < 1 or hi > n then
          fail(fname, "sorter index out of range: its values must be 1-based positions in [1, %d], got %s", n,
               tostring(lo < 1 and lo or hi))
        end
      end
      a = core.take(a, sorter)
    end
    return S.searchsorted(a, v, side)
  end

  function F.lexsort(keys)
    local list = {}
    if is_array(keys) then
      if keys.ndim == 1 then list[1] = keys
      elseif keys.ndim == 2 then
        for i = 1, keys.shape[1] do list[i] = keys[i] end
      else
        fail("lexsort", "a keys array must be 1-D or 2-D, got %d dimensions", keys.ndim)
      end
    elseif type(keys) == "table" then
      for i, k in ipairs(keys) do list[i] = arr("lexsort", k) end
    else
      fail("lexsort", "keys must be a table of 1-D arrays or a 2-D array, got %s", type(keys))
    end
    if #list == 0 then fail("lexsort", "need at least one key") end
    local n, dev = list[1].size, list[1].device
    for i, k in ipairs(list) do
      if k.ndim ~= 1 then fail("lexsort", "key %d is not 1-D (%d dimensions)", i, k.ndim) end
      if k.size ~= n then
        fail("lexsort", "all keys must have the same length (key 1 has %d elements, key %d has %d)", n, i, k.size)
      end
      if k.device ~= dev then
        fail("lexsort", "keys are on different devices (key 1 on %s, key %d on %s); move them with ga.asarray(x) "
          .. "or x:get()", dev, i, k.device)
      end
    end
    local perm = S.argsort(list[1])
    for i = 2, #list do
      perm = core.take(perm, S.argsort(core.take(list[i], perm)))
    end
    return perm
  end

  function F.partition(x, kth, axis)
    x = arr("partition", x)
    kth_check("partition", x, kth, axis)
    return S.sort(x, axis)
  end

  function F.argpartition(x, kth, axis)
    x = arr("argpartition", x)
    kth_check("argpartition", x, kth, axis)
    return S.argsort(x, axis)
  end

  function F.unique(x, opts)
    x = arr("unique", x)
    opts = C.options("unique", opts or {}, C.set("return_index", "return_inverse", "return_counts"))
    local ri = C.flag("unique", "return_index", opts.return_index)
    local rv = C.flag("unique", "return_inverse", opts.return_inverse)
    local rc = C.flag("unique", "return_counts", opts.return_counts)
    local m = mod_of(x)
    local n = x.size
    local perm, s
    if ri or rv then
      perm = S.argsort(x, false)
      s = core.take(x, perm)
    else
      s = S.sort(x, false)
    end
    local starts
    if n == 0 then
      starts = m.empty(0, "int64")
    else
      local mask = m.ones(1, "bool")
      if n > 1 then
        local a, b = s[{ { 2, -1 } }], s[{ { 1, -2 } }]
        local ne = ufuncs.not_equal(a, b)
        local k = x.dtype
        if k:match("^float") or k:match("^complex") then   -- NaNs are one value
          ne = ufuncs.logical_and(ne, ufuncs.logical_not(ufuncs.logical_and(ufuncs.isnan(a), ufuncs.isnan(b))))
        end
        mask = core._join.concatenate({ mask, ne })
      end
      starts = core._scan.flatnonzero(mask)   -- the 1-based group starts (no arange of n)
    end
    local out = { core.take(s, starts) }
    if ri then out[#out + 1] = core.take(perm, starts) end
    if rv then
      local inv = m.empty(n, "int64")
      -- the group of sorted position p: how many starts are <= p
      if n > 0 then inv[perm] = S.searchsorted(starts, m.arange(1, n + 1), "right") - 1 end
      out[#out + 1] = inv:reshape(x.shape)
    end
    if rc then
      local ends = core._join.concatenate({ starts[{ { 2, -1 } }], m.full(1, n + 1) })
      out[#out + 1] = ends - starts
    end
    return table.unpack(out)
  end
  return F
end

local G, H = build(core._sort, core), build(core._sort_host, core.host)

local methods = core.ndarray_methods
methods.sort = core._sort_methods.sort
methods.argsort = core._sort_methods.argsort
function methods.partition(x, kth, axis)
  kth_check("partition", x, kth, axis)
  return x:sort(axis)
end
function methods.searchsorted(a, v, side) return G.searchsorted(a, v, side) end

return { ga = G, host = H }
