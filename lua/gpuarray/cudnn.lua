--- Deep-learning primitives: `ga.cudnn` (cuDNN 9 on the GPU, opened with
-- `dlopen` on first use) and `ga.host.cudnn` (direct implementations on the
-- host: im2col + OpenBLAS for convolutions), with the names of cuDNN's
-- legacy API. The same script runs on a CPU-only machine; every function
-- runs on the device of its arrays.
--
-- **Layouts.** Data tensors are `(N, C, spatial...)` (`layout = "NCHW"`,
-- the default; also `"NCW"`, `"NCDHW"`) or channels last `(N,
-- spatial..., C)` (`layout = "NHWC"`, `"NWC"`, `"NDHWC"`), with 1 to 3
-- spatial dims. Filters are `(K, C/groups, kernel...)`, or `(K, kernel...,
-- C/groups)` in the channels-last layout. Spatial options (`pad`,
-- `stride`, `dilation`, pooling windows) are one integer for every
-- spatial dim or a table with one per dim.
--
-- **dtypes.** float16, float32 and float64, never mixed; float16
-- convolutions accumulate in float32 (and may use tensor cores: see
-- `set_tensor_core_math`). Batch normalization's parameters (`gamma`,
-- `beta`, running and saved statistics) are float32 for float16 and
-- float32 data, float64 for float64 data.
--
-- **cuDNN.** The library is `libcudnn.so.9` on the default search path or
-- the file named by `GPUARRAY_CUDNN`; without it the module loads and
-- works, and these functions raise `cudnn: library not found (set
-- GPUARRAY_CUDNN=/path/to/libcudnn.so.9)` for GPU arrays (`ga.cudnn.available`
-- says so beforehand). One cuDNN handle per device, on the caller's current
-- stream; workspaces come from the device's memory pool; convolution
-- algorithms are chosen by cuDNN's heuristics, or with `algo = "find"` by
-- timing them once per shape; either choice is cached per shape.
-- @module gpuarray.cudnn
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local OP = {
  conv_fwd = 0, conv_bwd_data = 1, conv_bwd_filter = 2, conv_bwd_bias = 3,
  pool_fwd = 4, pool_bwd = 5, act_fwd = 6, act_bwd = 7, sm_fwd = 8, sm_bwd = 9,
  bn_train = 10, bn_infer = 11, bn_bwd = 12, add = 13,
}
local POOL = { max = 0, average = 1, average_include_padding = 1, average_exclude_padding = 2 }
local ACT = { sigmoid = 0, relu = 1, tanh = 2, clipped_relu = 3, elu = 4, swish = 6 }
local ACT_COEF = { clipped_relu = 6.0, elu = 1.0, swish = 1.0 }
local SM_ALGO = { accurate = 1, log = 2 }
local SM_MODE = { instance = 0, channel = 1 }
local BN_MODE = { per_activation = 0, spatial = 1 }
local LAYOUT = {
  NCHW = false, NCW = false, NCDHW = false, NC = false, channels_first = false,
  NHWC = true, NWC = true, NDHWC = true, channels_last = true,
}

-- shared by ga.cudnn and ga.host.cudnn
-- (channels_first: the specs' switch into the core's channels-first fallback)
local settings = { tensor_cores = true, channels_first = false }

