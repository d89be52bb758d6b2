-- data_parallel.lua — data-parallel training with ga.distributed.
--
-- Fits a least-squares model y ~ X w by gradient descent, the batch split
-- over every GPU of this process: each GPU holds a shard of the rows and a
-- replica of w, computes the gradient of its shard, the gradients are
-- averaged with one all_reduce (NCCL) per step, and every replica takes
-- the same step.  The result is compared with the same descent on one
-- device over the whole batch.
--
--   lua5.4 examples/data_parallel.lua [rows] [steps]
--
-- With one GPU the "split" has one shard (NCCL with one rank); without a
-- GPU, or without NCCL, it runs on the host's one-rank world
-- (ga.host.distributed), so the program runs as written anywhere.  Keep
-- NVLink multicast off on NVLink machines: NCCL_NVLS_ENABLE=0.
local ga = require "gpuarray"

local ngpu = ga.cuda.device_count()
local nccl, why = ga.distributed.is_available()
local devs, dist = {}, ga.distributed
if ngpu > 0 and nccl then
  for i = 1, ngpu do devs[i] = i - 1 end
else
  devs, dist = { -1 }, ga.host.distributed
  if ngpu == 0 then print("no GPU: running on the host's one-rank world")
  else print("NCCL is not available (" .. tostring(why) .. "): running on the host's one-rank world") end
end
local nrank = #devs

local N = math.tointeger(tonumber(arg and arg[1] or "")) or (ngpu > 0 and 1 << 20 or 1 << 14)
N = N - N % nrank                          -- equal shards
local D, STEPS, LR = 32, math.tointeger(tonumber(arg and arg[2] or "")) or 100, 0.1

-- the data, made on the host (the same for both runs)
ga.host.random.seed(7)
local X = ga.host.random.randn(N, D):astype("float32")
local w_true = ga.host.random.randn(D, 1):astype("float32")
local y = (ga.matmul(X, w_true) + ga.host.random.randn(N, 1):astype("float32") * 0.01):astype("float32")

local function on(dev, fn, ...)
  if dev < 0 then return fn(...) end
  return ga.cuda.Device(dev):with(fn, ...)
end

-- the gradient of the mean squared error over a shard: (2/n) X^T (X w - y)
local function grad(Xs, ys, w)
  local r = ga.matmul(Xs, w) - ys
  return ga.matmul(Xs.T, r) * (2 / Xs.shape[1])
end

-- one device, the whole batch
local function single(dev)
  return on(dev, function()
    local m = dev < 0 and ga.host or ga
    local Xd, yd = m.asarray(X), m.asarray(y)
    local w = m.zeros({ D, 1 }, { dtype = "float32" })
    for _ = 1, STEPS do w = (w - grad(Xd, yd, w) * LR):astype("float32") end
    return w:get()
  end)
end

-- every device a shard; gradients averaged with all_reduce
local function data_parallel()
  local comm <close> = devs[1] < 0 and dist.init{} or dist.init{ devices = devs }
  local shard = N // nrank
  local Xs, ys, ws = {}, {}, {}
  for i, d in ipairs(devs) do
    local rows = { (i - 1) * shard + 1, i * shard }
    Xs[i] = X[{ rows }]:to(d < 0 and "cpu" or d)
    ys[i] = y[{ rows }]:to(d < 0 and "cpu" or d)
    ws[i] = on(d, function() return (d < 0 and ga.host or ga).zeros({ D, 1 }, { dtype = "float32" }) end)
  end
  for _ = 1, STEPS do
    local gs = {}
    for i, d in ipairs(devs) do gs[i] = on(d, grad, Xs[i], ys[i], ws[i]) end
    comm:all_reduce(gs, "avg")            -- every replica gets the mean gradient
    for i, d in ipairs(devs) do
      ws[i] = on(d, function() return (ws[i] - gs[i] * LR):astype("float32") end)
    end
  end
  -- the replicas agree
  for i = 2, nrank do assert(ga.host.allclose(ws[i]:get(), ws[1]:get(), 1e-6, 1e-6), "replicas differ") end
  return ws[1]:get()
end

local t0 = ga.core.clock()
local w1 = single(devs[1])
local t1 = ga.core.clock()
local wn = data_parallel()
local t2 = ga.core.clock()

local err1 = ga.host.abs(w1 - w_true):max():item()
local errn = ga.host.abs(wn - w_true):max():item()
local diff = ga.host.abs(wn - w1):max():item()
print(string.format("least squares, %d x %d float32, %d steps of gradient descent", N, D, STEPS))
print(string.format("one device (%s):     max |w - w_true| = %.2e   %.3f s",
                    devs[1] < 0 and "cpu" or "cuda:" .. devs[1], err1, t1 - t0))
print(string.format("%d rank(s) (all_reduce avg): max |w - w_true| = %.2e   %.3f s", nrank, errn, t2 - t1))
print(string.format("max |w_parallel - w_single| = %.2e", diff))
assert(diff < 1e-4, "the data-parallel run differs from the one-device run")
assert(errn < 0.05, "the descent did not converge")
print("ok")
