--- Window functions (NumPy's): `ga.hamming`, `ga.hanning`, `ga.blackman`,
-- `ga.bartlett` and `ga.kaiser`, and the same on `ga.host`. Each gives M
-- float64 values, symmetric, with NumPy's formulas evaluated in NumPy's
-- order; M = 0 gives an empty array, M = 1 `{1.0}`, a negative M is an
-- error.
-- @module gpuarray.window
local C = require "gpuarray.util"
local fail, typename = C.fail, C.typename

local function build(host)
  local W = {}
  local G = C.lazy_module(host)

  local function len_of(fname, M)
    local m = type(M) == "number" and math.tointeger(M)
    if not m then fail(fname, "the window length must be an integer, got %s", typename(M)) end
    if m < 0 then fail(fname, "the window length must be >= 0, got %d", m) end
    return m
  end

  -- arange(...) with an allocation error raised as fname's
  local function arange(fname, ...)
    local ok, r = pcall(G().arange, ...)
    if ok then return r end
    fail(fname, "%s", (tostring(r):gsub("^.-:%d+: ", ""):gsub("^[%w_.]+: ", "")))
  end

  -- the cosine windows: a0 + a1 cos(pi n / (M-1)) [+ a2 cos(2 pi n / (M-1))],
  -- n = 1-M, 3-M, ..., M-1
  local function cosine(fname, M, a0, a1, a2)
    local m = len_of(fname, M)
    local g = G()
    if m == 0 then return g.zeros(0) end
    if m == 1 then return g.ones(1) end
    local n = arange(fname, 1 - m, m, 2)
    local t = g.divide(g.multiply(n, math.pi), m - 1.0)
    local r = g.add(a0, g.multiply(a1, g.cos(t)))
    if a2 then
      local t2 = g.divide(g.multiply(n, 2.0 * math.pi), m - 1.0)
      r = g.add(r, g.multiply(a2, g.cos(t2)))
    end
    return r
  end

  --- The Hamming window `0.54 + 0.46 cos(pi n / (M-1))`.
  -- @function ga.hamming
  -- @tparam int M the number of points (>= 0)
  -- @treturn ndarray float64
  -- @usage print(ga.hamming(3))   --> array([0.08, 1.  , 0.08])
  function W.hamming(M) return cosine("hamming", M, 0.54, 0.46) end

  --- The Hann window `0.5 + 0.5 cos(pi n / (M-1))`.
  -- @function ga.hanning
  -- @tparam int M the number of points (>= 0)
  -- @treturn ndarray float64
  -- @usage print(ga.hanning(3))   --> array([0., 1., 0.])
  function W.hanning(M) return cosine("hanning", M, 0.5, 0.5) end

  --- The Blackman window `0.42 + 0.5 cos(pi n / (M-1)) + 0.08 cos(2 pi n / (M-1))`.
  -- @function ga.blackman
  -- @tparam int M the number of points (>= 0)
  -- @treturn ndarray float64
  -- @usage print(ga.blackman(3))
  function W.blackman(M) return cosine("blackman", M, 0.42, 0.5, 0.08) end

  --- The Bartlett (triangular) window: `1 + n/(M-1)` for n <= 0, else
  -- `1 - n/(M-1)`.
  -- @function ga.bartlett
  -- @tparam int M the number of points (>= 0)
  -- @treturn ndarray float64
  -- @usage print(ga.bartlett(5))   --> array([0. , 0.5, 1. , 0.5, 0. ])
  function W.bartlett(M)
    local m = len_of("bartlett", M)
    local g = G()
    if m == 0 then return g.zeros(0) end
    if m == 1 then return g.ones(1) end
    local n = arange("bartlett", 1 - m, m, 2)
    local q = g.divide(n, m - 1.0)
    return g.where(g.less_equal(n, 0), g.add(1, q), g.subtract(1, q))
  end

  --- The Kaiser window `i0(beta sqrt(1 - ((n - alpha)/alpha)^2)) / i0(beta)`,
  -- n = 0 .. M-1, alpha = (M-1)/2.
  -- @function ga.kaiser
  -- @tparam int M the number of points (>= 0)
  -- @tparam number beta the shape parameter
  -- @treturn ndarray float64
  -- @usage print(ga.kaiser(3, 5.0))
  function W.kaiser(M, beta)
    local m = len_of("kaiser", M)
    if type(beta) ~= "number" then fail("kaiser", "beta must be a number, got %s", typename(beta)) end
    local g = G()
    if m == 0 then return g.zeros(0) end
    if m == 1 then return g.ones(1) end
    local n = arange("kaiser", 0, m)
    local alpha = (m - 1) / 2.0
    local q = g.divide(g.subtract(n, alpha), alpha)
    local w = g.i0(g.multiply(beta, g.sqrt(g.subtract(1, g.power(q, 2.0)))))
    local d = g.i0(g.array(beta + 0.0)):item()
    return g.divide(w, d)
  end

  --- The modified Bessel function of the first kind, order 0 (a ufunc:
  -- float16, float32, float64; integers give float64, as NumPy's loops).
  -- @function ga.i0
  -- @param x array or number
  -- @treturn ndarray
  -- @usage print(ga.i0(ga.array({0.0, 1.0})))   --> array([1.        , 1.26606588])
  return W
end

return { ga = build(false), host = build(true) }
