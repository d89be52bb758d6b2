-- The memory pool, x:free(), <close>, use after free, the pool limit and
-- the out-of-memory error; used_bytes back where it was after each bad input.
-- On a host-only machine the pool cases run only when host arrays are
-- pooled (probed by helper.pool_for); free/<close>/use-after-free always run.
local helper = require "spec.helper"
local ga = helper.ga

local MiB = 1 << 20

describe("memory pool API", function()
  it("ga.get_default_memory_pool() has the contract's methods", function()
    local pool = ga.get_default_memory_pool()
    for _, m in ipairs { "used_bytes", "total_bytes", "n_free_blocks", "free_all_blocks", "set_limit", "get_limit" } do
      assert.are.equal("function", type(pool[m]), "pool:" .. m .. " missing")
    end
    assert.are.equal("integer", math.type(pool:used_bytes()))
    assert.is_true(pool:total_bytes() >= pool:used_bytes())
    assert.is_true(pool:n_free_blocks() >= 0)
  end)
  it("the pinned memory pool has n_free_blocks and free_all_blocks", function()
    local pp = ga.get_default_pinned_memory_pool()
    assert.is_true(pp:n_free_blocks() >= 0)
    pp:free_all_blocks()
  end)
  it("get_limit() is 0 (no limit) by default and set_limit round-trips", function()
    local pool = ga.get_default_memory_pool()
    assert.are.equal(0, pool:get_limit())
    pool:set_limit(64 * MiB)
    assert.are.equal(64 * MiB, pool:get_limit())
    pool:set_limit { size = 32 * MiB }
    assert.are.equal(32 * MiB, pool:get_limit())
    pool:set_limit(0)
    assert.are.equal(0, pool:get_limit())
  end)
  it("set_limit{fraction=f} is a fraction of the device memory", function()
    if not helper.has_gpu() then pending("no GPU: no device memory to take a fraction of"); return end
    local pool = ga.get_default_memory_pool()
    local _, total = ga.cuda.Device():mem_info()
    pool:set_limit { fraction = 0.5 }
    local lim = pool:get_limit()
    pool:set_limit(0)
    assert.is_true(math.abs(lim - total / 2) <= total * 0.01, "limit " .. lim .. " vs total " .. total)
  end)
end)

