-- Every ufunc row of the op table (src/base/ga_ops.def) against NumPy and, with
-- a GPU, the CUDA kernels against the host backend.
--
-- NumPy's answers are in spec/data/ufunc_ref.lua, written by
-- tools/gen_ufunc_ref.py (CI has no NumPy): result dtypes of every dtype
-- combination (NEP 50 weak Lua scalars included) and values on inputs with
-- the special values (+-0, +-inf, nan, subnormals, integer min/max).
--
-- Everywhere: a spec row per op row; dtype resolution and its errors; host
-- values against NumPy (exact for integer, bool and correctly rounded ops,
-- a few ULP for transcendental functions, special values always exact);
-- the semantics of division by zero, overflow, floor division against
-- Lua's own // and %, NaN propagation, signed zeros, float16 computed in
-- float32 and rounded once; bad inputs.  With a GPU: every row x every loop
-- dtype on contiguous, stepped, transposed and broadcast operands against
-- the host.  UFUNC_GPU_SHARD=k/n runs the k-th of n slices of the GPU
-- cases (to spread the NVRTC compiles over processes).
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core
local U = core.ufuncs
local SV = core._strided_view
local R = dofile("spec/data/ufunc_ref.lua")
local H = ga.host

local inf, nan = math.huge, math.abs(0 / 0) -- NumPy's nan has the sign bit clear
local COMPLEX_REAL = { complex64 = "float32", complex128 = "float64" }
local ISZ = helper.ITEMSIZE
local KIND = helper.KIND
-- mantissa bits and smallest subnormal exponent of the float dtypes
local FMT = { float16 = { 10, -24 }, float32 = { 23, -149 }, float64 = { 52, -1074 } }

-- Tolerances, ULP of the result dtype: 0 = bit for bit (±0 included).
-- Transcendental functions: NumPy's SIMD loops (SVML, its own float32
-- sin/cos/exp/log) and glibc round differently by a few ULP.  Complex
-- results are compared per part in ULP of the larger part's magnitude.
-- ti: the second operand is int64 (ldexp's exponent, _round's decimals).
local T = 4            -- transcendental functions
-- complex power is exp(b log a): an error of 1 ULP in b log a grows by
-- |b log a| in the result, which is up to ~500 for the inputs here
-- ((0.001+100j) ** (0.001+100j)); glibc's cpow and CUDA's differ there
-- (gpu_c: the GPU-vs-host tolerance; the host matches NumPy within T)
local CPOW = 2048
local ROWS = {
  copy = { 0 }, add = { 0 }, subtract = { 0 }, multiply = { 0, c = 2 },
  true_divide = { 0, c = 2 }, floor_divide = { 0 },
  power = { T, c = T, gpu_c = CPOW }, float_power = { T, c = T, gpu_c = CPOW },
  remainder = { 0 }, fmod = { 0 }, divmod = { 0 }, modf = { 0 }, negative = { 0 }, positive = { 0 },
  reciprocal = { 0, c = 2 }, absolute = { 0, c = 1 }, fabs = { 0 }, sign = { 0, c = 1 },
  sqrt = { 0, c = 2 }, cbrt = { 1 }, square = { 0, c = 2 }, exp = { T }, exp2 = { T }, expm1 = { T },
  log = { T }, log2 = { T }, log10 = { T }, log1p = { T }, logaddexp = { T }, logaddexp2 = { T },
  sin = { T }, cos = { T }, tan = { T }, arcsin = { T }, arccos = { T }, arctan = { T },
  arctan2 = { T }, hypot = { 1 }, sinh = { T }, cosh = { T }, tanh = { T }, arcsinh = { T },
  arccosh = { T }, arctanh = { T }, deg2rad = { 1 }, rad2deg = { 1 }, rint = { 0 }, floor = { 0 },
  ceil = { 0 }, trunc = { 0 }, clip = { 0 }, maximum = { 0 }, minimum = { 0 }, fmax = { 0 },
  fmin = { 0 }, copysign = { 0 }, nextafter = { 0 }, spacing = { 0 }, ldexp = { 0, ti = true }, frexp = { 0 },
  signbit = { 0 }, heaviside = { 0 }, gcd = { 0 }, lcm = { 0 }, sinc = { T }, i0 = { T }, _round = { 1, ti = true },
  conjugate = { 0 }, _angle = { T }, isreal = { 0 }, iscomplex = { 0 }, isfinite = { 0 }, isinf = { 0 },
  isnan = { 0 }, logical_and = { 0 }, logical_or = { 0 }, logical_xor = { 0 }, logical_not = { 0 },
  greater = { 0 }, greater_equal = { 0 }, less = { 0 }, less_equal = { 0 }, equal = { 0 },
  not_equal = { 0 }, bitwise_and = { 0 }, bitwise_or = { 0 }, bitwise_xor = { 0 }, invert = { 0 },
  left_shift = { 0 }, right_shift = { 0 },
  _arange = { 0, novalues = true },  -- arange/linspace's body: see "semantics"
  _tril = { 0, novalues = true }, _triu = { 0, novalues = true },  -- tril/triu's body: select_spec.lua
  _where = { 0, novalues = true },  -- where's body: where_spec.lua
}
-- GPU vs host: CUDA's libdevice differs from glibc by a few ULP more
local GPU_EXTRA_ULP = 4

local OPS = {}       -- name -> core.ops() row
for _, op in ipairs(core.ops()) do OPS[op.name] = op end

-- Shared helpers -----------------------------------------------------------

