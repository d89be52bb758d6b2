-- Advanced indexing (index arrays and masks, get and set), take, put,
-- compress, add_at / scatter_add: hand-worked values on every device, every
-- layout of x, GPU == host, and the errors.
local helper = require "spec.helper"
local ga = helper.ga

local T = helper.totable

local function same(expected, got)
  assert.are.same(expected, T(got))
end

-- The same logical 2-D data `base` in several layouts: contiguous,
-- transposed, stepped (every other column of a wider array), negatively
-- strided (both axes reversed) and offset (inside a larger array).
local function layouts(xp, base, dtype)
  local m, n = #base, #base[1]
  local out = { { name = "contiguous", x = xp.array(base, dtype) } }
  out[#out + 1] = { name = "transposed", x = xp.array(helper.transpose(base), dtype).T }
  local wide, rev, big = {}, {}, {}
  for i = 1, m do
    wide[i], rev[m + 1 - i] = {}, {}
    for j = 1, n do
      wide[i][2 * j - 1], wide[i][2 * j] = base[i][j], 99
      rev[m + 1 - i][n + 1 - j] = base[i][j]
    end
  end
  for i = 1, m + 2 do
    big[i] = {}
    for j = 1, n + 2 do big[i][j] = (i >= 2 and i <= m + 1 and j >= 2 and j <= n + 1) and base[i - 1][j - 1] or 77 end
  end
  out[#out + 1] = { name = "stepped", x = xp.array(wide, dtype)[{ {}, { 1, -1, 2 } }] }
  out[#out + 1] = { name = "negative strides", x = xp.array(rev, dtype)[{ { -1, 1, -1 }, { -1, 1, -1 } }] }
  out[#out + 1] = { name = "offset", x = xp.array(big, dtype)[{ { 2, m + 1 }, { 2, n + 1 } }] }
  return out
end

local B = { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 } }

helper.each_device(function(xp)
  local function z234() return xp.arange(24):reshape({ 2, 3, 4 }) end

  describe("advanced get", function()
    it("one index array: rows, 1-based, negatives, any integer dtype", function()
      for _, it_dt in ipairs { "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64" } do
        local x = xp.array(B)
        same({ { 8, 9, 10, 11 }, { 0, 1, 2, 3 }, { 8, 9, 10, 11 } }, x[xp.array({ 3, 1, 3 }, it_dt)])
      end
      local x = xp.array(B)
      same({ { 8, 9, 10, 11 }, { 4, 5, 6, 7 } }, x[xp.array({ -1, -2 })])
      same({ { { 0, 1, 2, 3 } }, { { 4, 5, 6, 7 } } }, x[xp.array({ { 1 }, { 2 } })])
      same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, x[{ {}, xp.array({ 4, 1 }) }])
      same({ 4, 5, 6, 7 }, x[{ xp.array(2) }])                 -- a 0-d index array
      assert.are.same({ 0, 4 }, x[xp.array({}, "int64")].shape)
    end)

    it("several index arrays broadcast together", function()
      local x = xp.array(B)
      same({ 1, 11 }, x[{ xp.array({ 1, 3 }), xp.array({ 2, -1 }) }])
      same({ { 0, 3 }, { 8, 11 } }, x[{ xp.array({ { 1 }, { 3 } }), xp.array({ { 1, 4 } }) }])
      same({ 2, 6, 10 }, x[{ xp.array({ 1, 2, 3 }), xp.array(3) }])
    end)

    it("places the index dimensions as NumPy does", function()
      local z = z234()
      local idx = xp.array({ 1, 2 })
      -- adjacent: in place
      assert.are.same({ 2, 2, 4 }, z[{ {}, idx }].shape)
      same({ { 0, 1 }, { 12, 13 } }, z[{ {}, 1, idx }])                  -- int + array adjacent
      same({ { 0, 5 }, { 12, 17 } }, z[{ {}, idx, idx }])
      -- separated by a basic item: first
      same({ { 0, 4, 8 }, { 13, 17, 21 } }, z[{ idx, {}, idx }])
      same({ { 0, 4, 8 }, { 1, 5, 9 } }, z[{ 1, {}, idx }])              -- int counts as advanced
      assert.are.same({ 2, 1, 3 }, z[{ idx, ga.newaxis, {}, 1 }].shape)
      assert.are.same({ 2, 3, 2 }, z[{ ga.ellipsis, idx }].shape)
      assert.are.same({ 1, 2, 3, 4 }, z[{ ga.newaxis, idx }].shape)
    end)

    it("bool masks select in C order", function()
      local x = xp.array(B)
      same({ 6, 7, 8, 9, 10, 11 }, x[x:gt(5)])
      same({ { 0, 1, 2, 3 }, { 8, 9, 10, 11 } }, x[xp.array({ true, false, true })])
      same({ { 1, 3 }, { 5, 7 }, { 9, 11 } }, x[{ {}, xp.array({ false, true, false, true }) }])
      local z = z234()
      local m = xp.array({ { true, false, false }, { false, false, true } })
      same({ { 0, 1, 2, 3 }, { 20, 21, 22, 23 } }, z[m])
      same({ { 1, 2 }, { 13, 14 } }, z[{ {}, 1, xp.array({ false, true, true, false }) }])
      assert.are.same({ 0, 4 }, x[xp.zeros(3, "bool")].shape)
    end)

    it("gives a copy, on x's device, for every layout of x", function()
      for _, l in ipairs(layouts(xp, B, "int32")) do
        local x = l.x
        local r = x[xp.array({ 3, 1 })]
        assert.are.equal(x.device, r.device)
        assert.are.equal("int32", r.dtype)
        same({ { 8, 9, 10, 11 }, { 0, 1, 2, 3 } }, r)
        same({ 1, 11, 4 }, x[{ xp.array({ 1, 3, 2 }), xp.array({ 2, 4, 1 }) }])
        same({ { 3, 1 }, { 7, 5 }, { 11, 9 } }, x[{ {}, xp.array({ -1, 2 }) }])
        same({ 7, 8, 9, 10, 11 }, x[x:gt(6)])
        r[{ 1, 1 }] = 100
        assert.are.equal(8, T(x)[3][1], l.name .. ": the result is a copy")
      end
    end)

    it("accepts strided and negatively strided index arrays", function()
      local x = xp.arange(10)
      local idx = xp.array({ 1, 0, 3, 0, 5, 0, 7 })[{ { -1, 1, -2 } }]   -- 7, 5, 3, 1
      same({ 6, 4, 2, 0 }, x[idx])
      same({ 6, 4, 2, 0 }, x[idx:reshape({ 4 })])
    end)
  end)

  describe("advanced set", function()
    it("a number, a table or an array, broadcast and cast to x's dtype", function()
      local x = xp.zeros({ 3, 4 }, "int64")
      x[xp.array({ 1, 3 })] = 5
      same({ { 5, 5, 5, 5 }, { 0, 0, 0, 0 }, { 5, 5, 5, 5 } }, x)
      x[{ xp.array({ 2, 2 }), xp.array({ 1, 4 }) }] = { 7, 8 }
      same({ { 5, 5, 5, 5 }, { 7, 0, 0, 8 }, { 5, 5, 5, 5 } }, x)
      x[{ {}, xp.array({ 2 }) }] = xp.array({ { 1.9 }, { 2.2 }, { 3.7 } })   -- cast float -> int
      same({ { 5, 1, 5, 5 }, { 7, 2, 0, 8 }, { 5, 3, 5, 5 } }, x)
      x[x:gt(4)] = -1
      same({ { -1, 1, -1, -1 }, { -1, 2, 0, -1 }, { -1, 3, -1, -1 } }, x)
      x[xp.array({ 1 })] = xp.array({ { { 9, 9, 9, 9 } } })   -- leading length-1 axes dropped
      same({ 9, 9, 9, 9 }, x[1])
    end)

    it("writes through every layout of x", function()
      for _, l in ipairs(layouts(xp, B, "float32")) do
        local x = l.x
        x[{ xp.array({ 1, 3 }), xp.array({ 2, -1 }) }] = { 100, 200 }
        x[{ {}, xp.array({ 1 }) }] = -1
        same({ { -1, 100, 2, 3 }, { -1, 5, 6, 7 }, { -1, 9, 10, 200 } }, x)
        x[x:gt(99)] = 0
        same({ { -1, 0, 2, 3 }, { -1, 5, 6, 7 }, { -1, 9, 10, 0 } }, x)
      end
    end)

    it("x[x] = ... and x[idx] = x[...] read before writing", function()
      local x = xp.array({ 2, 3, 1 })
      x[x] = xp.array({ 10, 20, 30 })
      same({ 30, 10, 20 }, x)
      local y = xp.arange(4)
      y[xp.array({ 2, 3, 4 })] = y[{ { 1, 3 } }]
      same({ 0, 0, 1, 2 }, y)
    end)

    if xp == ga.host then
      it("repeated indices: the last write wins on the host", function()
        local x = xp.zeros(3)
        x[xp.array({ 2, 2, 2 })] = { 1, 2, 3 }
        same({ 0, 3, 0 }, x)
      end)
    end
  end)

  describe("methods", function()
    it("x:take, x:put, x:compress", function()
      local x = xp.array(B)
      same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, x:take({ 4, 1 }, 2))
      same({ { 4, 5, 6, 7 } }, x:compress({ false, true }, 1))
      x:put({ 1, 12 }, -1)
      same({ -1, 1, -1 }, x:take({ 1, 2, 12 }))
    end)
  end)

  if xp ~= ga.host then
    describe("operands on other devices", function()
      it("host index arrays and masks index a GPU array", function()
        local x = xp.array(B)
        same({ { 8, 9, 10, 11 } }, x[ga.host.array({ 3 })])
        same({ 4, 5 }, x[{ 2, ga.host.array({ true, true, false, false }) }])
        x[ga.host.array({ 1 })] = ga.host.array({ 1, 2, 3, 4 })
        same({ 1, 2, 3, 4 }, x[1])
        ga.add_at(x, ga.host.array({ 1, 1 }), 1)
        same({ 3, 4, 5, 6 }, x[1])
      end)
    end)
  end

  describe("take", function()
    it("flattened, along an axis, negative axis, every layout", function()
      for _, l in ipairs(layouts(xp, B, "int16")) do
        local x = l.x
        same({ 0, 11, 5 }, ga.take(x, { 1, -1, 6 }))
        same({ { 1, 4 }, { 2, 1 } }, ga.take(x, xp.array({ { 2, 5 }, { 3, 2 } })))
        same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, ga.take(x, { 4, 1 }, 2))
        same({ { 3, 0 }, { 7, 4 }, { 11, 8 } }, ga.take(x, { 4, 1 }, -1))
        same({ { 8, 9, 10, 11 } }, ga.take(x, { 3 }, 1))
        same(9, ga.take(x, 10))
        assert.are.equal("int16", ga.take(x, 1).dtype)
      end
      assert.are.same({ 2, 2, 3, 4 }, ga.take(z234(), xp.array({ { 1, 2 }, { 2, 1 } }), 1).shape)
      assert.are.same({ 2, 2, 2, 4 }, ga.take(z234(), xp.array({ { 1, 2 }, { 2, 1 } }), 2).shape)
    end)
  end)

  describe("put", function()
    it("flat indices, values repeated cyclically, negatives", function()
      local x = xp.zeros(6, "int32")
      ga.put(x, { 1, 3, -1 }, { 7, 8, 9 })
      same({ 7, 0, 8, 0, 0, 9 }, x)
      ga.put(x, { 2, 4, 5, 6, 1 }, { 1, 2 })
      same({ 1, 1, 8, 2, 1, 2 }, x)
      ga.put(x, xp.array({ { 1, 2 } }), 0)
      same({ 0, 0, 8, 2, 1, 2 }, x)
      ga.put(x, {}, 5)                     -- nothing to put
      same({ 0, 0, 8, 2, 1, 2 }, x)
    end)

    it("writes in x's C order for every layout of x", function()
      for _, l in ipairs(layouts(xp, B, "float64")) do
        local x = l.x
        ga.put(x, { 2, 5, 12 }, { -1, -2, -3 })
        same({ { 0, -1, 2, 3 }, { -2, 5, 6, 7 }, { 8, 9, 10, -3 } }, x)
      end
    end)
  end)

  describe("compress", function()
    it("along an axis, flattened, a short condition", function()
      for _, l in ipairs(layouts(xp, B, "int64")) do
        local x = l.x
        same({ { 4, 5, 6, 7 } }, ga.compress({ false, true }, x, 1))
        same({ { 1, 3 }, { 5, 7 }, { 9, 11 } }, ga.compress({ 0, 1, 0, 1 }, x, 2))
        same({ 1, 2 }, ga.compress(xp.array({ false, true, true }), x))
        assert.are.same({ 3, 0 }, ga.compress({ false }, x, -1).shape)
      end
    end)
  end)

  describe("add_at / scatter_add", function()
    for _, dt in ipairs(helper.DTYPES) do
      it("repeated indices accumulate, " .. dt, function()
        local x = xp.zeros(4, dt)
        ga.add_at(x, xp.array({ 1, 1, 3, 1 }), 1)
        if dt == "bool" then
          same({ true, false, true, false }, x)
        else
          helper.assert_close(x, xp.array({ 3, 0, 1, 0 }, dt))
          ga.scatter_add(x, { xp.array({ 4, 4, 2 }) }, xp.array({ 2, 3, 1 }, dt))
          helper.assert_close(x, xp.array({ 3, 1, 1, 5 }, dt))
        end
      end)
    end

    it("small integers wrap, next to untouched neighbours", function()
      local x = xp.array({ 100, 7, -3, 5 }, "int8")
      ga.add_at(x, xp.array({ 1, 1, 3 }), 100)
      same({ 44, 7, 97, 5 }, x)
      local u = xp.array({ 65535, 1, 2 }, "uint16")
      ga.add_at(u, xp.array({ 1, 1, 2 }), 1)
      same({ 1, 2, 2 }, u)
    end)

    it("any key, broadcast values, every layout", function()
      for _, l in ipairs(layouts(xp, B, "float32")) do
        local x = l.x
        ga.add_at(x, { xp.array({ 1, 1, 3 }), {} }, { 1, 2, 3, 4 })
        same({ { 2, 5, 8, 11 }, { 4, 5, 6, 7 }, { 9, 11, 13, 15 } }, x)
        ga.add_at(x, x:gt(10), 0.5)
        same({ { 2, 5, 8, 11.5 }, { 4, 5, 6, 7 }, { 9, 11.5, 13.5, 15.5 } }, x)
        ga.add_at(x, { 2, { 1, 2 } }, 10)
        same({ { 2, 5, 8, 11.5 }, { 14, 15, 6, 7 }, { 9, 11.5, 13.5, 15.5 } }, x)
      end
    end)

    it("complex adds both parts", function()
      local x = xp.zeros(2, "complex128")
      local v = xp.array({ 1, 2, 3 }, "complex128")
      ga.add_at(x, xp.array({ 2, 2, 2 }), v)
      helper.assert_close(ga.real(x), xp.array({ 0, 6 }))
    end)
  end)

  describe("errors", function()
    local x = xp.array(B)
    it("index out of range", function()
      helper.assert_error(function() return x[xp.array({ 1, 4 })] end,
        "getitem: index 4 is out of bounds for axis 1 with size 3")
      helper.assert_error(function() return x[xp.array({ 0 })] end, "getitem: index 0 is out of bounds")
      helper.assert_error(function() return x[{ {}, xp.array({ -5 }) }] end,
        "getitem: index -5 is out of bounds for axis 2 with size 4")
      helper.assert_error(function() x[xp.array({ 9 })] = 1 end, "setitem: index 9 is out of bounds")
      helper.assert_error(function() ga.take(x, { 13 }) end, "take: index 13 is out of bounds for axis 1 with size 12")
      helper.assert_error(function() ga.put(x, { -13 }, 1) end, "put: index -13 is out of bounds")
      helper.assert_error(function() ga.add_at(x, xp.array({ 4 }), 1) end, "add_at: index 4 is out of bounds")
      helper.assert_error(function() ga.compress({ 0, 0, 0, 1 }, x, 1) end, "compress: index 4 is out of bounds")
    end)
    it("an unsigned index above the int64 range", function()
      local u = xp.array({ math.maxinteger }, "uint64") + 1
      helper.assert_error(function() return x[u] end, "getitem: index out of bounds for axis 1 with size 3")
    end)
    if xp == ga.host then
      it("a bad index changes nothing on the host", function()
        local y = xp.zeros(3)
        assert.has_error(function() y[xp.array({ 1, 2, 7 })] = 1 end)
        same({ 0, 0, 0 }, y)
      end)
    end
    it("a float index array", function()
      helper.assert_error(function() return x[xp.array({ 1.0 })] end,
        "getitem: arrays used as indices must be of integer (or boolean) type, got float64")
      helper.assert_error(function() x[{ xp.array({ 1 }), xp.array({ 1.5 }, "float32") }] = 0 end,
        "setitem: arrays used as indices")
      helper.assert_error(function() ga.take(x, { 1.5 }) end, "take: indices must be integers")
      helper.assert_error(function() ga.put(x, xp.array({ 1 }, "float32"), 0) end, "put: indices must be integers")
    end)
    it("a mask of the wrong shape", function()
      helper.assert_error(function() return x[xp.array({ true, false })] end,
        "getitem: boolean index did not match indexed array along axis 1; size of axis is 3 "
          .. "but size of corresponding boolean axis is 2")
      helper.assert_error(function() return x[{ {}, xp.array({ true }) }] end, "along axis 2")
      helper.assert_error(function() x[xp.ones({ 4, 3 }, "bool")] = 0 end, "setitem: boolean index did not match")
      helper.assert_error(function() ga.compress({ { 1 } }, x) end, "compress: condition must be a 1-d array")
    end)
    it("too many indices, index arrays that do not broadcast", function()
      helper.assert_error(function() return x[{ xp.array({ 1 }), 1, xp.array({ 1 }) }] end,
        "getitem: too many indices for array: array is 2-dimensional, but 3 were indexed")
      helper.assert_error(function() return x[xp.ones({ 3, 4, 1 }, "bool")] end, "too many indices")
      helper.assert_error(function() return x[{ xp.array({ 1, 2 }), xp.array({ 1, 2, 3 }) }] end,
        "getitem: shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)")
      helper.assert_error(function() ga.take(x, { 1 }, 3) end, "take: axis 3 is out of bounds for array of dimension 2")
    end)
    it("an unbroadcastable value", function()
      helper.assert_error(function() x[xp.array({ 1, 2 })] = { 1, 2, 3 } end,
        "setitem: could not broadcast input array from shape (3,) into shape (2,4)")
      helper.assert_error(function() ga.add_at(x, xp.array({ 1 }), { 1, 2 }) end, "add_at: could not broadcast")
      helper.assert_error(function() x[xp.array({ 1 })] = "a" end, "setitem: cannot make an array from a string")
      helper.assert_error(function() ga.add_at(xp.zeros(3, "int8"), xp.array({ 1 }), 1000) end,
        "add_at: Lua integer 1000 out of bounds for int8")
    end)
  end)
end)

