--- Discrete Fourier transforms: `ga.fft` (arrays on the current device,
-- cuFFT) and `ga.host.fft` (host arrays, our own mixed-radix FFT), with
-- CuPy's and NumPy's names and rules.
--
-- **Arguments.** Each function takes NumPy's positional arguments
-- (`fft(a, n, axis, norm)`, `fftn(a, s, axes, norm)`) or, after `a`, one
-- options table with the same names (`fft(a, {n = 8, axis = 1})`), which
-- also takes `out` (an array of the result's shape and dtype that receives
-- it). Axes are 1-based, negative from the end (-1, the default, is the
-- last). `n` (or an entry of `s`) shorter than the axis crops it, longer
-- pads it with zeros; -1 in `s` keeps the axis's length. `norm` is
-- `"backward"` (the default: the inverse divides by n), `"ortho"` (both
-- directions divide by sqrt(n)) or `"forward"` (the forward transform
-- divides by n).
--
-- **dtypes** (NumPy 2): complex64 and float32 (float16 promoted to float32)
-- transform in single precision, everything else (float64, complex128,
-- integers, bool) in double; complex transforms give complex64/complex128,
-- `irfft` and `hfft` float32/float64. Inputs are never modified, whatever
-- their layout (any strides, negative ones included).
--
-- **Plans.** Plans (twiddles; on a GPU cuFFT plans, whose work areas come
-- from the allocator in use at each execution) are cached per device: see
-- `ga.fft.config`.
-- @module gpuarray.fft
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local C2C, R2C, C2R = 0, 1, 2

