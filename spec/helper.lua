-- Shared machinery of the specs: the list of devices every case runs on,
-- dtype-aware allclose, input layouts, GPU-vs-host comparison, error checks.
--
--   local helper = require "spec.helper"
--   helper.each_device(function(xp, dev) it("...", function() ... end) end)
--
-- `xp` is the module that creates arrays on that device: `ga.host` for "cpu",
-- `ga` for "cuda:0" (the current device).  Operations (`ga.add`, `ga.matmul`,
-- `ga.asnumpy`...) dispatch on their operands' device, so specs call them on
-- `ga` and create their inputs with `xp`.
local ga = require "gpuarray"
local busted = require "busted"
local luassert = require "luassert"

local helper = { ga = ga }

helper.DTYPES = {
  "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float16", "float32", "float64", "complex64", "complex128",
}
helper.INTS = { "int8", "int16", "int32", "int64" }
helper.UINTS = { "uint8", "uint16", "uint32", "uint64" }
helper.FLOATS = { "float16", "float32", "float64" }
helper.COMPLEX = { "complex64", "complex128" }
-- every real dtype but bool: what + - * / and unary - all accept
helper.REAL = { "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64" }

local KIND = {
  bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i",
  uint8 = "u", uint16 = "u", uint32 = "u", uint64 = "u",
  float16 = "f", float32 = "f", float64 = "f", complex64 = "c", complex128 = "c",
}
helper.KIND = KIND
helper.ITEMSIZE = {
  bool = 1, int8 = 1, int16 = 2, int32 = 4, int64 = 8, uint8 = 1, uint16 = 2, uint32 = 4,
  uint64 = 8, float16 = 2, float32 = 4, float64 = 8, complex64 = 8, complex128 = 16,
}

-- Relative tolerance per dtype (0: exact).
local RTOL = {
  float16 = 1e-3, float32 = 1e-5, float64 = 1e-12, complex64 = 1e-5, complex128 = 1e-12,
}
helper.RTOL = RTOL

function helper.has_gpu()
  return ga.cuda.is_available() == true
end

