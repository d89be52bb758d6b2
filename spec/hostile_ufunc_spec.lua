-- Issue 10, ufuncs: dtype= as NumPy's output signature, Lua integers checked
-- against the loop's dtype, the logical ops' truth tests, n-ary result_type,
-- and error messages that name the public function once, at the user's line.
-- Every expected value is NumPy 2's (0-based positions made 1-based).
local helper = require "spec.helper"
local ga = require "gpuarray"

local function a(xp, t, dt) return xp.array(t, dt) end

-- { what, function(xp) -> result, expected values, expected dtype }
local VALUES = {
  -- dtype= fixes the output; the inputs cast only as the casting rule allows
  { "greater(int16, 0, dtype=bool) ignores dtype=bool",
    function(xp) return ga.greater(a(xp, { 256, -32768, 3 }, "int16"), 0, { dtype = "bool" }) end,
    { true, false, true }, "bool" },
  { "equal(float64, int8, dtype=bool)",
    function(xp) return ga.equal(a(xp, { 1.5, 1 }), a(xp, { 1, 1 }, "int8"), { dtype = "bool" }) end,
    { false, true }, "bool" },
  { "true_divide(int32, 1, dtype=float64) divides in float64",
    function(xp) return ga.true_divide(a(xp, { 1000 }, "int32"), 1, { dtype = "float64" }) end, { 1000 }, "float64" },
  { "true_divide(int32, 1, dtype=float32)",
    function(xp) return ga.true_divide(a(xp, { 1000 }, "int32"), 1, { dtype = "float32" }) end, { 1000 }, "float32" },
  { "true_divide(int32, 1, dtype=float16)",
    function(xp) return ga.true_divide(a(xp, { 1000 }, "int32"), 1, { dtype = "float16" }) end, { 1000 }, "float16" },
  { "add(int32, 1, dtype=int8) casts the input same_kind (wraps)",
    function(xp) return ga.add(a(xp, { 1000 }, "int32"), 1, { dtype = "int8" }) end, { -23 }, "int8" },
  { "add(bool, 3, dtype=uint8): the Lua integer is judged against uint8",
    function(xp) return ga.add(a(xp, { true }), 3, { dtype = "uint8" }) end, { 4 }, "uint8" },
  { "add(uint8, -1, dtype=int16)",
    function(xp) return ga.add(a(xp, { 1, 2 }, "uint8"), -1, { dtype = "int16" }) end, { 0, 1 }, "int16" },
  { "add(uint8, 1, dtype=int16, casting=safe)",
    function(xp) return ga.add(a(xp, { 1, 2 }, "uint8"), 1, { dtype = "int16", casting = "safe" }) end,
    { 2, 3 }, "int16" },
  { "add(int64, 2.5, dtype=int64, casting=unsafe)",
    function(xp) return ga.add(a(xp, { 3 }), 2.5, { dtype = "int64", casting = "unsafe" }) end, { 5 }, "int64" },
  { "add(float64, 1.5, dtype=float32)",
    function(xp) return ga.add(a(xp, { 1.5 }), 1.5, { dtype = "float32" }) end, { 3 }, "float32" },
  { "absolute(complex64, dtype=float32) takes the complex loop",
    function(xp) return ga.absolute(a(xp, { -3 }, "complex64"), { dtype = "float32" }) end, { 3 }, "float32" },
  { "negative(int8, dtype=int64)",
    function(xp) return ga.negative(a(xp, { 4 }, "int8"), { dtype = "int64" }) end, { -4 }, "int64" },
  { "sqrt(int64, dtype=float32)",
    function(xp) return ga.sqrt(a(xp, { 4 }), { dtype = "float32" }) end, { 2 }, "float32" },
  { "ldexp(float32, 3, dtype=float64)",
    function(xp) return ga.ldexp(a(xp, { 1 }, "float32"), 3, { dtype = "float64" }) end, { 8 }, "float64" },
  { "round(float64, 1, dtype=float32): the decimals slot is not what dtype= names",
    function(xp) return ga.round(a(xp, { 1.25 }), 1, { dtype = "float32" }) end, { 1.2 }, "float32" },
  { "where(cond, int64, int64, dtype=int32)",
    function(xp) return ga.where(a(xp, { true, false }), a(xp, { 1, 2 }), a(xp, { 3, 4 }), { dtype = "int32" }) end,
    { 1, 4 }, "int32" },
  { "subtract(bool, true, dtype=int8)",
    function(xp) return ga.subtract(a(xp, { true }), true, { dtype = "int8" }) end, { 0 }, "int8" },
  { "negative(bool, dtype=int16)",
    function(xp) return ga.negative(a(xp, { true, false }), { dtype = "int16" }) end, { -1, 0 }, "int16" },
  { "isnan(float64, dtype=bool, casting=no)",
    function(xp) return ga.isnan(a(xp, { 1.5 }), { dtype = "bool", casting = "no" }) end, { false }, "bool" },
  -- a Lua integer is checked against the loop's dtype, not the array's
  { "uint8 / -1 divides in float64",
    function(xp) return a(xp, { 1, 2 }, "uint8") / -1 end, { -1, -2 }, "float64" },
  { "uint8 / 300", function(xp) return a(xp, { 150 }, "uint8") / 300 end, { 0.5 }, "float64" },
  { "arctan2(uint8, -1)", function(xp) return ga.arctan2(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 2.355, 2.035 }, "float16" },
  { "hypot(uint8, -1)", function(xp) return ga.hypot(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 1.414, 2.236 }, "float16" },
  { "logaddexp(uint8, -1)", function(xp) return ga.logaddexp(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 1.127, 2.049 }, "float16" },
  { "copysign(uint8, -1)", function(xp) return ga.copysign(a(xp, { 1, 2 }, "uint8"), -1) end,
    { -1, -2 }, "float16" },
  { "float_power(uint8, -1)", function(xp) return ga.float_power(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 1, 0.5 }, "float64" },
  { "heaviside(uint8, -1)", function(xp) return ga.heaviside(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 1, 1 }, "float16" },
  { "nextafter(uint8, -1)", function(xp) return ga.nextafter(a(xp, { 1, 2 }, "uint8"), -1) end,
    { 0.9995, 1.999 }, "float16" },
  { "greater(uint8, 300) compares exactly", function(xp) return ga.greater(a(xp, { 1 }, "uint8"), 300) end,
    { false }, "bool" },
  -- clip drops a Lua-integer bound beyond an integer array's range (NumPy)
  { "clip(uint8, -1, 300)", function(xp) return ga.clip(a(xp, { 1, 2 }, "uint8"), -1, 300) end,
    { 1, 2 }, "uint8" },
  { "clip(uint8, 0, 300)", function(xp) return ga.clip(a(xp, { 1, 2 }, "uint8"), 0, 300) end, { 1, 2 }, "uint8" },
  { "clip(uint8, 2, 300)", function(xp) return ga.clip(a(xp, { 1, 3 }, "uint8"), 2, 300) end, { 2, 3 }, "uint8" },
  { "clip(int8, -1, 300)", function(xp) return ga.clip(a(xp, { -5, 5 }, "int8"), -1, 300) end,
    { -1, 5 }, "int8" },
  { "clip(uint8, -1, 255, dtype=int16)",
    function(xp) return ga.clip(a(xp, { 1, 2 }, "uint8"), -1, 255, { dtype = "int16" }) end, { 1, 2 }, "int16" },
  { "clip(uint8, 1.5, 300)", function(xp) return ga.clip(a(xp, { 1, 2 }, "uint8"), 1.5, 300) end,
    { 1.5, 2 }, "float64" },
  { "clip(uint8, int8, float16) promotes n-ary",
    function(xp) return ga.clip(a(xp, { 1, 9 }, "uint8"), a(xp, { 2 }, "int8"), a(xp, { 5 }, "float16")) end,
    { 2, 5 }, "float16" },
  -- the logical ops test each operand's truth in its own dtype
  { "logical_or(float32 0, 1e-50)", function(xp) return ga.logical_or(a(xp, { 0 }, "float32"), 1e-50) end,
    { true }, "bool" },
  { "logical_and(int8, 300)", function(xp) return ga.logical_and(a(xp, { 1, 0 }, "int8"), 300) end,
    { true, false }, "bool" },
  { "logical_or(uint8, -1)", function(xp) return ga.logical_or(a(xp, { 0, 1 }, "uint8"), -1) end,
    { true, true }, "bool" },
  { "logical_xor(int8, float64 0.5)",
    function(xp) return ga.logical_xor(a(xp, { 1, 0 }, "int8"), a(xp, { 0.5, 0.5 })) end, { false, true }, "bool" },
  { "logical_and(float16 0.5, 1e300)",
    function(xp) return ga.logical_and(a(xp, { 0.5, 0 }, "float16"), 1e300) end, { true, false }, "bool" },
  { "logical_and(float64, int8, casting=no)",
    function(xp) return ga.logical_and(a(xp, { 1.5 }), a(xp, { 1 }, "int8"), { casting = "no" }) end,
    { true }, "bool" },
  { "logical_and(float64, 1, dtype=bool, casting=no)",
    function(xp) return ga.logical_and(a(xp, { 1.5 }), 1, { dtype = "bool", casting = "no" }) end,
    { true }, "bool" },
  { "logical_or(bool, 1.5)", function(xp) return ga.logical_or(a(xp, { false }), 1.5) end, { true }, "bool" },
  { "logical_and(complex64, complex128)",
    function(xp) return ga.logical_and(a(xp, { 1, 0 }, "complex64"), a(xp, { 1e-300, 1 }, "complex128")) end,
    { true, false }, "bool" },
  { "logical_not(float32 0.5, casting=no)",
    function(xp) return ga.logical_not(a(xp, { 0.5 }, "float32"), { casting = "no" }) end, { false }, "bool" },
  { "logical_and(float64, int8, out=float32)",
    function(xp) return ga.logical_and(a(xp, { 1.5 }), a(xp, { 1 }, "int8"), { out = xp.zeros(1, "float32") }) end,
    { 1 }, "float32" },
  -- joins take NumPy's n-ary result type
  { "concatenate(uint8, int8, float16)",
    function(xp) return ga.concatenate({ a(xp, { 1 }, "uint8"), a(xp, { -1 }, "int8"), a(xp, { 0.5 }, "float16") }) end,
    { 1, -1, 0.5 }, "float16" },
  { "stack(uint8, int8, float16)",
    function(xp) return ga.stack({ a(xp, { 1 }, "uint8"), a(xp, { -1 }, "int8"), a(xp, { 0.5 }, "float16") }) end,
    { { 1 }, { -1 }, { 0.5 } }, "float16" },
}

