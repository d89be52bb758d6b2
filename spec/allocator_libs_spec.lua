-- The allocator in use serves the libraries' workspaces too: cuFFT work
-- areas (taken per execution, also when the plan is cached), cuBLAS's
-- workspace (cublasSetWorkspace, per call), cuSOLVER's buffers and its
-- cuBLAS handle's workspace, cuDNN's convolution workspace.  A counting
-- Lua function allocator sees them on a GPU (skipped on the host, whose
-- library work arrays are the C heap's, as NumPy's); on every device a
-- MemoryPool in use keeps the default pool's statistics unchanged and
-- holds nothing once the results are freed.
local helper = require "spec.helper"
local ga = helper.ga
local cuda = ga.cuda

local function full_gc() collectgarbage(); collectgarbage() end

-- a counting allocator: every request (size) and every release
local function counting()
  local log = { asked = 0, freed = 0, sizes = {} }
  local function alloc(n)
    log.asked = log.asked + n
    log.sizes[#log.sizes + 1] = n
    local backing = ga.empty(math.max(n, 1), "uint8")
    local owner = setmetatable({ backing = backing }, { __gc = function() log.freed = log.freed + n end })
    return cuda.MemoryPointer(cuda.UnownedMemory(backing.data_ptr, n, owner, ga.core.get_device()))
  end
  return log, alloc
end

-- the requests made while f runs, other than the sizes in `known`
local function extra_requests(log, f, known)
  local first = #log.sizes + 1
  f()
  local skip, extra = {}, {}
  for _, k in ipairs(known) do skip[k] = (skip[k] or 0) + 1 end
  for i = first, #log.sizes do
    local n = log.sizes[i]
    if skip[n] and skip[n] > 0 then skip[n] = skip[n] - 1 else extra[#extra + 1] = n end
  end
  return extra
end

local function max_of(t)
  local m = 0
  for _, v in ipairs(t) do if v > m then m = v end end
  return m
end

describe("library workspaces and the allocator in use", function()
  local default = ga.get_default_memory_pool()
  after_each(function() cuda.set_allocator(default) end)

  it("a MemoryPool in use: FFT, matmul and solve leave the default pool's statistics alone", function()
    local x = ga.random.RandomState(1):standard_normal({ 8, 1000 }):astype("complex64")
    local a = ga.random.RandomState(2):standard_normal({ 300, 300 })
    local b = ga.random.RandomState(3):standard_normal({ 300, 2 })
    full_gc()
    local pool = cuda.MemoryPool()
    local used = default:used_bytes()
    local f, p, s
    cuda.using_allocator(pool, function()
      f = ga.fft.fft(x)
      p = ga.matmul(a, a)
      s = ga.linalg.solve(a, b)
    end)
    helper.sync()
    assert.are.equal(used, default:used_bytes())
    assert.is_true(pool:used_bytes() > 0)
    -- the results are right
    assert.is_true(ga.allclose(ga.matmul(a, s), b, 1e-6, 1e-6))
    assert.are.same({ 8, 1000 }, f.shape)
    assert.are.same({ 300, 300 }, p.shape)
    f:free(); p:free(); s:free()
    f, p, s = nil, nil, nil   -- luacheck: ignore (s may be a view: its base goes with it)
    full_gc()
    assert.are.equal(0, pool:used_bytes())   -- no workspace is held after the calls
  end)

  if not helper.has_gpu() then return end

  it("cuFFT work areas come from the allocator, at every execution (cached plans too)", function()
    local n, batch = 10007, 16   -- a prime length: cuFFT needs a work area
    local x = ga.random.RandomState(4):standard_normal({ batch, n }):astype("complex64")
    local out_bytes = n * batch * 8
    local log, alloc = counting()
    cuda.set_allocator(alloc)
    local r1, r2
    local e1 = extra_requests(log, function() r1 = ga.fft.fft(x) end, { out_bytes })
    local e2 = extra_requests(log, function() r2 = ga.fft.fft(x) end, { out_bytes })
    cuda.set_allocator(default)
    assert.is_true(#e1 > 0, "no work area went through the allocator")
    assert.is_true(#e2 > 0, "a cached plan's work area did not go through the allocator")
    assert.are.equal(max_of(e1), max_of(e2))
    assert.is_true(ga.allclose(r1, r2))
    local want = ga.asarray(ga.host.fft.fft(ga.asnumpy(x)))
    assert.is_true(ga.allclose(r1, want, 1e-3, 1e-3))
    r1:free(); r2:free()
    r1, r2 = nil, nil   -- luacheck: ignore
    full_gc(); full_gc()
    assert.are.equal(log.asked, log.freed)
  end)

  it("a plan made under one allocator runs under another (the work area is the new one's)", function()
    local x = ga.random.RandomState(5):standard_normal({ 4, 3001 }):astype("complex128")
    local pool = cuda.MemoryPool()
    local r1 = cuda.using_allocator(pool, function() return ga.fft.ifft(x) end)
    pool:free_all_blocks()
    local log, alloc = counting()
    cuda.set_allocator(alloc)
    local r2
    local e = extra_requests(log, function() r2 = ga.fft.ifft(x) end, { 4 * 3001 * 16 })
    cuda.set_allocator(default)
    assert.is_true(#e > 0)
    assert.is_true(ga.allclose(r1, r2))
    r1:free(); r2:free()
    r1, r2, pool = nil, nil, nil   -- luacheck: ignore
    full_gc(); full_gc()
    assert.are.equal(log.asked, log.freed)
  end)

  it("cuBLAS's workspace comes from the allocator (float32, float64, complex64 products)", function()
    for _, dt in ipairs({ "float32", "float64", "complex64" }) do
      local a = ga.random.RandomState(6):standard_normal({ 256, 256 }):astype(dt)
      local log, alloc = counting()
      cuda.set_allocator(alloc)
      local c
      local e = extra_requests(log, function() c = ga.matmul(a, a) end, { 256 * 256 * a.itemsize })
      cuda.set_allocator(default)
      assert.is_true(max_of(e) >= (64 << 10), dt .. ": no cuBLAS workspace went through the allocator")
      local want = ga.asarray(ga.host.matmul(ga.asnumpy(a), ga.asnumpy(a)))
      assert.is_true(ga.allclose(c, want, 1e-3, 1e-3), dt)
      c:free()
      c = nil   -- luacheck: ignore
      full_gc(); full_gc()
      assert.are.equal(log.asked, log.freed, dt)
    end
  end)

  it("cuSOLVER's buffers and its cuBLAS handle's workspace come from the allocator", function()
    local a = ga.random.RandomState(7):standard_normal({ 200, 200 }) + ga.eye(200) * 50
    local b = ga.random.RandomState(8):standard_normal({ 200 })
    local log, alloc = counting()
    cuda.set_allocator(alloc)
    local x = ga.linalg.solve(a, b)
    local ch = ga.linalg.cholesky(ga.matmul(a, a.T))
    cuda.set_allocator(default)
    local seen64k = false
    for _, n in ipairs(log.sizes) do if n == (64 << 10) + 256 then seen64k = true end end
    assert.is_true(seen64k, "the solver's cuBLAS handle workspace did not go through the allocator")
    assert.is_true(ga.allclose(ga.matmul(a, x), b, 1e-8, 1e-8))
    assert.are.same({ 200, 200 }, ch.shape)
    x:free(); ch:free()
    x, ch = nil, nil   -- luacheck: ignore (views keep their bases)
    full_gc(); full_gc()
    assert.are.equal(log.asked, log.freed)
  end)

  it("cuDNN's convolution workspace comes from the allocator (where cuDNN loads)", function()
    if not ga.cudnn.available() then return end
    local x = ga.random.RandomState(9):standard_normal({ 8, 16, 32, 32 }):astype("float32")
    local w = ga.random.RandomState(10):standard_normal({ 32, 16, 3, 3 }):astype("float32")
    local log, alloc = counting()
    cuda.set_allocator(alloc)
    local y = ga.cudnn.convolution_forward(x, w, { pad = 1 })
    cuda.set_allocator(default)
    local want = ga.cudnn.convolution_forward(x, w, { pad = 1 })
    assert.is_true(ga.allclose(y, want, 1e-4, 1e-4))
    assert.is_true(log.asked >= 8 * 32 * 32 * 32 * 4)   -- the output at least; its workspace, if any
    y:free()
    y = nil   -- luacheck: ignore
    full_gc(); full_gc()
    assert.are.equal(log.asked, log.freed)
  end)

  it("an allocator function that runs linear algebra itself gets an error, never a deadlock", function()
    local a = ga.eye(64) * 2
    local b = ga.ones(64)
    local _, alloc = counting()
    cuda.set_allocator(function(n)
      ga.linalg.solve(a, b)   -- from inside a workspace request of a solver call
      return alloc(n)
    end)
    local ok, r = pcall(ga.linalg.solve, a, b)
    cuda.set_allocator(default)
    if ok then   -- no workspace was asked under the solver's lock
      assert.are.equal(0.5, r[1]:item())
    else
      assert.truthy(tostring(r):find("deadlock", 1, true), tostring(r))
    end
    assert.are.equal(0.5, ga.linalg.solve(a, b)[1]:item())   -- and the module still works
  end)

  it("the default pool: with the default pool, used_bytes after an FFT is its result alone", function()
    local x = ga.random.RandomState(11):standard_normal({ 16, 10007 }):astype("complex64")
    helper.sync()
    full_gc()
    local used = default:used_bytes()
    local z = ga.empty({ 16, 10007 }, "complex64")
    local block = default:used_bytes() - used   -- the result's block, as the pool rounds it
    z:free()
    local r = ga.fft.fft(x)
    helper.sync()
    assert.are.equal(used + block, default:used_bytes())   -- the plan holds no work area
    r:free()
  end)
end)
