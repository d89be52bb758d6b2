-- bench/parts/sort.lua: the sorting keys of ../shared/bench/cupy_reference.py
-- beyond sort_f32_2p26_ms (which bench/run.lua measures), as it measures
-- them: uniform random data from ga.random (CuPy: cp.random), CUDA events
-- around 5 calls after 2 warm-ups, the result freed each call.
--   sort_rows_f32_65536x256_ms: cp.sort(rows, axis=-1), rows = random((65536, 256)) float32
--   argsort_f32_2p26_ms: cp.argsort(k32), k32 = random(2^26) float32
--   sort_i64_2p26_ms: cp.sort(k64), k64 = randint(-2^62, 2^62, 2^26) int64
--   unique_i32_2p26_ms: cp.unique(u32), u32 = randint(0, 2^20, 2^26) int32
return function(b)
  local ga, put, section, gpu_ms, QUICK = b.ga, b.put, b.section, b.gpu_ms, b.QUICK
  local rnd = ga.random
  local N = QUICK and (1 << 16) or (1 << 26)

  section({ "sort_rows_f32_65536x256_ms" }, function()
    local rows = rnd.random({ QUICK and 256 or 65536, 256 }, "float32")
    put("sort_rows_f32_65536x256_ms", gpu_ms(function() ga.sort(rows, -1):free() end, 5))
    rows:free()
  end)

  section({ "argsort_f32_2p26_ms" }, function()
    local k32 = rnd.random(N, "float32")
    put("argsort_f32_2p26_ms", gpu_ms(function() ga.argsort(k32):free() end, 5))
    k32:free()
  end)

  section({ "sort_i64_2p26_ms" }, function()
    local k64 = rnd.randint(-(1 << 62), 1 << 62, N, "int64")
    put("sort_i64_2p26_ms", gpu_ms(function() ga.sort(k64):free() end, 5))
    k64:free()
  end)

  section({ "unique_i32_2p26_ms" }, function()
    local u32 = rnd.randint(0, 1 << 20, N, "int32")
    put("unique_i32_2p26_ms", gpu_ms(function() ga.unique(u32):free() end, 5))
    u32:free()
  end)
end
