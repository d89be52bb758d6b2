--- Everyday NumPy functions composed from the array operations:
-- comparisons of whole arrays (`isclose allclose array_equal array_equiv`),
-- grids and ranges (`meshgrid indices logspace geomspace tri vander`),
-- differences (`diff ediff1d cumulative_sum trapezoid`), positions
-- (`unravel_index ravel_multi_index diag_indices tril_indices
-- triu_indices take_along_axis put_along_axis`), sets (`isin in1d
-- intersect1d union1d setdiff1d setxor1d`), counting (`bincount digitize
-- histogram`), `interp`, `nan_to_num`, `append`, order statistics
-- (`quantile percentile nanquantile nanpercentile nanmedian`), `cov
-- corrcoef correlate convolve polyval real_if_close gradient`, selection and
-- editing (`select choose extract place putmask delete insert resize
-- trim_zeros pad piecewise`), `histogram2d histogramdd`, and the dtype
-- facts `finfo iinfo` and `broadcast_shapes`.  Both `ga` and `ga.host` have
-- them (a Lua table argument becomes an array of that module).
--
-- Positions are 1-based, as everywhere in gpuarray: `indices`,
-- `unravel_index`, `ravel_multi_index`, `*_indices`, the indices of
-- `take_along_axis`/`put_along_axis`, and `digitize` (an insertion
-- position into `bins`, as `searchsorted`: NumPy's value + 1).  Results
-- that NumPy gives as Python bools (`allclose`, `array_equal`,
-- `array_equiv`) are Lua booleans here.
-- @module gpuarray.numeric
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local FLOAT_INFO = {
  float16 = { bits = 16, eps = 2 ^ -10, max = 65504.0, tiny = 2 ^ -14, precision = 3, resolution = 1e-3 },
  float32 = { bits = 32, eps = 2 ^ -23, max = (2 - 2 ^ -23) * 2 ^ 127, tiny = 2 ^ -126, precision = 6,
              resolution = 1e-6 },
  float64 = { bits = 64, eps = 2 ^ -52, max = 1.7976931348623157e308, tiny = 2 ^ -1022, precision = 15,
              resolution = 1e-15 },
}
FLOAT_INFO.complex64, FLOAT_INFO.complex128 = FLOAT_INFO.float32, FLOAT_INFO.float64
local INT_INFO = {
  int8 = { -128, 127 }, uint8 = { 0, 255 }, int16 = { -32768, 32767 }, uint16 = { 0, 65535 },
  int32 = { -2147483648, 2147483647 }, uint32 = { 0, 4294967295 },
  int64 = { math.mininteger, math.maxinteger }, uint64 = { 0, 18446744073709551615.0 },
}

local function dtype_name(fname, dt)
  if is_array(dt) then return dt.dtype end
  if type(dt) ~= "string" then fail(fname, "expected a dtype name or an array, got %s", typename(dt)) end
  return dt
end

--- Machine limits of a float dtype (NumPy's `finfo`): a table with
-- `dtype bits eps max min tiny smallest_normal precision resolution`.
-- @function ga.finfo
-- @tparam string|ndarray dtype float16/32/64 or complex64/128 (their parts), or an array of one
-- @treturn table
-- @usage
-- print(ga.finfo("float32").eps == 2 ^ -23, ga.finfo("float64").bits)   --> true	64
local function finfo(dt)
  local name = dtype_name("finfo", dt)
  local f = FLOAT_INFO[name]
  if not f then fail("finfo", "not a float dtype: %s", tostring(name)) end
  local base = name == "complex64" and "float32" or name == "complex128" and "float64" or name
  return { dtype = base, bits = f.bits, eps = f.eps, max = f.max, min = -f.max, tiny = f.tiny,
           smallest_normal = f.tiny, precision = f.precision, resolution = f.resolution }
end

--- Limits of an integer dtype (NumPy's `iinfo`): `{dtype=, bits=, min=, max=}`
-- (uint64's max, 2^64 - 1, is a float: no Lua integer holds it).
-- @function ga.iinfo
-- @tparam string|ndarray dtype
-- @treturn table
-- @usage
-- print(ga.iinfo("int16").max, ga.iinfo("uint8").min)   --> 32767	0
local function iinfo(dt)
  local name = dtype_name("iinfo", dt)
  local r = INT_INFO[name]
  if not r then fail("iinfo", "not an integer dtype: %s", tostring(name)) end
  local bits = tonumber(name:match("%d+"))
  return { dtype = name, bits = bits, min = r[1], max = r[2] }
end

local function shape_str(sh) return C.shape_str(sh, ", ") end

--- The shape that shapes broadcast to (NumPy's `broadcast_shapes`).
-- @function ga.broadcast_shapes
-- @param ... shape tables (or integers for 1-D shapes)
-- @treturn table
-- @usage
-- local s = ga.broadcast_shapes({3, 1}, {4}, {1, 1, 1})
-- print(s[1], s[2], s[3])   --> 1	3	4
local function broadcast_shapes(...)
  local out, n = {}, select("#", ...)
  local shapes = {}
  for i = 1, n do
    local s = select(i, ...)
    if math.type(s) == "integer" then s = { s } end
    if type(s) ~= "table" or is_array(s) then fail("broadcast_shapes", "argument %d is not a shape", i) end
    shapes[i] = s
  end
  local nd = 0
  for i = 1, n do nd = math.max(nd, #shapes[i]) end
  for d = 1, nd do out[d] = 1 end
  for i = 1, n do
    local s = shapes[i]
    for d = 1, #s do
      local v, od = s[d], nd - #s + d
      if math.type(v) ~= "integer" or v < 0 then fail("broadcast_shapes", "bad dimension %s", tostring(v)) end
      if out[od] == 1 then out[od] = v
      elseif v ~= 1 and v ~= out[od] then
        fail("broadcast_shapes", "shape mismatch: objects cannot be broadcast to a single shape (%s)",
             shape_str(s))
      end
    end
  end
  return out
end

-- the functions of one module: m = the creation functions (core or
-- core.host); G() = the ga or ga.host table (ufuncs and the rest), found on
-- first use
local function build(m, host)
  local F = {}
  local G = C.lazy_module(host)
  local function arr(fname, x, what) return C.arg(fname, x, what or "the argument", G().asarray) end
  local function is_float(dt) return dt:match("^float") ~= nil end
  local function is_complex(dt) return dt:match("^complex") ~= nil end
  local function is_int(dt) return dt:match("int") ~= nil end
  -- axis (1-based, negative from the end) -> positive
  local function axis_of(fname, x, axis, default)
    if axis == nil then axis = default end
    local a = math.tointeger(axis)
    if not a or a == 0 or a > x.ndim or a < -x.ndim then
      fail(fname, "axis %s is out of range for an array of %d dimensions (axes are 1-based)", tostring(axis), x.ndim)
    end
    return a < 0 and x.ndim + 1 + a or a
  end
  -- a key selecting range r of axis ax (others whole)
  local function along(nd, ax, r)
    local key = {}
    for d = 1, nd do key[d] = d == ax and r or {} end
    return key
  end

  -- ---- comparisons of whole arrays ----

  --- Elementwise "a is close to b": `|a - b| <= atol + rtol * |b|` where b
  -- is finite, or a == b (equal infinities); NaN only with `equal_nan`.
  -- @function ga.isclose
  -- @param a array or number
  -- @param b array or number
  -- @tparam[opt=1e-5] number rtol
  -- @tparam[opt=1e-8] number atol
  -- @tparam[opt=false] boolean equal_nan
  -- @treturn ndarray bool, the broadcast shape
  -- @usage
  -- print(ga.isclose(ga.array({1.0, 1.1, 0/0}), 1.0))   --> array([ True, False, False])
  function F.isclose(a, b, rtol, atol, equal_nan)
    local fname = "isclose"
    local g = G()
    rtol, atol = rtol or 1e-5, atol or 1e-8
    if type(rtol) ~= "number" or type(atol) ~= "number" then fail(fname, "rtol and atol must be numbers") end
    a, b = arr(fname, a, "a"), arr(fname, b, "b")
    if not (is_float(b.dtype) or is_complex(b.dtype)) then b = b:astype("float64") end
    local close = g.logical_and(g.less_equal(g.abs(g.subtract(a, b)), g.add(g.multiply(g.abs(b), rtol), atol)),
                                g.isfinite(b))
    close = g.logical_or(close, g.equal(a, b))
    if equal_nan then close = g.logical_or(close, g.logical_and(g.isnan(a), g.isnan(b))) end
    return close
  end

  --- True when every element of `a` is close to `b` (see ga.isclose); a
  -- Lua boolean.
  -- @function ga.allclose
  -- @usage
  -- print(ga.allclose(ga.array({1, 2}), ga.array({1, 2 + 1e-9})))   --> true
  function F.allclose(a, b, rtol, atol, equal_nan)
    return G().all(F.isclose(a, b, rtol, atol, equal_nan)):item()
  end

  local function same_shape(x, y)
    if x.ndim ~= y.ndim then return false end
    for i = 1, x.ndim do if x.shape[i] ~= y.shape[i] then return false end end
    return true
  end

  --- True when `a1` and `a2` have the same shape and elements (NaN equal
  -- to NaN with `equal_nan`); a Lua boolean.
  -- @function ga.array_equal
  -- @usage
  -- print(ga.array_equal(ga.array({1, 2}), {1, 2}), ga.array_equal(ga.array({1}), {1, 1}))   --> true	false
  function F.array_equal(a1, a2, equal_nan)
    local fname = "array_equal"
    local g = G()
    a1, a2 = arr(fname, a1, "a1"), arr(fname, a2, "a2")
    if not same_shape(a1, a2) then return false end
    if a1.size == 0 then return true end
    local eq = g.equal(a1, a2)
    if equal_nan then eq = g.logical_or(eq, g.logical_and(g.isnan(a1), g.isnan(a2))) end
    return g.all(eq):item()
  end

  --- True when `a1` and `a2` broadcast to one shape and are equal there; a
  -- Lua boolean.
  -- @function ga.array_equiv
  -- @usage
  -- print(ga.array_equiv(ga.array({{1, 2}, {1, 2}}), {1, 2}))   --> true
  function F.array_equiv(a1, a2)
    local fname = "array_equiv"
    local g = G()
    a1, a2 = arr(fname, a1, "a1"), arr(fname, a2, "a2")
    if not pcall(broadcast_shapes, a1.shape, a2.shape) then return false end
    return g.all(g.equal(a1, a2)):item()
  end

  -- ---- grids and ranges ----

  --- Coordinate matrices from 1-D coordinate vectors (NumPy's `meshgrid`):
  -- a Lua table of arrays.  `opts`: `indexing` "xy" (default: the first two
  -- axes swapped, as for plotting) or "ij", `sparse` (shapes of ones but
  -- one axis), `copy` (default true; false gives broadcast views).
  -- @function ga.meshgrid
  -- @param ... 1-D arrays (or tables), then optionally an options table
  -- @treturn table of ndarrays
  -- @usage
  -- local X, Y = table.unpack(ga.meshgrid({1, 2, 3}, {10, 20}))
  -- print(X.shape[1], X.shape[2], Y[{2, 1}]:item())   --> 2	3	20
  function F.meshgrid(...)
    local fname = "meshgrid"
    local args, opts = { ... }, {}
    local last = args[#args]
    if type(last) == "table" and not is_array(last) and (last.indexing ~= nil or last.sparse ~= nil or
        last.copy ~= nil or next(last) == nil) then
      opts = C.options(fname, table.remove(args), { indexing = true, sparse = true, copy = true })
    end
    local indexing = opts.indexing or "xy"
    if indexing ~= "xy" and indexing ~= "ij" then fail(fname, "indexing must be 'xy' or 'ij'") end
    local n = #args
    local xs, shape = {}, {}
    for i = 1, n do
      xs[i] = G().ravel(arr(fname, args[i], "argument " .. i))
      shape[i] = xs[i].size
    end
    if indexing == "xy" and n > 1 then shape[1], shape[2] = shape[2], shape[1] end
    local out = {}
    for i = 1, n do
      local ax = i
      if indexing == "xy" and n > 1 and i <= 2 then ax = 3 - i end
      local s = {}
      for d = 1, n do s[d] = d == ax and shape[d] or 1 end
      local v = xs[i]:reshape(s)
      if not opts.sparse then
        v = G().broadcast_to(v, shape)
        if opts.copy ~= false then v = v:copy() end
      elseif opts.copy ~= false then
        v = v:copy()
      end
      out[i] = v
    end
    return out
  end

  --- The 1-based positions of a grid (NumPy's `indices`, + 1): an array of
  -- shape `{#dims, dims...}` whose slice k holds the k-th coordinate; with
  -- `sparse`, a table of arrays that broadcast to the grid.
  -- @function ga.indices
  -- @tparam table dimensions
  -- @tparam[opt="int64"] string dtype
  -- @tparam[opt=false] boolean sparse
  -- @usage
  -- local ij = ga.indices({2, 3})
  -- print(ij[{1, 2, 1}]:item(), ij[{2, 1, 3}]:item())   --> 2	3
  function F.indices(dimensions, dtype, sparse)
    local fname = "indices"
    if type(dimensions) ~= "table" or is_array(dimensions) then fail(fname, "dimensions must be a table of sizes") end
    dtype = dtype or "int64"
    local n = #dimensions
    local parts = {}
    for k = 1, n do
      local d = math.tointeger(dimensions[k])
      if not d or d < 0 then fail(fname, "dimension %d is not a non-negative integer", k) end
      local s = {}
      for j = 1, n do s[j] = j == k and d or 1 end
      parts[k] = m.arange(1, d + 1, 1, dtype):reshape(s)
    end
    if sparse then return parts end
    local full = {}
    for k = 1, n do full[k] = G().broadcast_to(parts[k], dimensions) end
    if n == 0 then return m.empty({ 0 }, dtype) end
    return G().stack(full, 1)
  end

  local function num_opt(fname, v, what, default)
    if v == nil then return default end
    if type(v) ~= "number" then fail(fname, "%s must be a number, got %s", what, typename(v)) end
    return v
  end
  local function count_opt(fname, v, default)
    if v == nil then return default end
    local n = math.tointeger(v)
    if not n or n < 0 then fail(fname, "num must be a non-negative integer, got %s", tostring(v)) end
    return n
  end

  --- `base ^ linspace(start, stop, num)`: numbers spaced evenly on a log
  -- scale.
  -- @function ga.logspace
  -- @tparam number start
  -- @tparam number stop
  -- @tparam[opt=50] integer num
  -- @tparam[opt=true] boolean endpoint
  -- @tparam[opt=10] number base
  -- @tparam[opt="float64"] string dtype
  -- @usage
  -- print(ga.logspace(0, 3, 4))   --> array([   1.,   10.,  100., 1000.])
  function F.logspace(start, stop, num, endpoint, base, dtype)
    local fname = "logspace"
    start, stop = num_opt(fname, start, "start"), num_opt(fname, stop, "stop")
    if start == nil or stop == nil then fail(fname, "start and stop are required") end
    num, base = count_opt(fname, num, 50), num_opt(fname, base, "base", 10.0)
    local y = m.linspace(start, stop, num, { endpoint = endpoint ~= false })
    local r = G().power(base, y)
    return dtype and r:astype(dtype) or r
  end

  --- Numbers spaced evenly on a log scale between `start` and `stop`
  -- themselves (both of one sign, neither 0); the ends are exact.
  -- @function ga.geomspace
  -- @tparam number start
  -- @tparam number stop
  -- @tparam[opt=50] integer num
  -- @tparam[opt=true] boolean endpoint
  -- @tparam[opt="float64"] string dtype
  -- @usage
  -- print(ga.geomspace(1, 1000, 4))   --> array([   1.,   10.,  100., 1000.])
  function F.geomspace(start, stop, num, endpoint, dtype)
    local fname = "geomspace"
    start, stop = num_opt(fname, start, "start"), num_opt(fname, stop, "stop")
    if start == nil or stop == nil then fail(fname, "start and stop are required") end
    num = count_opt(fname, num, 50)
    if start == 0 or stop == 0 then fail(fname, "geometric sequence cannot include zero") end
    local sign = 1
    if start < 0 and stop < 0 then sign, start, stop = -1, -start, -stop
    elseif (start < 0) ~= (stop < 0) then fail(fname, "start and stop must have the same sign") end
    endpoint = endpoint ~= false
    local r = G().power(10.0, m.linspace(math.log(start, 10), math.log(stop, 10), num, { endpoint = endpoint }))
    if num > 0 then r[{ 1 }] = start end
    if num > 1 and endpoint then r[{ num }] = stop end
    if sign < 0 then r = G().negative(r) end
    return dtype and r:astype(dtype) or r
  end

  --- Ones at and below the k-th diagonal, zeros above (an N x M array).
  -- @function ga.tri
  -- @tparam integer N rows
  -- @tparam[opt=N] integer M columns
  -- @tparam[opt=0] integer k the diagonal (0 main, > 0 above)
  -- @tparam[opt="float64"] string dtype
  -- @usage
  -- print(ga.tri(2, 3, 0, "int32"))
  -- --> array([[1, 0, 0],
  -- -->        [1, 1, 0]], dtype=int32)
  function F.tri(N, M, k, dtype)
    local fname = "tri"
    local n, mm, kk = math.tointeger(N), math.tointeger(M or N), math.tointeger(k or 0)
    if not n or n < 0 or not mm or mm < 0 then fail(fname, "N and M must be non-negative integers") end
    if not kk then fail(fname, "k must be an integer") end
    local g = G()
    local r = m.arange(n):reshape({ n, 1 })
    local c = m.arange(mm):reshape({ 1, mm })
    return g.less_equal(c, g.add(r, kk)):astype(dtype or "float64")
  end

  --- The Vandermonde matrix of `x`: column j is x^(N-j) (x^(j-1) with
  -- `increasing`).
  -- @function ga.vander
  -- @param x 1-D array
  -- @tparam[opt=#x] integer N columns
  -- @tparam[opt=false] boolean increasing
  -- @usage
  -- print(ga.vander({1, 2, 3}, 3))
  -- --> array([[1, 1, 1],
  -- -->        [4, 2, 1],
  -- -->        [9, 3, 1]])
  function F.vander(x, N, increasing)
    local fname = "vander"
    x = arr(fname, x, "x")
    if x.ndim ~= 1 then fail(fname, "x must be a one-dimensional array") end
    local n = math.tointeger(N or x.size)
    if not n or n < 0 then fail(fname, "N must be a non-negative integer") end
    local p = increasing and m.arange(n) or m.arange(n - 1, -1, -1)
    if n == 0 then return m.empty({ x.size, 0 }, x.dtype) end
    local g = G()
    return g.power(x:reshape({ x.size, 1 }), p:astype(is_int(x.dtype) and x.dtype or "float64"):reshape({ 1, n }))
  end

  -- ---- differences ----

  --- The n-th discrete difference along an axis: `a[i+1] - a[i]`
  -- (`not_equal` for bool), n times; `prepend`/`append` values (a number
  -- or an array) are joined to `a` along the axis first.
  -- @function ga.diff
  -- @tparam ndarray a
  -- @tparam[opt=1] integer n
  -- @tparam[opt=-1] integer axis
  -- @param[opt] prepend
  -- @param[opt] append
  -- @usage
  -- print(ga.diff({1, 4, 9, 16}), ga.diff({1, 4, 9, 16}, 2))   --> array([3, 5, 7])	array([2, 2])
  function F.diff(a, n, axis, prepend, append)
    local fname = "diff"
    local g = G()
    a = arr(fname, a, "a")
    n = math.tointeger(n or 1)
    if not n or n < 0 then fail(fname, "order must be non-negative but got %s", tostring(n)) end
    if a.ndim == 0 then fail(fname, "diff requires input that is at least one dimensional") end
    local ax = axis_of(fname, a, axis, -1)
    local function edge(v)
      v = arr(fname, v, "prepend/append")
      if v.ndim == 0 then
        local s = {}
        for d = 1, a.ndim do s[d] = d == ax and 1 or a.shape[d] end
        v = g.broadcast_to(v, s)
      end
      return v
    end
    if prepend ~= nil or append ~= nil then
      local parts = {}
      if prepend ~= nil then parts[#parts + 1] = edge(prepend) end
      parts[#parts + 1] = a
      if append ~= nil then parts[#parts + 1] = edge(append) end
      a = g.concatenate(parts, ax)
    end
    for _ = 1, n do
      local len = a.shape[ax]
      if len <= 1 then
        local s = {}
        for d = 1, a.ndim do s[d] = d == ax and 0 or a.shape[d] end
        return m.empty(s, a.dtype)
      end
      local hi, lo = a[along(a.ndim, ax, { 2, len })], a[along(a.ndim, ax, { 1, len - 1 })]
      a = a.dtype == "bool" and g.not_equal(hi, lo) or g.subtract(hi, lo)
    end
    return a
  end

  --- Differences of consecutive elements of the flattened array, with
  -- `to_begin` and `to_end` joined at its ends.
  -- @function ga.ediff1d
  -- @usage
  -- print(ga.ediff1d({1, 2, 4, 7}, {99}, 0))   --> array([ 0,  1,  2,  3, 99])
  function F.ediff1d(ary, to_end, to_begin)
    local fname = "ediff1d"
    local g = G()
    local x = g.ravel(arr(fname, ary, "ary"))
    local d = x.size > 1 and g.subtract(x[{ { 2, -1 } }], x[{ { 1, -2 } }]) or m.empty({ 0 }, x.dtype)
    local parts = {}
    if to_begin ~= nil then parts[#parts + 1] = g.ravel(arr(fname, to_begin, "to_begin")):astype(d.dtype) end
    parts[#parts + 1] = d
    if to_end ~= nil then parts[#parts + 1] = g.ravel(arr(fname, to_end, "to_end")):astype(d.dtype) end
    return #parts == 1 and d or g.concatenate(parts)
  end

  --- Cumulative sum (NumPy 2's `cumulative_sum`): as `cumsum`, with a zero
  -- first when `include_initial`; `axis` is required for more than 1-D.
  -- @function ga.cumulative_sum
  -- @tparam ndarray x
  -- @tparam[opt] integer axis
  -- @tparam[opt] string dtype
  -- @tparam[opt=false] boolean include_initial
  -- @usage
  -- print(ga.cumulative_sum({1, 2, 3}, nil, nil, true))   --> array([0, 1, 3, 6])
  function F.cumulative_sum(x, axis, dtype, include_initial)
    local fname = "cumulative_sum"
    local g = G()
    x = arr(fname, x, "x")
    if x.ndim == 0 then fail(fname, "x must be at least 1-d") end
    if axis == nil and x.ndim > 1 then fail(fname, "axis must be given for an array of more than one dimension") end
    local ax = axis_of(fname, x, axis, 1)
    local c = g.cumsum(x, ax, dtype and { dtype = dtype } or nil)
    if not include_initial then return c end
    local s = {}
    for d = 1, x.ndim do s[d] = d == ax and 1 or x.shape[d] end
    return g.concatenate({ m.zeros(s, c.dtype), c }, ax)
  end

  --- The trapezoidal rule along an axis: the integral of `y` over sample
  -- points `x` (or spacing `dx`).
  -- @function ga.trapezoid
  -- @tparam ndarray y
  -- @param[opt] x sample points (1-D along the axis, or of y's shape)
  -- @tparam[opt=1] number dx
  -- @tparam[opt=-1] integer axis
  -- @usage
  -- print(ga.trapezoid({1, 2, 3}), ga.trapezoid({1, 2, 3}, {0, 1, 3}))   --> 4.0	6.5
  function F.trapezoid(y, x, dx, axis)
    local fname = "trapezoid"
    local g = G()
    y = arr(fname, y, "y")
    if y.ndim == 0 then fail(fname, "y must be at least 1-d") end
    local ax = axis_of(fname, y, axis, -1)
    local n = y.shape[ax]
    if n < 2 then
      local r = g.sum(g.multiply(y, 0.0), ax)
      return r.ndim == 0 and r:item() or r
    end
    local d
    if x ~= nil then
      x = arr(fname, x, "x")
      if x.ndim == 1 then
        if x.size ~= n then fail(fname, "x has %d points, y has %d along the axis", x.size, n) end
        d = g.subtract(x[{ { 2, -1 } }], x[{ { 1, -2 } }])
        local s = {}
        for k = 1, y.ndim do s[k] = k == ax and n - 1 or 1 end
        d = d:reshape(s)
      else
        d = F.diff(x, 1, ax)
      end
    else
      d = num_opt(fname, dx, "dx", 1.0)
    end
    local hi, lo = y[along(y.ndim, ax, { 2, n })], y[along(y.ndim, ax, { 1, n - 1 })]
    local r = g.sum(g.multiply(g.multiply(g.add(hi, lo), d), 0.5), ax)
    return r.ndim == 0 and r:item() or r
  end

  -- ---- positions ----

  local function shape_arg(fname, shape)
    if math.type(shape) == "integer" then shape = { shape } end
    if type(shape) ~= "table" or is_array(shape) then fail(fname, "shape must be a table of sizes") end
    for i = 1, #shape do
      if math.type(shape[i]) ~= "integer" or shape[i] < 0 then fail(fname, "dimension %d is not a size", i) end
    end
    return shape
  end

  --- The coordinates (1-based) of flat positions (1-based) in an array of
  -- `shape`, C order (`order = "F"`: Fortran): a table of int64 arrays (of
  -- integers when `indices` is an integer).
  -- @function ga.unravel_index
  -- @param indices integer or integer array of positions in 1 .. prod(shape)
  -- @tparam table shape
  -- @tparam[opt="C"] string order
  -- @usage
  -- local r, c = table.unpack(ga.unravel_index(6, {2, 3}))
  -- print(r, c)   --> 2	3
  function F.unravel_index(indices, shape, order)
    local fname = "unravel_index"
    local g = G()
    shape = shape_arg(fname, shape)
    order = order or "C"
    if order ~= "C" and order ~= "F" then fail(fname, "order must be 'C' or 'F'") end
    local total = 1
    for i = 1, #shape do total = total * shape[i] end
    local scalar = math.type(indices) == "integer"
    local idx = arr(fname, indices, "indices")
    if not is_int(idx.dtype) then fail(fname, "only integer indices are allowed, got %s", idx.dtype) end
    if idx.size > 0 and (g.min(idx):item() < 1 or g.max(idx):item() > total) then
      fail(fname, "index out of bounds for an array of size %d (positions are 1-based)", total)
    end
    local rest = g.subtract(idx:astype("int64"), 1)
    local out, nd = {}, #shape
    local dims = {}
    for k = 1, nd do dims[k] = order == "C" and nd + 1 - k or k end
    for _, d in ipairs(dims) do
      out[d] = g.add(g.remainder(rest, shape[d]), 1)
      rest = g.floor_divide(rest, shape[d])
    end
    if scalar then for d = 1, nd do out[d] = out[d]:item() end end
    return out
  end

  --- Flat positions (1-based) of coordinates (1-based) in an array of
  -- `dims`: the inverse of unravel_index.  `mode` "raise" (default),
  -- "wrap" or "clip"; `order` "C" or "F".
  -- @function ga.ravel_multi_index
  -- @tparam table multi_index one integer array (or integer) per dimension
  -- @tparam table dims
  -- @tparam[opt="raise"] string mode
  -- @tparam[opt="C"] string order
  -- @usage
  -- print(ga.ravel_multi_index({ga.array({1, 2}), ga.array({3, 1})}, {2, 3}))   --> array([3, 4])
  function F.ravel_multi_index(multi_index, dims, mode, order)
    local fname = "ravel_multi_index"
    local g = G()
    dims = shape_arg(fname, dims)
    mode, order = mode or "raise", order or "C"
    if mode ~= "raise" and mode ~= "wrap" and mode ~= "clip" then fail(fname, "mode must be raise, wrap or clip") end
    if order ~= "C" and order ~= "F" then fail(fname, "order must be 'C' or 'F'") end
    if type(multi_index) ~= "table" or is_array(multi_index) or #multi_index ~= #dims then
      fail(fname, "multi_index must be a table of %d index arrays", #dims)
    end
    local scalar = true
    local acc = nil
    local nd = #dims
    local stride = 1
    for k = 1, nd do
      local d = order == "C" and nd + 1 - k or k
      local v = multi_index[d]
      if math.type(v) ~= "integer" then scalar = false end
      v = arr(fname, v, "multi_index[" .. d .. "]")
      if not is_int(v.dtype) then fail(fname, "only integer indices are allowed") end
      v = g.subtract(v:astype("int64"), 1)
      if mode == "raise" then
        if v.size > 0 and (g.min(v):item() < 0 or g.max(v):item() >= dims[d]) then
          fail(fname, "invalid entry in coordinates array %d (positions are 1 .. %d)", d, dims[d])
        end
      elseif mode == "wrap" then v = g.remainder(v, dims[d])
      else v = g.clip(v, 0, math.max(dims[d] - 1, 0)) end
      local term = g.multiply(v, stride)
      acc = acc and g.add(acc, term) or term
      stride = stride * dims[d]
    end
    acc = g.add(acc, 1)
    return scalar and acc:item() or acc
  end

  --- The positions of the main diagonal of an `ndim`-d array of side n: a
  -- table of `ndim` arrays 1 .. n.
  -- @function ga.diag_indices
  -- @usage
  -- local a = ga.zeros({3, 3}); local d = ga.diag_indices(3)
  -- print(d[1], d[2])   --> array([1, 2, 3])	array([1, 2, 3])
  function F.diag_indices(n, ndim)
    local nn, nd = math.tointeger(n), math.tointeger(ndim or 2)
    if not nn or nn < 0 or not nd or nd < 1 then fail("diag_indices", "n and ndim must be non-negative integers") end
    local out = {}
    for k = 1, nd do out[k] = m.arange(1, nn + 1) end
    return out
  end

  local function tri_positions(fname, n, k, mcols, upper)
    local nn, kk = math.tointeger(n), math.tointeger(k or 0)
    local mm = math.tointeger(mcols or n)
    if not nn or nn < 0 or not mm or mm < 0 then fail(fname, "n and m must be non-negative integers") end
    if not kk then fail(fname, "k must be an integer") end
    local g = G()
    local mask = F.tri(nn, mm, upper and kk - 1 or kk, "bool")
    if upper then mask = g.logical_not(mask) end
    local pos = g.nonzero(mask)
    return pos
  end

  --- The positions (1-based, row-major) of the lower triangle of an n x m
  -- array, at and below the k-th diagonal: `{rows, cols}`.
  -- @function ga.tril_indices
  -- @tparam integer n
  -- @tparam[opt=0] integer k
  -- @tparam[opt=n] integer m
  -- @usage
  -- local r, c = table.unpack(ga.tril_indices(3))
  -- print(r, c)   --> array([1, 2, 2, 3, 3, 3])	array([1, 1, 2, 1, 2, 3])
  function F.tril_indices(n, k, mcols) return tri_positions("tril_indices", n, k, mcols, false) end

  --- The positions (1-based, row-major) of the upper triangle, at and above
  -- the k-th diagonal: `{rows, cols}`.
  -- @function ga.triu_indices
  -- @usage
  -- local r, c = table.unpack(ga.triu_indices(3, 1))
  -- print(r, c)   --> array([1, 1, 2])	array([2, 3, 3])
  function F.triu_indices(n, k, mcols) return tri_positions("triu_indices", n, k, mcols, true) end

  -- flat positions (1-based) into contiguous `shape` of a coordinate grid
  -- where `axis` takes `idx` (1-based) and the others their own coordinate
  local function along_positions(shape, idx, ax)
    local g = G()
    local nd = #shape
    local pos = nil
    local stride = 1
    for d = nd, 1, -1 do
      local coord
      if d == ax then
        coord = g.subtract(idx, 1)
      else
        local s = {}
        for j = 1, nd do s[j] = j == d and idx.shape[d] or 1 end
        coord = m.arange(idx.shape[d]):reshape(s)
      end
      local term = g.multiply(coord, stride)
      pos = pos and g.add(pos, term) or term
      stride = stride * shape[d]
    end
    return g.add(pos, 1)
  end

  local function along_args(fname, a, indices, axis)
    a = arr(fname, a, "arr")
    indices = arr(fname, indices, "indices")
    if not is_int(indices.dtype) then fail(fname, "indices must be integers, got %s", indices.dtype) end
    if axis == nil then
      a = G().ravel(a)
      if indices.ndim ~= 1 then fail(fname, "with axis nil, indices must be 1-d") end
    end
    if indices.ndim ~= a.ndim then
      fail(fname, "indices and arr must have the same number of dimensions (%d and %d)", indices.ndim, a.ndim)
    end
    local ax = axis == nil and 1 or axis_of(fname, a, axis, -1)
    local g = G()
    local len = a.shape[ax]
    if indices.size > 0 then
      local lo, hi = g.min(indices):item(), g.max(indices):item()
      if lo < -len or lo == 0 or hi > len then
        fail(fname, "index out of bounds for axis %d with size %d (positions are 1-based)", ax, len)
      end
    end
    -- negative positions count from the end
    indices = g.where(g.less(indices, 0), g.add(indices, len + 1), indices):astype("int64")
    for d = 1, a.ndim do
      if d ~= ax and indices.shape[d] ~= a.shape[d] and indices.shape[d] ~= 1 and a.shape[d] ~= 1 then
        fail(fname, "shape mismatch: indices %s and arr %s do not broadcast", shape_str(indices.shape),
             shape_str(a.shape))
      end
    end
    return a, indices, ax
  end

  --- Values of `arr` at 1-based positions `indices` along an axis, the
  -- other axes matched (NumPy's `take_along_axis`): `ga.argsort`'s result
  -- sorts an array with it.
  -- @function ga.take_along_axis
  -- @tparam ndarray arr
  -- @tparam ndarray indices integer, arr's number of dimensions
  -- @tparam[opt] integer axis (nil: arr flattened)
  -- @usage
  -- local a = ga.array({{30, 10, 20}, {6, 5, 4}})
  -- print(ga.take_along_axis(a, ga.argsort(a, 2), 2))
  -- --> array([[10, 20, 30],
  -- -->        [ 4,  5,  6]])
  function F.take_along_axis(a, indices, axis)
    local fname = "take_along_axis"
    local g = G()
    a, indices = along_args(fname, a, indices, axis)
    local ax = axis == nil and 1 or axis_of(fname, a, axis, -1)
    local shape = {}
    for d = 1, a.ndim do shape[d] = d == ax and indices.shape[d] or math.max(a.shape[d], indices.shape[d]) end
    local idx = g.broadcast_to(indices, shape)
    -- positions into a contiguous copy of arr broadcast over the other axes
    local src_shape = {}
    for d = 1, a.ndim do src_shape[d] = d == ax and a.shape[d] or shape[d] end
    local src = g.ascontiguousarray(g.broadcast_to(a, src_shape))
    local pos = along_positions(src_shape, idx, ax)
    return g.take(g.ravel(src), pos)
  end

  --- Put `values` into `arr` at 1-based positions `indices` along an axis
  -- (in place; NumPy's `put_along_axis`).
  -- @function ga.put_along_axis
  -- @tparam ndarray arr
  -- @tparam ndarray indices
  -- @param values broadcast to indices' shape
  -- @tparam integer axis
  -- @usage
  -- local a = ga.zeros({2, 3}, "int64")
  -- ga.put_along_axis(a, ga.array({{3}, {1}}), 7, 2)
  -- print(a)
  -- --> array([[0, 0, 7],
  -- -->        [7, 0, 0]])
  function F.put_along_axis(a, indices, values, axis)
    local fname = "put_along_axis"
    local g = G()
    C.arg(fname, a, "arr")
    if axis == nil then fail(fname, "axis must be given (put_along_axis works in place on arr)") end
    local target = a
    local _, idx, ax = along_args(fname, a, indices, axis)
    for d = 1, a.ndim do
      if d ~= ax and idx.shape[d] ~= a.shape[d] then
        idx = g.broadcast_to(idx, (function()
          local s = {}
          for j = 1, a.ndim do s[j] = j == ax and idx.shape[j] or a.shape[j] end
          return s
        end)())
        break
      end
    end
    local work = target.flags.c_contiguous and target or g.ascontiguousarray(target)
    local pos = along_positions(work.shape, idx, ax)
    local flat = work:reshape({ work.size })
    flat[g.ravel(pos)] = g.ravel(g.broadcast_to(arr(fname, values, "values"), idx.shape)):astype(work.dtype)
    if not rawequal(work, target) then target:set(work) end
  end

  --- `arr` with `values` appended: flattened both when `axis` is nil, else
  -- joined along the axis (same number of dimensions).
  -- @function ga.append
  -- @usage
  -- print(ga.append({1, 2}, {{3, 4}}))   --> array([1, 2, 3, 4])
  function F.append(a, values, axis)
    local fname = "append"
    local g = G()
    a, values = arr(fname, a, "arr"), arr(fname, values, "values")
    if axis == nil then return g.concatenate({ g.ravel(a), g.ravel(values) }) end
    return g.concatenate({ a, values }, axis)
  end

  -- ---- sets ----

  --- Whether each element of `element` is in `test_elements` (bool array of
  -- element's shape; `invert` negates).
  -- @function ga.isin
  -- @usage
  -- print(ga.isin({1, 2, 3, 4}, {4, 2}))   --> array([False,  True, False,  True])
  function F.isin(element, test_elements, _assume_unique, invert)
    local fname = "isin"
    local g = G()
    element = arr(fname, element, "element")
    local t = g.sort(g.ravel(arr(fname, test_elements, "test_elements")))
    local r
    if t.size == 0 then
      r = m.zeros(element.shape, "bool")
    else
      local pos = g.searchsorted(t, element, "left")   -- 1 .. n + 1
      local at = g.take(t, g.minimum(pos, t.size))
      r = g.logical_and(g.less_equal(pos, t.size), g.equal(at, element))
    end
    if invert then r = g.logical_not(r) end
    return r
  end

  --- ga.isin of the flattened `ar1` (NumPy's `in1d`).
  -- @function ga.in1d
  -- @usage
  -- print(ga.in1d({{1, 5}}, {5}))   --> array([False,  True])
  function F.in1d(ar1, ar2, _assume_unique, invert)
    return F.isin(G().ravel(arr("in1d", ar1, "ar1")), ar2, false, invert)
  end

  --- The sorted unique values in both arrays; with `return_indices`, also
  -- the 1-based positions of their first occurrences in each (flattened).
  -- @function ga.intersect1d
  -- @usage
  -- print(ga.intersect1d({1, 3, 4, 3}, {3, 1, 2, 1}))   --> array([1, 3])
  function F.intersect1d(ar1, ar2, _assume_unique, return_indices)
    local fname = "intersect1d"
    local g = G()
    ar1, ar2 = g.ravel(arr(fname, ar1, "ar1")), g.ravel(arr(fname, ar2, "ar2"))
    local u1, i1 = g.unique(ar1, { return_index = true })
    local u2, i2 = g.unique(ar2, { return_index = true })
    local keep = F.isin(u1, u2)
    local common = g.compress(keep, u1)
    if not return_indices then return common end
    local p1 = g.compress(keep, i1)
    local p2 = g.take(i2, g.searchsorted(u2, common, "left"))
    return common, p1, p2
  end

  --- The sorted unique values in either array.
  -- @function ga.union1d
  -- @usage
  -- print(ga.union1d({-1, 0, 1}, {-2, 0, 2}))   --> array([-2, -1,  0,  1,  2])
  function F.union1d(ar1, ar2)
    local fname = "union1d"
    local g = G()
    return g.unique(g.concatenate({ g.ravel(arr(fname, ar1, "ar1")), g.ravel(arr(fname, ar2, "ar2")) }))
  end

  --- The sorted unique values of `ar1` that are not in `ar2`.
  -- @function ga.setdiff1d
  -- @usage
  -- print(ga.setdiff1d({1, 2, 3, 2, 4, 1}, {3, 4, 5, 6}))   --> array([1, 2])
  function F.setdiff1d(ar1, ar2, _assume_unique)
    local fname = "setdiff1d"
    local g = G()
    local u1 = g.unique(g.ravel(arr(fname, ar1, "ar1")))
    return g.compress(F.isin(u1, ar2, false, true), u1)
  end

  --- The sorted unique values in exactly one of the arrays.
  -- @function ga.setxor1d
  -- @usage
  -- print(ga.setxor1d({1, 2, 3, 2, 4}, {2, 3, 5, 7, 5}))   --> array([1, 4, 5, 7])
  function F.setxor1d(ar1, ar2, _assume_unique)
    local fname = "setxor1d"
    local g = G()
    local a = g.unique(g.ravel(arr(fname, ar1, "ar1")))
    local b = g.unique(g.ravel(arr(fname, ar2, "ar2")))
    return g.concatenate({ g.compress(F.isin(a, b, false, true), a), g.compress(F.isin(b, a, false, true), b) })
      :sort()
  end

  -- ---- counting ----

  --- Occurrences of each value 0 .. max(x) in a 1-d array of non-negative
  -- integers (int64), or the sums of `weights` there (float64); at least
  -- `minlength` bins.  (Counts values, not positions: bin k holds value k - 1.)
  -- @function ga.bincount
  -- @usage
  -- print(ga.bincount({0, 1, 1, 3}))   --> array([1, 2, 0, 1])
  function F.bincount(x, weights, minlength)
    local fname = "bincount"
    local g = G()
    x = arr(fname, x, "x")
    if x.ndim ~= 1 then fail(fname, "x must be 1-d, got %d dimensions", x.ndim) end
    if not (is_int(x.dtype) or x.dtype == "bool") then fail(fname, "x must hold integers, got %s", x.dtype) end
    local ml = math.tointeger(minlength or 0)
    if not ml or ml < 0 then fail(fname, "minlength must be a non-negative integer") end
    local n = ml
    if x.size > 0 then
      if g.min(x):item() < 0 then fail(fname, "x must not hold negative values") end
      n = math.max(n, math.tointeger(g.max(x):item()) + 1)
    end
    local out
    if weights ~= nil then
      weights = arr(fname, weights, "weights")
      if weights.size ~= x.size then fail(fname, "weights and x must have the same length") end
      out = m.zeros(n, "float64")
      if x.size > 0 then g.add_at(out, g.add(x:astype("int64"), 1), g.ravel(weights):astype("float64")) end
    else
      out = m.zeros(n, "int64")
      if x.size > 0 then g.add_at(out, g.add(x:astype("int64"), 1), 1) end
    end
    return out
  end

  local function monotonic(fname, bins)
    local g = G()
    if bins.size < 2 then return 1 end
    local d = g.subtract(bins[{ { 2, -1 } }], bins[{ { 1, -2 } }])
    if g.all(g.greater_equal(d, 0)):item() then return 1 end
    if g.all(g.less_equal(d, 0)):item() then return -1 end
    fail(fname, "bins must be monotonically increasing or decreasing")
  end

  --- The 1-based insertion position of each x among monotonic `bins`
  -- (NumPy's `digitize` + 1, as `searchsorted`): i with
  -- bins[i-1] <= x < bins[i] for increasing bins (`right`: bins[i-1] < x <= bins[i]).
  -- @function ga.digitize
  -- @usage
  -- print(ga.digitize({0.2, 6.4, 3.0, 1.6}, {0.0, 1.0, 2.5, 4.0, 10.0}))   --> array([2, 5, 4, 3])
  function F.digitize(x, bins, right)
    local fname = "digitize"
    local g = G()
    x, bins = arr(fname, x, "x"), arr(fname, bins, "bins")
    if bins.ndim ~= 1 then fail(fname, "bins must be 1-d") end
    local dir = monotonic(fname, bins)
    if dir > 0 then return g.searchsorted(bins, x, right and "left" or "right") end
    -- decreasing bins: search the reversed ones and mirror the position
    local rb = g.flip(bins)
    local p = g.searchsorted(rb, x, right and "right" or "left")
    return g.subtract(bins.size + 2, p)
  end

  --- The histogram of `a`: counts in `bins` equal bins over `range`
  -- (default the data's min..max) or given bin edges; returns `hist,
  -- bin_edges`.  The last bin includes its right edge; values outside are
  -- not counted.  `density` normalises to a probability density;
  -- `weights` sums weights instead of counting.
  -- @function ga.histogram
  -- @param a array
  -- @param[opt=10] bins an integer or a monotonically increasing array of edges
  -- @tparam[opt] table range {lo, hi}
  -- @tparam[opt=false] boolean density
  -- @param[opt] weights of a's shape
  -- @usage
  -- local h, e = ga.histogram({1, 2, 1}, {0, 1, 2, 3})
  -- print(h, e)   --> array([0, 2, 1])	array([0, 1, 2, 3])
  function F.histogram(a, bins, range, density, weights)
    local fname = "histogram"
    local g = G()
    a = g.ravel(arr(fname, a, "a"))
    bins = bins or 10
    local edges
    if math.type(bins) == "integer" then
      if bins < 1 then fail(fname, "bins must be a positive integer") end
      local lo, hi
      if range ~= nil then
        if type(range) ~= "table" or type(range[1]) ~= "number" or type(range[2]) ~= "number" then
          fail(fname, "range must be a table {lo, hi}")
        end
        lo, hi = range[1], range[2]
        if lo > hi then fail(fname, "max must be larger than min in range parameter") end
      elseif a.size > 0 then
        lo, hi = g.min(a):item(), g.max(a):item()
      else
        lo, hi = 0, 1
      end
      if lo ~= lo or hi ~= hi or lo == math.huge or hi == math.huge or lo == -math.huge or hi == -math.huge then
        fail(fname, "autodetected range of [%s, %s] is not finite", tostring(lo), tostring(hi))
      end
      if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
      edges = m.linspace(lo, hi, bins + 1)
    else
      edges = arr(fname, bins, "bins")
      if edges.ndim ~= 1 or edges.size < 2 then fail(fname, "bins must be an integer or a 1-d array of edges") end
      if edges.size > 1 and g.any(g.less(g.subtract(edges[{ { 2, -1 } }], edges[{ { 1, -2 } }]), 0)):item() then
        fail(fname, "bins must increase monotonically, when an array")
      end
    end
    local nb = edges.size - 1
    local w
    if weights ~= nil then
      weights = g.ravel(arr(fname, weights, "weights"))
      if weights.size ~= a.size then fail(fname, "weights should have the same shape as a") end
      w = weights:astype("float64")
    end
    local hist
    if a.size == 0 then
      hist = m.zeros(nb, w and "float64" or "int64")
    else
      local lo, hi = edges[{ 1 }], edges[{ -1 }]
      local inside = g.logical_and(g.greater_equal(a, lo), g.less_equal(a, hi))
      local bin = g.searchsorted(edges, a, "right")          -- 2 .. nb + 1 inside
      bin = g.where(g.equal(a, hi), nb + 1, bin)             -- the last edge: the last bin
      local k = g.compress(inside, g.subtract(bin, 2))       -- 0-based bins
      if w then
        hist = F.bincount(k, g.compress(inside, w), nb)
      else
        hist = F.bincount(k, nil, nb)
      end
      hist = hist[{ { 1, nb } }]
    end
    if density then
      local total = g.sum(hist):item()
      local widths = g.subtract(edges[{ { 2, -1 } }], edges[{ { 1, -2 } }])
      hist = g.divide(g.divide(hist:astype("float64"), widths), total)
    end
    return hist, edges
  end

  -- the edges of one dimension (bins: a count or edges; range {lo, hi})
  local function dim_edges(fname, x, bins, range)
    local g = G()
    if math.type(bins) == "integer" then
      if bins < 1 then fail(fname, "bins must be positive integers") end
      local lo, hi
      if range ~= nil then
        if type(range) ~= "table" or type(range[1]) ~= "number" or type(range[2]) ~= "number" then
          fail(fname, "range must hold {lo, hi} pairs")
        end
        lo, hi = range[1], range[2]
        if lo > hi then fail(fname, "max must be larger than min in range parameter") end
      elseif x.size > 0 then
        lo, hi = g.min(x):item(), g.max(x):item()
      else
        lo, hi = 0, 1
      end
      if lo ~= lo or hi ~= hi or math.abs(lo) == math.huge or math.abs(hi) == math.huge then
        fail(fname, "autodetected range of [%s, %s] is not finite", tostring(lo), tostring(hi))
      end
      if lo == hi then lo, hi = lo - 0.5, hi + 0.5 end
      return m.linspace(lo, hi, bins + 1)
    end
    local e = arr(fname, bins, "bins"):astype("float64")
    if e.ndim ~= 1 or e.size < 2 then fail(fname, "bins must be integers or 1-d arrays of edges") end
    if g.any(g.less(g.subtract(e[{ { 2, -1 } }], e[{ { 1, -2 } }]), 0)):item() then
      fail(fname, "bins must increase monotonically, when an array")
    end
    return e
  end

  --- The multidimensional histogram of `sample` (N points of D coordinates:
  -- an (N, D) array, or as NumPy's array_like a Lua table of D coordinate
  -- arrays): `hist, edges` with `edges`
  -- a table of D arrays.  `bins`: an integer, or one integer or edge array
  -- per dimension; `range`: one {lo, hi} per dimension.
  -- @function ga.histogramdd
  -- @usage
  -- local h, e = ga.histogramdd(ga.array({{0, 0}, {1, 1}, {1, 0.2}}), 2)
  -- print(h)
  -- --> array([[1., 0.],
  -- -->        [1., 1.]])
  function F.histogramdd(sample, bins, range, density, weights)
    local fname = "histogramdd"
    local g = G()
    local cols = {}
    if type(sample) == "table" and not is_array(sample) then   -- NumPy's array_like: one entry per coordinate
      for d = 1, #sample do cols[d] = g.ravel(arr(fname, sample[d], "sample[" .. d .. "]")) end
    else
      local s = arr(fname, sample, "sample")
      if s.ndim == 1 then s = s:reshape({ s.size, 1 }) end
      if s.ndim ~= 2 then fail(fname, "sample must be an (N, D) array") end
      for d = 1, s.shape[2] do cols[d] = s[{ {}, d }] end
    end
    local D = #cols
    if D == 0 then fail(fname, "sample has no dimensions") end
    local n = cols[1].size
    for d = 2, D do if cols[d].size ~= n then fail(fname, "the sample's dimensions have different lengths") end end
    bins = bins or 10
    if range ~= nil and (type(range) ~= "table" or #range ~= D) then
      fail(fname, "range must hold one {lo, hi} per dimension")
    end
    local edges, nbs = {}, {}
    for d = 1, D do
      local b = bins
      if type(bins) == "table" and not is_array(bins) then
        if #bins ~= D then fail(fname, "the dimension of bins must be equal to the dimension of the sample x") end
        b = bins[d]
      end
      edges[d] = dim_edges(fname, cols[d], b, range and range[d])
      nbs[d] = edges[d].size - 1
    end
    local w
    if weights ~= nil then
      w = g.ravel(arr(fname, weights, "weights")):astype("float64")
      if w.size ~= n then fail(fname, "weights should have the same length as the sample") end
    end
    local total = 1
    for d = 1, D do total = total * nbs[d] end
    local hist
    if n == 0 then
      hist = m.zeros(nbs, "float64")
    else
      local inside, flat = nil, nil
      local stride = 1
      for d = D, 1, -1 do
        local x, e, nb = cols[d], edges[d], nbs[d]
        local lo, hi = e[{ 1 }]:item(), e[{ nb + 1 }]:item()
        local ok = g.logical_and(g.greater_equal(x, lo), g.less_equal(x, hi))
        inside = inside and g.logical_and(inside, ok) or ok
        local k = g.subtract(g.searchsorted(e, x, "right"), 2)         -- 0-based bins
        k = g.where(g.equal(x, hi), nb - 1, k)
        k = g.clip(k, 0, nb - 1)
        local term = g.multiply(k, stride)
        flat = flat and g.add(flat, term) or term
        stride = stride * nb
      end
      local kf = g.compress(inside, flat)
      hist = F.bincount(kf, w and g.compress(inside, w) or g.compress(inside, m.ones(n, "float64")), total)
      hist = hist[{ { 1, total } }]:reshape(nbs)
    end
    if density then
      local s = g.sum(hist):item()
      hist = g.divide(hist, s)
      for d = 1, D do
        local wd = g.subtract(edges[d][{ { 2, -1 } }], edges[d][{ { 1, -2 } }])
        local shp = {}
        for j = 1, D do shp[j] = j == d and nbs[d] or 1 end
        hist = g.divide(hist, wd:reshape(shp))
      end
    end
    return hist, edges
  end

  --- The 2-d histogram of points (x[i], y[i]): `hist, xedges, yedges`
  -- (see ga.histogramdd).
  -- @function ga.histogram2d
  -- @usage
  -- local h, xe, ye = ga.histogram2d({0, 1, 1}, {0, 1, 0.2}, 2)
  -- print(h[{2, 1}]:item(), xe.size)   --> 1.0	3
  function F.histogram2d(x, y, bins, range, density, weights)
    local fname = "histogram2d"
    x, y = G().ravel(arr(fname, x, "x")), G().ravel(arr(fname, y, "y"))
    if x.size ~= y.size then fail(fname, "x and y must have the same length") end
    local h, e = F.histogramdd({ x, y }, bins, range, density, weights)
    return h, e[1], e[2]
  end

  --- `x` piecewise: where condlist[k] holds, funclist[k] (a function of x,
  -- or a value); one extra entry in funclist is the value where no
  -- condition holds (else 0).  Each function sees the whole x (NumPy's sees
  -- the selected elements only: the same for element-wise functions).
  -- @function ga.piecewise
  -- @usage
  -- local x = ga.linspace(-2, 2, 5)
  -- print(ga.piecewise(x, {x:lt(0), x:ge(0)}, {-1, function(v) return v * 2 end}))
  -- --> array([-1., -1.,  0.,  2.,  4.])
  function F.piecewise(x, condlist, funclist)
    local fname = "piecewise"
    local g = G()
    x = arr(fname, x, "x")
    if is_array(condlist) then condlist = { condlist } end
    if type(condlist) ~= "table" or type(funclist) ~= "table" or is_array(funclist) then
      fail(fname, "condlist and funclist must be tables")
    end
    local nc, nf = #condlist, #funclist
    if nf ~= nc and nf ~= nc + 1 then
      fail(fname, "with %d condition(s), either %d or %d functions are expected", nc, nc, nc + 1)
    end
    local function val(f)
      if type(f) == "function" then return f(x) end
      return f
    end
    local out = nf == nc + 1 and val(funclist[nf]) or 0
    out = g.where(m.ones(x.shape, "bool"), out, m.zeros(x.shape, x.dtype)):astype(x.dtype)
    -- the last true condition wins, as NumPy's assignments in order
    for k = 1, nc do
      local c = arr(fname, condlist[k], "condlist[" .. k .. "]")
      if c.dtype ~= "bool" then fail(fname, "condlist[%d] must be a bool array", k) end
      out = g.where(c, val(funclist[k]), out):astype(x.dtype)
    end
    return out
  end

  --- Linear interpolation of the points (xp, fp) at x (NumPy's `interp`):
  -- xp increasing; `left`/`right` (default fp's ends) outside; with
  -- `period`, x and xp are angles of that period.
  -- @function ga.interp
  -- @usage
  -- print(ga.interp({0, 1.5, 2.72, 5}, {1, 2, 3}, {3, 2, 0}))   --> array([3.  , 2.5 , 0.56, 0.  ])
  function F.interp(x, xp, fp, left, right, period)
    local fname = "interp"
    local g = G()
    x, xp, fp = arr(fname, x, "x"), arr(fname, xp, "xp"), arr(fname, fp, "fp")
    if xp.ndim ~= 1 or fp.ndim ~= 1 then fail(fname, "xp and fp must be 1-d") end
    if xp.size ~= fp.size then fail(fname, "fp and xp are not of the same length") end
    if xp.size == 0 then fail(fname, "array of sample points is empty") end
    xp, fp = xp:astype("float64"), is_complex(fp.dtype) and fp or fp:astype("float64")
    x = x:astype("float64")
    if period ~= nil then
      if type(period) ~= "number" or period == 0 then fail(fname, "period must be a non-zero number") end
      period = math.abs(period)
      left, right = nil, nil
      x = g.remainder(x, period)
      xp = g.remainder(xp, period)
      local order = g.argsort(xp)
      xp, fp = g.take(xp, order), g.take(fp, order)
      xp = g.concatenate({ g.subtract(xp[{ { -1, -1 } }], period), xp, g.add(xp[{ { 1, 1 } }], period) })
      fp = g.concatenate({ fp[{ { -1, -1 } }], fp, fp[{ { 1, 1 } }] })
    elseif xp.size > 1 and g.any(g.less(g.subtract(xp[{ { 2, -1 } }], xp[{ { 1, -2 } }]), 0)):item() then
      fail(fname, "xp must be increasing")
    end
    local n = xp.size
    local j = g.searchsorted(xp, x, "right")                 -- xp[j-1] <= x < xp[j] (1-based)
    local jl = g.clip(g.subtract(j, 1), 1, n)
    local jr = g.clip(j, 1, n)
    local x0, x1 = g.take(xp, jl), g.take(xp, jr)
    local f0, f1 = g.take(fp, jl), g.take(fp, jr)
    local span = g.subtract(x1, x0)
    local t = g.divide(g.subtract(x, x0), g.where(g.equal(span, 0), 1, span))
    local v = g.add(f0, g.multiply(g.subtract(f1, f0), t))
    v = g.where(g.equal(span, 0), f0, v)
    local lv = left == nil and fp[{ 1 }]:item() or left
    local rv = right == nil and fp[{ n }]:item() or right
    v = g.where(g.less(x, xp[{ 1 }]:item()), lv, v)
    v = g.where(g.greater(x, xp[{ n }]:item()), rv, v)
    v = g.where(g.isnan(x), 0 / 0, v)
    return v
  end

  --- `x` with NaN replaced by `nan` (0), +inf by `posinf` (the dtype's
  -- max) and -inf by `neginf` (its min); integers and bools unchanged.
  -- @function ga.nan_to_num
  -- @tparam ndarray x
  -- @tparam[opt=true] boolean copy false: in place
  -- @tparam[opt=0] number nan
  -- @tparam[opt] number posinf
  -- @tparam[opt] number neginf
  -- @usage
  -- print(ga.nan_to_num({0/0, math.huge, 1}, true, 0, 9))   --> array([0., 9., 1.])
  function F.nan_to_num(x, copy, nan, posinf, neginf)
    local fname = "nan_to_num"
    local g = G()
    local given = is_array(x)
    x = arr(fname, x, "x")
    if is_complex(x.dtype) then
      fail(fname, "complex arrays are not supported yet (their parts are: ga.real, ga.imag)")
    end
    if not is_float(x.dtype) then return (copy == false and given) and x or x:copy() end
    local info = finfo(x.dtype)
    nan = num_opt(fname, nan, "nan", 0.0)
    posinf, neginf = num_opt(fname, posinf, "posinf", info.max), num_opt(fname, neginf, "neginf", -info.max)
    local r = g.where(g.isnan(x), nan, x)
    r = g.where(g.equal(x, math.huge), posinf, r)
    r = g.where(g.equal(x, -math.huge), neginf, r):astype(x.dtype)
    if copy == false and given then
      x:set(r)
      return x
    end
    return r
  end

  -- ---- order statistics ----

  local QMETHODS = { linear = true, lower = true, higher = true, nearest = true, midpoint = true,
                     inverted_cdf = true, averaged_inverted_cdf = true, closest_observation = true,
                     interpolated_inverted_cdf = true, hazen = true, weibull = true, median_unbiased = true,
                     normal_unbiased = true }
  -- NumPy's continuous methods: (alpha, beta) of h = (n + 1 - alpha - beta) q + alpha - 1 (0-based)
  local AB = { linear = { 1, 1 }, interpolated_inverted_cdf = { 0, 1 }, hazen = { 0.5, 0.5 }, weibull = { 0, 0 },
               median_unbiased = { 1 / 3, 1 / 3 }, normal_unbiased = { 3 / 8, 3 / 8 } }

  -- arithmetic on a number or an array (positions are numbers when every
  -- slice has the same count, arrays per slice otherwise)
  local function nrint(x)   -- half to even
    local f = math.floor(x)
    local d = x - f
    if d ~= 0.5 then return d > 0.5 and f + 1 or f end
    return f % 2 == 0 and f or f + 1
  end
  local N = {
    add = function(x, y) if type(x) == "number" and type(y) == "number" then return x + y end return G().add(x, y) end,
    sub = function(x, y)
      if type(x) == "number" and type(y) == "number" then return x - y end
      return G().subtract(x, y)
    end,
    mul = function(x, y)
      if type(x) == "number" and type(y) == "number" then return x * y end
      return G().multiply(x, y)
    end,
    floor = function(x) if type(x) == "number" then return math.floor(x) end return G().floor(x) end,
    ceil = function(x) if type(x) == "number" then return math.ceil(x) end return G().ceil(x) end,
    rint = function(x) if type(x) == "number" then return nrint(x) end return G().rint(x) end,
  }

  -- the q-th quantiles of sorted slices along the last axis, n valid values
  -- each (n: a number, or an int64 array of the slices' shape + {1})
  local function quantile_sorted(s, n, q, method)
    local g = G()
    local len = s.shape[s.ndim]
    local nn = type(n) == "number" and n or n:astype("float64")
    local function pos1(h)   -- a 0-based position clamped into 0 .. n-1, as a 1-based one
      if type(h) == "number" then return math.max(0, math.min(h, nn - 1)) + 1 end
      return g.add(g.clip(h, 0, g.subtract(nn, 1)), 1)
    end
    local function at(p1)   -- the values at 1-based positions (per slice)
      if type(p1) == "number" then
        local key = {}
        for d = 1, s.ndim - 1 do key[d] = {} end
        key[s.ndim] = { p1, p1 }
        return s[key]
      end
      local pi = g.clip(p1, 1, math.max(len, 1)):astype("int64")
      return F.take_along_axis(s, pi, s.ndim)
    end
    local ab = AB[method]
    local h
    if ab then h = N.add(N.mul(N.add(nn, 1 - ab[1] - ab[2]), q), ab[1] - 1)
    else h = N.mul(N.sub(nn, 1), q) end   -- lower higher nearest midpoint (the cdf methods use n q)
    if method == "lower" then return at(pos1(N.floor(h))) end
    if method == "higher" then return at(pos1(N.ceil(h))) end
    if method == "nearest" then return at(pos1(N.rint(h))) end
    if method == "midpoint" then
      local a, b = at(pos1(N.floor(h))), at(pos1(N.ceil(h)))
      return g.add(a, g.multiply(g.subtract(b, a), 0.5))
    end
    if method == "inverted_cdf" or method == "averaged_inverted_cdf" or method == "closest_observation" then
      local nq = N.mul(nn, q)
      if method == "inverted_cdf" then return at(pos1(N.sub(N.ceil(nq), 1))) end
      if method == "closest_observation" then return at(pos1(N.sub(N.rint(nq), 1))) end
      local lo, hi = at(pos1(N.sub(N.ceil(nq), 1))), at(pos1(N.floor(nq)))
      local mid = g.multiply(g.add(lo, hi), 0.5)
      if type(nq) == "number" then return math.floor(nq) == nq and mid or lo end
      return g.where(g.equal(g.floor(nq), nq), mid, lo)
    end
    local fl = N.floor(h)
    local frac = N.sub(h, fl)
    local a, b = at(pos1(fl)), at(pos1(N.add(fl, 1)))
    -- a + (b - a) frac, from the nearer end (exact at the ends, as NumPy's _lerp)
    local diff = g.subtract(b, a)
    local lo = g.add(a, g.multiply(diff, frac))
    local hi = g.subtract(b, g.multiply(diff, N.sub(1, frac)))
    if type(frac) == "number" then return frac >= 0.5 and hi or lo end
    return g.where(g.greater_equal(frac, 0.5), hi, lo)
  end

  local function quantile_impl(fname, a, q, axis, method, keepdims, nan_ok, scale)
    local g = G()
    a = arr(fname, a, "a")
    method = method or "linear"
    if not QMETHODS[method] then fail(fname, "unknown method '%s'", tostring(method)) end
    if is_complex(a.dtype) then fail(fname, "complex arrays are not ordered") end
    local qa = arr(fname, q, "q"):astype("float64")
    if qa.size > 0 then
      local lo, hi = g.min(qa):item(), g.max(qa):item()
      if lo ~= lo or hi ~= hi or lo < 0 or hi > scale then
        fail(fname, scale == 100 and "percentiles must be in the range [0, 100]"
                                  or "quantiles must be in the range [0, 1]")
      end
    end
    if scale ~= 1 then qa = g.divide(qa, scale) end
    -- move the axis (or axes) last, flatten them
    local x, keep_shape
    if axis == nil then
      x = g.ravel(a)
      keep_shape = {}
      for d = 1, a.ndim do keep_shape[d] = 1 end
    else
      local ax = axis_of(fname, a, axis, -1)
      x = g.moveaxis(a, ax, -1)
      keep_shape = a.shape
      keep_shape[ax] = 1
    end
    if x.shape[x.ndim] == 0 then fail(fname, "cannot take a quantile of an empty axis") end
    if not is_float(x.dtype) then x = x:astype("float64") end
    local s = g.sort(x, -1)
    local n
    if nan_ok then
      n = g.sum(g.logical_not(g.isnan(x)), -1, { keepdims = true })
    else
      n = x.shape[x.ndim]
    end
    local outs = {}
    local qlist = g.ravel(qa):tolist()
    if type(qlist) ~= "table" then qlist = { qlist } end
    for k, qk in ipairs(qlist) do
      local r = quantile_sorted(s, n, qk, method)
      if not nan_ok and is_float(x.dtype) then
        -- a slice with a NaN has a NaN quantile (NaN sorts last)
        local last = s[along(s.ndim, s.ndim, { -1, -1 })]
        r = g.where(g.isnan(last), 0 / 0, r)
      elseif nan_ok then
        r = g.where(g.equal(n, 0), 0 / 0, r)
      end
      if r.ndim > 0 then r = r:reshape((function()
        local sh = {}
        for d = 1, r.ndim - 1 do sh[d] = r.shape[d] end
        return sh
      end)()) end
      if keepdims then r = r:reshape(keep_shape) end
      if x.dtype ~= a.dtype and is_float(a.dtype) then r = r:astype(a.dtype) end
      outs[k] = r
    end
    if qa.ndim == 0 then return outs[1] end
    local st = g.stack(outs, 1)
    local qs = qa.shape
    if #qs == 1 then return st end
    local sh = {}
    for d = 1, #qs do sh[d] = qs[d] end
    for d = 2, st.ndim do sh[#sh + 1] = st.shape[d] end
    return st:reshape(sh)
  end

  --- The q-th quantiles (q in [0, 1]) along an axis, by NumPy's `method`
  -- ("linear" default, "lower", "higher", "nearest", "midpoint", and the
  -- nine of Hyndman and Fan: "inverted_cdf", "averaged_inverted_cdf",
  -- "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull",
  -- "median_unbiased", "normal_unbiased").  A slice holding NaN gives NaN.
  -- An array q puts its shape first.
  -- @function ga.quantile
  -- @tparam ndarray a
  -- @param q number or array in [0, 1]
  -- @tparam[opt] integer axis (nil: the flattened array)
  -- @tparam[opt="linear"] string method
  -- @tparam[opt=false] boolean keepdims
  -- @usage
  -- print(ga.quantile({1, 2, 3, 4}, 0.5), ga.quantile({1, 2, 3, 4}, 0.5, nil, "lower"))   --> array(2.5)	array(2.)
  function F.quantile(a, q, axis, method, keepdims)
    return quantile_impl("quantile", a, q, axis, method, keepdims, false, 1)
  end

  --- The q-th percentiles (q in [0, 100]); see ga.quantile.
  -- @function ga.percentile
  -- @usage
  -- print(ga.percentile({{10, 7, 4}, {3, 2, 1}}, 50, 2))   --> array([7., 2.])
  function F.percentile(a, q, axis, method, keepdims)
    return quantile_impl("percentile", a, q, axis, method, keepdims, false, 100)
  end

  --- ga.quantile ignoring NaNs (a slice of NaNs only gives NaN).
  -- @function ga.nanquantile
  -- @usage
  -- print(ga.nanquantile({1, 0/0, 3}, 0.5))   --> array(2.)
  function F.nanquantile(a, q, axis, method, keepdims)
    return quantile_impl("nanquantile", a, q, axis, method, keepdims, true, 1)
  end

  --- ga.percentile ignoring NaNs.
  -- @function ga.nanpercentile
  -- @usage
  -- print(ga.nanpercentile({1, 0/0, 3, 5}, 50))   --> array(3.)
  function F.nanpercentile(a, q, axis, method, keepdims)
    return quantile_impl("nanpercentile", a, q, axis, method, keepdims, true, 100)
  end

  --- The median ignoring NaNs.
  -- @function ga.nanmedian
  -- @tparam ndarray a
  -- @tparam[opt] integer axis
  -- @tparam[opt=false] boolean keepdims
  -- @usage
  -- print(ga.nanmedian({{1, 0/0}, {3, 4}}, 1))   --> array([2., 4.])
  function F.nanmedian(a, axis, keepdims)
    return quantile_impl("nanmedian", a, 0.5, axis, "linear", keepdims, true, 1)
  end

  -- ---- covariance and convolution ----

  --- The covariance matrix of variables in rows (columns with
  -- `rowvar = false`), normalised by N - 1 (`bias`: N; `ddof` overrides).
  -- @function ga.cov
  -- @tparam ndarray m 1-D or 2-D
  -- @param[opt] y more observations, joined to m
  -- @tparam[opt=true] boolean rowvar
  -- @tparam[opt=false] boolean bias
  -- @tparam[opt] integer ddof
  -- @usage
  -- print(ga.cov({{0, 1, 2}, {2, 1, 0}}))
  -- --> array([[ 1., -1.],
  -- -->        [-1.,  1.]])
  function F.cov(mm, y, rowvar, bias, ddof)
    local fname = "cov"
    local g = G()
    mm = arr(fname, mm, "m")
    if mm.ndim > 2 then fail(fname, "m has more than 2 dimensions") end
    local X = mm.ndim == 1 and mm:reshape({ 1, mm.size }) or mm
    if rowvar == false and mm.ndim == 2 then X = X.T end
    if y ~= nil then
      y = arr(fname, y, "y")
      if y.ndim > 2 then fail(fname, "y has more than 2 dimensions") end
      local Y = y.ndim == 1 and y:reshape({ 1, y.size }) or y
      if rowvar == false and y.ndim == 2 then Y = Y.T end
      X = g.concatenate({ X, Y }, 1)
    end
    if not (is_float(X.dtype) or is_complex(X.dtype)) or X.dtype == "float16" then X = X:astype("float64") end
    local n = X.shape[2]
    local dd = ddof ~= nil and ddof or (bias and 0 or 1)
    if math.type(dd) ~= "integer" then fail(fname, "ddof must be an integer") end
    local fact = n - dd
    local Xc = g.subtract(X, g.mean(X, 2, { keepdims = true }))
    local Xt = Xc.T
    if is_complex(Xc.dtype) then Xt = g.conjugate(Xt) end
    local c = g.divide(g.matmul(Xc, g.ascontiguousarray(Xt)), fact)
    if c.size == 1 and mm.ndim == 1 and y == nil then return c:reshape({}) end
    return c
  end

  --- Pearson correlation coefficients (cov normalised by the standard
  -- deviations), clipped to [-1, 1].
  -- @function ga.corrcoef
  -- @usage
  -- print(ga.corrcoef({1, 2, 3}, {3, 2, 1}))
  -- --> array([[ 1., -1.],
  -- -->        [-1.,  1.]])
  function F.corrcoef(x, y, rowvar)
    local g = G()
    local c = F.cov(x, y, rowvar)
    if c.ndim == 0 then return g.divide(c, c) end
    local d = g.sqrt(g.diagonal(c))
    local r = g.divide(g.divide(c, d:reshape({ d.size, 1 })), d:reshape({ 1, d.size }))
    return g.clip(r, -1, 1)
  end

  local function conv_mode(fname, mode)
    mode = mode or "full"
    if mode ~= "full" and mode ~= "same" and mode ~= "valid" then
      fail(fname, "mode must be 'full', 'same' or 'valid', got '%s'", tostring(mode))
    end
    return mode
  end

  -- the full correlation of 1-d a (length n) with v (length k): out[j] =
  -- sum_i a[j - k + 1 + i] v[i], by k shifted products (direct: short v)
  local function correlate_full(a, v)
    local g = G()
    local n, k = a.size, v.size
    local dt = g.result_type(a, v)
    local pad = m.zeros({ k - 1 }, dt)
    local ap = g.concatenate({ pad, a:astype(dt), pad })
    local out = m.zeros({ n + k - 1 }, dt)
    local vl = v:astype(dt):tolist()
    for i = 1, k do
      local c = vl[i]
      if type(c) == "table" then c = v[{ i }] end
      out = g.add(out, g.multiply(ap[{ { i, i + n + k - 2 } }], c))
    end
    return out
  end

  -- the same by FFT (float and complex inputs with a long v: k shifted
  -- products would be k launches): the convolution of a with v reversed,
  -- zero-padded to a length of factors 2, 3 and 5
  local function fast_len(L)
    local best = 1
    while best < L do best = best * 2 end
    local p5 = 1
    while p5 < best do
      local p35 = p5
      while p35 < best do
        local q = p35
        while q < L do q = q * 2 end
        if q < best then best = q end
        p35 = p35 * 3
      end
      p5 = p5 * 5
    end
    return best
  end
  local function correlate_full_fft(a, v)
    local g = G()
    local n, k = a.size, v.size
    local dt, L = g.result_type(a, v), n + k - 1
    local nfft, fft = fast_len(L), g.fft
    local vr = g.flip(v)
    local out
    if is_complex(dt) then
      out = fft.ifft(g.multiply(fft.fft(a, nfft), fft.fft(vr, nfft)))
    else
      out = fft.irfft(g.multiply(fft.rfft(a, nfft), fft.rfft(vr, nfft)), nfft)
    end
    return out[{ { 1, L } }]:astype(dt)
  end
  local FFT_MIN = 32   -- the shorter sequence's length from which the FFT pays

  -- mode's part of the full result; `late`: NumPy's correlate of a shorter
  -- a with a longer v centres "same" half an element later
  local function crop(full, n, k, mode, late)
    if mode == "full" then return full end
    if mode == "same" then
      local len, short = math.max(n, k), math.min(n, k)
      local start = (late and short // 2 or (short - 1) // 2) + 1
      return full[{ { start, start + len - 1 } }]
    end
    local len = math.max(n, k) - math.min(n, k) + 1
    local start = math.min(n, k)
    return full[{ { start, start + len - 1 } }]
  end

  --- Cross-correlation of two 1-d sequences (NumPy's `correlate`, mode
  -- "valid" by default): c[k] = sum_n a[n + k] conj(v[n]); by FFT for long
  -- float or complex sequences, as `ga.convolve`.
  -- @function ga.correlate
  -- @usage
  -- print(ga.correlate({1, 2, 3}, {0, 1, 0.5}))   --> array([3.5])
  function F.correlate(a, v, mode)
    local fname = "correlate"
    local g = G()
    a, v = arr(fname, a, "a"), arr(fname, v, "v")
    if a.ndim ~= 1 or v.ndim ~= 1 then fail(fname, "a and v must be 1-d") end
    if a.size == 0 or v.size == 0 then fail(fname, "a and v cannot be empty") end
    mode = conv_mode(fname, mode or "valid")
    if is_complex(v.dtype) then v = g.conjugate(v) end
    local swap = v.size > a.size
    local corr = correlate_full
    if math.min(a.size, v.size) >= FFT_MIN and not is_int(g.result_type(a, v)) and g.result_type(a, v) ~= "bool" then
      corr = correlate_full_fft
    end
    local full = swap and g.flip(corr(v, a)) or corr(a, v)
    if swap and is_complex(full.dtype) then full = g.conjugate(full) end
    return crop(full, a.size, v.size, mode, swap)
  end

  --- Discrete linear convolution of two 1-d sequences (NumPy's `convolve`,
  -- mode "full" by default): direct sums while the shorter sequence is
  -- short (under 32), else by FFT (`ga.fft`, float and complex inputs;
  -- integers stay exact and direct).
  -- @function ga.convolve
  -- @usage
  -- print(ga.convolve({1, 2, 3}, {0, 1, 0.5}))   --> array([0. , 1. , 2.5, 4. , 1.5])
  function F.convolve(a, v, mode)
    local fname = "convolve"
    local g = G()
    a, v = arr(fname, a, "a"), arr(fname, v, "v")
    if a.ndim ~= 1 or v.ndim ~= 1 then fail(fname, "a and v must be 1-d") end
    if a.size == 0 or v.size == 0 then fail(fname, "a and v cannot be empty") end
    mode = conv_mode(fname, mode)
    local dt = g.result_type(a, v)
    local fft = math.min(a.size, v.size) >= FFT_MIN and not is_int(dt) and dt ~= "bool"
    local full = (fft and correlate_full_fft or correlate_full)(a, g.flip(v))
    return crop(full, a.size, v.size, mode, false)
  end

  --- The polynomial with coefficients `p` (highest power first) at x
  -- (Horner's scheme).
  -- @function ga.polyval
  -- @usage
  -- print(ga.polyval({3, 0, 1}, {1, 2}))   --> array([ 4, 13])
  function F.polyval(p, x)
    local fname = "polyval"
    local g = G()
    p, x = arr(fname, p, "p"), arr(fname, x, "x")
    if p.ndim ~= 1 then fail(fname, "p must be 1-d") end
    local coef = p:tolist()
    local y = g.multiply(g.zeros_like(x, g.result_type(p, x)), 0)
    for i = 1, #coef do
      local c = coef[i]
      if type(c) == "table" then c = p[{ i }] end
      y = g.add(g.multiply(y, x), c)
    end
    return y
  end

  --- A real array when every imaginary part of a complex `a` is within
  -- `tol` machine epsilons of 0 (tol > 1; else an absolute tolerance), else a.
  -- @function ga.real_if_close
  -- @usage
  -- print(ga.real_if_close(ga.array({1, 2}, "complex128")).dtype)   --> float64
  function F.real_if_close(a, tol)
    local fname = "real_if_close"
    local g = G()
    a = arr(fname, a, "a")
    if not is_complex(a.dtype) then return a end
    tol = num_opt(fname, tol, "tol", 100)
    if tol > 1 then tol = tol * finfo(a.dtype).eps end
    if g.all(g.less(g.abs(g.imag(a)), tol)):item() then return g.real(a):copy() end
    return a
  end

  -- ---- selection ----

  --- Elements of `choicelist` where the matching condition of `condlist`
  -- holds (the first that holds), `default` elsewhere.
  -- @function ga.select
  -- @tparam table condlist bool arrays
  -- @tparam table choicelist arrays or numbers, as many
  -- @param[opt=0] default
  -- @usage
  -- local x = ga.arange(6)
  -- print(ga.select({x:lt(3), x:gt(4)}, {x, x * 10}, -1))   --> array([ 0,  1,  2, -1, -1, 50])
  function F.select(condlist, choicelist, default)
    local fname = "select"
    local g = G()
    if type(condlist) ~= "table" or is_array(condlist) or type(choicelist) ~= "table" or is_array(choicelist) then
      fail(fname, "condlist and choicelist must be tables")
    end
    if #condlist ~= #choicelist then fail(fname, "list of cases must be same length as list of conditions") end
    if #condlist == 0 then fail(fname, "select with an empty condition list is not possible") end
    local r = default == nil and 0 or default
    for i = #condlist, 1, -1 do
      local c = arr(fname, condlist[i], "condlist[" .. i .. "]")
      if c.dtype ~= "bool" then fail(fname, "invalid entry %d in condlist: should be boolean ndarray", i) end
      local ch = choicelist[i]
      if type(ch) == "table" and not is_array(ch) then ch = arr(fname, ch, "choicelist[" .. i .. "]") end
      r = g.where(c, ch, r)
    end
    if not is_array(r) then r = arr(fname, r) end
    return r
  end

  --- An array built from `choices` by the 1-based index array `a`
  -- (NumPy's `choose`, + 1): out[i] = choices[a[i]][i]; `mode` "raise",
  -- "wrap" or "clip".
  -- @function ga.choose
  -- @usage
  -- print(ga.choose(ga.array({2, 1, 3}), {{1, 2, 3}, {10, 20, 30}, {100, 200, 300}}))   --> array([ 10,   2, 300])
  function F.choose(a, choices, mode)
    local fname = "choose"
    local g = G()
    a = arr(fname, a, "a")
    if not is_int(a.dtype) then fail(fname, "a must hold integers") end
    if type(choices) ~= "table" or is_array(choices) or #choices == 0 then
      fail(fname, "choices must be a non-empty table of arrays")
    end
    mode = mode or "raise"
    local k = #choices
    local idx = a
    if mode == "raise" then
      if a.size > 0 and (g.min(a):item() < 1 or g.max(a):item() > k) then
        fail(fname, "invalid entry in choice array (positions are 1 .. %d)", k)
      end
    elseif mode == "wrap" then idx = g.add(g.remainder(g.subtract(a, 1), k), 1)
    elseif mode == "clip" then idx = g.clip(a, 1, k)
    else fail(fname, "mode must be raise, wrap or clip") end
    local r
    for i = k, 1, -1 do
      local c = choices[i]
      if type(c) == "table" and not is_array(c) then c = arr(fname, c, "choices[" .. i .. "]") end
      if r == nil then
        r = g.where(g.equal(idx, i), c, g.zeros_like(idx, g.result_type(arr(fname, c))))
      else
        r = g.where(g.equal(idx, i), c, r)
      end
    end
    return r
  end

  --- The elements of `arr` where `condition` is true, flattened (NumPy's
  -- `extract`).
  -- @function ga.extract
  -- @usage
  -- print(ga.extract(ga.equal(ga.arange(6) % 2, 0), ga.arange(6)))   --> array([0, 2, 4])
  function F.extract(condition, a)
    local g = G()
    return g.compress(g.ravel(arr("extract", condition, "condition")), g.ravel(arr("extract", a, "arr")))
  end

  --- Set `arr` (in place) where `mask` holds to `values`, taken in order
  -- and repeated as needed (NumPy's `place`).
  -- @function ga.place
  -- @usage
  -- local a = ga.arange(6); ga.place(a, a:gt(2), {44, 55})
  -- print(a)   --> array([ 0,  1,  2, 44, 55, 44])
  function F.place(a, mask, values)
    local fname = "place"
    local g = G()
    C.arg(fname, a, "arr")
    mask = arr(fname, mask, "mask")
    local pos = g.flatnonzero(mask)
    if pos.size == 0 then return end
    local v = g.ravel(arr(fname, values, "values"))
    if v.size == 0 then fail(fname, "cannot insert from an empty array") end
    local vals = g.take(v, g.add(g.remainder(m.arange(pos.size), v.size), 1))
    local work = a.flags.c_contiguous and a or g.ascontiguousarray(a)
    work:reshape({ work.size })[pos] = vals:astype(work.dtype)
    if not rawequal(work, a) then a:set(work) end
  end

  --- Set `a` (in place) where `mask` holds to `values`, the value at the
  -- same flat position (repeated as needed; NumPy's `putmask`).
  -- @function ga.putmask
  -- @usage
  -- local a = ga.arange(6); ga.putmask(a, a:gt(2), ga.arange(6) * 10)
  -- print(a)   --> array([ 0,  1,  2, 30, 40, 50])
  function F.putmask(a, mask, values)
    local fname = "putmask"
    local g = G()
    C.arg(fname, a, "a")
    mask = arr(fname, mask, "mask")
    if mask.size ~= a.size then fail(fname, "mask and data must be the same size") end
    local v = g.ravel(arr(fname, values, "values"))
    if v.size == 0 then return end
    local pos = g.flatnonzero(mask)
    if pos.size == 0 then return end
    local vals = g.take(v, g.add(g.remainder(g.subtract(pos, 1), v.size), 1))
    local work = a.flags.c_contiguous and a or g.ascontiguousarray(a)
    work:reshape({ work.size })[pos] = vals:astype(work.dtype)
    if not rawequal(work, a) then a:set(work) end
  end

  -- ---- editing ----

  --- A copy of `arr` without the 1-based positions `obj` along `axis`
  -- (nil: of the flattened array; negative positions count from the end).
  -- @function ga.delete
  -- @usage
  -- print(ga.delete({1, 2, 3, 4}, {1, -1}))   --> array([2, 3])
  function F.delete(a, obj, axis)
    local fname = "delete"
    local g = G()
    a = arr(fname, a, "arr")
    if axis == nil then a = g.ravel(a) end
    local ax = axis == nil and 1 or axis_of(fname, a, axis, 1)
    local n = a.shape[ax]
    local o = arr(fname, obj, "obj")
    if not (is_int(o.dtype) or o.dtype == "bool") then fail(fname, "obj must hold integer positions") end
    local keep
    if o.dtype == "bool" then
      if o.size ~= n then fail(fname, "boolean obj must have the length of the axis (%d)", n) end
      keep = g.logical_not(g.ravel(o))
    else
      o = g.ravel(o)
      if o.size > 0 then
        local lo, hi = g.min(o):item(), g.max(o):item()
        if lo < -n or lo == 0 or hi > n then
          fail(fname, "index out of bounds for axis %d with size %d (positions are 1-based)", ax, n)
        end
      end
      o = g.where(g.less(o, 0), g.add(o, n + 1), o)
      keep = g.logical_not(F.isin(m.arange(1, n + 1), o))
    end
    return g.compress(keep, a, ax)
  end

  --- A copy of `arr` with `values` inserted before the 1-based position
  -- `obj` (an integer; n + 1 appends) along `axis` (nil: flattened).
  -- @function ga.insert
  -- @usage
  -- print(ga.insert({1, 2, 3}, 2, {9, 9}))   --> array([1, 9, 9, 2, 3])
  function F.insert(a, obj, values, axis)
    local fname = "insert"
    local g = G()
    a = arr(fname, a, "arr")
    if axis == nil then a = g.ravel(a) end
    local ax = axis == nil and 1 or axis_of(fname, a, axis, 1)
    local n = a.shape[ax]
    local p = math.tointeger(obj)
    if not p then fail(fname, "obj must be an integer position") end
    if p < 0 then p = n + 1 + p end   -- -1: before the last element
    if p < 1 or p > n + 1 then
      fail(fname, "index %s is out of bounds for axis %d with size %d", tostring(obj), ax, n)
    end
    -- NumPy's rule for a scalar obj: values get arr's number of dimensions
    -- (ones in front), their first axis moves to `axis`, and they broadcast
    -- over the other axes
    local v = arr(fname, values, "values"):astype(a.dtype)
    if v.ndim > a.ndim then fail(fname, "values have more dimensions than arr") end
    if v.ndim < a.ndim then
      local vs = {}
      for d = 1, a.ndim - v.ndim do vs[d] = 1 end
      for d = 1, v.ndim do vs[#vs + 1] = v.shape[d] end
      v = v:reshape(vs)
    end
    if a.ndim > 1 then v = g.moveaxis(v, 1, ax) end
    local s = a.shape
    s[ax] = v.shape[ax]
    v = g.broadcast_to(v, s)
    local parts = {}
    if p > 1 then parts[#parts + 1] = a[along(a.ndim, ax, { 1, p - 1 })] end
    parts[#parts + 1] = v
    if p <= n then parts[#parts + 1] = a[along(a.ndim, ax, { p, n })] end
    return g.concatenate(parts, ax)
  end

  --- A new array of `new_shape` filled with the elements of `a` repeated
  -- in C order (NumPy's `resize`).
  -- @function ga.resize
  -- @usage
  -- print(ga.resize({1, 2, 3}, {2, 4}))
  -- --> array([[1, 2, 3, 1],
  -- -->        [2, 3, 1, 2]])
  function F.resize(a, new_shape)
    local fname = "resize"
    local g = G()
    a = g.ravel(arr(fname, a, "a"))
    new_shape = shape_arg(fname, new_shape)
    local total = 1
    for i = 1, #new_shape do total = total * new_shape[i] end
    if total == 0 or a.size == 0 then return m.zeros(new_shape, a.dtype) end
    local idx = g.add(g.remainder(m.arange(total), a.size), 1)
    return g.take(a, idx):reshape(new_shape)
  end

  --- `filt` without its leading ("f"), trailing ("b") or both ("fb",
  -- default) zeros.
  -- @function ga.trim_zeros
  -- @usage
  -- print(ga.trim_zeros({0, 0, 1, 2, 0}))   --> array([1, 2])
  function F.trim_zeros(filt, trim)
    local fname = "trim_zeros"
    local g = G()
    filt = arr(fname, filt, "filt")
    if filt.ndim ~= 1 then fail(fname, "filt must be 1-d") end
    trim = (trim or "fb"):lower()
    local nz = g.flatnonzero(filt)
    if nz.size == 0 then return filt[{ { 2, 1 } }] end   -- empty (stop before start)
    local first = trim:find("f") and nz[{ 1 }]:item() or 1
    local last = trim:find("b") and nz[{ -1 }]:item() or filt.size
    return filt[{ { first, last } }]
  end

  --- The gradient of `f` by central differences inside and one-sided
  -- differences at the ends (`edge_order` 1 or 2), along every axis (a
  -- table of arrays) or `axis`; spacing `dx` (numbers, one per axis).
  -- @function ga.gradient
  -- @tparam ndarray f
  -- @param[opt=1] dx a number (every axis) or a table of numbers
  -- @tparam[opt] integer axis one axis only: the result is an array
  -- @tparam[opt=1] integer edge_order
  -- @usage
  -- print(ga.gradient({1, 2, 4, 7, 11, 16}))   --> array([1. , 1.5, 2.5, 3.5, 4.5, 5. ])
  function F.gradient(f, dx, axis, edge_order)
    local fname = "gradient"
    local g = G()
    f = arr(fname, f, "f")
    if not is_float(f.dtype) then f = f:astype("float64") end
    edge_order = math.tointeger(edge_order or 1)
    if edge_order ~= 1 and edge_order ~= 2 then fail(fname, "edge_order must be 1 or 2") end
    local axes = {}
    if axis ~= nil then axes[1] = axis_of(fname, f, axis, 1) else for d = 1, f.ndim do axes[d] = d end end
    local outs = {}
    for k, ax in ipairs(axes) do
      local h = 1.0
      if type(dx) == "number" then h = dx elseif type(dx) == "table" then h = dx[k] or 1.0 end
      local n = f.shape[ax]
      if n < edge_order + 1 then
        fail(fname, "shape of the array too small to calculate a numerical gradient, " ..
                    "at least (edge_order + 1) elements are required")
      end
      local function sl(a, b) return f[along(f.ndim, ax, { a, b })] end
      local first, last
      if edge_order == 1 then
        first = g.divide(g.subtract(sl(2, 2), sl(1, 1)), h)
        last = g.divide(g.subtract(sl(n, n), sl(n - 1, n - 1)), h)
      else
        first = g.divide(g.add(g.add(g.multiply(sl(1, 1), -1.5), g.multiply(sl(2, 2), 2)),
                               g.multiply(sl(3, 3), -0.5)), h)
        last = g.divide(g.add(g.add(g.multiply(sl(n - 2, n - 2), 0.5), g.multiply(sl(n - 1, n - 1), -2)),
                              g.multiply(sl(n, n), 1.5)), h)
      end
      if n > 2 then
        local inner = g.divide(g.subtract(sl(3, n), sl(1, n - 2)), 2 * h)
        outs[k] = g.concatenate({ first, inner, last }, ax)
      else
        outs[k] = g.concatenate({ first, last }, ax)
      end
    end
    if axis ~= nil or f.ndim == 1 then return outs[1] end
    return outs
  end

  -- ---- padding ----

  local PAD_MODES = { constant = true, edge = true, reflect = true, symmetric = true, wrap = true,
                      linear_ramp = true, maximum = true, minimum = true, mean = true, median = true, empty = true }

  -- pad_width / constant_values / end_values in NumPy's forms -> per axis {before, after}
  local function per_axis(fname, what, v, nd, integer)
    local function num(x)
      if integer then
        local i = math.tointeger(x)
        if not i or i < 0 then fail(fname, "%s must hold non-negative integers, got %s", what, tostring(x)) end
        return i
      end
      if type(x) ~= "number" then fail(fname, "%s must hold numbers, got %s", what, typename(x)) end
      return x
    end
    local out = {}
    if type(v) == "number" then
      for d = 1, nd do out[d] = { num(v), num(v) } end
    elseif type(v) == "table" and not is_array(v) then
      if #v == 2 and type(v[1]) == "number" and type(v[2]) == "number" then        -- (before, after)
        for d = 1, nd do out[d] = { num(v[1]), num(v[2]) } end
      elseif #v == 1 and type(v[1]) == "table" then                                 -- ((before, after),)
        for d = 1, nd do out[d] = { num(v[1][1]), num(v[1][2] or v[1][1]) } end
      elseif #v == nd then
        for d = 1, nd do
          local e = v[d]
          if type(e) == "number" then out[d] = { num(e), num(e) }
          elseif type(e) == "table" and #e >= 1 then out[d] = { num(e[1]), num(e[2] or e[1]) }
          else fail(fname, "%s entry %d is not a number or a pair", what, d) end
        end
      else
        fail(fname, "%s must be a number, a pair or one pair per axis (%d)", what, nd)
      end
    else
      fail(fname, "%s must be a number or a table, got %s", what, typename(v))
    end
    return out
  end

  --- `array` padded along each axis (NumPy's `pad`): `pad_width` is n, {b,
  -- a} or one {b, a} per axis; `mode` "constant" (default; `constant_values`),
  -- "edge", "reflect" and "symmetric" (`reflect_type` "even" or "odd"),
  -- "wrap", "linear_ramp" (`end_values`), "maximum", "minimum", "mean",
  -- "median" (`stat_length`), "empty".
  -- @function ga.pad
  -- @tparam ndarray array
  -- @param pad_width
  -- @tparam[opt="constant"] string mode
  -- @tparam[opt] table opts `{constant_values=, end_values=, reflect_type=, stat_length=}`
  -- @usage
  -- print(ga.pad({1, 2, 3}, {2, 1}, "constant", {constant_values = 9}))   --> array([9, 9, 1, 2, 3, 9])
  -- print(ga.pad({1, 2, 3}, 2, "reflect"))                            --> array([3, 2, 1, 2, 3, 2, 1])
  function F.pad(a, pad_width, mode, opts)
    local fname = "pad"
    local g = G()
    a = arr(fname, a, "array")
    mode = mode or "constant"
    if not PAD_MODES[mode] then fail(fname, "mode '%s' is not supported", tostring(mode)) end
    opts = opts and C.options(fname, opts, { constant_values = true, end_values = true, reflect_type = true,
                                             stat_length = true }) or {}
    local nd = a.ndim
    if nd == 0 then fail(fname, "array must be at least 1-d") end
    local widths = per_axis(fname, "pad_width", pad_width, nd, true)
    local odd = opts.reflect_type == "odd"
    if opts.reflect_type ~= nil and opts.reflect_type ~= "even" and opts.reflect_type ~= "odd" then
      fail(fname, "reflect_type must be 'even' or 'odd'")
    end
    local cvals = mode == "constant" and per_axis(fname, "constant_values", opts.constant_values or 0, nd) or nil
    local evals = mode == "linear_ramp" and per_axis(fname, "end_values", opts.end_values or 0, nd) or nil
    local slen = opts.stat_length ~= nil and per_axis(fname, "stat_length", opts.stat_length, nd, true) or nil
    local x = a
    for ax = 1, nd do
      local before, after = widths[ax][1], widths[ax][2]
      if before > 0 or after > 0 then
        local n = x.shape[ax]
        local function sl(i, j) return x[along(nd, ax, { i, j })] end
        local function block(width, side)
          local s = x.shape
          s[ax] = width
          if mode == "constant" then return m.full(s, cvals[ax][side], x.dtype) end
          if mode == "empty" then return m.empty(s, x.dtype) end
          if n == 0 then fail(fname, "can't extend an empty axis %d using mode '%s'", ax, mode) end
          if mode == "edge" then
            return g.broadcast_to(side == 1 and sl(1, 1) or sl(n, n), s)
          end
          if mode == "linear_ramp" then
            local edge = side == 1 and sl(1, 1) or sl(n, n)
            local endv = evals[ax][side]
            -- from end_value (outside) to the edge (inside), linspace without the edge
            local t = m.arange(width, 0, -1):astype("float64")
            if side == 2 then t = m.arange(1, width + 1):astype("float64") end
            local shp = {}
            for d = 1, nd do shp[d] = d == ax and width or 1 end
            t = g.divide(t, width):reshape(shp)
            local e64 = edge:astype("float64")
            local r = g.add(e64, g.multiply(g.subtract(endv, e64), t))
            if not is_float(x.dtype) then r = g.floor(r) end   -- NumPy 2's integer linspace rounds down
            return r:astype(x.dtype)
          end
          if mode == "maximum" or mode == "minimum" or mode == "mean" or mode == "median" then
            local L = n
            if slen then L = math.max(1, math.min(n, slen[ax][side])) end
            local part = side == 1 and sl(1, L) or sl(n - L + 1, n)
            local st
            if mode == "maximum" then st = g.max(part, ax, { keepdims = true })
            elseif mode == "minimum" then st = g.min(part, ax, { keepdims = true })
            elseif mode == "mean" then
              st = g.mean(part, ax, { keepdims = true })
              if not is_float(x.dtype) then st = g.rint(st) end
            else
              st = F.quantile(part, 0.5, ax, "linear", true)
              if not is_float(x.dtype) then st = g.rint(st) end
            end
            return g.broadcast_to(st:astype(x.dtype), s)
          end
          -- wrap: index the axis periodically
          local idx = {}
          for k = 1, width do
            local o = side == 1 and -(width - k + 1) or (n - 1 + k)
            idx[k] = o % n + 1
          end
          return g.take(x, m.array(idx, "int64"), ax)
        end
        if mode == "reflect" or mode == "symmetric" then
          -- NumPy's way: chunks of at most the original length, each the
          -- mirror of the values next to the current edge (odd: 2 edge - v)
          local len = x.shape[ax]
          if len == 0 then fail(fname, "can't extend an empty axis %d using mode '%s'", ax, mode) end
          local refl = mode == "reflect"
          local per = refl and len - 1 or len
          local cur = x
          local lb, ra = before, after
          local function edge_of(first)
            local k = cur.shape[ax]
            return first and cur[along(nd, ax, { 1, 1 })] or cur[along(nd, ax, { k, k })]
          end
          while lb > 0 or ra > 0 do
            if per == 0 then   -- one element: reflect repeats it
              cur = F.pad(cur, (function()
                local w = {}
                for d = 1, nd do w[d] = d == ax and { lb, ra } or { 0, 0 } end
                return w
              end)(), "edge")
              break
            end
            if lb > 0 then
              local c = math.min(lb, per)
              local idx = {}
              for t = 1, c do idx[t] = refl and c + 2 - t or c + 1 - t end
              local bl = g.take(cur, m.array(idx, "int64"), ax)
              if odd then bl = g.subtract(g.multiply(edge_of(true), 2), bl):astype(x.dtype) end
              cur = g.concatenate({ bl, cur }, ax)
              lb = lb - c
            end
            if ra > 0 then
              local c = math.min(ra, per)
              local k = cur.shape[ax]
              local idx = {}
              for t = 1, c do idx[t] = refl and k - t or k + 1 - t end
              local bl = g.take(cur, m.array(idx, "int64"), ax)
              if odd then bl = g.subtract(g.multiply(edge_of(false), 2), bl):astype(x.dtype) end
              cur = g.concatenate({ cur, bl }, ax)
              ra = ra - c
            end
          end
          x = cur
          goto next_axis
        end
        local parts = {}
        if before > 0 then parts[#parts + 1] = block(before, 1) end
        parts[#parts + 1] = x
        if after > 0 then parts[#parts + 1] = block(after, 2) end
        x = g.concatenate(parts, ax)
      end
      ::next_axis::
    end
    return rawequal(x, a) and a:copy() or x
  end

  F.finfo, F.iinfo, F.broadcast_shapes = finfo, iinfo, broadcast_shapes
  return F
end

return { ga = build(core, false), host = build(core.host, true) }
