-- ga.fft / ga.host.fft, the window functions and i0 against NumPy 2
-- (spec/data/fft_ref.lua, made by tools/gen_fft_ref.py) on every device;
-- layouts (transposed, stepped, negative strides), round trips, the GPU
-- against the host, the plan cache, and bad inputs.
local helper = require "spec.helper"
local ga = helper.ga
local REF = require "spec.data.fft_ref"

local decode = helper.decode_ref

-- max |got - want| <= tol * max(1, max |want|), real and imaginary parts
local function check(id, got, want)
  assert.is_truthy(ga.core.ndarray_mt == getmetatable(got), id .. ": not an array")
  assert.are.equal(want.dtype, got.dtype, id .. ": dtype")
  assert.are.same(want.shape, got.shape, id .. ": shape")
  local single = want.dtype == "float32" or want.dtype == "complex64"
  local tol = single and 2e-6 or 1e-13
  local h = ga.asnumpy(got)
  local parts = { { h.real, want.re } }
  if want.im then parts[2] = { h.imag, want.im } end
  local scale = 1
  for _, p in ipairs(parts) do
    for _, v in ipairs(p[2]) do
      if math.abs(v) > scale and v == v and math.abs(v) < math.huge then scale = math.abs(v) end
    end
  end
  for _, p in ipairs(parts) do
    local flat = p[1]:ravel():tolist()
    if type(flat) ~= "table" then flat = { flat } end
    for i, w in ipairs(p[2]) do
      local g = flat[i]
      local ok = g == w or (w ~= w and g ~= g) or math.abs(g - w) <= tol * scale
      if not ok then
        error(("%s: element %d is %.17g, NumPy %.17g (tolerance %g)"):format(id, i, g, w, tol * scale))
      end
    end
  end
end

local function fn_of(xp, name)
  local t = xp
  for part in name:gmatch("[^.]+") do t = t[part] end
  return t
end

