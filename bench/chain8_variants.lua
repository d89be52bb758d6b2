-- Timing of the dense ElementwiseKernel loop shapes (GPUARRAY_EWK_ILP,
-- GPUARRAY_EWK_GRID, GPUARRAY_EWK_NC; see src/cuda/ga_cuda_ewk.c) and of
-- fused float32 sin's branch-free fast pass (GPUARRAY_FUSE_SINPASS, see
-- lua/gpuarray/fuse.lua; the last row repeats the first: drift) on the
-- fusion keys: chain8_fuse_ms (issue 17's bar: torch.compile 0.187 ms on an
-- H200), axpy_fuse_ms, gelu_fuse_ms, fma3 (a user ElementwiseKernel) and
-- the built-in add of chain8's operands (2 reads + 1 write of 2^26 float32,
-- untouched by the switches: the memory-bound reference of the run).  From the repository root:
--   LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 bench/chain8_variants.lua
-- runs every variant in a process of its own (the switches are read once
-- per process) and prints one line per variant; `... chain8_variants.lua one`
-- times the variant of the current environment only.  CUDA events around
-- `reps` calls after `warm` calls, best of `trials`.
local mode = arg and arg[1] or "all"

if mode ~= "one" then
  -- ILP, GRID, NC, FUSE_SINPASS
  local variants = {
    { 1, 0, 0, 0 }, { 2, 0, 0, 0 }, { 4, 0, 0, 0 }, { 1, 0, 1, 0 }, { 2, 0, 1, 0 },
    { 1, 8, 0, 0 }, { 2, 4, 0, 0 }, { 2, 8, 0, 0 }, { 2, 16, 0, 0 }, { 2, 8, 1, 0 },
    { 1, 0, 0, 1 }, { 2, 0, 0, 1 }, { 2, 8, 0, 1 }, { 1, 0, 0, 0 },
  }
  local lua = "lua5.4"
  do
    local i = -1
    while arg and arg[i] do lua = arg[i]; i = i - 1 end
  end
  local me = arg and arg[0] or "bench/chain8_variants.lua"
  print(string.format("%-22s %10s %10s %10s %10s %10s", "ILP GRID NC SINPASS", "chain8_ms", "axpy_ms", "gelu_ms",
                      "fma3_ms", "add26_ms"))
  for _, v in ipairs(variants) do
    local cmd = string.format("GPUARRAY_EWK_ILP=%d GPUARRAY_EWK_GRID=%d GPUARRAY_EWK_NC=%d GPUARRAY_FUSE_SINPASS=%d "
                              .. "%s %s one 2>&1", v[1], v[2], v[3], v[4], lua, me)
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    p:close()
    local res = out:match("RESULT (.-)\n") or ("failed: " .. out:gsub("\n", " | "))
    io.write(string.format("%-22s %s\n", string.format("%d %d %d %d", v[1], v[2], v[3], v[4]), res))
    io.flush()
  end
  return
end

local ga = require "gpuarray"
assert(ga.cuda.is_available(), "no CUDA device")
local cuda = ga.cuda

local function gpu_ms(f, reps, warm, trials)
  reps, warm, trials = reps or 50, warm or 30, trials or 5
  for _ = 1, warm do f() end
  local best = math.huge
  for _ = 1, trials do
    local s, e = cuda.Event(), cuda.Event()
    s:record()
    for _ = 1, reps do f() end
    e:record()
    e:synchronize()
    local ms = cuda.get_elapsed_time(s, e) / reps
    if ms < best then best = ms end
  end
  return best
end

local N8, N = 1 << 26, 1 << 28
local r = {}
do   -- chain8 as bench/parts/fuse.lua
  local x = ga.arange(0, N8, 1, "float32") / N8
  local y = ga.full(N8, 0.25, "float32")
  local f = ga.fuse(function(a, b) return ga.sin(a) * b + ga.exp(-a) * 0.5 - b * b end, { name = "chain8" })
  r.chain8 = gpu_ms(function() f(x, y):free() end)
  local out = ga.empty_like(x)
  r.add8 = gpu_ms(function() ga.add(x, y, { out = out }) end)
  x:free(); y:free(); out:free()
end
do
  local a = ga.arange(0, N, 1, "float32") / N
  local b = ga.ones(N, "float32")
  local c = ga.full(N, 0.5, "float32")
  local axpy = ga.fuse(function(x, y, z) return x * y + z end, { name = "axpy" })
  r.axpy = gpu_ms(function() axpy(a, b, c):free() end, 20, 10, 3)
  local gelu = ga.fuse(function(x)
    return 0.5 * x * (1.0 + ga.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
  end, { name = "gelu" })
  r.gelu = gpu_ms(function() gelu(a):free() end, 20, 10, 3)
  local fk = ga.ElementwiseKernel("float32 a, float32 b, float32 c", "float32 z", "z = a * b + c", "fma3")
  local out = ga.empty_like(a)
  r.fma3 = gpu_ms(function() fk(a, b, c, out) end, 20, 10, 3)
  a:free(); b:free(); c:free(); out:free()
end
print(string.format("RESULT %10.4f %10.4f %10.4f %10.4f %10.4f", r.chain8, r.axpy, r.gelu, r.fma3, r.add8))
