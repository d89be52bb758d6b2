-- Transfers: asarray/array from tables and arrays, asnumpy/get, set,
-- totable/tolist, item, for every dtype; round trips; asarray no-copy.
local helper = require "spec.helper"
local ga = helper.ga

-- values representable exactly in each dtype, and their totable() form
local VALUES = {
  bool = { { true, false, true }, { true, false, true } },
  int8 = { { -128, 0, 127 }, { -128, 0, 127 } },
  int16 = { { -32768, 1, 32767 }, { -32768, 1, 32767 } },
  int32 = { { -2147483648, 2, 2147483647 }, { -2147483648, 2, 2147483647 } },
  int64 = { { math.mininteger, 3, math.maxinteger }, { math.mininteger, 3, math.maxinteger } },
  uint8 = { { 0, 1, 255 }, { 0, 1, 255 } },
  uint16 = { { 0, 1, 65535 }, { 0, 1, 65535 } },
  uint32 = { { 0, 1, 4294967295 }, { 0, 1, 4294967295 } },
  uint64 = { { 0, 1, 1 << 53 }, { 0, 1, 1 << 53 } },
  float16 = { { 0.5, -1.25, 65504.0 }, { 0.5, -1.25, 65504.0 } },
  float32 = { { 0.5, -1.25, 3.0e38 }, { 0.5, -1.25, 3.0000000054977558e38 } },
  float64 = { { 0.1, -1.25, 1e300 }, { 0.1, -1.25, 1e300 } },
  complex64 = { { 0.5, -1.25, 3 }, { { 0.5, 0.0 }, { -1.25, 0.0 }, { 3.0, 0.0 } } },
  complex128 = { { 0.1, -1.25, 3 }, { { 0.1, 0.0 }, { -1.25, 0.0 }, { 3.0, 0.0 } } },
}

local function elem_type(dt)
  local k = helper.KIND[dt]
  if k == "b" then return "boolean" end
  if k == "i" or k == "u" then return "integer" end
  if k == "f" then return "float" end
  return "table"
end

local function lua_type(v)
  if type(v) == "number" then return math.type(v) end
  return type(v)
end