helper.each_device(function(xp)
  describe("against NumPy " .. REF.numpy, function()
    for _, c in ipairs(REF.cases) do
      it(c.id .. " (" .. c.fn .. ")", function()
        local args, n = {}, #c.args
        for i = 1, n do args[i] = decode(xp, c.args[i]) end
        check(c.id, fn_of(xp, c.fn)(table.unpack(args, 1, n)), c.want)
      end)
    end
  end)

  describe("layouts and round trips", function()
    local base = xp.random.RandomState(7):standard_normal({ 6, 8 })
    local z = ga.add(base, ga.multiply(xp.random.RandomState(8):standard_normal({ 6, 8 }), 0)):astype("complex128")
    z.imag[ga.ellipsis] = xp.random.RandomState(9):standard_normal({ 6, 8 })

    it("a transposed input gives the transform of its copy", function()
      local t = z.T
      helper.assert_close(xp.fft.fft(t), xp.fft.fft(t:copy()))
      helper.assert_close(xp.fft.fft(t, nil, 1), xp.fft.fft(t:copy(), nil, 1))
      helper.assert_close(xp.fft.rfft(base.T), xp.fft.rfft(base.T:copy()))
      helper.assert_close(xp.fft.irfft(z.T), xp.fft.irfft(z.T:copy()))
    end)

    it("stepped and negative-stride inputs", function()
      local s = z[{ {}, { 1, 8, 2 } }]
      helper.assert_close(xp.fft.fft(s), xp.fft.fft(s:copy()))
      local r = z[{ {}, { 8, 1, -1 } }]
      helper.assert_close(xp.fft.fft(r), xp.fft.fft(r:copy()))
      helper.assert_close(xp.fft.fftn(r), xp.fft.fftn(r:copy()))
      local rb = base[{ { 6, 1, -2 }, {} }]
      helper.assert_close(xp.fft.rfft(rb, nil, 1), xp.fft.rfft(rb:copy(), nil, 1))
    end)

    it("inputs are never modified (irfft included)", function()
      local before = z:copy()
      xp.fft.irfft(z)
      xp.fft.irfftn(z)
      xp.fft.hfft(z)
      assert.is_true(ga.array_equal(z, before))
    end)

    it("irfft(rfft(x), n) and ifftn(fftn(x)) give x back", function()
      for _, n in ipairs { 1, 2, 7, 8, 9, 97, 100 } do
        local x = xp.random.RandomState(n):standard_normal(n)
        helper.assert_close(xp.fft.irfft(xp.fft.rfft(x), n), x)
        local y = x:astype("float32")
        helper.assert_close(xp.fft.irfft(xp.fft.rfft(y), n), y, { rtol = 1e-5 })
      end
      local x3 = xp.random.RandomState(3):standard_normal({ 3, 5, 4 }):astype("complex128")
      helper.assert_close(xp.fft.ifftn(xp.fft.fftn(x3)), x3)
      helper.assert_close(xp.fft.irfftn(xp.fft.rfftn(base), base.shape), base)
    end)

    it("options table and out=", function()
      local a = xp.fft.fft(z, { n = 5, axis = 1, norm = "ortho" })
      helper.assert_close(a, xp.fft.fft(z, 5, 1, "ortho"))
      local out = xp.zeros({ 6, 8 }, "complex128")
      local r = xp.fft.fft(z, { out = out })
      assert.are.equal(out, r)
      helper.assert_close(out, xp.fft.fft(z))
    end)

    it("a 2^12 length and a large prime length agree with their inverse", function()
      for _, n in ipairs { 4096, 4099 } do
        local x = xp.random.RandomState(n):standard_normal(n):astype("complex128")
        helper.assert_close(xp.fft.ifft(xp.fft.fft(x)), x, { rtol = 1e-11, atol = 1e-11 })
      end
    end)
  end)

  describe("bad inputs raise a clear error", function()
    local x = xp.ones({ 4, 6 })
    local cases = {
      { function() xp.fft.fft(x, 0) end, "fft: invalid number of data points (0) specified" },
      { function() xp.fft.fft(x, -3) end, "fft: invalid number of data points (-3) specified" },
      { function() xp.fft.fft(x, nil, 3) end, "fft: axis 3 is out of range for an array of 2 dimensions" },
      { function() xp.fft.fft(x, nil, 0) end, "fft: axis 0 is out of range" },
      { function() xp.fft.fftn(x, nil, { 1, 1 }) end, "fftn: repeated axis in axes" },
      { function() xp.fft.fftn(x, { 2, 3 }, { 1 }) end, "fftn: shape and axes have different lengths" },
      { function() xp.fft.fft(x, nil, nil, "sideways") end, 'fft: invalid norm value sideways' },
      { function() xp.fft.irfft(xp.ones(1)) end, "irfft: invalid number of data points (0) specified" },
      { function() xp.fft.rfft(xp.ones(3, "complex64")) end, "rfft: the input must be real, got complex64" },
      { function() xp.fft.fft(x, { m = 3 }) end, "fft: unknown option 'm'" },
      { function() xp.fft.fft("abc") end, "fft: the input must be an array" },
      { function() xp.fft.fft(x, { out = xp.zeros(3) }) end, "fft: out must have shape (4,6) and dtype complex128" },
      { function() xp.fft.fftfreq(0) end, "fftfreq: invalid number of data points (0) specified" },
      { function() xp.fft.fft(x, 1 << 62) end, "fft: array is too big" },
      { function() xp.fft.irfft(x, 1 << 62) end, "irfft: array is too big" },
      { function() xp.fft.fft(x, "8") end, "fft: n must be an integer, got string" },
      { function() xp.fft.fft(x, nil, "1") end, "fft: axis 1 is out of range" },
      { function() xp.fft.fftn(x, { 2, "3" }) end, "fftn: s must be a table of integers" },
      { function() xp.fft.fftfreq(1 << 62) end, "fftfreq: array is too big" },
      { function() xp.hamming(1 << 62) end, "hamming: array is too big" },
      { function() xp.kaiser(1 << 62, 1.0) end, "kaiser: array is too big" },
      { function() xp.hamming(-1) end, "hamming: the window length must be >= 0, got -1" },
      { function() xp.kaiser(-2, 1.0) end, "kaiser: the window length must be >= 0, got -2" },
      { function() xp.kaiser(3) end, "kaiser: beta must be a number" },
      { function() xp.hanning(2.5) end, "hanning: the window length must be an integer" },
      { function() xp.fft.config.get_plan_cache():set_size(-5) end,
        "set_size: expected -1 (no limit) or a value >= 0" },
    }
    for i, c in ipairs(cases) do
      it("case " .. i .. ": " .. c[2], function() helper.assert_error(c[1], c[2]) end)
    end
  end)
end)

describe("the small-FFT kernels", function()
  it("compile with NVRTC for every length and precision", function()
    local core = ga.core
    for logn = 1, 12 do
      assert.is_true(core._compile_fft(false, logn, 90) > 0, "complex64 2^" .. logn)
      if logn <= 11 then assert.is_true(core._compile_fft(true, logn, 90) > 0, "complex128 2^" .. logn) end
    end
    assert.has_error(function() core._compile_fft(true, 12) end, "_compile_fft: no small-FFT kernel of that length")
  end)
end)

