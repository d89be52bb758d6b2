-- ga.fuse (issue 17): the fusion keys of ../shared/bench/cupy_reference.py
-- (axpy_fuse_ms, gelu_expr_ms, gelu_fuse_ms, chain8_expr_ms, chain8_fuse_ms,
-- softmax_1k_us) and torch_reference.py (chain8_fuse_ms is torch.compile's
-- there), plus softmax_1k_fuse_us (the seed's softmax through ga.fuse) and
-- the achieved bandwidths axpy_fuse_TBps, gelu_fuse_TBps (one read per input
-- and one write, as the issue's bars count them).  axpy_expr_ms is run.lua's.
return function(b)
  local ga, put, section, gpu_ms, wall_us = b.ga, b.put, b.section, b.gpu_ms, b.wall_us
  local N = b.QUICK and 1 << 20 or 1 << 28      -- 2^28 float32, as CuPy's
  local N8 = b.QUICK and 1 << 20 or 1 << 26     -- chain8: 2^26 float32
  local GB = N * 4 / 1e9

  local function gelu(x)
    return 0.5 * x * (1.0 + ga.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
  end
  local function chain8(x, y) return ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y end

  section({ "axpy_fuse_ms", "axpy_fuse_TBps", "gelu_expr_ms", "gelu_fuse_ms", "gelu_fuse_TBps" }, function()
    local a = ga.arange(0, N, 1, "float32") / N   -- in [0, 1), like CuPy's random
    local bb = ga.ones(N, "float32")
    local c = ga.full(N, 0.5, "float32")
    local axpy = ga.fuse(function(x, y, z) return x * y + z end, { name = "axpy" })
    local ms = gpu_ms(function() axpy(a, bb, c):free() end)
    put("axpy_fuse_ms", ms)
    put("axpy_fuse_TBps", 4 * GB / ms)   -- GB per ms = TB/s
    put("gelu_expr_ms", gpu_ms(function() gelu(a):free() end))
    local gf = ga.fuse(gelu, { name = "gelu" })
    ms = gpu_ms(function() gf(a):free() end)
    put("gelu_fuse_ms", ms)
    put("gelu_fuse_TBps", 2 * GB / ms)
    a:free(); bb:free(); c:free()
  end)

  section({ "chain8_expr_ms", "chain8_fuse_ms" }, function()
    local x = ga.arange(0, N8, 1, "float32") / N8
    local y = ga.full(N8, 0.25, "float32")
    -- (0.2 ms a call: 50 timed after 20 warm-up calls)
    put("chain8_expr_ms", gpu_ms(function() chain8(x, y):free() end, 50, 20))
    local f = ga.fuse(chain8, { name = "chain8" })
    put("chain8_fuse_ms", gpu_ms(function() f(x, y):free() end, 50, 20))
    x:free(); y:free()
  end)

  section({ "softmax_1k_us", "softmax_1k_fuse_us" }, function()
    local function softmax(x)
      local e = ga.exp(x - ga.max(x))
      return e / ga.sum(e)
    end
    local xs = ga.arange(1000, "float64") / 1000
    put("softmax_1k_us", wall_us(function() return softmax(xs) end, 5000))
    local sf = ga.fuse(softmax, { name = "softmax" })
    put("softmax_1k_fuse_us", wall_us(function() return sf(xs) end, 5000))
  end)
end
