-- tools/sort_bench.lua: the long-row CUDA sorts side by side (GPU only):
-- 2^26 float32 sort (the data of bench/run.lua's sort_f32_2p26_ms), 2^26
-- float32 argsort and 2^26 int64 sort (bench/parts/sort.lua's data), timed
-- with CUDA events (5 calls after 2 warm-ups, as bench/run.lua does), for the
-- per-digit pipeline ("digit") and onesweep variants (keys per thread of the
-- pass, default 24, at most what 42 KiB of staging holds; resident blocks
-- per SM asked of the compiler, default 3, 1 none asked; 0 = the default:
-- core._sort_path's knobs), each
-- result checked element for element against the per-digit pipeline's.
--   LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 tools/sort_bench.lua [quick]
-- `quick`: 2^20 elements (a smoke test of every variant).
local ga = require "gpuarray"
local core = ga.core
local N = arg[1] == "quick" and (1 << 20) or (1 << 26)

local event_ms = dofile("bench/gpu_ms.lua")(ga)
local function gpu_ms(f, reps) return event_ms(f, reps, 2) end

local i = ga.arange(0, N, 1, "float64")
local h = ga.sin(i * 12.9898) * 43758.5453
local x = (h % 1.0):astype("float32")   -- bench/run.lua's sort data
i:free(); h:free()
local k32 = ga.random.random(N, "float32")   -- bench/parts/sort.lua's argsort data
local k64 = ga.random.randint(-(1 << 62), 1 << 62, N, "int64")

-- On an H200 (2026-11-28; CuPy 1.79 / ~2.65 / ~3.9 ms): digit 1.93 / 2.78 /
-- 5.80, onesweep kpt=24 minb=3 (now the default) 1.47 / 2.02 / 3.33, the
-- best of 12-32 keys per thread and 1-4 blocks per SM in every column;
-- __match_any_sync instead of ballots 2.33 / 2.74 / 5.80 (dropped).
local variants = {
  { "digit" },
  { "onesweep" },                                    -- the defaults
  { "onesweep", 16 }, { "onesweep", 20 }, { "onesweep", 32, 2 },
  { "onesweep", 24, 1 }, { "onesweep", 24, 2 }, { "onesweep", 16, 4 },
}

local ref
local function label(v)
  return v[1] == "digit" and "digit" or ("onesweep kpt=%d minb=%d"):format(v[2] or 0, v[3] or 0)
end
local old = core._sort_path()
print(("%d elements; ms per call (CUDA events, 5 calls after 2 warm-ups)"):format(N))
print(("%-36s %10s %10s %10s  %s"):format("variant", "sort_f32", "argsort", "sort_i64", "check"))
for _, v in ipairs(variants) do
  core._sort_path(v[1], v[2] or 0, v[3] or 0)
  local ok, err = pcall(function()
    local t1 = gpu_ms(function() ga.sort(x):free() end, 5)
    local t2 = gpu_ms(function() ga.argsort(k32):free() end, 5)
    local t3 = gpu_ms(function() ga.sort(k64):free() end, 5)
    local r = { ga.sort(x), ga.argsort(k32), ga.sort(k64) }
    local check
    if not ref then
      ref = r
      check = "reference"
    else
      local bad = {}
      for j, name in ipairs { "sort_f32", "argsort", "sort_i64" } do
        if not ga.array_equal(r[j], ref[j]) then bad[#bad + 1] = name end
      end
      for _, a in ipairs(r) do a:free() end
      check = #bad == 0 and "same" or ("DIFFERENT: " .. table.concat(bad, " "))
    end
    print(("%-36s %10.3f %10.3f %10.3f  %s"):format(label(v), t1, t2, t3, check))
  end)
  if not ok then print(("%-36s FAILED: %s"):format(label(v), tostring(err))) end
end
core._sort_path(old)
