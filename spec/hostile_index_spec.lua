-- Hostile input to indexing (issue 10): index arrays that only a weak table
-- holds (a GC step inside the call must not free them), strings as indices,
-- Lua numbers out of range for the array's dtype on assignment, ranges and
-- indices at the int64 extremes, selections whose size overflows int64.
-- Expected values are NumPy 2's, translated to 1-based inclusive ranges.
local helper = require "spec.helper"
local ga = helper.ga

local T = helper.totable
local MAXI, MINI = math.maxinteger, math.mininteger

-- Make a full collection run inside a later binding call: lga_new_array
-- collects once 256 MiB (LGA_GC_STEP_BYTES in lga_array.c) were allocated
-- since the last collection.  The first allocation crosses the mark (a
-- collection, the count back to 0), the second leaves the count `slack`
-- bytes below it: the allocation that takes the count past `slack` bytes
-- more collects.  The arrays are freed at once (virtual memory, never
-- touched).
local STEP = 256 << 20
local function gc_after(xp, slack)
  xp.empty(STEP + 1, "uint8"):free()
  xp.empty(STEP - slack, "uint8"):free()
end

-- Drop garbage and cached blocks, so that the block an early-freed index
-- array returns to the pool is the one the next allocation of its size gets
-- (what turns a use after free into a wrong answer rather than luck).
local function clean_pools()
  collectgarbage("collect")
  collectgarbage("collect")
  ga.get_default_memory_pool():free_all_blocks()
  ga.get_default_pinned_memory_pool():free_all_blocks()
end

-- 1, 2, ..., n read backwards (a view whose data runs the other way than
-- the result's: a freed block reused by the result gets overwritten before
-- it is read)
local function reversed(xp, n)
  return xp.arange(1, n + 1)[{ { -1, 1, -1 } }]
end

-- A table with weak values holding the given arrays, made so that nothing
-- else refers to them: the registers the arrays passed through are
-- overwritten (a GC marks a Lua frame's dead registers too, which would
-- keep the arrays alive and hide the bug).
local function scrub(n)
  local a = n
  if n > 0 then scrub(n - 1) end
  return a
end
local function weak_key(make)
  local key = setmetatable({}, { __mode = "v" })
  make(key)
  scrub(64)
  return key
end

