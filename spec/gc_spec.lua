-- The Lua GC is paced by live device bytes: loops that make and drop large
-- temporaries run to the end with no collectgarbage() call.
local helper = require "spec.helper"
local ga = helper.ga

local GiB = 1 << 30

describe("GC pacing", function()
  it("on a GPU: 1,000 temporaries of 1 GiB (ga.empty(2^27) float64 + one op) run to the end", function()
    if not helper.has_gpu() then pending("no GPU"); return end
    local pool = ga.get_default_memory_pool()
    local _, total = ga.cuda.Device():mem_info()
    local peak = 0
    -- no collectgarbage() anywhere in the loop
    for _ = 1, 1000 do
      local x = ga.empty(2 ^ 27) -- 1 GiB of float64
      local y = x * 2            -- another 1 GiB
      local used = pool:used_bytes()
      if used > peak then peak = used end
      assert(y.size == 1 << 27)
    end
    ga.cuda.Device():synchronize()
    -- the loop ran to the end; the pool never needed anything near 1,000 GiB
    assert.is_true(peak < total, string.format("peak used %.1f GiB, card %.1f GiB", peak / GiB, total / GiB))
    -- pacing, not the out-of-memory retry path, kept it there: well under the card
    assert.is_true(peak <= 0.9 * total,
      string.format("peak used %.1f GiB of a %.1f GiB card: the GC is not paced by device bytes", peak / GiB,
        total / GiB))
  end)

  it("on the host, within a pool limit: 200 temporaries of 32 MiB (+ one op) under a 256 MiB limit", function()
    local pool = helper.pool_for(ga.host)
    if not pool then pending("host arrays are not counted by the default memory pool: no host analogue"); return end
    helper.used(ga.host)
    pool:free_all_blocks()
    local limit = pool:total_bytes() + 256 * (1 << 20)
    pool:set_limit(limit)
    local ok, err = pcall(function()
      for _ = 1, 200 do
        local x = ga.host.empty(1 << 22) -- 32 MiB of float64
        local y = x * 2                  -- 32 MiB more
        assert(y.size == 1 << 22)
      end
    end)
    pool:set_limit(0)
    assert.is_true(ok, "the loop stopped: " .. tostring(err))
    assert.is_true(pool:total_bytes() <= limit)
  end)

  it("arrays dropped force a collection by their bytes; arrays given back by :free() or <close> do not", function()
    -- a table that only a full collection finalizes: with the collector
    -- stopped, only the pacing's collection from C can run one
    local collected = 0
    local function sentinel() setmetatable({}, { __gc = function() collected = collected + 1 end }) end
    collectgarbage("collect")
    collectgarbage("stop")
    local ok, err = pcall(function()
      sentinel()
      for _ = 1, 4 do   -- 128 MiB each, dropped: the pacing collects within 512 MiB (and its debt starts at 0)
        local _ = ga.host.empty(1 << 24)
        if collected > 0 then break end
      end
      assert(collected == 1, "no collection ran for 512 MiB of dropped arrays")
      sentinel()
      for _ = 1, 6 do   -- 3 GiB in all, every array given back; each 384 MiB one alone is over the pacing's step
        local x = ga.host.empty(1 << 24)       -- 128 MiB
        x:free()
        do local y <close> = ga.host.empty(3 << 24); assert(y.size == 3 << 24) end   -- 384 MiB
      end
      assert(collected == 1, "a full collection ran although every array was freed")
    end)
    collectgarbage("restart")
    assert.is_true(ok, tostring(err))
  end)

  it("on every device: arrays dropped without free() are released by the GC", function()
    for _, dev in ipairs(helper.devices()) do
      local pool = helper.pool_for(dev.xp)
      if pool then
        local before = helper.used(dev.xp)
        do
          for _ = 1, 10 do local _ = dev.xp.ones(1 << 20) end
        end
        assert.are.equal(before, helper.used(dev.xp), dev.name .. ": dropped arrays not released by a full GC")
      end
    end
  end)
end)
