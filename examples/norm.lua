-- norm.lua — the L2 norm of a vector on the CPU and on the GPU.
--
-- Computed twice on each device: by hand, sqrt((x * x):sum()), and with
-- ga.linalg.norm; the four results are compared.  Reductions return 0-d
-- arrays without waiting for the GPU; `:item()` reads the number (and
-- waits for it).
--
--   lua5.4 examples/norm.lua [N]       (N = 10^7 by default)
local ga = require "gpuarray"

local N = math.tointeger(tonumber(arg and arg[1] or "") or 10000000)
assert(N and N > 0, "usage: norm.lua [N]")

local function l2(x)
  local xp = ga.get_array_module(x)
  return xp.sqrt((x * x):sum())         -- a 0-d array, on x's device
end

-- x = 0, 1e-3, 2e-3, ... : the exact norm is known
local xh = ga.host.arange(N, "float64") * 1e-3
local exact = 1e-3 * math.sqrt((N - 1.0) * N * (2.0 * N - 1) / 6)   -- floats: N^3 overflows integers

local results = {}
local function report(name, r)
  local v = r:item()
  results[#results + 1] = v
  print(string.format("%-28s %.12g  (%s, %s)", name, v, r.device, r.dtype))
end

report("host: sqrt((x * x):sum())", l2(xh))
report("host: ga.linalg.norm(x)", ga.linalg.norm(xh))
if ga.cuda.is_available() then
  local xd = ga.asarray(xh)              -- copy to the current GPU
  report("GPU:  sqrt((x * x):sum())", l2(xd))
  report("GPU:  ga.linalg.norm(x)", ga.linalg.norm(xd))
else
  print("No GPU available (ga.cuda.is_available() is false): host results only.")
end

for _, v in ipairs(results) do
  assert(math.abs(v - exact) <= 1e-9 * exact, string.format("%.17g differs from %.17g", v, exact))
end
print(string.format("exact: %.12g; all %d results agree to 1e-9", exact, #results))
