-- The replaceable allocator: ga.cuda.set_allocator / get_allocator /
-- using_allocator (function and <close> forms), ga.cuda.MemoryPool (own
-- statistics and limit), the plain allocator (nil), Lua function
-- allocators, set_pinned_memory_allocator; every array goes back to the
-- allocator it came from.  The allocator serves the current device's
-- arrays: the host's on a machine without a GPU, cuda:0's on one.
local helper = require "spec.helper"
local ga = helper.ga
local cuda = ga.cuda

local function full_gc() collectgarbage(); collectgarbage() end

-- the memory of a new n-byte buffer of the current device, owned by a
-- table (the function allocator's "foreign" memory)
local function foreign(n, log)
  local backing = ga.empty(math.max(n, 1), "uint8")
  local owner = { backing = backing }
  if log then setmetatable(owner, { __gc = function() log.freed = log.freed + n end }) end
  return cuda.MemoryPointer(cuda.UnownedMemory(backing.data_ptr, n, owner, ga.core.get_device()))
end

describe("allocators on the current device", function()
  local default = ga.get_default_memory_pool()

  after_each(function() cuda.set_allocator(default) end)

  it("the default pool is the allocator at first", function()
    assert.are.equal(default, cuda.get_allocator())
  end)

  it("a MemoryPool has its own statistics; the default pool's stay true", function()
    full_gc()
    local pool = cuda.MemoryPool()
    local before = default:used_bytes()
    cuda.set_allocator(pool)
    assert.are.equal(pool, cuda.get_allocator())
    local x = ga.zeros(1000, "float32")
    assert.are.equal(4096, pool:used_bytes())   -- rounded to 512
    assert.is_true(pool:total_bytes() >= 4096)
    assert.are.equal(before, default:used_bytes())
    x:free()
    assert.are.equal(0, pool:used_bytes())
    assert.are.equal(1, pool:n_free_blocks())
    pool:free_all_blocks()
    assert.are.equal(0, pool:total_bytes())
  end)

  it("arrays go back to the pool they came from after the allocator changed", function()
    local a, b = cuda.MemoryPool(), cuda.MemoryPool()
    cuda.set_allocator(a)
    local x = ga.ones(100)
    cuda.set_allocator(b)
    local y = ga.ones(100)
    cuda.set_allocator(default)
    assert.are.equal(1024, a:used_bytes())
    assert.are.equal(1024, b:used_bytes())
    x:free()
    assert.are.equal(0, a:used_bytes())
    assert.are.equal(1024, b:used_bytes())
    assert.are.equal(100, (y:sum():item()))
  end)

  it("arrays outlive their pool object", function()
    local pool = cuda.MemoryPool()
    local x = cuda.using_allocator(pool, function() return ga.arange(10) end)
    pool = nil   -- luacheck: ignore
    full_gc()
    assert.are.equal(45, x:sum():item())
    x:free()
    full_gc()
  end)

  it("a pool's limit", function()
    local pool = cuda.MemoryPool()
    pool:set_limit(4096)
    assert.are.equal(4096, pool:get_limit())
    cuda.using_allocator(pool, function()
      local x = ga.zeros(512)   -- 4096 bytes
      assert.has_error(function() return ga.zeros(512) end)
      x:free()
      assert.are.equal(512, ga.zeros(512).size)
    end)
    assert.has_error(function() pool:set_limit{ fraction = 0.5 } end,
      "set_limit: fraction needs a CUDA device's pool")
  end)

  it("nil: plain allocations, no caching", function()
    cuda.set_allocator(nil)
    assert.is_nil(cuda.get_allocator())
    local x = ga.arange(1000)
    assert.are.equal(499500, x:sum():item())
    x:free()
    cuda.set_allocator(default)
    assert.are.equal(default, cuda.get_allocator())
  end)

  it("a Lua function (nbytes) -> MemoryPointer, its memory owned until the array is gone", function()
    local log = { asked = 0, freed = 0 }
    cuda.set_allocator(function(n)
      log.asked = log.asked + n
      return foreign(n, log)
    end)
    local x = ga.arange(16, "int32")
    local y = x * 2
    cuda.set_allocator(default)
    assert.are.equal(128, log.asked)
    assert.are.same({ 0, 2, 4, 6 }, helper.totable(y[{ { 1, 4 } }]))
    x:free()
    y:free()
    full_gc()
    full_gc()
    assert.are.equal(128, log.freed)
  end)

  it("temporaries inside a call come from the allocator in use", function()
    -- outputs made before: what the allocator sees below is each call's
    -- temporaries (a cast copy, an overlap copy, a scan's, a sort's, a
    -- matmul's copies of non-contiguous operands, backend scratch)
    local log = { asked = 0, freed = 0 }
    local x = ga.arange(1000, "int32")
    local out = ga.empty({}, "float64")
    local y = ga.arange(2000, "float32")
    local cs = ga.empty(1000, "float64")
    local a = ga.ones({ 64, 64 }, "float32")
    local s = ga.arange(1000, "float32")[{ { 1000, 1, -1 } }]
    local seen = {}
    cuda.set_allocator(function(n)
      log.asked = log.asked + n
      return foreign(n, log)
    end)
    local function step(name, f)
      local before = log.asked
      f()
      seen[name] = log.asked - before
    end
    step("sum", function() ga.sum(x, nil, { dtype = "float64", out = out }) end)          -- float64 copy of x
    step("add", function() ga.add(y[{ { 1, 1000 } }], 1, { out = y[{ { 2, 1001 } }] }) end) -- copy of the input
    step("cumsum", function() ga.cumsum(x, 1, { dtype = "float64", out = cs }) end)
    step("sort", function() s:sort() end)
    step("matmul", function() ga.matmul(a, a.T) end)
    cuda.set_allocator(default)
    assert.is_true(seen.sum >= 8000, "sum: " .. seen.sum)
    assert.is_true(seen.add >= 4000, "add: " .. seen.add)
    assert.is_true(seen.cumsum >= 8000, "cumsum: " .. seen.cumsum)
    assert.is_true(seen.sort >= 4000, "sort: " .. seen.sort)
    assert.is_true(seen.matmul >= 16384, "matmul: " .. seen.matmul)
    assert.are.equal(499500, out:item())
    assert.are.equal(499500, cs[1000]:item())
    assert.are.equal(0, s[1]:item())
    full_gc()
    full_gc()
    assert.are.equal(log.asked, log.freed)   -- every temporary went back
  end)

  if helper.has_gpu() then
    it("on a GPU, backend scratch (the sort's counters) comes from the allocator too", function()
      local n = 1 << 20
      local keys = ga.random.RandomState(3):random_sample(n):astype("float32")
      local log = { asked = 0, freed = 0 }
      cuda.set_allocator(function(k)
        log.asked = log.asked + k
        return foreign(k, log)
      end)
      local sorted = ga.sort(keys)
      cuda.set_allocator(default)
      -- the result is 4n bytes; anything more is the sort's scratch
      assert.is_true(log.asked > 4 * n, "asked " .. log.asked)
      assert.is_true(ga.all(ga.less_equal(sorted[{ { 1, n - 1 } }], sorted[{ { 2, n } }])):item())
      sorted:free()
      full_gc()
      full_gc()
      assert.are.equal(log.asked, log.freed)
    end)
  end

  it("a MemoryPool serves temporaries; the default pool's statistics stay true", function()
    local x = ga.arange(4096, "int32")
    local out = ga.empty({}, "float64")
    local pool = cuda.MemoryPool()
    full_gc()
    local used, total = default:used_bytes(), default:total_bytes()
    cuda.using_allocator(pool, function() ga.sum(x, nil, { dtype = "float64", out = out }) end)
    assert.are.equal(used, default:used_bytes())
    assert.are.equal(total, default:total_bytes())
    assert.is_true(pool:total_bytes() >= 4096 * 8)   -- the cast copy was the pool's (now cached)
    assert.are.equal(0, pool:used_bytes())
    assert.are.equal(4096 * 4095 / 2, out:item())
  end)

  it("a temporary's allocator error is the call's error", function()
    local x = ga.arange(100, "int32")
    local out = ga.empty({}, "float64")
    cuda.set_allocator(function() error("no memory for you") end)
    local ok, e = pcall(ga.sum, x, nil, { dtype = "float64", out = out })
    cuda.set_allocator(default)
    assert.is_false(ok)
    assert.truthy(tostring(e):find("sum: ", 1, true), e)
    assert.truthy(tostring(e):find("no memory for you", 1, true), e)
    assert.are.equal(4950, ga.sum(x):item())   -- and the module still works
  end)

  it("a function allocator's errors; the allocator stays in place", function()
    local f = function() error("no memory for you", 0) end
    cuda.set_allocator(f)
    assert.has_error(function() return ga.zeros(4) end, "no memory for you")
    assert.are.equal(f, cuda.get_allocator())
    cuda.set_allocator(function() return 42 end)
    assert.has_error(function() return ga.zeros(4) end,
      "zeros: the allocator function must return a cuda.MemoryPointer, got number")
    cuda.set_allocator(function(n) return foreign(n - 1) end)
    assert.has_error(function() return ga.zeros(4) end, "zeros: the allocator returned 31 bytes for a request of 32")
    cuda.set_allocator(default)
    assert.are.equal(4, ga.zeros(4).size)
  end)

  it("using_allocator restores the previous allocator, also on error; <close> guard", function()
    local pool = cuda.MemoryPool()
    local r1, r2 = cuda.using_allocator(pool, function(a, b) return a + b, ga.ones(3) end, 1, 2)
    assert.are.equal(3, r1)
    assert.are.equal(3 * 8, pool:used_bytes() > 0 and 24 or 0)
    assert.are.equal(3, r2:sum():item())
    assert.has_error(function() cuda.using_allocator(pool, function() error("boom", 0) end) end, "boom")
    assert.are.equal(default, cuda.get_allocator())
    do
      local _ <close> = cuda.using_allocator(nil)
      assert.is_nil(cuda.get_allocator())
      do
        local _ <close> = cuda.using_allocator(pool)
        assert.are.equal(pool, cuda.get_allocator())
      end
      assert.is_nil(cuda.get_allocator())
    end
    assert.are.equal(default, cuda.get_allocator())
  end)

  it("bad allocators are errors", function()
    assert.has_error(function() cuda.set_allocator(42) end)
    assert.has_error(function() cuda.set_allocator({}) end)
    assert.has_error(function() cuda.using_allocator(nil, 5) end,
      "cuda.using_allocator: expected a function, got number")
    assert.are.equal(default, cuda.get_allocator())
  end)

  it("the pinned allocator takes the same kinds", function()
    local pinned = ga.get_default_pinned_memory_pool()
    local pool = cuda.MemoryPool()
    cuda.set_pinned_memory_allocator(pool)
    local h = ga.host.ones(64)
    if helper.has_gpu() then assert.are.equal(512, pool:used_bytes()) end
    cuda.set_pinned_memory_allocator(nil)
    local h2 = ga.host.ones(8)
    cuda.set_pinned_memory_allocator(pinned)
    assert.are.equal(72, h:sum():item() + h2:sum():item())
    assert.has_error(function() cuda.set_pinned_memory_allocator("x") end)
  end)
end)
