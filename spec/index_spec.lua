-- Basic indexing: x[key] views and x[key] = value, on every device.
local helper = require "spec.helper"
local ga = require "gpuarray"

for _, dev in ipairs(helper.devices()) do
  local xp = dev.xp
  describe("on " .. dev.name .. " basic indexing", function()
    local function x12() return xp.arange(12) end
    local function m23() return xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }) end

    -- { key, expected table, expected shape }, on arange(12) reshaped by hand
    local rows = {
      { "integer", 3, 2, {} },
      { "negative integer", -1, 11, {} },
      { "range", { { 2, 5 } }, { 1, 2, 3, 4 }, { 4 } },
      { "range with step", { { 1, 12, 4 } }, { 0, 4, 8 }, { 3 } },
      { "negative step", { { -1, 1, -3 } }, { 11, 8, 5, 2 }, { 4 } },
      { "whole axis", { {} }, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, { 12 } },
      { "open start", { { nil, 3 } }, { 0, 1, 2 }, { 3 } },
      { "open stop", { { 10 } }, { 9, 10, 11 }, { 3 } },
      { "reverse all", { { nil, nil, -1 } }, { 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }, { 12 } },
      { "clamped bounds", { { -100, 100 } }, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, { 12 } },
      { "empty range", { { 5, 4 } }, {}, { 0 } },
      { "newaxis", { ga.newaxis, { 1, 2 } }, { { 0, 1 } }, { 1, 2 } },
      { "ellipsis alone", { ga.ellipsis }, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, { 12 } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local v = x12()[r[2]]
        assert.are.same(r[4], v.shape)
        if #r[4] == 0 then assert.are.equal(r[3], v:item()) else assert.are.same(r[3], v:totable()) end
      end)
    end

    it("2-D keys: integers, ranges, newaxis and ellipsis", function()
      local m = m23()
      assert.are.equal(6, m[{ 2, 3 }]:item())
      assert.are.same({ 4, 5, 6 }, m[2]:totable())
      assert.are.same({ 2, 5 }, m[{ ga.ellipsis, 2 }]:totable())
      assert.are.same({ { 3, 1 }, { 6, 4 } }, m[{ {}, { 3, 1, -2 } }]:totable())
      assert.are.same({ { 4, 5, 6 }, { 1, 2, 3 } }, m[{ { nil, nil, -1 } }]:totable())
      assert.are.same({ 1, 3, 1 }, m[{ ga.newaxis, 1, ga.ellipsis, ga.newaxis }].shape)
      assert.are.same({ { 2 }, { 5 } }, m.T[{ { 2, 2 } }].T:totable())
    end)

    it("results are views of x's memory (a full index is a 0-d view)", function()
      local x = x12()
      local v = x[{ { 2, 6, 2 } }]
      assert.are.equal(x, v.base)
      assert.is_false(v.flags.owndata)
      assert.are.same({ 16 }, v.strides)
      v[2] = 100
      assert.are.equal(100, x[4]:item())
      local s = x[5]
      assert.are.equal(0, s.ndim)
      assert.are.equal(x, s.base)
    end)

    it("assignment: numbers, booleans, tables, arrays, broadcasting and casting", function()
      local x = xp.zeros(6, "int32")
      x[{ { 1, 3 } }] = 7
      x[4] = 2.9                                  -- cast to int32: truncates
      x[{ { 5, 6 } }] = { 8, 9 }
      assert.are.same({ 7, 7, 7, 2, 8, 9 }, x:totable())
      local m = xp.zeros({ 2, 3 })
      m[{ {}, 2 }] = xp.array({ 1, 2 })
      m[2] = xp.array({ 4, 5, 6 }, "int8")        -- another dtype: cast
      m[{ 1, 1 }] = xp.array({ 9 })               -- leading length-1 axes dropped (NumPy)
      assert.are.same({ { 9, 1, 0 }, { 4, 5, 6 } }, m:totable())
      local b = xp.zeros(2, "bool")
      b[1] = true
      assert.are.same({ true, false }, b:totable())
    end)

    it("overlapping self-assignment gives NumPy's result", function()
      local x = xp.arange(6)
      x[{ { 2, -1 } }] = x[{ { 1, -2 } }]
      assert.are.same({ 0, 0, 1, 2, 3, 4 }, x:totable())
      local y = xp.arange(6)
      y[{ { 1, -2 } }] = y[{ { 2, -1 } }]
      assert.are.same({ 1, 2, 3, 4, 5, 5 }, y:totable())
    end)

    it("bad keys and values are errors naming getitem / setitem", function()
      local x, m = x12(), m23()
      helper.assert_error(function() return x[13] end, "getitem: index 13 is out of bounds for axis 1 with size 12")
      helper.assert_error(function() return x[0] end, "getitem: index 0 is out of bounds")
      helper.assert_error(function() return m[{ 1, -4 }] end, "getitem: index -4 is out of bounds for axis 2")
      helper.assert_error(function() return x[{ 1, 2 }] end, "getitem: too many indices for array")
      helper.assert_error(function() return x[{ { 1, 5, 0 } }] end, "getitem: a range's step cannot be zero")
      helper.assert_error(function() return x[1.5] end, "getitem: an index must be an integer")
      helper.assert_error(function() return x[{ { 1.5, 3 } }] end, "getitem: a range's start must be an integer")
      helper.assert_error(function() return x["nope"] end, "no attribute or method 'nope'")
      helper.assert_error(function() return x[{ ga.ellipsis, ga.ellipsis }] end, "a single ellipsis")
      helper.assert_error(function() return x[true] end, "getitem: bad index")
      helper.assert_error(function() x[{ { 1, 2 } }] = { 1, 2, 3 } end, "setitem: could not broadcast")
      helper.assert_error(function() x[1] = "a" end, "setitem")
      helper.assert_error(function() x[1] = 2 ^ 70 // 1 | 0 end)   -- not an integer either way
      helper.assert_error(function() xp.zeros(2, "uint8")[1] = 300 end,
        "setitem: Lua integer 300 out of bounds for uint8")
      helper.assert_error(function() x.shape = 3 end, "cannot set field 'shape'")
    end)
  end)
end

describe("basic indexing across devices", function()
  it("assigns a host array into a GPU array (a transfer)", function()
    if not helper.has_gpu() then return end
    local d = ga.zeros(3)
    d[{ { 1, 2 } }] = ga.host.array({ 5, 6 })
    assert.are.same({ 5, 6, 0 }, d:totable())
  end)
end)
