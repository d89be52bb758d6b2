-- dtypes: names, aliases, itemsize, default dtypes, NumPy 2 promotion of
-- every pair, Lua numbers as weak scalars (NEP 50).
local helper = require "spec.helper"
local ga = helper.ga

local D = helper.DTYPES

local ABBR = {
  b = "bool", i8 = "int8", i16 = "int16", i32 = "int32", i64 = "int64",
  u8 = "uint8", u16 = "uint16", u32 = "uint32", u64 = "uint64",
  f16 = "float16", f32 = "float32", f64 = "float64", c64 = "complex64", c128 = "complex128",
}

-- NumPy 2's result dtype of array(a) + array(b), row a, column b, in the
-- order of helper.DTYPES (computed with numpy 2.4: (np.zeros(2,a)+np.zeros(2,b)).dtype).
-- luacheck: push ignore 631
local PROMOTE = {
  --                b      i8     i16     i32     i64      u8     u16     u32     u64     f16     f32     f64     c64    c128
  bool       = {   "b",   "i8",  "i16",  "i32",  "i64",   "u8",  "u16",  "u32",  "u64",  "f16",  "f32",  "f64",  "c64", "c128"},
  int8       = {  "i8",   "i8",  "i16",  "i32",  "i64",  "i16",  "i32",  "i64",  "f64",  "f16",  "f32",  "f64",  "c64", "c128"},
  int16      = { "i16",  "i16",  "i16",  "i32",  "i64",  "i16",  "i32",  "i64",  "f64",  "f32",  "f32",  "f64",  "c64", "c128"},
  int32      = { "i32",  "i32",  "i32",  "i32",  "i64",  "i32",  "i32",  "i64",  "f64",  "f64",  "f64",  "f64", "c128", "c128"},
  int64      = { "i64",  "i64",  "i64",  "i64",  "i64",  "i64",  "i64",  "i64",  "f64",  "f64",  "f64",  "f64", "c128", "c128"},
  uint8      = {  "u8",  "i16",  "i16",  "i32",  "i64",   "u8",  "u16",  "u32",  "u64",  "f16",  "f32",  "f64",  "c64", "c128"},
  uint16     = { "u16",  "i32",  "i32",  "i32",  "i64",  "u16",  "u16",  "u32",  "u64",  "f32",  "f32",  "f64",  "c64", "c128"},
  uint32     = { "u32",  "i64",  "i64",  "i64",  "i64",  "u32",  "u32",  "u32",  "u64",  "f64",  "f64",  "f64", "c128", "c128"},
  uint64     = { "u64",  "f64",  "f64",  "f64",  "f64",  "u64",  "u64",  "u64",  "u64",  "f64",  "f64",  "f64", "c128", "c128"},
  float16    = { "f16",  "f16",  "f32",  "f64",  "f64",  "f16",  "f32",  "f64",  "f64",  "f16",  "f32",  "f64",  "c64", "c128"},
  float32    = { "f32",  "f32",  "f32",  "f64",  "f64",  "f32",  "f32",  "f64",  "f64",  "f32",  "f32",  "f64",  "c64", "c128"},
  float64    = { "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64",  "f64", "c128", "c128"},
  complex64  = { "c64",  "c64",  "c64", "c128", "c128",  "c64",  "c64", "c128", "c128",  "c64",  "c64", "c128",  "c64", "c128"},
  complex128 = {"c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128", "c128"},
}
-- luacheck: pop

