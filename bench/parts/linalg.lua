-- Dense solvers (issue 14): the keys and sizes of ../shared/bench/
-- cupy_reference.py's "linear algebra" section (cupy.linalg on cuSOLVER),
-- timed with CUDA events around each call as CuPy's gpu_ms.
return function(b)
  local ga, put, section, gpu_ms, QUICK = b.ga, b.put, b.section, b.gpu_ms, b.QUICK
  local L = ga.linalg
  -- BENCH_LINALG_CHECKS=0: no info read-back (CuPy's default); for
  -- comparison only (tools/jacobi_check/speed.sh)
  if os.getenv("BENCH_LINALG_CHECKS") == "0" then L.set_checks(false) end
  local n = QUICK and 256 or 4096
  local function spd(m, dt)
    local g = ga.random.random({ m, m }):astype(dt)
    return ga.matmul(g, g.T) + ga.eye(m, nil, nil, dt) * m
  end

  section({ "solve_f64_4096_ms", "cholesky_f64_4096_ms", "inv_f32_4096_ms", "eigh_f32_4096_ms", "qr_f32_4096_ms",
            "svd_f32_2048_ms" }, function()
    local A64, b64 = spd(n, "float64"), ga.random.random({ n, 1 })
    put("solve_f64_4096_ms", gpu_ms(function() return L.solve(A64, b64) end, 3))
    put("cholesky_f64_4096_ms", gpu_ms(function() return L.cholesky(A64) end, 3))
    A64:free(); b64:free()
    local A32 = spd(n, "float32")
    put("inv_f32_4096_ms", gpu_ms(function() return L.inv(A32) end, 3))
    put("eigh_f32_4096_ms", gpu_ms(function() return L.eigh(A32) end, 2, 1))
    put("qr_f32_4096_ms", gpu_ms(function() return L.qr(A32) end, 3))
    local h = n // 2
    local S = A32[{ { 1, h }, { 1, h } }]
    put("svd_f32_2048_ms", gpu_ms(function() return L.svd(S) end, 2, 1))
    A32:free()
    ga.get_default_memory_pool():free_all_blocks()
  end)

  section({ "svd_batched_c64_16384x8x8_ms", "eigh_batched_f32_16384x16_ms" }, function()
    local nb = QUICK and 256 or 16384
    local H = ga.zeros({ nb, 8, 8 }, "complex64")
    H.real[ga.ellipsis] = ga.random.random({ nb, 8, 8 })
    H.imag[ga.ellipsis] = ga.random.random({ nb, 8, 8 })
    put("svd_batched_c64_16384x8x8_ms", gpu_ms(function() return L.svd(H) end, 3, 1))
    local Sb = ga.random.random({ nb, 16, 16 }, "float32")
    Sb = Sb + Sb:swapaxes(-1, -2)
    put("eigh_batched_f32_16384x16_ms", gpu_ms(function() return L.eigh(Sb) end, 3, 1))
    H:free(); Sb:free()
    ga.get_default_memory_pool():free_all_blocks()
  end)
end
