-- A small driver for compute-sanitizer: the replaceable allocator serving
-- library workspaces (cuFFT work areas per execution, cuBLAS's workspace,
-- cuSOLVER's buffers and its cuBLAS handle's workspace, cuDNN's), under a
-- counting Lua function allocator, a MemoryPool, the plain allocator and
-- the default pool, with the allocator changed while plans are cached.
-- Run from the repository root after `make`:
--   GPUARRAY_MEM_DEBUG=1 compute-sanitizer --tool memcheck --leak-check full lua5.4 tools/alloc_sanitize.lua [PARTS]
-- (also --tool racecheck / synccheck).  PARTS (default "fft,matmul,intmm,solve,conv") picks the
-- libraries, so that a leak summary can be attributed: `none` runs only
-- the allocators over plain arrays.
--
-- At its end the driver frees everything of ours (arrays, cached FFT plans,
-- the pools' cached blocks) and checks that our pools hold nothing.  What
-- compute-sanitizer's leak summary may still list is the libraries' own
-- memory behind their handles, which live for the process (as in CuPy and
-- PyTorch, never destroyed at exit): cuBLAS's default workspace and state
-- for each cuBLAS handle (matmul, int8 matmul, the solver's, and the one
-- inside cuSOLVER's handle) — allocated by cublasCreate and never used,
-- since every call sets our workspace — cuSOLVER's and cuDNN's handle state.
-- Prints "alloc_sanitize: ok" and the counts; exits 1 on a wrong result or
-- a leak of the counted or pooled memory.
package.cpath = "build/?.so;" .. package.cpath
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local ga = require "gpuarray"
local cuda = ga.cuda
local gpu = cuda.is_available()   -- without a GPU the same calls run on the host (a check of the driver)

local parts = {}
for p in (arg[1] or "fft,matmul,intmm,solve,conv"):gmatch("[^,]+") do parts[p] = true end

local log = { asked = 0, freed = 0, calls = 0 }
local function counting(n)
  log.asked, log.calls = log.asked + n, log.calls + 1
  local backing = ga.empty(math.max(n, 1), "uint8")
  local owner = setmetatable({ backing = backing }, { __gc = function() log.freed = log.freed + n end })
  return cuda.MemoryPointer(cuda.UnownedMemory(backing.data_ptr, n, owner, ga.core.get_device()))
end

local function check(ok, what) if not ok then io.stderr:write("alloc_sanitize: FAILED ", what, "\n"); os.exit(1) end end

local D = {}   -- the data (dropped at the end)
do
  local rs = ga.random.RandomState(1)
  D.x = rs:standard_normal({ 16, 10007 }):astype("complex64")
  D.a = rs:standard_normal({ 300, 300 }) + ga.eye(300) * 40
  D.b = rs:standard_normal({ 300, 3 })
  D.ai = rs:randint(-100, 100, { 512, 512 }):astype("int32")
  D.img = rs:standard_normal({ 4, 8, 32, 32 }):astype("float32")
  D.w = rs:standard_normal({ 16, 8, 3, 3 }):astype("float32")
  if parts.fft then D.want_fft = ga.fft.fft(D.x) end
  if parts.solve then D.want_solve = ga.linalg.solve(D.a, D.b) end
end

local function work()
  local y = (D.a * 2):sum(1)   -- plain arrays and temporaries
  check(y.shape[1] == 300, "sum")
  if parts.fft then
    check(ga.allclose(ga.fft.fft(D.x), D.want_fft, 1e-3, 1e-3), "fft")
    check(ga.allclose(ga.fft.irfft(ga.fft.rfft(D.x.real), 10007), D.x.real, 1e-3, 1e-3), "rfft/irfft")
  end
  if parts.matmul then check(ga.matmul(D.a, D.a).shape[1] == 300, "matmul") end
  if parts.intmm then check(ga.matmul(D.ai, D.ai).shape[1] == 512, "int matmul") end
  if parts.solve then
    check(ga.allclose(ga.linalg.solve(D.a, D.b), D.want_solve, 1e-8, 1e-8), "solve")
    check(ga.linalg.qr(D.a).shape[1] == 300, "qr")
    local blocks = ga.stack({ D.a[{ { 1, 32 }, { 1, 32 } }], D.a[{ { 33, 64 }, { 33, 64 } }] })
    check(ga.linalg.solve(blocks, ga.ones({ 2, 32, 1 })).shape[1] == 2, "batched solve")
  end
  if parts.conv and ga.cudnn.available() then
    check(ga.cudnn.convolution_forward(D.img, D.w, { pad = 1 }).shape[2] == 16, "conv")
  end
end

local default = ga.get_default_memory_pool()
cuda.set_allocator(counting)
work()
work()   -- cached plans and handles: the workspaces are asked again
local pool = cuda.MemoryPool()
cuda.set_allocator(pool)
work()
cuda.set_allocator(nil)   -- plain cudaMalloc/cudaFree
work()
cuda.set_allocator(default)
work()

-- free everything of ours
D = {}
pool:free_all_blocks()
pool = nil   -- luacheck: ignore
if parts.fft then ga.fft.config.get_plan_cache():clear() end
if gpu then cuda.Device():synchronize() end
for _ = 1, 4 do collectgarbage() end
if gpu then cuda.Device():synchronize() end
default:free_all_blocks()
local pinned = ga.get_default_pinned_memory_pool()
pinned:free_all_blocks()
check(log.asked == log.freed, ("counted memory: asked %d, freed %d"):format(log.asked, log.freed))
local function stats(p) return ("used %d, total %d"):format(p:used_bytes(), p:total_bytes()) end
print("alloc_sanitize: default pool " .. stats(default) .. "; pinned pool " .. stats(pinned))
check(default:used_bytes() == 0, "arrays of the default pool are still live")
if default:total_bytes() > 0 then
  print("alloc_sanitize: NOTE the default pool still holds cached blocks after free_all_blocks")
end
print(("alloc_sanitize: ok (parts %s; %d allocations, %d bytes through the Lua allocator)"):format(
  arg[1] or "all", log.calls, log.asked))
print("alloc_sanitize: what a leak summary may still list is the libraries' handle state (cuBLAS default "
  .. "workspaces, cuSOLVER/cuDNN handles), which lives for the process")