-- An array of dtype dt holding `vals` exactly, made by xp: uint64 through
-- int64 bits, complex from (re, im) pairs of the real dtype.
local function mk(xp, vals, dt)
  if dt == "uint64" then return SV(xp.array(vals, "int64"), { #vals }, { 8 }, 0, "uint64") end
  local rt = COMPLEX_REAL[dt]
  if rt then return SV(xp.array(vals, rt), { #vals // 2 }, { ISZ[dt] }, 0, dt) end
  if #vals == 0 then return xp.empty(0, dt) end
  return xp.array(vals, dt)
end

-- The values of array `a` as a flat Lua list, in the encoding of the data
-- file (uint64 as int64 bits, complex as re, im).
local function read(a)
  local c = U.copy(a) -- C-contiguous, same device
  local dt, n = c.dtype, c.size
  if dt == "uint64" then
    c = SV(c, { n }, { 8 }, 0, "int64")
  elseif COMPLEX_REAL[dt] then
    c = SV(c, { 2 * n }, { ISZ[dt] // 2 }, 0, COMPLEX_REAL[dt])
  else
    c = SV(c, { n }, { ISZ[dt] }, 0)
  end
  return c:totable()
end

local function fmtv(v)
  if type(v) ~= "number" then return tostring(v) end
  if math.type(v) == "integer" then return tostring(v) end
  if v ~= v then return "nan" end
  if v == 0 then return 1 / v < 0 and "-0.0" or "0.0" end
  return string.format("%.17g", v)
end

-- ULP of dtype dt at magnitude m
local function ulp(dt, m)
  local f = FMT[dt]
  if m == 0 or m ~= m or m == inf then return 2.0 ^ f[2] end
  local _, e = math.frexp(m)   -- m = x * 2^e, 0.5 <= x < 1
  return 2.0 ^ math.max(e - 1 - f[1], f[2])
end

-- Does got match want?  dt: the result dtype; tol: ULP (0 = identical,
-- ±0 included); big: magnitude the ULP is taken at (complex: the larger
-- part).  Special values are never relaxed: nan-ness, infinities and the
-- sign of an exact zero result must agree.
local function same(got, want, dt, tol, big)
  if type(want) ~= "number" or math.type(want) == "integer" or type(got) ~= "number" then
    return got == want
  end
  if want ~= want or got ~= got then return want ~= want and got ~= got end
  if want == inf or want == -inf or got == inf or got == -inf then return got == want end
  if want == 0 or got == 0 then
    if tol == 0 or want == 0 and got == 0 then return got == want and 1 / got == 1 / want end
  elseif got == want then
    return true
  end
  if tol == 0 then return false end
  local rdt = COMPLEX_REAL[dt] or dt
  return math.abs(got - want) <= tol * ulp(rdt, big or math.max(math.abs(got), math.abs(want)))
end

-- Compare flat lists; returns a list of messages (empty: all agree).
-- describe(i) names case i (1-based, in values of the dtype).
local function compare(got, want, dt, tol, describe_case, check_raise)
  local bad = {}
  local cplx = COMPLEX_REAL[dt] ~= nil
  local step = cplx and 2 or 1
  if #got ~= #want then return { string.format("%d values, expected %d", #got, #want) } end
  for i = 1, #want, step do
    local ok, w, g
    if want[i] == "raise" then -- NumPy raises (integer power, negative exponent)
      ok, g, w = check_raise(i, got[i])
    elseif cplx then
      local big = math.max(math.abs(want[i]), math.abs(want[i + 1]))
      if big ~= big or big == inf then big = nil end
      ok = same(got[i], want[i], dt, tol, big) and same(got[i + 1], want[i + 1], dt, tol, big)
      g = "(" .. fmtv(got[i]) .. ", " .. fmtv(got[i + 1]) .. ")"
      w = "(" .. fmtv(want[i]) .. ", " .. fmtv(want[i + 1]) .. ")"
    else
      ok = same(got[i], want[i], dt, tol)
      g, w = fmtv(got[i]), fmtv(want[i])
    end
    if not ok then
      bad[#bad + 1] = describe_case((i - 1) // step + 1) .. " = " .. g .. ", NumPy " .. w
    end
  end
  return bad
end

-- Known departures from NumPy, by test (op and dtype; op for the dtype
-- table): {plain substring of the mismatch, reason}.  A mismatch that
-- matches one is accepted; an entry that matches nothing fails the test
-- (fixed: remove it).  "bug:" marks what should be fixed, not kept.
local NP_SIMD_ZERO = "±0 between equal values: NumPy's SIMD float32/64 loops and its float16 loop choose "
  .. "different operands (platform-dependent); ours picks the same one for every dtype"
local F16_ONCE_WHY = "we compute float16 in float32 and round once; NumPy's np.sinc / np.round are Python code "
  .. "doing each step in float16 (checked below: 'float16 is computed in float32 and rounded once')"
local ROUND_OVF = "result outside uint32: NumPy's double -> uint32 conversion depends on the array's "
  .. "length (vector vs scalar loop); we convert as its scalar loop does"
local KNOWN = {
  ["_round uint32"] = { { "_round(4294967295, -1)", ROUND_OVF } },
  ["_round float16"] = { { "_round(65504,", F16_ONCE_WHY }, { "_round(-65504,", F16_ONCE_WHY } },
  ["sinc float16"] = { { "sinc(", F16_ONCE_WHY } },
  ["clip float16"] = { { "clip(-0.0, 0.0, 1)", NP_SIMD_ZERO } },
  ["fmax float32"] = { { "fmax(0.0, -0.0)", NP_SIMD_ZERO }, { "fmax(-0.0, 0.0)", NP_SIMD_ZERO } },
  ["fmax float64"] = { { "fmax(0.0, -0.0)", NP_SIMD_ZERO }, { "fmax(-0.0, 0.0)", NP_SIMD_ZERO } },
  ["fmin float32"] = { { "fmin(0.0, -0.0)", NP_SIMD_ZERO }, { "fmin(-0.0, 0.0)", NP_SIMD_ZERO } },
  ["fmin float64"] = { { "fmin(0.0, -0.0)", NP_SIMD_ZERO }, { "fmin(-0.0, 0.0)", NP_SIMD_ZERO } },
  ["maximum float16"] = { { "maximum(0.0, -0.0)", NP_SIMD_ZERO }, { "maximum(-0.0, 0.0)", NP_SIMD_ZERO } },
  ["minimum float16"] = { { "minimum(0.0, -0.0)", NP_SIMD_ZERO }, { "minimum(-0.0, 0.0)", NP_SIMD_ZERO } },
}
-- departures that may show in any test: none now
local KNOWN_ANY = {}

local function report(bad, what, no_known)
  local known = not no_known and KNOWN[what] or {}
  local used, keep = {}, {}
  for _, m in ipairs(bad) do
    local hit = false
    for k, e in ipairs(known) do
      if m:find(e[1], 1, true) then used[k], hit = true, true end
    end
    if not no_known then
      for _, e in ipairs(KNOWN_ANY) do if m:find(e[1], 1, true) then hit = true end end
    end
    if not hit then keep[#keep + 1] = m end
  end
  for k, e in ipairs(known) do
    if not used[k] then keep[#keep + 1] = "known departure no longer seen (remove it from KNOWN): " .. e[1] end
  end
  bad = keep
  if #bad == 0 then return end
  local lines = { string.format("%s: %d mismatch(es)", what, #bad) }
  for i = 1, math.min(#bad, 12) do lines[#lines + 1] = "  " .. bad[i] end
  if #bad > 12 then lines[#lines + 1] = "  ..." end
  assert.is_true(false, table.concat(lines, "\n"))
end

-- The cases of op `name` for loop dtype t: the columns of operands (flat
-- lists in the file's encoding) with their dtypes, and a describer.
local function cases(name, t)
  local op, row = OPS[name], ROWS[name]
  local cols, dts = {}, {}
  local w = COMPLEX_REAL[t] and 2 or 1
  local function pick(list, i) -- value i of a flat list (complex: a pair)
    if w == 1 then return { list[i] } end
    return { list[2 * i - 1], list[2 * i] }
  end
  local function fill(col, list, i)
    for _, v in ipairs(pick(list, i)) do col[#col + 1] = v end
  end
  if op.nin == 1 then
    cols[1], dts[1] = R.inputs[t], t
  elseif row.ti then
    local xs, es = R.inputs[t], name == "_round" and R.decimals or R.exps
    cols[1], cols[2], dts[1], dts[2] = {}, {}, t, "int64"
    for i = 1, #xs // w do
      for _, e in ipairs(es) do fill(cols[1], xs, i); cols[2][#cols[2] + 1] = e end
    end
  elseif op.nin == 2 then
    local xs = R.binputs[t]
    cols[1], cols[2], dts[1], dts[2] = {}, {}, t, t
    for i = 1, #xs // w do
      for j = 1, #xs // w do fill(cols[1], xs, i); fill(cols[2], xs, j) end
    end
  else
    cols, dts = R.clip_cases[t], { t, t, t }
  end
  local function describe_case(i)
    local args = {}
    for k, col in ipairs(cols) do
      local ww = COMPLEX_REAL[dts[k]] and 2 or 1
      local p = ww == 1 and fmtv(col[i]) or "(" .. fmtv(col[2 * i - 1]) .. ", " .. fmtv(col[2 * i]) .. ")"
      args[#args + 1] = p
    end
    return string.format("%s(%s)", name, table.concat(args, ", "))
  end
  return cols, dts, describe_case
end

-- integer power with a negative exponent: NumPy raises, we return 1 / a^-b
-- truncated (1, ±1 for -1, else 0: the documented departure)
local function power_raise(cols)
  return function(i, got)
    local a, b = cols[1][i], cols[2][i]
    local want = a == 1 and 1 or a == -1 and ((b % 2 == 1) and -1 or 1) or 0
    return got == want, fmtv(got), fmtv(want) .. " (NumPy raises; documented departure)"
  end
end

local function run_op(name, _, ins)   -- (name, loop dtype, inputs)
  local outs = table.pack(U[name](table.unpack(ins)))
  local r = {}
  for k = 1, OPS[name].nout do r[k] = outs[k] end
  return r
end

-- The op table has a spec row per op row ------------------------------------
describe("ufunc op table", function()
  it("every row of core.ops() has a spec row and every spec row an op row", function()
    local missing, extra = {}, {}
    for name in pairs(OPS) do if not ROWS[name] then missing[#missing + 1] = name end end
    for name in pairs(ROWS) do if not OPS[name] then extra[#extra + 1] = name end end
    table.sort(missing); table.sort(extra)
    assert.are.same({}, missing, "op rows without a spec row: " .. table.concat(missing, " "))
    assert.are.same({}, extra, "spec rows without an op row: " .. table.concat(extra, " "))
  end)

  it("the NumPy table covers every row (rerun tools/gen_ufunc_ref.py after adding one)", function()
    local missing = {}
    for name, op in pairs(OPS) do
      if not ROWS[name].novalues then
        if not R.values[name] then missing[#missing + 1] = name .. " (values)" end
        if name:sub(1, 1) ~= "_" and not R.types[name] then missing[#missing + 1] = name .. " (dtypes)" end
        for _, t in ipairs(op.types) do
          if R.values[name] and not R.values[name][t] then missing[#missing + 1] = name .. " " .. t end
        end
      end
    end
    table.sort(missing)
    assert.are.same({}, missing, table.concat(missing, ", "))
  end)

  it("every public row is ga.NAME (and ga.host.NAME)", function()
    local bad = {}
    for name in pairs(OPS) do
      -- ga.copy is the creation function; ga.clip takes nil bounds (checked below)
      if name:sub(1, 1) ~= "_" and name ~= "copy" and name ~= "clip" then
        -- ga.host's are wrappers that make host arrays of Lua values
        if ga[name] ~= U[name] or type(H[name]) ~= "function" then bad[#bad + 1] = name end
      end
    end
    table.sort(bad)
    assert.are.same({}, bad, table.concat(bad, " "))
  end)
end)

-- NumPy's other names and the Lua-side functions built on internal rows:
-- {name, what it must equal, operand dtype, extra arguments}
describe("ufunc aliases", function()
  local function x_of(dt)
    if COMPLEX_REAL[dt] then return mk(H, { 1.5, -2, -0.5, 0, 2.25, 3, -7.5, -1 }, dt) end
    if dt == "int32" then return H.array({ 5, -3, 0, 12 }, dt) end
    return H.array({ -2.55, 0.125, 1.5, -0.0, 123.456 }, dt)
  end
  local ALIASES = {
    { "divide", function(x) return U.true_divide(x, x) end, "float64", function(f, x) return f(x, x) end },
    { "mod", function(x) return U.remainder(x, 0.75) end, "float64", function(f, x) return f(x, 0.75) end },
    { "abs", U.absolute, "complex128" }, { "radians", U.deg2rad, "float32" }, { "degrees", U.rad2deg, "float64" },
    { "fix", U.trunc, "float64" }, { "conj", U.conjugate, "complex64" }, { "bitwise_not", U.invert, "int32" },
    { "round", function(x) return U._round(x, 0) end, "float64" },
    { "round", function(x) return U._round(x, 2) end, "float32", function(f, x) return f(x, 2) end },
    { "around", function(x) return U._round(x, -1) end, "int32", function(f, x) return f(x, -1) end },
    { "angle", U._angle, "complex128" },
    { "angle", function(x) return U.rad2deg(U._angle(x)) end, "complex64", function(f, x) return f(x, true) end },
    { "clip", function(x) return U.clip(x, -1, 2) end, "float64", function(f, x) return f(x, -1, 2) end },
    { "clip", function(x) return U.minimum(x, 2) end, "float64", function(f, x) return f(x, nil, 2) end },
  }
  for _, a in ipairs(ALIASES) do
    it(a[1] .. " on " .. a[3], function()
      for _, xp in ipairs { ga, H } do
        assert.is_function(xp[a[1]], a[1] .. " missing")
        local x = x_of(a[3])
        local want = a[2](x)
        local got = a[4] and a[4](xp[a[1]], x) or xp[a[1]](x)
        assert.are.equal(want.dtype, got.dtype)
        local bad = compare(read(got), read(want), want.dtype, 0, function(i) return a[1] .. " element " .. i end)
        report(bad, a[1], true)
      end
    end)
  end
end)

-- Result dtypes ------------------------------------------------------------
describe("ufunc result dtypes on the host match NumPy 2 (NEP 50)", function()
  local CH = R.chars
  local arrays = {}
  for _, d in ipairs(R.dtypes) do arrays[d] = H.ones(2, d) end

  -- "chars" or "." * nout for the error; on error, the message must name the ufunc
  local function ours(name, nout, args)
    local ok, r = pcall(function() return table.pack(U[name](table.unpack(args))) end)
    if not ok then
      if not tostring(r):find(name, 1, true) then return "!" .. tostring(r) end
      return string.rep(".", nout)
    end
    local s = {}
    for k = 1, nout do s[k] = r[k] and CH[r[k].dtype] or "?" end
    return table.concat(s)
  end

  local function check(bad, name, nout, want, arglists, labels)
    for i, args in ipairs(arglists) do
      local w = want:sub((i - 1) * nout + 1, i * nout)
      local g = ours(name, nout, args)
      if g ~= w then
        bad[#bad + 1] = string.format("%s(%s): %s, NumPy %s", name, labels[i],
          g:sub(1, 1) == "!" and "error without the ufunc's name: " .. g:sub(2) or
          g:find(".", 1, true) and "error" or g, w:find(".", 1, true) and "error" or w)
      end
    end
  end

  local names = {}
  for name in pairs(R.types) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local ty = R.types[name]
    it(name, function()
      assert.is_truthy(OPS[name], "no op row " .. name)
      local D, bad = R.dtypes, {}
      if ty.unary then
        local args, labels = {}, {}
        for i, d in ipairs(D) do args[i], labels[i] = { arrays[d] }, d end
        check(bad, name, ty.nout, ty.unary, args, labels)
      end
      if ty.binary then
        local args, labels = {}, {}
        for _, a in ipairs(D) do
          for _, b in ipairs(D) do args[#args + 1], labels[#labels + 1] = { arrays[a], arrays[b] }, a .. ", " .. b end
        end
        check(bad, name, ty.nout, ty.binary, args, labels)
        for key, scalar in pairs { int = 1, float = 1.5, bool = true } do
          args, labels = {}, {}
          for i, d in ipairs(D) do args[i], labels[i] = { arrays[d], scalar }, d .. ", " .. tostring(scalar) end
          check(bad, name, ty.nout, ty[key], args, labels)
        end
        args, labels = {}, {}
        for i, d in ipairs(D) do args[i], labels[i] = { 1, arrays[d] }, "1, " .. d end
        check(bad, name, ty.nout, ty.rint, args, labels)
      end
      if ty.clip then
        local args, labels = {}, {}
        for i, d in ipairs(D) do args[i], labels[i] = { arrays[d], arrays[d], arrays[d] }, d .. " x3" end
        check(bad, name, ty.nout, ty.clip, args, labels)
      end
      report(bad, name)
    end)
  end
end)

-- Host values --------------------------------------------------------------
describe("ufunc values on the host match NumPy", function()
  local names = {}
  for name in pairs(OPS) do if not ROWS[name].novalues then names[#names + 1] = name end end
  table.sort(names)
  for _, name in ipairs(names) do
    for _, t in ipairs(OPS[name].types) do
      it(name .. " " .. t, function()
        local cols, dts, describe_case = cases(name, t)
        local ins = {}
        for k, col in ipairs(cols) do ins[k] = mk(H, col, dts[k]) end
        local outs = run_op(name, t, ins)
        local want = R.values[name][t]
        local bad = {}
        for k, o in ipairs(outs) do
          local tol = ROWS[name][1]
          if COMPLEX_REAL[o.dtype] or COMPLEX_REAL[t] then tol = ROWS[name].c or tol end
          if KIND[o.dtype] ~= "f" and KIND[o.dtype] ~= "c" then tol = 0 end
          for _, m in ipairs(compare(read(o), want[k], o.dtype, tol, describe_case, power_raise(cols))) do
            bad[#bad + 1] = (#outs > 1 and "out" .. k .. " " or "") .. m
          end
        end
        report(bad, name .. " " .. t)
      end)
    end
  end
end)

-- Semantics the issue names, as rows ---------------------------------------
local function val(x) return read(x)[1] end

helper.each_device(function(xp)
  describe("ufunc semantics", function()
    -- {op, dtype, a, b, want}: integer division by zero is 0 (NumPy 2),
    -- float division by zero gives inf / nan with the signs of IEEE and
    -- NumPy's npy_divmod
    local DIV0 = {
      { "floor_divide", "int8", 7, 0, 0 }, { "floor_divide", "int64", -7, 0, 0 },
      { "floor_divide", "uint32", 7, 0, 0 }, { "remainder", "int16", -7, 0, 0 },
      { "remainder", "uint64", 7, 0, 0 }, { "fmod", "int32", 7, 0, 0 }, { "fmod", "uint8", 7, 0, 0 },
      { "true_divide", "int32", 7, 0, inf }, { "true_divide", "int32", -7, 0, -inf },
      { "true_divide", "int64", 0, 0, nan },
      { "true_divide", "float32", 1.0, 0.0, inf }, { "true_divide", "float64", 1.0, -0.0, -inf },
      { "true_divide", "float16", 0.0, 0.0, nan },
      { "floor_divide", "float64", 1.0, 0.0, inf }, { "floor_divide", "float32", -1.0, 0.0, -inf },
      { "floor_divide", "float64", 0.0, 0.0, nan },
      { "remainder", "float64", 1.0, 0.0, nan }, { "fmod", "float32", 1.0, 0.0, nan },
      { "floor_divide", "int8", -128, -1, -128 }, { "remainder", "int8", -128, -1, 0 },
      { "floor_divide", "int64", math.mininteger, -1, math.mininteger },
    }
    it("division by zero: integers give 0, floats inf / nan", function()
      local bad = {}
      for _, r in ipairs(DIV0) do
        local got = val(U[r[1]](xp.array({ r[3] }, r[2]), xp.array({ r[4] }, r[2])))
        if not same(got, r[5], "float64", 0) then
          bad[#bad + 1] = string.format("%s(%s %s, %s) = %s, want %s", r[1], r[2], fmtv(r[3]), fmtv(r[4]),
            fmtv(got), fmtv(r[5]))
        end
      end
      report(bad, "division by zero")
    end)

    it("divmod by zero gives (0, 0) for integers", function()
      for _, dt in ipairs { "int8", "int32", "int64", "uint16", "uint64" } do
        local q, m = U.divmod(xp.array({ 5, 0 }, dt), xp.array({ 0, 0 }, dt))
        assert.are.same({ 0, 0 }, read(q), dt)
        assert.are.same({ 0, 0 }, read(m), dt)
      end
    end)

    -- {op, dtype, operands..., want}: signed integer arithmetic wraps
    local WRAP = {
      { "add", "int8", 127, 1, -128 }, { "subtract", "int8", -128, 1, 127 },
      { "multiply", "int16", 300, 300, 24464 }, { "add", "int32", 2147483647, 1, -2147483648 },
      { "multiply", "int32", 2147483647, 2, -2 }, { "subtract", "int64", math.mininteger, 1, math.maxinteger },
      { "add", "int64", math.maxinteger, math.maxinteger, -2 }, { "negative", "int8", -128, -128 },
      { "negative", "int64", math.mininteger, math.mininteger }, { "absolute", "int16", -32768, -32768 },
      { "square", "int8", 16, 0 }, { "power", "int32", 3, 21, 1870418611 }, { "add", "uint8", 255, 1, 0 },
      { "subtract", "uint16", 0, 1, 65535 }, { "left_shift", "int8", 1, 7, -128 },
      { "left_shift", "int32", 1, 32, 0 }, { "right_shift", "int16", -32768, 20, -1 },
      { "lcm", "int8", 64, 3, -64 },
    }
    it("signed and unsigned integer overflow wraps", function()
      local bad = {}
      for _, r in ipairs(WRAP) do
        local ins = {}
        for k = 3, #r - 1 do ins[#ins + 1] = xp.array({ r[k] }, r[2]) end
        local got = val(U[r[1]](table.unpack(ins)))
        if got ~= r[#r] then
          bad[#bad + 1] = string.format("%s %s(%s) = %s, want %d", r[1], r[2],
            table.concat({ table.unpack(r, 3, #r - 1) }, ", "), fmtv(got), r[#r])
        end
      end
      report(bad, "wrap-around")
    end)

    it("floor_divide and remainder agree with Lua's // and % on integers", function()
      local vs = { 0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 13, -13, 100, -100, 12345, -54321,
                   math.maxinteger, math.mininteger, math.maxinteger - 1, math.mininteger + 1 }
      local a, b, q, m = {}, {}, {}, {}
      for _, x in ipairs(vs) do
        for _, y in ipairs(vs) do
          if y ~= 0 then
            a[#a + 1], b[#b + 1], q[#q + 1], m[#m + 1] = x, y, x // y, x % y
          end
        end
      end
      local A, B = xp.array(a, "int64"), xp.array(b, "int64")
      local gq, gm = read(U.floor_divide(A, B)), read(U.remainder(A, B))
      local dq, dm = U.divmod(A, B)
      dq, dm = read(dq), read(dm)
      local bad = {}
      for i = 1, #a do
        if gq[i] ~= q[i] or gm[i] ~= m[i] or dq[i] ~= q[i] or dm[i] ~= m[i] then
          bad[#bad + 1] = string.format("%d, %d: floor_divide %d remainder %d divmod (%d, %d), Lua %d %d",
            a[i], b[i], gq[i], gm[i], dq[i], dm[i], q[i], m[i])
        end
      end
      report(bad, "int64 // and %")
      -- narrower dtypes: Lua's result on values that fit
      for _, dt in ipairs { "int8", "int16", "int32" } do
        local lim = 1 << (8 * ISZ[dt] - 1)
        local a2, b2 = {}, {}
        for i = 1, #a do
          if a[i] >= -lim and a[i] < lim and b[i] >= -lim and b[i] < lim and not (a[i] == -lim and b[i] == -1) then
            a2[#a2 + 1], b2[#b2 + 1] = a[i], b[i]
          end
        end
        local A2, B2 = xp.array(a2, dt), xp.array(b2, dt)
        local q2, m2 = read(U.floor_divide(A2, B2)), read(U.remainder(A2, B2))
        for i = 1, #a2 do
          assert.are.equal(a2[i] // b2[i], q2[i], dt .. " " .. a2[i] .. " // " .. b2[i])
          assert.are.equal(a2[i] % b2[i], m2[i], dt .. " " .. a2[i] .. " % " .. b2[i])
        end
      end
    end)

    it("floor_divide and remainder agree with Lua's // and % on floats (signs included)", function()
      local vs = { 0.0, -0.0, 0.5, -0.5, 0.75, -0.75, 1, -1, 2.5, -2.5, 3, -3, 7.25, -7.25, 100, -100, 2.0 ^ 100,
                   -2.0 ^ -10 } -- a / b exact or far from an integer: Lua rounds a / b first
      local a, b = {}, {}
      for _, x in ipairs(vs) do
        for _, y in ipairs(vs) do if y ~= 0 then a[#a + 1], b[#b + 1] = x, y end end
      end
      local A, B = xp.array(a, "float64"), xp.array(b, "float64")
      local gq, gm = read(U.floor_divide(A, B)), read(U.remainder(A, B))
      local bad = {}
      for i = 1, #a do
        local x, y = a[i], b[i]
        local q, m = x // y, x % y
        -- the value; a zero remainder takes the divisor's sign in NumPy
        -- (copysign(0, b)) where Lua keeps fmod's, the dividend's
        local mw = m == 0 and (y < 0 and -0.0 or 0.0) or m
        if not same(gm[i], mw, "float64", 0) then
          bad[#bad + 1] = string.format("remainder(%s, %s) = %s, Lua %s", fmtv(x), fmtv(y), fmtv(gm[i]), fmtv(m))
        end
        if not (same(gq[i], q, "float64", 0) or (q == 0 and gq[i] == 0)) then
          bad[#bad + 1] = string.format("floor_divide(%s, %s) = %s, Lua %s", fmtv(x), fmtv(y), fmtv(gq[i]), fmtv(q))
        end
      end
      report(bad, "float64 // and %")
    end)

    it("floor_divide is the floor of the exact quotient (NumPy), where Lua's // floors the rounded a/b", function()
      -- 1 / 0.1 rounds to 10.0 exactly; the exact quotient is 9.99..: NumPy
      -- and we give 9 (remainder 0.0999...), Lua's 1 // 0.1 is 10
      assert.are.equal(10.0, 1 // 0.1)
      assert.are.equal(9.0, val(U.floor_divide(xp.array({ 1.0 }), xp.array({ 0.1 }))))
      assert.are.equal(1 % 0.1, val(U.remainder(xp.array({ 1.0 }), xp.array({ 0.1 }))))
      -- a finite x by an infinite divisor of the other sign: NumPy (Python)
      -- gives -1 and remainder ±inf, Lua's floor(x / y) gives -0.0
      assert.are.equal(-0.0, 0.5 // -inf)
      assert.are.equal(-1.0, val(U.floor_divide(xp.array({ 0.5 }), xp.array({ -inf }))))
      assert.are.equal(-inf, val(U.remainder(xp.array({ 0.5 }), xp.array({ -inf }))))
      assert.are.equal(0.0, val(U.floor_divide(xp.array({ 0.5 }), xp.array({ inf }))))
    end)

    -- {op, a, b, want}: maximum/minimum propagate NaN, fmax/fmin ignore it
    local NANS = {
      { "maximum", nan, 1, nan }, { "maximum", 1, nan, nan }, { "minimum", nan, 1, nan },
      { "minimum", 1, nan, nan }, { "fmax", nan, 1, 1 }, { "fmax", 1, nan, 1 }, { "fmin", nan, -1, -1 },
      { "fmin", -1, nan, -1 }, { "fmax", nan, nan, nan }, { "fmin", nan, nan, nan },
      { "maximum", -inf, nan, nan }, { "fmax", -inf, nan, -inf }, { "maximum", 0.0, -0.0, -0.0 },
      { "maximum", -0.0, 0.0, 0.0 }, { "fmax", 0.0, -0.0, 0.0 }, { "fmin", -0.0, 0.0, -0.0 },
    }
    it("NaN propagation: maximum/minimum propagate, fmax/fmin ignore", function()
      local bad = {}
      for _, dt in ipairs { "float16", "float32", "float64" } do
        for _, r in ipairs(NANS) do
          local got = val(U[r[1]](xp.array({ r[2] }, dt), xp.array({ r[3] }, dt)))
          if not same(got, r[4], dt, 0) then
            bad[#bad + 1] = string.format("%s %s(%s, %s) = %s, want %s", dt, r[1], fmtv(r[2]), fmtv(r[3]),
              fmtv(got), fmtv(r[4]))
          end
        end
      end
      for _, dt in ipairs { "complex64", "complex128" } do
        local x, n = mk(xp, { 1, 2 }, dt), mk(xp, { 0, nan }, dt)
        for name, want in pairs { maximum = true, minimum = true, fmax = false, fmin = false } do
          for _, args in ipairs { { x, n }, { n, x } } do
            local g = read(U[name](args[1], args[2]))
            local isn = g[1] ~= g[1] or g[2] ~= g[2]
            if isn ~= want then bad[#bad + 1] = dt .. " " .. name .. ": nan " .. tostring(isn) end
          end
        end
      end
      report(bad, "NaN propagation")
    end)

    -- {op, dtype, operands..., want}: results that must be -0.0 or +0.0
    local ZEROS = {
      { "negative", 0.0, -0.0 }, { "negative", -0.0, 0.0 }, { "multiply", -0.0, 1.0, -0.0 },
      { "multiply", -0.0, -1.0, 0.0 }, { "add", -0.0, -0.0, -0.0 }, { "add", -0.0, 0.0, 0.0 },
      { "subtract", 0.0, 0.0, 0.0 }, { "subtract", -0.0, 0.0, -0.0 }, { "sqrt", -0.0, -0.0 },
      { "floor", -0.5, -1.0 }, { "ceil", -0.5, -0.0 }, { "rint", -0.4, -0.0 }, { "trunc", -0.7, -0.0 },
      { "true_divide", 1.0, -0.0, -inf }, { "reciprocal", -0.0, -inf }, { "absolute", -0.0, 0.0 },
      { "copysign", 1.0, -0.0, -1.0 }, { "copysign", 0.0, -1.0, -0.0 }, { "sign", -0.0, 0.0 },
      { "remainder", -4.0, 2.0, 0.0 }, { "remainder", 4.0, -2.0, -0.0 }, { "fmod", -4.0, 2.0, -0.0 },
      { "floor_divide", -0.0, 1.0, -0.0 }, { "floor_divide", 0.5, -1.0, -1.0 },
      { "sin", -0.0, -0.0 }, { "tan", -0.0, -0.0 }, { "arctan", -0.0, -0.0 }, { "tanh", -0.0, -0.0 },
      { "expm1", -0.0, -0.0 }, { "log1p", -0.0, -0.0 }, { "arcsinh", -0.0, -0.0 }, { "cbrt", -0.0, -0.0 },
      { "arctan2", -0.0, 1.0, -0.0 }, { "arctan2", 0.0, -1.0, math.pi }, { "ldexp", -0.0, 5, -0.0 },
      { "heaviside", -0.0, 0.5, 0.5 }, { "nextafter", 0.0, -1.0, -5e-324 },
      { "spacing", -0.0, 5e-324 }, { "spacing", -1.0, -2.0^-52 },
    }
    it("signed zeros", function()
      local bad = {}
      for _, r in ipairs(ZEROS) do
        local ins = {}
        for k = 2, #r - 1 do
          ins[#ins + 1] = xp.array({ r[k] }, (r[1] == "ldexp" and k == 3) and "int64" or "float64")
        end
        local got = val(U[r[1]](table.unpack(ins)))
        if not same(got, r[#r], "float64", 0) then
          local a = {}
          for k = 2, #r - 1 do a[#a + 1] = fmtv(r[k]) end
          bad[#bad + 1] = string.format("%s(%s) = %s, want %s", r[1], table.concat(a, ", "), fmtv(got), fmtv(r[#r]))
        end
      end
      report(bad, "signed zeros")
    end)

    -- float16 loops compute in float32 and round once: the float16 result
    -- is the float32 loop's result rounded, for every float16 bit pattern
    -- (step 7), operands paired with the reversed list
    local F16_ONCE = { "add", "subtract", "multiply", "true_divide", "square", "sqrt", "reciprocal", "hypot",
                       "deg2rad", "rad2deg", "exp", "log", "sin", "arctan2", "logaddexp", "cbrt", "power",
                       "remainder", "floor_divide", "fmod" }
    it("float16 is computed in float32 and rounded once", function()
      local n = 65536 // 7
      local bits = xp.arange(0, 7 * n, 7, "int32")
      local a16 = SV(U.copy(bits, { dtype = "uint16", casting = "unsafe" }), { n }, { 2 }, 0, "float16")
      local b16 = SV(a16, { n }, { -2 }, 2 * (n - 1))
      local a32, b32 = U.copy(a16, { dtype = "float32" }), U.copy(b16, { dtype = "float32" })
      local bad = {}
      for _, name in ipairs(F16_ONCE) do
        local x16 = OPS[name].nin == 1 and { a16 } or { a16, b16 }
        local x32 = OPS[name].nin == 1 and { a32 } or { a32, b32 }
        local got = read(U[name](table.unpack(x16)))
        local want = read(U.copy(U[name](table.unpack(x32)), { dtype = "float16", casting = "unsafe" }))
        local nb = 0
        for i = 1, n do
          if not same(got[i], want[i], "float16", 0) then
            nb = nb + 1
            if nb == 1 then
              bad[#bad + 1] = string.format("%s float16 case %d: %s, float32 rounded %s", name, i,
                fmtv(got[i]), fmtv(want[i]))
            end
          end
        end
      end
      report(bad, "float16 rounding")
    end)

    it("_arange (arange/linspace's body) is start + i * step in the loop dtype", function()
      local bad = {}
      for _, r in ipairs { { "int8", 5, 3, 6 }, { "int64", -7, 1000, 5 }, { "uint8", 250, 3, 4 },
                           { "float32", 0.5, 0.25, 5 }, { "float64", 1.0, 0.1, 7 }, { "complex128", 1, 2, 3 } } do
        local dt, start, step, n = r[1], r[2], r[3], r[4]
        local got = read(U._arange(xp.full(n, start, dt), xp.full(n, step, dt)))
        for i = 0, n - 1 do
          local want
          if KIND[dt] == "f" then
            want = start + i * step
          elseif KIND[dt] == "c" then
            want = start + i * step
          else
            local bitsz = 8 * ISZ[dt]
            want = (start + i * step) & ((1 << bitsz) - 1)
            if KIND[dt] == "i" and want >= (1 << (bitsz - 1)) then want = want - (1 << bitsz) end
          end
          local g = KIND[dt] == "c" and got[2 * i + 1] or got[i + 1]
          if g ~= want then bad[#bad + 1] = string.format("%s element %d: %s, want %s", dt, i, fmtv(g), fmtv(want)) end
        end
      end
      report(bad, "_arange")
    end)
  end)

  -- Bad inputs: a clear error naming the function -------------------------
  describe("ufunc errors", function()
    local f = xp.array({ 1.5, 2.5 })
    local i32 = xp.array({ 1, 2 }, "int32")
    local ERRS = {
      { "bitwise op on floats", function() return ga.bitwise_and(f, 1) end, "bitwise_and", "float64" },
      { "shift on floats", function() return ga.left_shift(f, f) end, "left_shift", "float64" },
      { "gcd on floats", function() return ga.gcd(f, 2) end, "gcd", "float64" },
      { "unknown option", function() return ga.add(f, 1, { foo = 1 }) end, "add", "foo" },
      { "bad dtype option", function() return ga.add(f, 1, { dtype = "float33" }) end, "add", "float33" },
      { "bad casting option", function() return ga.add(f, 1, { casting = "sometimes" }) end, "add", "casting" },
      { "too few operands", function() return ga.add(f) end, "add", "2 operands" },
      { "too few operands for clip", function() return U.clip(f, 0) end, "clip", "3 operands" },
      { "clip without bounds", function() return ga.clip(f) end, "clip", "bound" },
      { "too many operands", function() return ga.add(f, 1, 2) end, "add", "2 operands" },
      { "extra argument after options", function() return ga.sqrt(f, {}, 1) end, "sqrt", "1 operand" },
      { "operand of the wrong type", function() return ga.add(f, "x") end, "add", "operand #2" },
      { "out of the wrong shape", function() return ga.add(f, 1, { out = xp.zeros(3) }) end,
        "add", "(3,)", "(2,)" },
      { "out not an array", function() return ga.add(f, 1, { out = 5 }) end, "add", "out" },
      { "divmod's out not a table", function() return ga.divmod(f, 1, { out = f }) end, "divmod", "table" },
      { "in-place unsafe cast", function() return ga.add(i32, 1.5, { out = i32 }) end, "add", "float64", "int32" },
      { "out dtype too narrow", function() return ga.sqrt(f, { out = xp.zeros(2, "float32"), casting = "safe" }) end,
        "sqrt", "float64", "float32" },
      { "Lua integer out of bounds", function() return ga.add(xp.array({ 1 }, "int8"), 1000) end,
        "add", "1000", "int8" },
      { "boolean negative", function() return ga.negative(xp.array({ true })) end, "negative", "bool" },
      { "freed operand", function() local x = xp.zeros(2); x:free(); return ga.exp(x) end, "exp", "freed" },
    }
    for _, e in ipairs(ERRS) do
      it(e[1], function() helper.assert_error(e[2], table.unpack(e, 3)) end)
    end

    if helper.has_gpu() and xp == ga then
      it("out on the other device", function()
        helper.assert_error(function() return ga.add(f, 1, { out = H.zeros(2) }) end, "add", "cpu", "cuda")
        helper.assert_error(function() return ga.add(H.array({ 1.5, 2.5 }), 1, { out = ga.zeros(2) }) end,
          "add", "cpu", "cuda")
      end)
      it("operands on two devices", function()
        helper.assert_error(function() return ga.add(f, H.array({ 1.0, 2.0 })) end, "add", "cpu", "cuda")
      end)
    end
  end)
end)

describe("core._strided_view", function()
  local x = H.array({ 1, 2, 3, 4, 5, 6 }, "float64")
  it("makes strided, reversed, broadcast and reinterpreted views of a buffer", function()
    assert.are.same({ 2, 4, 6 }, SV(x, { 3 }, { 16 }, 8):totable())
    assert.are.same({ 5, 3, 1 }, SV(x, { 3 }, { -16 }, 32):totable())
    assert.are.same({ { 1, 2 }, { 1, 2 } }, SV(x, { 2, 2 }, { 0, 8 }, 0):totable())
    assert.are.same({ { 3, 4 }, { 5, 6 } }, SV(x, { 2 }, { 16 }, 16, "complex128"):totable())
    local v = SV(x, { 3 }, { 16 }, 8)
    assert.are.equal(x, v.base)
    assert.are.same({ 4, 6 }, SV(v, { 2 }, { 16 }, 16):totable()) -- offset from v's first element
  end)
  local BAD = {
    { { 4 }, { 16 }, 8, nil, "outside the buffer" }, { { 3 }, { -16 }, 24, nil, "outside the buffer" },
    { { 1 }, { 8 }, -8, nil, "outside the buffer" }, { { 2 }, { 4 }, 0, nil, "multiple of the itemsize" },
    { { 1 }, { 8 }, 4, nil, "multiple of the itemsize" }, { { 2, 2 }, { 8 }, 0, nil, "strides" },
    { { 4 }, { 16 }, 0, "complex128", "outside the buffer" }, { { -1 }, { 8 }, 0, nil, "bad shape" },
  }
  for i, b in ipairs(BAD) do
    it("refuses bad view " .. i .. " (" .. b[5] .. ")", function()
      helper.assert_error(function() return SV(x, b[1], b[2], b[3], b[4]) end, "_strided_view", b[5])
    end)
  end
end)

-- GPU against the host -----------------------------------------------------
if helper.has_gpu() then
  local shard_k, shard_n = (os.getenv("UFUNC_GPU_SHARD") or "1/1"):match("(%d+)/(%d+)")
  shard_k, shard_n = tonumber(shard_k), tonumber(shard_n)

  -- The operands of a case column in a layout, made by xp; every layout
  -- has the column's values in the same logical order (flattened C order)
  -- except "broadcast", whose logical order is given by bcast().
  local LAYOUTS = {
    contiguous = function(xp, col, dt) return mk(xp, col, dt) end,
    -- every second element of an array twice as long
    stepped = function(xp, col, dt)
      local w = COMPLEX_REAL[dt] and 2 or 1
      local big = {}
      for i = 1, #col, w do
        for k = 0, w - 1 do big[#big + 1] = col[i + k] end
        for k = 0, w - 1 do big[#big + 1] = col[i + k] end
      end
      local n = #col // w
      return SV(mk(xp, big, dt), { n }, { 2 * ISZ[dt] }, 0)
    end,
    -- an F-ordered (n/2, 2) view: the transpose of a C-contiguous (2, n/2)
    transposed = function(xp, col, dt)
      local w = COMPLEX_REAL[dt] and 2 or 1
      local n = #col // w
      local h = n // 2
      local base = {}
      for r = 0, 1 do
        for i = 0, h - 1 do
          local src = (i * 2 + r) * w
          for k = 1, w do base[#base + 1] = col[src + k] end
        end
      end
      return SV(mk(xp, base, dt), { h, 2 }, { ISZ[dt], h * ISZ[dt] }, 0), h * 2 * w
    end,
  }
  local LAYOUT_NAMES = { "contiguous", "stepped", "transposed", "broadcast" }

  local names, k = {}, 0
  for name in pairs(OPS) do if not ROWS[name].novalues then names[#names + 1] = name end end
  table.sort(names)
  describe("ufunc GPU vs host", function()
    for _, name in ipairs(names) do
      for _, t in ipairs(OPS[name].types) do
        k = k + 1
        if (k - 1) % shard_n == shard_k - 1 then
          it(name .. " " .. t, function()
            local cols, dts, describe_case = cases(name, t)
            local bad = {}
            for _, lay in ipairs(LAYOUT_NAMES) do
              local function make(xp)
                local ins = {}
                if lay == "broadcast" then
                  -- the first operand a stride-0 (3, n) view; the others
                  -- (n,) arrays that the ufunc broadcasts itself
                  for j, col in ipairs(cols) do
                    local c = mk(xp, col, dts[j])
                    ins[j] = j == 1 and SV(c, { 3, c.size }, { 0, ISZ[dts[j]] }, 0) or c
                  end
                else
                  for j, col in ipairs(cols) do ins[j] = LAYOUTS[lay](xp, col, dts[j]) end
                end
                return run_op(name, t, ins)
              end
              local ok, hres = pcall(make, H)
              if not ok then error("host " .. lay .. ": " .. tostring(hres)) end
              local dok, dres = pcall(make, ga)
              if not dok then
                bad[#bad + 1] = lay .. ": GPU error " .. tostring(dres)
              else
                for o = 1, #hres do
                  local dt = hres[o].dtype
                  if dres[o].dtype ~= dt or dres[o].device.id < 0 then
                    bad[#bad + 1] = string.format("%s out%d: %s on %s, host %s", lay, o, dres[o].dtype,
                      dres[o].device, dt)
                  else
                    local tol = ROWS[name][1]
                    if COMPLEX_REAL[dt] or COMPLEX_REAL[t] then
                      tol = ROWS[name].gpu_c or ROWS[name].c or tol
                    end
                    if KIND[dt] ~= "f" and KIND[dt] ~= "c" then tol = 0
                    elseif tol > 0 then tol = tol + GPU_EXTRA_ULP end
                    local n = #cols[1] // (COMPLEX_REAL[dts[1]] and 2 or 1)
                    local function desc(i) return describe_case((i - 1) % n + 1) end
                    local g, hv = read(dres[o]), read(hres[o])
                    for _, m in ipairs(compare(g, hv, dt, tol, desc, function(i2, gv)
                      return gv == hv[i2], fmtv(gv), fmtv(hv[i2]) end)) do
                      bad[#bad + 1] = lay .. (#hres > 1 and " out" .. o or "") .. ": " ..
                        m:gsub(", NumPy ", ", host ")
                    end
                  end
                end
              end
            end
            report(bad, name .. " " .. t .. " GPU vs host", true)
          end)
        end
      end
    end
  end)
end
