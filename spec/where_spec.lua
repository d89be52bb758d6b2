-- ga.where(cond, x, y): the _where op row, on every device.
local helper = require "spec.helper"
local ga = require "gpuarray"

local DTYPES = { "bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }

for _, dev in ipairs(helper.devices()) do
  local xp = dev.xp
  describe("on " .. dev.name .. " where", function()
    it("picks x where cond is true, else y, for every dtype", function()
      local c = xp.array({ true, false, true, false })
      for _, dt in ipairs(DTYPES) do
        local x = xp.array({ 1, 1, 1, 1 }, dt)
        local y = xp.zeros(4, dt)
        local r = ga.where(c, x, y)
        assert.are.equal(dt, r.dtype)
        local want = dt == "bool" and { true, false, true, false } or { 1, 0, 1, 0 }
        if dt:match("complex") then want = { { 1, 0 }, { 0, 0 }, { 1, 0 }, { 0, 0 } } end
        assert.are.same(want, r:totable(), dt)
      end
    end)

    it("broadcasts cond, x and y and promotes x with y (Lua numbers weak)", function()
      local c = xp.array({ { true }, { false } })                 -- (2, 1)
      local r = ga.where(c, xp.array({ 1, 2, 3 }, "int8"), xp.array({ 0.5 }, "float32"))
      assert.are.equal("float32", r.dtype)
      assert.are.same({ { 1, 2, 3 }, { 0.5, 0.5, 0.5 } }, r:totable())
      assert.are.equal("int16", ga.where(c, xp.array({ 1 }, "int16"), 7).dtype)
      assert.are.equal("float64", ga.where(true, 1.5, xp.arange(2)).dtype)
      assert.are.same({ 1.5, 1.5 }, ga.where(true, 1.5, xp.arange(2)):totable())
    end)

    it("takes a cond of any dtype (non-zero is true), a Lua boolean or number", function()
      assert.are.same({ 1, 9, 1 }, ga.where(xp.array({ 2, 0, -1 }), 1, xp.full(3, 9)):totable())
      assert.are.same({ 9, 1 }, ga.where(xp.array({ 0.0, 0.5 }), 1, xp.full(2, 9)):totable())
      assert.are.same({ 9, 9 }, ga.where(0, 1, xp.full(2, 9)):totable())
      assert.are.same({ 1, 1 }, ga.where(false, xp.full(2, 9), 1):totable())
    end)

    it("writes into out=, also a view", function()
      local out = xp.zeros({ 2, 2 }, "int32")
      ga.where(xp.array({ true, false }), 5, -5, { out = out.T })
      assert.are.same({ { 5, 5 }, { -5, -5 } }, out:totable())
    end)

    it("agrees with the host on transposed and stepped layouts", function()
      helper.assert_gpu_vs_host(function(m)
        local base = m.arange(24, "float32"):reshape(4, 6)
        local c = (base % 3):astype("bool")
        local stepped = m.arange(48, "float32"):reshape(6, 8)[{ {}, { 1, -1, 2 } }]   -- (6, 4)
        return ga.where(c.T, base.T, stepped)
      end)
    end)

    it("bad inputs are errors naming where", function()
      local a = xp.arange(3)
      helper.assert_error(function() ga.where(a, 1) end, "where: takes cond alone")
      assert.are.same({ 2, 3 }, ga.where(a)[1]:totable())   -- one argument: nonzero
      helper.assert_error(function() ga.where(xp.array({ true, false }), a, 0) end,
        "where: operands could not be broadcast together")
      helper.assert_error(function() ga.where(a:gt(1), a, 0, { bogus = 1 }) end, "where: ", "bogus")
    end)
  end)
end
