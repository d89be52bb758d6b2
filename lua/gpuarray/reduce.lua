--- Reductions: `sum prod nansum nanprod max min amax amin nanmax nanmin
-- argmax argmin nanargmax nanargmin all any count_nonzero mean nanmean`
-- (rows of src/base/ga_reduce.def, run by both backends), the functions composed
-- from them here (`var std nanvar nanstd ptp average trace median`),
-- `ga.linalg.norm`, and the ndarray methods (`x:sum()` ...).
-- gpuarray/init.lua puts these in `ga` and `ga.host`.
--
-- Common to every reduction: `f(x [, axis] [, opts])`, where `axis` is a
-- 1-based integer (negative counts from the end), a list of them, or `nil`
-- / `false` for every axis, and `opts` is a trailing options table
-- `{axis=, keepdims=, dtype=, out=}` (`dtype=` only for the sum, product
-- and mean families and var/std; the functions below list theirs).  A Lua
-- table or number in place of `x` becomes an array (`ga.X`: on the current
-- device, `ga.host.X`: on the host).
--
-- * Results are arrays, 0-d for a full reduction (`:item()` reads one), on
--   x's device; nothing synchronises, except where a function says so.
-- * dtypes as NumPy: `sum prod` of bool and signed integers give int64,
--   of unsigned integers uint64; `mean` of integers and bool float64;
--   float16 is accumulated in float32 (and rounded once at the end); `all
--   any` give bool, `count_nonzero` and `arg*` int64.
-- * `arg*` return **1-based** positions (of the flattened array when no
--   axis is given); the first one wins on ties and the first NaN is the
--   maximum and the minimum, as in NumPy.
-- * Reducing an empty axis gives the identity (0 for sums, 1 for
--   products, NaN for means) or, where there is none (`max min arg*
--   ptp`), NumPy's error.
-- * `out=` must have the result's shape and be on x's device; the result
--   is cast to its dtype.  `dtype=` sets the accumulator and result dtype.
-- * The same data on the same device gives the same bits on every run
--   (both backends combine partial results in a fixed order, no atomics);
--   GPU float results may differ from the host's in the last bits.
-- @module gpuarray.reduce
local core = require "gpuarray.core"
local U = require("gpuarray.ufuncs").ga

local M = core.ndarray_methods
local NAN = 0 / 0

local KIND = {
  bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i",
  uint8 = "u", uint16 = "u", uint32 = "u", uint64 = "u",
  float16 = "f", float32 = "f", float64 = "f", complex64 = "c", complex128 = "c",
}
local REAL = { complex64 = "float32", complex128 = "float64" }

local C = require "gpuarray.util"   -- the shared argument checks
local is_array, fail, typename, set = C.is_array, C.fail, C.typename, C.set
local parse, norm_axis, axis_list, is_axis_list = C.parse, C.norm_axis, C.axis_list, C.is_axis_list
local function inexact(dt) local k = KIND[dt]; return k == "f" or k == "c" end

-- the number of elements reduced into each result element: x's shape
-- against the shape of a keepdims=true result
local function reduced_count(x, axes)
  local n = 1
  for _, a in ipairs(axes) do n = n * x.shape[a] end
  return n
end

local function sqabs(d)   -- |d|^2 in d's real dtype
  if KIND[d.dtype] == "c" then return U.add(U.square(U.real(d)), U.square(U.imag(d))) end
  return U.multiply(d, d)
end