local function expect_reversed(got, n)
  local t = T(got)
  assert.are.equal(n, #t)
  for i = 1, n do
    if t[i] ~= n - i then
      assert.are.equal(n - i, t[i], "element " .. i)
    end
  end
end

helper.each_device(function(xp)
  describe("index arrays held only by a weak key table", function()
    local N = 777   -- an odd size, unlike the other arrays' blocks

    -- only the collections the binding runs: none of Lua's own steps
    before_each(function() collectgarbage("stop") end)
    after_each(function()
      collectgarbage("restart")
      clean_pools()
    end)

    it("x[key] reads the indices even when a GC inside the call collects the key's arrays", function()
      clean_pools()
      local x = xp.arange(N)
      -- the index array's N int64 count, then the result's N collect
      gc_after(xp, 12 * N)
      local key = weak_key(function(k) k[1] = reversed(xp, N) end)
      scrub(64)
      local got = x[key]
      assert.is_not_nil(key[1], "the index array was collected during the call")
      expect_reversed(got, N)
    end)

    it("x[key] = v writes where the key says", function()
      clean_pools()
      local x = xp.zeros(N, "int64")
      local v = {}
      for i = 1, N do v[i] = N - i end
      -- the value table becomes an array of N int64: the allocation that
      -- collects, into the block the index array had
      gc_after(xp, 12 * N)
      local key = weak_key(function(k) k[1] = reversed(xp, N) end)
      scrub(64)
      x[key] = v
      assert.is_not_nil(key[1], "the index array was collected during the call")
      expect_reversed(x[{ { -1, 1, -1 } }], N)
    end)

    it("add_at with a weak key", function()
      clean_pools()
      local x = xp.zeros(N, "int64")
      local v = {}
      for i = 1, N do v[i] = N - i end
      gc_after(xp, 12 * N)
      local key = weak_key(function(k) k[1] = reversed(xp, N) end)
      scrub(64)
      ga.add_at(x, key, v)
      assert.is_not_nil(key[1], "the index array was collected during the call")
      expect_reversed(x[{ { -1, 1, -1 } }], N)
    end)

    it("a mask and an index array in one weak key (the mask's coordinates allocate)", function()
      clean_pools()
      local x = xp.arange(2 * N):reshape({ 2, N })
      -- the mask (2 bytes, and 2 more through the host on a GPU) and the
      -- index array; then the mask's coordinates collect
      gc_after(xp, 8 * N + 4)
      local key = weak_key(function(k)
        k[1] = xp.array({ false, true })
        k[2] = reversed(xp, N)
      end)
      scrub(64)
      local y = x[key]
      assert.is_not_nil(key[2], "the index array was collected during the call")
      local got = T(y)
      assert.are.equal(N, #got)
      assert.are.equal(2 * N - 1, got[1])
      assert.are.equal(N, got[N])
    end)

    it("concatenate: an array only a weak list holds survives the conversion of the next element", function()
      clean_pools()
      -- the first element's N int64, then the table's conversion collects
      gc_after(xp, 12 * N)
      local list = weak_key(function(k)
        k[1] = reversed(xp, N)
        k[2] = { -1 }
      end)
      scrub(64)
      local y = ga.concatenate(list)
      assert.is_not_nil(list[1], "the array was collected during the call")
      local t = T(y)
      assert.are.equal(N + 1, #t)
      assert.are.equal(N, t[1])
      assert.are.equal(1, t[N])
      assert.are.equal(-1, t[N + 1])
    end)

    it("stays right under generational GC with fresh weak keys every time", function()
      local x = xp.arange(100) * 2
      local mode = collectgarbage("generational")
      local ok, err = pcall(function()
        for _ = 1, 300 do
          local key = setmetatable({}, { __mode = "v" })
          key[1] = xp.arange(100, 0, -1)
          local y = x[key]
          assert.are.equal(9900, y:sum():item())
          assert.are.equal(198, y[1]:item())
          key[1] = xp.arange(1, 101)
          x[key] = xp.arange(100) * 2
        end
      end)
      collectgarbage(mode)
      assert(ok, err)
    end)
  end)

  describe("strings are never indices", function()
    local x = xp.arange(6):reshape({ 2, 3 })
    for _, row in ipairs {
      { "an item", { "2" }, "bad index", "got string" },
      { "a range's start", { { "1", 2 } }, "a range's start must be an integer, got string" },
      { "a range's stop", { { 1, "2" } }, "a range's stop must be an integer, got string" },
      { "a range's bounds", { { "2", "3" } }, "must be an integer, got string" },
      { "a range's step", { { 1, 2, "1" } }, "a range's step must be an integer, got string" },
      { "the second item", { 1, "2" }, "bad index", "got string" },
      { "a range beside an index array", { { "1", 2 }, xp.array({ 1 }) }, "must be an integer, got string" },
    } do
      it(row[1] .. " (get and set)", function()
        local key = row[2]
        helper.assert_error(function() return x[key] end, "getitem: ", select(3, table.unpack(row)))
        helper.assert_error(function() x[key] = 0 end, "setitem: ", select(3, table.unpack(row)))
      end)
    end

    it("x[\"2\"] is refused too", function()
      assert.has_error(function() return x["2"] end)
    end)
  end)

  describe("Lua numbers out of range for the dtype on assignment", function()
    -- {dtype, value, message}; NumPy: OverflowError / ValueError
    local bad = {
      { "int32", 1e300, "Lua number 1e+300 out of bounds for int32" },
      { "int32", -1e300, "Lua number -1e+300 out of bounds for int32" },
      { "int32", 2 ^ 31, "Lua number 2147483648.0 out of bounds for int32" },
      { "int32", 0 / 0, "cannot convert float NaN to integer" },
      { "int64", math.huge, "cannot convert float infinity to integer" },
      { "uint8", -math.huge, "cannot convert float infinity to integer" },
      { "int64", 2 ^ 63, "Lua number 9.2233720368548e+18 out of bounds for int64" },
      { "uint64", 2 ^ 64, "Lua number 1.844674407371e+19 out of bounds for uint64" },
      { "int8", 300.7, "Lua number 300.7 out of bounds for int8" },
      { "uint8", -1.5, "Lua number -1.5 out of bounds for uint8" },
      { "uint16", 0 / 0, "cannot convert float NaN to integer" },
      { "int32", 1 << 40, "Lua integer 1099511627776 out of bounds for int32" },
    }
    local ways = {
      { "x[1] = v", "setitem", function(x, v) x[1] = v end },
      { "x[{{}}] = v", "setitem", function(x, v) x[{ {} }] = v end },
      { "x[idx] = v", "setitem", function(x, v) x[xp.array({ 1, 2 })] = v end },
      { "x[mask] = v", "setitem", function(x, v) x[x:eq(x)] = v end },
      { "put", "put", function(x, v) ga.put(x, { 2 }, v) end },
      { "add_at", "add_at", function(x, v) ga.add_at(x, xp.array({ 1 }), v) end },
    }
    for _, way in ipairs(ways) do
      for _, row in ipairs(bad) do
        local dt, v, msg = row[1], row[2], row[3]
        it(way[1] .. " with " .. msg, function()
          local x = xp.zeros(3, dt)
          helper.assert_error(function() way[3](x, v) end, way[2] .. ": " .. msg)
          assert.are.same({ 0, 0, 0 }, T(x))
        end)
      end
    end

    -- in range: truncated toward zero, as NumPy
    for _, row in ipairs {
      { "int32", -1.5, -1 }, { "int32", 300.7, 300 }, { "uint8", -0.5, 0 }, { "uint8", 255.9, 255 },
      { "int64", -2 ^ 63, MINI }, { "int8", -128.9, -128 },
    } do
      it(string.format("%s gets %.17g as %d (x[1] = v, x[idx] = v, put)", row[1], row[2], row[3]), function()
        local x = xp.zeros(3, row[1])
        x[1] = row[2]
        x[xp.array({ 2 })] = row[2]
        ga.put(x, { 3 }, row[2])
        assert.are.same({ row[3], row[3], row[3] }, T(x))
      end)
    end

    it("uint64 takes 2^63 as a float", function()
      local x = xp.zeros(1, "uint64")
      x[1] = 2 ^ 63
      assert.are.equal(2 ^ 63, x:astype("float64")[1]:item())
    end)

    it("bool and float dtypes take any number (NumPy)", function()
      local b = xp.zeros(2, "bool")
      b[1] = 0 / 0
      b[2] = 1e300
      assert.are.same({ true, true }, T(b))
      local f = xp.zeros(1, "float32")
      f[1] = 1e300
      assert.are.equal(math.huge, f[1]:item())
    end)
  end)

  describe("ranges at the int64 extremes (NumPy's slices, never a wrap)", function()
    -- x = 0..4; {range, expected, NumPy slice}
    for _, row in ipairs {
      { { 1, MAXI, MAXI }, { 0 }, "x[0:M:M]" },
      { { MINI, -1, -1 }, {}, "x[m:3:-1]" },
      { { nil, nil, MINI }, { 4 }, "x[::m]" },
      { { 1, nil, MINI }, { 0 }, "x[0::m]" },
      { { -1, MINI, MINI }, { 4 }, "x[-1:m:m]" },
      { { nil, nil, MAXI }, { 0 }, "x[::M]" },
      { { MAXI, nil, -MAXI }, { 4 }, "x[M::-M]" },
      { { MINI, MAXI }, { 0, 1, 2, 3, 4 }, "x[m:M]" },
      { { MAXI, MINI, -1 }, { 4, 3, 2, 1, 0 }, "x[M:m:-1]" },
      { { MINI, MINI }, {}, "x[m:m+1]" },
      { { MAXI, MAXI }, {}, "x[M:M]" },
      { { MINI, MAXI, MAXI }, { 0 }, "x[m:M:M]" },
      { { MAXI, MINI, MINI }, { 4 }, "x[M:m:m]" },
      { { 2, MAXI, MAXI // 2 }, { 1 }, "x[1:M:M//2]" },
      { { 2, MAXI, 3 }, { 1, 4 }, "x[1:M:3]" },
      { { -2, MINI, -3 }, { 3, 0 }, "x[-2:m:-3]" },
    } do
      local r, want, np = row[1], row[2], row[3]
      it(np .. " (get, set)", function()
        local x = xp.arange(5)
        assert.are.same(want, T(x[{ r }]))
        x[{ r }] = -1
        local t = T(x)
        local n = 0
        for i = 1, 5 do
          if t[i] == -1 then n = n + 1 end
        end
        assert.are.equal(#want, n)
        for _, w in ipairs(want) do assert.are.equal(-1, t[w + 1]) end
      end)
    end

    it("on a 2-d array, both axes (x[::m, 0:M:M])", function()
      local x = xp.arange(12):reshape({ 3, 4 })
      assert.are.same({ { 8 } }, T(x[{ { nil, nil, MINI }, { 1, MAXI, MAXI } }]))
      assert.are.same({ 8 }, T(x[{ { nil, nil, MINI }, { 1, MAXI, MAXI } }]:ravel()))
    end)

    it("an integer index at the extremes is out of bounds", function()
      local x = xp.arange(5)
      helper.assert_error(function() return x[MAXI] end, "getitem: ", "index 9223372036854775807 is out of bounds")
      helper.assert_error(function() return x[MINI] end, "getitem: ", "index -9223372036854775808 is out of bounds")
      helper.assert_error(function() x[{ MINI }] = 1 end, "setitem: ", "out of bounds")
    end)
  end)

  describe("index arrays with extreme values", function()
    for _, row in ipairs {
      { "int64 max", { MAXI }, "int64" }, { "int64 min", { MINI }, "int64" },
      { "uint64 above int64", { -1 }, "uint64" },
    } do
      it(row[1] .. ": getitem, setitem, take, put, add_at refuse it", function()
        local x = xp.arange(5)
        local idx = xp.array(row[2], "int64"):astype(row[3])
        helper.assert_error(function() return x[idx] end, "getitem: ", "out of bounds")
        helper.assert_error(function() x[idx] = 1 end, "setitem: ", "out of bounds")
        helper.assert_error(function() return ga.take(x, idx) end, "take: ", "out of bounds")
        helper.assert_error(function() ga.put(x, idx, 1) end, "put: ", "out of bounds")
        helper.assert_error(function() ga.add_at(x, idx, 1) end, "add_at: ", "out of bounds")
        assert.are.same({ 0, 1, 2, 3, 4 }, T(x))
      end)
    end
  end)

  describe("a selection whose size overflows int64", function()
    it("broadcast index arrays of 2^62 beside another axis: array is too big, never a wrap", function()
      local x = xp.zeros({ 2, 2 })
      local idx = ga.broadcast_to(xp.array({ 1 }), { 2 ^ 62 })
      helper.assert_error(function() return x[{ idx, {} }] end, "getitem: array is too big")
      helper.assert_error(function() x[{ idx, {} }] = 1 end, "setitem: array is too big")
      helper.assert_error(function() ga.add_at(x, { idx, {} }, 1) end, "add_at: array is too big")
      assert.are.same({ { 0, 0 }, { 0, 0 } }, T(x))
    end)
  end)
end)