describe("advanced indexing: GPU == host", function()
  local cases = {
    { "rows", function(xp) return xp.arange(60):reshape({ 5, 12 })[xp.array({ 5, 1, -2, 3 })] end },
    { "pairs", function(xp)
      local x = ga.multiply(xp.arange(60), 0.5):reshape({ 5, 12 }).T
      return x[{ xp.array({ { 1 }, { 12 } }), xp.array({ 1, 5, 2 }) }]
    end },
    { "separated", function(xp)
      return xp.arange(120):reshape({ 2, 3, 4, 5 })[{ xp.array({ 2, 1 }), {}, 1, xp.array({ 5, 1 }) }]
    end },
    { "mask", function(xp) local x = xp.arange(40):reshape({ 5, 8 }); return x[{ {}, { -1, 1, -1 } }][x:gt(17)] end },
    { "set", function(xp)
      local x = xp.zeros({ 6, 7 }, "float16")
      x[{ { 1, -1, 2 }, xp.array({ 7, 1 }) }] = xp.array({ { 1 }, { 2 }, { 3 } }, "float64")
      return x
    end },
    { "add_at", function(xp)
      local x = xp.zeros({ 3, 4 }, "int16")
      ga.add_at(x, { xp.array({ 1, 3, 1, 1 }), xp.array({ 2, 4, 2, 2 }) }, xp.array({ 1, 2, 3, 4 }))
      return x
    end },
    { "take", function(xp) return ga.take(xp.arange(24):reshape({ 2, 3, 4 }).T, { 2, 1, 2 }, 2) end },
    { "put", function(xp) local x = xp.zeros({ 3, 3 }).T; ga.put(x, { 1, 2, 9 }, { 4, 5 }); return x end },
    { "compress", function(xp) return ga.compress({ true, false, true }, xp.arange(6):reshape({ 2, 3 }), 2) end },
  }
  for _, c in ipairs(cases) do
    it(c[1], function() helper.assert_gpu_vs_host(c[2]) end)
  end
end)