describe("the host plan cache", function()
  local cache = ga.host.fft.config.get_plan_cache()
  after_each(function()
    cache:set_size(16)
    cache:set_memsize(-1)
  end)

  it("a second call with the same length creates no plan", function()
    cache:clear()
    local x = ga.host.ones(1000, "complex128")
    ga.host.fft.fft(x)
    local c1 = cache:info().created
    ga.host.fft.fft(x)
    ga.host.fft.ifft(x)
    assert.are.equal(c1, cache:info().created)
    assert.are.equal(1, cache:get_curr_size())
  end)

  it("the size limit evicts, least recently used first", function()
    cache:clear()
    cache:set_size(2)
    for _, n in ipairs { 10, 11, 12 } do ga.host.fft.fft(ga.host.ones(n, "complex128")) end
    assert.are.equal(2, cache:get_curr_size())
    local made = cache:info().created
    ga.host.fft.fft(ga.host.ones(12, "complex128"))   -- still there
    assert.are.equal(made, cache:info().created)
    ga.host.fft.fft(ga.host.ones(10, "complex128"))   -- evicted
    assert.are.equal(made + 1, cache:info().created)
  end)

  it("the memsize limit evicts, clear empties, size 0 turns caching off", function()
    cache:clear()
    ga.host.fft.fft(ga.host.ones(4096, "complex128"))
    ga.host.fft.fft(ga.host.ones(15, "complex128"))
    local m = cache:get_curr_memsize()
    assert.is_true(m > 0)
    cache:set_memsize(m - 1)
    assert.is_true(cache:get_curr_memsize() <= m - 1)
    assert.are.equal(1, cache:get_curr_size())
    cache:clear()
    assert.are.equal(0, cache:get_curr_size())
    assert.are.equal(0, cache:get_curr_memsize())
    cache:set_size(0)
    ga.host.fft.fft(ga.host.ones(8, "complex128"))
    assert.are.equal(0, cache:get_curr_size())
  end)
end)

