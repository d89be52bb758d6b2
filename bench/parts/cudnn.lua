-- ga.cudnn (issue 18): PyTorch's torch.nn.functional on the same shapes
-- (../shared/bench/torch_reference.py prints the same keys; PyTorch runs
-- with cudnn.benchmark = True, so the convolutions here use algo = "find").
-- N=64, C=K=256, 56x56, 3x3, pad 1; float32 NCHW and float16 NHWC;
-- batch normalization in training (running statistics updated); 2x2 max
-- pooling.
return function(b)
  local ga, put, gpu_ms = b.ga, b.put, b.gpu_ms
  local keys = { "conv2d_f32_nchw_ms", "conv2d_f16_nhwc_ms", "batchnorm_f32_ms", "maxpool_f32_ms" }
  b.section(keys, function()
    if not ga.cuda.is_available() then error("no GPU") end
    local ok, why = ga.cudnn.available()
    if not ok then   -- cuDNN is optional: the keys stay null, with the reason
      for _, k in ipairs(keys) do put(k, nil) end
      put("cudnn_note", why)
      return
    end
    local n, c, hw = b.QUICK and 4 or 64, b.QUICK and 32 or 256, b.QUICK and 14 or 56
    local x32 = ga.random.standard_normal({ n, c, hw, hw }, "float32")
    local w32 = ga.random.standard_normal({ c, c, 3, 3 }, "float32")
    local y32 = ga.cudnn.convolution_forward(x32, w32, { pad = 1, algo = "find" })
    put("conv2d_f32_nchw_ms", gpu_ms(function()
      ga.cudnn.convolution_forward(x32, w32, { pad = 1, algo = "find", out = y32 })
    end, 20, 3))
    -- channels last: (N, H, W, C) data, (K, 3, 3, C) filters
    local x16 = x32:transpose({ 1, 3, 4, 2 }):astype("float16"):copy()
    local w16 = w32:transpose({ 1, 3, 4, 2 }):astype("float16"):copy()
    local y16 = ga.cudnn.convolution_forward(x16, w16, { pad = 1, layout = "NHWC", algo = "find" })
    put("conv2d_f16_nhwc_ms", gpu_ms(function()
      ga.cudnn.convolution_forward(x16, w16, { pad = 1, layout = "NHWC", algo = "find", out = y16 })
    end, 20, 3))
    x16, w16, y16, y32 = nil, nil, nil, nil
    local gamma, beta = ga.ones({ c }, "float32"), ga.zeros({ c }, "float32")
    local rm, rv = ga.zeros({ c }, "float32"), ga.ones({ c }, "float32")
    local yb = ga.empty(x32.shape, "float32")
    put("batchnorm_f32_ms", gpu_ms(function()
      ga.cudnn.batch_normalization_forward_training(x32, gamma, beta, rm, rv, { out = yb })
    end, 20, 3))
    local yp = ga.cudnn.pooling_forward(x32, 2)
    put("maxpool_f32_ms", gpu_ms(function() ga.cudnn.pooling_forward(x32, 2, { out = yp }) end, 20, 3))
  end)
end
