-- tools/rng_blocks.lua: why bench/run.lua's rand_f32_GBps swings between
-- processes (3.2-4.2 TB/s) while the same kernel's steady rate is 4.2.
-- Times 2^28-value uniform draws (bytes written / CUDA-event time, 10
-- calls after 2 warm-ups, TB/s): first into the pool's first 1 GiB block,
-- then three times a fill of a kept 1 GiB array and a draw into a fresh
-- block, then normals; prints each draw's output address.  Each run is a
-- fresh process:
--   for i in 1 2 3; do LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 tools/rng_blocks.lua; done
-- Stop 30, one H200, eight processes: the draws into the first two blocks
-- ran at 2.0-4.2 TB/s (below 4.1 in 13 of 16), every draw into the third
-- and fourth at 4.19-4.22; the fills (of the first blocks too) at 4.63-4.69,
-- the normals (compute-bound) at 2.83 throughout.  With 20 warm-up calls
-- bench/run.lua still read 3.31, so it is no start-up transient; the
-- cause (page size or placement of the first blocks?) is not found.
local ga = require "gpuarray"
if not ga.cuda.is_available() then error("tools/rng_blocks.lua: no GPU", 0) end
local gpu_ms = dofile("bench/gpu_ms.lua")(ga)
local N = 1 << 28
local function t(label, f)
  local ms = gpu_ms(f, 10, 2)
  return string.format("%s %.3f", label, N * 4 / ms / 1e9)
end
local res = {}
local addr
res[#res + 1] = t("pool", function() local r = ga.random.random(N, "float32"); addr = r.data_ptr; r:free() end)
res[#res + 1] = string.format("@%x mod2M=%x", addr, addr % (1 << 21))
local keep = {}
for i = 1, 3 do
  local x = ga.empty(N, "float32")
  keep[#keep + 1] = x
  res[#res + 1] = t("fill" .. i, function() x:fill(0.5) end)
  res[#res + 1] = t("rand" .. i, function() local r = ga.random.random(N, "float32"); addr = r.data_ptr; r:free() end)
  res[#res + 1] = string.format("@%x", addr)
end
res[#res + 1] = t("randn", function() ga.random.standard_normal(N, "float32"):free() end)
for _, x in ipairs(keep) do x:free() end   -- kept till here: each draw took a fresh block
print(table.concat(res, "  "))
