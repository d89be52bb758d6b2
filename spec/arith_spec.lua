-- Elementwise + - * / and unary - : every real dtype, the ga.add/...
-- functions, broadcasting, scalars on either side, out= (also in place),
-- dtype=, casting errors, integer wrap-around, true division, float16
-- rounding.  Hand-worked values everywhere; on a GPU also against the host
-- across contiguous, transposed and broadcast inputs.
local helper = require "spec.helper"
local ga = helper.ga

local INF, NAN = math.huge, 0 / 0

local function floaty(dt)
  local k = helper.KIND[dt]
  return (k == "f" or k == "c") and dt or "float64"
end

-- a = {6, 8, 9}, b = {3, 2, 1}: exact in every real dtype
local A, B = { 6, 8, 9 }, { 3, 2, 1 }
local NEG = {
  int8 = { -6, -8, -9 }, int16 = { -6, -8, -9 }, int32 = { -6, -8, -9 }, int64 = { -6, -8, -9 },
  uint8 = { 250, 248, 247 }, uint16 = { 65530, 65528, 65527 }, uint32 = { 4294967290, 4294967288, 4294967287 },
  uint64 = nil, -- 2^64-6 is no Lua integer: checked as (-a) + a == 0
  float16 = { -6, -8, -9 }, float32 = { -6, -8, -9 }, float64 = { -6, -8, -9 },
}

local BINOPS = {
  { name = "add", op = function(a, b) return a + b end, fn = "add", want = { 9, 10, 10 } },
  { name = "subtract", op = function(a, b) return a - b end, fn = "subtract", want = { 3, 6, 8 } },
  { name = "multiply", op = function(a, b) return a * b end, fn = "multiply", want = { 18, 16, 9 } },
  { name = "divide", op = function(a, b) return a / b end, fn = "divide", want = { 2, 4, 9 }, floaty = true },
  { name = "true_divide", op = nil, fn = "true_divide", want = { 2, 4, 9 }, floaty = true },
}

local function elementwise(op, ta, tb)
  if type(ta) == "table" then
    local r = {}
    for i = 1, #ta do r[i] = elementwise(op, ta[i], tb[i]) end
    return r
  end
  return op(ta, tb)
end

