-- tools/rng_blocks.lua: why bench/run.lua's rand_f32_GBps swung between
-- processes (3.2-4.2 TB/s) while the same kernel's steady rate was 4.2.
-- Times 2^28-value uniform draws (bytes written / CUDA-event time, 10
-- calls after 2 warm-ups, TB/s): first into the pool's first 1 GiB block,
-- then three times a fill of a kept 1 GiB array and a draw into a fresh
-- block, then normals; prints each draw's output address.  Each run is a
-- fresh process:
--   for i in 1 2 3; do LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 tools/rng_blocks.lua; done
-- With an argument it times draws after a set-up instead (plain: none;
-- hold: 2 GiB allocated and kept first; touch: the same, filled; late: 40
-- fills of a 1 GiB array, freed, first):
--   lua5.4 tools/rng_blocks.lua hold
-- Stop 30, one H200, eight processes: the draws into the first two blocks
-- ran at 2.0-4.2 TB/s (below 4.1 in 13 of 16), every draw into the third
-- and fourth at 4.19-4.22; the fills of the kept arrays at 4.63-4.69,
-- the normals (compute-bound) at 2.83 throughout.  With the set-ups, three
-- processes each: plain 3.25, 4.20, 3.18; late 3.10, 3.49, 4.19; hold and
-- touch 4.21-4.23 every time.  So the uniform kernel writes a process's
-- first 2 GiB of device memory slower (not time since start: late reuses
-- the first block); why (page size or placement of the first cudaMalloc
-- segments?) is not found.  Stop 31, eight processes each, interleaved:
-- plain, grid-stride (two blocks a step) 3.52-4.22 TB/s and by chunks of
-- eight blocks a thread (ga_rng_chunks, which uniform draws now take)
-- 3.39-4.51; hold, grid-stride 4.15-4.22 and by chunks 4.51 every time.
-- After the whole suite on the same machine, six plain processes by chunks
-- read 2.57-4.44.  Stop 32 found the cause with per-call events and host
-- clocks: the GC pacing (lga_new_array) ran a full Lua collection before
-- every 1 GiB allocation while nothing else was live, 0.2-0.6 ms of host
-- time a call against the draw's 0.24 ms, so the GPU waited on the host;
-- with 2 GiB held it collected every other call, which the queued draw
-- covered.  With an allocation's bytes counted from the next allocation
-- on, and :free paying them off, six plain processes read 4.529-4.541.
local ga = require "gpuarray"
if not ga.cuda.is_available() then error("tools/rng_blocks.lua: no GPU", 0) end
local gpu_ms = dofile("bench/gpu_ms.lua")(ga)
local N = 1 << 28
local addr   -- the last uniform draw's output address
local function draw() local r = ga.random.random(N, "float32"); addr = r.data_ptr; r:free() end
local function tbps(f) return N * 4 / gpu_ms(f, 10, 2) / 1e9 end
if arg[1] then
  local mode, hold = arg[1], {}
  if mode == "hold" or mode == "touch" then
    for i = 1, 2 do
      hold[i] = ga.empty(N, "float32")
      if mode == "touch" then hold[i]:fill(0) end
    end
  elseif mode == "late" then
    local x = ga.empty(N, "float32")
    for _ = 1, 40 do x:fill(1) end
    x:free()
  elseif mode ~= "plain" then
    error("tools/rng_blocks.lua: mode plain, hold, touch or late", 0)
  end
  local first = tbps(draw)
  print(string.format("%-6s %.3f then %.3f TB/s @%x", mode, first, tbps(draw), addr))
  for _, x in ipairs(hold) do x:free() end
  return
end
local res = {}
local function t(label, f) res[#res + 1] = string.format("%s %.3f", label, tbps(f)) end
t("pool", draw)
res[#res + 1] = string.format("@%x mod2M=%x", addr, addr % (1 << 21))
local keep = {}
for i = 1, 3 do
  local x = ga.empty(N, "float32")
  keep[#keep + 1] = x
  t("fill" .. i, function() x:fill(0.5) end)
  t("rand" .. i, draw)
  res[#res + 1] = string.format("@%x", addr)
end
t("randn", function() ga.random.standard_normal(N, "float32"):free() end)
for _, x in ipairs(keep) do x:free() end   -- kept till here: each draw took a fresh block
print(table.concat(res, "  "))