-- Weak Lua scalars (NEP 50): array(dtype) + scalar.  A string starting with
-- "!" means an error whose message contains the rest.  (numpy 2.4 results
-- for the Python int/float of the same value.)
local OOB = "!out of bounds"
local WEAK = {
  --  dtype         1          1.5        -1         300        1<<40      2.0
  { "bool",       "int64",   "float64", "int64",   "int64",   "int64",   "float64" },
  { "int8",       "int8",    "float64", "int8",    OOB,       OOB,       "float64" },
  { "int16",      "int16",   "float64", "int16",   "int16",   OOB,       "float64" },
  { "int32",      "int32",   "float64", "int32",   "int32",   OOB,       "float64" },
  { "int64",      "int64",   "float64", "int64",   "int64",   "int64",   "float64" },
  { "uint8",      "uint8",   "float64", OOB,       OOB,       OOB,       "float64" },
  { "uint16",     "uint16",  "float64", OOB,       "uint16",  OOB,       "float64" },
  { "uint32",     "uint32",  "float64", OOB,       "uint32",  OOB,       "float64" },
  { "uint64",     "uint64",  "float64", OOB,       "uint64",  "uint64",  "float64" },
  { "float16",    "float16", "float16", "float16", "float16", "float16", "float16" },
  { "float32",    "float32", "float32", "float32", "float32", "float32", "float32" },
  { "float64",    "float64", "float64", "float64", "float64", "float64", "float64" },
  { "complex64",  "complex64", "complex64", "complex64", "complex64", "complex64", "complex64" },
  { "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128" },
}
local SCALARS = { 1, 1.5, -1, 300, 1 << 40, 2.0 }

local ALIASES = {
  { "float", "float64" }, { "int", "int64" }, { "f4", "float32" }, { "f8", "float64" },
  { "f2", "float16" }, { "i8", "int64" }, { "i4", "int32" }, { "i2", "int16" }, { "i1", "int8" },
  { "u1", "uint8" }, { "u8", "uint64" }, { "half", "float16" }, { "single", "float32" },
  { "double", "float64" }, { "c8", "complex64" }, { "c16", "complex128" },
  { "complex", "complex128" }, { "b1", "bool" },
}

describe("dtype constants", function()
  for _, name in ipairs(D) do
    it("ga." .. name .. " is the string '" .. name .. "'", function()
      assert.are.equal(name, ga[name])
    end)
  end
end)

