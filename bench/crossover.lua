-- bench/crossover.lua: when does the GPU pay off?  The seed's "CPU vs GPU"
-- figures, measured: times of a float32 matmul (n = 16 ... 8192) and of an
-- element-wise add (1e2 ... 1e9 elements) on the host (OpenBLAS / our host
-- loops, all cores) and on the GPU, the GPU both on resident data and with
-- the host<->device transfers (inputs up, result down).  Writes an SVG
-- (bench/svg_plot.lua: two log-log panels, legend, crossovers circled) and
-- prints the measured crossover sizes beside the transfer-compute model:
--
--   the GPU wins, transfers included, once  t_host(n) > t_gpu(n) + bytes(n) / B
--   matmul: flops 2n^3, bytes 12n^2  ->  n* = 6 / (B (1/F_host - 1/F_gpu))
--   add:    bytes 12n both sides     ->  a crossover only if B > the host's
--                                        own memory rate for the add
--
-- with B the measured transfer rate and F the rates at the largest size.
--
--   lua5.4 bench/crossover.lua [--quick] [--svg FILE]    (default crossover.svg)
--   make crossover
-- --quick (or GPUARRAY_BENCH_QUICK=1): small sizes, for the specs.
package.path = "bench/?.lua;" .. package.path
local ga = require "gpuarray"
local plot = require "svg_plot"

local quick, svg_path = os.getenv("GPUARRAY_BENCH_QUICK") == "1", "crossover.svg"
local i = 1
while arg and arg[i] do
  if arg[i] == "--quick" then quick = true
  elseif arg[i] == "--svg" then i = i + 1; svg_path = assert(arg[i], "--svg needs a file name")
  else error("crossover.lua: unknown argument " .. arg[i] .. " (--quick, --svg FILE)") end
  i = i + 1
end

local gpu = ga.cuda.is_available()
local clock = ga.core.clock
local MIN_TIME = quick and 0.002 or 0.05

-- seconds per call of f (after one warm-up call), repeated until MIN_TIME
-- has passed; sync() waits for queued GPU work
local function sync() if gpu then ga.cuda.Device(0):synchronize() end end
local function timed(f)
  f(); sync()
  local n, t0 = 0, clock()
  repeat f(); n = n + 1; sync() until clock() - t0 >= MIN_TIME or n >= 200
  return (clock() - t0) / n
end

