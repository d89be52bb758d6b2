--- Random numbers: `ga.random` (arrays on the current device) and
-- `ga.host.random` (host arrays), with CuPy's names.
--
-- **One stream, any device.**  Every draw comes from Philox4x32-10, a
-- counter-based generator: word k of a stream is a pure function of the key
-- and k (kernels/ga_philox.cuh, the same text compiled by NVRTC and by the C
-- compiler).  So for one seed the GPU and the host give the **same bits**
-- for uniform, integer, bit, normal and exponential draws (their log and
-- sin/cos are our own: polynomials, a table for float32 sin/cos, one IEEE
-- operation at a time in one order, within 1-2 ulp of the true values); nor does a result depend on the GPU
-- model, the launch or how a draw is split: `rand(n)` then `rand(m)` gives
-- the values of `rand(n + m)`.
--
-- **Seeds.**  A seed is a Lua integer (any 64 bits: negative numbers are
-- two's complement, so every value up to 2^64 has one), a table of
-- integers, or nil (8 bytes from /dev/urandom).  The 64-bit key is
-- splitmix64 of the integer (of a table: acc = splitmix64(acc ~ v) over its
-- elements from acc = 0); words are counted from 0.
--
-- **Values.**  float32 uniforms take 24 bits of one word (`(w >> 8) * 2^-24`),
-- float64 53 bits of two (NumPy's formula); normals come in Box-Muller
-- pairs (one word per float32 value, two per float64); integers in a range
-- are unbiased (Lemire's multiply-and-reject; a redraw comes from a stream
-- of the value's own, so no other value moves); each value takes one word
-- when the range fits 32 bits, else two.  Draws of float32 are made in
-- float32.  Lua conventions: `randint(1, 7, n)` is NumPy's half-open [1, 7);
-- `choice(n)` and `permutation(n)` draw the values 0 .. n-1 (as `arange`).
-- @module gpuarray.random
local core = require "gpuarray.core"
local is_array = require("gpuarray.util").is_array

-- the draws of kernels/ga_philox.cuh (GA_RNG_*)
local UNIFORM, NORMAL, INT, BITS, EXPONENTIAL, GAMMA, POISSON = 0, 1, 2, 3, 4, 5, 6
local BINOMIAL, HYPERGEOMETRIC, LOGSERIES, ZIPF, VONMISES = 7, 8, 9, 10, 11
local MASK32 = 0xffffffff

local function splitmix64(x)
  local z = x + 0x9e3779b97f4a7c15
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return z ~ (z >> 31)
end

local function urandom64()
  local f = io.open("/dev/urandom", "rb")
  local s = f and f:read(8)
  if f then f:close() end
  if s and #s == 8 then return (string.unpack("<i8", s)) end
  return splitmix64(math.floor(os.time()) ~ (os.clock() * 1e9 // 1))
end

-- seed -> 64-bit key (see the module's comment)
local function key_of(fname, s)
  if s == nil then return urandom64() end
  local t = type(s)
  if t == "number" then
    local i = math.tointeger(s)
    if not i then error(fname .. ": a seed must be an integer, got " .. tostring(s), 3) end
    return splitmix64(i)
  end
  if t == "table" or is_array(s) then
    local list = t == "table" and s or s:tolist()
    if type(list) ~= "table" then list = { list } end
    local acc = 0
    for i = 1, #list do
      local v = math.tointeger(list[i])
      if not v then error(fname .. ": seed element " .. i .. " is not an integer", 3) end
      acc = splitmix64(acc ~ v)
    end
    return acc
  end
  error(fname .. ": a seed must be an integer, a table of integers or nil, got " .. t, 3)
end

-- ---- argument checks ----

local MAXSIZE = 1 << 62

local function shape_of(fname, size)
  if size == nil then return {} end
  local shape = type(size) == "table" and size or { size }
  local n = 1
  for i = 1, #shape do
    local d = math.tointeger(shape[i])
    if not d or d < 0 then
      error(fname .. ": size must be a non-negative integer or a table of them, got " .. tostring(shape[i]), 3)
    end
    if d > 0 and n > MAXSIZE // d then error(fname .. ": size is too large", 3) end
    n = n * d
  end
  return shape
end

local FLOATS = { float32 = true, float64 = true }
local function float_dtype(fname, dtype)
  if dtype == nil then return "float64" end
  if not FLOATS[dtype] then
    error(fname .. ": dtype must be float32 or float64, got " .. tostring(dtype), 3)
  end
  return dtype
end

local INT_RANGE = {
  int8 = { -128, 127 }, uint8 = { 0, 255 }, int16 = { -32768, 32767 }, uint16 = { 0, 65535 },
  int32 = { -2147483648, 2147483647 }, uint32 = { 0, 4294967295 },
  int64 = { math.mininteger, math.maxinteger }, uint64 = { 0, math.maxinteger },
}

-- the message for a bad scalar parameter, or nil
local function number_problem(fname, what, v, rule)
  if type(v) ~= "number" then return fname .. ": " .. what .. " must be a number or an array, got " .. type(v) end
  if v ~= v then return fname .. ": " .. what .. " is NaN" end
  if rule == "pos" and v <= 0 then return fname .. ": " .. what .. " must be > 0" end
  if rule == "nonneg" and v < 0 then return fname .. ": " .. what .. " < 0" end
end

-- ---- the module, once for ga (M = the creation functions of core) and
-- once for ga.host (core.host) ----
local function build(mk, is_host)
  local R = {}
  local ga_ = require("gpuarray.util").lazy_module(is_host)   -- the ga or ga.host table (ufuncs)

  local State = {}
  State.__index = State
  State.__name = "RandomState"
  local function new_state(key)
    return setmetatable({ k0 = key & MASK32, k1 = (key >> 32) & MASK32, s = 0, off = 0 }, State)
  end

  -- the one draw: a fresh array of `shape`, values from the state's words
  local function draw(st, shape, dtype, dist, p0, p1, ilow, irange)
    local out = mk.empty(shape, dtype)
    st.off = st.off + core._random_fill(out, dist, st.k0, st.k1, st.s, st.off, p0, p1, ilow, irange)
    return out
  end

  -- a parameter that is an array (or a table) broadcasts: draw the standard
  -- values with the broadcast shape, then scale with the ufuncs
  local function params_shape(size, ...)
    if size ~= nil then return size end
    local arrays = {}
    for i = 1, select("#", ...) do
      local v = select(i, ...)
      if is_array(v) then arrays[#arrays + 1] = v end
    end
    if #arrays == 0 then return nil end
    if #arrays == 1 then return arrays[1].shape end
    return (ga_().broadcast_arrays(table.unpack(arrays))).shape
  end

  local function as_param(fname, what, v, rule)
    if type(v) == "table" then v = ga_().array(v) end
    if is_array(v) then
      local g = ga_()
      if g.any(g.isnan(v)):item() then error(fname .. ": " .. what .. " contains NaN", 3) end
      if rule == "pos" and g.any(g.less_equal(v, 0)):item() then error(fname .. ": " .. what .. " must be > 0", 3) end
      if rule == "nonneg" and g.any(g.less(v, 0)):item() then error(fname .. ": " .. what .. " < 0", 3) end
      return v
    end
    local msg = number_problem(fname, what, v, rule)
    if msg then error(msg, 3) end
    return v
  end

  --- Uniform values in [low, high).
  -- @function RandomState:uniform
  -- @tparam[opt=0] number|ndarray low
  -- @tparam[opt=1] number|ndarray high
  -- @param[opt] size an integer or a shape table (default: the parameters' broadcast shape, else 0-d)
  -- @tparam[opt="float64"] string dtype float32 or float64
  -- @treturn ndarray
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:uniform(-1, 1, 3).shape[1])   --> 3
  function State:uniform(low, high, size, dtype)
    local fname = "uniform"
    low, high = low or 0.0, high or 1.0
    dtype = float_dtype(fname, dtype)
    low, high = as_param(fname, "low", low), as_param(fname, "high", high)
    local shape = shape_of(fname, params_shape(size, low, high))
    if type(low) == "number" and type(high) == "number" then
      if high - low == math.huge or high - low ~= high - low then error(fname .. ": high - low is not finite", 2) end
      return draw(self, shape, dtype, UNIFORM, low, high - low)
    end
    local g = ga_()
    local u = draw(self, shape, dtype, UNIFORM, 0, 1)
    return g.add(g.multiply(u, g.subtract(high, low)), low)
  end

  --- Uniform values in [0, 1) of shape `d1, d2, ...` (float64).
  -- @function RandomState:rand
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:rand(2, 3).shape[2])   --> 3
  function State:rand(...)
    local shape = { ... }
    shape_of("rand", shape)
    return draw(self, shape, "float64", UNIFORM, 0, 1)
  end

  --- Standard normal values of shape `d1, d2, ...` (float64).
  -- @function RandomState:randn
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:randn(4).size)   --> 4
  function State:randn(...)
    local shape = { ... }
    shape_of("randn", shape)
    return draw(self, shape, "float64", NORMAL, 0, 1)
  end

  --- Uniform values in [0, 1) (`random_sample`, `ranf` and `sample` are
  -- the same function).
  -- @function RandomState:random_sample
  -- @param[opt] size an integer or a shape table
  -- @tparam[opt="float64"] string dtype float32 or float64
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:random_sample({2, 2}, "float32").dtype)   --> float32
  function State:random_sample(size, dtype)
    return draw(self, shape_of("random_sample", size), float_dtype("random_sample", dtype), UNIFORM, 0, 1)
  end
  State.random, State.ranf, State.sample = State.random_sample, State.random_sample, State.random_sample
  --- The same as RandomState:random_sample.
  -- @function RandomState:random
  -- @usage
  -- print(ga.random.RandomState(1):random(2).size)   --> 2

  --- The same as RandomState:random_sample.
  -- @function RandomState:ranf
  -- @usage
  -- print(ga.random.RandomState(1):ranf(2).size)   --> 2

  --- The same as RandomState:random_sample.
  -- @function RandomState:sample
  -- @usage
  -- print(ga.random.RandomState(1):sample(2).size)   --> 2

  --- Normal values (mean `loc`, standard deviation `scale`).
  -- @function RandomState:normal
  -- @tparam[opt=0] number|ndarray loc
  -- @tparam[opt=1] number|ndarray scale must be >= 0
  -- @param[opt] size an integer or a shape table
  -- @tparam[opt="float64"] string dtype float32 or float64
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:normal(10, 2, 5).size)   --> 5
  function State:normal(loc, scale, size, dtype)
    local fname = "normal"
    loc, scale = loc or 0.0, scale or 1.0
    dtype = float_dtype(fname, dtype)
    loc, scale = as_param(fname, "loc", loc), as_param(fname, "scale", scale, "nonneg")
    local shape = shape_of(fname, params_shape(size, loc, scale))
    if type(loc) == "number" and type(scale) == "number" then
      return draw(self, shape, dtype, NORMAL, loc, scale)
    end
    local g = ga_()
    return g.add(g.multiply(draw(self, shape, dtype, NORMAL, 0, 1), scale), loc)
  end

  --- Standard normal values.
  -- @function RandomState:standard_normal
  -- @param[opt] size an integer or a shape table
  -- @tparam[opt="float64"] string dtype float32 or float64
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:standard_normal(3, "float32").dtype)   --> float32
  function State:standard_normal(size, dtype)
    return draw(self, shape_of("standard_normal", size), float_dtype("standard_normal", dtype), NORMAL, 0, 1)
  end

  --- exp of normal values (`mean`, `sigma` of the underlying normal).
  -- @function RandomState:lognormal
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:lognormal(0, 1, 3):min():item() > 0)   --> true
  function State:lognormal(mean, sigma, size, dtype)
    return ga_().exp(self:normal(mean, sigma, size, dtype))
  end

  --- Exponential values with mean `scale`.
  -- @function RandomState:exponential
  -- @tparam[opt=1] number|ndarray scale must be >= 0
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:exponential(2, 3):min():item() >= 0)   --> true
  function State:exponential(scale, size, dtype)
    local fname = "exponential"
    scale = as_param(fname, "scale", scale or 1.0, "nonneg")
    dtype = float_dtype(fname, dtype)
    local shape = shape_of(fname, params_shape(size, scale))
    if type(scale) == "number" then return draw(self, shape, dtype, EXPONENTIAL, 0, scale) end
    return ga_().multiply(draw(self, shape, dtype, EXPONENTIAL, 0, 1), scale)
  end

  --- Exponential values with mean 1.
  -- @function RandomState:standard_exponential
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:standard_exponential(3).size)   --> 3
  function State:standard_exponential(size, dtype)
    return self:exponential(1.0, size, dtype)
  end

  -- uniform in [0, 1) for the transforms below (float64 unless asked)
  local function u01(st, fname, shape, dtype)
    return draw(st, shape, float_dtype(fname, dtype), UNIFORM, 0, 1)
  end

  --- Gumbel values: `loc - scale * log(-log(1 - u))`.
  -- @function RandomState:gumbel
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:gumbel(0, 1, 3).size)   --> 3
  function State:gumbel(loc, scale, size, dtype)
    local fname = "gumbel"
    loc, scale = as_param(fname, "loc", loc or 0.0), as_param(fname, "scale", scale or 1.0, "nonneg")
    local g = ga_()
    local u = u01(self, fname, shape_of(fname, params_shape(size, loc, scale)), dtype)
    return g.subtract(loc, g.multiply(scale, g.log(g.negative(g.log1p(g.negative(u))))))
  end

  --- Logistic values: `loc + scale * log(u / (1 - u))`.
  -- @function RandomState:logistic
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:logistic(0, 1, 3).size)   --> 3
  function State:logistic(loc, scale, size, dtype)
    local fname = "logistic"
    loc, scale = as_param(fname, "loc", loc or 0.0), as_param(fname, "scale", scale or 1.0, "nonneg")
    local g = ga_()
    local u = u01(self, fname, shape_of(fname, params_shape(size, loc, scale)), dtype)
    u = g.where(g.equal(u, 0), 0.5, u)   -- u = 0 would be -inf (NumPy redraws; we take the median)
    return g.add(loc, g.multiply(scale, g.log(g.divide(u, g.subtract(1, u)))))
  end

  --- Laplace values (double exponential around `loc`).
  -- @function RandomState:laplace
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:laplace(0, 1, 3).size)   --> 3
  function State:laplace(loc, scale, size, dtype)
    local fname = "laplace"
    loc, scale = as_param(fname, "loc", loc or 0.0), as_param(fname, "scale", scale or 1.0, "nonneg")
    local g = ga_()
    local u = u01(self, fname, shape_of(fname, params_shape(size, loc, scale)), dtype)
    -- NumPy: u >= 1/2: loc - scale log(2 - 2u), else loc + scale log(2u)
    local hi = g.negative(g.log(g.subtract(2, g.multiply(u, 2))))
    local lo = g.log(g.multiply(g.where(g.equal(u, 0), 0.5, u), 2))
    return g.add(loc, g.multiply(scale, g.where(g.greater_equal(u, 0.5), hi, lo)))
  end

  --- Weibull values: `(-log(1 - u))^(1/a)`.
  -- @function RandomState:weibull
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:weibull(2, 3).size)   --> 3
  function State:weibull(a, size, dtype)
    local fname = "weibull"
    a = as_param(fname, "a", a, "nonneg")
    local g = ga_()
    local e = self:standard_exponential(shape_of(fname, params_shape(size, a)), dtype)
    return g.power(e, (type(a) == "number" and 1 / a or g.divide(1, a)))
  end

  --- Pareto II (Lomax) values: `exp(E / a) - 1`, E standard exponential.
  -- @function RandomState:pareto
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:pareto(3, 3):min():item() >= 0)   --> true
  function State:pareto(a, size, dtype)
    local fname = "pareto"
    a = as_param(fname, "a", a, "pos")
    local g = ga_()
    return g.expm1(g.divide(self:standard_exponential(shape_of(fname, params_shape(size, a)), dtype), a))
  end

  --- Power-function values on [0, 1]: `(1 - exp(-E))^(1/a)`.
  -- @function RandomState:power
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:power(2, 3):max():item() <= 1)   --> true
  function State:power(a, size, dtype)
    local fname = "power"
    a = as_param(fname, "a", a, "pos")
    local g = ga_()
    local e = self:standard_exponential(shape_of(fname, params_shape(size, a)), dtype)
    return g.power(g.negative(g.expm1(g.negative(e))), (type(a) == "number" and 1 / a or g.divide(1, a)))
  end

  --- Rayleigh values: `scale * sqrt(2 E)`.
  -- @function RandomState:rayleigh
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:rayleigh(1, 3).size)   --> 3
  function State:rayleigh(scale, size, dtype)
    local fname = "rayleigh"
    scale = as_param(fname, "scale", scale or 1.0, "nonneg")
    local g = ga_()
    local e = self:standard_exponential(shape_of(fname, params_shape(size, scale)), dtype)
    return g.multiply(scale, g.sqrt(g.multiply(e, 2)))
  end

  --- Standard Cauchy values (a ratio of two standard normals).
  -- @function RandomState:standard_cauchy
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:standard_cauchy(3).size)   --> 3
  function State:standard_cauchy(size, dtype)
    local shape = shape_of("standard_cauchy", size)
    local n1 = self:standard_normal(shape, dtype)
    return ga_().divide(n1, self:standard_normal(shape, dtype))
  end

  -- a scalar parameter of a rejection draw (arrays are not taken there yet)
  local function scalar(fname, what, v, rule)
    local msg = number_problem(fname, what, v, rule)
    if msg then error(msg, 3) end
    if v == math.huge then error(fname .. ": " .. what .. " is infinite", 3) end
    return v
  end

  -- a rejection draw's parameter: a finite number or an array (a table
  -- becomes one), checked against `rule`
  local function rparam(fname, what, v, rule)
    if type(v) == "table" or is_array(v) then
      v = as_param(fname, what, v, rule)
      local g = ga_()
      if g.any(g.isinf(v)):item() then error(fname .. ": " .. what .. " is infinite", 3) end
      return v
    end
    local msg = number_problem(fname, what, v, rule)
    if msg then error(msg, 3) end
    if v == math.huge or v == -math.huge then error(fname .. ": " .. what .. " is infinite", 3) end
    return v
  end

  local function shape_str(sh)
    local t = {}
    for i = 1, #sh do t[i] = tostring(sh[i]) end
    return "{" .. table.concat(t, ", ") .. "}"
  end

  -- a rejection draw of `shape`; an array parameter gives each value its
  -- own (broadcast to `shape`, as a contiguous float64 array)
  local function reject(st, fname, shape, dtype, dist, p0, p1, ilow)
    local function per(v)
      if not is_array(v) then return v end
      local g = ga_()
      local ok, b = pcall(g.broadcast_to, v, shape)
      if not ok then
        error(fname .. ": a parameter of shape " .. shape_str(v.shape) .. " does not broadcast to size " ..
              shape_str(shape), 4)
      end
      return g.ascontiguousarray(b, "float64")
    end
    return draw(st, shape, dtype, dist, per(p0), per(p1), per(ilow))
  end
  --- Standard gamma values (shape `k`, scale 1): Marsaglia and Tsang's
  -- method, exact (shape < 1 by the boost gamma(k + 1) u^(1/k)).
  -- @function RandomState:standard_gamma
  -- @tparam number|ndarray shape k >= 0 (an array broadcasts: each value its own)
  -- @param[opt] size an integer or a shape table (default: the shape's)
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):standard_gamma(2, 4).shape[1])   --> 4
  function State:standard_gamma(shape, size, dtype)
    local fname = "standard_gamma"
    shape = rparam(fname, "shape", shape, "nonneg")
    return reject(self, fname, shape_of(fname, params_shape(size, shape)), float_dtype(fname, dtype), GAMMA, shape, 0)
  end

  --- Gamma values with `shape` and `scale`.
  -- @function RandomState:gamma
  -- @tparam number|ndarray shape >= 0
  -- @tparam[opt=1] number|ndarray scale >= 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):gamma(2, 3, {2, 2}).shape[2])   --> 2
  function State:gamma(shape, scale, size, dtype)
    local fname = "gamma"
    shape = rparam(fname, "shape", shape, "nonneg")
    scale = rparam(fname, "scale", scale or 1.0, "nonneg")
    local sh = shape_of(fname, params_shape(size, shape, scale))
    local g = reject(self, fname, sh, float_dtype(fname, dtype), GAMMA, shape, 0)
    return scale == 1 and g or ga_().multiply(g, scale)
  end

  --- Beta values: X / (X + Y), X ~ gamma(a), Y ~ gamma(b).
  -- @function RandomState:beta
  -- @tparam number|ndarray a > 0
  -- @tparam number|ndarray b > 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):beta(2, 5, 3).shape[1])   --> 3
  function State:beta(a, b, size, dtype)
    local fname = "beta"
    a, b = rparam(fname, "a", a, "pos"), rparam(fname, "b", b, "pos")
    local shape, dt = shape_of(fname, params_shape(size, a, b)), float_dtype(fname, dtype)
    local x = reject(self, fname, shape, dt, GAMMA, a, 0)
    local y = reject(self, fname, shape, dt, GAMMA, b, 0)
    local g = ga_()
    return g.divide(x, g.add(x, y))
  end

  --- Chi-square values with `df` degrees of freedom (2 gamma(df / 2)).
  -- @function RandomState:chisquare
  -- @tparam number|ndarray df > 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):chisquare(3, 5).shape[1])   --> 5
  function State:chisquare(df, size, dtype)
    local fname = "chisquare"
    df = rparam(fname, "df", df, "pos")
    local g = ga_()
    local half = type(df) == "number" and df / 2 or g.divide(df, 2)
    return g.multiply(reject(self, fname, shape_of(fname, params_shape(size, df)), float_dtype(fname, dtype), GAMMA,
                             half, 0), 2)
  end

  --- F values: (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden).
  -- @function RandomState:f
  -- @tparam number|ndarray dfnum > 0
  -- @tparam number|ndarray dfden > 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):f(5, 10, 2).shape[1])   --> 2
  function State:f(dfnum, dfden, size, dtype)
    local fname = "f"
    dfnum, dfden = rparam(fname, "dfnum", dfnum, "pos"), rparam(fname, "dfden", dfden, "pos")
    local shape, dt = shape_of(fname, params_shape(size, dfnum, dfden)), float_dtype(fname, dtype)
    local g = ga_()
    local function half(v) return type(v) == "number" and v / 2 or g.divide(v, 2) end
    local x = reject(self, fname, shape, dt, GAMMA, half(dfnum), 0)
    local y = reject(self, fname, shape, dt, GAMMA, half(dfden), 0)
    return g.divide(g.multiply(x, dfden), g.multiply(y, dfnum))
  end

  --- Student's t values: N / sqrt(chi2(df) / df).
  -- @function RandomState:standard_t
  -- @tparam number|ndarray df > 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):standard_t(4, 3).shape[1])   --> 3
  function State:standard_t(df, size, dtype)
    local fname = "standard_t"
    df = rparam(fname, "df", df, "pos")
    local shape, dt = shape_of(fname, params_shape(size, df)), float_dtype(fname, dtype)
    local g = ga_()
    local half = type(df) == "number" and df / 2 or g.divide(df, 2)
    local z = draw(self, shape, dt, NORMAL, 0, 1)
    local c = reject(self, fname, shape, dt, GAMMA, half, 0)
    return g.divide(z, g.sqrt(g.divide(c, half)))
  end

  local LAM_MAX = 1e15   -- beyond, PTRS's int64 counts lose their meaning (NumPy's bound too)

  --- Poisson counts (int64) with mean `lam`: Knuth's method below 10,
  -- Hormann's PTRS (transformed rejection) above; exact.
  -- @function RandomState:poisson
  -- @tparam[opt=1] number|ndarray lam >= 0, at most 1e15
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):poisson(3, 4).dtype)   --> int64
  function State:poisson(lam, size)
    local fname = "poisson"
    lam = rparam(fname, "lam", lam or 1.0, "nonneg")
    local big
    if type(lam) == "number" then big = lam > LAM_MAX else big = ga_().any(ga_().greater(lam, LAM_MAX)):item() end
    if big then error(fname .. ": lam value too large", 2) end
    return reject(self, fname, shape_of(fname, params_shape(size, lam)), "int64", POISSON, lam, 0)
  end

  -- an integer count parameter: a non-negative integer, or an array of them
  local function count_param(fname, what, v)
    v = rparam(fname, what, v, "nonneg")
    if type(v) == "number" then
      if not math.tointeger(v) then error(fname .. ": " .. what .. " must be an integer, got " .. tostring(v), 3) end
    else
      local g = ga_()
      if g.any(g.not_equal(g.floor(v), v)):item() then error(fname .. ": " .. what .. " must hold integers", 3) end
    end
    return v
  end

  local function prob_param(fname, what, v)
    v = rparam(fname, what, v, "nonneg")
    local g = ga_()
    if type(v) == "number" and v > 1 or type(v) ~= "number" and g.any(g.greater(v, 1)):item() then
      error(fname .. ": " .. what .. " > 1", 3)
    end
    return v
  end

  -- arithmetic on numbers or arrays: Lua's when both are numbers (an op of
  -- two numbers would make a 0-d array on the current device)
  local function both_num(x, y) return type(x) == "number" and type(y) == "number" end
  local function add(x, y) if both_num(x, y) then return x + y end return ga_().add(x, y) end
  local function sub(x, y) if both_num(x, y) then return x - y end return ga_().subtract(x, y) end
  local function mul(x, y) if both_num(x, y) then return x * y end return ga_().multiply(x, y) end
  local function div(x, y) if both_num(x, y) then return x / y end return ga_().divide(x, y) end
  -- x op y somewhere true (numbers or arrays)
  local function anywhere(cmp, x, y)
    if both_num(x, y) then
      if cmp == "gt" then return x > y elseif cmp == "ge" then return x >= y else return x == y end
    end
    local g = ga_()
    local f = cmp == "gt" and g.greater or cmp == "ge" and g.greater_equal or g.equal
    return g.any(f(x, y)):item()
  end

  --- Binomial counts (int64): successes in `n` trials of probability `p`.
  -- Inversion when n min(p, 1-p) < 10, else Hormann's BTRS; exact.
  -- @function RandomState:binomial
  -- @tparam integer|ndarray n trials, >= 0
  -- @tparam number|ndarray p in [0, 1]
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):binomial(10, 0.5, 3).shape[1])   --> 3
  function State:binomial(n, p, size)
    local fname = "binomial"
    n, p = count_param(fname, "n", n), prob_param(fname, "p", p)
    return reject(self, fname, shape_of(fname, params_shape(size, n, p)), "int64", BINOMIAL, n, p)
  end

  --- Negative binomial counts (int64): failures before the `n`-th success
  -- (n > 0, real), as NumPy: poisson(gamma(n, (1 - p) / p)).
  -- @function RandomState:negative_binomial
  -- @tparam number|ndarray n > 0
  -- @tparam number|ndarray p in (0, 1]
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):negative_binomial(5, 0.5, 3).dtype)   --> int64
  function State:negative_binomial(n, p, size)
    local fname = "negative_binomial"
    n, p = rparam(fname, "n", n, "pos"), prob_param(fname, "p", p)
    local g = ga_()
    if type(p) == "number" and p == 0 or type(p) ~= "number" and g.any(g.equal(p, 0)):item() then
      error(fname .. ": p must be > 0", 2)
    end
    local shape = shape_of(fname, params_shape(size, n, p))
    local odds = type(p) == "number" and (1 - p) / p or g.divide(g.subtract(1, p), p)
    local y = g.multiply(reject(self, fname, shape, "float64", GAMMA, n, 0), odds)
    if g.any(g.greater(y, LAM_MAX)):item() then error(fname .. ": the mean is too large (p too small)", 2) end
    return draw(self, shape, "int64", POISSON, g.ascontiguousarray(y, "float64"), 0)
  end

  --- Hypergeometric counts (int64): good items in `nsample` drawn without
  -- replacement from `ngood` good and `nbad` bad ones (NumPy's HYP for
  -- samples up to 10, HRUA above).  The parameters are integers or arrays
  -- of them (broadcast).
  -- @function RandomState:hypergeometric
  -- @tparam integer|ndarray ngood >= 0
  -- @tparam integer|ndarray nbad >= 0
  -- @tparam integer|ndarray nsample in [0, ngood + nbad]
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):hypergeometric(10, 5, 6, 2).shape[1])   --> 2
  function State:hypergeometric(ngood, nbad, nsample, size)
    local fname = "hypergeometric"
    ngood, nbad = count_param(fname, "ngood", ngood), count_param(fname, "nbad", nbad)
    nsample = count_param(fname, "nsample", nsample)
    if anywhere("gt", ngood, 2 ^ 52) or anywhere("gt", nbad, 2 ^ 52) then
      error(fname .. ": ngood + nbad is too large", 2)
    end
    if anywhere("gt", nsample, add(ngood, nbad)) then error(fname .. ": ngood + nbad < nsample", 2) end
    local shape = shape_of(fname, params_shape(size, ngood, nbad, nsample))
    if type(nsample) == "number" then nsample = math.tointeger(nsample) end
    return reject(self, fname, shape, "int64", HYPERGEOMETRIC, ngood, nbad, nsample)
  end

  --- Logarithmic series counts (int64 >= 1) with parameter `p` in [0, 1)
  -- (Kemp's method, NumPy's).
  -- @function RandomState:logseries
  -- @tparam number|ndarray p in [0, 1)
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):logseries(0.6, 3).dtype)   --> int64
  function State:logseries(p, size)
    local fname = "logseries"
    p = prob_param(fname, "p", p)
    if type(p) == "number" and p >= 1 or type(p) ~= "number" and ga_().any(ga_().greater_equal(p, 1)):item() then
      error(fname .. ": p >= 1", 2)
    end
    return reject(self, fname, shape_of(fname, params_shape(size, p)), "int64", LOGSERIES, p, 0)
  end

  --- Zipf counts (int64 >= 1) with exponent `a` > 1 (Devroye's rejection,
  -- NumPy's).
  -- @function RandomState:zipf
  -- @tparam number|ndarray a > 1
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- print(ga.random.RandomState(1):zipf(2, 3).dtype)   --> int64
  function State:zipf(a, size)
    local fname = "zipf"
    a = rparam(fname, "a", a, "pos")
    if type(a) == "number" and a <= 1 or type(a) ~= "number" and ga_().any(ga_().less_equal(a, 1)):item() then
      error(fname .. ": a must be > 1", 2)
    end
    return reject(self, fname, shape_of(fname, params_shape(size, a)), "int64", ZIPF, a, 0)
  end

  --- von Mises angles on [-pi, pi] with mode `mu` and concentration
  -- `kappa` (Best and Fisher's rejection, as NumPy).
  -- @function RandomState:vonmises
  -- @tparam number|ndarray mu
  -- @tparam number|ndarray kappa >= 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- print(ga.random.RandomState(1):vonmises(0, 4, 3).shape[1])   --> 3
  function State:vonmises(mu, kappa, size, dtype)
    local fname = "vonmises"
    mu, kappa = rparam(fname, "mu", mu), rparam(fname, "kappa", kappa, "nonneg")
    local shape = shape_of(fname, params_shape(size, mu, kappa))
    return reject(self, fname, shape, float_dtype(fname, dtype), VONMISES, kappa, mu)
  end

  --- Multinomial counts (int64, shape `size` + {k}): `n` trials over the
  -- k outcomes of probabilities `pvals` (sequential binomials; the last
  -- outcome takes what remains, as NumPy).
  -- @function RandomState:multinomial
  -- @tparam integer n trials, >= 0
  -- @tparam table|ndarray pvals k probabilities (those but the last sum to <= 1)
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- local m = ga.random.RandomState(1):multinomial(20, {0.2, 0.3, 0.5}, 4)
  -- print(m.shape[1], m.shape[2])   --> 4	3
  function State:multinomial(n, pvals, size)
    local fname = "multinomial"
    local g = ga_()
    local nn = math.tointeger(n)
    if not nn or nn < 0 then error(fname .. ": n must be a non-negative integer", 2) end
    if is_array(pvals) then pvals = pvals:tolist() end
    if type(pvals) ~= "table" or #pvals == 0 then
      error(fname .. ": pvals must be a non-empty 1-d table or array", 2)
    end
    local k, head = #pvals, 0
    for j = 1, k do
      local v = pvals[j]
      if type(v) ~= "number" or v ~= v or v < 0 or v > 1 then
        error(fname .. ": pvals[" .. j .. "] must be a probability in [0, 1]", 2)
      end
      if j < k then head = head + v end
    end
    if head > 1 + 1e-12 then error(fname .. ": sum(pvals[1:k-1]) > 1", 2) end
    local shape = shape_of(fname, size)
    local left, rest, parts = g.full(shape, nn, "float64"), 1.0, {}
    for j = 1, k - 1 do
      local q = rest > 0 and math.min(math.max(pvals[j] / rest, 0), 1) or 0
      local x = draw(self, shape, "int64", BINOMIAL, g.ascontiguousarray(left, "float64"), q)
      parts[j] = x
      left = g.subtract(left, x)
      rest = rest - pvals[j]
    end
    parts[k] = left:astype("int64")
    return g.stack(parts, -1)
  end

  -- symmetric eigen decomposition of a small Lua matrix (cyclic Jacobi):
  -- values, vectors (columns)
  local function jacobi_eigen(a, d)
    local v = {}
    for i = 1, d do
      v[i] = {}
      for j = 1, d do v[i][j] = i == j and 1 or 0 end
    end
    for _ = 1, 100 do
      local off = 0
      for i = 1, d do for j = i + 1, d do off = off + a[i][j] * a[i][j] end end
      if off < 1e-30 then break end
      for p = 1, d do
        for q = p + 1, d do
          if a[p][q] ~= 0 then
            local theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
            local t = (theta >= 0 and 1 or -1) / (math.abs(theta) + math.sqrt(theta * theta + 1))
            local c = 1 / math.sqrt(t * t + 1)
            local s = t * c
            for r = 1, d do
              local arp, arq = a[r][p], a[r][q]
              a[r][p], a[r][q] = c * arp - s * arq, s * arp + c * arq
            end
            for r = 1, d do
              local apr, aqr = a[p][r], a[q][r]
              a[p][r], a[q][r] = c * apr - s * aqr, s * apr + c * aqr
            end
            for r = 1, d do
              local vrp, vrq = v[r][p], v[r][q]
              v[r][p], v[r][q] = c * vrp - s * vrq, s * vrp + c * vrq
            end
          end
        end
      end
    end
    local w = {}
    for i = 1, d do w[i] = a[i][i] end
    return w, v
  end

  --- Multivariate normal vectors (shape `size` + {d}): mean + A z with
  -- A A^T = cov.  `method` "cholesky" (CuPy's default; a covariance that is
  -- only semi-definite falls back to "eigh") or "eigh"/"svd" (A = V sqrt(w)
  -- from the symmetric eigen decomposition).  The d x d factor is computed
  -- on the host (d is small); the product runs where the array lives.
  -- @function RandomState:multivariate_normal
  -- @tparam table|ndarray mean d numbers
  -- @tparam table|ndarray cov d x d, symmetric positive semi-definite
  -- @param[opt] size
  -- @tparam[opt="ignore"] string check_valid "warn", "raise" or "ignore" (not PSD)
  -- @tparam[opt=1e-8] number tol
  -- @tparam[opt="cholesky"] string method
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- local z = ga.random.RandomState(1):multivariate_normal({0, 0}, {{1, 0.5}, {0.5, 1}}, 5)
  -- print(z.shape[1], z.shape[2])   --> 5	2
  function State:multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)
    local fname = "multivariate_normal"
    local g = ga_()
    check_valid, tol, method = check_valid or "ignore", tol or 1e-8, method or "cholesky"
    if check_valid ~= "ignore" and check_valid ~= "warn" and check_valid ~= "raise" then
      error(fname .. ": check_valid must be 'warn', 'raise' or 'ignore'", 2)
    end
    if method ~= "cholesky" and method ~= "eigh" and method ~= "svd" then
      error(fname .. ": method must be 'cholesky', 'eigh' or 'svd'", 2)
    end
    if is_array(mean) then mean = mean:tolist() end
    if is_array(cov) then cov = cov:tolist() end
    if type(mean) ~= "table" or #mean == 0 then error(fname .. ": mean must be a non-empty 1-d table or array", 2) end
    local d = #mean
    if type(cov) ~= "table" or #cov ~= d then error(fname .. ": mean and cov must have the same length", 2) end
    local c = {}
    for i = 1, d do
      if type(mean[i]) ~= "number" or mean[i] ~= mean[i] then error(fname .. ": mean has a NaN or non-number", 2) end
      if type(cov[i]) ~= "table" or #cov[i] ~= d then error(fname .. ": cov must be a square 2-d table or array", 2) end
      c[i] = {}
      for j = 1, d do
        local v = cov[i][j]
        if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
          error(fname .. ": cov has a NaN, infinite or non-number entry", 2)
        end
        c[i][j] = v
      end
    end
    dtype = float_dtype(fname, dtype)
    local shape = shape_of(fname, size)
    -- the factor A (d x d, rows of Lua numbers)
    local A
    if method == "cholesky" then
      A = {}
      for i = 1, d do
        A[i] = {}
        for j = 1, d do A[i][j] = 0 end
      end
      for j = 1, d do
        local s = c[j][j]
        for k = 1, j - 1 do s = s - A[j][k] * A[j][k] end
        if s <= 0 or s ~= s then A = nil; break end
        A[j][j] = math.sqrt(s)
        for i = j + 1, d do
          local t = c[i][j]
          for k = 1, j - 1 do t = t - A[i][k] * A[j][k] end
          A[i][j] = t / A[j][j]
        end
      end
    end
    local sym = true
    for i = 1, d do
      for j = i + 1, d do
        if math.abs(c[i][j] - c[j][i]) > tol * math.max(1, math.abs(c[i][j])) then sym = false end
      end
    end
    if not A or check_valid ~= "ignore" then
      local a = {}
      for i = 1, d do
        a[i] = {}
        for j = 1, d do a[i][j] = 0.5 * (c[i][j] + c[j][i]) end
      end
      local w, v = jacobi_eigen(a, d)
      local wmax = 0
      for i = 1, d do wmax = math.max(wmax, math.abs(w[i])) end
      local psd = sym
      for i = 1, d do if w[i] < -tol * math.max(wmax, 1) then psd = false end end
      if not psd then
        if check_valid == "raise" then error(fname .. ": covariance is not symmetric positive-semidefinite", 2) end
        if check_valid == "warn" then
          io.stderr:write(fname .. ": warning: covariance is not symmetric positive-semidefinite\\n")
        end
      end
      if not A then
        A = {}
        for i = 1, d do
          A[i] = {}
          for j = 1, d do A[i][j] = v[i][j] * math.sqrt(math.max(w[j], 0)) end
        end
      end
    end
    local full = {}
    for i = 1, #shape do full[i] = shape[i] end
    full[#full + 1] = d
    local z = draw(self, full, dtype, NORMAL, 0, 1)
    local At = {}
    for i = 1, d do
      At[i] = {}
      for j = 1, d do At[i][j] = A[j][i] end
    end
    return g.add(g.matmul(z, g.array(At, dtype)), g.array(mean, dtype))
  end

  --- Geometric counts (int64, >= 1): trials up to the first success of
  -- probability `p` (by inversion of a uniform).
  -- @function RandomState:geometric
  -- @tparam number|ndarray p in (0, 1] (an array broadcasts)
  -- @param[opt] size
  -- @treturn ndarray int64
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:geometric(0.5, 4):min():item() >= 1)   --> true
  function State:geometric(p, size)
    local fname = "geometric"
    p = prob_param(fname, "p", p)
    local g = ga_()
    if type(p) == "number" and p == 0 or type(p) ~= "number" and g.any(g.equal(p, 0)):item() then
      error(fname .. ": p must be > 0", 2)
    end
    local u = draw(self, shape_of(fname, params_shape(size, p)), "float64", UNIFORM, 0, 1)
    -- p = 1: log(1 - p) = -inf, so every count is 1
    local lq = type(p) == "number" and math.log(1 - p) or g.log1p(g.negative(p))
    local k = g.ceil(g.divide(g.log1p(g.negative(u)), lq))
    return g.maximum(k, 1):astype("int64")
  end

  --- Triangular values on [left, right] with the peak at `mode` (NumPy's
  -- inversion of a uniform).
  -- @function RandomState:triangular
  -- @tparam number|ndarray left
  -- @tparam number|ndarray mode left <= mode <= right
  -- @tparam number|ndarray right > left
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:triangular(0, 1, 4, 5):max():item() <= 4)   --> true
  function State:triangular(left, mode, right, size, dtype)
    local fname = "triangular"
    left, mode, right = rparam(fname, "left", left), rparam(fname, "mode", mode), rparam(fname, "right", right)
    if anywhere("gt", left, mode) then error(fname .. ": left > mode", 2) end
    if anywhere("gt", mode, right) then error(fname .. ": mode > right", 2) end
    if anywhere("eq", left, right) then error(fname .. ": left == right", 2) end
    local g = ga_()
    local base = sub(right, left)
    local ratio, lp, rp = div(sub(mode, left), base), mul(sub(mode, left), base), mul(sub(right, mode), base)
    local u = u01(self, fname, shape_of(fname, params_shape(size, left, mode, right)), dtype)
    local lo = g.add(left, g.sqrt(g.multiply(u, lp)))
    local hi = g.subtract(right, g.sqrt(g.multiply(g.subtract(1, u), rp)))
    return g.where(g.less_equal(u, ratio), lo, hi)
  end

  --- Wald (inverse Gaussian) values with `mean` and `scale` (NumPy's
  -- method: one normal and one uniform per value).
  -- @function RandomState:wald
  -- @tparam number|ndarray mean > 0
  -- @tparam number|ndarray scale > 0
  -- @param[opt] size
  -- @tparam[opt="float64"] string dtype
  -- @treturn ndarray
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:wald(1, 2, 3):min():item() > 0)   --> true
  function State:wald(mean, scale, size, dtype)
    local fname = "wald"
    mean, scale = rparam(fname, "mean", mean, "pos"), rparam(fname, "scale", scale, "pos")
    local g = ga_()
    local shape, dt = shape_of(fname, params_shape(size, mean, scale)), float_dtype(fname, dtype)
    local n = draw(self, shape, dt, NORMAL, 0, 1)
    local u = draw(self, shape, dt, UNIFORM, 0, 1)
    local y = g.multiply(g.multiply(n, n), mean)
    local root = g.sqrt(g.add(g.multiply(y, mul(scale, 4)), g.multiply(y, y)))
    local x = g.add(mean, g.multiply(div(mean, mul(scale, 2)), g.subtract(y, root)))
    return g.where(g.less_equal(u, g.divide(mean, g.add(x, mean))), x, g.divide(mul(mean, mean), x))
  end

  --- Dirichlet vectors: normalised gamma(alpha_j) draws, one per entry of
  -- `alpha`; the result's shape is `size` plus `#alpha`.
  -- @function RandomState:dirichlet
  -- @tparam table alpha positive numbers (a table or a 1-d array)
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- local d = rs:dirichlet({1, 2, 3}, 4)
  -- print(d.shape[1], d.shape[2])   --> 4	3
  function State:dirichlet(alpha, size, dtype)
    local fname = "dirichlet"
    if is_array(alpha) then alpha = ga_().asnumpy(alpha):tolist() end
    if type(alpha) ~= "table" or #alpha == 0 then error(fname .. ": alpha must be a non-empty table of numbers", 2) end
    local shape, dt = shape_of(fname, size), float_dtype(fname, dtype)
    local parts = {}
    for j = 1, #alpha do
      local a = alpha[j]
      local msg = number_problem(fname, "alpha[" .. j .. "]", a, "pos")
      if msg then error(msg, 2) end
      parts[j] = draw(self, shape, dt, GAMMA, a, 0)
    end
    local g = ga_()
    local x = g.stack(parts, -1)
    return g.divide(x, g.sum(x, -1, { keepdims = true }))
  end

  --- Random integers in [low, high) (half-open, as NumPy); with one bound,
  -- [0, low).  Unbiased.
  -- @function RandomState:randint
  -- @tparam integer low
  -- @tparam[opt] integer high
  -- @param[opt] size an integer or a shape table
  -- @tparam[opt="int64"] string dtype any integer dtype whose range holds [low, high)
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- local d = rs:randint(1, 7, 100)          -- dice
  -- print(d:min():item() >= 1, d:max():item() <= 6)   --> true	true
  function State:randint(low, high, size, dtype, fname)
    fname = fname or "randint"
    if high == nil then low, high = 0, low end
    local l, h = math.tointeger(low), math.tointeger(high)
    if not l then error(fname .. ": low must be an integer, got " .. tostring(low), 2) end
    if not h then error(fname .. ": high must be an integer, got " .. tostring(high), 2) end
    if l >= h then error(fname .. ": low >= high (" .. l .. " >= " .. h .. ")", 2) end
    dtype = dtype or "int64"
    local r = INT_RANGE[dtype]
    if not r then error(fname .. ": dtype must be an integer dtype, got " .. tostring(dtype), 2) end
    if l < r[1] then error(fname .. ": low is out of bounds for " .. dtype, 2) end
    if h - 1 > r[2] then error(fname .. ": high is out of bounds for " .. dtype, 2) end
    local shape = shape_of(fname, size)
    return draw(self, shape, dtype, INT, 0, 0, l, h - l)   -- h - l wraps to the unsigned range
  end

  --- Random integers in [low, high] (closed; NumPy's deprecated name).
  -- @function RandomState:random_integers
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:random_integers(1, 6, 10):max():item() <= 6)   --> true
  function State:random_integers(low, high, size)
    if high == nil then low, high = 1, low end
    return self:randint(low, high + 1, size, "int64", "random_integers")
  end

  --- `n` random bytes as a Lua string.
  -- @function RandomState:bytes
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(#rs:bytes(10))   --> 10
  function State:bytes(n)
    local m = math.tointeger(n)
    if not m or m < 0 then error("bytes: n must be a non-negative integer", 2) end
    local w = draw(self, { (m + 3) // 4 }, "uint32", BITS)
    local list = w:tolist()
    local parts = {}
    for i = 1, #list do parts[i] = string.pack("<I4", list[i]) end
    return table.concat(parts):sub(1, m)
  end

  -- 53-bit keys, one per element: sorting them gives a uniform permutation
  local function perm_indices(st, n) return ga_().argsort(draw(st, { n }, "float64", UNIFORM, 0, 1)) end

  --- A random permutation: of the values 0 .. n-1 for an integer `n`, of an
  -- array's rows (along the first axis; a new array).
  -- @function RandomState:permutation
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(ga.sort(rs:permutation(5)))   --> array([0, 1, 2, 3, 4])
  function State:permutation(x)
    local fname = "permutation"
    local g = ga_()
    if type(x) == "number" then
      local n = math.tointeger(x)
      if not n or n < 0 then error(fname .. ": n must be a non-negative integer", 2) end
      return g.subtract(perm_indices(self, n), 1)
    end
    if type(x) == "table" then x = g.array(x) end
    if not is_array(x) then error(fname .. ": expected an integer or an array, got " .. type(x), 2) end
    if x.ndim == 0 then error(fname .. ": x must be at least 1-d", 2) end
    return g.take(x, perm_indices(self, x.shape[1]), 1)
  end

  --- Shuffle an array in place along its first axis (whole rows move).
  -- @function RandomState:shuffle
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- local x = ga.arange(6):reshape({3, 2})
  -- rs:shuffle(x)
  -- print(ga.sort(x:sum(2)))   --> array([ 1,  5,  9])
  function State:shuffle(x)
    if not is_array(x) then error("shuffle: expected an array, got " .. type(x), 2) end
    if x.ndim == 0 then error("shuffle: x must be at least 1-d", 2) end
    if not x.flags.writeable then error("shuffle: x is read-only (x.flags.writeable is false)", 2) end
    local p = ga_().take(x, perm_indices(self, x.shape[1]), 1)
    x:set(p)
  end

  --- Random samples from `a` (an integer n: the values 0 .. n-1; a 1-d
  -- array: its elements), with or without replacement, optionally with
  -- probabilities `p`.
  -- @function RandomState:choice
  -- @param a an integer or a 1-d array (or table)
  -- @param[opt] size an integer or a shape table
  -- @tparam[opt=true] boolean replace
  -- @param[opt] p probabilities (an array or table summing to 1)
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- print(rs:choice(5, 3, false).size)   --> 3
  function State:choice(a, size, replace, p)
    local fname = "choice"
    local g = ga_()
    if replace == nil then replace = true end
    local n, pool
    if type(a) == "number" then
      n = math.tointeger(a)
      if not n or n <= 0 then error(fname .. ": a must be a positive integer", 2) end
    else
      if type(a) == "table" then a = g.array(a) end
      if not is_array(a) or a.ndim ~= 1 then error(fname .. ": a must be an integer or a 1-d array", 2) end
      n, pool = a.shape[1], a
      if n == 0 then error(fname .. ": a cannot be empty", 2) end
    end
    local shape = shape_of(fname, size)
    local k = 1
    for i = 1, #shape do k = k * shape[i] end
    if p ~= nil then
      if type(p) == "table" then p = g.array(p) end
      if not is_array(p) or p.ndim ~= 1 or p.shape[1] ~= n then
        error(fname .. ": p must be a 1-d array of the size of a (" .. n .. ")", 2)
      end
      p = p:astype("float64")
      if g.any(g.logical_or(g.less(p, 0), g.isnan(p))):item() then error(fname .. ": probabilities are negative", 2) end
      local s = g.sum(p):item()
      if math.abs(s - 1) > 1e-8 then error(fname .. ": probabilities do not sum to 1", 2) end
    end
    if not replace and k > n then
      error(fname .. ": cannot take a larger sample than the population when replace is false", 2)
    end
    local idx
    if replace then
      if p == nil then
        idx = draw(self, { k }, "int64", INT, 0, 0, 1, n)   -- 1-based positions
      else
        local cdf = g.cumsum(p)
        cdf[{ -1 }] = 1.0
        local u = draw(self, { k }, "float64", UNIFORM, 0, 1)
        idx = g.searchsorted(cdf, u, "right")   -- cdf[i-1] <= u < cdf[i]: 1-based i
        idx = g.minimum(idx, n)
      end
    else
      local keys = draw(self, { n }, "float64", UNIFORM, 0, 1)
      if p ~= nil then   -- exponential keys E/p: the k smallest are a weighted draw without replacement
        keys = g.divide(g.negative(g.log1p(g.negative(keys))), p)
      end
      idx = g.argsort(keys)[{ { 1, k } }]
    end
    local out = pool and g.take(pool, idx) or g.subtract(idx, 1)
    return out:reshape(shape)
  end

  --- The state as a table `{key = k, offset = words}` (a copy).
  -- @function RandomState:get_state
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- local s = rs:get_state()
  -- local a = rs:rand(3)
  -- rs:set_state(s)
  -- print((rs:rand(3) - a):max():item())   --> 0.0
  function State:get_state()
    return { key = self.k0 | (self.k1 << 32), substream = self.s, offset = self.off }
  end

  --- Set the state from `get_state`'s table.
  -- @function RandomState:set_state
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- rs:set_state(ga.random.RandomState(2):get_state())
  -- print(rs:get_state().offset)   --> 0
  function State:set_state(t)
    if type(t) ~= "table" or not math.tointeger(t.key) or not math.tointeger(t.offset) then
      error("set_state: expected a table {key=, offset=} from get_state", 2)
    end
    self.k0, self.k1 = t.key & MASK32, (t.key >> 32) & MASK32
    self.s, self.off = math.tointeger(t.substream) or 0, t.offset
  end

  --- Reseed this state (nil: from the OS).
  -- @function RandomState:seed
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- rs:seed(7)
  -- print(rs:get_state().offset)   --> 0
  function State:seed(s)
    local key = key_of("seed", s)
    self.k0, self.k1, self.s, self.off = key & MASK32, (key >> 32) & MASK32, 0, 0
  end

  --- Advance the stream by `n` words (as if `n` float32 uniforms were drawn).
  -- @function RandomState:advance
  -- @usage
  -- local rs = ga.random.RandomState(1)
  -- rs:advance(10)
  -- print(rs:get_state().offset)   --> 10
  function State:advance(n)
    local m = math.tointeger(n)
    if not m or m < 0 then error("advance: n must be a non-negative integer", 2) end
    self.off = self.off + m
    return self
  end

  --- A new generator with its own state (CuPy's `RandomState(seed)`).
  -- @function ga.random.RandomState
  -- @param[opt] seed an integer, a table of integers or nil (from the OS)
  -- @usage
  -- local rs = ga.random.RandomState(42)
  -- print(rs:rand(2).size)   --> 2
  function R.RandomState(seed) return new_state(key_of("RandomState", seed)) end

  -- the global states: one per device (ga.random), one for the host
  local globals = {}
  local function global()
    local dev = is_host and -1 or core.get_device()
    local st = globals[dev]
    if not st then
      st = new_state(urandom64())
      globals[dev] = st
    end
    return st
  end

  --- Seed the current device's global state (nil: from the OS).
  -- @function ga.random.seed
  -- @usage
  -- ga.random.seed(7)
  -- local a = ga.random.rand(3)
  -- ga.random.seed(7)
  -- print((ga.random.rand(3) - a):max():item())   --> 0.0
  function R.seed(s) global():seed(s) end

  --- The current device's global state (a RandomState).
  -- @function ga.random.get_random_state
  -- @usage
  -- print(ga.random.get_random_state():rand(2).size)   --> 2
  function R.get_random_state() return global() end

  --- Replace the current device's global state.
  -- @function ga.random.set_random_state
  -- @usage
  -- ga.random.set_random_state(ga.random.RandomState(3))
  -- print(ga.random.get_random_state():get_state().offset)   --> 0
  function R.set_random_state(rs)
    if getmetatable(rs) ~= State then error("set_random_state: expected a RandomState", 2) end
    globals[is_host and -1 or core.get_device()] = rs
  end

  -- the module functions: the global state's methods
  --- `RandomState:triangular` on the current device's global state (`ga.host.random.triangular`:
  -- the host's); see RandomState:triangular for the arguments.
  -- @function ga.random.triangular
  -- @usage
  -- print(ga.random.triangular(0, 0.5, 1, 3).size)   --> 3
  --- `RandomState:wald` on the current device's global state (`ga.host.random.wald`:
  -- the host's); see RandomState:wald for the arguments.
  -- @function ga.random.wald
  -- @usage
  -- print(ga.random.wald(1, 1, 3).size)   --> 3
  --- `RandomState:dirichlet` on the current device's global state (`ga.host.random.dirichlet`:
  -- the host's); see RandomState:dirichlet for the arguments.
  -- @function ga.random.dirichlet
  -- @usage
  -- print(ga.random.dirichlet({1, 1}, 2).shape[2])   --> 2
  --- `RandomState:binomial` on the current device's global state (`ga.host.random.binomial`:
  -- the host's); see RandomState:binomial for the arguments.
  -- @function ga.random.binomial
  -- @usage
  -- print(ga.random.binomial(10, 0.5, 3).size)   --> 3
  --- `RandomState:negative_binomial` on the current device's global state (`ga.host.random.negative_binomial`:
  -- the host's); see RandomState:negative_binomial for the arguments.
  -- @function ga.random.negative_binomial
  -- @usage
  -- print(ga.random.negative_binomial(4, 0.5, 3).size)   --> 3
  --- `RandomState:hypergeometric` on the current device's global state (`ga.host.random.hypergeometric`:
  -- the host's); see RandomState:hypergeometric for the arguments.
  -- @function ga.random.hypergeometric
  -- @usage
  -- print(ga.random.hypergeometric(5, 5, 3, 3).size)   --> 3
  --- `RandomState:logseries` on the current device's global state (`ga.host.random.logseries`:
  -- the host's); see RandomState:logseries for the arguments.
  -- @function ga.random.logseries
  -- @usage
  -- print(ga.random.logseries(0.5, 3).size)   --> 3
  --- `RandomState:zipf` on the current device's global state (`ga.host.random.zipf`:
  -- the host's); see RandomState:zipf for the arguments.
  -- @function ga.random.zipf
  -- @usage
  -- print(ga.random.zipf(3, 3).size)   --> 3
  --- `RandomState:vonmises` on the current device's global state (`ga.host.random.vonmises`:
  -- the host's); see RandomState:vonmises for the arguments.
  -- @function ga.random.vonmises
  -- @usage
  -- print(ga.random.vonmises(0, 1, 3).size)   --> 3
  --- `RandomState:multinomial` on the current device's global state (`ga.host.random.multinomial`:
  -- the host's); see RandomState:multinomial for the arguments.
  -- @function ga.random.multinomial
  -- @usage
  -- print(ga.random.multinomial(5, {0.5, 0.5}, 3).shape[2])   --> 2
  --- `RandomState:multivariate_normal` on the current device's global state (`ga.host.random.multivariate_normal`:
  -- the host's); see RandomState:multivariate_normal for the arguments.
  -- @function ga.random.multivariate_normal
  -- @usage
  -- print(ga.random.multivariate_normal({0}, {{1}}, 3).shape[1])   --> 3
  --- `RandomState:standard_gamma` on the current device's global state (`ga.host.random.standard_gamma`:
  -- the host's); see RandomState:standard_gamma for the arguments.
  -- @function ga.random.standard_gamma
  -- @usage
  -- print(ga.random.standard_gamma(1.5, 3).size)   --> 3
  --- `RandomState:gamma` on the current device's global state (`ga.host.random.gamma`:
  -- the host's); see RandomState:gamma for the arguments.
  -- @function ga.random.gamma
  -- @usage
  -- print(ga.random.gamma(2, 1, 3).size)   --> 3
  --- `RandomState:beta` on the current device's global state (`ga.host.random.beta`:
  -- the host's); see RandomState:beta for the arguments.
  -- @function ga.random.beta
  -- @usage
  -- print(ga.random.beta(1, 1, 3).size)   --> 3
  --- `RandomState:chisquare` on the current device's global state (`ga.host.random.chisquare`:
  -- the host's); see RandomState:chisquare for the arguments.
  -- @function ga.random.chisquare
  -- @usage
  -- print(ga.random.chisquare(2, 3).size)   --> 3
  --- `RandomState:f` on the current device's global state (`ga.host.random.f`:
  -- the host's); see RandomState:f for the arguments.
  -- @function ga.random.f
  -- @usage
  -- print(ga.random.f(3, 4, 3).size)   --> 3
  --- `RandomState:standard_t` on the current device's global state (`ga.host.random.standard_t`:
  -- the host's); see RandomState:standard_t for the arguments.
  -- @function ga.random.standard_t
  -- @usage
  -- print(ga.random.standard_t(3, 3).size)   --> 3
  --- `RandomState:poisson` on the current device's global state (`ga.host.random.poisson`:
  -- the host's); see RandomState:poisson for the arguments.
  -- @function ga.random.poisson
  -- @usage
  -- print(ga.random.poisson(3, 3).dtype)   --> int64
  --- `RandomState:geometric` on the current device's global state (`ga.host.random.geometric`:
  -- the host's); see RandomState:geometric for the arguments.
  -- @function ga.random.geometric
  -- @usage
  -- print(ga.random.geometric(0.3, 3).dtype)   --> int64
  --- `RandomState:rand` on the current device's global state (`ga.host.random.rand`:
  -- the host's); see RandomState:rand for the arguments.
  -- @function ga.random.rand
  -- @usage
  -- print(ga.random.rand(2, 3).shape[1])   --> 2
  --- `RandomState:randn` on the current device's global state (`ga.host.random.randn`:
  -- the host's); see RandomState:randn for the arguments.
  -- @function ga.random.randn
  -- @usage
  -- print(ga.random.randn(3).size)   --> 3
  --- `RandomState:random` on the current device's global state (`ga.host.random.random`:
  -- the host's); see RandomState:random for the arguments.
  -- @function ga.random.random
  -- @usage
  -- print(ga.random.random(3).size)   --> 3
  --- `RandomState:random_sample` on the current device's global state (`ga.host.random.random_sample`:
  -- the host's); see RandomState:random_sample for the arguments.
  -- @function ga.random.random_sample
  -- @usage
  -- print(ga.random.random_sample({2, 2}).size)   --> 4
  --- `RandomState:ranf` on the current device's global state (`ga.host.random.ranf`:
  -- the host's); see RandomState:ranf for the arguments.
  -- @function ga.random.ranf
  -- @usage
  -- print(ga.random.ranf(3).size)   --> 3
  --- `RandomState:sample` on the current device's global state (`ga.host.random.sample`:
  -- the host's); see RandomState:sample for the arguments.
  -- @function ga.random.sample
  -- @usage
  -- print(ga.random.sample(3).size)   --> 3
  --- `RandomState:randint` on the current device's global state (`ga.host.random.randint`:
  -- the host's); see RandomState:randint for the arguments.
  -- @function ga.random.randint
  -- @usage
  -- print(ga.random.randint(0, 2, 8):max():item() <= 1)   --> true
  --- `RandomState:random_integers` on the current device's global state (`ga.host.random.random_integers`:
  -- the host's); see RandomState:random_integers for the arguments.
  -- @function ga.random.random_integers
  -- @usage
  -- print(ga.random.random_integers(1, 3, 8):min():item() >= 1)   --> true
  --- `RandomState:uniform` on the current device's global state (`ga.host.random.uniform`:
  -- the host's); see RandomState:uniform for the arguments.
  -- @function ga.random.uniform
  -- @usage
  -- print(ga.random.uniform(5, 6, 4):min():item() >= 5)   --> true
  --- `RandomState:normal` on the current device's global state (`ga.host.random.normal`:
  -- the host's); see RandomState:normal for the arguments.
  -- @function ga.random.normal
  -- @usage
  -- print(ga.random.normal(0, 1, {2, 2}).size)   --> 4
  --- `RandomState:standard_normal` on the current device's global state (`ga.host.random.standard_normal`:
  -- the host's); see RandomState:standard_normal for the arguments.
  -- @function ga.random.standard_normal
  -- @usage
  -- print(ga.random.standard_normal(3, "float32").dtype)   --> float32
  --- `RandomState:lognormal` on the current device's global state (`ga.host.random.lognormal`:
  -- the host's); see RandomState:lognormal for the arguments.
  -- @function ga.random.lognormal
  -- @usage
  -- print(ga.random.lognormal(0, 1, 3):min():item() > 0)   --> true
  --- `RandomState:exponential` on the current device's global state (`ga.host.random.exponential`:
  -- the host's); see RandomState:exponential for the arguments.
  -- @function ga.random.exponential
  -- @usage
  -- print(ga.random.exponential(1, 3):min():item() >= 0)   --> true
  --- `RandomState:standard_exponential` on the current device's global state (`ga.host.random.standard_exponential`:
  -- the host's); see RandomState:standard_exponential for the arguments.
  -- @function ga.random.standard_exponential
  -- @usage
  -- print(ga.random.standard_exponential(3).size)   --> 3
  --- `RandomState:gumbel` on the current device's global state (`ga.host.random.gumbel`:
  -- the host's); see RandomState:gumbel for the arguments.
  -- @function ga.random.gumbel
  -- @usage
  -- print(ga.random.gumbel(0, 1, 3).size)   --> 3
  --- `RandomState:logistic` on the current device's global state (`ga.host.random.logistic`:
  -- the host's); see RandomState:logistic for the arguments.
  -- @function ga.random.logistic
  -- @usage
  -- print(ga.random.logistic(0, 1, 3).size)   --> 3
  --- `RandomState:laplace` on the current device's global state (`ga.host.random.laplace`:
  -- the host's); see RandomState:laplace for the arguments.
  -- @function ga.random.laplace
  -- @usage
  -- print(ga.random.laplace(0, 1, 3).size)   --> 3
  --- `RandomState:weibull` on the current device's global state (`ga.host.random.weibull`:
  -- the host's); see RandomState:weibull for the arguments.
  -- @function ga.random.weibull
  -- @usage
  -- print(ga.random.weibull(1.5, 3).size)   --> 3
  --- `RandomState:pareto` on the current device's global state (`ga.host.random.pareto`:
  -- the host's); see RandomState:pareto for the arguments.
  -- @function ga.random.pareto
  -- @usage
  -- print(ga.random.pareto(2, 3).size)   --> 3
  --- `RandomState:power` on the current device's global state (`ga.host.random.power`:
  -- the host's); see RandomState:power for the arguments.
  -- @function ga.random.power
  -- @usage
  -- print(ga.random.power(2, 3).size)   --> 3
  --- `RandomState:rayleigh` on the current device's global state (`ga.host.random.rayleigh`:
  -- the host's); see RandomState:rayleigh for the arguments.
  -- @function ga.random.rayleigh
  -- @usage
  -- print(ga.random.rayleigh(1, 3).size)   --> 3
  --- `RandomState:standard_cauchy` on the current device's global state (`ga.host.random.standard_cauchy`:
  -- the host's); see RandomState:standard_cauchy for the arguments.
  -- @function ga.random.standard_cauchy
  -- @usage
  -- print(ga.random.standard_cauchy(3).size)   --> 3
  --- `RandomState:bytes` on the current device's global state (`ga.host.random.bytes`:
  -- the host's); see RandomState:bytes for the arguments.
  -- @function ga.random.bytes
  -- @usage
  -- print(#ga.random.bytes(5))   --> 5
  --- `RandomState:choice` on the current device's global state (`ga.host.random.choice`:
  -- the host's); see RandomState:choice for the arguments.
  -- @function ga.random.choice
  -- @usage
  -- print(ga.random.choice({10, 20, 30}, 2).size)   --> 2
  --- `RandomState:permutation` on the current device's global state (`ga.host.random.permutation`:
  -- the host's); see RandomState:permutation for the arguments.
  -- @function ga.random.permutation
  -- @usage
  -- print(ga.random.permutation(4):sum():item())   --> 6
  --- `RandomState:shuffle` on the current device's global state (`ga.host.random.shuffle`:
  -- the host's); see RandomState:shuffle for the arguments.
  -- @function ga.random.shuffle
  -- @usage
  -- local x = ga.arange(5)
  -- ga.random.shuffle(x)
  -- print(x:sum():item())   --> 10
  for _, name in ipairs { "rand", "randn", "random", "random_sample", "ranf", "sample", "randint",
                          "random_integers", "uniform", "normal", "standard_normal", "lognormal", "exponential",
                          "standard_exponential", "gumbel", "logistic", "laplace", "weibull", "pareto", "power",
                          "rayleigh", "standard_cauchy", "bytes", "choice", "permutation", "shuffle",
                          "standard_gamma", "gamma", "beta", "chisquare", "f", "standard_t", "poisson",
                          "geometric", "triangular", "wald", "dirichlet", "binomial", "negative_binomial",
                          "hypergeometric", "logseries", "zipf", "vonmises", "multinomial",
                          "multivariate_normal" } do
    local m = State[name]
    R[name] = function(...) return m(global(), ...) end
  end

  -- ---- the Generator API (NumPy's default_rng) on the same stream ----
  local Gen = {}
  Gen.__index = Gen
  Gen.__name = "Generator"

  --- A Generator (NumPy's `default_rng`) on a Philox4x32-10 bit generator.
  -- @function ga.random.default_rng
  -- @param[opt] seed an integer, a table of integers or nil (from the OS)
  -- @usage
  -- local rng = ga.random.default_rng(0)
  -- print(rng:random(3).size, rng:integers(0, 10, 4).dtype)   --> 3	int64
  function R.default_rng(seed)
    return setmetatable({ bit_generator = R.Philox4x3210(seed), spawned = 0 }, Gen)
  end

  --- The Philox4x32-10 bit generator (a RandomState is one, with the
  -- legacy methods).
  -- @function ga.random.Philox4x3210
  -- @usage
  -- local bg = ga.random.Philox4x3210(5)
  -- print(bg:jumped(1):get_state().offset)   --> 0
  function R.Philox4x3210(seed) return new_state(key_of("Philox4x3210", seed)) end

  -- ---- cuRAND's bit generators (GPU only) ----
  local Curand = {}
  Curand.__name = "CurandBitGenerator"
  local CURAND_KIND = { XORWOW = 0, MRG32k3a = 1 }
  local CR_BITS, CR_UNIFORM, CR_NORMAL, CR_LOGNORMAL = 0, 1, 2, 3
  -- a method of the legacy API cuRAND cannot serve: a clear error
  Curand.__index = function(t, k)
    local m = rawget(Curand, k)
    if m ~= nil then return m end
    if type(k) == "string" and State[k] then
      return function()
        error(k .. ": not available on the " .. t.kind .. " bit generator (cuRAND gives bits, uniform, normal and " ..
              "log-normal draws); use ga.random.Philox4x3210", 2)
      end
    end
  end

  local function curand_open(kind, seed, offset)
    if is_host then
      error(kind .. ": cuRAND generators run on a GPU; ga.host.random has Philox4x3210", 3)
    end
    local st = setmetatable({ kind = kind, key = seed, offset = offset }, Curand)
    st.h = core._curand_new(CURAND_KIND[kind], seed, offset)
    return st
  end

  -- A draw from cuRAND and its sequence position after it (measured on an
  -- H100 with CUDA 13: a bit word or a float32 uniform takes one position,
  -- a normal pair one; a split draw continues exactly as one whole draw).
  local function cdraw(self, fname, what, shape, dtype, mean, sd)
    if not self.h then error(fname .. ": the generator is closed", 3) end
    local out = mk.empty(shape, dtype)
    self.h:_draw(what, out, mean, sd)
    local n = out.size
    self.offset = self.offset + ((what == CR_NORMAL or what == CR_LOGNORMAL) and (n + 1) // 2 or n)
    return out
  end

  -- uniforms: float32 cuRAND's, in (0, 1]; float64 from two bit words by
  -- NumPy's formula (53 bits), in [0, 1) (cuRAND's own doubles from XORWOW
  -- advance its sequence by an amount that depends on the count)
  local function cuniform(self, fname, shape, dtype)
    if dtype == "float32" then return cdraw(self, fname, CR_UNIFORM, shape, "float32") end
    local n = 1
    for i = 1, #shape do n = n * shape[i] end
    local g = ga_()
    local w = cdraw(self, fname, CR_BITS, { n, 2 }, "uint32")
    local hi = g.right_shift(w[{ {}, 1 }], 5):astype("float64")
    local lo = g.right_shift(w[{ {}, 2 }], 6):astype("float64")
    return g.multiply(g.add(g.multiply(hi, 67108864.0), lo), 1.1102230246251565e-16):reshape(shape)
  end

  --- cuRAND's XORWOW generator (GPU only; the kind of stream CuPy's legacy
  -- RandomState draws), as a bit generator for `ga.random.Generator`.  It
  -- serves raw bits, uniform, normal and log-normal draws (and what is
  -- made from them: uniform, exponential); other methods say to use
  -- Philox4x3210.  The seed maps to its 64-bit cuRAND seed as for Philox.
  -- @function ga.random.XORWOW
  -- @param[opt] seed an integer, a table of integers or nil (from the OS)
  -- @usage
  -- local rng = ga.random.Generator(ga.random.XORWOW(42))   -- on ga.cuda.Device()
  -- print(rng:standard_normal(5).size)   --> 5
  function R.XORWOW(seed) return curand_open("XORWOW", key_of("XORWOW", seed), 0) end

  --- cuRAND's MRG32k3a generator (GPU only); see ga.random.XORWOW.
  -- @function ga.random.MRG32k3a
  -- @usage
  -- local bg = ga.random.MRG32k3a(1)   -- on ga.cuda.Device()
  -- print(bg:random_raw(4).dtype)   --> uint32
  function R.MRG32k3a(seed) return curand_open("MRG32k3a", key_of("MRG32k3a", seed), 0) end

  --- Raw 32-bit words (uint32) of a cuRAND bit generator.
  -- @function CurandBitGenerator:random_raw
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):random_raw({2, 2}).shape[2])   --> 2
  function Curand:random_raw(size) return cdraw(self, "random_raw", CR_BITS, shape_of("random_raw", size), "uint32") end

  --- Uniform values in [0, 1): float32 cuRAND's (0, 1] with 1 mapped to 0,
  -- float64 53 bits from two raw words (NumPy's formula).
  -- @function CurandBitGenerator:random_sample
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):random_sample(3, "float32").dtype)   --> float32
  function Curand:random_sample(size, dtype)
    local fname = "random"
    dtype = float_dtype(fname, dtype)
    local u = cuniform(self, fname, shape_of(fname, size), dtype)
    if dtype == "float64" then return u end
    local g = ga_()
    return g.where(g.equal(u, 1), 0, u)
  end

  --- Uniform values in [low, high).
  -- @function CurandBitGenerator:uniform
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):uniform(-1, 1, 3).size)   --> 3
  function Curand:uniform(low, high, size, dtype)
    local fname = "uniform"
    low, high = as_param(fname, "low", low or 0.0), as_param(fname, "high", high or 1.0)
    local g = ga_()
    local u = self:random_sample(params_shape(size, low, high), dtype)
    return g.add(g.multiply(u, g.subtract(high, low)), low)
  end

  --- Normal values (cuRAND's Box-Muller).
  -- @function CurandBitGenerator:normal
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):normal(2, 0.5, 3).size)   --> 3
  function Curand:normal(loc, scale, size, dtype)
    local fname = "normal"
    loc, scale = as_param(fname, "loc", loc or 0.0), as_param(fname, "scale", scale or 1.0, "nonneg")
    dtype = float_dtype(fname, dtype)
    local shape = shape_of(fname, params_shape(size, loc, scale))
    if type(loc) == "number" and type(scale) == "number" then
      return cdraw(self, fname, CR_NORMAL, shape, dtype, loc, scale)
    end
    local g = ga_()
    return g.add(g.multiply(cdraw(self, fname, CR_NORMAL, shape, dtype, 0, 1), scale), loc)
  end

  --- Standard normal values.
  -- @function CurandBitGenerator:standard_normal
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):standard_normal(3).size)   --> 3
  function Curand:standard_normal(size, dtype) return self:normal(0.0, 1.0, size, dtype) end

  --- Log-normal values (cuRAND's).
  -- @function CurandBitGenerator:lognormal
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):lognormal(0, 1, 3).size)   --> 3
  function Curand:lognormal(mean, sigma, size, dtype)
    local fname = "lognormal"
    mean, sigma = scalar(fname, "mean", mean or 0.0), scalar(fname, "sigma", sigma or 1.0, "nonneg")
    return cdraw(self, fname, CR_LOGNORMAL, shape_of(fname, size), float_dtype(fname, dtype), mean, sigma)
  end

  --- Exponential values: -log(u) * scale, u cuRAND's uniform in (0, 1].
  -- @function CurandBitGenerator:exponential
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):exponential(2, 3).size)   --> 3
  function Curand:exponential(scale, size, dtype)
    local fname = "exponential"
    scale = as_param(fname, "scale", scale or 1.0, "nonneg")
    local g = ga_()
    dtype = float_dtype(fname, dtype)
    local u = cuniform(self, fname, shape_of(fname, params_shape(size, scale)), dtype)
    if dtype == "float64" then u = g.subtract(1, u) end   -- (0, 1]
    return g.multiply(g.negative(g.log(u)), scale)
  end

  --- Exponential values with mean 1.
  -- @function CurandBitGenerator:standard_exponential
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):standard_exponential(3).size)   --> 3
  function Curand:standard_exponential(size, dtype) return self:exponential(1.0, size, dtype) end

  --- `{kind=, seed=, offset=}`: the generator's seed and sequence position
  -- (one per bit word or float32 uniform, two per float64 uniform, one per
  -- pair of normals).
  -- @function CurandBitGenerator:state
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):state().offset)   --> 0
  function Curand:state() return { kind = self.kind, seed = self.key, offset = self.offset } end

  -- reopen at (key, offset): cuRAND sets up its states again
  local function reopen(self, fname, key, offset)
    if not self.h then error(fname .. ": the generator is closed", 3) end
    self.h:close()
    self.h = nil
    self.h = core._curand_new(CURAND_KIND[self.kind], key, offset)
    self.key, self.offset = key, offset
    return self
  end

  --- Return to a state from `state()`.
  -- @function CurandBitGenerator:set_state
  -- @usage
  -- local bg = ga.random.XORWOW(1)   -- on ga.cuda.Device()
  -- local s = bg:state(); local a = bg:random_raw(3):get(); bg:set_state(s)
  -- print(bg:random_raw(3):get():tolist()[1] == a:tolist()[1])   --> true
  function Curand:set_state(t)
    if type(t) ~= "table" or t.kind ~= self.kind or not math.tointeger(t.seed) or not math.tointeger(t.offset) then
      error("set_state: expected a table {kind=, seed=, offset=} from state() of a " .. self.kind .. " generator", 2)
    end
    return reopen(self, "set_state", t.seed, t.offset)
  end

  --- Seed again (nil: from the OS) and start from offset 0.
  -- @function CurandBitGenerator:seed
  -- @usage
  -- local bg = ga.random.XORWOW(1); bg:seed(2)   -- on ga.cuda.Device()
  function Curand:seed(seed) return reopen(self, "seed", key_of("seed", seed), 0) end

  --- Skip `n` 32-bit values of the sequence.
  -- @function CurandBitGenerator:advance
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):advance(10):state().offset)   --> 10
  function Curand:advance(n)
    local m = math.tointeger(n)
    if not m or m < 0 then error("advance: n must be a non-negative integer", 2) end
    return reopen(self, "advance", self.key, self.offset + m)
  end

  --- A new generator of the same kind on an independent stream (its seed
  -- derived from this one's `jumps` times, as Philox4x3210's jumped).
  -- @function CurandBitGenerator:jumped
  -- @usage
  -- -- needs a GPU: ga.cuda.Device()
  -- print(ga.random.XORWOW(1):jumped():state().seed ~= 0)   --> true
  function Curand:jumped(jumps)
    local j = math.tointeger(jumps or 1)
    if not j or j < 0 then error("jumped: jumps must be a non-negative integer", 2) end
    local key = self.key
    for _ = 1, j do key = splitmix64(key ~ 0x6a09e667f3bcc909) end
    return curand_open(self.kind, key, self.offset)
  end

  --- Release the cuRAND generator now (also at garbage collection; `<close>`
  -- works); idempotent.
  -- @function CurandBitGenerator:close
  -- @usage
  -- local bg <close> = ga.random.MRG32k3a(3)   -- on ga.cuda.Device()
  function Curand:close()
    if self.h then self.h:close(); self.h = nil end
  end
  Curand.__close = Curand.close


  --- A Generator on a given bit generator (Philox4x3210, XORWOW or
  -- MRG32k3a), as NumPy's and CuPy's `Generator(bit_generator)`.
  -- @function ga.random.Generator
  -- @usage
  -- local rng = ga.random.Generator(ga.random.Philox4x3210(7))
  -- print(rng:random(2).size)   --> 2
  function R.Generator(bit_generator)
    local mt = getmetatable(bit_generator)
    if mt ~= State and mt ~= Curand then
      error("Generator: expected a bit generator (Philox4x3210, XORWOW or MRG32k3a), got " .. type(bit_generator), 2)
    end
    return setmetatable({ bit_generator = bit_generator, spawned = 0 }, Gen)
  end

  --- A copy of this state jumped to an independent stream (`jumps` times).
  -- @function RandomState:jumped
  -- @usage
  -- local a = ga.random.RandomState(1)
  -- print(a:jumped():get_state().key ~= a:get_state().key)   --> true
  function State:jumped(jumps)
    local j = math.tointeger(jumps or 1)
    if not j or j < 0 then error("jumped: jumps must be a non-negative integer", 2) end
    local key = self.k0 | (self.k1 << 32)
    for _ = 1, j do key = splitmix64(key ~ 0x6a09e667f3bcc909) end
    local st = new_state(key)
    st.off = self.off
    return st
  end

  local function bg(self) return self.bit_generator end

  --- Uniform values in [0, 1).
  -- @function Generator:random
  -- @usage
  -- print(ga.random.default_rng(1):random({2, 2}, "float32").dtype)   --> float32
  function Gen:random(size, dtype) return bg(self):random_sample(size, dtype) end

  --- Uniform values in [low, high).
  -- @function Generator:uniform
  -- @usage
  -- print(ga.random.default_rng(1):uniform(0, 2, 3).size)   --> 3
  function Gen:uniform(low, high, size, dtype) return bg(self):uniform(low, high, size, dtype) end

  --- Integers in [low, high) (`endpoint = true`: [low, high]).
  -- @function Generator:integers
  -- @usage
  -- print(ga.random.default_rng(1):integers(5, nil, 3):max():item() < 5)   --> true
  function Gen:integers(low, high, size, dtype, endpoint)
    if high == nil then low, high = 0, low end
    if endpoint then high = high + 1 end
    return bg(self):randint(low, high, size, dtype, "integers")
  end

  --- Standard normal values.
  -- @function Generator:standard_normal
  -- @usage
  -- print(ga.random.default_rng(1):standard_normal(3, "float32").dtype)   --> float32
  function Gen:standard_normal(size, dtype) return bg(self):standard_normal(size, dtype) end

  --- Normal values.
  -- @function Generator:normal
  -- @usage
  -- print(ga.random.default_rng(1):normal(0, 1, 3).size)   --> 3
  function Gen:normal(loc, scale, size, dtype) return bg(self):normal(loc, scale, size, dtype) end

  --- Exponential values.
  -- @function Generator:exponential
  -- @usage
  -- print(ga.random.default_rng(1):exponential(1, 3).size)   --> 3
  function Gen:exponential(scale, size, dtype) return bg(self):exponential(scale, size, dtype) end

  --- Standard exponential values.
  -- @function Generator:standard_exponential
  -- @usage
  -- print(ga.random.default_rng(1):standard_exponential(3).size)   --> 3
  function Gen:standard_exponential(size, dtype) return bg(self):standard_exponential(size, dtype) end

  --- Samples of `a` (see RandomState:choice).
  -- @function Generator:choice
  -- @usage
  -- print(ga.random.default_rng(1):choice(10, 4, false).size)   --> 4
  function Gen:choice(a, size, replace, p) return bg(self):choice(a, size, replace, p) end

  --- A permutation (see RandomState:permutation).
  -- @function Generator:permutation
  -- @usage
  -- print(ga.random.default_rng(1):permutation(4).size)   --> 4
  function Gen:permutation(x) return bg(self):permutation(x) end

  --- Shuffle along the first axis, in place.
  -- @function Generator:shuffle
  -- @usage
  -- local x = ga.arange(4)
  -- ga.random.default_rng(1):shuffle(x)
  -- print(x:sum():item())   --> 6
  function Gen:shuffle(x) return bg(self):shuffle(x) end

  --- Standard gamma values (see RandomState:standard_gamma).
  -- @function Generator:standard_gamma
  -- @usage
  -- print(ga.random.default_rng(1):standard_gamma(2, 3).size)   --> 3
  function Gen:standard_gamma(shape, size, dtype) return bg(self):standard_gamma(shape, size, dtype) end

  --- Gamma values (see RandomState:gamma).
  -- @function Generator:gamma
  -- @usage
  -- print(ga.random.default_rng(1):gamma(2, 2, 3).size)   --> 3
  function Gen:gamma(shape, scale, size, dtype) return bg(self):gamma(shape, scale, size, dtype) end

  --- Beta values (see RandomState:beta).
  -- @function Generator:beta
  -- @usage
  -- print(ga.random.default_rng(1):beta(2, 2, 3).size)   --> 3
  function Gen:beta(a, b, size, dtype) return bg(self):beta(a, b, size, dtype) end

  --- Chi-square values (see RandomState:chisquare).
  -- @function Generator:chisquare
  -- @usage
  -- print(ga.random.default_rng(1):chisquare(2, 3).size)   --> 3
  function Gen:chisquare(df, size, dtype) return bg(self):chisquare(df, size, dtype) end

  --- Poisson counts (see RandomState:poisson).
  -- @function Generator:poisson
  -- @usage
  -- print(ga.random.default_rng(1):poisson(2, 3).dtype)   --> int64
  function Gen:poisson(lam, size) return bg(self):poisson(lam, size) end

  --- Geometric counts (see RandomState:geometric).
  -- @function Generator:geometric
  -- @usage
  -- print(ga.random.default_rng(1):geometric(0.5, 3).dtype)   --> int64
  function Gen:geometric(p, size) return bg(self):geometric(p, size) end

  --- Binomial counts (see RandomState:binomial).
  -- @function Generator:binomial
  -- @usage
  -- print(ga.random.default_rng(1):binomial(10, 0.5, 3).dtype)   --> int64
  function Gen:binomial(n, p, size) return bg(self):binomial(n, p, size) end

  --- Negative binomial counts (see RandomState:negative_binomial).
  -- @function Generator:negative_binomial
  -- @usage
  -- print(ga.random.default_rng(1):negative_binomial(3, 0.5, 2).dtype)   --> int64
  function Gen:negative_binomial(n, p, size) return bg(self):negative_binomial(n, p, size) end

  --- Multinomial counts (see RandomState:multinomial).
  -- @function Generator:multinomial
  -- @usage
  -- print(ga.random.default_rng(1):multinomial(10, {0.5, 0.5}, 2).shape[2])   --> 2
  function Gen:multinomial(n, pvals, size) return bg(self):multinomial(n, pvals, size) end

  --- Multivariate normal vectors (see RandomState:multivariate_normal).
  -- @function Generator:multivariate_normal
  -- @usage
  -- print(ga.random.default_rng(1):multivariate_normal({0, 0}, {{1, 0}, {0, 1}}, 3).shape[1])   --> 3
  function Gen:multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)
    return bg(self):multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)
  end

  --- A copy of `x` with the values of each 1-d slice along `axis` shuffled
  -- independently (every value anywhere when `axis` is nil), as NumPy's
  -- `Generator.permuted`; with `out` (which may be `x` itself) the result
  -- is written there and returned.
  -- @function Generator:permuted
  -- @tparam ndarray x
  -- @tparam[opt] integer axis 1-based, negative from the end
  -- @tparam[opt] ndarray out of x's shape
  -- @treturn ndarray
  -- @usage
  -- local x = ga.arange(6):reshape({2, 3})
  -- local y = ga.random.default_rng(1):permuted(x, 2)
  -- print(ga.sort(y, 2):tolist()[1][3])   --> 2
  function Gen:permuted(x, axis, out)
    local fname = "permuted"
    local g = ga_()
    if type(x) == "table" then x = g.array(x) end
    if not is_array(x) then error(fname .. ": expected an array, got " .. type(x), 2) end
    if out ~= nil then
      if not is_array(out) then error(fname .. ": out must be an array", 2) end
      if shape_str(out.shape) ~= shape_str(x.shape) then
        error(fname .. ": out has shape " .. shape_str(out.shape) .. ", x has " .. shape_str(x.shape), 2)
      end
    end
    local res
    if axis == nil or x.ndim <= 1 then
      local flat = g.ravel(x)
      res = g.take(flat, perm_indices(bg(self), flat.size)):reshape(x.shape)
    else
      local ax = math.tointeger(axis)
      if not ax or ax == 0 or ax > x.ndim or ax < -x.ndim then
        error(fname .. ": axis " .. tostring(axis) .. " is out of bounds for a " .. x.ndim .. "-d array", 2)
      end
      if ax < 0 then ax = x.ndim + 1 + ax end
      -- the axis last, rows of length L; each row sorted by keys of its own
      local m = g.moveaxis(x, ax, -1)
      local msh = m.shape
      local L = msh[#msh]
      local rows = m.size // math.max(L, 1)
      local flat = g.reshape(g.ascontiguousarray(m), { rows, L })
      local keys = draw(bg(self), { rows, L }, "float64", UNIFORM, 0, 1)
      local idx = g.argsort(keys, 2)
      local base = g.multiply(g.arange(rows):reshape({ rows, 1 }), L)
      local picked = g.take(g.ravel(flat), g.add(idx, base))
      res = g.moveaxis(picked:reshape(msh), -1, ax)
    end
    if out ~= nil then
      out:set(res)
      return out
    end
    return g.ascontiguousarray(res)
  end

  --- `n` independent child generators (their keys derived from this one's
  -- key and a spawn counter by splitmix64).
  -- @function Generator:spawn
  -- @usage
  -- local kids = ga.random.default_rng(1):spawn(2)
  -- print(#kids)   --> 2
  function Gen:spawn(n)
    local m = math.tointeger(n)
    if not m or m < 0 then error("spawn: n must be a non-negative integer", 2) end
    local b = bg(self)
    local cur = getmetatable(b) == Curand
    local key, out = cur and b.key or b.k0 | (b.k1 << 32), {}
    for i = 1, m do
      self.spawned = self.spawned + 1
      local kk = splitmix64(key ~ splitmix64(self.spawned))
      local kid = cur and curand_open(b.kind, kk, 0) or new_state(kk)
      out[i] = setmetatable({ bit_generator = kid, spawned = 0 }, Gen)
    end
    return out
  end

  R._State, R._Generator, R._Curand = State, Gen, Curand
  return R
end

return { ga = { random = build(core, false) }, host = { random = build(core.host, true) } }