-- {axis = axis, <o's fields>}: the rows take the axis inside the options
-- table when there is one
local function ax_(axis, o)
  local t = { axis = axis }
  for k, v in pairs(o) do t[k] = v end
  return t
end

-- Everything below is built twice: for ga (R = core._reduce, Lua values
-- become arrays on the current device) and for ga.host.
local function build(R, asarray)
  local F = {}
  for name, f in pairs(R) do F[name] = f end

  local function arr(fname, x) return C.array(fname, x, asarray) end

  -- The checked arguments of a reduction composed here: x an array, axis
  -- (given or in opts) valid, keepdims a boolean, dtype a dtype, ddof an
  -- integer, out an array of the result's shape on x's device.  Returns x
  -- and {axis=, axes= (normalised), keepdims=, dtype=, ddof=, out=}.
  local function args(fname, allowed, x, axis, opts)
    axis, opts = parse(fname, allowed, axis, opts)
    x = arr(fname, x)
    local axes = axis_list(fname, axis, x.ndim)
    local kd = C.flag(fname, "keepdims", opts.keepdims)
    return x, { axis = axis, axes = axes, keepdims = kd, dtype = C.dtype(fname, opts.dtype),
                ddof = C.ddof(fname, opts.ddof), out = C.out(fname, opts.out, x, C.result_shape(x, axes, kd)),
                opts = opts }
  end

  local VAR_OPTS = set("axis", "keepdims", "dtype", "out", "ddof")
  -- var/std (two passes, as NumPy: mean with keepdims, x - mean, |.|^2,
  -- sum, divide by max(n - ddof, 0)); float16 works in float32
  local function var(fname, sqrt, x, a)
    local dtype, cast = a.dtype, nil
    local k = KIND[x.dtype]
    if dtype == "bool" then fail(fname, "dtype bool is not supported (use a number dtype)") end
    if dtype == nil and (k == "b" or k == "i" or k == "u") then dtype = "float64" end
    if dtype == nil and x.dtype == "float16" then dtype, cast = "float32", "float16" end
    local mean = R.mean(x, { axis = a.axis, keepdims = true, dtype = dtype })
    local n = reduced_count(x, a.axes)
    local sq = sqabs(U.subtract(x, mean))
    local div = n - a.ddof
    if a.ddof < 0 and div < n then div = n - (a.ddof + 0.0) end   -- wrapped past int64: as NumPy's float
    div = math.max(div, 0)
    if a.out then
      local s = R.sum(sq, { axis = a.axis, keepdims = a.keepdims, dtype = dtype, out = a.out })
      U.true_divide(s, div, { out = s, casting = "unsafe" })
      if sqrt then U.sqrt(s, { out = s, casting = "unsafe" }) end
      return s
    end
    local s = R.sum(sq, { axis = a.axis, keepdims = a.keepdims, dtype = dtype })
    local target = cast or s.dtype
    local r = U.true_divide(s, div)
    if sqrt then
      -- NumPy writes sqrt's float result back into an integer array result
      -- (an error) but not into a scalar one (cast)
      if not inexact(target) and s.ndim > 0 then
        fail(fname, "the square root cannot be written back to a %s result (dtype=%s); use a float dtype",
             target, target)
      end
      r = U.sqrt(r)
    end
    if r.dtype ~= target then r = r:astype(target) end
    return r
  end

  -- nanvar/nanstd (NumPy's _nanvar: NaNs replaced by 0 and not counted; a
  -- slice with n - ddof <= 0 gives NaN); integers and bool are var/std
  local function nanvar(fname, sqrt, x, a)
    if not inexact(x.dtype) then return var(fname, sqrt, x, a) end
    local dtype, ax = a.dtype, a.axis
    if dtype and not inexact(dtype) then fail(fname, "If a is inexact, then dtype must be inexact") end
    if a.out and not inexact(a.out.dtype) then fail(fname, "If a is inexact, then out must be inexact") end
    local cast
    if dtype == nil and x.dtype == "float16" then dtype, cast = "float32", "float16" end
    local mask = U.isnan(x)
    local valid = U.logical_not(mask)
    local xz = U.where(mask, 0, x)
    local avg = R.sum(xz, { axis = ax, keepdims = true, dtype = dtype })
    U.true_divide(avg, R.count_nonzero(valid, { axis = ax, keepdims = true }), { out = avg, casting = "unsafe" })
    local d = U.subtract(xz, avg)
    U.where(mask, 0, d, { out = d })
    local sq = sqabs(d)
    local v = R.sum(sq, { axis = ax, keepdims = a.keepdims, dtype = dtype, out = a.out })
    local dof = U.subtract(R.count_nonzero(valid, { axis = ax, keepdims = a.keepdims }), a.ddof)
    U.true_divide(v, dof, { out = v, casting = "unsafe" })
    U.where(U.less_equal(dof, 0), NAN, v, { out = v })
    if sqrt then U.sqrt(v, { out = v, casting = "unsafe" }) end
    if cast and not a.out then v = v:astype(cast) end
    return v
  end

  for name, f in pairs { var = var, std = var, nanvar = nanvar, nanstd = nanvar } do
    local sqrt = name == "std" or name == "nanstd"
    F[name] = function(x, axis, opts)
      local a
      x, a = args(name, VAR_OPTS, x, axis, opts)
      return f(name, sqrt, x, a)
    end
  end

  local PTP_OPTS = set("axis", "keepdims", "out")
  F.ptp = function(x, axis, opts)
    local fname = "ptp"
    local a
    x, a = args(fname, PTP_OPTS, x, axis, opts)
    C.nonempty(fname, x, a.axes, "maximum")
    if x.dtype == "bool" then
      fail(fname, "the boolean subtract is not supported (as in NumPy); use the logical or bitwise functions instead")
    end
    if a.out and not core.can_cast(x.dtype, a.out.dtype, "same_kind") then
      fail(fname, "Cannot cast ufunc 'subtract' output from dtype('%s') to dtype('%s') with casting rule "
           .. "'same_kind'", x.dtype, a.out.dtype)
    end
    local o = { keepdims = a.keepdims }
    return U.subtract(R.max(x, ax_(a.axis, o)), R.min(x, ax_(a.axis, o)), a.out and { out = a.out } or nil)
  end

  local AVG_OPTS = set("axis", "weights", "returned", "keepdims")
  F.average = function(x, axis, opts)
    local fname = "average"
    local a
    x, a = args(fname, AVG_OPTS, x, axis, opts)
    axis = a.axis
    local returned = C.flag(fname, "returned", a.opts.returned)
    local kd = { keepdims = a.keepdims }
    local avg, scl
    local w = a.opts.weights
    if w == nil then
      avg = R.mean(x, ax_(axis, kd))
      if returned then scl = core.full_like(avg, reduced_count(x, a.axes)) end
    else
      local tw = type(w)
      if not (is_array(w) or tw == "table" or tw == "number") then
        fail(fname, "weights must be an array or a table of numbers, got %s", typename(w))
      end
      -- a Lua table or number becomes an array on x's device (NumPy/CuPy
      -- convert it beside a); an array must already be there
      if not is_array(w) then w = C.array(fname, w, x.device.id < 0 and core.host.asarray or asarray) end
      if w.device ~= x.device then
        fail(fname, "weights are on %s but a is on %s (move one with ga.asarray or x:get())", w.device, x.device)
      end
      local rt = core.result_type(x.dtype, w.dtype)
      if not inexact(x.dtype) then rt = core.result_type(rt, "float64") end
      local xs, ws = x.shape, w.shape
      local same = #xs == #ws
      for i = 1, #xs do same = same and xs[i] == ws[i] end
      if not same then
        if axis == nil or axis == false then
          fail(fname, "Axis must be specified when shapes of a and weights differ.")
        end
        local axes = a.axes
        local bad = #ws ~= #axes
        for i = 1, #axes do bad = bad or ws[i] ~= xs[axes[i]] end
        if bad then fail(fname, "Shape of weights must be consistent with shape of a along specified axis.") end
        local order = {}
        for i = 1, #axes do order[i] = i end
        table.sort(order, function(p, q) return axes[p] < axes[q] end)
        if #order > 1 then w = core.transpose(w, order) end
        local shape = {}
        for i = 1, #xs do shape[i] = 1 end
        for _, ai in ipairs(axes) do shape[ai] = xs[ai] end
        w = core.reshape(w, shape)
      end
      scl = R.sum(w, { axis = axis, keepdims = a.keepdims, dtype = rt })
      if R.any(U.equal(scl, 0)):item() then fail(fname, "Weights sum to zero, can't be normalized") end
      avg = R.sum(U.multiply(x, w, { dtype = rt }), ax_(axis, kd))
      avg = U.true_divide(avg, scl, { out = avg, casting = "unsafe" })
      if returned then
        local s = avg.shape
        local same_shape = #s == scl.ndim
        for i, v in ipairs(scl.shape) do same_shape = same_shape and s[i] == v end
        if not same_shape then scl = core.copy(core.broadcast_to(scl, s)) end
      end
    end
    if returned then return avg, scl end
    return avg
  end

  local TRACE_OPTS = set("offset", "axis1", "axis2", "dtype", "out")
  F.trace = function(x, offset, axis1, axis2, opts)
    local fname = "trace"
    if type(offset) == "table" and opts == nil and axis1 == nil then offset, opts = nil, offset end
    if type(axis1) == "table" and opts == nil then axis1, opts = nil, axis1 end
    if type(axis2) == "table" and opts == nil then axis2, opts = nil, axis2 end
    opts = C.options(fname, opts or {}, TRACE_OPTS)
    x = arr(fname, x)
    if x.ndim < 2 then fail(fname, "diag requires an array of at least two dimensions") end
    offset = offset or opts.offset or 0
    if math.type(offset) ~= "integer" then fail(fname, "offset must be an integer, got %s", typename(offset)) end
    local a1 = norm_axis(fname, axis1 or opts.axis1 or 1, x.ndim)
    local a2 = norm_axis(fname, axis2 or opts.axis2 or 2, x.ndim)
    if a1 == a2 then fail(fname, "axis1 and axis2 cannot be the same") end
    local dtype = C.dtype(fname, opts.dtype)
    C.out(fname, opts.out, x, C.result_shape(x, { a1, a2 }, false))
    local d = M.diagonal(x, offset, a1, a2)
    return R.sum(d, { axis = -1, dtype = dtype, out = opts.out })
  end

  local MED_OPTS = set("axis", "keepdims", "out")
  F.median = function(x, axis, opts)
    local fname = "median"
    local a
    x, a = args(fname, MED_OPTS, x, axis, opts)
    axis = a.axis
    local sort = core._sort and core._sort.sort
    if not sort then fail(fname, "needs ga.sort, which this build lacks") end
    local nd, xs = x.ndim, x.shape
    local y
    if axis == nil or axis == false then
      y = core.reshape(x, { -1 })
    else   -- the reduced axes last, flattened into one
      local red, perm, shape = {}, {}, {}
      for _, ai in ipairs(a.axes) do red[ai] = true end
      for i = 1, nd do
        if not red[i] then perm[#perm + 1] = i; shape[#shape + 1] = xs[i] end
      end
      for i = 1, nd do
        if red[i] then perm[#perm + 1] = i end
      end
      shape[#shape + 1] = reduced_count(x, a.axes)
      y = core.reshape(core.transpose(x, perm), shape)
    end
    local n = y.shape[y.ndim]
    local m
    if n == 0 then
      m = R.mean(y, -1)   -- NaN, as NumPy
    else
      local s = sort(y, -1)
      m = R.mean(s[{ core.ellipsis, { (n + 1) // 2, n // 2 + 1 } }], -1)
      if inexact(x.dtype) then   -- NaN sorts last: a NaN in the slice makes the median NaN
        local last = s[{ core.ellipsis, n }]   -- the NaN itself, as NumPy (complex: its parts)
        m = U.where(U.isnan(last), last, m)
      end
    end
    if a.keepdims then m = core.reshape(m, C.result_shape(x, a.axes, true)) end
    if a.out then
      U.where(true, m, a.out, { out = a.out, casting = "unsafe" })
      return a.out
    end
    return m
  end

  -- linalg.norm --------------------------------------------------------------
  local NORM_OPTS = set("ord", "axis", "keepdims")
  local function ordname(o)
    if o == math.huge then return "inf" elseif o == -math.huge then return "-inf" end
    return tostring(o)
  end
  local function norm(x, ord, axis, keepdims, extra)
    local fname = "norm"
    if extra ~= nil then fail(fname, "too many arguments") end
    local last = keepdims ~= nil and keepdims or axis ~= nil and axis or ord
    if type(last) == "table" and not is_axis_list(last) then   -- the options table
      local opts = last
      if last == keepdims then keepdims = nil elseif last == axis then axis = nil else ord = nil end
      C.options(fname, opts, NORM_OPTS)
      if opts.ord ~= nil then ord = opts.ord end
      if opts.axis ~= nil then axis = opts.axis end
      if opts.keepdims ~= nil then keepdims = opts.keepdims end
    end
    if ord ~= nil and type(ord) ~= "number" and type(ord) ~= "string" then
      fail(fname, "ord must be a number or a string, got %s", type(ord))
    end
    x = arr(fname, x)
    if not inexact(x.dtype) then x = x:astype("float64") end
    local nd = x.ndim
    local kd = C.flag(fname, "keepdims", keepdims)
    if axis == nil or axis == false then
      if ord == nil or ((ord == "fro" or ord == "f") and nd == 2) or (ord == 2 and nd == 1) then
        local r = U.sqrt(R.sum(sqabs(x)))
        if kd then
          local shape = {}
          for i = 1, nd do shape[i] = 1 end
          r = core.reshape(r, shape)
        end
        return r
      end
    end
    local axes = axis_list(fname, axis, nd)
    local o = { keepdims = kd }
    if #axes == 1 then
      local a = axes[1]
      if ord == math.huge then return R.max(U.absolute(x), ax_(a, o))
      elseif ord == -math.huge then return R.min(U.absolute(x), ax_(a, o))
      elseif ord == 0 then return R.count_nonzero(x, ax_(a, o)):astype(REAL[x.dtype] or x.dtype)
      elseif ord == 1 then return R.sum(U.absolute(x), ax_(a, o))
      elseif ord == nil or ord == 2 then return U.sqrt(R.sum(sqabs(x), ax_(a, o)))
      elseif type(ord) == "string" then fail(fname, "Invalid norm order '%s' for vectors", ord)
      end
      local s = R.sum(U.power(U.absolute(x), ord), ax_(a, o))
      return U.power(s, 1 / ord, { out = s })
    elseif #axes == 2 then
      local row, col = axes[1], axes[2]
      if row == col then fail(fname, "Duplicate axes given.") end
      local r
      local keep = { keepdims = true }
      if ord == 2 or ord == -2 or ord == "nuc" then   -- the singular values (linalg.lua's svdvals)
        local s = F.linalg.svdvals(core.moveaxis(x, { row, col }, { -2, -1 }))
        r = (ord == 2 and R.max or ord == -2 and R.min or R.sum)(s, -1)
        if kd then r = core.expand_dims(r, { math.min(row, col), math.max(row, col) }) end
        return r
      elseif ord == 1 then r = R.max(R.sum(U.absolute(x), ax_(row, keep)), ax_(col, keep))
      elseif ord == -1 then r = R.min(R.sum(U.absolute(x), ax_(row, keep)), ax_(col, keep))
      elseif ord == math.huge then r = R.max(R.sum(U.absolute(x), ax_(col, keep)), ax_(row, keep))
      elseif ord == -math.huge then r = R.min(R.sum(U.absolute(x), ax_(col, keep)), ax_(row, keep))
      elseif ord == nil or ord == "fro" or ord == "f" then
        return U.sqrt(R.sum(sqabs(x), ax_(axes, o)))
      else
        fail(fname, "Invalid norm order '%s' for matrices", ordname(ord))
      end
      if not kd then r = core.squeeze(r, { row, col }) end
      return r
    end
    fail(fname, "Improper number of dimensions to norm.")
  end
  F.linalg = { norm = norm }
  return F
end

local G = build(core._reduce, core.asarray)
local H = build(core._reduce_host, core.host.asarray)

--- Sums and products.
-- @section sums

--- Sum of the elements over the given axes.  bool and signed integers sum
-- in int64, unsigned integers in uint64, float16 in float32 (the result is
-- float16); `dtype=` chooses the accumulator and result dtype (an integer
-- one wraps, as NumPy).  An empty reduction gives 0.
-- @function ga.sum
-- @param x an array (or a nested table / number)
-- @tparam[opt] int|table axis 1-based axis or list of axes; `nil` for all
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray a new array (0-d for a full reduction), or `out`
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}}, "int8")
-- print(ga.sum(x), ga.sum(x).dtype)   --> array(21)  int64
-- print(ga.sum(x, 1), ga.sum(x, -1))  --> array([5, 7, 9])  array([ 6, 15])
-- print(ga.sum(x, {1, 2}):item())     --> 21
-- print(ga.sum(x, {axis = 2, keepdims = true}).shape[2])   --> 1
-- print(ga.sum(x, {dtype = "float32"}))   --> array(21., dtype=float32)
-- print(ga.sum(ga.ones(4096, "float16")))   --> array(4.096e+03, dtype=float16)
-- print(pcall(ga.sum, x, 3))
-- --> false  sum: axis 3 is out of bounds for array of dimension 2 (axes are 1-based)

--- Product of the elements over the given axes (accumulated as `sum`; an
-- empty reduction gives 1).
-- @function ga.prod
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}})
-- print(ga.prod(x), ga.prod(x, 1))    --> array(720)  array([ 4, 10, 18])
-- print(ga.prod(ga.zeros(0)))         --> array(1.)

--- Sum treating NaN as zero.
-- @function ga.nansum
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray
-- @usage print(ga.nansum(ga.array({1, 0 / 0, 2})))   --> array(3.)

--- Product treating NaN as one.
-- @function ga.nanprod
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray
-- @usage print(ga.nanprod(ga.array({2, 0 / 0, 3})))   --> array(6.)

--- Extremes.
-- @section extremes

--- Maximum over the given axes (NaN propagates; complex numbers compare
-- lexicographically); the result has x's dtype.  An empty reduction is an
-- error.  `dtype=` is not accepted.
-- @function ga.max
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 5}, {7, 2}}, "float32")
-- print(ga.max(x), ga.max(x, 2))      --> array(7., dtype=float32)  array([5., 7.], dtype=float32)
-- print(ga.max(ga.array({1, 0 / 0})))   --> array(nan)
-- print(pcall(ga.max, ga.zeros(0)))
-- --> false  max: zero-size array to reduction operation maximum which has no identity