local function keys(t)
  local r = {}
  for k in pairs(t) do r[#r + 1] = k end
  table.sort(r)
  return table.concat(r, ", ")
end

local function build(host)
  local M = {}

  local arr = C.arg   -- (fname, x, what): ndarrays only

  -- the array arguments of a call, as name, value pairs in the order they
  -- are checked; a name ending in "?" may be nil
  local function arrays(fname, ...)
    for i = 1, select("#", ...), 2 do
      local name, v = select(i, ...)
      local opt = name:sub(-1) == "?"
      if not (opt and v == nil) then arr(fname, v, opt and name:sub(1, -2) or name) end
    end
  end

  -- option `key` of o: a number (default dflt)
  local function number_opt(fname, o, key, dflt)
    local v = o[key]
    if v == nil then return dflt end
    if type(v) ~= "number" then fail(fname, "%s must be a number, got %s", key, typename(v)) end
    return v
  end

  -- option `key` of o: an integer (default dflt, which may be nil)
  local function integer_opt(fname, o, key, dflt)
    local v = o[key]
    if v == nil then return dflt end
    if math.type(v) ~= "integer" then fail(fname, "%s must be an integer, got %s", key, typename(v)) end
    return v
  end

  local opts_of = C.opts

  local function nhwc_of(fname, o)
    local l = o.layout
    if l == nil then return false end
    local v = LAYOUT[l]
    if v == nil then fail(fname, "unknown layout %s (one of %s)", tostring(l), keys(LAYOUT)) end
    return v
  end

  -- one integer per spatial dim, from an integer or a table
  local function spatial(fname, v, nsp, dflt, what)
    local r = {}
    if v == nil then v = dflt end
    if math.type(v) == "integer" then
      for i = 1, nsp do r[i] = v end
    elseif type(v) == "table" and not is_array(v) then
      if #v ~= nsp then fail(fname, "%s has %d entries for %d spatial dims", what, #v, nsp) end
      for i = 1, nsp do
        if math.type(v[i]) ~= "integer" then
          fail(fname, "%s[%d] must be an integer, got %s", what, i, typename(v[i]))
        end
        r[i] = v[i]
      end
    else
      fail(fname, "%s must be an integer or a table of integers, got %s", what, typename(v))
    end
    return r
  end

  -- a shape given by the user: a table of integers >= 0
  local function shape_of(fname, t, what)
    if type(t) ~= "table" or is_array(t) then
      fail(fname, "%s must be a table of integers, got %s", what, typename(t))
    end
    local r = {}
    for i = 1, #t do
      if math.type(t[i]) ~= "integer" or t[i] < 0 then
        fail(fname, "%s[%d] must be an integer >= 0, got %s", what, i, typename(t[i]))
      end
      r[i] = t[i]
    end
    return r
  end

  local function mode_of(fname, tbl, v, dflt, what)
    if v == nil then v = dflt end
    local m = tbl[v]
    if m == nil then fail(fname, "unknown %s %s (one of %s)", what, tostring(v), keys(tbl)) end
    return m
  end

  -- the module (ga or ga.host) that makes arrays on x's device
  local function mod_of(x) return require("gpuarray").get_array_module(x) end

  local function alloc(fname, x, shape, dtype)
    for i = 1, #shape do if shape[i] < 0 then shape[i] = 0 end end   -- the core names the real problem
    local ok, r = pcall(mod_of(x).empty, shape, dtype or x.dtype)
    if ok then return r end
    fail(fname, "%s", (tostring(r):gsub("^.-:%d+: ", ""):gsub("^[%w_.]+: ", "")))
  end

  -- the C call; its error is raised without the position in this file
  local function run(fname, op, args, params)
    if settings.channels_first then params._channels_first = true end
    local ok, err = pcall(core._dnn, op, args, params, fname)
    if not ok then error((tostring(err):gsub("^[^\n]-%.lua:%d+: ", "")), 0) end
  end

  -- user dim (1-based) of the canonical dim d (1 N, 2 C, 3.. spatial)
  local function udim(d, nd, nhwc)
    if d == 1 then return 1 end
    if d == 2 then return nhwc and nd or 2 end
    return nhwc and d - 1 or d
  end

  local function ushape(n, c, sp, nhwc)
    local nd = #sp + 2
    local s = { [1] = n }
    s[udim(2, nd, nhwc)] = c
    for i = 1, #sp do s[udim(2 + i, nd, nhwc)] = sp[i] end
    return s
  end

  -- a convolution's parameters, for nd-dim filters
  local function conv_params(fname, nd, o)
    local nhwc = nhwc_of(fname, o)
    local nsp = nd - 2
    if nsp < 1 or nsp > 3 then fail(fname, "the filter must have 3 to 5 dims (1-D to 3-D), got %d", nd) end
    local p = {
      nhwc = nhwc, pad = spatial(fname, o.pad, nsp, 0, "pad"),
      stride = spatial(fname, o.stride, nsp, 1, "stride"),
      dilation = spatial(fname, o.dilation, nsp, 1, "dilation"),
      groups = integer_opt(fname, o, "groups", 1),
      tensor_cores = settings.tensor_cores and 1 or 0,
    }
    local algo = o.algo == nil and "auto" or o.algo
    if algo ~= "auto" and algo ~= "find" then
      fail(fname, "algo must be \"auto\" or \"find\", got %s", tostring(algo))
    end
    p.algo_find = algo == "find" and 1 or 0
    return p
  end

  local function out_of(fname, o, shape, x)
    if o.out == nil then return alloc(fname, x, shape) end
    return arr(fname, o.out, "out")
  end

  -- run op with args and its result args[key]: o.out, or a new array of
  -- shape on like's device; returns the result
  local function into(fname, o, key, shape, like, op, args, p)
    local r = out_of(fname, o, shape, like)
    args[key] = r
    run(fname, op, args, p)
    return r
  end

  -- the output size (a bad parameter gives 1: the core names the problem)
  local function conv_out(i, k, p, s, d)
    if s < 1 then return 1 end
    return (i + 2 * p - d * (k - 1) - 1) // s + 1
  end

  --- Convolution (cross-correlation, as in PyTorch and CuPy) of `x` with
  -- the filters `w`, plus the bias `b` when given: `y[n, k] = b[k] +
  -- sum_c,r x[n, c, s*o - p + d*r] w[k, c, r]` over each group's channels.
  -- @function ga.cudnn.convolution_forward
  -- @param x ndarray `(N, C, spatial...)` (or channels last)
  -- @param w ndarray `(K, C/groups, kernel...)` (or `(K, kernel..., C/groups)`)
  -- @tparam[opt] table opts `b` (a `(K,)` bias), `stride` (1), `pad` (0),
  --   `dilation` (1), `groups` (1), `layout` ("NCHW"), `algo` ("auto" or
  --   "find"), `out` (a C-contiguous array for the result)
  -- @treturn ndarray `(N, K, out spatial...)`
  -- @usage
  -- local x = ga.ones({1, 1, 4, 4}, "float32")
  -- local w = ga.ones({2, 1, 3, 3}, "float32")
  -- local y = ga.cudnn.convolution_forward(x, w, {pad = 1})
  -- print(y.shape[3], y[{1, 1, 2, 2}]:item())   --> 4	9.0
  function M.convolution_forward(x, w, o)
    local fname = "convolution_forward"
    arrays(fname, "x", x, "w", w)
    o = opts_of(fname, o)
    local p = conv_params(fname, w.ndim, o)
    local nhwc = p.nhwc
    if x.ndim ~= w.ndim then fail(fname, "x has %d dims but w %d", x.ndim, w.ndim) end
    local xs, ws, nd = x.shape, w.shape, w.ndim
    local sp = {}
    for i = 1, nd - 2 do
      local u = udim(2 + i, nd, nhwc)
      sp[i] = conv_out(xs[u], ws[u], p.pad[i], p.stride[i], p.dilation[i])
    end
    arrays(fname, "b?", o.b)
    return into(fname, o, "y", ushape(xs[1], ws[1], sp, nhwc), x, OP.conv_fwd, { x = x, w = w, b = o.b }, p)
  end

  --- The gradient of `convolution_forward` with respect to its input:
  -- `dx` from the filters and the output's gradient `dy` (a transposed
  -- convolution).
  -- @function ga.cudnn.convolution_backward_data
  -- @param w ndarray the filters
  -- @param dy ndarray the gradient of the output
  -- @tparam[opt] table opts as `convolution_forward`'s, and `x_shape` (the
  --   input's shape; default the smallest that gives dy's size)
  -- @treturn ndarray dx, of x's shape
  -- @usage
  -- local w = ga.ones({1, 1, 3, 3}, "float32")
  -- local dx = ga.cudnn.convolution_backward_data(w, ga.ones({1, 1, 2, 2}, "float32"))
  -- print(dx.shape[3], dx[{1, 1, 2, 2}]:item())   --> 4	4.0
  function M.convolution_backward_data(w, dy, o)
    local fname = "convolution_backward_data"
    arrays(fname, "w", w, "dy", dy)
    o = opts_of(fname, o)
    local p = conv_params(fname, w.ndim, o)
    local nhwc = p.nhwc
    if dy.ndim ~= w.ndim then fail(fname, "dy has %d dims but w %d", dy.ndim, w.ndim) end
    local shape = o.x_shape
    if shape == nil then
      local ws, ys, nd = w.shape, dy.shape, w.ndim
      local sp = {}
      for i = 1, nd - 2 do
        local u = udim(2 + i, nd, nhwc)
        sp[i] = (ys[u] - 1) * p.stride[i] - 2 * p.pad[i] + p.dilation[i] * (ws[u] - 1) + 1
      end
      shape = ushape(ys[1], ws[udim(2, nd, nhwc)] * p.groups, sp, nhwc)
    else
      shape = shape_of(fname, shape, "x_shape")
    end
    return into(fname, o, "dx", shape, dy, OP.conv_bwd_data, { w = w, dy = dy }, p)
  end

  --- The gradient of `convolution_forward` with respect to the filters.
  -- @function ga.cudnn.convolution_backward_filter
  -- @param x ndarray the input
  -- @param dy ndarray the gradient of the output
  -- @tparam table opts as `convolution_forward`'s, and `w_shape` (the
  --   filters' shape) or `ksize` (the kernel's spatial size: an integer or
  --   a table) unless `out` is given
  -- @treturn ndarray dw, of w's shape
  -- @usage
  -- local x = ga.ones({1, 1, 4, 4}, "float32")
  -- local dw = ga.cudnn.convolution_backward_filter(x, ga.ones({1, 1, 2, 2}, "float32"), {ksize = 3})
  -- print(dw.shape[4], dw[{1, 1, 1, 1}]:item())   --> 3	4.0
  function M.convolution_backward_filter(x, dy, o)
    local fname = "convolution_backward_filter"
    arrays(fname, "x", x, "dy", dy)
    o = opts_of(fname, o)
    local nd = x.ndim
    local p = conv_params(fname, nd, o)
    local nhwc = p.nhwc
    local shape = o.w_shape
    if shape == nil and o.out == nil then
      if o.ksize == nil then fail(fname, "give w_shape, ksize or out") end
      local ks = spatial(fname, o.ksize, nd - 2, 1, "ksize")
      local ch = x.shape[udim(2, nd, nhwc)]
      shape = ushape(dy.shape[udim(2, nd, nhwc)], ch // p.groups, ks, nhwc)
    elseif shape ~= nil then
      shape = shape_of(fname, shape, "w_shape")
    end
    return into(fname, o, "dw", shape, x, OP.conv_bwd_filter, { x = x, dy = dy }, p)
  end

  --- The gradient of the convolution's bias: `dy` summed over all but the
  -- channel dim.
  -- @function ga.cudnn.convolution_backward_bias
  -- @param dy ndarray the gradient of the output
  -- @tparam[opt] table opts `layout`, `out`
  -- @treturn ndarray db `(K,)`
  -- @usage
  -- print(ga.cudnn.convolution_backward_bias(ga.ones({2, 3, 2, 2}, "float32")))
  -- --> array([8., 8., 8.], dtype=float32)
  function M.convolution_backward_bias(dy, o)
    local fname = "convolution_backward_bias"
    arrays(fname, "dy", dy)
    o = opts_of(fname, o)
    local nhwc = nhwc_of(fname, o)
    if dy.ndim < 3 or dy.ndim > 5 then fail(fname, "dy must have 3 to 5 dims, got %d", dy.ndim) end
    return into(fname, o, "b", { dy.shape[udim(2, dy.ndim, nhwc)] }, dy, OP.conv_bwd_bias, { dy = dy }, { nhwc = nhwc })
  end

  local function pool_params(fname, x, ksize, o)
    local nsp = x.ndim - 2
    if nsp < 1 or nsp > 3 then fail(fname, "x must have 3 to 5 dims (1-D to 3-D pooling), got %d", x.ndim) end
    local nhwc = nhwc_of(fname, o)
    local win = spatial(fname, ksize, nsp, nil, "ksize")
    local p = {
      nhwc = nhwc, window = win, pad = spatial(fname, o.pad, nsp, 0, "pad"),
      stride = o.stride == nil and win or spatial(fname, o.stride, nsp, 1, "stride"),
      mode = mode_of(fname, POOL, o.mode, "max", "pooling mode"),
    }
    local sp = {}
    for i = 1, nsp do
      local u = udim(2 + i, x.ndim, nhwc)
      sp[i] = conv_out(x.shape[u], win[i], p.pad[i], p.stride[i], 1)
    end
    return p, ushape(x.shape[1], x.shape[udim(2, x.ndim, nhwc)], sp, nhwc)
  end

  --- Max or average pooling over windows of `ksize` (the stride defaults
  -- to the window). Padding counts as -inf for max; average pooling
  -- divides by the whole window (`mode = "average"`, also
  -- `"average_include_padding"`) or by the values inside the input
  -- (`"average_exclude_padding"`).
  -- @function ga.cudnn.pooling_forward
  -- @param x ndarray `(N, C, spatial...)`
  -- @tparam int|{int,...} ksize the window
  -- @tparam[opt] table opts `mode` ("max"), `stride`, `pad` (0, at most half
  --   the window), `layout`, `out`
  -- @treturn ndarray
  -- @usage
  -- local x = ga.arange(16, "float32"):reshape({1, 1, 4, 4})
  -- print(ga.cudnn.pooling_forward(x, 2):reshape({4}))
  -- --> array([ 5.,  7., 13., 15.], dtype=float32)
  function M.pooling_forward(x, ksize, o)
    local fname = "pooling_forward"
    arrays(fname, "x", x)
    o = opts_of(fname, o)
    local p, shape = pool_params(fname, x, ksize, o)
    return into(fname, o, "y", shape, x, OP.pool_fwd, { x = x }, p)
  end

  --- The gradient of `pooling_forward`: `dx` from `x`, its output `y` and
  -- the output's gradient `dy` (max pooling sends each gradient to the
  -- window's maximum).
  -- @function ga.cudnn.pooling_backward
  -- @param x ndarray
  -- @param y ndarray `pooling_forward(x, ksize, opts)`
  -- @param dy ndarray
  -- @tparam int|{int,...} ksize
  -- @tparam[opt] table opts as `pooling_forward`'s
  -- @treturn ndarray dx
  -- @usage
  -- local x = ga.arange(4, "float32"):reshape({1, 1, 2, 2})
  -- local y = ga.cudnn.pooling_forward(x, 2)
  -- print(ga.cudnn.pooling_backward(x, y, ga.ones_like(y), 2):reshape({4}))
  -- --> array([0., 0., 0., 1.], dtype=float32)
  function M.pooling_backward(x, y, dy, ksize, o)
    local fname = "pooling_backward"
    arrays(fname, "x", x, "y", y, "dy", dy)
    o = opts_of(fname, o)
    local p = pool_params(fname, x, ksize, o)
    return into(fname, o, "dx", x.shape, x, OP.pool_bwd, { x = x, y = y, dy = dy }, p)
  end

  local function act_params(fname, mode, o)
    if type(o) == "number" then o = { coef = o } end
    o = opts_of(fname, o)
    mode = mode == nil and "relu" or mode
    local m = mode_of(fname, ACT, mode, "relu", "activation")
    return o, { mode = m, coef = number_opt(fname, o, "coef", ACT_COEF[mode] or 0.0) }
  end

  --- An activation, element by element: `"relu"`, `"sigmoid"`, `"tanh"`,
  -- `"elu"` (`x > 0 and x or coef * (exp(x) - 1)`, coef 1), `"clipped_relu"`
  -- (`min(max(x, 0), coef)`, coef 6) or `"swish"` (`x * sigmoid(coef * x)`,
  -- coef 1).
  -- @function ga.cudnn.activation_forward
  -- @param x ndarray any shape
  -- @tparam[opt="relu"] string mode
  -- @tparam[opt] number|table opts `coef` (or the number itself), `out`
  -- @treturn ndarray
  -- @usage
  -- print(ga.cudnn.activation_forward(ga.array({-1, 0.5, 9}, "float32"), "clipped_relu"))
  -- --> array([0. , 0.5, 6. ], dtype=float32)
  function M.activation_forward(x, mode, o)
    local fname = "activation_forward"
    arrays(fname, "x", x)
    local p
    o, p = act_params(fname, mode, o)
    return into(fname, o, "y", x.shape, x, OP.act_fwd, { x = x }, p)
  end

  --- The gradient of `activation_forward`: `dx` from `x`, `y` (its output)
  -- and `dy`.
  -- @function ga.cudnn.activation_backward
  -- @param x ndarray
  -- @param y ndarray `activation_forward(x, mode, opts)`
  -- @param dy ndarray
  -- @tparam[opt="relu"] string mode
  -- @tparam[opt] number|table opts as `activation_forward`'s
  -- @treturn ndarray dx
  -- @usage
  -- local x = ga.array({-1, 2}, "float32")
  -- local y = ga.cudnn.activation_forward(x)
  -- print(ga.cudnn.activation_backward(x, y, ga.ones_like(x)))   --> array([0., 1.], dtype=float32)
  function M.activation_backward(x, y, dy, mode, o)
    local fname = "activation_backward"
    arrays(fname, "x", x, "y", y, "dy", dy)
    local p
    o, p = act_params(fname, mode, o)
    return into(fname, o, "dx", x.shape, x, OP.act_bwd, { x = x, y = y, dy = dy }, p)
  end

  local function sm_params(fname, o)
    return {
      nhwc = nhwc_of(fname, o),
      mode = mode_of(fname, SM_ALGO, o.algo, "accurate", "softmax algorithm"),
      mode2 = mode_of(fname, SM_MODE, o.mode, "channel", "softmax mode"),
    }
  end

  --- Softmax over the channels of each position (`mode = "channel"`, the
  -- default) or over all of each sample's values (`"instance"`); `algo =
  -- "log"` gives log-softmax (`"accurate"`, the default, subtracts the
  -- maximum first).
  -- @function ga.cudnn.softmax_forward
  -- @param x ndarray `(N, C, spatial...)`, 2 to 5 dims
  -- @tparam[opt] table opts `algo`, `mode`, `layout`, `out`
  -- @treturn ndarray
  -- @usage
  -- print(ga.cudnn.softmax_forward(ga.zeros({1, 4}, "float32")))
  -- --> array([[0.25, 0.25, 0.25, 0.25]], dtype=float32)
  function M.softmax_forward(x, o)
    local fname = "softmax_forward"
    arrays(fname, "x", x)
    o = opts_of(fname, o)
    return into(fname, o, "y", x.shape, x, OP.sm_fwd, { x = x }, sm_params(fname, o))
  end

  --- The gradient of `softmax_forward`: `dx` from its output `y` and `dy`.
  -- @function ga.cudnn.softmax_backward
  -- @param y ndarray `softmax_forward(x, opts)`
  -- @param dy ndarray
  -- @tparam[opt] table opts as `softmax_forward`'s
  -- @treturn ndarray dx
  -- @usage
  -- local y = ga.cudnn.softmax_forward(ga.zeros({1, 2}, "float32"))
  -- print(ga.cudnn.softmax_backward(y, ga.array({{1, 0}}, "float32")))
  -- --> array([[ 0.25, -0.25]], dtype=float32)
  function M.softmax_backward(y, dy, o)
    local fname = "softmax_backward"
    arrays(fname, "y", y, "dy", dy)
    o = opts_of(fname, o)
    return into(fname, o, "dx", y.shape, y, OP.sm_bwd, { y = y, dy = dy }, sm_params(fname, o))
  end

  local function bn_params(fname, x, o)
    local p = {
      nhwc = nhwc_of(fname, o),
      mode = mode_of(fname, BN_MODE, o.mode, "spatial", "batch normalization mode"),
      epsilon = number_opt(fname, o, "epsilon", 1e-5),
      factor = number_opt(fname, o, "exponential_average_factor", 0.1),
    }
    if x.ndim < 2 or x.ndim > 5 then fail(fname, "x must have 2 to 5 dims (N, C, ...), got %d", x.ndim) end
    local pshape
    if p.mode == BN_MODE.spatial then
      pshape = { x.shape[udim(2, x.ndim, p.nhwc)] }
    else
      pshape = x.shape
      table.remove(pshape, 1)
    end
    local pdtype = x.dtype == "float64" and "float64" or "float32"
    return p, pshape, pdtype
  end

  --- Batch normalization in training: `y = gamma * (x - mean) / sqrt(var +
  -- epsilon) + beta` with the batch's statistics per channel (`mode =
  -- "spatial"`, over N and the spatial dims) or per value (`"per_activation"`,
  -- over N). `running_mean` and `running_var` (optional) are updated in
  -- place: `r = (1 - f) * r + f * batch` with `f = exponential_average_factor`
  -- (the variance unbiased).
  -- @function ga.cudnn.batch_normalization_forward_training
  -- @param x ndarray `(N, C, spatial...)`, 2 to 5 dims
  -- @param gamma ndarray scale, `(C,)` (spatial) or `x.shape` without N
  -- @param beta ndarray shift, same shape
  -- @param[opt] running_mean ndarray updated in place
  -- @param[opt] running_var ndarray updated in place
  -- @tparam[opt] table opts `epsilon` (1e-5), `exponential_average_factor`
  --   (0.1), `mode`, `layout`, `out`
  -- @treturn ndarray y
  -- @treturn ndarray the batch mean
  -- @treturn ndarray the batch's `1 / sqrt(var + epsilon)`
  -- @usage
  -- local x = ga.array({{1, 10}, {3, 30}}, "float32")
  -- local y, mean = ga.cudnn.batch_normalization_forward_training(x, ga.ones({2}, "float32"),
  --   ga.zeros({2}, "float32"))
  -- print(mean)   --> array([ 2., 20.], dtype=float32)
  function M.batch_normalization_forward_training(x, gamma, beta, running_mean, running_var, o)
    local fname = "batch_normalization_forward_training"
    arrays(fname, "x", x, "gamma", gamma, "beta", beta, "running_mean?", running_mean, "running_var?", running_var)
    o = opts_of(fname, o)
    local p, pshape, pdtype = bn_params(fname, x, o)
    local y = out_of(fname, o, x.shape, x)
    local sm, si = alloc(fname, x, pshape, pdtype), alloc(fname, x, pshape, pdtype)
    run(fname, OP.bn_train, { x = x, y = y, gamma = gamma, beta = beta, running_mean = running_mean,
                              running_var = running_var, save_mean = sm, save_inv_var = si }, p)
    return y, sm, si
  end

  --- Batch normalization in inference, with given statistics: `y = gamma *
  -- (x - mean) / sqrt(var + epsilon) + beta`.
  -- @function ga.cudnn.batch_normalization_forward_inference
  -- @param x ndarray
  -- @param gamma ndarray
  -- @param beta ndarray
  -- @param mean ndarray
  -- @param var ndarray
  -- @tparam[opt] table opts `epsilon` (1e-5), `mode`, `layout`, `out`
  -- @treturn ndarray y
  -- @usage
  -- local one, zero = ga.ones({1}, "float32"), ga.zeros({1}, "float32")
  -- local x = ga.array({{2}}, "float32")
  -- print(ga.cudnn.batch_normalization_forward_inference(x, one, zero, one, ga.full({1}, 4 - 1e-5, "float32")))
  -- --> array([[0.5]], dtype=float32)
  function M.batch_normalization_forward_inference(x, gamma, beta, mean, var, o)
    local fname = "batch_normalization_forward_inference"
    arrays(fname, "x", x, "gamma", gamma, "beta", beta, "mean", mean, "var", var)
    o = opts_of(fname, o)
    local p = bn_params(fname, x, o)
    return into(fname, o, "y", x.shape, x, OP.bn_infer,
                { x = x, gamma = gamma, beta = beta, running_mean = mean, running_var = var }, p)
  end

  --- The gradients of `batch_normalization_forward_training`: `dx`,
  -- `dgamma` and `dbeta`, from `x`, `dy`, `gamma` and the saved batch
  -- statistics (recomputed from x when nil).
  -- @function ga.cudnn.batch_normalization_backward
  -- @param x ndarray
  -- @param dy ndarray
  -- @param gamma ndarray
  -- @param[opt] save_mean ndarray the training pass's second result
  -- @param[opt] save_inv_var ndarray its third
  -- @tparam[opt] table opts `epsilon` (the training pass's), `mode`, `layout`
  -- @treturn ndarray dx
  -- @treturn ndarray dgamma
  -- @treturn ndarray dbeta
  -- @usage
  -- local x = ga.array({{1}, {3}}, "float32")
  -- local dx, dg, db = ga.cudnn.batch_normalization_backward(x, ga.ones({2, 1}, "float32"), ga.ones({1}, "float32"))
  -- print(db)   --> array([2.], dtype=float32)
  function M.batch_normalization_backward(x, dy, gamma, save_mean, save_inv_var, o)
    local fname = "batch_normalization_backward"
    arrays(fname, "x", x, "dy", dy, "gamma", gamma, "save_mean?", save_mean, "save_inv_var?", save_inv_var)
    o = opts_of(fname, o)
    local p, pshape, pdtype = bn_params(fname, x, o)
    local dx = alloc(fname, x, x.shape)
    local dg, db = alloc(fname, x, pshape, pdtype), alloc(fname, x, pshape, pdtype)
    run(fname, OP.bn_bwd, { x = x, dy = dy, dx = dx, gamma = gamma, save_mean = save_mean,
                            save_inv_var = save_inv_var, dgamma = dg, dbeta = db }, p)
    return dx, dg, db
  end

  --- `c = alpha * a + beta * c` in place, `a` broadcast along its dims of
  -- size 1 (a bias `(1, C, 1, 1)` onto `(N, C, H, W)`).
  -- @function ga.cudnn.add_tensor
  -- @param c ndarray C-contiguous, 1 to 5 dims; receives the result
  -- @param a ndarray the same number of dims, each c's or 1
  -- @tparam[opt] table opts `alpha` (1), `beta` (1)
  -- @treturn ndarray c
  -- @usage
  -- local c = ga.zeros({1, 2, 1, 2}, "float32")
  -- ga.cudnn.add_tensor(c, ga.array({1, 2}, "float32"):reshape({1, 2, 1, 1}))
  -- print(c:reshape({4}))   --> array([1., 1., 2., 2.], dtype=float32)
  function M.add_tensor(c, a, o)
    local fname = "add_tensor"
    arrays(fname, "c", c, "a", a)
    o = opts_of(fname, o)
    run(fname, OP.add, { y = c, b = a },
        { alpha = number_opt(fname, o, "alpha", 1.0), beta = number_opt(fname, o, "beta", 1.0) })
    return c
  end

  --- Dropout: each value is zeroed with probability `p`, the others scaled
  -- by `1 / (1 - p)`. The mask comes from our Philox stream
  -- (`ga.random.RandomState(seed)`), so a seed gives the same mask on the
  -- host and on any GPU.
  -- @function ga.cudnn.dropout
  -- @param x ndarray
  -- @tparam number p the drop probability, in [0, 1)
  -- @tparam[opt] table opts `seed` (an integer; default a random one)
  -- @treturn ndarray y
  -- @treturn ndarray the mask (0 or `1 / (1 - p)`, x's dtype): what
  --   `dropout_backward` takes
  -- @usage
  -- local y, mask = ga.cudnn.dropout(ga.ones({1000}, "float32"), 0.5, {seed = 7})
  -- print(mask:max():item(), math.abs(y:mean():item() - 1) < 0.2)   --> 2.0	true
  function M.dropout(x, p, o)
    local fname = "dropout"
    arrays(fname, "x", x)
    if type(p) ~= "number" or not (p >= 0 and p < 1) then
      fail(fname, "p must be a number in [0, 1), got %s", tostring(p))
    end
    o = opts_of(fname, o)
    if x.dtype ~= "float16" and x.dtype ~= "float32" and x.dtype ~= "float64" then
      fail(fname, "x must be float16, float32 or float64, got %s", x.dtype)
    end
    local seed = integer_opt(fname, o, "seed") or math.random(0, math.maxinteger)
    local g = mod_of(x)
    local u = g.random.RandomState(seed):random_sample(x.shape, "float32")
    local mask = g.multiply(g.greater_equal(u, p), 1.0 / (1.0 - p)):astype(x.dtype)
    return g.multiply(x, mask), mask
  end

  --- The gradient of `dropout`: `dy * mask`.
  -- @function ga.cudnn.dropout_backward
  -- @param dy ndarray
  -- @param mask ndarray `dropout`'s second result
  -- @treturn ndarray dx
  -- @usage
  -- local _, mask = ga.cudnn.dropout(ga.ones({4}, "float32"), 0.25, {seed = 1})
  -- print(ga.cudnn.dropout_backward(ga.ones({4}, "float32"), mask).shape[1])   --> 4
  function M.dropout_backward(dy, mask)
    local fname = "dropout_backward"
    arrays(fname, "dy", dy, "mask", mask)
    return mod_of(dy).multiply(dy, mask)
  end

  --- Allow tensor-core math (TF32 for float32, float16 with float32
  -- accumulation) in convolutions on the GPU: on by default; off gives
  -- IEEE float32 arithmetic. Returns the previous setting. Shared by
  -- `ga.cudnn` and `ga.host.cudnn` (the host always computes in float64).
  -- @function ga.cudnn.set_tensor_core_math
  -- @tparam boolean on
  -- @treturn boolean the previous setting
  -- @usage
  -- local old = ga.cudnn.set_tensor_core_math(false)
  -- ga.cudnn.set_tensor_core_math(old)
  -- print(old)   --> true
  function M.set_tensor_core_math(on)
    if type(on) ~= "boolean" then fail("set_tensor_core_math", "expected a boolean, got %s", typename(on)) end
    local old = settings.tensor_cores
    settings.tensor_cores = on
    return old
  end

  --- Whether cuDNN can be loaded for the GPU (`true, version`, e.g. `true,
  -- 91400`) or not (`false, message`); `ga.host.cudnn.available()` is
  -- always `true, 0`.
  -- @function ga.cudnn.available
  -- @treturn boolean
  -- @treturn int|string cuDNN's version number, or why it cannot be loaded
  -- @usage
  -- local ok, why = ga.cudnn.available()
  -- print(type(ok))   --> boolean
  function M.available()
    if host then return true, 0 end
    return core._dnn_available(0)
  end

  return M
end

-- _settings: for the specs (channels_first: run channels-last calls
-- through the core's channels-first copies)
return { ga = { cudnn = build(false) }, host = { cudnn = build(true) }, _settings = settings }
