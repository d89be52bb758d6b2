-- tools/rng_bench.lua: times ga.random.standard_normal(2^28, "float32") (the
-- randn_f32_GBps of bench/run.lua: bytes written / CUDA-event time of one
-- call, 10 calls after 2 warm-ups), other draws and draws that start
-- mid-block, for each variant of the generator kernel,
-- one process per variant (GA_RNG_TUNE is read once), and prints TB/s.
-- From the repository root:
--   LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 tools/rng_bench.lua
-- GA_RNG_TUNE="u,cs,sc,nreg,shift,chunk" (src/cuda/ga_cuda_rand.c; set,
-- it holds for every draw): u Philox blocks per thread per step of the
-- aligned loop (1..8; default 8 for uniform draws, 2 for the others), cs 1
-- for streaming (st.global.cs) stores (default 0), sc 0 for the old
-- quadrant sin/cos polynomial instead of the table (default 1; sc 0 gives
-- other values than the host: timing only), nreg the float32 normal
-- kernel's register bound (default 0: none; it takes 32), shift 0 for
-- draws that start mid-block to take the general loop (default 1: whole
-- blocks, ga_rng_shifted), chunk 1 for the aligned draw by chunks, a block
-- each (default 1 for uniform draws, 0: grid-stride, for the others).
-- With an argument "one" it times the current process's variant only (the
-- child's part); "one" is also what to run under ncu.
local ga = require "gpuarray"

local function one()
  local N = 1 << 28
  local gpu_ms = dofile("bench/gpu_ms.lua")(ga)
  local res = {}
  for _, case in ipairs({
    { "randn_f32", function() return ga.random.standard_normal(N, "float32") end, N * 4 },
    { "normal_f32(1,2)", function() return ga.random.normal(1, 2, N, "float32") end, N * 4 },
    { "rand_f32", function() return ga.random.random(N, "float32") end, N * 4 },
    { "randn_f64", function() return ga.random.standard_normal(N // 2, "float64") end, N * 4 },
    -- draws that start mid-block (a stream left at word 4k + 1 or 4k + 2)
    { "rand_f32@1", function() local r = ga.random.RandomState(1); r:advance(1); return r:random_sample(N, "float32") end, N * 4 },
    { "randn_f32@2", function() local r = ga.random.RandomState(1); r:advance(2); return r:standard_normal(N, "float32") end, N * 4 },
    { "rand_f64@2", function() local r = ga.random.RandomState(1); r:advance(2); return r:random_sample(N // 2) end, N * 4 },
  }) do
    local ms = gpu_ms(function() case[2]():free() end, 10, 2)
    res[#res + 1] = string.format("%s %.3f TB/s (%.3f ms)", case[1], case[3] / ms / 1e9, ms)
  end
  print(string.format("GA_RNG_TUNE=%-5s %s", os.getenv("GA_RNG_TUNE") or "-", table.concat(res, "  ")))
end

if arg[1] == "one" then
  one()
else
  print("device: " .. ga.cuda.Device(0).name)
  local lp, lc = os.getenv("LUA_PATH") or "", os.getenv("LUA_CPATH") or ""
  for _, v in ipairs({ "2,0,1,0", "1,0,1,0", "4,0,1,0", "2,1,1,0", "2,0,0,0", "2,0,1,40", "2,0,1,0,0", "8,0,1,0,1,1",
                       "2,0,1,0" }) do
    local cmd = string.format("GA_RNG_TUNE=%s LUA_PATH=%q LUA_CPATH=%q lua5.4 tools/rng_bench.lua one", v, lp, lc)
    local ok = os.execute(cmd)
    if not ok then print("variant " .. v .. " failed") end
  end
end
