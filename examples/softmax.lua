-- softmax.lua — one softmax for host and GPU arrays.
--
-- The function is written once: `ga.get_array_module(x)` gives the module
-- that made x (`ga` for a GPU array, `ga.host` for a host array), as
-- `cupy.get_array_module` does, so the same code runs on either device.
--
--   lua5.4 examples/softmax.lua
local ga = require "gpuarray"

-- Softmax along `axis` (1-based), numerically stable: subtract the maximum
-- first so that exp never overflows.
local function softmax(x, axis)
  local xp = ga.get_array_module(x)
  local y = x - x:max{ axis = axis, keepdims = true }
  y = xp.exp(y)
  return y / y:sum{ axis = axis, keepdims = true }
end

-- Deterministic data: 64 rows of 1000 logits, some large (exp(800) would
-- overflow without the max subtraction).
local rows, cols = 64, 1000
local data, seed = {}, 42
for i = 1, rows do
  local r = {}
  for j = 1, cols do
    seed = (seed * 1103515245 + 12345) % 2147483648
    r[j] = (seed / 2147483648 - 0.5) * 20 + (j == i and 800 or 0)
  end
  data[i] = r
end

local has_gpu = ga.cuda.is_available()
local xh = ga.host.array(data, "float32")
local ph = softmax(xh, 2)
print(string.format("host:  softmax of %d x %d float32 on %s, row sums %.6f .. %.6f", rows, cols, ph.device,
  ph:sum(2):min():item(), ph:sum(2):max():item()))

local pd
if has_gpu then
  local xd = ga.asarray(xh)            -- the same data on the current GPU
  pd = softmax(xd, 2)
  print(string.format("GPU:   the same function on %s", pd.device))
else
  print("No GPU available (ga.cuda.is_available() is false): the same function runs on the host twice.")
  pd = softmax(ga.host.array(data, "float32"), 2)
end

-- compare: the largest absolute difference, computed where the host result is
local diff = ga.max(ga.absolute(ga.asnumpy(pd) - ph)):item()
print(string.format("max |GPU - host| = %.3g", diff))
assert(diff < 1e-5, "softmax results differ")
assert(math.abs(ph:sum(2):min():item() - 1) < 1e-4, "rows do not sum to 1")
print("ok")