helper.each_device(function(xp, dev)
  describe("dtype names", function()
    for _, name in ipairs(D) do
      it(name .. ": dtype and itemsize", function()
        local x = xp.zeros(3, name)
        assert.are.equal(name, x.dtype)
        assert.are.equal(helper.ITEMSIZE[name], x.itemsize)
        assert.are.equal(3 * helper.ITEMSIZE[name], x.nbytes)
        assert.are.equal(dev.name, helper.devstr(x.device))
      end)
      it(name .. ": the ga." .. name .. " constant works as a dtype", function()
        assert.are.equal(name, xp.ones(2, ga[name]).dtype)
      end)
    end
    for _, row in ipairs(ALIASES) do
      it("alias '" .. row[1] .. "' is " .. row[2], function()
        assert.are.equal(row[2], xp.zeros(2, row[1]).dtype)
        assert.are.equal(row[2], xp.zeros({ 2 }, { dtype = row[1] }).dtype)
      end)
    end
    it("an unknown dtype is an error naming it", function()
      helper.assert_error(function() xp.zeros(3, "flaot32") end, "zeros: ", "unknown dtype 'flaot32'")
      helper.assert_error(function() xp.ones(3, { dtype = "int128" }) end, "ones: ", "unknown dtype 'int128'")
    end)
  end)

  describe("default dtypes", function()
    local rows = {
      { "Lua integers -> int64", function() return xp.array({ 1, 2 }) end, "int64" },
      { "Lua floats -> float64", function() return xp.array({ 1.5, 2.5 }) end, "float64" },
      { "mixed integers and floats -> float64", function() return xp.array({ 1, 2.5 }) end, "float64" },
      { "booleans -> bool", function() return xp.array({ true, false }) end, "bool" },
      { "a Lua integer -> 0-d int64", function() return xp.array(7) end, "int64" },
      { "a Lua float -> 0-d float64", function() return xp.array(7.5) end, "float64" },
      { "zeros -> float64", function() return xp.zeros(2) end, "float64" },
      { "full with an integer -> int64", function() return xp.full(2, 3) end, "int64" },
    }
    for _, r in ipairs(rows) do
      it(r[1], function() assert.are.equal(r[3], r[2]().dtype) end)
    end
  end)

  describe("promotion of array + array (NumPy 2)", function()
    for i, a in ipairs(D) do
      it(a .. " + each dtype", function()
        local x = xp.zeros(2, a)
        local got, want = {}, {}
        for j, b in ipairs(D) do
          local y = xp.zeros(2, b)
          local ok, r = pcall(function() return (x + y).dtype end)
          got[j] = b .. "->" .. (ok and r or ("error: " .. tostring(r)))
          want[j] = b .. "->" .. ABBR[PROMOTE[a][j]]
        end
        assert.are.same(want, got)
      end)
      -- promotion is symmetric: the scalar on the other side gives the same
      it(a .. ": each dtype + " .. a, function()
        local x = xp.zeros(2, a)
        local got, want = {}, {}
        for j, b in ipairs(D) do
          local ok, r = pcall(function() return (xp.zeros(2, b) + x).dtype end)
          got[j] = b .. "->" .. (ok and r or ("error: " .. tostring(r)))
          want[j] = b .. "->" .. ABBR[PROMOTE[b][i]]
        end
        assert.are.same(want, got)
      end)
    end
  end)

  describe("Lua numbers are weak scalars (NEP 50)", function()
    for _, row in ipairs(WEAK) do
      local dt = row[1]
      for k, s in ipairs(SCALARS) do
        local expect = row[k + 1]
        local sname = (math.type(s) == "float" and string.format("%.1f", s) or tostring(s))
        if expect:sub(1, 1) == "!" then
          it(dt .. " array + " .. sname .. " is an error (" .. expect:sub(2) .. ")", function()
            helper.assert_error(function() return xp.zeros(2, dt) + s end, "add: ", expect:sub(2))
            helper.assert_error(function() return s + xp.zeros(2, dt) end, "add: ", expect:sub(2))
          end)
        else
          it(dt .. " array + " .. sname .. " -> " .. expect, function()
            assert.are.equal(expect, (xp.zeros(2, dt) + s).dtype)
            assert.are.equal(expect, (s + xp.zeros(2, dt)).dtype)
          end)
        end
      end
    end
    -- the rows the issue names explicitly, with values
    it("int8 array + 1 -> int8 values", function()
      local r = xp.array({ 1, 2 }, "int8") + 1
      assert.are.equal("int8", r.dtype)
      assert.are.same({ 2, 3 }, r:totable())
    end)
    it("int8 array + 1.5 -> float64 values", function()
      local r = xp.array({ 1, 2 }, "int8") + 1.5
      assert.are.equal("float64", r.dtype)
      assert.are.same({ 2.5, 3.5 }, r:totable())
    end)
    it("float32 array * 1.5 stays float32", function()
      local r = xp.array({ 2, 4 }, "float32") * 1.5
      assert.are.equal("float32", r.dtype)
      assert.are.same({ 3.0, 6.0 }, r:totable())
    end)
    it("bool array + 1 -> int64 values", function()
      local r = xp.array({ true, false }) + 1
      assert.are.equal("int64", r.dtype)
      assert.are.same({ 2, 1 }, r:totable())
    end)
    it("uint8 array + (-1): out of bounds error, nothing allocated", function()
      local before = helper.used(xp)
      local x = xp.array({ 1, 2 }, "uint8")
      helper.assert_error(function() return x + (-1) end, "add: ", "-1", "out of bounds", "uint8")
      if before then
        x:free()
        assert.are.equal(before, helper.used(xp))
      end
    end)
    it("int64 + uint64 -> float64, int8 + uint8 -> int16, float16 + int16 -> float32", function()
      assert.are.equal("float64", (xp.ones(2, "int64") + xp.ones(2, "uint64")).dtype)
      assert.are.equal("int16", (xp.ones(2, "int8") + xp.ones(2, "uint8")).dtype)
      assert.are.equal("float32", (xp.ones(2, "float16") + xp.ones(2, "int16")).dtype)
    end)
  end)
end)

describe("dtype traps", function()
  it("a misspelt dtype suggests the closest name; a shape in two arguments says it must be one table", function()
    local ok, err = pcall(ga.host.zeros, { 3 }, "flot32")
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("zeros: unknown dtype 'flot32' (did you mean 'float32'?)", 1, true), err)
    err = select(2, pcall(ga.host.ones, { 3 }, "xyzzy"))
    assert.is_truthy(tostring(err):find("ones: unknown dtype 'xyzzy'", 1, true) and not tostring(err):find("mean"), err)
    ok, err = pcall(ga.host.zeros, 3, 4)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("(a shape is one table: zeros({3, 4}), not zeros(3, 4))", 1, true), err)
  end)
end)
