-- ga.testing (numpy.testing's assertions, for_all_devices/for_all_dtypes)
-- and ga.profiler (benchmark, time_range).
local helper = require "spec.helper"
local ga = helper.ga
local T = ga.testing

local function fails(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return tostring(err)
end

describe("ga.testing", function()
  helper.each_device(function(xp)
    it("assert_allclose passes close arrays and reports the others as NumPy does", function()
      T.assert_allclose(xp.array({ 1, 2, 0 / 0, math.huge }), { 1, 2 + 1e-9, 0 / 0, math.huge })
      T.assert_allclose(xp.array({ 1.0 }), { 1.001 }, 0, 0.01)
      local err = fails(T.assert_allclose, xp.array({ 1, 2, 3 }), { 1, 3, 3.5 })
      for _, part in ipairs { "Not equal to tolerance rtol=1e-07, atol=0", "Mismatched elements: 2 / 3 (66.7%)",
                              "Max absolute difference among violations: 1",
                              "Max relative difference among violations: 0.333333",
                              "First mismatched positions (1-based): (2) (3)" } do
        assert.is_truthy(err:find(part, 1, true), err)
      end
      assert.is_truthy(fails(T.assert_allclose, { 0 / 0 }, { 0 / 0 }, 1e-7, 0, false):find("Mismatched elements: 1 / 1",
                                                                                         1, true))
      assert.is_truthy(fails(T.assert_allclose, xp.zeros({ 2, 2 }), { 0, 0 }):find("mismatch", 1, true))
    end)
    it("assert_array_equal, assert_array_less, assert_array_max_ulp", function()
      T.assert_array_equal(xp.arange(3), { 0, 1, 2 })
      T.assert_array_equal(xp.array({ 0 / 0, 1 }), { 0 / 0, 1 })
      local err = fails(T.assert_array_equal, xp.array({ { 1, 2 }, { 3, 4 } }), { { 1, 2 }, { 3, 5 } })
      assert.is_truthy(err:find("First mismatched positions (1-based): (2, 2)", 1, true), err)
      T.assert_array_less({ 1, 2 }, xp.array({ 2, 3 }))
      assert.is_truthy(fails(T.assert_array_less, { 1, 2 }, { 2, 2 }):find("strictly ordered", 1, true))
      local x = xp.array({ 1.0, -2.0 }, "float32")
      T.assert_array_max_ulp(x, xp.nextafter(x, 0), 1)
      local y = xp.nextafter(xp.nextafter(x, 0), 0)
      assert.is_truthy(fails(T.assert_array_max_ulp, x, y, 1):find("max difference is 2 ULP", 1, true))
      T.assert_array_max_ulp(x, y, 2)
      assert.is_truthy(fails(T.assert_array_max_ulp, xp.arange(2), xp.arange(2)):find("float16, float32 or float64", 1,
                                                                                    true))
    end)
  end)
  it("for_all_devices runs on the host and the GPU and compares; for_all_dtypes names the failing dtype", function()
    local seen = {}
    local h, d = T.for_all_devices(function(xp) seen[#seen + 1] = xp; return xp.sqrt(xp.arange(5)) end)
    assert.are.equal("cpu", helper.devstr(h.device))
    if helper.has_gpu() then
      assert.are.equal(2, #seen)
      assert.are_not.equal("cpu", helper.devstr(d.device))
      local err = fails(T.for_all_devices,
                        function(xp) return xp == ga and ga.arange(3) or ga.host.array({ 0, 1, 7 }) end)
      assert.is_truthy(err:find("GPU against host", 1, true), err)
    else
      assert.are.equal(1, #seen)
      assert.is_nil(d)
    end
    local n = 0
    T.for_all_dtypes(function(dt) n = n + 1; assert.are.equal(dt, ga.host.zeros(1, dt).dtype) end)
    assert.are.equal(14, n)
    local err = fails(T.for_all_dtypes, function(dt) assert(dt ~= "uint16", "boom") end, "unsigned")
    assert.is_truthy(err:find("for_all_dtypes: failed for uint16", 1, true), err)
    assert.is_truthy(fails(T.for_all_dtypes, function() end, "floaty"):find("unknown dtype group 'floaty'", 1, true))
  end)
end)

describe("ga.profiler", function()
  it("benchmark times n_repeat runs (CPU always, GPU with events when there is one) and prints CuPy's line", function()
    local r = ga.profiler.benchmark(function(a) return a + 1 end, { ga.arange(100) },
                                    { n_repeat = 7, n_warmup = 2, name = "add" })
    assert.are.equal(7, #r.cpu_times)
    for _, t in ipairs(r.cpu_times) do assert.is_true(t >= 0) end
    local s = tostring(r)
    assert.is_truthy(s:find("^add%s+:%s+CPU:"), s)
    if helper.has_gpu() and ga.core.get_device() >= 0 then
      assert.are.equal(7, #r.gpu_times)
      assert.is_truthy(s:find("GPU-0:", 1, true), s)
    end
    local short = ga.profiler.benchmark(function() end, nil, { n_repeat = 1000000, max_duration = 0.01 })
    assert.is_true(#short.cpu_times < 1000000)
    assert.is_truthy(fails(ga.profiler.benchmark, 5):find("benchmark: fn must be a function", 1, true))
    assert.is_truthy(fails(ga.profiler.benchmark, print, {}, { n_repeat = 0 }):find("n_repeat must be a positive", 1,
                                                                                    true))
  end)
  it("time_range adds up named ranges and passes errors and results through", function()
    local before = (ga.profiler.ranges().spec_range or { calls = 0 }).calls
    assert.are.equal(6, ga.profiler.time_range("spec_range", function(a, b) return a * b end, 2, 3))
    local err = fails(ga.profiler.time_range, "spec_range", function() error("inside") end)
    assert.is_truthy(err:find("inside", 1, true))
    assert.are.equal(before + 2, ga.profiler.ranges().spec_range.calls)
  end)

  it("time_range is an NVTX range when the library loads (balanced pushes and pops, nested)", function()
    local pushed = ga.core._range_push("spec_probe")
    assert.are.equal("boolean", type(pushed))
    if pushed then ga.core._range_pop() end
    local v = ga.profiler.time_range("outer", function()
      return ga.profiler.time_range("inner", function() return 7 end)
    end)
    assert.are.equal(7, v)
    assert.is_true(ga.profiler.ranges().inner.calls >= 1)
    fails(ga.profiler.time_range, 5, function() end)
  end)
end)