--- Minimum over the given axes (as `ga.max`).
-- @function ga.min
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage print(ga.min(ga.array({{1, 5}, {7, 2}}), 1))   --> array([1, 2])

--- The same function as `ga.max`.
-- @function ga.amax
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage print(ga.amax(ga.array({3, 9, 4})))   --> array(9)

--- The same function as `ga.min`.
-- @function ga.amin
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage print(ga.amin(ga.array({3, 9, 4})))   --> array(3)

--- Maximum ignoring NaN (NaN only for an all-NaN slice).
-- @function ga.nanmax
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage print(ga.nanmax(ga.array({1, 0 / 0, 3})))   --> array(3.)

--- Minimum ignoring NaN (NaN only for an all-NaN slice).
-- @function ga.nanmin
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage print(ga.nanmin(ga.array({1, 0 / 0, 3})))   --> array(1.)

--- The difference `max - min` (NumPy's "peak to peak"), in x's dtype
-- (integers wrap, as NumPy); bool is an error.
-- @function ga.ptp
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 5}, {7, 2}})
-- print(ga.ptp(x), ga.ptp(x, 2))      --> array(6)  array([4, 5])

--- Positions.
-- Positions are **1-based** int64 (of the flattened array when no axis is
-- given); `axis` is one integer or none.
-- @section positions

