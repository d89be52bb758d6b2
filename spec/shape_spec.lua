-- Shape manipulation (reshape ravel flatten transpose swapaxes rollaxis
-- moveaxis squeeze expand_dims broadcast_to broadcast_arrays atleast_Nd
-- flip fliplr flipud roll repeat tile), on every device: hand-worked values
-- on several input layouts, views sharing memory, copies for every dtype,
-- GPU == host, and the errors.
local helper = require "spec.helper"
local ga = helper.ga

local M23 = { { 0, 1, 2 }, { 3, 4, 5 } }
local T23 = { { 0, 3 }, { 1, 4 }, { 2, 5 } }   -- its transpose

-- The logical 2x3 array M23 in several memory layouts.
local function layouts(xp)
  local out = {}
  for _, l in ipairs(helper.layouts(xp, M23)) do out[#out + 1] = l end
  -- negative strides on both axes
  out[#out + 1] = { name = "flipped", x = xp.flip(xp.array({ { 5, 4, 3 }, { 2, 1, 0 } })) }
  -- every other column of a wider array (a stepped view)
  local wide = xp.array({ { 0, 9, 1, 9, 2, 9 }, { 3, 9, 4, 9, 5, 9 } })
  out[#out + 1] = { name = "stepped", x = xp.reshape(wide, { 2, 3, 2 })[{ {}, {}, 1 }] }
  return out
end

local function rep(v, n)
  local t = {}
  for i = 1, n do t[i] = v end
  return t
end

-- { name, f(x) with x the 2x3 array, expected values, expected shape }
local CASES = {
  { "reshape {3, 2}", function(x) return x:reshape({ 3, 2 }) end, { { 0, 1 }, { 2, 3 }, { 4, 5 } }, { 3, 2 } },
  { "reshape 3, 2 (varargs)", function(x) return x:reshape(3, 2) end, { { 0, 1 }, { 2, 3 }, { 4, 5 } }, { 3, 2 } },
  { "reshape {-1}", function(x) return ga.reshape(x, -1) end, { 0, 1, 2, 3, 4, 5 }, { 6 } },
  { "reshape {3, -1} order F", function(x) return ga.reshape(x, { 3, -1 }, "F") end,
    { { 0, 4 }, { 3, 2 }, { 1, 5 } }, { 3, 2 } },
  { "reshape {order=F}", function(x) return x:reshape({ 6 }, { order = "F" }) end, { 0, 3, 1, 4, 2, 5 }, { 6 } },
  { "reshape {1, 2, 1, 3}", function(x) return x:reshape({ 1, 2, 1, 3 }) end,
    { { { { 0, 1, 2 } }, { { 3, 4, 5 } } } }, { 1, 2, 1, 3 } },
  { "ravel", function(x) return ga.ravel(x) end, { 0, 1, 2, 3, 4, 5 }, { 6 } },
  { "ravel F", function(x) return x:ravel("F") end, { 0, 3, 1, 4, 2, 5 }, { 6 } },
  { "flatten", function(x) return x:flatten() end, { 0, 1, 2, 3, 4, 5 }, { 6 } },
  { "flatten F", function(x) return ga.flatten(x, "F") end, { 0, 3, 1, 4, 2, 5 }, { 6 } },
  { "transpose", function(x) return ga.transpose(x) end, T23, { 3, 2 } },
  { "transpose {1, 2}", function(x) return ga.transpose(x, { 1, 2 }) end, M23, { 2, 3 } },
  { "transpose(-1, -2)", function(x) return x:transpose(-1, -2) end, T23, { 3, 2 } },
  { "swapaxes", function(x) return x:swapaxes(1, 2) end, T23, { 3, 2 } },
  { "rollaxis 2", function(x) return ga.rollaxis(x, 2) end, T23, { 3, 2 } },
  { "moveaxis 1 -> -1", function(x) return ga.moveaxis(x, 1, -1) end, T23, { 3, 2 } },
  { "expand_dims 2", function(x) return ga.expand_dims(x, 2) end,
    { { { 0, 1, 2 } }, { { 3, 4, 5 } } }, { 2, 1, 3 } },
  { "expand_dims {1, -1} then squeeze", function(x) return ga.expand_dims(x, { 1, -1 }):squeeze() end, M23, { 2, 3 } },
  { "broadcast_to {2, 2, 3}", function(x) return ga.broadcast_to(x, { 2, 2, 3 }) end, { M23, M23 }, { 2, 2, 3 } },
  { "atleast_3d", function(x) return ga.atleast_3d(x) end,
    { { { 0 }, { 1 }, { 2 } }, { { 3 }, { 4 }, { 5 } } }, { 2, 3, 1 } },
  { "flip", function(x) return ga.flip(x) end, { { 5, 4, 3 }, { 2, 1, 0 } }, { 2, 3 } },
  { "flip 1", function(x) return ga.flip(x, 1) end, { { 3, 4, 5 }, { 0, 1, 2 } }, { 2, 3 } },
  { "flip {-1}", function(x) return ga.flip(x, { -1 }) end, { { 2, 1, 0 }, { 5, 4, 3 } }, { 2, 3 } },
  { "fliplr", function(x) return ga.fliplr(x) end, { { 2, 1, 0 }, { 5, 4, 3 } }, { 2, 3 } },
  { "flipud", function(x) return ga.flipud(x) end, { { 3, 4, 5 }, { 0, 1, 2 } }, { 2, 3 } },
  { "roll 1", function(x) return ga.roll(x, 1) end, { { 5, 0, 1 }, { 2, 3, 4 } }, { 2, 3 } },
  { "roll 7 (past the size)", function(x) return ga.roll(x, 7) end, { { 5, 0, 1 }, { 2, 3, 4 } }, { 2, 3 } },
  { "roll 1 axis 2", function(x) return ga.roll(x, 1, 2) end, { { 2, 0, 1 }, { 5, 3, 4 } }, { 2, 3 } },
  { "roll -1 axis 1", function(x) return ga.roll(x, -1, 1) end, { { 3, 4, 5 }, { 0, 1, 2 } }, { 2, 3 } },
  { "roll {1, 1} axes {1, 2}", function(x) return ga.roll(x, { 1, 1 }, { 1, 2 }) end,
    { { 5, 3, 4 }, { 2, 0, 1 } }, { 2, 3 } },
  { "roll {1, 2} axis 2 (shifts add up)", function(x) return ga.roll(x, { 1, 2 }, 2) end, M23, { 2, 3 } },
  { "roll 1 over no axes ({})", function(x) return ga.roll(x, 1, {}) end, M23, { 2, 3 } },
  { "repeat 2", function(x) return ga["repeat"](x, 2) end, { 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5 }, { 12 } },
  { "repeat 2 axis 1", function(x) return x["repeat"](x, 2, 1) end,
    { { 0, 1, 2 }, { 0, 1, 2 }, { 3, 4, 5 }, { 3, 4, 5 } }, { 4, 3 } },
  { "repeat {1, 0, 2} axis -1", function(x) return ga["repeat"](x, { 1, 0, 2 }, -1) end,
    { { 0, 2, 2 }, { 3, 5, 5 } }, { 2, 3 } },
  { "repeat {2, 2, 1} axis 2 (a run)", function(x) return ga["repeat"](x, { 2, 2, 1 }, 2) end,
    { { 0, 0, 1, 1, 2 }, { 3, 3, 4, 4, 5 } }, { 2, 5 } },
  { "repeat 0", function(x) return ga["repeat"](x, 0, 1) end, {}, { 0, 3 } },
  { "tile 2", function(x) return ga.tile(x, 2) end, { { 0, 1, 2, 0, 1, 2 }, { 3, 4, 5, 3, 4, 5 } }, { 2, 6 } },
  { "tile {2, 1}", function(x) return ga.tile(x, { 2, 1 }) end, { M23[1], M23[2], M23[1], M23[2] }, { 4, 3 } },
  { "tile {2, 1, 1}", function(x) return ga.tile(x, { 2, 1, 1 }) end, { M23, M23 }, { 2, 2, 3 } },
  { "tile {0, 1}", function(x) return ga.tile(x, { 0, 1 }) end, {}, { 0, 3 } },
}

helper.each_device(function(xp, dev)
  for _, l in ipairs(layouts(xp)) do
    describe("on a " .. l.name .. " input", function()
      for _, c in ipairs(CASES) do
        it(c[1], function()
          local x = l.x
          local before = x:totable()
          local r = c[2](x)
          assert.are.same(c[4], r.shape)
          assert.are.equal(dev.name, helper.devstr(r.device))
          assert.are.equal(x.dtype, r.dtype)
          if r.size > 0 then assert.are.same(c[3], r:totable()) end
          assert.are.same(before, x:totable())   -- the input is untouched
        end)
      end
    end)
  end

  describe("views share memory; copies own theirs", function()
    -- write through r and see x change (or not)
    local function shares(x, r)
      local old = x:totable()
      ga.add(r, 100, { out = r })
      local changed = helper.allclose(x, old) == false
      return changed
    end

    local VIEWS = {
      { "reshape", function(x) return x:reshape(3, 2) end },
      { "reshape F of F-contiguous", function(x) return x.T:reshape({ 6 }, "F") end },
      { "ravel", function(x) return x:ravel() end },
      { "transpose", function(x) return x:transpose() end },
      { "swapaxes", function(x) return x:swapaxes(1, 2) end },
      { "rollaxis", function(x) return ga.rollaxis(x, 2) end },
      { "moveaxis", function(x) return ga.moveaxis(x, 2, 1) end },
      { "squeeze", function(x) return ga.squeeze(x:reshape(1, 2, 3)) end },
      { "expand_dims", function(x) return ga.expand_dims(x, 1) end },
      { "atleast_2d", function(x) return ga.atleast_2d(x) end },
      { "flip", function(x) return ga.flip(x) end },
      { "fliplr", function(x) return ga.fliplr(x) end },
      { "flipud", function(x) return ga.flipud(x) end },
    }
    for _, v in ipairs(VIEWS) do
      it(v[1] .. " is a view of x's memory", function()
        local x = xp.array(M23)
        local r = v[2](x)
        assert.is_true(rawequal(r.base, x))
        assert.is_false(r.flags.owndata)
        assert.is_true(shares(x, r))
      end)
    end

    local COPIES = {
      { "flatten", function(x) return x:flatten() end },
      { "reshape that cannot be a view", function(x) return x.T:reshape(6) end },
      { "ravel of a transpose", function(x) return x.T:ravel() end },
      { "roll", function(x) return ga.roll(x, 1) end },
      { "repeat", function(x) return ga["repeat"](x, 1) end },
      { "tile", function(x) return ga.tile(x, 1) end },
    }
    for _, v in ipairs(COPIES) do
      it(v[1] .. " is a new array", function()
        local x = xp.array(M23)
        local r = v[2](x)
        assert.is_nil(r.base)
        assert.is_true(r.flags.owndata)
        assert.is_true(r.flags.c_contiguous)
        assert.is_false(shares(x, r))
      end)
    end

    it("a view of a view has the owner as base", function()
      local x = xp.arange(6)
      local r = x:reshape(2, 3):transpose():ravel("F")
      assert.is_true(rawequal(r.base, x))
      assert.are.same({ 0, 1, 2, 3, 4, 5 }, r:totable())
    end)

    it("reshape views of strided arrays: NumPy's nocopy rule", function()
      local x = xp.arange(24):reshape(2, 3, 4)
      local s = ga.transpose(x, { 3, 1, 2 })          -- (4, 2, 3): axes 2 and 3 still merge
      local v = s:reshape(4, 6)
      assert.is_true(rawequal(v.base, x.base))
      assert.are.same({ 8, 32 }, v.strides)
      assert.are.same({ 0, 4, 8, 12, 16, 20 }, v:totable()[1])
      local c = s:reshape(8, 3)                        -- would merge axes 1 and 2: a copy
      assert.is_nil(c.base)
      assert.are.same({ 12, 16, 20 }, c:totable()[2])
      local st = x:reshape(6, 4)[{ { 1, 6, 2 } }]      -- rows 1, 3, 5
      local w = st:reshape(3, 2, 2)
      assert.is_true(rawequal(w.base, x.base))
      assert.are.same({ { 8, 9 }, { 10, 11 } }, w:totable()[2])
    end)

    it("reshape F-order of an F-contiguous array is a view with F strides", function()
      local x = xp.arange(6):reshape(2, 3).T             -- F-contiguous (3, 2)
      local v = x:reshape({ 2, 3 }, "F")
      assert.is_true(rawequal(v.base, x.base))
      assert.is_true(v.flags.f_contiguous)
      assert.are.same({ { 0, 2, 4 }, { 1, 3, 5 } }, v:totable())
      local a = x:reshape({ 2, 3 }, "A")                 -- A: F for this array
      assert.are.same({ { 0, 2, 4 }, { 1, 3, 5 } }, a:totable())
    end)

    it("broadcast_to and broadcast_arrays give zero strides", function()
      local x = xp.arange(3)
      local b = ga.broadcast_to(x, { 4, 3 })
      assert.are.same({ 0, 8 }, b.strides)
      assert.is_true(rawequal(b.base, x))
      local p, q = ga.broadcast_arrays(xp.arange(3), xp.arange(2):reshape(2, 1))
      assert.are.same({ { 0, 1, 2 }, { 0, 1, 2 } }, p:totable())
      assert.are.same({ { 0, 0, 0 }, { 1, 1, 1 } }, q:totable())
      assert.are.same({ 0, 8 }, p.strides)
      assert.are.same({ 8, 0 }, q.strides)
    end)

    it("flip: negative strides and an offset", function()
      local x = xp.arange(6):reshape(2, 3)
      local f = ga.flip(x, 2)
      assert.are.same({ 24, -8 }, f.strides)
      assert.are.same({ { 2, 1, 0 }, { 5, 4, 3 } }, f:totable())
      assert.are.same(M23, ga.flip(f, 2):totable())
      assert.are.same({ 5, 4, 3 }, ga.flip(x)[1]:totable())
    end)
  end)

  describe("shapes", function()
    it("0-d and empty arrays", function()
      local z = xp.array(7)
      assert.are.same({ 1 }, z:reshape(1).shape)
      assert.are.same({ 1, 1 }, z:reshape(1, 1).shape)
      assert.are.same({}, xp.array({ 7 }):reshape({}).shape)
      assert.are.same({ 1 }, z:ravel().shape)
      assert.are.same({ 1 }, z:flatten().shape)
      assert.are.same({}, ga.transpose(z).shape)
      assert.are.same({}, ga.squeeze(xp.zeros({ 1, 1 })).shape)
      assert.are.same({ 1, 1, 1 }, ga.atleast_3d(z).shape)
      assert.are.same({ 1, 1 }, ga.atleast_2d(z).shape)
      assert.are.same({ 3, 2 }, ga.tile(z, { 3, 2 }).shape)
      assert.are.same({ 7, 7, 7 }, ga["repeat"](z, 3):totable())
      local e = xp.zeros({ 0, 3 })
      assert.are.same({ 3, 0 }, e:reshape(3, 0).shape)
      assert.are.same({ 0, 5 }, e:reshape(-1, 5).shape)
      assert.are.same({ 0 }, e:ravel().shape)
      assert.are.same({ 0, 3 }, ga.flip(e).shape)
      assert.are.same({ 0, 3 }, ga.roll(e, 1).shape)
      assert.are.same({ 0, 3 }, ga.roll(e, 1, 1).shape)
      assert.are.same({ 0, 6 }, ga["repeat"](e, 2, 2).shape)
      assert.are.same({ 0, 6 }, ga.tile(e, 2).shape)
    end)

    it("3-D transposes, rollaxis and moveaxis (hand-worked)", function()
      local x = xp.arange(6):reshape(1, 2, 3)
      assert.are.same({ { { 0 }, { 1 }, { 2 } }, { { 3 }, { 4 }, { 5 } } }, ga.moveaxis(x, 1, -1):totable())
      assert.are.same({ { { 0, 3 } }, { { 1, 4 } }, { { 2, 5 } } }, ga.transpose(x, { 3, 1, 2 }):totable())
      assert.are.same({ 3, 1, 2 }, ga.rollaxis(x, 3).shape)
      assert.are.same({ 2, 1, 3 }, ga.rollaxis(x, 2).shape)
      assert.are.same({ 1, 3, 2 }, ga.rollaxis(x, 2, 4).shape)
      assert.are.same({ 1, 2, 3 }, ga.rollaxis(x, 2, 3).shape)   -- already there
      assert.are.same({ 1, 3, 2 }, ga.rollaxis(x, 2, -1 + 4 + 1).shape)
      assert.are.same({ 2, 1, 3 }, ga.rollaxis(x, 1, -1).shape)  -- before the last axis
      assert.are.same({ 3, 2, 1 }, ga.moveaxis(x, { 1, 3 }, { 3, 1 }).shape)
      assert.are.same({ 2, 3, 1 }, ga.moveaxis(x, { 2, 3 }, { 1, 2 }).shape)
    end)

    it("roll over two axes of a 3-D array", function()
      local x = xp.arange(8):reshape(2, 2, 2)
      assert.are.same({ { { 3, 2 }, { 1, 0 } }, { { 7, 6 }, { 5, 4 } } }, ga.roll(x, 1, { 2, 3 }):totable())
      assert.are.same({ { { 6, 7 }, { 4, 5 } }, { { 2, 3 }, { 0, 1 } } }, ga.roll(x, { 1, -1 }, { 1, 2 }):totable())
    end)

    it("repeat with an integer array of counts", function()
      local x = xp.arange(3)
      assert.are.same({ 0, 2, 2, 2 }, ga["repeat"](x, xp.array({ 1, 0, 3 })):totable())
      assert.are.same({ 0, 1, 2 }, ga["repeat"](x, xp.array({ 1 }, "int32")):totable())
      assert.are.same({ 0, 0, 1, 1, 2, 2 }, ga["repeat"](x, ga.host.array(2)):totable())
    end)

    it("tile pads the shorter of shape and reps with leading ones", function()
      local x = xp.arange(2)
      assert.are.same({ { 0, 1, 0, 1 }, { 0, 1, 0, 1 }, { 0, 1, 0, 1 } }, ga.tile(x, { 3, 2 }):totable())
      local m = xp.arange(4):reshape(2, 2)
      assert.are.same({ { 0, 1, 0, 1 }, { 2, 3, 2, 3 } }, ga.tile(m, 2):totable())
      assert.are.same({ 2, 2, 2 }, ga.tile(m, { 2, 1, 1 }).shape)
    end)

    it("atleast_1d/2d/3d of several arguments and of numbers", function()
      local a, b, c = ga.atleast_2d(xp.array(1), xp.arange(2), xp.zeros({ 2, 2, 2 }))
      assert.are.same({ 1, 1 }, a.shape)
      assert.are.same({ 1, 2 }, b.shape)
      assert.are.same({ 2, 2, 2 }, c.shape)
      local d = xp.atleast_1d(5)
      assert.are.same({ 5 }, d:totable())
      assert.are.equal(dev.name, helper.devstr(d.device))
      local e = xp.reshape({ 1, 2, 3, 4 }, { 2, 2 })    -- a table is made an array
      assert.are.same({ { 1, 2 }, { 3, 4 } }, e:totable())
      assert.are.equal(dev.name, helper.devstr(e.device))
    end)

    it("many axes", function()
      local x = xp.zeros(rep(1, 20))
      assert.are.same({}, ga.squeeze(x).shape)
      assert.are.same(rep(1, 20), ga.transpose(x).shape)
      assert.are.same(rep(2, 20), ga.broadcast_to(x, rep(2, 20)).shape)
      assert.are.same(rep(1, 32), ga.expand_dims(x, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }).shape)
      local t = ga.tile(xp.ones(rep(1, 16), "int8"), rep(2, 16))
      assert.are.equal(1 << 16, t.size)
      assert.are.equal(1 << 16, ga.sum and ga.sum(t):item() or t.size)
    end)
  end)

  describe("every dtype", function()
    for _, dt in ipairs(helper.DTYPES) do
      it(dt .. ": copies and views keep the values", function()
        local x = xp.array(M23):astype(dt)
        local f = ga.flip(x)
        local function same(r, via_int)
          assert.are.equal(dt, r.dtype)
          assert.are.same(via_int:astype(dt):totable(), r:totable())
        end
        local i = xp.array(M23)
        same(x.T:reshape(6), i.T:reshape(6))
        same(x:flatten("F"), i:flatten("F"))
        same(ga.roll(f, 1, 2), ga.roll(ga.flip(i), 1, 2))
        same(ga["repeat"](f, { 1, 2, 0 }, 2), ga["repeat"](ga.flip(i), { 1, 2, 0 }, 2))
        same(ga.tile(x.T, { 2, 2 }), ga.tile(i.T, { 2, 2 }))
        same(ga.broadcast_to(f, { 2, 2, 3 }), ga.broadcast_to(ga.flip(i), { 2, 2, 3 }))
      end)
    end
  end)

  describe("errors name the function", function()
    local x = xp.arange(6):reshape(2, 3)
    local E = {
      { function() return x:reshape(4) end, "reshape", "cannot reshape array of size 6 into shape (4,)" },
      { function() return x:reshape(-1, -1) end, "reshape", "can only specify one unknown dimension" },
      { function() return x:reshape(-2, -3) end, "reshape", "negative dimensions" },
      { function() return x:reshape(4, -1) end, "reshape", "cannot reshape array of size 6" },
      { function() return xp.zeros(0):reshape(0, -1) end, "reshape", "cannot reshape array of size 0" },
      { function() return x:reshape(1.5) end, "reshape", "must be an integer" },
      { function() return x:reshape() end, "reshape", "a shape is required" },
      { function() return x:reshape(6, "Q") end, "reshape", "order must be" },
      { function() return x:reshape(6, { odrer = "F" }) end, "reshape", "unknown option 'odrer'" },
      { function() return x:ravel("K") end, "ravel", "order must be" },
      { function() return ga.transpose(x, { 1, 1 }) end, "transpose", "repeated axis" },
      { function() return ga.transpose(x, { 1 }) end, "transpose", "axes don't match array" },
      { function() return x:transpose(1, 2, 3) end, "transpose", "axes don't match array" },
      { function() return ga.transpose(x, { 1, 3 }) end, "transpose",
        "axis 3 is out of bounds for array of dimension 2" },
      { function() return ga.transpose(x, { 0, 1 }) end, "transpose", "axis 0 is out of bounds" },
      { function() return x:swapaxes(1, 3) end, "swapaxes", "axis 3 is out of bounds" },
      { function() return x:swapaxes(-3, 1) end, "swapaxes", "axis -3 is out of bounds" },
      { function() return ga.rollaxis(x, 1, 4) end, "rollaxis", "start must be in 1..3" },
      { function() return ga.rollaxis(x, 1, 0) end, "rollaxis", "start must be in" },
      { function() return ga.moveaxis(x, { 1, 2 }, 1) end, "moveaxis", "same number of elements" },
      { function() return ga.moveaxis(x, { 1, 1 }, { 1, 2 }) end, "moveaxis", "repeated axis" },
      { function() return ga.squeeze(x, 1) end, "squeeze", "size not equal to one" },
      { function() return ga.squeeze(x, 5) end, "squeeze", "axis 5 is out of bounds" },
      { function() return ga.expand_dims(x, { 1, 1 }) end, "expand_dims", "repeated axis" },
      { function() return ga.expand_dims(x, 4) end, "expand_dims",
        "axis 4 is out of bounds for array of dimension 3" },
      { function() return ga.expand_dims(x) end, "expand_dims", "an axis is required" },
      { function() return ga.broadcast_to(x, { 3, 3 }) end, "broadcast_to",
        "cannot broadcast an array of shape (2,3) to shape (3,3)" },
      { function() return ga.broadcast_to(x, { 3 }) end, "broadcast_to", "cannot broadcast" },
      { function() return ga.broadcast_to(x, { -1, 3 }) end, "broadcast_to", "negative dimensions" },
      { function() return ga.broadcast_arrays(x, xp.zeros(2)) end, "broadcast_arrays",
        "could not be broadcast together with shapes (2,3) (2,)" },
      { function() return ga.flip(x, 3) end, "flip", "axis 3 is out of bounds" },
      { function() return ga.fliplr(xp.arange(3)) end, "fliplr", "Input must be >= 2-d" },
      { function() return ga.flipud(xp.array(1)) end, "flipud", "Input must be >= 1-d" },
      { function() return ga.roll(x) end, "roll", "a shift is required" },
      { function() return ga.roll(x, { 1, 2, 3 }, { 1, 2 }) end, "roll", "same number of entries" },
      { function() return ga.roll(x, 1, 3) end, "roll", "axis 3 is out of bounds" },
      { function() return ga["repeat"](x, -1) end, "repeat", "may not contain negative values" },
      { function() return ga["repeat"](x, { 1, 2 }, 2) end, "repeat", "could not be broadcast" },
      { function() return ga["repeat"](x, xp.array({ 1.5, 1, 1 }), 2) end, "repeat", "repeats must be integers" },
      { function() return ga["repeat"](x, "2") end, "repeat", "repeats must be" },
      { function() return ga["repeat"](x, 1, 3) end, "repeat", "axis 3 is out of bounds" },
      { function() return ga.tile(x, -1) end, "tile", "negative dimensions" },
      { function() return ga.tile(x, { 1, "a" }) end, "tile", "reps must be an integer" },
      { function() return ga.reshape(nil, 3) end, "reshape", "array expected" },
      { function() return ga.ravel(nil) end, "ravel", "array expected" },
      { function() return ga.atleast_1d() end, "atleast_1d", "at least one array" },
    }
    for i, e in ipairs(E) do
      it(string.format("%d: %s: %s", i, e[2], e[3]), function()
        helper.assert_error(e[1], e[2] .. ": ", e[3])
      end)
    end

    it("a freed array", function()
      local y = xp.arange(3)
      y:free()
      helper.assert_error(function() return y:reshape(3) end, "reshape: array has been freed")
      helper.assert_error(function() return ga.flip(y) end, "flip: array has been freed")
    end)

    it("errors do not leak memory", function()
      local before = helper.used(xp)
      for _ = 1, 20 do
        pcall(ga["repeat"], x, { 1, 2 }, 2)
        pcall(ga.tile, x, -1)
        pcall(ga.roll, x, 1, 3)
        pcall(ga.reshape, x, 5)
      end
      local after = helper.used(xp)
      if before then assert.are.equal(before, after) end
    end)
  end)
end)

describe("shape: GPU == host", function()
  local F = {
    { "reshape copy", function(xp) return xp.array(M23).T:reshape(2, 3) end },
    { "reshape F", function(xp) return xp.array(M23, "float32"):reshape({ 3, 2 }, "F") end },
    { "flatten", function(xp) return ga.flip(xp.array(M23, "float16")):flatten() end },
    { "roll", function(xp) return ga.roll(xp.arange(24, "float32"):reshape(2, 3, 4).T, { 1, -2 }, { 1, 3 }) end },
    { "repeat", function(xp) return ga["repeat"](xp.arange(12, "complex64"):reshape(3, 4).T, { 3, 0, 1 }, 2) end },
    { "tile", function(xp) return ga.tile(ga.flip(xp.arange(6, "int8"):reshape(2, 3)), { 2, 1, 3 }) end },
    { "broadcast copy", function(xp) return ga.broadcast_to(xp.arange(3, "uint16"), { 4, 3 }):flatten() end },
    { "large roll", function(xp) return ga.roll(xp.arange(100000, "float64"):reshape(100, 1000), 333, 2) end },
    { "large repeat", function(xp) return ga["repeat"](xp.arange(50000, "int32"), 3) end },
  }
  for _, f in ipairs(F) do
    it(f[1], function() helper.assert_gpu_vs_host(f[2]) end)
  end
end)