-- { what, function(xp), fragments of the message }
local ERRORS = {
  { "add(int64, 300, dtype=int8)", function(xp) return ga.add(a(xp, { 1 }), 300, { dtype = "int8" }) end,
    "add: Lua integer 300 out of bounds for int8" },
  { "uint8 + -1", function(xp) return a(xp, { 1 }, "uint8") + -1 end, "add: Lua integer -1 out of bounds for uint8" },
  { "power(uint8, -1)", function(xp) return ga.power(a(xp, { 1 }, "uint8"), -1) end,
    "power: Lua integer -1 out of bounds for uint8" },
  { "maximum(uint8, -1)", function(xp) return ga.maximum(a(xp, { 1 }, "uint8"), -1) end,
    "maximum: Lua integer -1 out of bounds for uint8" },
  { "clip(uint8, 300, 400)", function(xp) return ga.clip(a(xp, { 1 }, "uint8"), 300, 400) end,
    "clip: Lua integer 300 out of bounds for uint8" },
  { "add(float64, 3, dtype=int64)", function(xp) return ga.add(a(xp, { 1.5 }), 3, { dtype = "int64" }) end,
    "add: Cannot cast ufunc 'add' input 0 from float64 to int64 with casting rule 'same_kind'" },
  { "add(bool, 3, dtype=bool)", function(xp) return ga.add(a(xp, { true }), 3, { dtype = "bool" }) end,
    "add: Cannot cast ufunc 'add' input 1 from int64 to bool with casting rule 'same_kind'" },
  { "add(int64, 2.5, dtype=int64)", function(xp) return ga.add(a(xp, { 3 }), 2.5, { dtype = "int64" }) end,
    "add: Cannot cast ufunc 'add' input 1 from float64 to int64 with casting rule 'same_kind'" },
  { "add(uint8, uint8, dtype=int8, casting=safe)",
    function(xp) return ga.add(a(xp, { 1 }, "uint8"), a(xp, { 1 }, "uint8"), { dtype = "int8", casting = "safe" }) end,
    "add: Cannot cast ufunc 'add' input 0 from uint8 to int8 with casting rule 'safe'" },
  { "negative(int64, dtype=int8, casting=safe)",
    function(xp) return ga.negative(a(xp, { 1 }), { dtype = "int8", casting = "safe" }) end,
    "negative: Cannot cast ufunc 'negative' input from int64 to int8 with casting rule 'safe'" },
  { "add(uint8, true, casting=no)", function(xp) return ga.add(a(xp, { 1 }, "uint8"), true, { casting = "no" }) end,
    "add: Cannot cast ufunc 'add' input 1 from bool to uint8 with casting rule 'no'" },
  { "greater(int16, 0, dtype=int8)",
    function(xp) return ga.greater(a(xp, { 1 }, "int16"), 0, { dtype = "int8" }) end,
    "greater: No loop matching the specified signature and casting was found for ufunc greater" },
  { "greater(float64, float64, dtype=float64)",
    function(xp) return ga.greater(a(xp, { 1 }), a(xp, { 1 }), { dtype = "float64" }) end,
    "greater: No loop matching the specified signature and casting was found for ufunc greater" },
  { "true_divide(int8, int8, dtype=int8)",
    function(xp) return ga.true_divide(a(xp, { 1 }, "int8"), a(xp, { 1 }, "int8"), { dtype = "int8" }) end,
    "true_divide: No loop matching the specified signature and casting was found for ufunc true_divide" },
  { "logical_or(bool, 2, dtype=int8)",
    function(xp) return ga.logical_or(a(xp, { true }), 2, { dtype = "int8" }) end,
    "logical_or: No loop matching the specified signature and casting was found for ufunc logical_or" },
  { "subtract(bool, bool, dtype=bool)",
    function(xp) return ga.subtract(a(xp, { true }), a(xp, { true }), { dtype = "bool" }) end,
    "subtract: the boolean subtract is not supported" },
  { "isnan(float64, dtype=float64)", function(xp) return ga.isnan(a(xp, { 1 }), { dtype = "float64" }) end,
    "isnan: No loop matching the specified signature and casting was found for ufunc isnan" },
  { "ldexp(float64, 3, dtype=float32): the exponent is in ldexp's signature",
    function(xp) return ga.ldexp(a(xp, { 1 }), 3, { dtype = "float32" }) end,
    "ldexp: No loop matching the specified signature and casting was found for ufunc ldexp" },
}

