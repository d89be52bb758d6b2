-- tools/rng_warmup.lua: the start-up transient behind bench/run.lua's 20
-- warm-up calls in its random section.  Times 2^28-value uniform draws
-- (bytes written / CUDA-event time, 10 calls after 2 warm-ups, in TB/s):
-- first from a fresh process into the pool's one block, then after a fill
-- of a kept 1 GiB array, three times, then normals; prints each draw's
-- output address.  Run it several times (each a fresh process):
--   for i in 1 2 3; do LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 tools/rng_warmup.lua; done
local ga = require "gpuarray"
if not ga.cuda.is_available() then error("tools/rng_warmup.lua: no GPU", 0) end
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
