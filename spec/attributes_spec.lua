-- Attributes: shape ndim size dtype itemsize nbytes strides device base
-- flags T, #x, tostring.
local helper = require "spec.helper"

helper.each_device(function(xp, dev)
  describe("attributes", function()
    -- { shape, dtype, ndim, size, nbytes, strides }
    local rows = {
      { { 2, 3 }, "float32", 2, 6, 24, { 12, 4 } },
      { { 4 }, "int64", 1, 4, 32, { 8 } },
      { { 2, 3, 4 }, "uint8", 3, 24, 24, { 12, 4, 1 } },
      { { 3, 1, 2 }, "complex128", 3, 6, 96, { 32, 32, 16 } },
      { {}, "float16", 0, 1, 2, {} },
      -- strides of size-0 arrays differ between NumPy versions: not checked
      { { 0 }, "int32", 1, 0, 0, nil },
      { { 5, 0 }, "float64", 2, 0, 0, nil },
    }
    for _, r in ipairs(rows) do
      local name = "(" .. table.concat(r[1], ",") .. ") " .. r[2]
      it(name, function()
        local x = xp.zeros(r[1], r[2])
        assert.are.same(r[1], x.shape)
        assert.are.equal(r[3], x.ndim)
        assert.are.equal(r[4], x.size)
        assert.are.equal(r[2], x.dtype)
        assert.are.equal(helper.ITEMSIZE[r[2]], x.itemsize)
        assert.are.equal(r[5], x.nbytes)
        if r[6] then assert.are.same(r[6], x.strides) else assert.are.equal(#r[1], #x.strides) end
        assert.are.equal(dev.name, helper.devstr(x.device))
        assert.is_nil(x.base)
        assert.is_true(x.flags.owndata)
        assert.is_true(x.flags.c_contiguous)
      end)
    end

    it("shape and strides are new tables each time", function()
      local x = xp.zeros({ 2, 3 })
      local s = x.shape
      s[1] = 99
      assert.are.same({ 2, 3 }, x.shape)
      local st = x.strides
      st[1] = 99
      assert.are.same({ 24, 8 }, x.strides)
    end)

    it("flags of 2-D, 1-D and 0-d arrays", function()
      local m = xp.zeros({ 2, 3 })
      local f = m.flags
      assert.are.same({ true, false, true }, { f.c_contiguous, f.f_contiguous, f.owndata })
      local v = xp.zeros(3)
      assert.is_true(v.flags.c_contiguous)
      assert.is_true(v.flags.f_contiguous)
      local z = xp.zeros({})
      assert.is_true(z.flags.c_contiguous)
      assert.is_true(z.flags.f_contiguous)
    end)
  end)

  describe("T", function()
    it("transposes shape and strides, shares data, is F-contiguous", function()
      local x = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
      local t = x.T
      assert.are.same({ 3, 2 }, t.shape)
      assert.are.same({ 4, 12 }, t.strides)
      assert.are.equal("float32", t.dtype)
      assert.are.equal(dev.name, helper.devstr(t.device))
      local f = t.flags
      assert.are.same({ false, true, false }, { f.c_contiguous, f.f_contiguous, f.owndata })
      assert.are.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, t:totable())
    end)
    it("T.base is the array it views", function()
      local x = xp.zeros({ 2, 3 })
      local t = x.T
      assert.is_not_nil(t.base)
      assert.are.same({ 2, 3 }, t.base.shape)
      assert.is_true(rawequal(x, t.base))
    end)
    it("T of T is the original layout", function()
      local x = xp.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } })
      local tt = x.T.T
      assert.are.same({ 3, 2 }, tt.shape)
      assert.are.same(x.strides, tt.strides)
      assert.are.same(x:totable(), tt:totable())
    end)
    it("writes through the original show in the view", function()
      local x = xp.zeros({ 2, 2 }, "int32")
      local t = x.T
      x:set({ { 1, 2 }, { 3, 4 } })
      assert.are.same({ { 1, 3 }, { 2, 4 } }, t:totable())
    end)
    it("T of a 3-D array reverses the axes", function()
      local x = xp.zeros({ 2, 3, 4 }, "int16")
      assert.are.same({ 4, 3, 2 }, x.T.shape)
      assert.are.same({ 2, 8, 24 }, x.T.strides)
    end)
    it("T of 1-D and 0-d arrays is the same shape", function()
      assert.are.same({ 5 }, xp.zeros(5).T.shape)
      assert.are.same({}, xp.zeros({}).T.shape)
    end)
    it("a view costs no memory", function()
      local x = xp.zeros({ 256, 256 })
      local before = helper.used(xp)
      local t = x.T
      if before then assert.are.equal(before, helper.used(xp)) end
      assert.are.equal(x.nbytes, t.nbytes)
    end)
  end)

  describe("#x", function()
    it("is the length of the first axis", function()
      assert.are.equal(4, #xp.zeros({ 4, 2 }))
      assert.are.equal(2, #xp.zeros({ 4, 2 }).T)
      assert.are.equal(0, #xp.zeros(0))
      assert.are.equal(7, #xp.arange(7))
    end)
    it("is an error on a 0-d array", function()
      helper.assert_error(function() return #xp.zeros({}) end, "0-d")
    end)
  end)

  describe("tostring", function()
    local rows = {
      { function() return xp.array({ 1.0, 2.0, 3.0 }) end, "array([1., 2., 3.])" },
      { function() return xp.array({ 1, 2 }, "int32") end, "array([1, 2], dtype=int32)" },
      { function() return xp.array({ 1, 2 }) end, "array([1, 2])" },
      { function() return xp.array({ { 1.0, 2.0 }, { 3.0, 4.0 } }) end, "array([[1., 2.],\n       [3., 4.]])" },
      { function() return xp.array({ true, false }) end, "array([ True, False])" },
      { function() return xp.array(5) end, "array(5)" },
      { function() return xp.array(2.5) end, "array(2.5)" },
      { function() return xp.zeros(0) end, "array([], dtype=float64)" },
      { function() return xp.zeros(0, "int32") end, "array([], dtype=int32)" },
      { function() return xp.array({ 1.5, 2.0 }, "float32") end, "array([1.5, 2. ], dtype=float32)" },
      { function() return xp.array({ 0.5, -1.25 }) end, "array([ 0.5 , -1.25])" },
      { function() return xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "uint8") end,
        "array([[1, 2, 3],\n       [4, 5, 6]], dtype=uint8)" },
      { function() return xp.array({ 1, 2 }, "float16") end, "array([1., 2.], dtype=float16)" },
    }
    for _, r in ipairs(rows) do
      it(string.format("%q", r[2]), function()
        assert.are.equal(r[2], tostring(r[1]()))
      end)
    end
    it("a large array is summarised with ...", function()
      local s = tostring(xp.arange(2000))
      assert.matches("...", s, 1, true)
      assert.matches("^array%(%[ *0, +1, +2, %.%.%., 1997, 1998, 1999%]", s)
      assert.is_true(#s < 200, "summary too long: " .. #s .. " chars")
    end)
    it("a transposed view prints its logical values", function()
      local x = xp.array({ { 1, 2 }, { 3, 4 } })
      assert.are.equal("array([[1, 3],\n       [2, 4]])", tostring(x.T))
    end)
  end)
end)
