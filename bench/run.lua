-- bench/run.lua — gpuarray's side of ../shared/bench/cupy_reference.py.
--
-- Prints ONE JSON object with the keys of cupy_reference.py that the
-- foundation API covers, measured the same way: same sizes, same byte
-- counting (bytes read + written once), CUDA events around `reps` calls
-- after `warm` warm-up calls for GPU times.
--
-- The per-call overhead keys are wall-clock (ga.core.clock, monotonic)
-- around 20000 calls between two synchronize(), as CuPy's perf_counter.
--
-- Data: ga.ones / ga.arange / products of a column and a row; exp_f32 takes
-- arange / N, in [0, 1) like CuPy's random input (random numbers
-- come in a later issue); bandwidth and GEMM rates do not depend on values.
--
-- Keys of cupy_reference.py left out until their API lands: randn,
-- batched matmul, fft.
-- broadcast_add_f32_GBps uses a separate 1-element array in place of
-- CuPy's b[:1]: the kernel sees the same stride-0 broadcast of one element.
--
--   lua5.4 bench/run.lua > ours.json      (with LUA_PATH/LUA_CPATH set, or installed)
--   BENCH_ONLY=rand lua5.4 bench/run.lua  (the sections with a key matching a Lua pattern)
local ga = require "gpuarray"