helper.each_device(function(xp, dev)
  describe("lifetime", function()
    it("free() releases the buffer and later use raises 'array has been freed'", function()
      local x = xp.ones(1000)
      x:free()
      helper.assert_error(function() return x + 1 end, "add: array has been freed")
      helper.assert_error(function() return ga.multiply(x, 2) end, "multiply: array has been freed")
      helper.assert_error(function() return x:totable() end, "array has been freed")
      helper.assert_error(function() return x:get() end, "array has been freed")
      helper.assert_error(function() return ga.asnumpy(x) end, "array has been freed")
      helper.assert_error(function() return x:item() end, "array has been freed")
      helper.assert_error(function() x:set({ 1 }) end, "array has been freed")
      helper.assert_error(function() return 1 - x end, "subtract: array has been freed")
    end)
    it("a freed array as out= is refused", function()
      local out = xp.zeros(3)
      out:free()
      helper.assert_error(function() ga.add(xp.ones(3), 1, { out = out }) end, "add: array has been freed")
    end)
    it("free() twice is harmless", function()
      local x = xp.ones(10)
      x:free()
      assert.has_no.errors(function() x:free() end)
    end)
    it("<close> frees at scope exit; a freed <close> variable is fine", function()
      local before = helper.used(xp)
      local keep
      do
        local x <close> = xp.ones(4096)
        keep = x
        if before then assert.is_true(helper.used(xp) > before) end
      end
      helper.assert_error(function() return keep + 1 end, "array has been freed")
      if before then assert.are.equal(before, helper.used(xp)) end
      assert.has_no.errors(function()
        do
          local y <close> = xp.ones(8)
          y:free()
        end
      end)
    end)
    it("<close> frees on error too", function()
      local before = helper.used(xp)
      local keep
      local ok = pcall(function()
        local x <close> = xp.ones(4096)
        keep = x
        error("boom")
      end)
      assert.is_false(ok)
      helper.assert_error(function() return keep * 2 end, "array has been freed")
      if before then assert.are.equal(before, helper.used(xp)) end
    end)
    it("a view keeps the buffer alive after its base is freed", function()
      local x = xp.array({ { 1, 2 }, { 3, 4 } }, "float32")
      local t = x.T
      x:free()
      assert.are.same({ { 1, 3 }, { 2, 4 } }, t:totable())
      helper.assert_error(function() return x + 1 end, "array has been freed")
    end)
  end)

  describe("pool accounting", function()
    local function pool_or_pending()
      local pool = helper.pool_for(xp)
      if not pool then pending(dev.name .. " arrays are not counted by the default memory pool") end
      return pool
    end

    it("used_bytes grows with an allocation and falls back after free()", function()
      local pool = pool_or_pending()
      if not pool then return end
      local before = helper.used(xp)
      local x = xp.empty(MiB, "uint8")
      assert.is_true(pool:used_bytes() >= before + MiB)
      assert.is_true(pool:total_bytes() >= pool:used_bytes())
      x:free()
      assert.are.equal(before, helper.used(xp))
    end)
    it("the freed block is cached (n_free_blocks > 0) and free_all_blocks releases it", function()
      if os.getenv("GPUARRAY_MEM_DEBUG") == "1" then
        pending("GPUARRAY_MEM_DEBUG=1 turns caching off")
        return
      end
      local pool = pool_or_pending()
      if not pool then return end
      helper.used(xp)
      pool:free_all_blocks() -- so that the 8 MiB come from a segment of their own
      local x = xp.empty(8 * MiB, "uint8")
      x:free()
      assert.is_true(pool:n_free_blocks() > 0)
      local total_cached = pool:total_bytes()
      pool:free_all_blocks()
      assert.is_true(pool:total_bytes() < total_cached)
      assert.is_true(pool:total_bytes() >= pool:used_bytes())
    end)
    it("sizes are rounded to 512 bytes", function()
      local pool = pool_or_pending()
      if not pool then return end
      local before = helper.used(xp)
      local x = xp.empty(1, "uint8")
      assert.are.equal(before + 512, helper.used(xp))
      x:free()
    end)
    it("views and asarray of the same array allocate nothing", function()
      local pool = pool_or_pending()
      if not pool then return end
      local x = xp.zeros({ 128, 128 })
      local before = helper.used(xp)
      local _ = x.T
      local _ = xp.asarray(x)
      assert.are.equal(before, helper.used(xp))
    end)
    it("an allocation beyond set_limit raises 'out of memory allocating' and the script goes on", function()
      local pool = pool_or_pending()
      if not pool then return end
      local before = helper.used(xp)
      pool:free_all_blocks()
      pool:set_limit(pool:total_bytes() + 16 * MiB)
      local ok, err = pcall(function() return xp.zeros(32 * MiB) end) -- 256 MiB of float64
      pool:set_limit(0)
      assert.is_false(ok)
      local msg = tostring(err)
      assert.matches("zeros: out of memory allocating %d+ bytes %(pool used %d+, total %d+[,%)]", msg)
      assert.matches("allocating 268435456 bytes", msg, 1, true)
      assert.are.equal(before, helper.used(xp))
      -- and the script goes on
      local y = xp.ones(4) + 1
      assert.are.same({ 2.0, 2.0, 2.0, 2.0 }, y:totable())
    end)
    it("out of memory in an op (add) names the op", function()
      local pool = pool_or_pending()
      if not pool then return end
      local a = xp.ones(2 * MiB) -- 16 MiB
      local before = helper.used(xp)
      pool:free_all_blocks()
      pool:set_limit(pool:total_bytes() + MiB)
      local ok, err = pcall(function() return a + 1 end)
      pool:set_limit(0)
      assert.is_false(ok)
      assert.matches("add: out of memory allocating", tostring(err), 1, true)
      assert.are.equal(before, helper.used(xp))
    end)
    it("within the limit, dropped arrays are collected and the allocation succeeds", function()
      local pool = pool_or_pending()
      if not pool then return end
      helper.used(xp)
      pool:free_all_blocks()
      pool:set_limit(pool:total_bytes() + 64 * MiB)
      local ok, err = pcall(function()
        for _ = 1, 20 do
          local _ = xp.empty(4 * MiB) -- 32 MiB, never freed explicitly
        end
      end)
      pool:set_limit(0)
      assert.is_true(ok, tostring(err))
    end)
    it("used_bytes is back where it was after each bad input", function()
      local pool = pool_or_pending()
      if not pool then return end
      local a = xp.ones({ 64, 64 })
      local before = helper.used(xp)
      local bad = {
        function() return xp.array({ { 1, 2 }, { 3 } }) end,
        function() return xp.array({ 1, "x" }) end,
        function() return xp.zeros(100, "flaot32") end,
        function() return xp.zeros({ 10, -1 }) end,
        function() return xp.zeros({ 1 << 40, 1 << 40 }) end,
        function() return a + xp.ones(63) end,
        function() return ga.matmul(a, xp.ones({ 3, 3 })) end,
        function() return ga.add(a, 1.5, { out = xp.zeros({ 64, 64 }, "int32") }) end,
      }
      for i, f in ipairs(bad) do
        assert.is_false(pcall(f), "bad input " .. i .. " did not raise")
        assert.are.equal(before, helper.used(xp), "used_bytes moved after bad input " .. i)
      end
    end)
  end)
end)