--- Position of the maximum: the first one on ties; the first NaN when
-- there is one (as NumPy).  An empty reduction is an error.
-- @function ga.argmax
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray int64 positions
-- @usage
-- local x = ga.array({{1, 5, 5}, {7, 2, 0}})
-- print(ga.argmax(x), ga.argmax(x, 2))   --> array(4)  array([2, 1])
-- print(pcall(ga.argmax, ga.zeros(0)))
-- --> false  argmax: attempt to get argmax of an empty sequence

--- Position of the minimum (as `ga.argmax`).
-- @function ga.argmin
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray int64 positions
-- @usage print(ga.argmin(ga.array({{1, 5}, {0, 2}}), 1))   --> array([2, 2])

--- Position of the maximum ignoring NaN.  A slice of NaNs only is
-- NumPy's error "All-NaN slice encountered": checking for it reads the
-- result back, so for float and complex inputs this call **synchronises**
-- (integer and bool inputs are not checked).
-- @function ga.nanargmax
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray int64 positions
-- @usage
-- print(ga.nanargmax(ga.array({1, 0 / 0, 3})))   --> array(3)
-- print(pcall(ga.nanargmax, ga.array({0 / 0, 0 / 0})))
-- --> false  nanargmax: All-NaN slice encountered

--- Position of the minimum ignoring NaN (as `ga.nanargmax`; synchronises
-- for float and complex inputs).
-- @function ga.nanargmin
-- @param x an array
-- @tparam[opt] int axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray int64 positions
-- @usage print(ga.nanargmin(ga.array({4, 0 / 0, 3})))   --> array(3)