-- The backends each case runs on: the host always, cuda:0 when a GPU exists.
function helper.devices()
  local list = { { name = "cpu", xp = ga.host } }
  if helper.has_gpu() then list[#list + 1] = { name = "cuda:0", xp = ga } end
  return list
end

-- One `describe("on <device>")` block per device; fn(xp, dev) declares the `it`s.
function helper.each_device(fn)
  for _, dev in ipairs(helper.devices()) do
    busted.describe("on " .. dev.name, function() fn(dev.xp, dev) end)
  end
end

-- an array's device as a string: "cpu" or "cuda:N"
function helper.devstr(d) return d.id < 0 and "cpu" or "cuda:" .. d.id end

function helper.is_array(x)
  if type(x) ~= "userdata" then return false end
  local ok, dt = pcall(function() return x.dtype end)
  return ok and type(dt) == "string"
end

-- Array (host or device) -> nested Lua table (through the host), or the value as is.
function helper.totable(x)
  if helper.is_array(x) then return ga.asnumpy(x):totable() end
  return x
end

function helper.sync()
  if helper.has_gpu() then ga.cuda.Device():synchronize() end
end

local function fmt(v)
  if type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.17g", v)
  end
  return tostring(v)
end

-- allclose(a, b, opts) -> ok, message.  a, b: arrays (any device), nested
-- tables or numbers.  The tolerance follows the dtype (opts.dtype, else the
-- arrays' dtypes, the looser of the two): float16 rtol 1e-3, float32 1e-5,
-- float64 1e-12, integers and bool exact.  opts: rtol, atol (default = rtol),
-- equal_nan (default false).
function helper.allclose(a, b, opts)
  opts = opts or {}
  local dt = opts.dtype
  local rtol = opts.rtol
  if not rtol then
    local r = nil
    for _, x in ipairs { a, b } do
      local d = dt or (helper.is_array(x) and x.dtype) or nil
      if d then
        local rr = RTOL[d] or 0
        if r == nil or rr > r then r = rr end
      end
    end
    if r == nil then r = 1e-12 end -- plain tables/numbers: float64
    rtol = r
  end
  local atol = opts.atol or rtol
  local ta, tb = helper.totable(a), helper.totable(b)
  local bad, first, worst = 0, nil, 0
  local function cmp(x, y, path)
    if type(x) == "table" or type(y) == "table" then
      if type(x) ~= "table" or type(y) ~= "table" then
        bad = bad + 1
        first = first or string.format("at %s: shape mismatch (%s vs %s)", path, type(x), type(y))
        return
      end
      if #x ~= #y then
        bad = bad + 1
        first = first or string.format("at %s: length %d vs %d", path, #x, #y)
        return
      end
      for i = 1, #x do cmp(x[i], y[i], path .. "[" .. i .. "]") end
      return
    end
    local ok
    if type(x) == "boolean" or type(y) == "boolean" then
      ok = x == y
    elseif type(x) ~= "number" or type(y) ~= "number" then
      ok = false
    elseif x ~= x or y ~= y then
      ok = (x ~= x and y ~= y) and opts.equal_nan == true
    elseif x == y then
      ok = true
    elseif x == math.huge or x == -math.huge or y == math.huge or y == -math.huge then
      ok = false
    else
      local err = math.abs(x - y)
      if err > worst then worst = err end
      ok = rtol > 0 and err <= atol + rtol * math.abs(y)
    end
    if not ok then
      bad = bad + 1
      first = first or string.format("at %s: got %s, expected %s", path, fmt(x), fmt(y))
    end
  end
  cmp(ta, tb, "(top)")
  if bad == 0 then return true, "ok" end
  return false, string.format("%d element(s) differ; first %s (rtol %g, atol %g, max abs err %g)",
    bad, first, rtol, atol, worst)
end

-- busted assertion around allclose
function helper.assert_close(a, b, opts)
  local ok, msg = helper.allclose(a, b, opts)
  luassert.is_true(ok, msg)
end

local function transpose(t)
  local r = {}
  for i = 1, #t do
    for j = 1, #t[i] do
      r[j] = r[j] or {}
      r[j][i] = t[i][j]
    end
  end
  return r
end
helper.transpose = transpose

-- The same logical (m x n) data in the layouts the foundation API can make:
-- contiguous; transposed (x.T of an array built from the transposed table,
-- so not C-contiguous); broadcast (zeros of a row (1,n) broadcast against a
-- column (m,1), added to the data: the values went through broadcast strides).
-- A 1-D base gives contiguous and broadcast only.  Returns a list of {name, x}.
function helper.layouts(xp, base, dtype)
  local out = {}
  local c = xp.array(base, dtype)
  out[#out + 1] = { name = "contiguous", x = c }
  if type(base[1]) == "table" then
    local m, n = #base, #base[1]
    out[#out + 1] = { name = "transposed", x = xp.array(transpose(base), dtype).T }
    local z = xp.zeros({ 1, n }, dtype) + xp.zeros({ m, 1 }, dtype)
    out[#out + 1] = { name = "broadcast", x = z + c }
  else
    out[#out + 1] = { name = "broadcast", x = xp.zeros(1, dtype) + c } -- (1,) against (n,)
  end
  return out
end

-- Runs f(ga.host) and, when a GPU exists, f(ga); compares device, dtype,
-- shape and values.  Returns ok, message (ok with "no GPU" on the host).
function helper.check_gpu_vs_host(f, opts)
  local h = f(ga.host)
  if not helper.has_gpu() then return true, "no GPU: host result only" end
  local d = f(ga)
  if helper.is_array(d) then
    if d.device.id < 0 then return false, "GPU run returned a cpu array" end
    if helper.is_array(h) then
      if d.dtype ~= h.dtype then
        return false, "dtype " .. d.dtype .. " on GPU vs " .. h.dtype .. " on host"
      end
      local sd, sh = table.concat(d.shape, ","), table.concat(h.shape, ",")
      if sd ~= sh then return false, "shape (" .. sd .. ") on GPU vs (" .. sh .. ") on host" end
    end
  end
  return helper.allclose(d, h, opts)
end

function helper.assert_gpu_vs_host(f, opts)
  local ok, msg = helper.check_gpu_vs_host(f, opts)
  luassert.is_true(ok, msg)
end

-- Calls f, which must raise; every fragment must occur (plain text) in the
-- message.  Returns the message.
function helper.assert_error(f, ...)
  local ok, err = pcall(f)
  luassert.is_false(ok, "expected an error, got none")
  local msg = tostring(err)
  for _, frag in ipairs { ... } do
    luassert.is_truthy(msg:find(frag, 1, true),
      "error message '" .. msg .. "' lacks '" .. frag .. "'")
  end
  return msg
end

-- The memory pool whose used_bytes counts arrays made by xp, or nil when
-- that backend's allocations are not pooled (probed once per backend).
local tracks = {}
function helper.pool_for(xp)
  local pool = ga.get_default_memory_pool()
  local key = xp == ga.host and "host" or "ga"
  if tracks[key] == nil then
    local before = pool:used_bytes()
    local x = xp.zeros(1 << 16, "uint8")
    local during = pool:used_bytes()
    x:free()
    tracks[key] = during >= before + (1 << 16)
  end
  return tracks[key] and pool or nil
end

-- used_bytes of the pool that tracks xp (nil when none does), after a full
-- GC so that garbage from earlier cases does not move the count later.
function helper.used(xp)
  local pool = helper.pool_for(xp)
  if not pool then return nil end
  collectgarbage("collect")
  collectgarbage("collect")
  return pool:used_bytes()
end

-- A Lua 5.4 interpreter to run subprocesses with: $LUA, the interpreter
-- running busted, lua5.4, lua.
local interp
--- Sorted list of the paths a shell glob matches (e.g. "examples/*.lua").
function helper.glob(pattern)
  local p = io.popen("ls " .. pattern .. " 2>/dev/null")
  local files = {}
  for line in p:lines() do files[#files + 1] = line end
  p:close()
  table.sort(files)
  return files
end

function helper.lua_interpreter()
  if interp then return interp end
  local cands = { os.getenv("LUA") }
  local i = -1
  while arg and arg[i] do cands[#cands + 1] = arg[i]; i = i - 1 end
  cands[#cands + 1] = "lua5.4"
  cands[#cands + 1] = "lua"
  for _, c in ipairs(cands) do
    if c ~= "" and not c:find("'", 1, true) then
      local p = io.popen("'" .. c .. "' -e 'io.write(_VERSION)' 2>/dev/null")
      local v = p and p:read("a")
      if p then p:close() end
      if v == "Lua 5.4" then interp = c; return c end
    end
  end
  error("no Lua 5.4 interpreter found (set LUA=...)")
end

-- Environment prefix for a subprocess that must find gpuarray the way this
-- process did.
function helper.lua_env()
  local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
  return "LUA_PATH=" .. q("lua/?.lua;lua/?/init.lua;" .. package.path) ..
         " LUA_CPATH=" .. q(package.cpath)   -- busted's cpath first: build/ or make's $(BUILD)/
end

-- SPEC_SHARD=k/n: `local it = helper.shard_it(it)` at the top of a long spec
-- registers only every n-th of its cases, from the k-th, so that
-- tools/run_specs.sh can spread the file over processes.
function helper.shard_it(busted_it)
  local k, n = (os.getenv("SPEC_SHARD") or "1/1"):match("^(%d+)/(%d+)$")
  k, n = tonumber(k) or 1, tonumber(n) or 1
  local count = 0
  return function(name, fn)
    count = count + 1
    if (count - 1) % n == k - 1 then return busted_it(name, fn) end
  end
end

-- A value of the NumPy reference data that tools/gen_{fft,linalg,products}_ref.py
-- write, on device xp: an array as {dtype, shape, re (, im)} with the
-- values flat in C order, a list as {list = {...}}, nil as {["nil"] = true};
-- anything else as it is. uint64 values go through int64 (Lua integers).
function helper.decode_ref(xp, a)
  if type(a) ~= "table" then return a end
  if a["nil"] then return nil end
  if a.list then
    local t = {}
    for i, v in ipairs(a.list) do t[i] = helper.decode_ref(xp, v) end
    return t
  end
  local n = 1
  for _, d in ipairs(a.shape) do n = n * d end
  local function fill(dt, v)
    if n == 0 then return xp.zeros(a.shape, dt) end
    if dt == "uint64" then return xp.array(v, "int64"):astype("uint64"):reshape(a.shape) end
    return xp.array(v, dt):reshape(a.shape)
  end
  if a.im then
    local rdt = a.dtype == "complex64" and "float32" or "float64"
    local z = xp.zeros(a.shape, a.dtype)
    if n > 0 then
      z.real[ga.ellipsis] = fill(rdt, a.re)
      z.imag[ga.ellipsis] = fill(rdt, a.im)
    end
    return z
  end
  return fill(a.dtype, a.re)
end

return helper