helper.each_device(function(xp)
  describe("ufunc dtype resolution", function()
    for _, row in ipairs(VALUES) do
      it(row[1], function()
        local r = row[2](xp)
        assert.are.equal(row[4], r.dtype)
        helper.assert_close(r:totable(), row[3], { dtype = r.dtype, rtol = r.dtype == "float16" and 1e-3 or nil })
      end)
    end
    for _, row in ipairs(ERRORS) do
      it("refuses " .. row[1], function()
        local msg = helper.assert_error(function() return row[2](xp) end, row[3])
        local name = row[3]:match("^([%w_]+): ")
        assert.is_nil(msg:find(name .. ": " .. name .. ":", 1, true), msg)
      end)
    end
  end)

  describe("ufunc error messages", function()
    local bcast = function(dt) return ga.broadcast_to(xp.zeros(1, dt), { 3 }) end
    -- { the public name, a one-line function: the error's position must be its line }
    local CASES = {
      { "add", function() ga.add(xp.arange(3), 1, { out = bcast("int64") }) end },
      { "where", function() ga.where(true, xp.arange(3), 1, { out = bcast("int64") }) end },
      { "where", function() ga.where(xp.arange(3), xp.arange(3), "x") end },
      { "clip", function() ga.clip(xp.arange(3), "x", 2) end },
      { "clip", function() ga.clip(xp.arange(3), nil, 2, { out = bcast("int64") }) end },
      { "clip", function() ga.clip(xp.arange(3, "uint8"), -1, 300, { out = bcast("uint8") }) end },
      { "round", function() ga.round(xp.arange(3), 1, { out = bcast("int64") }) end },
      { "angle", function() ga.angle("x", true) end },
      { "clip", function() local x = xp.arange(3, "uint8"); x:free(); ga.clip(x, -1, 300) end },
      { "where", function() local c = xp.arange(3); c:free(); ga.where(c, 1, 2) end },
      { "round", function() local x = xp.zeros(3, "bool"); x:free(); ga.round(x) end },
      { "angle", function() local x = xp.zeros(3, "bool"); x:free(); ga.angle(x, true) end },
    }
    for i, case in ipairs(CASES) do
      it(case[1] .. " (case " .. i .. ") names itself once, at the caller's line", function()
        local ok, msg = pcall(case[2])
        assert.is_false(ok)
        msg = tostring(msg)
        local want = ("hostile_ufunc_spec.lua:%d: %s: "):format(debug.getinfo(case[2], "S").linedefined, case[1])
        assert.is_truthy(msg:find(want, 1, true), msg)
        local _, n = msg:gsub(case[1] .. ": ", "")
        assert.are.equal(1, n, msg)
        assert.is_nil(msg:find("_" .. case[1], 1, true), msg)
        assert.is_nil(msg:find("ufuncs.lua", 1, true), msg)
      end)
    end

    it("refuses a broadcast output before any backend sees it", function()
      helper.assert_error(function() ga.add(xp.arange(3), 1, { out = bcast("int64") }) end,
        "add: output array is read-only")
    end)
  end)
end)

describe("result_type", function()
  -- { dtypes..., NumPy's result }
  local ROWS = {
    { "uint8", "int8", "float16", "float16" },
    { "uint8", "float16", "int8", "float16" },
    { "uint16", "int8", "float16", "float32" },
    { "uint64", "int8", "float16", "float64" },
    { "uint8", "uint16", "int8", "int32" },
    { "int64", "uint64", "float16", "float64" },
    { "uint8", "int8", "complex64", "complex64" },
    { "float16", "complex64", "int16", "complex64" },
    { "bool", "uint8", "int8", "int16", "float16", "float32" },
  }
  for _, row in ipairs(ROWS) do
    local args = { table.unpack(row, 1, #row - 1) }
    it(table.concat(args, ", ") .. " -> " .. row[#row], function()
      assert.are.equal(row[#row], ga.result_type(table.unpack(args)))
      local arrs = {}
      for i, dt in ipairs(args) do arrs[i] = ga.host.zeros(1, dt) end
      assert.are.equal(row[#row], ga.result_type(table.unpack(arrs)))
      assert.are.equal(row[#row], ga.concatenate(arrs).dtype)
    end)
  end

  it("takes any number of arguments", function()
    local args = {}
    for i = 1, 200 do args[i] = "int8" end
    args[#args + 1] = "uint8"
    assert.are.equal("int16", ga.result_type(table.unpack(args)))
  end)
end)