--- Truth.
-- @section truth

--- Whether every element is true (non-zero; NaN is true); an empty
-- reduction gives true.
-- @function ga.all
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray bool
-- @usage print(ga.all(ga.array({{1, 0}, {1, 1}}), 1))   --> array([ True, False])

--- Whether any element is true; an empty reduction gives false.
-- @function ga.any
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray bool
-- @usage print(ga.any(ga.array({0, 0, 2})), ga.any(ga.zeros(0)))   --> array(True)  array(False)

--- Number of non-zero (true) elements, int64.
-- @function ga.count_nonzero
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray int64
-- @usage print(ga.count_nonzero(ga.array({{1, 0}, {3, 4}}), 1))   --> array([2, 1])

--- Statistics.
-- @section statistics

--- Arithmetic mean: integers and bool give float64, float16 is
-- accumulated in float32; an empty reduction gives NaN.
-- @function ga.mean
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 2}, {3, 4}})
-- print(ga.mean(x), ga.mean(x, 2))    --> array(2.5)  array([1.5, 3.5])

--- Mean ignoring NaN (NaN for an all-NaN slice).
-- @function ga.nanmean
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=}`
-- @treturn ndarray
-- @usage print(ga.nanmean(ga.array({1, 0 / 0, 3})))   --> array(2.)

--- Variance, in two passes as NumPy (the mean, then the mean squared
-- deviation): `sum(|x - mean|^2) / max(n - ddof, 0)`.  Integers and bool
-- give float64, complex its real dtype; float16 is computed in float32 and
-- rounded at the end.  `ddof` must be an integer.
-- @function ga.var
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=, ddof=0}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 2}, {3, 4}})
-- print(ga.var(x), ga.var(x, {ddof = 1}))   --> array(1.25)  array(1.66666667)
-- print(ga.var(x, 1))                  --> array([1., 1.])
-- print(pcall(ga.var, x, {ddof = 0.5}))
-- --> false  var: ddof must be an integer, got 0.5

--- Standard deviation: the square root of `ga.var` (same options).
-- @function ga.std
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=, ddof=0}`
-- @treturn ndarray
-- @usage print(ga.std(ga.array({1, 3, 5, 7}, "float32")))   --> array(2.236068, dtype=float32)

