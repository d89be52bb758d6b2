-- A small driver for compute-sanitizer: the replaceable allocator serving
-- library workspaces (cuFFT work areas per execution, cuBLAS's workspace,
-- cuSOLVER's buffers and its cuBLAS handle's workspace, cuDNN's), under a
-- counting Lua function allocator, a MemoryPool and the plain allocator,
-- with the allocator changed while plans are cached.  Run from the
-- repository root after `make`:
--   GPUARRAY_MEM_DEBUG=1 compute-sanitizer --tool memcheck --leak-check full lua5.4 tools/alloc_sanitize.lua
-- (also --tool racecheck / synccheck).  Prints "alloc_sanitize: ok" and the
-- counts; exits 1 on a wrong result or a leak of the counted memory.
package.cpath = "build/?.so;" .. package.cpath
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local ga = require "gpuarray"
local cuda = ga.cuda
-- without a GPU the same calls run on the host (a check of the driver)

local log = { asked = 0, freed = 0, calls = 0 }
local function counting(n)
  log.asked, log.calls = log.asked + n, log.calls + 1
  local backing = ga.empty(math.max(n, 1), "uint8")
  local owner = setmetatable({ backing = backing }, { __gc = function() log.freed = log.freed + n end })
  return cuda.MemoryPointer(cuda.UnownedMemory(backing.data_ptr, n, owner, ga.core.get_device()))
end

local function check(ok, what) if not ok then io.stderr:write("alloc_sanitize: FAILED ", what, "\n"); os.exit(1) end end

local rs = ga.random.RandomState(1)
local x = rs:standard_normal({ 16, 10007 }):astype("complex64")
local a = rs:standard_normal({ 300, 300 }) + ga.eye(300) * 40
local b = rs:standard_normal({ 300, 3 })
local ai = rs:randint(-100, 100, { 512, 512 }):astype("int32")
local img = rs:standard_normal({ 4, 8, 32, 32 }):astype("float32")
local w = rs:standard_normal({ 16, 8, 3, 3 }):astype("float32")
local want_fft = ga.fft.fft(x)
local want_solve = ga.linalg.solve(a, b)

local function work()
  local f = ga.fft.fft(x)
  check(ga.allclose(f, want_fft, 1e-3, 1e-3), "fft")
  local r = ga.fft.irfft(ga.fft.rfft(x.real), 10007)
  check(ga.allclose(r, x.real, 1e-3, 1e-3), "rfft/irfft")
  local p = ga.matmul(a, a:astype("float32"):astype("float64"))
  check(p.shape[1] == 300, "matmul")
  local pi = ga.matmul(ai, ai)
  check(pi.shape[1] == 512, "int matmul")
  local s = ga.linalg.solve(a, b)
  check(ga.allclose(s, want_solve, 1e-8, 1e-8), "solve")
  local q = ga.linalg.qr(a)
  check(q.shape[1] == 300, "qr")
  local sb = ga.linalg.solve(ga.stack({ a[{ { 1, 32 }, { 1, 32 } }], a[{ { 33, 64 }, { 33, 64 } }] }),
    ga.ones({ 2, 32, 1 }))
  check(sb.shape[1] == 2, "batched solve")
  if ga.cudnn.available() then
    local y = ga.cudnn.convolution_forward(img, w, { pad = 1 })
    check(y.shape[2] == 16, "conv")
  end
end

cuda.set_allocator(counting)
work()
work()   -- cached plans and handles, the workspaces asked again
cuda.set_allocator(cuda.MemoryPool())
work()
cuda.set_allocator(nil)   -- plain cudaMalloc/cudaFree
work()
cuda.set_allocator(ga.get_default_memory_pool())
work()
ga.fft.config.get_plan_cache():clear()
collectgarbage(); collectgarbage(); collectgarbage()
if cuda.is_available() then cuda.Device():synchronize() end
check(log.asked == log.freed, ("counted memory: asked %d, freed %d"):format(log.asked, log.freed))
print(("alloc_sanitize: ok (%d allocations, %d bytes through the Lua allocator)"):format(log.calls, log.asked))