describe("the GPU against the host", function()
  if not helper.has_gpu() then
    pending("no GPU")
    return
  end
  local function both(f) helper.assert_gpu_vs_host(f, { rtol = 1e-10, atol = 1e-10 }) end
  local function both32(f) helper.assert_gpu_vs_host(f, { rtol = 1e-4, atol = 1e-4 }) end
  local function data(xp, shape, dt)
    local x = xp.random.RandomState(11):standard_normal(shape)
    if dt and dt:match("complex") then
      local z = x:astype(dt)
      z.imag[ga.ellipsis] = xp.random.RandomState(12):standard_normal(shape)
      return z
    end
    return dt and x:astype(dt) or x
  end

  it("c2c, r2c, c2r on contiguous, transposed and stepped inputs", function()
    for _, dt in ipairs { "complex128", "complex64" } do
      local cmp = dt == "complex64" and both32 or both
      cmp(function(xp) return xp.fft.fft(data(xp, { 16, 30 }, dt)) end)
      cmp(function(xp) return xp.fft.fft(data(xp, { 16, 30 }, dt), nil, 1) end)
      cmp(function(xp) return xp.fft.ifft(data(xp, { 16, 30 }, dt).T) end)
      cmp(function(xp) return xp.fft.fft(data(xp, { 16, 30 }, dt)[{ { 1, 16, 3 }, { 30, 1, -2 } }]) end)
      cmp(function(xp) return xp.fft.fftn(data(xp, { 4, 6, 10 }, dt), nil, { 3, 1 }) end)
      cmp(function(xp) return xp.fft.fft(data(xp, { 3, 1009 }, dt)) end)
    end
    for _, dt in ipairs { "float64", "float32" } do
      local cmp = dt == "float32" and both32 or both
      cmp(function(xp) return xp.fft.rfft(data(xp, { 16, 30 }, dt)) end)
      cmp(function(xp) return xp.fft.rfft(data(xp, { 16, 30 }, dt), nil, 1) end)
      cmp(function(xp) return xp.fft.rfftn(data(xp, { 16, 30 }, dt).T) end)
      local cdt = dt == "float32" and "complex64" or "complex128"
      cmp(function(xp) return xp.fft.irfft(data(xp, { 16, 30 }, cdt), 57) end)
      cmp(function(xp) return xp.fft.irfft(data(xp, { 16, 30 }, cdt).T, nil, 1) end)
      cmp(function(xp) return xp.fft.irfftn(data(xp, { 5, 8, 9 }, cdt)) end)
    end
  end)

  it("small power-of-two transforms (our own kernel): lengths, batches, strides, inverse, norms", function()
    for _, dt in ipairs { "complex128", "complex64" } do
      local cmp = dt == "complex64" and both32 or both
      for _, n in ipairs { 2, 4, 8, 64, 512, 1024, 2048, 4096 } do
        cmp(function(xp) return xp.fft.fft(data(xp, { n }, dt)) end)
        cmp(function(xp) return xp.fft.ifft(data(xp, { n }, dt)) end)
      end
      cmp(function(xp) return xp.fft.fft(data(xp, { 7, 256 }, dt)) end)                 -- a batch
      cmp(function(xp) return xp.fft.fft(data(xp, { 64, 9 }, dt), nil, 1) end)          -- strided signals
      cmp(function(xp) return xp.fft.ifft(data(xp, { 32, 40 }, dt)[{ { 32, 1, -1 }, { 1, 40, 5 } }], nil, 1) end)
      cmp(function(xp) return xp.fft.fft(data(xp, { 3, 5, 16 }, dt)) end)               -- two batch axes: cuFFT
      cmp(function(xp) return xp.fft.fft(data(xp, { 128 }, dt), nil, nil, "ortho") end)
      cmp(function(xp) return xp.fft.ifft(data(xp, { 128 }, dt), nil, nil, "forward") end)
      cmp(function(xp) return xp.fft.fft(data(xp, { 100 }, dt), 128) end)              -- padded to 2^7
    end
  end)

  it("several axes in one plan (fft2, fftn, ifftn) on nesting and other layouts", function()
    local made = ga.fft.config.get_plan_cache():info().created
    for _, dt in ipairs { "complex128", "complex64" } do
      local cmp = dt == "complex64" and both32 or both
      cmp(function(xp) return xp.fft.fft2(data(xp, { 12, 20 }, dt)) end)
      cmp(function(xp) return xp.fft.ifft2(data(xp, { 3, 12, 20 }, dt)) end)                -- batch before
      cmp(function(xp) return xp.fft.fftn(data(xp, { 6, 5, 7, 3 }, dt), nil, { 1, 3 }) end) -- apart, 2 batch axes
      cmp(function(xp) return xp.fft.fftn(data(xp, { 6, 5, 7, 3 }, dt), nil, { 2, 3, 4 }) end)
      cmp(function(xp) return xp.fft.ifftn(data(xp, { 6, 5, 7 }, dt), nil, nil, "ortho") end)
      cmp(function(xp) return xp.fft.fft2(data(xp, { 12, 20 }, dt).T) end)                  -- out order differs
      cmp(function(xp) return xp.fft.fft2(data(xp, { 12, 20 }, dt)[{ { 1, 12, 2 }, { 20, 1, -3 } }]) end)
      cmp(function(xp) return xp.fft.fft2(data(xp, { 12, 20 }, dt)[{ { 2, 11 }, { 3, 17 } }]) end)
      cmp(function(xp) return xp.fft.fft2(data(xp, { 12, 20 }, dt), { 16, 9 }) end)        -- pad and crop
      cmp(function(xp) return xp.fft.fft2(data(xp, { 1, 20 }, dt)) end)                   -- a length-1 axis
    end
    assert.is_true(ga.fft.config.get_plan_cache():info().created > made)
  end)

  it("windows and i0", function()
    for _, w in ipairs { "hamming", "hanning", "blackman", "bartlett" } do
      both(function(xp) return xp[w](33) end)
    end
    helper.assert_gpu_vs_host(function(xp) return xp.kaiser(33, 8.6) end, { rtol = 1e-12, atol = 1e-14 })
    -- i0 grows as exp(x): the two exps (CUDA, libm) differ by up to ~1e-14 relative at x ~ 300
    helper.assert_gpu_vs_host(function(xp) return xp.i0(xp.linspace(-30, 300, 101)) end, { rtol = 1e-13 })
  end)

  it("the device plan cache: hits, limits, clear returns the memory", function()
    local cache = ga.fft.config.get_plan_cache()
    local pool = ga.get_default_memory_pool()
    cache:clear()
    local x = ga.ones({ 64, 1000 }, "complex64")   -- not a power of two: cuFFT
    ga.fft.fft(x)
    local made = cache:info().created
    ga.fft.fft(x)
    assert.are.equal(made, cache:info().created)
    assert.are.equal(1, cache:get_curr_size())
    cache:set_size(1)
    ga.fft.fft(ga.ones(1000, "complex64"))
    assert.are.equal(1, cache:get_curr_size())
    cache:set_size(16)
    ga.fft.fft(ga.ones(1 << 20, "complex64"))
    ga.cuda.Device():synchronize()
    local m = cache:get_curr_memsize()
    cache:set_memsize(math.max(0, m - 1))
    assert.is_true(cache:get_curr_memsize() <= math.max(0, m - 1))
    cache:set_memsize(-1)
    x:free()
    collectgarbage()
    local used = pool:used_bytes()
    ga.fft.fft(ga.ones(1 << 16, "complex128"))
    collectgarbage()
    cache:clear()
    ga.cuda.Device():synchronize()
    assert.is_true(pool:used_bytes() <= used)
    pool:free_all_blocks()
  end)
end)