local NULL = setmetatable({}, { __tostring = function() return "null" end })
local keys, R, errors = {}, {}, {}
local function put(k, v)
  if R[k] == nil then keys[#keys + 1] = k end
  if v == nil then v = NULL end
  R[k] = v
end

local function encode(v)
  local t = type(v)
  if v == NULL or v == nil then return "null" end
  if t == "boolean" then return tostring(v) end
  if t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.6g", v)
  end
  if t == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c)
      local esc = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
      return esc[c] or string.format("\\u%04x", c:byte())
    end) .. '"'
  end
  if t == "table" then
    local ks = {}
    for k in pairs(v) do ks[#ks + 1] = k end
    table.sort(ks)
    local parts = {}
    for _, k in ipairs(ks) do parts[#parts + 1] = encode(tostring(k)) .. ": " .. encode(v[k]) end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return encode(tostring(v))
end

local function emit()
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = " " .. encode(k) .. ": " .. encode(R[k]) end
  if next(errors) then parts[#parts + 1] = ' "errors": ' .. encode(errors) end
  io.write("{\n", table.concat(parts, ",\n"), "\n}\n")
end

put("library", "gpuarray " .. tostring(ga.__version or "dev"))
if not ga.cuda.is_available() then
  put("gpu", nil)
  put("note", "no GPU")
  emit()
  os.exit(0)
end

-- GPUARRAY_BENCH_QUICK=1: tiny sizes and few reps, to check that the
-- script runs (the specs use it); the figures are then meaningless.
local QUICK = os.getenv("GPUARRAY_BENCH_QUICK") == "1"
local cuda = ga.cuda
put("gpu", cuda.Device(0).name)
if QUICK then put("note", "GPUARRAY_BENCH_QUICK=1: sizes reduced, figures meaningless") end
local function sync() cuda.Device():synchronize() end

-- A section that fails records null for its keys and the error message,
-- and the benchmark goes on.
-- BENCH_ONLY=<Lua pattern>: only the sections with a key that matches it
local ONLY = os.getenv("BENCH_ONLY")
-- An idle GPU runs at low clocks for its first ~0.1 s of work: a key of a
-- few short calls measured then reads up to 45% slow (CuPy's reference
-- figures come from one long process, clocks up).  So before the first
-- section, ~0.3 s of elementwise work brings the clocks up.
local warmed = QUICK
local function warm_clocks()
  if warmed then return end
  warmed = true
  local a, t0 = ga.ones(1 << 24, "float32"), ga.core.clock()
  repeat
    for _ = 1, 20 do (a * a):free() end
    sync()
  until ga.core.clock() - t0 > 0.3
  a:free()
end
local function section(names, f)
  if ONLY then
    local hit = false
    for _, k in ipairs(names) do hit = hit or k:find(ONLY) ~= nil end
    if not hit then return end
  end
  warm_clocks()
  local ok, err = pcall(f)
  if not ok then
    for _, k in ipairs(names) do
      if R[k] == nil then put(k, nil) end
      errors[k] = tostring(err)
    end
    io.stderr:write("bench: ", table.concat(names, ","), ": ", tostring(err), "\n")
  end
  collectgarbage()
  ga.get_default_memory_pool():free_all_blocks()
end

local event_ms = dofile(((arg and arg[0] or "bench/run.lua"):match("^(.*)/[^/]*$") or ".") .. "/gpu_ms.lua")(ga)
local function gpu_ms(f, reps, warm)
  if QUICK then return event_ms(f, 2, 1) end
  return event_ms(f, reps or 10, warm or 2)
end

local clock = ga.core.clock   -- monotonic wall clock (seconds)

-- CuPy's wall_us: perf_counter around `reps` calls between two synchronize()
local function wall_us(f, reps, warm)
  reps, warm = reps or 20000, warm or 200
  if QUICK then reps, warm = 20, 2 end
  for _ = 1, warm do f() end
  sync()
  local t = clock()
  for _ = 1, reps do f() end
  sync()
  return (clock() - t) / reps * 1e6
end

-- Lua 5.4 interpreter for the subprocesses: the one running this script.
local function interpreter()
  local i, cand = -1, nil
  while arg and arg[i] do cand = arg[i]; i = i - 1 end
  return cand or "lua5.4"
end
local function shq(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- first call of a kernel never compiled (empty cache directory), then the
-- first add of a fresh process with that (now warm) cache directory
section({ "cold_compile_ms", "cold_compile_exp_ms", "warm_first_add_ms" }, function()
  local probe = [[
local mode = ...
local ga = require "gpuarray"
local a, b = ga.ones(16, "float32"), ga.ones(16, "float32")
ga.cuda.Device():synchronize()
local t = ga.core.clock()
local r = mode == "mul" and a * 3.25 or mode == "exp" and ga.exp(a) or a + b
ga.cuda.Device():synchronize()
local ms = (ga.core.clock() - t) * 1e3
local z = a * 3.25 + b * b   -- the rest of the expression, into the cache
ga.cuda.Device():synchronize()
assert(r.size == 16 and z.size == 16)
io.write(string.format("%.6f", ms))
]]
  local script = os.tmpname()
  local fh = assert(io.open(script, "w"))
  fh:write(probe)
  fh:close()
  local p = io.popen("mktemp -d")
  local dir = p:read("l")
  p:close()
  assert(dir and dir ~= "", "mktemp -d failed")
  local env = "GPUARRAY_CACHE_DIR=" .. shq(dir) ..
    " LUA_PATH=" .. shq("lua/?.lua;lua/?/init.lua;" .. package.path) ..
    " LUA_CPATH=" .. shq("build/?.so;" .. package.cpath)
  local function run(mode)
    local q = io.popen(env .. " " .. shq(interpreter()) .. " " .. shq(script) .. " " .. mode .. " 2>&1")
    local out = q:read("a")
    local ok = q:close()
    local v = tonumber(out)
    if not ok or not v then error("probe (" .. mode .. ") failed: " .. out) end
    return v
  end
  local ok, err = pcall(function()
    put("cold_compile_ms", run("mul"))
    put("cold_compile_exp_ms", run("exp"))   -- a ufunc with the math library
    put("warm_first_add_ms", run("add"))
  end)
  os.remove(script)
  os.execute("rm -rf " .. shq(dir))
  if not ok then error(err, 0) end
end)

-- host-side cost of one call on a 1-element array
section({ "overhead_add_us", "overhead_scalar_mul_us", "overhead_empty_us", "overhead_slice_us" }, function()
  local x, y = ga.ones(1, "float32"), ga.ones(1, "float32")
  put("overhead_slice_us", wall_us(function() return x[{ { 1, 1 } }] end))   -- CuPy: x[0:1]
  put("overhead_add_us", wall_us(function() return x + y end))
  put("overhead_scalar_mul_us", wall_us(function() return x * 2.0 end))
  put("overhead_empty_us", wall_us(function() return ga.empty(1, "float32") end))
end)
section({ "overhead_matmul64_us" }, function()
  local m = ga.ones({ 64, 64 }, "float32")
  put("overhead_matmul64_us", wall_us(function() return ga.matmul(m, m) end, 5000))
end)

local N = QUICK and 1 << 20 or 1 << 28 -- 2^28 float32 = 1 GiB per array
local GB = N * 4 / 1e9
section({ "copy_f32_GBps", "add_f32_GBps", "scale_f32_GBps", "axpy_expr_ms", "exp_f32_GBps",
          "broadcast_add_f32_GBps" }, function()
  local a = ga.arange(0, N, 1, "float32")
  local b = ga.ones(N, "float32")
  local c = ga.full(N, 0.5, "float32")
  local out = ga.empty_like(a)
  put("copy_f32_GBps", 2 * GB / gpu_ms(function() out:set(a) end) * 1e3)
  put("add_f32_GBps", 3 * GB / gpu_ms(function() ga.add(a, b, { out = out }) end) * 1e3)
  put("scale_f32_GBps", 2 * GB / gpu_ms(function() ga.multiply(a, 2.0, { out = out }) end) * 1e3)
  put("axpy_expr_ms", gpu_ms(function()
    local t = a * b
    local r = t + c
    t:free()
    r:free()
  end))
  local u = ga.arange(0, N, 1, "float32") / N   -- in [0, 1), like CuPy's random
  put("exp_f32_GBps", 2 * GB / gpu_ms(function() ga.exp(u, { out = out }) end) * 1e3)
  u:free()
  local b1 = ga.ones(1, "float32") -- stands in for b[:1]
  put("broadcast_add_f32_GBps", 2 * GB / gpu_ms(function() ga.add(a, b1, { out = out }) end) * 1e3)
  a:free(); b:free(); c:free(); out:free()
end)

section({ "fma3_user_kernel_GBps" }, function()   -- CuPy: fk(a, b, c, out), an ElementwiseKernel
  local fk = ga.ElementwiseKernel("float32 a, float32 b, float32 c", "float32 z", "z = a * b + c", "fma3")
  local a, b, c = ga.arange(0, N, 1, "float32"), ga.ones(N, "float32"), ga.full(N, 0.5, "float32")
  local out = ga.empty_like(a)
  put("fma3_user_kernel_GBps", 4 * GB / gpu_ms(function() fk(a, b, c, out) end) * 1e3)
  a:free(); b:free(); c:free(); out:free()
end)

-- CuPy: M = a.reshape(16384, 16384) (float32, 1 GiB = GB);
-- transpose_copy_GBps = 2*GB / time of cp.ascontiguousarray(M.T) (the tiled
-- shared-memory kernel), strided_copy_GBps = 2*GB/4 / time of
-- M[::2, ::2].copy() (a quarter of the elements, read and written once).
section({ "transpose_copy_GBps", "strided_copy_GBps" }, function()
  local side = QUICK and 1024 or 16384
  assert(side * side == N)
  local M = ga.ones({ side, side }, "float32")
  put("transpose_copy_GBps", 2 * GB / gpu_ms(function()
    local r = ga.ascontiguousarray(M.T)
    r:free()
  end) * 1e3)
  local V = M[{ { 1, -1, 2 }, { 1, -1, 2 } }]   -- CuPy's M[::2, ::2]
  put("strided_copy_GBps", 2 * GB / 4 / gpu_ms(function()
    local r = V:copy()
    r:free()
  end) * 1e3)
  M:free()
end)

-- Reductions, as cupy_reference.py: a.sum(), a.max() on 2^28 float32 (GB
-- read once), M.sum(axis=1) / M.sum(axis=0) on the 16384 x 16384 view,
-- ad.sum() on 2^28 float64 (2*GB); overhead_sum_us = x:sum() on a
-- 1-element array (wall clock, as the other overheads).
section({ "overhead_sum_us" }, function()
  local x = ga.ones(1, "float32")
  put("overhead_sum_us", wall_us(function() return x:sum() end))
end)
section({ "sum_f32_GBps", "max_f32_GBps", "sum_axis_last_GBps", "sum_axis_first_GBps", "sum_f64_GBps" }, function()
  local a = ga.arange(0, N, 1, "float32") / N
  put("sum_f32_GBps", GB / gpu_ms(function() a:sum() end) * 1e3)
  put("max_f32_GBps", GB / gpu_ms(function() a:max() end) * 1e3)
  local side = QUICK and 1024 or 16384
  local M = a:reshape({ side, side })
  put("sum_axis_last_GBps", GB / gpu_ms(function() M:sum(2) end) * 1e3)
  put("sum_axis_first_GBps", GB / gpu_ms(function() M:sum(1) end) * 1e3)
  local ad = a:astype("float64")
  a:free()
  put("sum_f64_GBps", 2 * GB / gpu_ms(function() ad:sum() end) * 1e3)
  ad:free()
end)

-- CuPy: cp.cumsum(a, out=out) on 2^28 float32, counting 2*GB (read once,
-- written once), reps=5.
section({ "cumsum_f32_GBps" }, function()
  local a = ga.arange(0, N, 1, "float32") / N
  local out = ga.empty_like(a)
  put("cumsum_f32_GBps", 2 * GB / gpu_ms(function() ga.cumsum(a, { out = out }) end, 5) * 1e3)
  a:free(); out:free()
end)

-- CuPy: s = a[:1 << 26].copy() of random float32 in [0, 1); cp.sort(s),
-- reps=5.  No random API yet: a sin hash of the index, frac(sin(i * 12.9898)
-- * 43758.5453), spreads the values over [0, 1) like random data (the radix
-- sort's work depends on how the key bytes are distributed, not on order).
section({ "sort_f32_2p26_ms" }, function()
  local i = ga.arange(0, 1 << 26, 1, "float64")
  local h = ga.sin(i * 12.9898) * 43758.5453
  local s = (h % 1.0):astype("float32")
  i:free(); h:free()
  put("sort_f32_2p26_ms", gpu_ms(function() ga.sort(s):free() end, 5))
  s:free()
end)

for _, row in ipairs { { "float32", "f32" }, { "float64", "f64" }, { "float16", "f16" } } do
  local dt, name = row[1], row[2]
  local key = "matmul_" .. name .. "_8192_TFLOPs"
  section({ key }, function()
    local n = QUICK and 256 or 8192
    -- a column times a row: varied values in [0, 1), like CuPy's random data
    local col, r1, r2 = {}, {}, {}
    local seed = 1
    local function rnd()
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    end
    for i = 1, n do col[i] = { rnd() }; r1[i] = rnd(); r2[i] = rnd() end
    local cc = ga.asarray(col, dt)
    local A = cc * ga.asarray(r1, dt)
    local B = cc * ga.asarray(r2, dt)
    put(key, 2 * n ^ 3 / gpu_ms(function()
      local C = ga.matmul(A, B)
      C:free()
    end, 5) / 1e9)
    A:free(); B:free()
  end)
end

section({ "h2d_GBps", "d2h_GBps" }, function()
  local h = ga.host.ones(QUICK and 1 << 20 or 1 << 27) -- 1 GiB of float64 in host memory
  put("h2d_GBps", h.nbytes / gpu_ms(function()
    local d = ga.asarray(h)
    if not rawequal(d, h) then d:free() end
  end, 3, 1) / 1e6)
  local d = ga.asarray(h)
  put("d2h_GBps", h.nbytes / gpu_ms(function()
    local r = d:get()
    r:free()
  end, 3, 1) / 1e6)
  if not rawequal(d, h) then d:free() end
  h:free()
end)

-- Random numbers, as cupy_reference.py: 2^28 values, the bytes written once
-- counted; each timed call makes (and here frees) a new array.
-- rng_normal_f32_GBps times default_rng(0) plus the draw, as CuPy's does.
section({ "randn_f32_GBps", "rand_f32_GBps", "randn_f64_GBps", "rng_normal_f32_GBps", "randint_i64_GBps" }, function()
  local rnd = ga.random
  local function timed(f, reps) return gpu_ms(function() local r = f(); r:free() end, reps) end
  put("randn_f32_GBps", GB / timed(function() return rnd.standard_normal(N, "float32") end) * 1e3)
  put("rand_f32_GBps", GB / timed(function() return rnd.random(N, "float32") end) * 1e3)
  put("randn_f64_GBps", N * 8 / 1e9 / timed(function() return rnd.standard_normal(N, "float64") end, 3) * 1e3)
  put("rng_normal_f32_GBps", GB / timed(function() return rnd.default_rng(0):standard_normal(N, "float32") end) * 1e3)
  put("randint_i64_GBps", N * 8 / 1e9 / timed(function() return rnd.randint(0, 1000, N, "int64") end, 3) * 1e3)
end)
-- .npy files as cupy_reference.py: 2^26 float32 (256 MiB) saved from the
-- device and loaded back to it, the best of 3 wall-clock times each, in
-- the same temporary directory (the same file system as CuPy's tempfile).
section({ "npy_save_GBps", "npy_load_GBps" }, function()
  local v = ga.random.random(QUICK and 1 << 16 or 1 << 26, "float32")
  local path = os.tmpname() .. ".npy"
  local function best(f)
    local b = math.huge
    for _ = 1, 3 do
      sync()
      local t = clock()
      f()
      sync()
      b = math.min(b, clock() - t)
    end
    return b
  end
  put("npy_save_GBps", v.nbytes / 1e9 / best(function() ga.save(path, v) end))
  put("npy_load_GBps", v.nbytes / 1e9 / best(function() ga.load(path):free() end))
  os.remove(path)
  os.remove((path:gsub("%.npy$", "")))
  v:free()
end)
-- the host generator (one core): float32 uniforms and normals per second
section({ "host_rand_f32_Mvals", "host_randn_f32_Mvals" }, function()
  local n = QUICK and 1 << 16 or 1 << 24
  local t = clock()
  ga.host.random.random(n, "float32"):free()
  put("host_rand_f32_Mvals", n / (clock() - t) / 1e6)
  t = clock()
  ga.host.random.standard_normal(n, "float32"):free()
  put("host_randn_f32_Mvals", n / (clock() - t) / 1e6)
end)

-- FFT (cuFFT), as cupy_reference.py: each timed call makes (and frees) its
-- result; host_fft_c128_2p20_ms is our host FFT (one core) on 2^20 complex128
section({ "fft_c64_2p24_ms", "rfft_f32_2p24_ms", "fft2_c64_4096_ms", "fft_batched_c64_16384x1024_ms",
          "fft_axis0_c64_4096_ms", "fft_prime_c64_1000003_ms", "overhead_fft1024_us",
          "host_fft_c128_2p20_ms" }, function()
  local fft = ga.fft
  local function cplx(shape)
    local z = ga.random.random(shape):astype("complex64")
    z.imag[ga.ellipsis] = ga.random.random(shape, "float32")
    return z
  end
  local function timed(f, reps) return gpu_ms(function() local r = f(); r:free() end, reps) end
  local n24 = QUICK and 1 << 16 or 1 << 24
  local z = cplx(n24)
  put("fft_c64_2p24_ms", timed(function() return fft.fft(z) end))
  z:free()
  local r = ga.random.random(n24, "float32")
  put("rfft_f32_2p24_ms", timed(function() return fft.rfft(r) end))
  r:free()
  local m = QUICK and 256 or 4096
  local z2 = cplx({ m, m })
  put("fft2_c64_4096_ms", timed(function() return fft.fft2(z2) end))
  local zb = z2:reshape({ m * 4, m // 4 })
  put("fft_batched_c64_16384x1024_ms", timed(function() return fft.fft(zb, nil, -1) end))
  put("fft_axis0_c64_4096_ms", timed(function() return fft.fft(z2, nil, 1) end))
  local np = QUICK and 10007 or 1000003
  local zp = z2:ravel()[{ { 1, np } }]:copy()
  put("fft_prime_c64_1000003_ms", timed(function() return fft.fft(zp) end))
  local zs = z2[{ 1, { 1, 1024 < m and 1024 or m } }]:copy()
  put("overhead_fft1024_us", wall_us(function() return fft.fft(zs) end, 5000))
  z2:free(); zp:free(); zs:free()
  local h = ga.host.random.random(QUICK and 1 << 12 or 1 << 20):astype("complex128")
  ga.host.fft.fft(h)   -- the plan
  local t = clock()
  for _ = 1, 3 do ga.host.fft.fft(h):free() end
  put("host_fft_c128_2p20_ms", (clock() - t) / 3 * 1e3)
end)

-- Later issues' sections live in bench/parts/<topic>.lua, one file each, so
-- that they never edit this file: each returns function(b), where b holds
-- this script's helpers.
do
  local b = { ga = ga, cuda = cuda, put = put, section = section, gpu_ms = gpu_ms,
              wall_us = wall_us, sync = sync, clock = clock, QUICK = QUICK,
              interpreter = interpreter, shq = shq }
  local dir = (arg and arg[0] or "bench/run.lua"):match("^(.*)/[^/]*$") or "."
  local ls = io.popen("ls " .. shq(dir .. "/parts") .. " 2>/dev/null")
  local files = {}
  for f in ls:lines() do if f:match("%.lua$") then files[#files + 1] = f end end
  ls:close()
  table.sort(files)
  for _, f in ipairs(files) do
    local part, err = loadfile(dir .. "/parts/" .. f)
    if not part then errors[f] = err else part()(b) end
  end
end

emit()