helper.each_device(function(xp, dev)
  describe("every real dtype", function()
    for _, dt in ipairs(helper.REAL) do
      for _, o in ipairs(BINOPS) do
        local out_dt = o.floaty and floaty(dt) or dt
        it(dt .. " " .. o.name, function()
          local a, b = xp.array(A, dt), xp.array(B, dt)
          local results = { ga[o.fn](a, b) }
          if o.op then results[#results + 1] = o.op(a, b) end
          for _, r in ipairs(results) do
            assert.are.equal(out_dt, r.dtype)
            assert.are.equal(dev.name, helper.devstr(r.device))
            assert.are.same({ 3 }, r.shape)
            helper.assert_close(r, o.want)
          end
        end)
      end
      it(dt .. " negative and unary minus", function()
        local a = xp.array(A, dt)
        for _, r in ipairs { -a, ga.negative(a) } do
          assert.are.equal(dt, r.dtype)
          if NEG[dt] then
            helper.assert_close(r, NEG[dt])
          else
            helper.assert_close(r + a, { 0, 0, 0 })
          end
        end
      end)
    end
  end)

  describe("bool", function()
    local a, b = { true, true, false }, { true, false, false }
    it("bool + bool is logical or, bool * bool logical and", function()
      local x, y = xp.array(a), xp.array(b)
      local s, p = x + y, x * y
      assert.are.equal("bool", s.dtype)
      assert.are.same({ true, true, false }, s:totable())
      assert.are.equal("bool", p.dtype)
      assert.are.same({ true, false, false }, p:totable())
    end)
    it("bool / bool is float64", function()
      local r = xp.array({ true, false }) / xp.array({ true, true })
      assert.are.equal("float64", r.dtype)
      assert.are.same({ 1.0, 0.0 }, r:totable())
    end)
    it("bool - bool and -bool are errors", function()
      local x = xp.array(a)
      helper.assert_error(function() return x - x end, "subtract: ")
      helper.assert_error(function() return ga.subtract(x, x) end, "subtract: ")
      helper.assert_error(function() return -x end, "negative: ")
      helper.assert_error(function() return ga.negative(x) end, "negative: ")
    end)
  end)

  describe("integer wrap-around and division", function()
    local rows = {
      { "int8 127 + 1 = -128", function() return xp.array({ 127 }, "int8") + 1 end, "int8", { -128 } },
      { "int8 -128 - 1 = 127", function() return xp.array({ -128 }, "int8") - 1 end, "int8", { 127 } },
      { "int8 64 * 2 = -128", function() return xp.array({ 64 }, "int8") * 2 end, "int8", { -128 } },
      { "uint8 255 + 1 = 0", function() return xp.array({ 255 }, "uint8") + 1 end, "uint8", { 0 } },
      { "uint8 0 - 1 = 255", function() return xp.array({ 0 }, "uint8") - 1 end, "uint8", { 255 } },
      { "uint8 16 * 16 = 0", function() return xp.array({ 16 }, "uint8") * xp.array({ 16 }, "uint8") end,
        "uint8", { 0 } },
      { "int16 32767 + 1", function() return xp.array({ 32767 }, "int16") + 1 end, "int16", { -32768 } },
      { "uint16 65535 + 1", function() return xp.array({ 65535 }, "uint16") + 1 end, "uint16", { 0 } },
      { "int32 max + 1", function() return xp.array({ 2147483647 }, "int32") + 1 end, "int32", { -2147483648 } },
      { "uint32 max + 1", function() return xp.array({ 4294967295 }, "uint32") + 1 end, "uint32", { 0 } },
      { "int64 max + 1", function() return xp.array({ math.maxinteger }) + 1 end, "int64", { math.mininteger } },
      { "int8 -128 negated is -128", function() return -xp.array({ -128 }, "int8") end, "int8", { -128 } },
      { "int32 / int32 is float64",
        function() return xp.array({ 1, 2, 3 }, "int32") / xp.array({ 2, 4, 4 }, "int32") end,
        "float64", { 0.5, 0.5, 0.75 } },
      { "int64 7 / 2 = 3.5", function() return xp.array({ 7 }) / 2 end, "float64", { 3.5 } },
      { "uint8 / uint8 is float64", function() return xp.array({ 1 }, "uint8") / xp.array({ 4 }, "uint8") end,
        "float64", { 0.25 } },
      { "int8 / 1.5 (weak float) is float64", function() return xp.array({ 3 }, "int8") / 1.5 end, "float64", { 2.0 } },
      { "int64 {1,-1,0} / 0 = {inf,-inf,nan}", function() return xp.array({ 1, -1, 0 }) / 0 end, "float64",
        { INF, -INF, NAN } },
      { "float64 1/0 = inf", function() return xp.array({ 1.0, -1.0 }) / xp.zeros(2) end, "float64", { INF, -INF } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        helper.assert_close(x, r[4], { equal_nan = true })
      end)
    end
  end)

  describe("float rounding", function()
    -- the exact float16/float32 results (NumPy's, as doubles)
    local rows = {
      { "float16 0.1 + 0.2", function() return xp.array({ 0.1 }, "float16") + xp.array({ 0.2 }, "float16") end,
        "float16", 0.2998046875 },
      { "float16 2048 + 1 = 2048", function() return xp.array({ 2048 }, "float16") + 1 end, "float16", 2048.0 },
      { "float16 1 / 3", function() return xp.array({ 1 }, "float16") / xp.array({ 3 }, "float16") end,
        "float16", 0.333251953125 },
      { "float16 0.1 * 3", function() return xp.array({ 0.1 }, "float16") * 3 end, "float16", 0.2998046875 },
      { "float16 1000 * 100 overflows to inf", function() return xp.array({ 1000 }, "float16") * 100 end,
        "float16", INF },
      { "float32 2^24 + 1 = 2^24", function() return xp.array({ 16777216 }, "float32") + 1 end, "float32", 16777216.0 },
      { "float32 0.1 + 0.2", function() return xp.array({ 0.1 }, "float32") + xp.array({ 0.2 }, "float32") end,
        "float32", 0.30000001192092896 },
      { "float32 + 0.1 (weak) rounds the scalar to float32", function() return xp.zeros(1, "float32") + 0.1 end,
        "float32", 0.10000000149011612 },
      { "float64 0.1 + 0.2", function() return xp.array({ 0.1 }) + 0.2 end, "float64", 0.1 + 0.2 },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(r[3], x.dtype)
        assert.are.equal(r[4], x:totable()[1])
      end)
    end
  end)

  describe("broadcasting", function()
    local rows = {
      { "(2,3) + (3,)", function() return xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }) + xp.array({ 10, 20, 30 }) end,
        { { 11, 22, 33 }, { 14, 25, 36 } } },
      { "(3,) + (2,3)", function() return xp.array({ 10, 20, 30 }) + xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }) end,
        { { 11, 22, 33 }, { 14, 25, 36 } } },
      { "(2,1) + (1,3)", function() return xp.array({ { 1 }, { 2 } }) + xp.array({ { 10, 20, 30 } }) end,
        { { 11, 21, 31 }, { 12, 22, 32 } } },
      { "(2,1) * (3,)", function() return xp.array({ { 1 }, { 2 } }) * xp.array({ 10, 20, 30 }) end,
        { { 10, 20, 30 }, { 20, 40, 60 } } },
      { "(2,1) - (1,3)", function() return xp.array({ { 1 }, { 2 } }) - xp.array({ { 10, 20, 30 } }) end,
        { { -9, -19, -29 }, { -8, -18, -28 } } },
      { "(3,1) / (2,)",
        function() return xp.array({ { 2 }, { 4 }, { 8 } }, "float32") / xp.array({ 1, 2 }, "float32") end,
        { { 2, 1 }, { 4, 2 }, { 8, 4 } } },
      { "0-d + (3,)", function() return xp.array(2) + xp.array({ 1, 2, 3 }) end, { 3, 4, 5 } },
      { "(2,2,1) + (1,2)", function()
          return xp.array({ { { 1 }, { 2 } }, { { 3 }, { 4 } } }) + xp.array({ { 10, 20 } })
        end, { { { 11, 21 }, { 12, 22 } }, { { 13, 23 }, { 14, 24 } } } },
      { "T (3,2) + (2,)", function() return xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }).T + xp.array({ 100, 200 }) end,
        { { 101, 204 }, { 102, 205 }, { 103, 206 } } },
    }
    for _, r in ipairs(rows) do
      it(r[1], function()
        local x = r[2]()
        assert.are.equal(dev.name, helper.devstr(x.device))
        assert.are.same(r[3], helper.totable(x))
      end)
    end
    it("(0,3) + (3,) has shape (0,3)", function()
      local x = xp.zeros({ 0, 3 }) + xp.zeros(3)
      assert.are.same({ 0, 3 }, x.shape)
      assert.are.equal(0, x.size)
    end)
    it("(2,3) + (4,) is an error naming both shapes", function()
      local a, b = xp.zeros({ 2, 3 }), xp.zeros(4)
      local msg = helper.assert_error(function() return a + b end,
        "add: operands could not be broadcast together with shapes (2,3) (4,)")
      assert.is_truthy(msg)
      helper.assert_error(function() return ga.multiply(a, b) end,
        "multiply: operands could not be broadcast together with shapes (2,3) (4,)")
      helper.assert_error(function() return xp.zeros({ 2, 1 }) - xp.zeros({ 3, 2 }) end,
        "subtract: operands could not be broadcast together with shapes (2,1) (3,2)")
    end)
  end)

  describe("Lua numbers on either side", function()
    local rows = {
      { "a + 1", function(a) return a + 1 end, { 2, 3, 5 } },
      { "1 + a", function(a) return 1 + a end, { 2, 3, 5 } },
      { "a - 1", function(a) return a - 1 end, { 0, 1, 3 } },
      { "10 - a", function(a) return 10 - a end, { 9, 8, 6 } },
      { "a * 3", function(a) return a * 3 end, { 3, 6, 12 } },
      { "3 * a", function(a) return 3 * a end, { 3, 6, 12 } },
      { "a / 2", function(a) return a / 2 end, { 0.5, 1, 2 } },
      { "8 / a", function(a) return 8 / a end, { 8, 4, 2 } },
      { "ga.subtract(8, a)", function(a) return ga.subtract(8, a) end, { 7, 6, 4 } },
      { "ga.add(a, 0.5)", function(a) return ga.add(a, 0.5) end, { 1.5, 2.5, 4.5 } },
    }
    for _, dt in ipairs { "int32", "float32", "float64", "uint8", "float16" } do
      for _, r in ipairs(rows) do
        it(dt .. ": " .. r[1], function()
          local a = xp.array({ 1, 2, 4 }, dt)
          local x = r[2](a)
          helper.assert_close(x, r[3])
        end)
      end
    end
  end)

  describe("out=", function()
    it("returns out, filled", function()
      local a, b = xp.array({ 1, 2, 3 }, "float32"), xp.array({ 10, 20, 30 }, "float32")
      local out = xp.empty(3, "float32")
      for _, f in ipairs { "add", "subtract", "multiply", "divide" } do
        local r = ga[f](a, b, { out = out })
        assert.is_true(rawequal(out, r), f .. " did not return out")
      end
      helper.assert_close(out, { 0.1, 0.1, 0.1 })
      local n = ga.negative(a, { out = out })
      assert.is_true(rawequal(out, n))
      assert.are.same({ -1, -2, -3 }, out:totable())
    end)
    it("in place: ga.add(a, b, {out=a})", function()
      local a, b = xp.array({ 1, 2, 3 }), xp.array({ 10, 20, 30 })
      ga.add(a, b, { out = a })
      assert.are.same({ 11, 22, 33 }, a:totable())
      ga.multiply(a, 2, { out = a })
      assert.are.same({ 22, 44, 66 }, a:totable())
      ga.subtract(a, a, { out = a })
      assert.are.same({ 0, 0, 0 }, a:totable())
    end)
    it("in place with broadcasting: (2,3) += (3,)", function()
      local a = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int16")
      ga.add(a, xp.array({ 1, 1, 1 }, "int16"), { out = a })
      assert.are.same({ { 2, 3, 4 }, { 5, 6, 7 } }, a:totable())
    end)
    it("into a transposed view writes through to its base", function()
      local base = xp.zeros({ 3, 2 }, "float64")
      local out = base.T
      ga.add(xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float64"), 1, { out = out })
      assert.are.same({ { 2, 5 }, { 3, 6 }, { 4, 7 } }, base:totable())
    end)
    it("out of a wider dtype: int8 + int8 into float32", function()
      local out = xp.zeros(2, "float32")
      ga.add(xp.array({ 100, 100 }, "int8"), xp.array({ 27, 28 }, "int8"), { out = out })
      -- the loop runs in int8 (127, -128), then casts
      assert.are.same({ 127, -128 }, out:totable())
    end)
    it("float64 result into an int32 out is a casting error (same_kind), out unchanged", function()
      local out = xp.full(2, 7, "int32")
      helper.assert_error(function() ga.add(xp.array({ 1.5, 2.5 }), 1, { out = out }) end, "add: ", "cast")
      assert.are.same({ 7, 7 }, out:totable())
    end)
    it("casting='unsafe' allows it and truncates", function()
      local out = xp.zeros(2, "int32")
      ga.add(xp.array({ 1.5, 2.5 }), 1, { out = out, casting = "unsafe" })
      assert.are.same({ 2, 3 }, out:totable())
    end)
    it("an out of the wrong shape is an error", function()
      local out = xp.zeros(2)
      helper.assert_error(function() ga.add(xp.zeros(3), 1, { out = out }) end, "add: ", "shape")
      helper.assert_error(function() ga.add(xp.zeros({ 3, 2 }), 1, { out = xp.zeros(2) }) end, "add: ", "shape")
      helper.assert_error(function() ga.add(xp.zeros(3), xp.zeros(3), { out = xp.zeros({ 3, 2 }) }) end, "add: ")
    end)
    it("the inputs broadcast up to out's shape (NumPy)", function()
      local out = xp.zeros({ 3, 2 })
      ga.add(xp.array({ 1, 2 }), 1, { out = out })
      assert.are.same({ { 2, 3 }, { 2, 3 }, { 2, 3 } }, out:totable())
    end)
  end)

  describe("dtype= and casting=", function()
    it("int8 + int8 with dtype='int16' does not wrap", function()
      local r = ga.add(xp.array({ 100 }, "int8"), xp.array({ 100 }, "int8"), { dtype = "int16" })
      assert.are.equal("int16", r.dtype)
      assert.are.same({ 200 }, r:totable())
    end)
    it("int32 / int32 with dtype='float32'", function()
      local r = ga.divide(xp.array({ 1 }, "int32"), xp.array({ 4 }, "int32"), { dtype = "float32" })
      assert.are.equal("float32", r.dtype)
      assert.are.same({ 0.25 }, r:totable())
    end)
    it("float64 + float64 with dtype='float32' (same_kind)", function()
      local r = ga.add(xp.array({ 0.5 }), xp.array({ 0.25 }), { dtype = "float32" })
      assert.are.equal("float32", r.dtype)
      assert.are.same({ 0.75 }, r:totable())
    end)
    it("float64 inputs with dtype='int32' is a casting error", function()
      helper.assert_error(function() ga.add(xp.array({ 0.5 }), xp.array({ 0.25 }), { dtype = "int32" }) end,
        "add: ", "cast")
    end)
    it("... allowed with casting='unsafe'", function()
      local r = ga.add(xp.array({ 1.5 }), xp.array({ 2.75 }), { dtype = "int32", casting = "unsafe" })
      assert.are.equal("int32", r.dtype)
      assert.are.same({ 3 }, r:totable())
    end)
    it("casting='no' refuses int8 + int16 and accepts int8 + int8", function()
      helper.assert_error(function()
        ga.add(xp.ones(2, "int8"), xp.ones(2, "int16"), { casting = "no" })
      end, "add: ", "cast")
      assert.are.same({ 2, 2 }, ga.add(xp.ones(2, "int8"), xp.ones(2, "int8"), { casting = "no" }):totable())
    end)
    it("casting='safe' refuses a float64 result into float32", function()
      helper.assert_error(function()
        ga.add(xp.ones(2), xp.ones(2), { out = xp.zeros(2, "float32"), casting = "safe" })
      end, "add: ", "cast")
    end)
    it("an unknown casting is an error", function()
      helper.assert_error(function() ga.add(xp.ones(2), 1, { casting = "sometimes" }) end, "add: ", "casting")
    end)
    it("an unknown dtype= is an error", function()
      helper.assert_error(function() ga.multiply(xp.ones(2), 1, { dtype = "flaot32" }) end,
        "multiply: ", "unknown dtype 'flaot32'")
    end)
  end)
end)

