-- lua/gpuarray/numeric.lua against NumPy 2 (spec/data/numeric_ref.lua, made
-- by tools/gen_numeric_ref.py) on every device, and its bad inputs.
local helper = require "spec.helper"
local ga = helper.ga
local REF = require "spec.data.numeric_ref"

local function is_arr(t) return type(t) == "table" and t.dtype ~= nil and t.v ~= nil end

local function decode(xp, a)
  if type(a) ~= "table" then return a end
  if a["nil"] then return nil end
  if a.list then
    local out = {}
    for i, v in ipairs(a.list) do out[i] = decode(xp, v) end
    return out
  end
  if is_arr(a) then
    local x = xp.array(a.v, a.dtype)
    if #a.shape ~= 1 then x = x:reshape(a.shape) end
    return x
  end
  return a   -- an options table
end

local function close(got, want, tol)
  if want ~= want then return got ~= got end
  if type(want) ~= "number" or want == got then return want == got end
  return math.abs(got - want) <= tol * math.max(1, math.abs(want))
end

local function check(id, got, want)
  if type(want) == "table" and want.list then
    assert.are.equal(#want.list, #got, id .. ": number of results")
    for i = 1, #want.list do check(id .. "[" .. i .. "]", got[i], want.list[i]) end
    return
  end
  if not is_arr(want) then
    if getmetatable(got) == ga.core.ndarray_mt and got.ndim == 0 then got = got:item() end   -- CuPy's 0-d array
    assert.is_true(close(got, want, 1e-12), id .. ": " .. tostring(got) .. " ~= " .. tostring(want))
    return
  end
  assert.is_truthy(ga.core.ndarray_mt == getmetatable(got), id .. ": not an array")
  assert.are.equal(want.dtype, got.dtype, id .. ": dtype")
  assert.are.same(want.shape, got.shape, id .. ": shape")
  local flat = ga.asnumpy(got):ravel():tolist()
  if type(flat) ~= "table" then flat = { flat } end
  local tol = want.dtype == "float32" and 2e-6 or 1e-12
  for i = 1, #want.v do
    assert.is_true(close(flat[i], want.v[i], tol), ("%s: element %d is %s, NumPy %s"):format(id, i, tostring(flat[i]),
                   tostring(want.v[i])))
  end
end

helper.each_device(function(xp)
  describe("against NumPy " .. REF.numpy, function()
    for _, c in ipairs(REF.cases) do
      it(c.id .. " (" .. c.fn .. ")", function()
        local args, n = {}, #c.args
        for i = 1, n do args[i] = decode(xp, c.args[i]) end
        local res = table.pack(xp[c.fn](table.unpack(args, 1, n)))
        local got = res.n > 1 and { table.unpack(res, 1, res.n) } or res[1]
        check(c.id, got, c.want)
      end)
    end
  end)

  describe("convolve and correlate of long sequences (by FFT) equal the direct sums", function()
    local function direct(al, vl, corr)
      local n, k, out = #al, #vl, {}
      for j = 1, n + k - 1 do
        local s = 0
        for i = 1, k do
          local ai
          if corr then ai = al[j - k + i] else ai = al[j - i + 1] end
          if ai then s = s + ai * vl[i] end
        end
        out[j] = s
      end
      return out
    end
    it("float64 and float32, every mode, either longer", function()
      ga.random.seed(3); ga.host.random.seed(3)
      for _, dims in ipairs { { 300, 45 }, { 40, 257 } } do
        for _, dt in ipairs { "float64", "float32" } do
          local a = xp.random.standard_normal(dims[1], dt)
          local v = xp.random.standard_normal(dims[2], dt)
          local al, vl = a:tolist(), v:tolist()
          for _, corr in ipairs { false, true } do
            local want = direct(al, vl, corr)
            local got = (corr and xp.correlate or xp.convolve)(a, v, "full")
            assert.are.equal(dt, got.dtype)
            local gl, worst = got:tolist(), 0
            for j = 1, #want do worst = math.max(worst, math.abs(gl[j] - want[j])) end
            assert.is_true(worst < (dt == "float32" and 1e-3 or 1e-10), dt .. " " .. worst)
            local L, S = math.max(#al, #vl), math.min(#al, #vl)
            assert.are.same({ L }, (corr and xp.correlate or xp.convolve)(a, v, "same").shape)
            assert.are.same({ L - S + 1 }, (corr and xp.correlate or xp.convolve)(a, v, "valid").shape)
          end
        end
      end
    end)
    it("complex: correlate conjugates v", function()
      local a = xp.arange(40, "float64") * xp.array(1 + 0 * 0, "complex128")
      local v = xp.ones(33, "complex128") * xp.sqrt(xp.array(-1, "complex128"))   -- i
      local got = xp.correlate(a, v, "valid"):tolist()   -- sum a[j..j+32] * conj(i) = -i * sum
      for j = 1, #got do
        local s = 0
        for i = j - 1, j + 31 do s = s + i end
        assert.is_true(math.abs(got[j][1]) < 1e-9 and math.abs(got[j][2] + s) < 1e-9)
      end
    end)
  end)

  describe("bad inputs raise a clear error", function()
    local cases = {
      { function() xp.geomspace(0, 10, 3) end, "geomspace: geometric sequence cannot include zero" },
      { function() xp.geomspace(-1, 10, 3) end, "geomspace: start and stop must have the same sign" },
      { function() xp.diff({ 1, 2 }, -1) end, "diff: order must be non-negative but got -1" },
      { function() xp.diff(xp.array(3)) end, "diff: diff requires input that is at least one dimensional" },
      { function() xp.diff({ 1, 2 }, 1, 2) end, "diff: axis 2 is out of range for an array of 1 dimensions" },
      { function() xp.bincount({ 1, -1 }) end, "bincount: x must not hold negative values" },
      { function() xp.bincount({ 1.5 }) end, "bincount: x must hold integers, got float64" },
      { function() xp.bincount({ 1, 2 }, { 1 }) end, "bincount: weights and x must have the same length" },
      { function() xp.digitize({ 1 }, { 1, 3, 2 }) end,
        "digitize: bins must be monotonically increasing or decreasing" },
      { function() xp.histogram({ 1, 2 }, { 0, 2, 1 }) end,
        "histogram: bins must increase monotonically, when an array" },
      { function() xp.histogram({ 1, 2 }, 3, { 2, 1 }) end,
        "histogram: max must be larger than min in range parameter" },
      { function() xp.histogram({ 1, 2 }, 0) end, "histogram: bins must be a positive integer" },
      { function() xp.histogram({ 1, math.huge }) end, "histogram: autodetected range of [1.0, inf] is not finite" },
      { function() xp.interp({ 1 }, { 1, 3, 2 }, { 1, 2, 3 }) end, "interp: xp must be increasing" },
      { function() xp.interp({ 1 }, { 1, 2 }, { 1 }) end, "interp: fp and xp are not of the same length" },
      { function() xp.unravel_index(7, { 2, 3 }) end,
        "unravel_index: index out of bounds for an array of size 6 (positions are 1-based)" },
      { function() xp.unravel_index(0, { 2, 3 }) end,
        "unravel_index: index out of bounds for an array of size 6 (positions are 1-based)" },
      { function() xp.ravel_multi_index({ xp.array({ 3 }), xp.array({ 1 }) }, { 2, 3 }) end,
        "ravel_multi_index: invalid entry in coordinates array 1 (positions are 1 .. 2)" },
      { function() xp.take_along_axis(xp.zeros({ 2, 2 }), xp.array({ { 3 } }), 2) end,
        "take_along_axis: index out of bounds for axis 2 with size 2 (positions are 1-based)" },
      { function() xp.take_along_axis(xp.zeros({ 2, 2 }), xp.array({ 1 }), 2) end,
        "take_along_axis: indices and arr must have the same number of dimensions (1 and 2)" },
      { function() xp.put_along_axis(xp.zeros({ 2 }), xp.array({ 1 }), 1) end,
        "put_along_axis: axis must be given (put_along_axis works in place on arr)" },
      { function() xp.finfo("int32") end, "finfo: not a float dtype: int32" },
      { function() xp.iinfo("float32") end, "iinfo: not an integer dtype: float32" },
      { function() xp.broadcast_shapes({ 2 }, { 3 }) end,
        "broadcast_shapes: shape mismatch: objects cannot be broadcast to a single shape" },
      { function() xp.meshgrid({ 1 }, { 2 }, { indexing = "yx" }) end, "meshgrid: indexing must be 'xy' or 'ij'" },
      { function() xp.vander(xp.zeros({ 2, 2 })) end, "vander: x must be a one-dimensional array" },
      { function() xp.cumulative_sum(xp.zeros({ 2, 2 })) end,
        "cumulative_sum: axis must be given for an array of more than one dimension" },
      { function() xp.nan_to_num(xp.array({ 1 }, "complex64")) end,
        "nan_to_num: complex arrays are not supported yet" },
      { function() xp.quantile({ 1, 2 }, 1.5) end, "quantile: quantiles must be in the range [0, 1]" },
      { function() xp.percentile({ 1, 2 }, -1) end, "percentile: percentiles must be in the range [0, 100]" },
      { function() xp.percentile({ 1, 2 }, 0 / 0) end, "percentile: percentiles must be in the range [0, 100]" },
      { function() xp.quantile({ 1, 2 }, 0.5, nil, "median") end, "quantile: unknown method 'median'" },
      { function() xp.quantile(xp.zeros({ 2, 0 }), 0.5, 2) end, "quantile: cannot take a quantile of an empty axis" },
      { function() xp.cov(xp.zeros({ 2, 2, 2 })) end, "cov: m has more than 2 dimensions" },
      { function() xp.correlate({ 1, 2 }, { 1 }, "middle") end,
        "correlate: mode must be 'full', 'same' or 'valid', got 'middle'" },
      { function() xp.convolve({}, { 1 }) end, "convolve: a and v cannot be empty" },
      { function() xp.select({ xp.array({ 1, 0 }) }, { 1 }) end,
        "select: invalid entry 1 in condlist: should be boolean ndarray" },
      { function() xp.select({ xp.array({ true }) }, {}) end,
        "select: list of cases must be same length as list of conditions" },
      { function() xp.choose(xp.array({ 3 }), { { 1 }, { 2 } }) end,
        "choose: invalid entry in choice array (positions are 1 .. 2)" },
      { function() xp.delete({ 1, 2 }, 3) end,
        "delete: index out of bounds for axis 1 with size 2 (positions are 1-based)" },
      { function() xp.insert({ 1, 2 }, 4, 0) end, "insert: index 4 is out of bounds for axis 1 with size 2" },
      { function() xp.putmask(xp.zeros(3), xp.array({ true }), 1) end, "putmask: mask and data must be the same size" },
      { function() xp.gradient({ 1 }) end, "gradient: shape of the array too small to calculate a numerical gradient" },
      { function() xp.gradient({ 1, 2 }, 1, nil, 3) end, "gradient: edge_order must be 1 or 2" },
      { function() xp.pad({ 1, 2 }, -1) end, "pad: pad_width must hold non-negative integers, got -1" },
      { function() xp.pad({ 1, 2 }, 1, "mirror") end, "pad: mode 'mirror' is not supported" },
      { function() xp.pad({ 1, 2 }, { 1, 2, 3 }) end,
        "pad: pad_width must be a number, a pair or one pair per axis (1)" },
      { function() xp.pad(xp.zeros({ 0 }), 1, "edge") end, "pad: can't extend an empty axis 1 using mode 'edge'" },
      { function() xp.pad({ 1 }, 1, "reflect", { reflect_type = "wide" }) end,
        "pad: reflect_type must be 'even' or 'odd'" },
      { function() xp.pad({ 1 }, 1, "constant", { fill = 1 }) end, "pad: unknown option 'fill'" },
      { function() xp.histogramdd(xp.zeros({ 3, 2 }), { 2, 2, 2 }) end,
        "histogramdd: the dimension of bins must be equal to the dimension of the sample x" },
      { function() xp.histogram2d({ 1, 2 }, { 1 }) end, "histogram2d: x and y must have the same length" },
      { function() xp.piecewise(xp.zeros(2), { xp.array({ true, false }) }, { 1, 2, 3 }) end,
        "piecewise: with 1 condition(s), either 1 or 2 functions are expected" },
    }
    for i, c in ipairs(cases) do
      it("case " .. i .. ": " .. c[2], function()
        local ok, err = pcall(c[1])
        assert.is_false(ok)
        assert.is_truthy(tostring(err):find(c[2], 1, true), tostring(err))
      end)
    end
  end)

  it("place and putmask write in place (through views too); real_if_close drops tiny imaginary parts", function()
    local a = xp.arange(6)
    xp.place(a, xp.greater(a, 2), { 44, 55 })
    assert.are.same({ 0, 1, 2, 44, 55, 44 }, ga.asnumpy(a):tolist())
    local b = xp.zeros({ 2, 3 }, "int64")
    local bt = b.T
    xp.putmask(bt, xp.array({ { true, false }, { false, true }, { true, true } }), xp.arange(6))
    assert.are.same({ { 0, 0, 4 }, { 0, 3, 5 } }, ga.asnumpy(b):tolist())
    local z = xp.zeros(2, "complex128")
    xp.add(z.real, xp.array({ 1.5, 2 }), { out = z.real })
    xp.add(z.imag, 1e-15, { out = z.imag })
    local r = xp.real_if_close(z)
    assert.are.equal("float64", r.dtype)
    assert.are.same({ 1.5, 2 }, ga.asnumpy(r):tolist())
    xp.add(z.imag, 1e-9, { out = z.imag })
    assert.are.equal("complex128", xp.real_if_close(z).dtype)
  end)
  it("put_along_axis writes through a non-contiguous view; nan_to_num(copy=false) works in place", function()
    local a = xp.zeros({ 3, 4 }, "int64")
    local v = a[{ {}, { 1, 4, 2 } }]                    -- columns 1 and 3
    xp.put_along_axis(v, xp.array({ { 2 }, { 1 }, { 2 } }), 5, 2)
    assert.are.same({ { 0, 0, 5, 0 }, { 5, 0, 0, 0 }, { 0, 0, 5, 0 } }, ga.asnumpy(a):tolist())
    local x = xp.array({ 0 / 0, 1 })
    assert.are.equal(x, xp.nan_to_num(x, false))
    assert.are.same({ 0, 1 }, ga.asnumpy(x):tolist())
  end)
end)
