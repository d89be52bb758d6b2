-- Creation functions: default dtypes, shapes as integers or tables, 0-d and
-- size-0 arrays, values of arange/linspace/eye/identity.
local helper = require "spec.helper"
local ga = helper.ga

helper.each_device(function(xp, dev)
  describe("filled creation", function()
    -- { call, expected dtype, expected shape, expected table }
    local rows = {
      { "zeros(3)", function() return xp.zeros(3) end, "float64", { 3 }, { 0.0, 0.0, 0.0 } },
      { "zeros({3})", function() return xp.zeros({ 3 }) end, "float64", { 3 }, { 0.0, 0.0, 0.0 } },
      { "zeros({2,3}, 'int32')", function() return xp.zeros({ 2, 3 }, "int32") end, "int32", { 2, 3 },
        { { 0, 0, 0 }, { 0, 0, 0 } } },
      { "zeros({2,3}, {dtype='int32'})", function() return xp.zeros({ 2, 3 }, { dtype = "int32" }) end,
        "int32", { 2, 3 }, { { 0, 0, 0 }, { 0, 0, 0 } } },
      { "ones(2)", function() return xp.ones(2) end, "float64", { 2 }, { 1.0, 1.0 } },
      { "ones({2,1}, 'uint8')", function() return xp.ones({ 2, 1 }, "uint8") end, "uint8", { 2, 1 }, { { 1 }, { 1 } } },
      { "ones(2, 'bool')", function() return xp.ones(2, "bool") end, "bool", { 2 }, { true, true } },
      { "zeros(2, 'bool')", function() return xp.zeros(2, "bool") end, "bool", { 2 }, { false, false } },
      { "full(2, 7) -> int64", function() return xp.full(2, 7) end, "int64", { 2 }, { 7, 7 } },
      { "full(2, 2.5) -> float64", function() return xp.full(2, 2.5) end, "float64", { 2 }, { 2.5, 2.5 } },
      { "full(2, true) -> bool", function() return xp.full(2, true) end, "bool", { 2 }, { true, true } },
      { "full({1,2}, 3, 'float32')", function() return xp.full({ 1, 2 }, 3, "float32") end, "float32", { 1, 2 },
        { { 3.0, 3.0 } } },
      { "full(2, 2.5, 'int32') truncates", function() return xp.full(2, 2.5, "int32") end, "int32", { 2 }, { 2, 2 } },
      { "full(2, -1, {dtype='int8'})", function() return xp.full(2, -1, { dtype = "int8" }) end, "int8", { 2 },
        { -1, -1 } },
      { "zeros({}) is 0-d", function() return xp.zeros({}) end, "float64", {}, 0.0 },
      { "full({}, 5) is 0-d", function() return xp.full({}, 5) end, "int64", {}, 5 },
      { "zeros(0) has size 0", function() return xp.zeros(0) end, "float64", { 0 }, {} },
      { "ones({2,0}) has size 0", function() return xp.ones({ 2, 0 }) end, "float64", { 2, 0 }, { {}, {} } },
      { "zeros({0,3}, 'int16')", function() return xp.zeros({ 0, 3 }, "int16") end, "int16", { 0, 3 }, {} },
      { "full({2,2,2}, 1.5, 'float16')", function() return xp.full({ 2, 2, 2 }, 1.5, "float16") end, "float16",
        { 2, 2, 2 }, { { { 1.5, 1.5 }, { 1.5, 1.5 } }, { { 1.5, 1.5 }, { 1.5, 1.5 } } } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.same(r[4], x.shape)
        assert.are.equal(dev.name, helper.devstr(x.device))
        assert.are.same(r[5], x:totable())
      end)
    end

    it("empty has the requested shape, dtype and device", function()
      for _, shape in ipairs { 3, { 2, 3 }, {}, 0, { 4, 0, 2 } } do
        local x = xp.empty(shape, "float32")
        assert.are.equal("float32", x.dtype)
        assert.are.same(type(shape) == "table" and shape or { shape }, x.shape)
        assert.are.equal(dev.name, helper.devstr(x.device))
      end
      assert.are.equal("float64", xp.empty(2).dtype)
    end)

    it("0-d arrays: ndim 0, size 1, shape {}", function()
      local x = xp.ones({})
      assert.are.equal(0, x.ndim)
      assert.are.equal(1, x.size)
      assert.are.same({}, x.shape)
      assert.are.equal(1.0, x:item())
    end)

    it("size-0 arrays: size 0, nbytes 0", function()
      local x = xp.zeros({ 3, 0 }, "float32")
      assert.are.equal(0, x.size)
      assert.are.equal(0, x.nbytes)
      assert.are.equal(2, x.ndim)
    end)
  end)

  describe("*_like", function()
    local a = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
    local rows = {
      { "empty_like", function() return xp.empty_like(a) end, "int32", nil },
      { "empty_like with dtype", function() return xp.empty_like(a, "float32") end, "float32", nil },
      { "zeros_like", function() return xp.zeros_like(a) end, "int32", { { 0, 0, 0 }, { 0, 0, 0 } } },
      { "zeros_like with dtype", function() return xp.zeros_like(a, "float64") end, "float64",
        { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0 } } },
      { "ones_like", function() return xp.ones_like(a) end, "int32", { { 1, 1, 1 }, { 1, 1, 1 } } },
      { "ones_like {dtype='bool'}", function() return xp.ones_like(a, { dtype = "bool" }) end, "bool",
        { { true, true, true }, { true, true, true } } },
      { "full_like", function() return xp.full_like(a, 9) end, "int32", { { 9, 9, 9 }, { 9, 9, 9 } } },
      { "full_like with a float keeps the int dtype", function() return xp.full_like(a, 2.5) end, "int32",
        { { 2, 2, 2 }, { 2, 2, 2 } } },
      { "full_like with dtype", function() return xp.full_like(a, 2.5, "float32") end, "float32",
        { { 2.5, 2.5, 2.5 }, { 2.5, 2.5, 2.5 } } },
      { "zeros_like of a transposed view has the view's shape", function() return xp.zeros_like(a.T) end, "int32",
        { { 0, 0 }, { 0, 0 }, { 0, 0 } } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.equal(dev.name, helper.devstr(x.device))
        if r[4] then
          assert.are.same(r[4], x:totable())
        else
          assert.are.same(a.shape, x.shape)
        end
      end)
    end
  end)

  describe("array / asarray / ascontiguousarray / copy", function()
    it("array from nested tables", function()
      local x = xp.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
      assert.are.same({ 3, 2 }, x.shape)
      assert.are.equal("int64", x.dtype)
      assert.are.same({ { 1, 2 }, { 3, 4 }, { 5, 6 } }, x:totable())
    end)
    it("array from a number is 0-d", function()
      local x = xp.array(2.5)
      assert.are.same({}, x.shape)
      assert.are.equal(2.5, x:item())
    end)
    it("array with a dtype converts", function()
      assert.are.same({ 1.0, 2.0 }, xp.array({ 1, 2 }, "float32"):totable())
      assert.are.equal("float32", xp.array({ 1, 2 }, { dtype = "float32" }).dtype)
    end)
    it("array of an empty table is float64 of shape {0}", function()
      local x = xp.array({})
      assert.are.same({ 0 }, x.shape)
      assert.are.equal("float64", x.dtype)
    end)
    it("array always copies", function()
      local a = xp.array({ 1, 2, 3 })
      local b = xp.array(a)
      assert.is_false(rawequal(a, b))
      b:set({ 7, 8, 9 })
      assert.are.same({ 1, 2, 3 }, a:totable())
    end)
    it("asarray of an array on this device with its dtype is that array", function()
      local a = xp.array({ 1, 2, 3 }, "float32")
      assert.is_true(rawequal(a, xp.asarray(a)))
      assert.is_true(rawequal(a, xp.asarray(a, "float32")))
    end)
    it("asarray with another dtype converts", function()
      local a = xp.array({ 1, 2, 3 }, "int32")
      local b = xp.asarray(a, "float64")
      assert.is_false(rawequal(a, b))
      assert.are.equal("float64", b.dtype)
      assert.are.same({ 1.0, 2.0, 3.0 }, b:totable())
    end)
    it("ascontiguousarray of a transposed view is C-contiguous with the same values", function()
      local a = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
      local t = a.T
      assert.is_false(t.flags.c_contiguous)
      local c = xp.ascontiguousarray(t)
      assert.is_true(c.flags.c_contiguous)
      assert.are.same({ 3, 2 }, c.shape)
      assert.are.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, c:totable())
      assert.are.same({ 8, 4 }, c.strides)
      assert.are.equal("float64", xp.ascontiguousarray(t, "float64").dtype)
    end)
    it("copy and :copy() make independent arrays", function()
      local a = xp.array({ 1.5, 2.5 })
      for _, c in ipairs { ga.copy(a), a:copy(), xp.copy(a) } do
        assert.is_false(rawequal(a, c))
        assert.are.equal(dev.name, helper.devstr(c.device))
        assert.are.same({ 1.5, 2.5 }, c:totable())
        c:set({ 0, 0 })
        assert.are.same({ 1.5, 2.5 }, a:totable())
      end
    end)
    it("copy of a transposed view is C-contiguous", function()
      local a = xp.array({ { 1, 2 }, { 3, 4 } }).T
      local c = a:copy()
      assert.is_true(c.flags.c_contiguous)
      assert.are.same({ { 1, 3 }, { 2, 4 } }, c:totable())
    end)
  end)

  describe("arange", function()
    local rows = {
      { "arange(5)", function() return xp.arange(5) end, "int64", { 0, 1, 2, 3, 4 } },
      { "arange(2, 6)", function() return xp.arange(2, 6) end, "int64", { 2, 3, 4, 5 } },
      { "arange(1, 10, 3)", function() return xp.arange(1, 10, 3) end, "int64", { 1, 4, 7 } },
      { "arange(5, 0, -1)", function() return xp.arange(5, 0, -1) end, "int64", { 5, 4, 3, 2, 1 } },
      { "arange(10, 0, -3)", function() return xp.arange(10, 0, -3) end, "int64", { 10, 7, 4, 1 } },
      { "arange(0, 1, 0.25)", function() return xp.arange(0, 1, 0.25) end, "float64", { 0.0, 0.25, 0.5, 0.75 } },
      { "arange(1, 0, -0.25)", function() return xp.arange(1, 0, -0.25) end, "float64", { 1.0, 0.75, 0.5, 0.25 } },
      { "arange(5.0)", function() return xp.arange(5.0) end, "float64", { 0.0, 1.0, 2.0, 3.0, 4.0 } },
      { "arange(0.5, 3)", function() return xp.arange(0.5, 3) end, "float64", { 0.5, 1.5, 2.5 } },
      { "arange(-3, 3, 2)", function() return xp.arange(-3, 3, 2) end, "int64", { -3, -1, 1 } },
      { "arange(0, 5, 1, 'float32')", function() return xp.arange(0, 5, 1, "float32") end, "float32",
        { 0.0, 1.0, 2.0, 3.0, 4.0 } },
      { "arange(0, 4, 1, {dtype='uint8'})", function() return xp.arange(0, 4, 1, { dtype = "uint8" }) end, "uint8",
        { 0, 1, 2, 3 } },
      { "arange(0)", function() return xp.arange(0) end, "int64", {} },
      { "arange(3, 3)", function() return xp.arange(3, 3) end, "int64", {} },
      { "arange(3, 1) is empty", function() return xp.arange(3, 1) end, "int64", {} },
      { "arange(0, 5, -1) is empty", function() return xp.arange(0, 5, -1) end, "int64", {} },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.equal(dev.name, helper.devstr(x.device))
        assert.are.same({ #r[4] }, x.shape)
        helper.assert_close(x, r[4])
      end)
    end
    it("arange(0, 1, 0.1) has NumPy's length 10 and values i*0.1", function()
      local x = xp.arange(0, 1, 0.1)
      assert.are.same({ 10 }, x.shape)
      local want = {}
      for i = 0, 9 do want[#want + 1] = i * 0.1 end
      helper.assert_close(x, want)
    end)
    it("arange with step 0 is an error", function()
      helper.assert_error(function() xp.arange(0, 5, 0) end, "arange: ")
    end)
  end)

  describe("linspace", function()
    local rows = {
      { "linspace(0, 1, 5)", function() return xp.linspace(0, 1, 5) end, "float64", { 0, 0.25, 0.5, 0.75, 1 } },
      { "linspace(0, 1, 5, {endpoint=false})", function() return xp.linspace(0, 1, 5, { endpoint = false }) end,
        "float64", { 0, 0.2, 0.4, 0.6, 0.8 } },
      { "linspace(2, -2, 3)", function() return xp.linspace(2, -2, 3) end, "float64", { 2, 0, -2 } },
      { "linspace(3, 7, 1)", function() return xp.linspace(3, 7, 1) end, "float64", { 3 } },
      { "linspace(3, 7, 0)", function() return xp.linspace(3, 7, 0) end, "float64", {} },
      { "linspace(0, 1, 3, {dtype='float32'})", function() return xp.linspace(0, 1, 3, { dtype = "float32" }) end,
        "float32", { 0, 0.5, 1 } },
      { "linspace(0, 10, 5, {dtype='int64'}) computes in float then truncates",
        function() return xp.linspace(0, 10, 5, { dtype = "int64" }) end, "int64", { 0, 2, 5, 7, 10 } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.same({ #r[4] }, x.shape)
        helper.assert_close(x, r[4], { rtol = 1e-6, atol = 1e-12 })
      end)
    end
    it("linspace(0, 1) has 50 points, last exactly 1", function()
      local t = xp.linspace(0, 1):totable()
      assert.are.equal(50, #t)
      assert.are.equal(0.0, t[1])
      assert.are.equal(1.0, t[50])
      helper.assert_close(t[2], 1 / 49)
    end)
  end)

  describe("eye / identity", function()
    local rows = {
      { "eye(3)", function() return xp.eye(3) end, "float64", { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } },
      { "eye(2, 3)", function() return xp.eye(2, 3) end, "float64", { { 1, 0, 0 }, { 0, 1, 0 } } },
      { "eye(3, 2)", function() return xp.eye(3, 2) end, "float64", { { 1, 0 }, { 0, 1 }, { 0, 0 } } },
      { "eye(3, 3, 1)", function() return xp.eye(3, 3, 1) end, "float64", { { 0, 1, 0 }, { 0, 0, 1 }, { 0, 0, 0 } } },
      { "eye(3, 3, -1)", function() return xp.eye(3, 3, -1) end, "float64", { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } },
      { "eye(2, nil, 0, 'int32')", function() return xp.eye(2, nil, 0, "int32") end, "int32", { { 1, 0 }, { 0, 1 } } },
      { "eye(2, {dtype='bool'})", function() return xp.eye(2, { dtype = "bool" }) end, "bool",
        { { true, false }, { false, true } } },
      { "eye(2, 2, 5) is all zeros", function() return xp.eye(2, 2, 5) end, "float64", { { 0, 0 }, { 0, 0 } } },
      { "identity(2)", function() return xp.identity(2) end, "float64", { { 1, 0 }, { 0, 1 } } },
      { "identity(3, 'float32')", function() return xp.identity(3, "float32") end, "float32",
        { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } },
      { "identity(0)", function() return xp.identity(0) end, "float64", {} },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.equal(dev.name, helper.devstr(x.device))
        assert.are.same(r[4], helper.totable(x))
      end)
    end
  end)

  describe("dimensions given as integral floats", function()
    it("ga.empty(2^3) (a float with an integer value) is accepted", function()
      assert.are.same({ 8 }, xp.empty(2 ^ 3).shape)
      assert.are.same({ 2, 4 }, xp.zeros({ 2.0, 2 ^ 2 }).shape)
    end)
  end)

  describe("bad shapes", function()
    it("negative dimensions are an error", function()
      helper.assert_error(function() xp.zeros(-1) end, "zeros: ", "negative dimensions are not allowed")
      helper.assert_error(function() xp.empty({ 2, -3 }) end, "empty: ", "negative dimensions are not allowed")
    end)
  end)
end)

describe("the default device", function()
  it("ga.zeros makes arrays on cuda:0 with a GPU, cpu without", function()
    local want = helper.has_gpu() and "cuda:0" or "cpu"
    if os.getenv("GPUARRAY_DEVICE") then pending("GPUARRAY_DEVICE is set"); return end
    assert.are.equal(want, helper.devstr(ga.zeros(2).device))
    assert.are.equal(want, helper.devstr(ga.arange(3).device))
    assert.are.equal("cpu", helper.devstr(ga.host.zeros(2).device))
  end)
end)