-- Across layouts: contiguous, transposed and broadcast inputs give the
-- hand-worked result, and on a GPU the same as the host.
describe("layouts", function()
  local BA = { { 1, 2, 3 }, { 4, 5, 6 } }
  local BB = { { 6, 5, 4 }, { 3, 2, 1 } }
  local ops = {
    { "add", function(x, y) return x + y end },
    { "subtract", function(x, y) return x - y end },
    { "multiply", function(x, y) return x * y end },
    { "divide", function(x, y) return x / y end },
  }
  for _, dt in ipairs { "float16", "float32", "float64", "int32", "int64", "uint8" } do
    for _, o in ipairs(ops) do
      if not (o[1] == "subtract" and helper.KIND[dt] == "u") then
        it(dt .. " " .. o[1] .. " over every pair of layouts", function()
          local want = elementwise(o[2], BA, BB)
          for _, dev in ipairs(helper.devices()) do
            local la, lb = helper.layouts(dev.xp, BA, dt), helper.layouts(dev.xp, BB, dt)
            for _, a in ipairs(la) do
              for _, b in ipairs(lb) do
                local r = o[2](a.x, b.x)
                local ok, msg = helper.allclose(r, want)
                assert.is_true(ok, dev.name .. " " .. a.name .. " " .. o[1] .. " " .. b.name .. ": " .. msg)
              end
            end
          end
          for ia = 1, 3 do
            for ib = 1, 3 do
              local ok, msg = helper.check_gpu_vs_host(function(m)
                local la, lb = helper.layouts(m, BA, dt), helper.layouts(m, BB, dt)
                return o[2](la[ia].x, lb[ib].x)
              end)
              assert.is_true(ok, "GPU vs host, layouts " .. ia .. "," .. ib .. ": " .. msg)
            end
          end
        end)
      end
    end
  end

  it("a larger float32 expression agrees between GPU and host", function()
    local n = 100000
    helper.assert_gpu_vs_host(function(m)
      local x = m.arange(0, n, 1, "float32")
      local y = m.linspace(-1, 1, n, { dtype = "float32" })
      return (x * 0.5 - y) / (y * y + 1) + -x
    end)
  end)
  it("a larger int32 expression agrees between GPU and host (exactly)", function()
    helper.assert_gpu_vs_host(function(m)
      local x = m.arange(0, 50000, 1, "int32")
      return (x * 7 - 3) * x + -x
    end)
  end)
end)