local function sizes(first, last, factor)
  local t, v = {}, first
  while v <= last do t[#t + 1] = v; v = v * factor end
  return t
end
local MM = quick and sizes(16, 128, 2) or sizes(16, 8192, 2)
local EW = quick and sizes(100, 100000, 10) or sizes(100, 1000000000, 10)

-- one operation at every size: host, GPU on resident data, GPU with the
-- inputs going up and the result coming down; shape(n) the inputs' shape,
-- op(m, a, b) the operation with module m (ga.host or ga)
local function measure(ns, shape, op)
  local r = { host = {}, gpu = {}, gpu_tr = {} }
  for k, n in ipairs(ns) do
    local a, b = ga.host.ones(shape(n), "float32"), ga.host.ones(shape(n), "float32")
    r.host[k] = timed(function() op(ga.host, a, b):free() end)
    if gpu then
      local da, db = ga.asarray(a), ga.asarray(b)
      r.gpu[k] = timed(function() op(ga, da, db):free() end)
      r.gpu_tr[k] = timed(function()
        local x, y = ga.asarray(a), ga.asarray(b)
        local c = op(ga, x, y)
        local h = c:get()
        x:free(); y:free(); c:free(); h:free()
      end)
      da:free(); db:free()
    end
    a:free(); b:free()
  end
  return r
end

local results = {
  mm = measure(MM, function(n) return { n, n } end, function(m, a, b) return m.matmul(a, b) end),
  ew = measure(EW, function(n) return n end, function(m, a, b) return m.add(a, b) end),
}

-- the first size where `fast` beats `slow`, interpolated between the two
-- measured sizes in log-log space; nil when it never does (or always)
local function crossover(xs, slow, fast)
  for k = 2, #xs do
    local d0, d1 = math.log(slow[k - 1] / fast[k - 1]), math.log(slow[k] / fast[k])
    if d0 <= 0 and d1 > 0 then
      local f = -d0 / (d1 - d0)
      local x = math.exp(math.log(xs[k - 1]) + f * (math.log(xs[k]) - math.log(xs[k - 1])))
      local y = math.exp(math.log(slow[k - 1]) + f * (math.log(slow[k]) - math.log(slow[k - 1])))
      return x, y
    end
  end
end

local function fmt_t(s) return s and ("%.3g ms"):format(s * 1e3) or "-" end
for _, t in ipairs { { "matmul n", MM, results.mm }, { "add n", EW, results.ew } } do
  local r = t[3]
  print(("%-10s %12s %12s %16s"):format(t[1], "host", "GPU", "GPU + transfers"))
  for k, n in ipairs(t[2]) do
    print(("%-10d %12s %12s %16s"):format(n, fmt_t(r.host[k]), fmt_t(r.gpu[k]), fmt_t(r.gpu_tr[k])))
  end
end

local fig = plot.figure(2)
fig:panel(1, { title = "matmul float32 (n x n)", xlabel = "n", ylabel = "seconds per call" })
fig:panel(2, { title = "add float32 (n elements)", xlabel = "n", ylabel = "seconds per call" })
for _, c in ipairs { { 1, "mm", MM }, { 2, "ew", EW } } do
  local panel, r, xs = c[1], results[c[2]], c[3]
  fig:line(panel, { label = "host", color = "#1f77b4" }, xs, r.host)
  if gpu then
    fig:line(panel, { label = "GPU (data resident)", color = "#2ca02c" }, xs, r.gpu)
    fig:line(panel, { label = "GPU + transfers", color = "#d62728", dash = true }, xs, r.gpu_tr)
    local x, y = crossover(xs, r.host, r.gpu)
    if x then fig:mark(panel, x, y, ("n = %.3g"):format(x)) end
    local xt, yt = crossover(xs, r.host, r.gpu_tr)
    if xt then fig:mark(panel, xt, yt, ("n = %.3g (transfers)"):format(xt)) end
  end
end
local f = assert(io.open(svg_path, "w"))
f:write(fig:svg())
f:close()

if not gpu then
  print("no GPU: host times only, no crossover (" .. svg_path .. " written)")
  return
end

-- the model: B from the largest add's transfer overhead, F at the largest sizes
local nm, ne = MM[#MM], EW[#EW]
local B = 12 * ne / math.max(results.ew.gpu_tr[#EW] - results.ew.gpu[#EW], 1e-9)   -- bytes/s both ways
local Fh, Fg = 2 * nm ^ 3 / results.mm.host[#MM], 2 * nm ^ 3 / results.mm.gpu[#MM]
local model = 6 / (B * (1 / Fh - 1 / Fg))
local host_add_rate = 12 * ne / results.ew.host[#EW]
local xm = crossover(MM, results.mm.host, results.mm.gpu)
local xmt = crossover(MM, results.mm.host, results.mm.gpu_tr)
local xe = crossover(EW, results.ew.host, results.ew.gpu)
local xet = crossover(EW, results.ew.host, results.ew.gpu_tr)
local function n_or(x) return x and ("%.3g"):format(x) or "none in range" end
print(("transfers: B = %.3g GB/s; matmul rates: host %.3g GFLOP/s, GPU %.3g GFLOP/s")
  :format(B / 1e9, Fh / 1e9, Fg / 1e9))
print(("matmul crossover: measured n = %s (resident), n = %s (with transfers); model n* = %.3g")
  :format(n_or(xm), n_or(xmt), model))
print(("add crossover:    measured n = %s (resident), n = %s (with transfers); model: %s")
  :format(n_or(xe), n_or(xet), B > host_add_rate and "the GPU wins at large n (B > the host's add rate)"
    or ("never with transfers (B %.3g GB/s < host add %.3g GB/s)"):format(B / 1e9, host_add_rate / 1e9)))
print(svg_path .. " written")
