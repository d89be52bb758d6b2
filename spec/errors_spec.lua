-- Every bad input of the issue: a clear "<function>: <problem>" error, the
-- process goes on, and the pool's used_bytes is back where it was.
local helper = require "spec.helper"
local ga = helper.ga

local HAS_GPU = helper.has_gpu()

-- { name, function(xp) that must raise, fragments the message must hold }
local ROWS = {
  { "ragged nested table", function(xp) return xp.array({ { 1, 2 }, { 3 } }) end,
    "array: ", "ragged nested table" },
  { "ragged nested table (asarray)", function(xp) return xp.asarray({ { 1, 2 }, { 3, 4, 5 } }) end,
    "asarray: ", "ragged nested table" },
  { "ragged: number beside a table", function(xp) return xp.array({ 1, { 2 } }) end,
    "array: ", "ragged nested table" },
  { "ragged, deep", function(xp) return xp.array({ { { 1 }, { 2 } }, { { 3 }, { 4, 5 } } }) end,
    "array: ", "ragged nested table" },
  { "non-numeric value (string)", function(xp) return xp.array({ 1, "x" }) end,
    "array: ", "non-numeric value (string) in nested table" },
  { "non-numeric value (function)", function(xp) return xp.array({ { 1, print } }) end,
    "array: ", "non-numeric value (function) in nested table" },
  { "non-numeric value in set()", function(xp) local x = xp.zeros(2); x:set({ 1, "y" }) end,
    "set: ", "non-numeric value (string) in nested table" },
  { "unknown dtype", function(xp) return xp.zeros(3, "flaot32") end,
    "zeros: ", "unknown dtype 'flaot32'" },
  { "unknown dtype (options table)", function(xp) return xp.arange(0, 3, 1, { dtype = "floot" }) end,
    "arange: ", "unknown dtype 'floot'" },
  { "unknown dtype (array)", function(xp) return xp.array({ 1 }, "int3") end,
    "array: ", "unknown dtype 'int3'" },
  { "negative dimension", function(xp) return xp.zeros(-1) end,
    "zeros: ", "negative dimensions are not allowed" },
  { "negative dimension in a table", function(xp) return xp.ones({ 2, -2 }) end,
    "ones: ", "negative dimensions are not allowed" },
  { "negative dimension (full)", function(xp) return xp.full({ -3 }, 1.0) end,
    "full: ", "negative dimensions are not allowed" },
  { "fractional dimension", function(xp) return xp.zeros(2.5) end, "zeros: " },
  { "fractional dimension in a table", function(xp) return xp.empty({ 2, 1.5 }) end, "empty: " },
  { "non-integer shape", function(xp) return xp.zeros("three") end, "zeros: " },
  { "size that overflows", function(xp) return xp.zeros({ 1 << 40, 1 << 40 }) end, "zeros: " },
  { "size that overflows in bytes", function(xp) return xp.empty({ 1 << 31, 1 << 31 }, "float64") end, "empty: " },
  { "size that overflows (many dims)", function(xp) return xp.ones({ 1 << 20, 1 << 20, 1 << 20 }) end, "ones: " },
  { "broadcasting mismatch", function(xp) return xp.zeros({ 2, 3 }) + xp.zeros(4) end,
    "add: operands could not be broadcast together with shapes (2,3) (4,)" },
  { "broadcasting mismatch (multiply)", function(xp) return ga.multiply(xp.zeros({ 3, 1 }), xp.zeros({ 2, 4 })) end,
    "multiply: operands could not be broadcast together with shapes (3,1) (2,4)" },
  { "broadcasting mismatch (divide, 3-D)", function(xp) return xp.zeros({ 2, 2, 3 }) / xp.zeros({ 3, 3 }) end,
    "divide: ", "(2,2,3) (3,3)" },
  { "matmul inner dimensions", function(xp) return ga.matmul(xp.zeros({ 2, 3 }), xp.zeros({ 4, 2 })) end,
    "matmul: " },
  { "matmul of 1 dimension less",
    function(xp) return ga.matmul(xp.zeros({ 2, 3 }, "float32"), xp.zeros({}, "float32")) end,
    "matmul: " },
  { "a freed array used again", function(xp) local x = xp.ones(3); x:free(); return x * 2 end,
    "multiply: array has been freed" },
  { "a freed array as the other operand", function(xp) local x = xp.ones(3); x:free(); return xp.ones(3) - x end,
    "subtract: array has been freed" },
  { "arithmetic with a string", function(xp) return xp.ones(3) + "1" end, "add: " },
  { "arithmetic with a table", function(xp) return xp.ones(3) * {} end, "multiply: " },
  { "uint8 + out-of-bounds Lua integer", function(xp) return xp.ones(2, "uint8") + 256 end,
    "add: ", "out of bounds" },
  { "item of a size-3 array", function(xp) return xp.ones(3):item() end, "item: " },
  { "#x of a 0-d array", function(xp) return #xp.ones({}) end, "0-d" },
  { "unknown casting", function(xp) return ga.add(xp.ones(2), 1, { casting = "maybe" }) end, "add: ", "casting" },
  { "out of the wrong shape", function(xp) return ga.add(xp.ones(2), 1, { out = xp.zeros(3) }) end, "add: " },
  { "set() with the wrong shape", function(xp) local x = xp.zeros({ 2, 2 }); x:set({ { 1, 2, 3 } }) end, "set: " },
}

helper.each_device(function(xp, dev)
  for _, r in ipairs(ROWS) do
    it(r[1], function()
      local before = helper.used(xp)
      helper.assert_error(function() return r[2](xp) end, table.unpack(r, 3))
      -- the message starts with the function name (no position prefix needed,
      -- but one is tolerated)
      local _, err = pcall(r[2], xp)
      assert.matches("[%w_%.]+: .+", tostring(err))
      if before then assert.are.equal(before, helper.used(xp), "used_bytes moved") end
      -- nothing lost: the module still works
      assert.are.same({ 2.0, 2.0 }, (xp.ones(2) * 2):totable())
    end)
  end

  it("allocation beyond the pool limit", function()
    local pool = helper.pool_for(xp)
    if not pool then pending(dev.name .. " arrays are not counted by the default memory pool"); return end
    local before = helper.used(xp)
    pool:free_all_blocks()
    pool:set_limit(pool:total_bytes() + (1 << 20))
    local ok, err = pcall(function() return xp.ones(1 << 24) end) -- 128 MiB
    pool:set_limit(0)
    assert.is_false(ok)
    assert.matches("ones: out of memory allocating %d+ bytes %(pool used %d+, total %d+[,%)]", tostring(err))
    assert.are.equal(before, helper.used(xp))
    assert.are.same({ 1.0 }, xp.ones(1):totable())
  end)
end)

describe("device errors", function()
  it("invalid device id", function()
    local n = ga.cuda.device_count()
    helper.assert_error(function() return ga.cuda.Device(n + 7) end,
      "cuda.Device: ", "invalid device id " .. (n + 7))
    helper.assert_error(function() return ga.cuda.Device(-2) end, "cuda.Device: ")
    helper.assert_error(function() return ga.cuda.Device("zero") end, "cuda.Device: ")
  end)

  local MIX = {
    { "host + device", function(h, d) return h + d end, "add: " },
    { "device * host", function(h, d) return d * h end, "multiply: " },
    { "ga.subtract(host, device)", function(h, d) return ga.subtract(h, d) end, "subtract: " },
    { "matmul(device, host)", function(h, d) return ga.matmul(d, h) end, "matmul: " },
    { "device op with a host out", function(h, d) return ga.add(d, d, { out = h }) end, "add: " },
  }
  for _, r in ipairs(MIX) do
    it("mixed devices: " .. r[1] .. " names both devices and the fix", function()
      if not HAS_GPU then pending("no GPU"); return end
      local h = ga.host.ones({ 2, 2 }, "float32")
      local d = ga.ones({ 2, 2 }, "float32")
      local before = helper.used(ga)
      local msg = helper.assert_error(function() return r[2](h, d) end, r[3], "cpu", "cuda:0")
      assert.is_truthy(msg:find("asarray", 1, true) or msg:find("get()", 1, true) or msg:find(":get", 1, true),
        "message does not name the fix: " .. msg)
      assert.are.equal(before, helper.used(ga))
    end)
  end

  it("an array of another GPU than the current one (needs 2 GPUs)", function()
    if not HAS_GPU or ga.cuda.device_count() < 2 then pending("fewer than 2 GPUs"); return end
    local a = ga.ones(3)
    local ok, err = pcall(function() return ga.cuda.Device(1):with(function() return a * 2 end) end)
    assert.is_false(ok)
    assert.matches("multiply: array device must be same as the current device: array device = 0 while current = 1",
      tostring(err), 1, true)
  end)
end)
