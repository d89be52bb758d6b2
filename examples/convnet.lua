-- convnet.lua — a small LeNet-style network, forward and backward, on
-- random data with ga.cudnn: written once, run on the host (ga.host.cudnn:
-- im2col + OpenBLAS) and, when there is one, on the GPU (cuDNN), timed,
-- and the two runs' loss and gradients compared.
--
--   conv 5x5 (1 -> 6, pad 2) + bias, relu, max pool 2
--   conv 5x5 (6 -> 16) + bias, relu, max pool 2
--   fully connected 400 -> 10, log-softmax, negative log-likelihood
--
--   lua5.4 examples/convnet.lua
local ga = require "gpuarray"

local N = 32
local clock = ga.core.clock

-- parameters and data, made on the host from fixed seeds
local rs = ga.host.random.RandomState(2024)
local function init(shape, fan_in) return rs:standard_normal(shape, "float32") * (1 / math.sqrt(fan_in)) end
local P = {
  w1 = init({ 6, 1, 5, 5 }, 25), b1 = ga.host.zeros({ 6 }, "float32"),
  w2 = init({ 16, 6, 5, 5 }, 150), b2 = ga.host.zeros({ 16 }, "float32"),
  w3 = init({ 400, 10 }, 400), b3 = ga.host.zeros({ 10 }, "float32"),
}
local X = rs:standard_normal({ N, 1, 28, 28 }, "float32")
local onehot = {}
for i = 1, N do
  onehot[i] = {}
  local label = (i * 7) % 10 + 1
  for j = 1, 10 do onehot[i][j] = j == label and 1.0 or 0.0 end
end
local Y = ga.host.array(onehot, "float32")

-- one forward and backward pass with the module xp (ga or ga.host) on
-- arrays of its device: returns the loss and the gradients
local function step(xp, p, x, y)
  local dnn = xp.cudnn
  -- forward
  local c1 = dnn.convolution_forward(x, p.w1, { b = p.b1, pad = 2 })
  local r1 = dnn.activation_forward(c1, "relu")
  local p1 = dnn.pooling_forward(r1, 2)
  local c2 = dnn.convolution_forward(p1, p.w2, { b = p.b2 })
  local r2 = dnn.activation_forward(c2, "relu")
  local p2 = dnn.pooling_forward(r2, 2)
  local flat = p2:reshape({ N, 400 })
  local z = xp.matmul(flat, p.w3) + p.b3
  local logp = dnn.softmax_forward(z, { algo = "log" })
  local loss = -(logp * y):sum():item() / N
  -- backward
  local g = {}
  local dz = dnn.softmax_backward(logp, y * (-1 / N), { algo = "log" })
  g.w3 = xp.matmul(flat.T, dz)
  g.b3 = dz:sum({ axis = 1 })
  local dp2 = xp.matmul(dz, p.w3.T):reshape(p2.shape)
  local dr2 = dnn.pooling_backward(r2, p2, dp2, 2)
  local dc2 = dnn.activation_backward(c2, r2, dr2, "relu")
  g.w2 = dnn.convolution_backward_filter(p1, dc2, { w_shape = p.w2.shape })
  g.b2 = dnn.convolution_backward_bias(dc2)
  local dp1 = dnn.convolution_backward_data(p.w2, dc2, { x_shape = p1.shape })
  local dr1 = dnn.pooling_backward(r1, p1, dp1, 2)
  local dc1 = dnn.activation_backward(c1, r1, dr1, "relu")
  g.w1 = dnn.convolution_backward_filter(x, dc1, { w_shape = p.w1.shape, pad = 2 })
  g.b1 = dnn.convolution_backward_bias(dc1)
  return loss, g
end

local function run(xp, name, sync)
  local p = {}
  for k, v in pairs(P) do p[k] = xp.asarray(v) end
  local x, y = xp.asarray(X), xp.asarray(Y)
  step(xp, p, x, y)   -- warm up (cuDNN handle, algorithm choice)
  sync()
  local reps = 5
  local t = clock()
  local loss, g
  for _ = 1, reps do loss, g = step(xp, p, x, y) end
  sync()
  local ms = (clock() - t) / reps * 1e3
  print(string.format("%-5s loss %.6f   forward + backward of a batch of %d: %.2f ms", name, loss, N, ms))
  return loss, g
end

local loss_h, g_h = run(ga.host, "host", function() end)
assert(loss_h > 0 and loss_h < 10, "implausible loss")
if ga.cuda.is_available() then
  local ok, why = ga.cudnn.available()
  if not ok then
    print("GPU present but " .. why .. ": the host run only.")
  else
    local loss_d, g_d = run(ga, "GPU", function() ga.cuda.Device():synchronize() end)
    local worst = 0
    for k, v in pairs(g_h) do
      local d = ga.asnumpy(g_d[k])
      local rel = ga.host.max(ga.host.abs(d - v)):item() / math.max(1e-6, ga.host.max(ga.host.abs(v)):item())
      worst = math.max(worst, rel)
    end
    print(string.format("|loss GPU - host| = %.2g, worst relative gradient difference %.2g", math.abs(loss_d - loss_h),
      worst))
    assert(math.abs(loss_d - loss_h) < 1e-3 and worst < 2e-2, "GPU and host disagree")
  end
else
  print("No GPU available (ga.cuda.is_available() is false): the host run only.")
end
print("ok")