-- The elementwise dispatch cache (ga_elementwise.c: each op keeps its last
-- call's loop): calls of one op that alternate operand dtypes and kinds of
-- Lua numbers each get their own loop, as NumPy's.
describe("the loop chosen for one call does not stick to the next", function()
  helper.each_device(function(xp)
    it("alternating dtypes and Lua numbers", function()
      local calls = {
        { function() return xp.add(xp.array({ 1 }, "int8"), xp.array({ 1 }, "int8")) end, "int8" },
        { function() return xp.add(xp.array({ 1 }, "int8"), xp.array({ 1 }, "float32")) end, "float32" },
        { function() return xp.add(xp.array({ 1 }, "float32"), xp.array({ 1 }, "int8")) end, "float32" },
        { function() return xp.add(xp.array({ 1 }, "int8"), 1) end, "int8" },
        { function() return xp.add(xp.array({ 1 }, "int8"), 1.5) end, "float64" },
        { function() return xp.add(xp.array({ 1 }, "int8"), true) end, "int8" },
        { function() return xp.add(xp.array({ true }), true) end, "bool" },
        { function() return xp.add(xp.array({ 1 }, "uint64"), xp.array({ 1 }, "int64")) end, "float64" },
        { function() return xp.less(xp.array({ 1 }, "uint8"), 300) end, "bool" },
        { function() return xp.less(xp.array({ 1 }, "uint64"), xp.array({ 2 }, "uint64")) end, "bool", { true } },
        { function() return xp.less(xp.array({ 1 }, "uint64"), xp.array({ -1 }, "int64")) end, "bool", { false } },
      }
      for round = 1, 3 do
        for i, c in ipairs(calls) do
          local r = c[1]()
          assert.are.equal(c[2], r.dtype, ("call %d, round %d"):format(i, round))
          if c[3] then assert.are.same(c[3], r:totable(), ("call %d, round %d"):format(i, round)) end
        end
      end
      assert.are.same({ false }, xp.less(xp.array({ 1 }, "uint64"), xp.array({ -1 }, "int64")):totable())
      assert.are.same({ true }, xp.less(xp.array({ 1 }, "uint8"), 300):totable())
    end)
  end)
end)

describe("ga.host's ufuncs of Lua values", function()
  it("make host arrays (not arrays on the current device)", function()
    local H = ga.host
    for _, r in ipairs { H.subtract(1, 0.3), H.add({ 1, 2 }, 1), H.sqrt(4), H.where(true, 1, 2), H.round(2.567, 2),
                         H.maximum({ 1, 5 }, { 3, 2 }), H.add(H.array({ 1, 2 }), { 1, 2 }) } do
      assert.are.equal("cpu", helper.devstr(r.device))
    end
    assert.are.equal(0.7, H.subtract(1, 0.3):item())
    assert.are.equal("float64", H.result_type(1, 2.0))
  end)
end)
