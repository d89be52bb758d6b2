-- bench/parts/intmm.lua: integer products on the int8 tensor cores
-- (src/cuda/ga_cuda_intmm.c) beyond matmul_i32_2048_ms (products.lua, the
-- CuPy reference's key): the other integer widths at 2048, int32 at 4096,
-- and int32 at 2048 on the tiled CUDA-core kernel (a subprocess with
-- GPUARRAY_INTMM=0) for comparison.  No CuPy reference keys; values as
-- matmul_i32_2048_ms's, in [-100, 100).
--   matmul_{i8,i16,u32,i64}_2048_ms, matmul_i32_4096_ms, matmul_i32_2048_tiled_ms
return function(b)
  local ga, put, section, gpu_ms, QUICK, shq = b.ga, b.put, b.section, b.gpu_ms, b.QUICK, b.shq

  local function ints(n, dt)
    local i = ga.arange(0, n * n, 1, "float64")
    local h = ga.sin(i * 12.9898) * 43758.5453
    local r = ga.floor((h % 1.0) * 200 - 100):astype(dt):reshape({ n, n })
    i:free(); h:free()
    return r
  end

  for _, c in ipairs { { "i8", "int8", 2048 }, { "i16", "int16", 2048 }, { "u32", "uint32", 2048 },
                       { "i64", "int64", 2048 }, { "i32", "int32", 4096 } } do
    local key = ("matmul_%s_%d_ms"):format(c[1], c[3])
    section({ key }, function()
      local n = QUICK and 256 or c[3]
      local X = ints(n, c[2])
      put(key, gpu_ms(function() ga.matmul(X, X):free() end, 3))
      X:free()
    end)
  end

  section({ "matmul_i32_2048_tiled_ms" }, function()
    local n = QUICK and 256 or 2048
    local script = ([[
local ga = require "gpuarray"
local n = %d
local i = ga.arange(0, n * n, 1, "float64")
local X = ga.floor((ga.sin(i * 12.9898) * 43758.5453 %% 1.0) * 200 - 100):astype("int32"):reshape({ n, n })
for _ = 1, 2 do ga.matmul(X, X):free() end
local s, e = ga.cuda.Event(), ga.cuda.Event()
s:record()
for _ = 1, 3 do ga.matmul(X, X):free() end
e:record()
e:synchronize()
io.write(ga.cuda.get_elapsed_time(s, e) / 3)
]]):format(n)
    local env = "GPUARRAY_INTMM=0 LUA_PATH=" .. shq("lua/?.lua;lua/?/init.lua;" .. package.path) ..
                " LUA_CPATH=" .. shq("build/?.so;" .. package.cpath)
    local q = io.popen(env .. " " .. shq(b.interpreter()) .. " -e " .. shq(script) .. " 2>&1")
    local out = q:read("a")
    q:close()
    local v = tonumber(out)
    if not v then error("tiled int32 product subprocess: " .. out, 0) end
    put("matmul_i32_2048_tiled_ms", v)
  end)
end
