-- bench/parts/products.lua: the matrix-product keys of
-- ../shared/bench/cupy_reference.py, measured as it does (same sizes, CUDA
-- events around `reps` calls after 2 warm-ups).  overhead_matmul64_us is in
-- run.lua (it predates the parts).
--   batched_matmul_f32_4096x64_TFLOPs: cp.matmul(Bt, Bt), Bt (4096, 64, 64) float32, reps 5
--   matmul_c64_4096_TFLOPs: C @ C, (4096, 4096) complex64, 8 n^3 flops, reps 5
--   matmul_i32_2048_ms: I32 @ I32, (2048, 2048) int32 in [-100, 100), reps 3
--   einsum_bij_bjk_f32_1024x64_ms: einsum("bij,bjk->bik", Xe, Xe), Xe (1024, 64, 64) float32
-- Data: a counter-based hash of the index (no random module needed here);
-- GEMM rates do not depend on the values.
return function(b)
  local ga, put, section, gpu_ms, QUICK = b.ga, b.put, b.section, b.gpu_ms, b.QUICK

  -- values in [0, 1) of dtype dt and shape
  local function unit(shape, dt)
    local n = 1
    for _, d in ipairs(shape) do n = n * d end
    local i = ga.arange(0, n, 1, "float64")
    local h = ga.sin(i * 12.9898) * 43758.5453
    local r = (h % 1.0):astype(dt):reshape(shape)
    i:free(); h:free()
    return r
  end

  section({ "batched_matmul_f32_4096x64_TFLOPs" }, function()
    local nb = QUICK and 64 or 4096
    local Bt = unit({ nb, 64, 64 }, "float32")
    -- 20 warm-ups: five 0.1 ms products from an idle GPU ran before its
    -- clocks rose (12-15 TFLOPs measured where 20 hold; CuPy's line runs
    -- right after its 8192 products, on a busy GPU)
    put("batched_matmul_f32_4096x64_TFLOPs", nb * 2 * 64 ^ 3 / gpu_ms(function()
      ga.matmul(Bt, Bt):free()
    end, 5, 20) / 1e9)
    Bt:free()
  end)

  section({ "matmul_c64_4096_TFLOPs" }, function()
    local n = QUICK and 256 or 4096
    local re, im = unit({ n, n }, "float32"), unit({ n * n }, "float32"):reshape({ n, n })
    local C = ga.empty({ n, n }, "complex64")
    C.real[ga.ellipsis] = re
    C.imag[ga.ellipsis] = ga.flip(im, 1)
    re:free(); im:free()
    put("matmul_c64_4096_TFLOPs", 8 * n ^ 3 / gpu_ms(function() ga.matmul(C, C):free() end, 5) / 1e9)
    C:free()
  end)

  section({ "matmul_i32_2048_ms" }, function()
    local n = QUICK and 256 or 2048
    local u = unit({ n, n }, "float64")
    local I32 = ga.floor(u * 200 - 100):astype("int32")   -- in [-100, 100), as cp.random.randint
    u:free()
    put("matmul_i32_2048_ms", gpu_ms(function() ga.matmul(I32, I32):free() end, 3))
    I32:free()
  end)

  section({ "einsum_bij_bjk_f32_1024x64_ms" }, function()
    local nb = QUICK and 64 or 1024
    local Xe = unit({ nb, 64, 64 }, "float32")
    put("einsum_bij_bjk_f32_1024x64_ms", gpu_ms(function() ga.einsum("bij,bjk->bik", Xe, Xe):free() end))
    Xe:free()
  end)
end