helper.each_device(function(xp, dev)
  describe("per dtype", function()
    for _, dt in ipairs(helper.DTYPES) do
      local input, want = VALUES[dt][1], VALUES[dt][2]
      it(dt .. ": asarray(table):totable() round trip with the right Lua types", function()
        local x = xp.asarray(input, dt)
        assert.are.equal(dt, x.dtype)
        assert.are.equal(dev.name, helper.devstr(x.device))
        local t = x:totable()
        assert.are.same(want, t)
        for _, v in ipairs(t) do assert.are.equal(elem_type(dt), lua_type(v)) end
        assert.are.same(want, x:tolist())
      end)
      it(dt .. ": asnumpy / get give an equal host array", function()
        local x = xp.array(input, dt)
        for _, h in ipairs { ga.asnumpy(x), x:get() } do
          assert.are.equal("cpu", helper.devstr(h.device))
          assert.are.equal(dt, h.dtype)
          assert.are.same(want, h:totable())
          assert.is_false(rawequal(h, x))
        end
      end)
      it(dt .. ": host -> device -> host round trip", function()
        local h = ga.host.array(input, dt)
        local d = xp.asarray(h)
        assert.are.equal(dev.name, helper.devstr(d.device))
        assert.are.same(want, d:get():totable())
      end)
      it(dt .. ": set from a table, a host array and an array", function()
        local x = xp.zeros(3, dt)
        x:set(input)
        assert.are.same(want, x:totable())
        local y = xp.zeros(3, dt)
        y:set(ga.host.array(input, dt))
        assert.are.same(want, y:totable())
        local z = xp.zeros(3, dt)
        z:set(x)
        assert.are.same(want, z:totable())
      end)
      it(dt .. ": item of a size-1 array", function()
        local x = xp.array({ input[3] }, dt)
        if helper.KIND[dt] == "c" then
          local re, im = x:item()
          assert.are.same({ want[3][1], 0.0 }, { re, im })
        else
          assert.are.equal(want[3], x:item())
          assert.are.equal(elem_type(dt), lua_type(x:item()))
        end
      end)
    end
  end)

  describe("nested tables", function()
    local t3 = { { { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { 7, 8 }, { 9, 10 }, { 11, 12 } } }
    it("3-D table round trip", function()
      local x = xp.asarray(t3, "int16")
      assert.are.same({ 2, 3, 2 }, x.shape)
      assert.are.same(t3, x:totable())
      assert.are.same(t3, ga.asnumpy(x):totable())
    end)
    it("3-D table into float32", function()
      local x = xp.array(t3, "float32")
      assert.are.equal(12.0, x:totable()[2][3][2])
      assert.are.equal("float", math.type(x:totable()[1][1][1]))
    end)
    it("set a 2-D array from a nested table", function()
      local x = xp.zeros({ 2, 2 }, "float64")
      x:set({ { 1.5, 2.5 }, { 3.5, 4.5 } })
      assert.are.same({ { 1.5, 2.5 }, { 3.5, 4.5 } }, x:totable())
    end)
    it("set from a transposed view copies the logical values", function()
      local src = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
      local x = xp.zeros({ 3, 2 }, "int32")
      x:set(src.T)
      assert.are.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, x:totable())
    end)
    it("set with a different shape is an error", function()
      local x = xp.zeros({ 2, 2 })
      helper.assert_error(function() x:set({ 1, 2, 3 }) end, "set: ")
      helper.assert_error(function() x:set(xp.zeros(3)) end, "set: ")
      assert.are.same({ { 0.0, 0.0 }, { 0.0, 0.0 } }, x:totable())
    end)
    it("totable of a transposed view follows the view", function()
      local x = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } })
      assert.are.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, x.T:totable())
      assert.are.same({ { 1, 4 }, { 2, 5 }, { 3, 6 } }, ga.asnumpy(x.T):totable())
    end)
    it("0-d totable is a number", function()
      assert.are.equal(5, xp.array(5):totable())
      assert.are.equal(2.5, xp.array(2.5):tolist())
    end)
    it("item of a {1,1} array and of a 0-d array", function()
      assert.are.equal(4.5, xp.full({ 1, 1 }, 4.5):item())
      assert.are.equal(true, xp.array(true):item())
    end)
    it("item of a size-2 array is an error", function()
      helper.assert_error(function() xp.zeros(2):item() end, "item: ")
    end)
  end)

  describe("asarray / asnumpy identity and copies", function()
    it("asarray of an array already here is the same object", function()
      local x = xp.zeros(4, "float32")
      assert.is_true(rawequal(x, xp.asarray(x)))
    end)
    it("asnumpy of a host array is a copy", function()
      local h = ga.host.array({ 1, 2 })
      local c = ga.asnumpy(h)
      assert.is_false(rawequal(h, c))
      c:set({ 5, 6 })
      assert.are.same({ 1, 2 }, h:totable())
    end)
    it("get of an array is a copy", function()
      local x = xp.array({ 1, 2 })
      local h = x:get()
      h:set({ 5, 6 })
      assert.are.same({ 1, 2 }, x:totable())
    end)
    it("get_array_module", function()
      assert.is_true(rawequal(ga.host, ga.get_array_module(ga.host.zeros(1))))
      local want = dev.name == "cpu" and ga.host or ga
      assert.is_true(rawequal(want, ga.get_array_module(xp.zeros(1))))
    end)
  end)
end)

describe("transfers between host and GPU", function()
  it("ga.asarray(host array) lands on the GPU and back", function()
    if not helper.has_gpu() then pending("no GPU"); return end
    local h = ga.host.arange(0, 1000, 1, "float32")
    local d = ga.asarray(h)
    assert.are.equal("cuda:0", helper.devstr(d.device))
    assert.is_false(rawequal(h, d))
    assert.are.same(h:totable(), d:get():totable())
    assert.are.same(h:totable(), ga.asnumpy(d):totable())
  end)
  it("device array:set(host array) and host array:set(device array)", function()
    if not helper.has_gpu() then pending("no GPU"); return end
    local d = ga.zeros(3, "int32")
    d:set(ga.host.array({ 1, 2, 3 }, "int32"))
    assert.are.same({ 1, 2, 3 }, d:totable())
    local h = ga.host.zeros(3, "int32")
    h:set(d)
    assert.are.same({ 1, 2, 3 }, h:totable())
  end)
  it("large round trip (1e6 float64) keeps every value", function()
    local n = 1000000
    local h = ga.host.arange(0, n, 1, "float64")
    for _, dev in ipairs(helper.devices()) do
      local d = dev.xp.asarray(h)
      local back = ga.asnumpy(d)
      assert.are.equal(n, back.size)
      local ok, msg = helper.allclose(back, h, { rtol = 0, atol = 0 })
      assert.is_true(ok, msg)
    end
  end)
end)
