-- ga.cudnn / ga.host.cudnn: the host implementations against direct loops
-- written here (convolutions, pooling) and the formulas (activations,
-- softmax, batch normalization); every backward function against finite
-- differences (host, float64); the GPU (cuDNN) against the host across
-- shapes (odd sizes, stride > 1, dilation, groups = channels, padding),
-- layouts and dtypes; bad inputs; and the error when cuDNN cannot be
-- loaded (GPUARRAY_CUDNN=/nonexistent in a subprocess: CI runs it).
local helper = require "spec.helper"
local ga = helper.ga
local H = ga.host

-- deterministic data on the host: standard normal of shape, in dtype
local seed = 0
local function randn(shape, dtype)
  seed = seed + 1
  return H.random.RandomState(seed):standard_normal(shape):astype(dtype or "float64")
end

local function flat(x) return ga.asnumpy(x):astype("float64"):ravel():tolist() end

-- the shape padded to (N, C, D, H, W)
local function pad5(s)
  local r = { s[1], s[2] }
  for _ = 1, 5 - #s do r[#r + 1] = 1 end
  for i = 3, #s do r[#r + 1] = s[i] end
  return r
end
local function sp3(v, nsp, dflt)
  local r = {}
  for i = 1, 3 - nsp do r[i] = dflt end
  for i = 1, nsp do r[#r + 1] = type(v) == "table" and v[i] or (v or dflt) end
  return r
end

-- direct convolution (NCDHW, float64 tables)
local function naive_conv(x, w, o)
  local nsp = #x.shape - 2
  local xs, ws = pad5(x.shape), pad5(w.shape)
  local st, pd, dl = sp3(o.stride, nsp, 1), sp3(o.pad, nsp, 0), sp3(o.dilation, nsp, 1)
  local g = o.groups or 1
  local xf, wf = flat(x), flat(w)
  local N, C, K, Cg = xs[1], xs[2], ws[1], ws[2]
  local Kg = K // g
  local os = {}
  for i = 1, 3 do os[i] = (xs[2 + i] + 2 * pd[i] - dl[i] * (ws[2 + i] - 1) - 1) // st[i] + 1 end
  local y = {}
  for n = 0, N - 1 do
    for k = 0, K - 1 do
      local grp = k // Kg
      for a = 0, os[1] - 1 do
        for b = 0, os[2] - 1 do
          for e = 0, os[3] - 1 do
            local s = o.b and flat(o.b)[k + 1] or 0
            for c = 0, Cg - 1 do
              local ci = grp * Cg + c
              for r1 = 0, ws[3] - 1 do
                local i1 = a * st[1] - pd[1] + r1 * dl[1]
                for r2 = 0, ws[4] - 1 do
                  local i2 = b * st[2] - pd[2] + r2 * dl[2]
                  for r3 = 0, ws[5] - 1 do
                    local i3 = e * st[3] - pd[3] + r3 * dl[3]
                    if i1 >= 0 and i1 < xs[3] and i2 >= 0 and i2 < xs[4] and i3 >= 0 and i3 < xs[5] then
                      local xi = (((n * C + ci) * xs[3] + i1) * xs[4] + i2) * xs[5] + i3
                      local wi = (((k * Cg + c) * ws[3] + r1) * ws[4] + r2) * ws[5] + r3
                      s = s + xf[xi + 1] * wf[wi + 1]
                    end
                  end
                end
              end
            end
            y[#y + 1] = s
          end
        end
      end
    end
  end
  local shape = { N, K }
  for i = 4 - nsp, 3 do shape[#shape + 1] = os[i] end
  return y, shape
end

-- direct pooling (NCDHW)
local function naive_pool(x, k, o)
  local nsp = #x.shape - 2
  local xs = pad5(x.shape)
  local kk, st, pd = sp3(k, nsp, 1), sp3(o.stride or k, nsp, 1), sp3(o.pad, nsp, 0)
  local xf = flat(x)
  local os = {}
  for i = 1, 3 do os[i] = (xs[2 + i] + 2 * pd[i] - kk[i]) // st[i] + 1 end
  local y = {}
  for pl = 0, xs[1] * xs[2] - 1 do
    for a = 0, os[1] - 1 do
      for b = 0, os[2] - 1 do
        for e = 0, os[3] - 1 do
          local best, sum, cnt = -math.huge, 0, 0
          for r1 = 0, kk[1] - 1 do
            local i1 = a * st[1] - pd[1] + r1
            for r2 = 0, kk[2] - 1 do
              local i2 = b * st[2] - pd[2] + r2
              for r3 = 0, kk[3] - 1 do
                local i3 = e * st[3] - pd[3] + r3
                if i1 >= 0 and i1 < xs[3] and i2 >= 0 and i2 < xs[4] and i3 >= 0 and i3 < xs[5] then
                  local v = xf[((pl * xs[3] + i1) * xs[4] + i2) * xs[5] + i3 + 1]
                  best = math.max(best, v)
                  sum, cnt = sum + v, cnt + 1
                end
              end
            end
          end
          local m = o.mode or "max"
          if m == "max" then y[#y + 1] = best
          elseif m == "average_exclude_padding" then y[#y + 1] = sum / cnt
          else y[#y + 1] = sum / (kk[1] * kk[2] * kk[3]) end
        end
      end
    end
  end
  return y
end

local function close_list(got, want, tol, what)
  assert.are.equal(#want, #got, what .. ": size")
  for i = 1, #want do
    local ok = math.abs(got[i] - want[i]) <= tol * (1 + math.abs(want[i]))
    if not ok then error(("%s: element %d is %.10g, expected %.10g"):format(what, i, got[i], want[i])) end
  end
end

-- channels-last copies of an (N, C, sp...) array and back
local function to_last(x)
  local p = { 1 }
  for i = 3, x.ndim do p[#p + 1] = i end
  p[#p + 1] = 2
  return x:transpose(p):copy()
end
local function to_first(x)
  local p = { 1, x.ndim }
  for i = 2, x.ndim - 1 do p[#p + 1] = i end
  return x:transpose(p):copy()
end

local CONV_CASES = {
  { name = "2-D 3x3 pad 1", x = { 2, 3, 5, 6 }, w = { 4, 3, 3, 3 }, o = { pad = 1 } },
  { name = "2-D odd, stride 2", x = { 1, 2, 7, 5 }, w = { 3, 2, 3, 2 }, o = { stride = 2 } },
  { name = "2-D dilation 2, pad {2,1}", x = { 2, 2, 7, 7 }, w = { 2, 2, 3, 3 }, o = { dilation = 2, pad = { 2, 1 } } },
  { name = "2-D groups = channels", x = { 2, 4, 5, 5 }, w = { 4, 1, 3, 3 }, o = { groups = 4, pad = 1 } },
  { name = "2-D 2 groups, stride {1,2}", x = { 1, 4, 6, 7 }, w = { 6, 2, 2, 3 },
    o = { groups = 2, stride = { 1, 2 } } },
  { name = "1-D", x = { 2, 3, 9 }, w = { 2, 3, 4 }, o = { stride = 2, pad = 1 } },
  { name = "3-D", x = { 1, 2, 4, 5, 3 }, w = { 2, 2, 2, 3, 2 }, o = { pad = { 1, 0, 1 } } },
  { name = "1x1", x = { 3, 5, 2, 3 }, w = { 2, 5, 1, 1 }, o = {} },
}

local function opts_with(o, extra)
  local r = {}
  for k, v in pairs(o) do r[k] = v end
  for k, v in pairs(extra or {}) do r[k] = v end
  return r
end

describe("cudnn on the host: against direct loops and formulas", function()
  for _, cs in ipairs(CONV_CASES) do
    it("convolution_forward " .. cs.name, function()
      local x, w = randn(cs.x), randn(cs.w)
      local b = randn({ cs.w[1] })
      local want, wshape = naive_conv(x, w, opts_with(cs.o, { b = b }))
      local y = H.cudnn.convolution_forward(x, w, opts_with(cs.o, { b = b }))
      assert.are.same(wshape, y.shape)
      close_list(flat(y), want, 1e-12, cs.name)
      -- channels last: the same numbers, transposed
      local yl = H.cudnn.convolution_forward(to_last(x), to_last(w), opts_with(cs.o, { b = b, layout = "NHWC" }))
      close_list(flat(to_first(yl)), want, 1e-12, cs.name .. " NHWC")
      -- float32 and float16 round the float64 result
      local y32 = H.cudnn.convolution_forward(x:astype("float32"), w:astype("float32"),
        opts_with(cs.o, { b = b:astype("float32") }))
      assert.are.equal("float32", y32.dtype)
      close_list(flat(y32), want, 1e-5, cs.name .. " float32")
      local y16 = H.cudnn.convolution_forward(x:astype("float16"), w:astype("float16"),
        opts_with(cs.o, { b = b:astype("float16") }))
      assert.are.equal("float16", y16.dtype)
      close_list(flat(y16), flat(H.cudnn.convolution_forward(x:astype("float16"):astype("float64"),
        w:astype("float16"):astype("float64"), opts_with(cs.o, { b = b:astype("float16"):astype("float64") }))),
        2e-3, cs.name .. " float16")
    end)
  end

  it("convolution_forward reads any layout of its inputs", function()
    local x = randn({ 2, 3, 6, 5 })
    local xt = x:transpose({ 1, 2, 4, 3 }):copy():transpose({ 1, 2, 4, 3 })   -- not C-contiguous
    local w = randn({ 2, 3, 3, 3 })
    helper.assert_close(H.cudnn.convolution_forward(xt, w), H.cudnn.convolution_forward(x, w))
  end)

  local POOLS = {
    { x = { 2, 3, 5, 6 }, k = 2, o = {} },
    { x = { 1, 2, 7, 7 }, k = 3, o = { stride = 2, pad = 1 } },
    { x = { 1, 2, 7, 7 }, k = 3, o = { stride = 2, pad = 1, mode = "average" } },
    { x = { 1, 2, 7, 6 }, k = { 3, 2 }, o = { stride = { 2, 1 }, pad = { 1, 1 }, mode = "average_exclude_padding" } },
    { x = { 2, 2, 9 }, k = 3, o = { stride = 2, pad = 1, mode = "average" } },
    { x = { 1, 2, 4, 5, 5 }, k = 2, o = { mode = "max", pad = 1 } },
  }
  for i, pc in ipairs(POOLS) do
    it("pooling_forward case " .. i .. " (" .. (pc.o.mode or "max") .. ")", function()
      local x = randn(pc.x)
      local want = naive_pool(x, pc.k, pc.o)
      close_list(flat(H.cudnn.pooling_forward(x, pc.k, pc.o)), want, 1e-12, "pool")
      local yl = H.cudnn.pooling_forward(to_last(x), pc.k, opts_with(pc.o, { layout = "NHWC" }))
      close_list(flat(to_first(yl)), want, 1e-12, "pool NHWC")
    end)
  end

  it("activation_forward: the formulas", function()
    local x = randn({ 3, 7 })
    local v = flat(x)
    local function sig(t) return 1 / (1 + math.exp(-t)) end
    local F = {
      relu = function(t) return math.max(t, 0) end,
      sigmoid = sig,
      tanh = function(t) return (math.exp(2 * t) - 1) / (math.exp(2 * t) + 1) end,
      elu = function(t) return t > 0 and t or 0.5 * (math.exp(t) - 1) end,
      clipped_relu = function(t) return math.min(math.max(t, 0), 0.7) end,
      swish = function(t) return t * sig(1.5 * t) end,
    }
    local coef = { elu = 0.5, clipped_relu = 0.7, swish = 1.5 }
    for mode, f in pairs(F) do
      local want = {}
      for i, t in ipairs(v) do want[i] = f(t) end
      close_list(flat(H.cudnn.activation_forward(x, mode, { coef = coef[mode] })), want, 1e-12, mode)
    end
    -- default coefficients: clipped relu at 6, elu and swish 1
    local big = H.array({ -2.0, 8.0 })
    close_list(flat(H.cudnn.activation_forward(big, "clipped_relu")), { 0, 6 }, 0, "clipped_relu 6")
    close_list(flat(H.cudnn.activation_forward(big, "elu")), { math.exp(-2) - 1, 8 }, 1e-12, "elu 1")
  end)

  it("softmax_forward: channel and instance, accurate and log, both layouts", function()
    local x = randn({ 2, 3, 2, 2 })
    local xf = flat(x)
    local function idx(n, c, s) return (n * 3 + c) * 4 + s + 1 end
    for _, mode in ipairs { "channel", "instance" } do
      for _, algo in ipairs { "accurate", "log" } do
        local want = {}
        for n = 0, 1 do
          local groups = {}
          if mode == "channel" then
            for s = 0, 3 do
              local g = {}
              for c = 0, 2 do g[#g + 1] = idx(n, c, s) end
              groups[#groups + 1] = g
            end
          else
            local g = {}
            for c = 0, 2 do for s = 0, 3 do g[#g + 1] = idx(n, c, s) end end
            groups[1] = g
          end
          for _, g in ipairs(groups) do
            local sum = 0
            for _, i in ipairs(g) do sum = sum + math.exp(xf[i]) end
            for _, i in ipairs(g) do want[i] = algo == "log" and xf[i] - math.log(sum) or math.exp(xf[i]) / sum end
          end
        end
        local o = { mode = mode, algo = algo }
        close_list(flat(H.cudnn.softmax_forward(x, o)), want, 1e-12, mode .. " " .. algo)
        local yl = H.cudnn.softmax_forward(to_last(x), opts_with(o, { layout = "NHWC" }))
        close_list(flat(to_first(yl)), want, 1e-12, mode .. " " .. algo .. " NHWC")
      end
    end
  end)

  it("batch normalization: training statistics, running averages, inference", function()
    local x = randn({ 4, 3, 2, 3 })
    local gamma, beta = randn({ 3 }), randn({ 3 })
    local rm, rv = H.zeros({ 3 }), H.ones({ 3 })
    local y, sm, si = H.cudnn.batch_normalization_forward_training(x, gamma, beta, rm, rv,
      { epsilon = 1e-3, exponential_average_factor = 0.25 })
    local mean = x:mean({ axis = { 1, 3, 4 } })
    local var = x:var({ axis = { 1, 3, 4 } })
    helper.assert_close(sm, mean)
    helper.assert_close(si, 1 / H.sqrt(var + 1e-3))
    helper.assert_close(rm, mean * 0.25)
    helper.assert_close(rv, var * (24 / 23) * 0.25 + 0.75)   -- unbiased variance into the running one
    local want = (x - mean:reshape({ 1, 3, 1, 1 })) / H.sqrt(var:reshape({ 1, 3, 1, 1 }) + 1e-3) *
      gamma:reshape({ 1, 3, 1, 1 }) + beta:reshape({ 1, 3, 1, 1 })
    helper.assert_close(y, want)
    local yi = H.cudnn.batch_normalization_forward_inference(x, gamma, beta, mean, var, { epsilon = 1e-3 })
    helper.assert_close(yi, want)
    -- channels last
    local yl = H.cudnn.batch_normalization_forward_training(to_last(x), gamma, beta, nil, nil,
      { epsilon = 1e-3, layout = "NHWC" })
    helper.assert_close(to_first(yl), want)
    -- per activation: statistics over N only, parameters of x's shape without N
    local g2, b2 = randn({ 3, 2, 3 }), randn({ 3, 2, 3 })
    local yp = H.cudnn.batch_normalization_forward_training(x, g2, b2, nil, nil, { mode = "per_activation" })
    local m2, v2 = x:mean({ axis = 1 }), x:var({ axis = 1 })
    helper.assert_close(yp, (x - m2) / H.sqrt(v2 + 1e-5) * g2 + b2)
    -- float32 data keeps float32 parameters
    local y32, sm32 = H.cudnn.batch_normalization_forward_training(x:astype("float32"), gamma:astype("float32"),
      beta:astype("float32"))
    assert.are.equal("float32", y32.dtype)
    assert.are.equal("float32", sm32.dtype)
    local y16 = H.cudnn.batch_normalization_forward_training(x:astype("float16"), gamma:astype("float32"),
      beta:astype("float32"))
    assert.are.equal("float16", y16.dtype)
  end)

  it("add_tensor: c = alpha * a + beta * c with broadcasting", function()
    local c = randn({ 2, 3, 2, 2 })
    local c0 = c:copy()
    local a = randn({ 1, 3, 1, 1 })
    local r = H.cudnn.add_tensor(c, a, { alpha = 2, beta = 0.5 })
    assert.are.equal(c, r)
    helper.assert_close(c, a * 2 + c0 * 0.5)
    local c2 = randn({ 5 })
    local c20 = c2:copy()
    H.cudnn.add_tensor(c2, randn({ 5 }) * 0 + 1)
    helper.assert_close(c2, c20 + 1)
  end)

  it("dropout: deterministic with a seed, the same stream as ga.random", function()
    local x = randn({ 50, 20 })
    local y1, m1 = H.cudnn.dropout(x, 0.3, { seed = 42 })
    local y2 = H.cudnn.dropout(x, 0.3, { seed = 42 })
    helper.assert_close(y1, y2)
    local u = H.random.RandomState(42):random_sample({ 50, 20 }, "float32")
    helper.assert_close(m1, H.greater_equal(u, 0.3):astype("float64") / 0.7)
    helper.assert_close(y1, x * m1)
    local kept = H.greater(m1, 0):sum():item() / 1000
    assert.is_true(kept > 0.6 and kept < 0.8, "kept " .. kept)
    helper.assert_close(H.cudnn.dropout_backward(x, m1), x * m1)
    helper.assert_close(H.cudnn.dropout(x, 0.0, { seed = 1 }), x)
  end)
end)

describe("cudnn on the host: the channels-first fallback of channels-last calls", function()
  -- what the core does when the library lacks a channels-last kernel: the
  -- same results through channels-first copies
  local settings = require("gpuarray.cudnn")._settings
  local function both(f)
    settings.channels_first = false
    local r1 = { f() }
    settings.channels_first = true
    local ok, r2 = pcall(function() return { f() } end)
    settings.channels_first = false
    assert.is_true(ok, tostring(r2))
    assert.are.equal(#r1, #r2)
    for i = 1, #r1 do helper.assert_close(r2[i], r1[i]) end
  end
  it("convolutions, pooling, softmax, batch normalization", function()
    local x, w = to_last(randn({ 2, 4, 5, 6 })), to_last(randn({ 6, 2, 3, 2 }))
    local o = { layout = "NHWC", groups = 2, pad = 1, stride = { 2, 1 } }
    local y = H.cudnn.convolution_forward(x, w, o)
    local b = randn({ 6 })
    both(function() return H.cudnn.convolution_forward(x, w, opts_with(o, { b = b })) end)
    both(function() return H.cudnn.convolution_backward_data(w, y, opts_with(o, { x_shape = x.shape })) end)
    both(function() return H.cudnn.convolution_backward_filter(x, y, opts_with(o, { w_shape = w.shape })) end)
    both(function() return H.cudnn.convolution_backward_bias(y, { layout = "NHWC" }) end)
    local po = { layout = "NHWC", stride = 2, pad = 1, mode = "average_exclude_padding" }
    local py = H.cudnn.pooling_forward(x, 3, po)
    both(function() return H.cudnn.pooling_forward(x, 3, po) end)
    both(function() return H.cudnn.pooling_backward(x, py, py * 2, 3, po) end)
    both(function() return H.cudnn.softmax_forward(x, { layout = "NHWC", algo = "log" }) end)
    for _, mode in ipairs { "spatial", "per_activation" } do
      local ps = mode == "spatial" and { 4 } or { 5, 6, 4 }
      local g, bt = randn(ps), randn(ps)
      local bo = { layout = "NHWC", mode = mode }
      both(function()
        local rm, rv = H.zeros(ps), H.ones(ps)
        local yy, sm, si = H.cudnn.batch_normalization_forward_training(x, g, bt, rm, rv, bo)
        return yy, sm, si, rm, rv
      end)
      both(function() return H.cudnn.batch_normalization_backward(x, x * 3, g, nil, nil, bo) end)
    end
  end)
end)

-- <backward(g), v> against the central difference of L(t) = <f(x + t v), g>
local function fd_check(f, x, grad, what)
  local g = randn(f(x).shape)
  local v = randn(x.shape)
  local eps = 1e-5
  local function L(t) return (f(x + v * t) * g):sum():item() end
  local want = (L(eps) - L(-eps)) / (2 * eps)
  local got = (grad(g) * v):sum():item()
  assert.is_true(math.abs(got - want) <= 1e-6 * (1 + math.abs(want)),
    ("%s: <grad, v> = %.12g, finite difference %.12g"):format(what, got, want))
end

describe("cudnn on the host: gradients against finite differences", function()
  for _, cs in ipairs(CONV_CASES) do
    it("convolution backward data/filter/bias " .. cs.name, function()
      local x, w, b = randn(cs.x), randn(cs.w), randn({ cs.w[1] })
      local o = cs.o
      fd_check(function(t) return H.cudnn.convolution_forward(t, w, o) end, x,
        function(g) return H.cudnn.convolution_backward_data(w, g, opts_with(o, { x_shape = x.shape })) end, "dx")
      fd_check(function(t) return H.cudnn.convolution_forward(x, t, o) end, w,
        function(g) return H.cudnn.convolution_backward_filter(x, g, opts_with(o, { w_shape = w.shape })) end, "dw")
      fd_check(function(t) return H.cudnn.convolution_forward(x, w, opts_with(o, { b = t })) end, b,
        function(g) return H.cudnn.convolution_backward_bias(g) end, "db")
      -- channels last
      local xl, wl = to_last(x), to_last(w)
      local ol = opts_with(o, { layout = "NHWC" })
      fd_check(function(t) return H.cudnn.convolution_forward(t, wl, ol) end, xl,
        function(g) return H.cudnn.convolution_backward_data(wl, g, opts_with(ol, { x_shape = xl.shape })) end,
        "dx NHWC")
      fd_check(function(t) return H.cudnn.convolution_forward(xl, t, ol) end, wl,
        function(g) return H.cudnn.convolution_backward_filter(xl, g, opts_with(ol, { w_shape = wl.shape })) end,
        "dw NHWC")
    end)
  end

  it("convolution_backward_data's default x_shape and backward_filter's ksize", function()
    local x, w = randn({ 1, 2, 7, 7 }), randn({ 3, 2, 3, 3 })
    local y = H.cudnn.convolution_forward(x, w, { stride = 2, pad = 1 })
    assert.are.same({ 1, 2, 7, 7 }, H.cudnn.convolution_backward_data(w, y, { stride = 2, pad = 1 }).shape)
    assert.are.same({ 3, 2, 3, 3 }, H.cudnn.convolution_backward_filter(x, y, { stride = 2, pad = 1, ksize = 3 }).shape)
  end)

  for _, mode in ipairs { "max", "average", "average_exclude_padding" } do
    it("pooling_backward " .. mode, function()
      local x = randn({ 2, 2, 7, 6 })
      local o = { stride = 2, pad = 1, mode = mode }
      fd_check(function(t) return H.cudnn.pooling_forward(t, 3, o) end, x,
        function(g) return H.cudnn.pooling_backward(x, H.cudnn.pooling_forward(x, 3, o), g, 3, o) end, mode)
    end)
  end

  for _, mode in ipairs { "relu", "sigmoid", "tanh", "elu", "clipped_relu", "swish" } do
    it("activation_backward " .. mode, function()
      local x = randn({ 4, 5 })
      local o = { coef = mode == "clipped_relu" and 0.8 or 1.3 }
      fd_check(function(t) return H.cudnn.activation_forward(t, mode, o) end, x,
        function(g) return H.cudnn.activation_backward(x, H.cudnn.activation_forward(x, mode, o), g, mode, o) end,
        mode)
    end)
  end

  for _, mode in ipairs { "channel", "instance" } do
    for _, algo in ipairs { "accurate", "log" } do
      it("softmax_backward " .. mode .. " " .. algo, function()
        local x = randn({ 2, 4, 3 })
        local o = { mode = mode, algo = algo }
        fd_check(function(t) return H.cudnn.softmax_forward(t, o) end, x,
          function(g) return H.cudnn.softmax_backward(H.cudnn.softmax_forward(x, o), g, o) end, mode .. " " .. algo)
      end)
    end
  end

  for _, mode in ipairs { "spatial", "per_activation" } do
    it("batch_normalization_backward " .. mode, function()
      local x = randn({ 4, 3, 2, 2 })
      local ps = mode == "spatial" and { 3 } or { 3, 2, 2 }
      local gamma, beta = randn(ps), randn(ps)
      local o = { mode = mode, epsilon = 1e-4 }
      local _, sm, si = H.cudnn.batch_normalization_forward_training(x, gamma, beta, nil, nil, o)
      local function bwd(g) return H.cudnn.batch_normalization_backward(x, g, gamma, sm, si, o) end
      fd_check(function(t) return (H.cudnn.batch_normalization_forward_training(t, gamma, beta, nil, nil, o)) end, x,
        function(g) return (bwd(g)) end, "dx")
      fd_check(function(t) return (H.cudnn.batch_normalization_forward_training(x, t, beta, nil, nil, o)) end, gamma,
        function(g) return select(2, bwd(g)) end, "dgamma")
      fd_check(function(t) return (H.cudnn.batch_normalization_forward_training(x, gamma, t, nil, nil, o)) end, beta,
        function(g) return select(3, bwd(g)) end, "dbeta")
      -- without the saved statistics: recomputed
      local g = randn(x.shape)
      helper.assert_close(H.cudnn.batch_normalization_backward(x, g, gamma, nil, nil, o), (bwd(g)))
    end)
  end
end)

-- ---- the GPU against the host ----

-- inputs made on the host, moved to the device under test
local function on(xp, a) return xp == H and a or ga.asarray(a) end

local TOL = { float64 = { rtol = 1e-9, atol = 1e-9 }, float32 = { rtol = 1e-4, atol = 1e-4 },
              float16 = { rtol = 2e-2, atol = 5e-2 } }

-- f(xp, data) on the GPU and on the host with the same data
local function vs_host(data, f, tol)
  helper.assert_gpu_vs_host(function(xp)
    local d = {}
    for k, v in pairs(data) do d[k] = on(xp, v) end
    return f(xp, d)
  end, tol)
end

local function each_result(data, f, n, tol)
  for i = 1, n do
    vs_host(data, function(xp, d) return (select(i, f(xp, d))) end, tol)
  end
end

describe("cudnn on the GPU against the host", function()
  if not helper.has_gpu() then
    pending("no GPU: these compare cuDNN with the host implementation")
    return
  end
  local have, why = ga.cudnn.available()
  if not have then
    pending(why)
    return
  end
  local old
  setup(function() old = ga.cudnn.set_tensor_core_math(false) end)
  teardown(function() ga.cudnn.set_tensor_core_math(old) end)

  for _, dt in ipairs { "float32", "float64", "float16" } do
    for _, cs in ipairs(CONV_CASES) do
      for _, layout in ipairs { "NCHW", "NHWC" } do
        it(("convolution %s %s %s"):format(cs.name, dt, layout), function()
          -- float32 and float64 in IEEE arithmetic; float16 on tensor cores
          -- (float32 accumulation) where cuDNN has them
          ga.cudnn.set_tensor_core_math(dt == "float16")
          local x, w, b = randn(cs.x, dt), randn(cs.w, dt), randn({ cs.w[1] }, dt)
          if layout == "NHWC" then x, w = to_last(x), to_last(w) end
          local o = opts_with(cs.o, { layout = layout })
          local y = H.cudnn.convolution_forward(x, w, o)
          local g = randn(y.shape, dt)
          local data = { x = x, w = w, b = b, g = g }
          local tol = TOL[dt]
          vs_host(data, function(xp, d)
            return xp.cudnn.convolution_forward(d.x, d.w, opts_with(o, { b = d.b }))
          end, tol)
          vs_host(data, function(xp, d)
            return xp.cudnn.convolution_backward_data(d.w, d.g, opts_with(o, { x_shape = x.shape }))
          end, tol)
          vs_host(data, function(xp, d)
            return xp.cudnn.convolution_backward_filter(d.x, d.g, opts_with(o, { w_shape = w.shape }))
          end, tol)
          vs_host(data, function(xp, d) return xp.cudnn.convolution_backward_bias(d.g, { layout = layout }) end, tol)
        end)
      end
    end
  end

  it("convolution with algo = \"find\" (cached per shape) and with tensor cores", function()
    local x, w = randn({ 4, 8, 9, 9 }, "float32"), randn({ 8, 8, 3, 3 }, "float32")
    for _ = 1, 2 do
      vs_host({ x = x, w = w }, function(xp, d)
        return xp.cudnn.convolution_forward(d.x, d.w, { pad = 1, algo = "find" })
      end, TOL.float32)
    end
    ga.cudnn.set_tensor_core_math(true)
    vs_host({ x = x, w = w }, function(xp, d) return xp.cudnn.convolution_forward(d.x, d.w, { pad = 1 }) end,
      { rtol = 2e-2, atol = 5e-2 })
    local x16, w16 = to_last(x:astype("float16")), to_last(w:astype("float16"))
    vs_host({ x = x16, w = w16 }, function(xp, d)
      return xp.cudnn.convolution_forward(d.x, d.w, { pad = 1, layout = "NHWC" })
    end, TOL.float16)
    ga.cudnn.set_tensor_core_math(false)
  end)

  for _, dt in ipairs { "float32", "float64", "float16" } do
    for _, layout in ipairs { "NCHW", "NHWC" } do
      it("pooling " .. dt .. " " .. layout, function()
        for _, mode in ipairs { "max", "average", "average_exclude_padding" } do
          for _, shp in ipairs { { 2, 3, 7, 6 }, { 2, 3, 9 }, { 1, 2, 5, 4, 6 } } do
            -- distinct values, exact in float16: no ties for max pooling
            -- to break differently
            seed = seed + 1
            local n = 1
            for _, d in ipairs(shp) do n = n * d end
            local x = (H.random.RandomState(seed):permutation(n):astype("float64") / 64 - 2):astype(dt):reshape(shp)
            if layout == "NHWC" then x = to_last(x) end
            local o = { stride = 2, pad = 1, mode = mode, layout = layout }
            local y = H.cudnn.pooling_forward(x, 3, o)
            local data = { x = x, y = y, g = randn(y.shape, dt) }
            vs_host(data, function(xp, d) return xp.cudnn.pooling_forward(d.x, 3, o) end, TOL[dt])
            vs_host(data, function(xp, d) return xp.cudnn.pooling_backward(d.x, d.y, d.g, 3, o) end, TOL[dt])
          end
        end
      end)
    end
  end

  for _, dt in ipairs { "float32", "float64", "float16" } do
    it("activations " .. dt, function()
      for _, mode in ipairs { "relu", "sigmoid", "tanh", "elu", "clipped_relu", "swish" } do
        local x = randn({ 3, 5, 7 }, dt)
        local y = H.cudnn.activation_forward(x, mode)
        local data = { x = x, y = y, g = randn(x.shape, dt) }
        vs_host(data, function(xp, d) return xp.cudnn.activation_forward(d.x, mode) end, TOL[dt])
        vs_host(data, function(xp, d) return xp.cudnn.activation_backward(d.x, d.y, d.g, mode) end, TOL[dt])
      end
    end)

    it("softmax " .. dt, function()
      for _, layout in ipairs { "NCHW", "NHWC" } do
        for _, mode in ipairs { "channel", "instance" } do
          for _, algo in ipairs { "accurate", "log" } do
            local x = randn({ 3, 5, 2, 3 }, dt)
            local o = { mode = mode, algo = algo, layout = layout }
            local y = H.cudnn.softmax_forward(x, o)
            local data = { x = x, y = y, g = randn(x.shape, dt) }
            vs_host(data, function(xp, d) return xp.cudnn.softmax_forward(d.x, o) end, TOL[dt])
            vs_host(data, function(xp, d) return xp.cudnn.softmax_backward(d.y, d.g, o) end, TOL[dt])
          end
        end
      end
    end)

    it("batch normalization " .. dt, function()
      local pdt = dt == "float64" and "float64" or "float32"
      for _, layout in ipairs { "NCHW", "NHWC" } do
        for _, mode in ipairs { "spatial", "per_activation" } do
          local x = randn({ 4, 3, 3, 5 }, dt)
          if layout == "NHWC" then x = to_last(x) end
          local ps = mode == "spatial" and { 3 } or (layout == "NHWC" and { 3, 5, 3 } or { 3, 3, 5 })
          local o = { mode = mode, layout = layout, epsilon = 1e-4, exponential_average_factor = 0.3 }
          local data = { x = x, gamma = randn(ps, pdt), beta = randn(ps, pdt), rm = randn(ps, pdt),
                         rv = H.abs(randn(ps, pdt)) + 0.5, g = randn(x.shape, dt) }
          local tol = TOL[dt]
          each_result(data, function(xp, d)
            local rm, rv = d.rm:copy(), d.rv:copy()
            local y, sm, si = xp.cudnn.batch_normalization_forward_training(d.x, d.gamma, d.beta, rm, rv, o)
            return y, sm, si, rm, rv
          end, 5, tol)
          vs_host(data, function(xp, d)
            return xp.cudnn.batch_normalization_forward_inference(d.x, d.gamma, d.beta, d.rm, d.rv, o)
          end, tol)
          each_result(data, function(xp, d)
            local _, sm, si = xp.cudnn.batch_normalization_forward_training(d.x, d.gamma, d.beta, nil, nil, o)
            return xp.cudnn.batch_normalization_backward(d.x, d.g, d.gamma, sm, si, o)
          end, 3, tol)
        end
      end
    end)

    it("add_tensor and dropout " .. dt, function()
      local data = { c = randn({ 2, 3, 4, 5 }, dt), a = randn({ 1, 3, 1, 1 }, dt), a2 = randn({ 2, 3, 4, 5 }, dt) }
      vs_host(data, function(xp, d) return xp.cudnn.add_tensor(d.c:copy(), d.a, { alpha = 0.5, beta = 2 }) end, TOL[dt])
      vs_host(data, function(xp, d) return xp.cudnn.add_tensor(d.c:copy(), d.a2) end, TOL[dt])
      each_result(data, function(xp, d) return xp.cudnn.dropout(d.c, 0.4, { seed = 9 }) end, 2, TOL[dt])
    end)
  end
end)

-- ---- bad inputs, on every device ----

helper.each_device(function(xp)
  describe("cudnn bad inputs", function()
    local x = on(xp, randn({ 2, 3, 5, 5 }, "float32"))
    local w = on(xp, randn({ 4, 3, 3, 3 }, "float32"))
    local cd = xp.cudnn
    it("convolutions", function()
      helper.assert_error(function() cd.convolution_forward(x, on(xp, randn({ 4, 2, 3, 3 }, "float32"))) end,
        "convolution_forward: channel mismatch: x has 3 channels but w expects 2")
      helper.assert_error(function() cd.convolution_forward(x, w, { pad = -1 }) end,
        "convolution_forward: negative padding (-1)")
      helper.assert_error(function() cd.convolution_forward(x, w, { stride = 0 }) end, "stride must be >= 1")
      helper.assert_error(function() cd.convolution_forward(x, w, { dilation = 3 }) end,
        "convolution_forward: output size < 1")
      helper.assert_error(function() cd.convolution_forward(x, on(xp, randn({ 4, 3, 3, 3 }, "float64"))) end,
        "convolution_forward: w is float64 but the other arrays are float32 (no mixing)")
      helper.assert_error(function() cd.convolution_forward(x:astype("int32"), w) end,
        "must be float16, float32 or float64, got int32")
      helper.assert_error(function() cd.convolution_forward(x, w, { groups = 2 }) end,
        "convolution_forward: channel mismatch")
      local w3 = on(xp, randn({ 3, 1, 3, 3 }, "float32"))
      helper.assert_error(function() cd.convolution_forward(x, w3, { groups = 2 }) end,
        "do not divide into 2 groups")
      helper.assert_error(function() cd.convolution_forward(x, w, { layout = "NCWH" }) end, "unknown layout NCWH")
      helper.assert_error(function() cd.convolution_forward(x, w, { pad = { 1 } }) end,
        "pad has 1 entries for 2 spatial dims")
      helper.assert_error(function() cd.convolution_forward(x, w, { b = on(xp, randn({ 3 }, "float32")) }) end,
        "b has shape (3,) where (4,) is expected")
      helper.assert_error(function() cd.convolution_forward(x, w, { out = xp.zeros({ 2, 4, 5, 5 }, "float32") }) end,
        "y has shape (2,4,5,5) where (2,4,3,3) is expected")
      helper.assert_error(function() cd.convolution_forward(x, on(xp, randn({ 4, 3 }, "float32"))) end,
        "the filter must have 3 to 5 dims")
      helper.assert_error(function() cd.convolution_forward(x, w, { algo = "fast" }) end, "algo must be")
      helper.assert_error(function() cd.convolution_forward("x", w) end, "convolution_forward: x must be an ndarray")
      helper.assert_error(function() cd.convolution_backward_filter(x, x) end, "give w_shape, ksize or out")
    end)
    it("pooling, activations, softmax, batch normalization, add_tensor, dropout", function()
      helper.assert_error(function() cd.pooling_forward(x, 3, { pad = 2 }) end, "at most half the window")
      helper.assert_error(function() cd.pooling_forward(x, 7) end, "pooling_forward: output size < 1")
      helper.assert_error(function() cd.pooling_forward(x, 2, { mode = "min" }) end, "unknown pooling mode min")
      helper.assert_error(function() cd.activation_forward(x, "gelu") end, "unknown activation gelu")
      helper.assert_error(function() cd.softmax_forward(x, { algo = "fast" }) end, "unknown softmax algorithm fast")
      helper.assert_error(function() cd.softmax_forward(on(xp, randn({ 3 }, "float32"))) end, "at least 2 dims")
      local g3 = on(xp, randn({ 3 }, "float32"))
      local g4 = on(xp, randn({ 4 }, "float32"))
      helper.assert_error(function() cd.batch_normalization_forward_training(x, g4, g3) end,
        "gamma has shape (4,) where (3,) is expected")
      helper.assert_error(function() cd.batch_normalization_forward_training(x, g3:astype("float64"), g3) end,
        "gamma must be float32 for float32 data")
      helper.assert_error(function() cd.batch_normalization_forward_training(x, g3, g3, nil, nil, { epsilon = 0 }) end,
        "epsilon must be > 0")
      helper.assert_error(function() cd.batch_normalization_forward_training(x, g3, g3, g3:copy()) end,
        "give both running_mean and running_var")
      helper.assert_error(function() cd.add_tensor(x, on(xp, randn({ 1, 2, 1, 1 }, "float32"))) end,
        "add_tensor: a (1,2,1,1) does not broadcast to c (2,3,5,5)")
      helper.assert_error(function() cd.dropout(x, 1.0) end, "dropout: p must be a number in [0, 1)")
    end)
  end)
end)

-- ---- cuDNN missing ----

describe("cudnn without the library", function()
  local MSG = "cudnn: library not found (set GPUARRAY_CUDNN=/path/to/libcudnn.so.9)"
  it("available() says so and GPU functions raise it; the host functions still work", function()
    local code = [[
      local ga = require "gpuarray"
      local ok, why = ga.cudnn.available()
      io.write(tostring(ok), "\n", why, "\n")
      local y = ga.host.cudnn.activation_forward(ga.host.array({-1.0, 2.0}))
      io.write(tostring(y[2]:item()), "\n")
      if ga.cuda.is_available() then
        local ok2, err = pcall(ga.cudnn.activation_forward, ga.array({1.0}))
        io.write(tostring(ok2), "\n", err, "\n")
      end
    ]]
    local p = io.popen("GPUARRAY_CUDNN=/nonexistent/libcudnn.so.9 " .. helper.lua_env() .. " " ..
      helper.lua_interpreter() .. " -e '" .. code .. "' 2>&1")
    local out = p:read("a")
    p:close()
    local lines = {}
    for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.are.equal("false", lines[1], out)
    assert.are.equal(MSG, lines[2], out)
    assert.are.equal("2.0", lines[3], out)
    if helper.has_gpu() then
      assert.are.equal("false", lines[4], out)
      assert.are.equal("activation_forward: " .. MSG, lines[5], out)
    end
  end)
  it("ga.host.cudnn never needs it", function()
    assert.are.same({ true, 0 }, { ga.host.cudnn.available() })
  end)
end)