--- Variance ignoring NaN: the NaNs are not counted; a slice with
-- `n - ddof <= 0` non-NaN elements gives NaN.
-- @function ga.nanvar
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=, ddof=0}`
-- @treturn ndarray
-- @usage print(ga.nanvar(ga.array({1, 0 / 0, 3})))   --> array(1.)

--- Standard deviation ignoring NaN: the square root of `ga.nanvar`.
-- @function ga.nanstd
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, dtype=, out=, ddof=0}`
-- @treturn ndarray
-- @usage print(ga.nanstd(ga.array({1, 0 / 0, 5})))   --> array(2.)

--- Weighted average.  Without weights it is `ga.mean`.  With `weights`
-- (an array or table, on x's device) of x's shape, or of the shape of the
-- reduced axes (in the order given in `axis`), it is
-- `sum(x * w) / sum(w)` in `result_type(x, w)` (float64 at least for
-- integer x).  Weights summing to zero are NumPy's error, which this call
-- checks by reading the sum back (it synchronises).  `returned = true`
-- also returns the sum of the weights (broadcast to the result's shape).
-- @function ga.average
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, weights=, returned=false, keepdims=}`
-- @treturn ndarray the average (and the weights' sum with `returned`)
-- @usage
-- local x = ga.array({{1, 2}, {3, 4}})
-- print(ga.average(x), ga.average(x, {axis = 2, weights = {1, 3}}))
-- --> array(2.5)  array([1.75, 3.75])
-- local avg, wsum = ga.average(x, 1, {weights = {3, 1}, returned = true})
-- print(avg, wsum)                   --> array([1.5, 2.5])  array([4., 4.])

--- Median: the middle value (the mean of the two middle values for an
-- even count) over the given axes; a NaN in a slice makes its median NaN.
-- Integers and bool give float64.  Uses `ga.sort` (a copy; x is not
-- modified).
-- @function ga.median
-- @param x an array
-- @tparam[opt] int|table axis
-- @tparam[opt] table opts `{axis=, keepdims=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{3, 1, 2}, {6, 5, 4}})
-- print(ga.median(x), ga.median(x, 2))   --> array(3.5)  array([2., 5.])