local function build(host)
  local F = {}
  local G = C.lazy_module(host)

  -- f(...) (an allocation: zeros, arange ...) with its error, if any, raised
  -- as fname's: "fname: array is too big ...", not "zeros: ..."
  local function alloc(fname, f, ...)
    local ok, r = pcall(f, ...)
    if ok then return r end
    local msg = tostring(r):gsub("^.-:%d+: ", ""):gsub("^[%w_.]+: ", "")
    fail(fname, "%s", msg)
  end

  local function arr(fname, x) return C.input(fname, x, G().asarray) end
  local OUT = { out = true }
  local function args(fname, names, ...) return C.named_args(fname, names, OUT, ...) end

  local function axis_of(fname, x, axis)
    if axis == nil then axis = -1 end
    local a = type(axis) == "number" and math.tointeger(axis)
    if not a or a == 0 or a > x.ndim or a < -x.ndim then
      fail(fname, "axis %s is out of range for an array of %d dimensions (axes are 1-based)", tostring(axis), x.ndim)
    end
    return a < 0 and x.ndim + 1 + a or a
  end

  local function count_of(fname, n, what)
    local i = type(n) == "number" and math.tointeger(n)
    if not i then fail(fname, "%s must be an integer, got %s", what or "n", typename(n)) end
    if i < 1 then fail(fname, "invalid number of data points (%d) specified", i) end
    return i
  end

  local NORMS = { backward = true, ortho = true, forward = true }
  local function norm_of(fname, norm)
    if norm == nil then return "backward" end
    if not NORMS[norm] then
      fail(fname, 'invalid norm value %s; should be "backward", "ortho" or "forward"', tostring(norm))
    end
    return norm
  end
  local SWAP = { backward = "forward", forward = "backward", ortho = "ortho" }

  local function scale_of(norm, n, inverse)
    if norm == "ortho" then return 1 / math.sqrt(n) end
    if (norm == "backward") == inverse then return 1 / n end
    return 1
  end

  -- the dtype a transform of kind reads (NumPy 2's promotion)
  local SINGLE = { float16 = true, float32 = true, complex64 = true }
  local function cast_for(fname, x, kind)
    local dt = x.dtype
    local want
    if kind == R2C then
      if dt:match("^complex") then fail(fname, "the input must be real, got %s", dt) end
      want = SINGLE[dt] and "float32" or "float64"
    else
      want = SINGLE[dt] and "complex64" or "complex128"
    end
    if dt == want then return x end
    return x:astype(want)
  end

  -- x cropped or zero-padded to `len` values along axis ax
  local function fit(fname, x, ax, len)
    local have = x.shape[ax]
    if have == len then return x end
    local key = {}
    for d = 1, x.ndim do key[d] = {} end
    if have > len then
      key[ax] = { 1, len }
      return x[key]
    end
    local shape = x.shape
    shape[ax] = len
    local z = alloc(fname, G().get_array_module(x).zeros, shape, x.dtype)   -- on x's device
    if have > 0 then
      key[ax] = { 1, have }
      z[key] = x
    end
    return z
  end

  -- one batched 1-D transform: x an array, ax a positive axis, n >= 1
  local function one(fname, x, kind, inverse, n, ax, norm)
    x = cast_for(fname, x, kind)
    x = fit(fname, x, ax, kind == C2R and n // 2 + 1 or n)
    local scale = scale_of(norm, n, inverse)
    -- cuFFT's real<->complex transforms need every signal's data aligned to
    -- the complex size (CUFFT_INVALID_VALUE otherwise): on a GPU, a view or
    -- a transform along another axis than the last runs on a fresh
    -- C-contiguous copy with the axis last (one batch of signals, one exec)
    if kind ~= C2C and x.device.id >= 0 and (ax ~= x.ndim or x.base ~= nil or not x.flags.c_contiguous) then
      local g, last = G(), x.ndim
      local xm = (ax ~= last and g.moveaxis(x, ax, last) or x):copy()
      local r = core._fft(xm, last, kind, inverse, n, scale, fname)
      if ax == last then return r end
      return g.ascontiguousarray(g.moveaxis(r, last, ax))
    end
    return core._fft(x, ax, kind, inverse, n, scale, fname)
  end

  local function deliver(fname, r, out)
    if out == nil then return r end
    C.arg(fname, out, "out")
    local a, b = out.shape, r.shape
    local same = #a == #b and out.dtype == r.dtype
    for i = 1, #a do same = same and a[i] == b[i] end
    if not same then
      fail(fname, "out must have shape (%s) and dtype %s, got (%s) %s", table.concat(b, ","), r.dtype,
           table.concat(a, ","), out.dtype)
    end
    out[G().ellipsis] = r
    return out
  end

  -- 1-D functions
  local CPLX = { complex64 = true, complex128 = true }
  local function def1(name, kind, inverse, default_n)
    F[name] = function(a, ...)
      -- the fast path: a complex array and no other argument
      if kind == C2C and select("#", ...) == 0 and is_array(a) and CPLX[a.dtype] and a.ndim > 0 then
        return core._fft(a, -1, C2C, inverse, nil, nil, name)
      end
      local fname = name
      local o = args(fname, { "n", "axis", "norm" }, ...)
      local x = arr(fname, a)
      local ax = axis_of(fname, x, o.axis)
      local norm = norm_of(fname, o.norm)
      local n = o.n == nil and default_n(x.shape[ax]) or o.n
      n = count_of(fname, n)
      return deliver(fname, one(fname, x, kind, inverse, n, ax, norm), o.out)
    end
  end
  local same_len = function(len) return len end
  def1("fft", C2C, false, same_len)
  def1("ifft", C2C, true, same_len)
  def1("rfft", R2C, false, same_len)
  def1("irfft", C2R, true, function(len) return 2 * (len - 1) end)

  --- The 1-D discrete Fourier transform along one axis.
  -- @function ga.fft.fft
  -- @param a array (or a table of numbers)
  -- @tparam[opt] int n the transform's length (crop or zero-pad the axis; default its length)
  -- @tparam[opt=-1] int axis the axis (1-based, negative from the end)
  -- @tparam[opt="backward"] string norm `"backward"`, `"ortho"` or `"forward"`
  -- @treturn ndarray complex64 or complex128
  -- @usage
  -- print(ga.fft.fft(ga.array({1.0, 2.0, 3.0, 4.0})))
  -- --> array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])

  --- The inverse of `fft`: `ifft(fft(a))` is `a` (with the default norm the
  -- inverse divides by n).
  -- @function ga.fft.ifft
  -- @param a array
  -- @tparam[opt] int n
  -- @tparam[opt=-1] int axis
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray complex64 or complex128
  -- @usage
  -- print(ga.fft.ifft(ga.array({10.0, -2.0, -2.0, -2.0})))
  -- --> array([1.+0.j, 3.+0.j, 3.+0.j, 3.+0.j])

  --- The transform of a real input: the n//2+1 non-negative frequency terms.
  -- A complex input is an error.
  -- @function ga.fft.rfft
  -- @param a real array
  -- @tparam[opt] int n
  -- @tparam[opt=-1] int axis
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray complex64 (float32 input) or complex128
  -- @usage
  -- print(ga.fft.rfft(ga.array({1.0, 2.0, 3.0, 4.0})))
  -- --> array([10.+0.j, -2.+2.j, -2.+0.j])

  --- The inverse of `rfft`: a real signal of length n (default
  -- `2 * (m - 1)` for m input values) from its non-negative frequency terms;
  -- `irfft(rfft(x), #x)` is x, also for odd lengths when n is given.
  -- @function ga.fft.irfft
  -- @param a array (the n//2+1 terms along axis)
  -- @tparam[opt] int n the output's length
  -- @tparam[opt=-1] int axis
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray float32 or float64
  -- @usage
  -- print(ga.fft.irfft(ga.fft.rfft(ga.array({1.0, 2.0, 3.0})), 3))
  -- --> array([1., 2., 3.])

  --- The transform of a signal with Hermitian symmetry (the `n//2+1`
  -- first values given): a real spectrum, `irfft(conj(a))` with the norm's
  -- direction swapped.
  -- @function ga.fft.hfft
  -- @param a array
  -- @tparam[opt] int n the output's length (default `2 * (m - 1)`)
  -- @tparam[opt=-1] int axis
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray float32 or float64
  -- @usage
  -- print(ga.fft.hfft(ga.array({1.0, 2.0, 3.0}), 4))   --> array([8., -2., 0., -2.])
  function F.hfft(a, ...)
    local fname = "hfft"
    local o = args(fname, { "n", "axis", "norm" }, ...)
    local x = arr(fname, a)
    local ax = axis_of(fname, x, o.axis)
    local norm = SWAP[norm_of(fname, o.norm)]
    local n = count_of(fname, o.n == nil and 2 * (x.shape[ax] - 1) or o.n)
    x = cast_for(fname, x, C2C)
    return deliver(fname, one(fname, G().conj(x), C2R, true, n, ax, norm), o.out)
  end

  --- The inverse of `hfft`: `conj(rfft(a))` with the norm's direction
  -- swapped.
  -- @function ga.fft.ihfft
  -- @param a real array
  -- @tparam[opt] int n
  -- @tparam[opt=-1] int axis
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray complex64 or complex128
  -- @usage
  -- print(ga.fft.ihfft(ga.array({8.0, -2.0, 0.0, -2.0})))
  -- --> array([1.-0.j, 2.-0.j, 3.-0.j])
  function F.ihfft(a, ...)
    local fname = "ihfft"
    local o = args(fname, { "n", "axis", "norm" }, ...)
    local x = arr(fname, a)
    local ax = axis_of(fname, x, o.axis)
    local norm = SWAP[norm_of(fname, o.norm)]
    local n = count_of(fname, o.n == nil and x.shape[ax] or o.n)
    local r = G().conj(one(fname, x, R2C, false, n, ax, norm))
    return deliver(fname, r, o.out)
  end

  -- NumPy's _cook_nd_args: (s, axes) as lists of positive axes and lengths
  local function cook(fname, x, s, axes, invreal, two)
    if s ~= nil and (type(s) ~= "table" or is_array(s)) then
      fail(fname, "s must be a table of integers, got %s", typename(s))
    end
    if axes ~= nil and math.type(axes) == "integer" then axes = { axes } end
    if axes ~= nil and (type(axes) ~= "table" or is_array(axes)) then
      fail(fname, "axes must be a table of integers, got %s", typename(axes))
    end
    if axes == nil and two then axes = { -2, -1 } end
    local ax = {}
    if axes == nil then
      local k = s and #s or x.ndim
      if k > x.ndim then fail(fname, "s has %d entries for an array of %d dimensions", k, x.ndim) end
      for i = 1, k do ax[i] = x.ndim - k + i end
    else
      for i = 1, #axes do ax[i] = axis_of(fname, x, axes[i]) end
    end
    local seen = {}
    for i, a in ipairs(ax) do
      if seen[a] then fail(fname, "repeated axis in axes (axis %d)", a) end
      seen[a] = true
      ax[i] = a
    end
    local n = {}
    if s == nil then
      for i, a in ipairs(ax) do n[i] = x.shape[a] end
      if invreal and #ax > 0 then n[#ax] = 2 * (x.shape[ax[#ax]] - 1) end
    else
      if #s ~= #ax then fail(fname, "shape and axes have different lengths (%d and %d)", #s, #ax) end
      for i = 1, #s do
        local v = type(s[i]) == "number" and math.tointeger(s[i])
        if not v then fail(fname, "s must be a table of integers") end
        if v == -1 then
          v = x.shape[ax[i]]
          if invreal and i == #s then v = 2 * (v - 1) end
        end
        n[i] = count_of(fname, v, "s")
      end
    end
    for i = 1, #n do count_of(fname, n[i]) end
    return n, ax
  end

  local function defn(name, kind, inverse, two)
    F[name] = function(a, ...)
      local fname = name
      local o = args(fname, { "s", "axes", "norm" }, ...)
      local x = arr(fname, a)
      local norm = norm_of(fname, o.norm)
      local n, ax = cook(fname, x, o.s, o.axes, kind == C2R, two)
      if #ax == 0 then return deliver(fname, cast_for(fname, x, kind == R2C and R2C or C2C):copy(), o.out) end
      if kind == C2C and (#ax == 2 or #ax == 3) and x.device.id >= 0 then
        -- on a GPU, one rank-2/3 cuFFT plan where the layout allows
        local y, total = cast_for(fname, x, C2C), 1
        for i = 1, #ax do
          y = fit(fname, y, ax[i], n[i])
          total = total * n[i]
        end
        local r = core._fftn(y, ax, inverse, scale_of(norm, total, inverse), fname)
        if r then return deliver(fname, r, o.out) end
        x = y
      end
      if kind == C2C then
        for i = #ax, 1, -1 do x = one(fname, x, C2C, inverse, n[i], ax[i], norm) end
      elseif kind == R2C then
        x = one(fname, x, R2C, false, n[#ax], ax[#ax], norm)
        for i = #ax - 1, 1, -1 do x = one(fname, x, C2C, false, n[i], ax[i], norm) end
      else
        for i = 1, #ax - 1 do x = one(fname, x, C2C, true, n[i], ax[i], norm) end
        x = one(fname, x, C2R, true, n[#ax], ax[#ax], norm)
      end
      return deliver(fname, x, o.out)
    end
  end
  defn("fft2", C2C, false, true)
  defn("ifft2", C2C, true, true)
  defn("fftn", C2C, false, false)
  defn("ifftn", C2C, true, false)
  defn("rfft2", R2C, false, true)
  defn("irfft2", C2R, true, true)
  defn("rfftn", R2C, false, false)
  defn("irfftn", C2R, true, false)

  --- The 2-D transform: `fftn` over axes `{-2, -1}` by default.
  -- @function ga.fft.fft2
  -- @param a array
  -- @tparam[opt] {int,...} s lengths (crop or pad), one per axis
  -- @tparam[opt={-2,-1}] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.fft2(ga.array({{1.0, 2.0}, {3.0, 4.0}})))
  -- --> array([[10.+0.j, -2.+0.j],
  -- -->        [-4.+0.j,  0.+0.j]])

  --- The inverse of `fft2`.
  -- @function ga.fft.ifft2
  -- @param a array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt={-2,-1}] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- local x = ga.array({{1.0, 2.0}, {3.0, 4.0}})
  -- print(ga.fft.ifft2(ga.fft.fft2(x)).real)
  -- --> array([[1., 2.],
  -- -->        [3., 4.]])

  --- The N-D transform over `axes` (default: all, or the last `#s`), one
  -- axis after the other; repeated axes are an error.
  -- @function ga.fft.fftn
  -- @param a array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.fftn(ga.ones({2, 2, 2})).real:sum())   --> 8.0

  --- The inverse of `fftn`.
  -- @function ga.fft.ifftn
  -- @param a array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- local x = ga.arange(8.0):reshape({2, 2, 2})
  -- print(ga.allclose(ga.fft.ifftn(ga.fft.fftn(x)).real, x))   --> true

  --- The 2-D transform of a real input (`rfftn` over `{-2, -1}`).
  -- @function ga.fft.rfft2
  -- @param a real array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt={-2,-1}] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.rfft2(ga.ones({2, 4})).shape)   --> {2, 3}

  --- The inverse of `rfft2`.
  -- @function ga.fft.irfft2
  -- @param a array
  -- @tparam[opt] {int,...} s the output's lengths (the last default `2 * (m - 1)`)
  -- @tparam[opt={-2,-1}] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.irfft2(ga.fft.rfft2(ga.ones({2, 4}))))
  -- --> array([[1., 1., 1., 1.],
  -- -->        [1., 1., 1., 1.]])

  --- The N-D transform of a real input: `rfft` over the last of `axes`,
  -- then `fft` over the others.
  -- @function ga.fft.rfftn
  -- @param a real array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.rfftn(ga.ones({2, 2, 4})).shape)   --> {2, 2, 3}

  --- The inverse of `rfftn`: `ifft` over all but the last of `axes`, then
  -- `irfft` over the last.
  -- @function ga.fft.irfftn
  -- @param a array
  -- @tparam[opt] {int,...} s
  -- @tparam[opt] {int,...} axes
  -- @tparam[opt="backward"] string norm
  -- @treturn ndarray
  -- @usage
  -- local x = ga.arange(12.0):reshape({2, 6})
  -- print(ga.allclose(ga.fft.irfftn(ga.fft.rfftn(x), {2, 6}), x))   --> true

  local function num(fname, v, what)
    if type(v) ~= "number" then fail(fname, "%s must be a number, got %s", what, typename(v)) end
    return v
  end

  --- The sample frequencies of `fft(x)` for n values taken every d:
  -- `{0, 1, ..., ceil(n/2)-1, -floor(n/2), ..., -1} / (d n)` (float64).
  -- @function ga.fft.fftfreq
  -- @tparam int n the window length (>= 1)
  -- @tparam[opt=1.0] number d the sample spacing
  -- @treturn ndarray float64
  -- @usage
  -- print(ga.fft.fftfreq(4, 0.5))   --> array([ 0. ,  0.5, -1. , -0.5])
  function F.fftfreq(n, d)
    local fname = "fftfreq"
    n = count_of(fname, n)
    d = d == nil and 1.0 or num(fname, d, "d")
    local g = G()
    local half = (n - 1) // 2 + 1
    local i = g.concatenate({ alloc(fname, g.arange, 0, half), alloc(fname, g.arange, -(n // 2), 0) })
    return g.multiply(i, 1.0 / (n * d))
  end

  --- The sample frequencies of `rfft(x)`: `{0, 1, ..., n//2} / (d n)`.
  -- @function ga.fft.rfftfreq
  -- @tparam int n the window length (>= 1)
  -- @tparam[opt=1.0] number d the sample spacing
  -- @treturn ndarray float64
  -- @usage
  -- print(ga.fft.rfftfreq(4))   --> array([0.  , 0.25, 0.5 ])
  function F.rfftfreq(n, d)
    local fname = "rfftfreq"
    n = count_of(fname, n)
    d = d == nil and 1.0 or num(fname, d, "d")
    local g = G()
    return g.multiply(alloc(fname, g.arange, 0, n // 2 + 1), 1.0 / (n * d))
  end

  local function shift(fname, x, axes, sign)
    x = arr(fname, x)
    if type(axes) == "table" and not is_array(axes) and axes.axes ~= nil then axes = axes.axes end
    local ax = {}
    if axes == nil then
      for d = 1, x.ndim do ax[d] = d end
    elseif math.type(axes) == "integer" then
      ax[1] = axis_of(fname, x, axes)
    elseif type(axes) == "table" and not is_array(axes) then
      for i = 1, #axes do ax[i] = axis_of(fname, x, axes[i]) end
    else
      fail(fname, "axes must be an integer or a table of integers, got %s", typename(axes))
    end
    if #ax == 0 then return x:copy() end
    local sh = {}
    for i, a in ipairs(ax) do
      local len = x.shape[a]
      sh[i] = sign > 0 and len // 2 or -(len // 2)
    end
    return G().roll(x, sh, ax)
  end

  --- Moves the zero-frequency term to the centre: rolls each of `axes`
  -- (default all) by half its length.
  -- @function ga.fft.fftshift
  -- @param x array
  -- @tparam[opt] int|{int,...} axes
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.fftshift(ga.fft.fftfreq(5)))   --> array([-0.4, -0.2,  0. ,  0.2,  0.4])
  function F.fftshift(x, axes) return shift("fftshift", x, axes, 1) end

  --- The inverse of `fftshift` (they differ for odd lengths).
  -- @function ga.fft.ifftshift
  -- @param x array
  -- @tparam[opt] int|{int,...} axes
  -- @treturn ndarray
  -- @usage
  -- print(ga.fft.ifftshift(ga.fft.fftshift(ga.arange(5))))   --> array([0, 1, 2, 3, 4])
  function F.ifftshift(x, axes) return shift("ifftshift", x, axes, -1) end

  F.config = require("gpuarray.fft_config")(host)
  return F
end

return { ga = { fft = build(false) }, host = { fft = build(true) } }
