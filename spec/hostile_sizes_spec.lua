-- Issue 10, hostile sizes: every length, count, stride and shift that comes
-- from the user is summed and multiplied with checked arithmetic, so an
-- overflow is "array is too big" (or NumPy's own words), never a wrapped
-- length, an out-of-bounds copy or an empty result; Lua numbers put into
-- integer arrays are range-checked; creation errors name the function.
-- Expected values are NumPy 2's (1-based where it matters).
local helper = require "spec.helper"
local ga = helper.ga
local T = helper.totable

local MAXI, MINI = math.maxinteger, math.mininteger
local TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size"

local function shape(x) return table.concat(x.shape, ",") end

-- {name, function(xp) that must raise, fragments of the message...}
local function check_errors(rows, xp)
  for _, r in ipairs(rows) do
    it(r[1], function()
      helper.assert_error(function() return r[2](xp) end, table.unpack(r, 3))
    end)
  end
end

-- A broadcast view of n bools (no memory of its own).
local function huge_bools(xp, n)
  return xp.broadcast_to(xp.zeros(1, "bool"), { n })
end

helper.each_device(function(xp)
  describe("sizes that overflow int64", function()
    check_errors({
      { "repeat: counts whose sum wraps to 1",
        function(x) return x["repeat"](x.arange(3), { MAXI, MAXI, 3 }) end, "repeat: " .. TOO_BIG },
      { "repeat: counts of 2^63-1 as Lua floats (2^63)",
        function(x) return x["repeat"](x.arange(3), { 2 ^ 63 - 1, 2 ^ 63 - 1, 3 }) end, "repeat: " .. TOO_BIG },
      { "repeat: counts in an int64 array",
        function(x) return x["repeat"](x.arange(3), x.array({ MAXI, MAXI, 3 })) end, "repeat: " .. TOO_BIG },
      { "tile: reps of 1e300", function(x) return x.tile(x.arange(3), 1e300) end, "tile: " .. TOO_BIG },
      { "repeat: count * length past int64 (was an empty array)",
        function(x) return x["repeat"](x.arange(4), 2 ^ 62) end, "repeat: " .. TOO_BIG },
      { "repeat: integer counts past int64 along an axis",
        function(x) return x["repeat"](x.zeros({ 2, 3 }), { MAXI, 1 }, 1) end, "repeat: " .. TOO_BIG },
      { "concatenate: lengths whose sum wraps",
        function(x)
          local h = huge_bools(x, 2 ^ 62)
          return ga.concatenate({ h, h, h, h, x.zeros(1, "bool") })
        end, "concatenate: " .. TOO_BIG },
      { "concatenate: axis=false sizes whose sum wraps",
        function(x)
          local h = huge_bools(x, 2 ^ 62)
          return ga.concatenate({ h, h, h, h, x.zeros(1, "bool") }, false)
        end, "concatenate: " .. TOO_BIG },
      { "concatenate: two lengths of 2^62 along axis 2",
        function(x)
          local h = x.broadcast_to(x.zeros(1, "bool"), { 1, 2 ^ 62 })
          return ga.concatenate({ h, h }, 2)
        end, "concatenate: " .. TOO_BIG },
      { "hstack / vstack sum the same way",
        function(x)
          local h = huge_bools(x, 2 ^ 62)
          return ga.hstack({ h, h, h, h, x.zeros(1, "bool") })
        end, "hstack: " .. TOO_BIG },
      { "stack: the count times the bytes",
        function(x)
          local h = huge_bools(x, 2 ^ 62)
          return ga.stack({ h, h, h, h })
        end, "stack: " .. TOO_BIG },
      { "tile: length * reps", function(x) return x.tile(x.arange(3), 2 ^ 62) end, "tile: " .. TOO_BIG },
      { "tile: reps product", function(x) return x.tile(x.arange(3), { 2 ^ 62, 2 ^ 62 }) end,
        "tile: " .. TOO_BIG },
      { "tile: a zero rep does not hide the overflow",
        function(x) return x.tile(x.arange(3), { 2 ^ 62, 0 }) end, "tile: " .. TOO_BIG },
      { "reshape: a product past int64 (zeros(0) into 2^40 x 2^40 x 0)",
        function(x) return x.zeros(0):reshape(2 ^ 40, 2 ^ 40, 0) end,
        "reshape: cannot reshape array of size 0 into shape (1099511627776,1099511627776,0)" },
      { "reshape: with -1", function(x) return x.zeros(0):reshape(2 ^ 40, 2 ^ 40, -1) end,
        "reshape: cannot reshape array of size 0" },
      { "reshape: bytes past int64 (complex128, 2^59 x 0)",
        function(x) return x.zeros(0, "complex128"):reshape(2 ^ 59, 0) end, "reshape: " .. TOO_BIG },
      { "zeros refuses what reshape refuses", function(x) return x.zeros({ 2 ^ 40, 2 ^ 40, 0 }) end,
        "zeros: " .. TOO_BIG },
      { "zeros: bytes past int64 with a zero length",
        function(x) return x.zeros({ 2 ^ 62, 0 }, "complex128") end, "zeros: " .. TOO_BIG },
      { "broadcast_to: a shape past int64",
        function(x) return x.broadcast_to(x.zeros(1), { 2 ^ 40, 2 ^ 40 }) end, "broadcast_to: " .. TOO_BIG },
    }, xp)

    it("sizes that fit still work", function()
      assert.are.same({ 0, 0, 1, 2, 2, 2 }, T(xp["repeat"](xp.arange(3), { 2, 1, 3 })))
      assert.are.equal("0", shape(xp["repeat"](xp.arange(3), { 0, 0, 0 })))
      assert.are.equal("0", shape(xp["repeat"](xp.zeros(0), MAXI)))
      assert.are.equal("0", shape(xp.tile(xp.zeros(0), 2 ^ 62)))
      assert.are.equal("2,3,0", shape(xp.zeros(0):reshape(2, 3, 0)))
      assert.are.equal("3,0", shape(xp.zeros(0):reshape(3, -1)))
      assert.are.same({ 1, 2, 3 }, T(ga.concatenate({ xp.array({ 1 }), xp.array({ 2, 3 }) })))
    end)
  end)

  describe("roll", function()
    local rows = {
      -- shift, axis, NumPy's result (np.roll(np.arange(5), ...))
      { { MAXI, MAXI }, nil, { 1, 2, 3, 4, 0 } },   -- 2*(2^63-1) mod 5 = 4
      { MAXI, nil, { 3, 4, 0, 1, 2 } },
      { MINI, nil, { 3, 4, 0, 1, 2 } },
      { { MINI, MINI }, nil, { 1, 2, 3, 4, 0 } },
      { { MAXI, MAXI }, { 1, 1 }, { 1, 2, 3, 4, 0 } },
      { { MAXI, 1 }, 1, { 2, 3, 4, 0, 1 } },
    }
    for i, r in ipairs(rows) do
      it("huge shifts, row " .. i, function()
        local got = r[2] and xp.roll(xp.arange(5), r[1], r[2]) or xp.roll(xp.arange(5), r[1])
        assert.are.same(r[3], T(got))
      end)
    end
    it("per axis of a 2-d array", function()
      local x = xp.arange(6):reshape(2, 3)
      -- 2 * (2^63-1) mod 3 = 2
      assert.are.same({ { 1, 2, 0 }, { 4, 5, 3 } }, T(xp.roll(x, { MAXI, MAXI }, { 2, 2 })))
      assert.are.same({ { 3, 4, 5 }, { 0, 1, 2 } }, T(xp.roll(x, MAXI, 1)))
    end)
  end)

  describe("arange lengths", function()
    it("integer ranges whose span overflows int64", function()
      assert.are.same({ -5, MAXI - 5 }, T(xp.arange(-5, MAXI, MAXI)))
      assert.are.same({ 5 }, T(xp.arange(5, 0, MINI)))
      assert.are.same({ MINI, -1, MAXI - 1 }, T(xp.arange(MINI, MAXI, MAXI)))
      assert.are.same({ MAXI - 1 }, T(xp.arange(MAXI - 1, MAXI, MAXI)))
      assert.are.same({ MAXI, -1 }, T(xp.arange(MAXI, MINI, MINI)))
      assert.are.equal("0", shape(xp.arange(MAXI, MINI)))
      assert.are.equal("0", shape(xp.arange(MINI, MAXI, -1)))
      assert.are.same({ 0, 2, 4 }, T(xp.arange(0, 5, 2)))
      assert.are.same({ 5, 3, 1 }, T(xp.arange(5, 0, -2)))
    end)
    check_errors({
      { "more than 2^63-1 values", function(x) return x.arange(MINI, MAXI, 2) end,
        "arange: Maximum allowed size exceeded" },
      { "2^64-1 values", function(x) return x.arange(MINI, MAXI) end, "arange: Maximum allowed size exceeded" },
      { "2^62 int64 values: too many bytes", function(x) return x.arange(MINI, MAXI, 4) end,
        "arange: " .. TOO_BIG },
      { "a float length past int64 (no undefined conversion)", function(x) return x.arange(0.0, 1e19) end,
        "arange: Maximum allowed size exceeded" },
      { "a float length of 1e300", function(x) return x.arange(0, 10, 1e-300) end,
        "arange: Maximum allowed size exceeded" },
      { "a span that overflows to inf", function(x) return x.arange(-1e308, 1e308, 1.0) end,
        "arange: Maximum allowed size exceeded" },
    }, xp)
  end)

  describe("Lua numbers into integer dtypes", function()
    check_errors({
      { "full: 2^63 (a float) into int64", function(x) return x.full(3, 2 ^ 63, "int64") end,
        "full: Lua number 9.2233720368548e+18 out of bounds for int64" },
      { "full: NaN into int64", function(x) return x.full(3, 0 / 0, "int64") end,
        "full: cannot convert float NaN to integer" },
      { "full: inf into int32", function(x) return x.full(3, math.huge, "int32") end,
        "full: cannot convert float infinity to integer" },
      { "full: 1e300 into int32", function(x) return x.full(3, 1e300, "int32") end,
        "full: Lua number 1e+300 out of bounds for int32" },
      { "full: 300 into int8", function(x) return x.full(3, 300, "int8") end,
        "full: Lua integer 300 out of bounds for int8" },
      { "full: -1 into uint8", function(x) return x.full(3, -1, "uint8") end,
        "full: Lua integer -1 out of bounds for uint8" },
      { "full_like: 1e300 into int16", function(x) return x.full_like(x.zeros(2, "int16"), 1e300) end,
        "full_like: Lua number 1e+300 out of bounds for int16" },
      { "arange: start 300 into int8", function(x) return x.arange(300, 310, "int8") end,
        "arange: Lua integer 300 out of bounds for int8" },
      { "arange: second value 200 into int8", function(x) return x.arange(0, 600, 200, "int8") end,
        "arange: Lua integer 200 out of bounds for int8" },
      { "arange: -1 into uint8", function(x) return x.arange(-1, 3, "uint8") end,
        "arange: Lua integer -1 out of bounds for uint8" },
      { "arange: float values past int8", function(x) return x.arange(0.0, 1e10, 1e9, "int8") end,
        "arange: Lua number 1000000000.0 out of bounds for int8" },
      { "arange: float values past int64", function(x) return x.arange(1e300, 1e301, 1e300, "int64") end,
        "arange: Lua number 1e+300 out of bounds for int64" },
      { "linspace: stop past int32", function(x) return x.linspace(0, 1e300, 3, "int32") end,
        "linspace: Lua number 1e+300 out of bounds for int32" },
      { "linspace: NaN into int32", function(x) return x.linspace(0, 0 / 0, 3, { dtype = "int32" }) end,
        "linspace: cannot convert float NaN to integer" },
    }, xp)
    it("values that fit still work (and floats truncate as in NumPy)", function()
      assert.are.same({ MAXI, MAXI }, T(xp.full(2, MAXI, "int64")))
      assert.are.same({ -128, -128 }, T(xp.full(2, -128.9, "int8")))
      assert.are.same({ 255 }, T(xp.full(1, 255, "uint8")))
      assert.are.same({ true, true }, T(xp.full(2, 5, "bool")))
      assert.are.same({ 0, 1, 2 }, T(xp.arange(0.0, 3.0, "int8")))
      assert.are.same({ 0, 0, 0, 0, 0, 0 }, T(xp.arange(0, 3, 0.5, "int32")))
      assert.are.same({ 0, 32, 64, 96 }, T(xp.linspace(0, 128, { num = 4, endpoint = false, dtype = "int8" })))
      assert.are.same({ 0, 5, 10 }, T(xp.linspace(0, 10, 3, "int32")))
    end)
  end)

  describe("creation errors name the function", function()
    check_errors({
      { "linspace: a fractional num", function(x) return x.linspace(0, 1, { num = 2.5 }) end,
        "linspace: num must be an integer, got 2.5" },
      { "linspace: a fractional positional num", function(x) return x.linspace(0, 1, 2.5) end,
        "linspace: num must be an integer, got 2.5" },
      { "linspace: a huge negative num, printed whole", function(x) return x.linspace(0, 1, { num = -2 ^ 62 }) end,
        "linspace: Number of samples, -4611686018427387904, must be non-negative" },
      { "linspace: too many samples", function(x) return x.linspace(0, 1, 2 ^ 62) end, "linspace: " .. TOO_BIG },
      { "linspace: start not a number", function(x) return x.linspace("a", 1) end,
        "linspace: start must be a number, got string" },
      { "eye: negative", function(x) return x.eye(-1) end, "eye: negative dimensions are not allowed" },
      { "eye: too big", function(x) return x.eye(2 ^ 40) end, "eye: " .. TOO_BIG },
      { "eye: M too big", function(x) return x.eye(3, 2 ^ 62, 2 ^ 62) end, "eye: " .. TOO_BIG },
      { "eye: a fractional N", function(x) return x.eye(2.5) end, "eye: N must be an integer, got 2.5" },
      { "eye: a fractional k", function(x) return x.eye(2, 2, 0.5) end, "eye: k must be an integer, got 0.5" },
      { "eye: N a string", function(x) return x.eye({}) end, "eye: N must be an integer, got table" },
      { "identity: negative", function(x) return x.identity(-1) end,
        "identity: negative dimensions are not allowed" },
      { "identity: too big", function(x) return x.identity(2 ^ 40) end, "identity: " .. TOO_BIG },
      { "identity: fractional", function(x) return x.identity(1.5) end, "identity: n must be an integer, got 1.5" },
      { "zeros: negative", function(x) return x.zeros(-1) end, "zeros: negative dimensions are not allowed" },
      { "zeros: fractional", function(x) return x.zeros(2.5) end, "zeros: dimensions must be integers, got 2.5" },
      { "zeros: 2^63 (a float)", function(x) return x.zeros(2 ^ 63) end, "zeros: " .. TOO_BIG },
      { "zeros: 1e300", function(x) return x.zeros({ 1e300 }) end, "zeros: " .. TOO_BIG },
      { "zeros: -1e300", function(x) return x.zeros({ -1e300 }) end, "zeros: negative dimensions are not allowed" },
      { "zeros: inf", function(x) return x.zeros(math.huge) end, "zeros: dimensions must be integers, got inf" },
      { "zeros: NaN", function(x) return x.zeros(0 / 0) end, "zeros: dimensions must be integers" },
      { "empty: too big", function(x) return x.empty({ 2 ^ 40, 2 ^ 40 }) end, "empty: " .. TOO_BIG },
      { "empty: bytes too big", function(x) return x.empty(2 ^ 61, "float64") end, "empty: " .. TOO_BIG },
      { "ones: too big", function(x) return x.ones({ 2 ^ 40, 2 ^ 40 }) end, "ones: " .. TOO_BIG },
      { "ones: negative", function(x) return x.ones({ 2, -3 }) end, "ones: negative dimensions are not allowed" },
      { "full: too big", function(x) return x.full({ 2 ^ 40, 2 ^ 40 }, 1) end, "full: " .. TOO_BIG },
      { "full: fractional", function(x) return x.full(1.5, 1) end, "full: dimensions must be integers, got 1.5" },
      { "full: no shape", function(x) return x.full() end, "full: missing shape" },
    }, xp)
    it("eye with extreme diagonals is all zeros (NumPy)", function()
      assert.are.same({ { 0, 0 }, { 0, 0 } }, T(xp.eye(2, 2, MAXI, "int8")))
      assert.are.same({ { 0, 0 }, { 0, 0 } }, T(xp.eye(2, 2, MINI, "int8")))
      assert.are.same({ { 0, 1, 0 }, { 0, 0, 1 } }, T(xp.eye(2, 3, 1, "int8")))
      assert.are.same({ { 1, 0 }, { 0, 1 } }, T(xp.identity(2, "int8")))
      assert.are.same({ { 1 } }, T(xp.eye(1, nil, nil, "int8")))
    end)
  end)

  describe("split counts", function()
    check_errors({
      { "array_split into 2^31-1 sections", function(x) return ga.array_split(x.arange(3), 2 ^ 31 - 1) end,
        "array_split: too many sections (2147483647; at most 16777216" },
      { "array_split into maxinteger sections", function(x) return ga.array_split(x.arange(3), MAXI) end,
        "array_split: too many sections (9223372036854775807" },
      { "split into 0 sections", function(x) return ga.split(x.arange(3), 0) end,
        "split: number sections must be larger than 0" },
      { "split: an unequal division by maxinteger", function(x) return ga.split(x.arange(4), MAXI) end,
        "split: array split does not result in an equal division" },
    }, xp)
    it("array_split makes empty sections past the length, split points clip", function()
      local p = ga.array_split(xp.arange(3), 5)
      assert.are.equal(5, #p)
      assert.are.same({ "1", "1", "1", "0", "0" }, { shape(p[1]), shape(p[2]), shape(p[3]), shape(p[4]), shape(p[5]) })
      local q = ga.split(xp.arange(4), { MAXI, MINI })
      assert.are.same({ "4", "0", "4" }, { shape(q[1]), shape(q[2]), shape(q[3]) })   -- x[:4], x[4:0], x[0:]
    end)
  end)
end)

describe("ReductionKernel sources with hostile shapes", function()
  local k = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "hostile_sum")
  it("a shape whose bytes overflow is refused, not wrapped", function()
    helper.assert_error(function() return k:source({ "complex128" }, { shape = { 2 ^ 31, 2 ^ 31 } }) end,
      TOO_BIG)
  end)
  it("transposed strides past 2^31 are exact", function()
    local src = k:source({ "float64" }, { shape = { 2 ^ 20, 2 ^ 12 }, layout = "transposed" })
    assert.is_string(src)
  end)
  it("arch must be a compute capability", function()
    helper.assert_error(function() return k:source({ "float32" }, { arch = 1.5 }) end,
      "arch must be an integer (e.g. 90), got 1.5")
  end)
end)