--- Sum along a diagonal: `ga.sum` of `x:diagonal(offset, axis1, axis2)`
-- over its last axis (so integer results are int64, as NumPy's).
-- @function ga.trace
-- @param x an array of at least 2 dimensions
-- @tparam[opt=0] int offset the diagonal: 0 the main one, > 0 above, < 0 below
-- @tparam[opt=1] int axis1
-- @tparam[opt=2] int axis2
-- @tparam[opt] table opts `{offset=, axis1=, axis2=, dtype=, out=}`
-- @treturn ndarray
-- @usage
-- local x = ga.array({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})
-- print(ga.trace(x), ga.trace(x, 1), ga.trace(x, {offset = -1}))   --> array(15)  array(8)  array(12)

--- Norms.
-- @section norms

--- Linear-algebra functions (CuPy's `cupyx`/`cupy.linalg`): `ga.linalg.norm`;
-- `ga.host.linalg` is the same for host arrays.
-- @table ga.linalg
-- @usage print(ga.linalg.norm(ga.array({3, 4})))   --> array(5.)

--- Vector or matrix norm, as `numpy.linalg.norm(x, ord, axis, keepdims)`.
-- Integer and bool inputs are converted to float64; complex inputs give
-- their real dtype.  With no axis and no ord, the 2-norm of x flattened.
-- Vector norms (one axis, or a 1-D x): `ord` nil/2 (Euclidean),
-- `math.huge` (max |x|), `-math.huge` (min |x|), 0 (count of non-zeros),
-- 1, -1 or any other number p (`sum(|x|^p)^(1/p)`).  Matrix norms (two
-- axes, or a 2-D x): nil/`"fro"` (Frobenius), 1 / -1 (max / min column sum
-- of |x|), `math.huge` / `-math.huge` (max / min row sum).  `2`, `-2` and
-- `"nuc"` need an SVD, which gpuarray does not have: they are an error.
-- @function ga.linalg.norm
-- @param x an array (or a nested table)
-- @tparam[opt] number|string ord
-- @tparam[opt] int|table axis one axis (vector norm) or two (matrix norm)
-- @tparam[opt=false] boolean keepdims
-- @return ndarray
-- @usage
-- local x = ga.array({{1, -2}, {-3, 4}}, "float32")
-- print(ga.linalg.norm(x))             --> array(5.477226, dtype=float32)
-- print(ga.linalg.norm(x, 1), ga.linalg.norm(x, math.huge))
-- --> array(6., dtype=float32)  array(7., dtype=float32)
-- print(ga.linalg.norm(x, nil, 2))     --> array([2.236068, 5.      ], dtype=float32)
-- print(ga.linalg.norm(x, {ord = 1, axis = 1, keepdims = true}).shape[1])   --> 1

--- Methods.
-- The reductions as ndarray methods: `x:sum(...)` is `ga.sum(x, ...)`.
-- @section methods

--- The same as `ga.sum(x, ...)`.
-- @function ndarray:sum
-- @usage print(ga.array({{1, 2}, {3, 4}}):sum(1))   --> array([4, 6])
M.sum = G.sum
--- The same as `ga.prod(x, ...)`.
-- @function ndarray:prod
-- @usage print(ga.array({1, 2, 3, 4}):prod())   --> array(24)
M.prod = G.prod
--- The same as `ga.nansum(x, ...)`.
-- @function ndarray:nansum
-- @usage print(ga.array({1, 0 / 0}):nansum())   --> array(1.)
M.nansum = G.nansum
--- The same as `ga.nanprod(x, ...)`.
-- @function ndarray:nanprod
-- @usage print(ga.array({2, 0 / 0}):nanprod())   --> array(2.)
M.nanprod = G.nanprod
--- The same as `ga.max(x, ...)`.
-- @function ndarray:max
-- @usage print(ga.array({{1, 5}, {7, 2}}):max(2))   --> array([5, 7])
M.max = G.max
--- The same as `ga.min(x, ...)`.
-- @function ndarray:min
-- @usage print(ga.array({{1, 5}, {7, 2}}):min())   --> array(1)
M.min = G.min
--- The same as `ga.nanmax(x, ...)`.
-- @function ndarray:nanmax
-- @usage print(ga.array({1, 0 / 0}):nanmax())   --> array(1.)
M.nanmax = G.nanmax
--- The same as `ga.nanmin(x, ...)`.
-- @function ndarray:nanmin
-- @usage print(ga.array({1, 0 / 0}):nanmin())   --> array(1.)
M.nanmin = G.nanmin
--- The same as `ga.argmax(x, ...)` (1-based positions).
-- @function ndarray:argmax
-- @usage print(ga.array({3, 9, 4}):argmax())   --> array(2)
M.argmax = G.argmax
--- The same as `ga.argmin(x, ...)` (1-based positions).
-- @function ndarray:argmin
-- @usage print(ga.array({3, 9, 1}):argmin())   --> array(3)
M.argmin = G.argmin
--- The same as `ga.nanargmax(x, ...)` (synchronises for float and complex x).
-- @function ndarray:nanargmax
-- @usage print(ga.array({0 / 0, 9, 4}):nanargmax())   --> array(2)
M.nanargmax = G.nanargmax
--- The same as `ga.nanargmin(x, ...)` (synchronises for float and complex x).
-- @function ndarray:nanargmin
-- @usage print(ga.array({0 / 0, 9, 4}):nanargmin())   --> array(3)
M.nanargmin = G.nanargmin
--- The same as `ga.all(x, ...)`.
-- @function ndarray:all
-- @usage print(ga.array({1, 2}):all())   --> array(True)
M.all = G.all
--- The same as `ga.any(x, ...)`.
-- @function ndarray:any
-- @usage print(ga.array({0, 0}):any())   --> array(False)
M.any = G.any
--- The same as `ga.count_nonzero(x, ...)`.
-- @function ndarray:count_nonzero
-- @usage print(ga.array({0, 3, 4}):count_nonzero())   --> array(2)
M.count_nonzero = G.count_nonzero
--- The same as `ga.mean(x, ...)`.
-- @function ndarray:mean
-- @usage print(ga.array({1, 2, 3, 4}):mean())   --> array(2.5)
M.mean = G.mean
--- The same as `ga.nanmean(x, ...)`.
-- @function ndarray:nanmean
-- @usage print(ga.array({1, 0 / 0, 2}):nanmean())   --> array(1.5)
M.nanmean = G.nanmean
--- The same as `ga.var(x, ...)`.
-- @function ndarray:var
-- @usage print(ga.array({1, 2, 3, 4}):var())   --> array(1.25)
M.var = G.var
--- The same as `ga.std(x, ...)`.
-- @function ndarray:std
-- @usage print(ga.array({1, 3}):std{ddof = 1})   --> array(1.41421356)
M.std = G.std
--- The same as `ga.ptp(x, ...)`.
-- @function ndarray:ptp
-- @usage print(ga.array({4, 9, 1}):ptp())   --> array(8)
M.ptp = G.ptp
--- The same as `ga.trace(x, ...)`.
-- @function ndarray:trace
-- @usage print(ga.array({{1, 2}, {3, 4}}):trace())   --> array(5)
M.trace = G.trace

return { ga = G, host = H }
