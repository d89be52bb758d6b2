-- Reductions (issue 5): the rows of src/base/ga_reduce.def through ga.X, the
-- methods and ga.host.X, the functions composed in lua/gpuarray/reduce.lua
-- (var std nanvar nanstd ptp average trace median, nanargmax/nanargmin's
-- All-NaN error) and ga.linalg.norm.
--
-- NumPy's answers are in spec/data/reduce_ref.lua, written by
-- tools/gen_reduce_ref.py (CI has no NumPy): every function on every dtype
-- NumPy allows, over no axis, each axis, negative axes, lists of axes and
-- keepdims, on a 3x4 matrix (contiguous, transposed and stepped here), a
-- 2x3x2 array, a broadcast row, NaN/inf data, empty and 0-d inputs, plus
-- ddof=, dtype=, weights= and the norm orders.  Hand-worked rows follow,
-- then the options and every bad input.  Each case runs on the host and,
-- when a GPU exists, on it (GPU results also compared with the host's).
local helper = require "spec.helper"
-- SPEC_SHARD=k/n: every n-th case (tools/run_specs.sh spreads the file)
local it = helper.shard_it(it)
local ga = helper.ga
local REF = dofile("spec/data/reduce_ref.lua")

local REAL = { complex64 = "float32", complex128 = "float64" }
local KIND = helper.KIND
local inf = math.huge

local function kindname(dt)
  return ({ b = "bool", i = "int", u = "uint", f = "float", c = "complex" })[KIND[dt]]
end

-- The input `name` of the data file as an array of dtype dt on xp, in a
-- layout: "C" contiguous, "T" transposed (F-ordered strides), "S" stepped
-- (every other row of a larger array).  "R" inputs are broadcast to 3x4.
local function make(xp, name, dt, layout)
  local inp = REF.inputs[name][kindname(dt)]
  local shape = inp.shape
  local x
  if REAL[dt] then
    local s2 = {}
    for i, v in ipairs(shape) do s2[i] = v end
    s2[#s2 + 1] = 1
    s2[#s2 + 1] = 2
    x = xp.array(inp.values, REAL[dt]):reshape(s2):view(dt):reshape(shape)
  elseif #inp.values == 0 then
    x = xp.empty(shape, dt)
  else
    x = xp.array(inp.values, dt):reshape(shape)
  end
  if name == "R" then return ga.broadcast_to(x, { 3, 4 }) end
  if layout == "T" and x.ndim >= 2 then
    x = ga.ascontiguousarray(x.T).T
  elseif layout == "S" and x.ndim >= 1 then
    local big = {}
    for i, v in ipairs(shape) do big[i] = v end
    big[1] = 2 * big[1]
    local z = xp.zeros(big, dt)
    z[{ { 1, -1, 2 } }] = x
    x = z[{ { 1, -1, 2 } }]
  end
  return x
end

local function call_ref(xp, c, x)
  local fn, opts = c[1], {}
  for k, v in pairs(c[4]) do opts[k] = v end
  if opts.ord == "inf" then opts.ord = inf elseif opts.ord == "-inf" then opts.ord = -inf end
  if opts.weights then
    opts.weights = xp.array(opts.weights):reshape(opts.wshape)
    opts.wshape = nil
  end
  if fn == "norm" then return ga.linalg.norm(x, opts) end
  if fn == "trace" then return ga.trace(x, opts) end
  return ga[fn](x, opts)
end

-- result -> flat list as in the data file
local function flat(r)
  return ga.asnumpy(r):reshape({ -1 }):totable()
end

-- looser tolerances where NumPy's own rounding differs from ours
local function tol(fn, dt)
  if dt == "float16" then
    if fn == "var" or fn == "std" or fn == "nanvar" or fn == "nanstd" or fn == "norm" then
      return { rtol = 1e-2, atol = 1e-2, equal_nan = true }
    end
    return { rtol = 2e-3, atol = 2e-3, equal_nan = true }
  end
  return { equal_nan = true, dtype = dt }
end

-- the data file's cases grouped by function and input dtype
local groups, order = {}, {}
for _, c in ipairs(REF.cases) do
  local key = c[1] .. " " .. c[2]
  if not groups[key] then groups[key] = {}; order[#order + 1] = key end
  table.insert(groups[key], c)
end

local function describe_case(c)
  local parts = {}
  for k, v in pairs(c[4]) do
    parts[#parts + 1] = k .. "=" .. (type(v) == "table" and "{" .. table.concat(v, ",") .. "}" or tostring(v))
  end
  table.sort(parts)
  return string.format("%s(%s %s {%s})", c[1], c[2], c[3], table.concat(parts, ", "))
end

-- nil, or what is wrong with case c on xp in a layout
local function check_ref_case(xp, c, layout)
  local what = describe_case(c) .. " layout " .. layout
  local x = make(xp, c[3], c[2], layout)
  local ok, r = pcall(call_ref, xp, c, x)
  if c.raise then
    if ok then return what .. ": NumPy raises, got " .. tostring(r) end
    return nil
  end
  if not ok then return what .. ": " .. tostring(r) end
  if c.dtype ~= r.dtype then return what .. ": dtype " .. r.dtype .. ", NumPy " .. c.dtype end
  if table.concat(c.shape, ",") ~= table.concat(r.shape, ",") then
    return what .. ": shape (" .. table.concat(r.shape, ",") .. "), NumPy (" .. table.concat(c.shape, ",") .. ")"
  end
  if xp == ga.host and r.device.id >= 0 then return what .. ": on " .. tostring(r.device) end
  local okc, msg = helper.allclose(flat(r), c.values, tol(c[1], c.dtype))
  if not okc then return what .. ": " .. msg end
  return nil
end


describe("reductions against NumPy " .. REF.numpy .. " (spec/data/reduce_ref.lua)", function()
  helper.each_device(function(xp)
    for _, key in ipairs(order) do
      it(key, function()
        local bad = {}
        for _, c in ipairs(groups[key]) do
          for _, layout in ipairs(c[3] == "A" and { "C", "T", "S" } or { "C" }) do
            bad[#bad + 1] = check_ref_case(xp, c, layout)
          end
        end
        assert.is_true(#bad == 0,
          #bad .. " case(s) differ from NumPy:\n" .. table.concat(bad, "\n", 1, math.min(#bad, 12)))
      end)
    end
  end)
  it("the table covers every public reduction", function()
    local have = {}
    for _, c in ipairs(REF.cases) do have[c[1]] = true end
    for _, fn in ipairs { "sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin", "argmax",
                          "argmin", "nanargmax", "nanargmin", "all", "any", "count_nonzero", "mean",
                          "nanmean", "var", "std", "nanvar", "nanstd", "ptp", "median", "average",
                          "trace", "norm" } do
      assert.is_true(have[fn], fn)
    end
  end)
end)

-- Hand-worked values ------------------------------------------------------

local nan = 0 / 0

-- {what, fn(xp) -> result, expected value (a table for arrays), dtype}
local HAND = {
  { "int8 sums in int64 (no wrap)", function(xp) return ga.sum(xp.array({ 100, 100, 100 }, "int8")) end, 300, "int64" },
  { "uint8 sums in uint64", function(xp) return ga.sum(xp.array({ 200, 200 }, "uint8")) end, 400, "uint64" },
  { "bool sums to int64", function(xp) return ga.sum(xp.array({ true, true, false })) end, 2, "int64" },
  { "int8 dtype=int8 wraps as NumPy",
    function(xp) return ga.sum(xp.array({ 100, 100 }, "int8"), { dtype = "int8" }) end,
    -56, "int8" },
  { "float16: 4096 ones sum to 4096 (float32 accumulator)", function(xp) return ga.sum(xp.ones(4096, "float16")) end,
    4096, "float16" },
  { "float16: mean of 10000 ones is 1", function(xp) return ga.mean(xp.ones(10000, "float16")) end, 1, "float16" },
  { "float16: sum of 3000 0.1s", function(xp) return ga.sum(xp.full(3000, 0.1, "float16")) end, 299.75, "float16" },
  { "prod of int32", function(xp) return ga.prod(xp.array({ 2, 3, 7 }, "int32")) end, 42, "int64" },
  { "x:sum() on a 1-element array", function(xp) return xp.array({ 5.5 }):sum() end, 5.5, "float64" },
  { "x:sum(axis) method", function(xp) return xp.array({ { 1, 2 }, { 3, 4 } }):sum(2) end, { 3, 7 }, "int64" },
  { "0-d input, no axis", function(xp) return ga.sum(xp.array(5)) end, 5, "int64" },
  { "0-d input, keepdims", function(xp) return ga.max(xp.array(2.5), { keepdims = true }) end, 2.5, "float64" },
  { "argmax: the first of ties", function(xp) return ga.argmax(xp.array({ 1, 3, 3 })) end, 2, "int64" },
  { "argmax: the first NaN wins", function(xp) return ga.argmax(xp.array({ 1, nan, 5, nan })) end, 2, "int64" },
  { "argmin: the first NaN wins", function(xp) return ga.argmin(xp.array({ 1, -inf, nan })) end, 3, "int64" },
  { "argmin: -inf", function(xp) return ga.argmin(xp.array({ 1, -inf, 2 })) end, 2, "int64" },
  { "argmax of a 2-D array: flat position",
    function(xp) return ga.argmax(xp.array({ { 1, 2 }, { 9, 0 } })) end, 3, "int64" },
  { "nanargmax skips NaN", function(xp) return ga.nanargmax(xp.array({ nan, 2, 7, nan })) end, 3, "int64" },
  { "max propagates NaN", function(xp) return ga.max(xp.array({ 1, nan, inf })) end, nan, "float64" },
  { "max with inf", function(xp) return ga.max(xp.array({ 1, inf, -inf }, "float32")) end, inf, "float32" },
  { "nanmax of all-NaN is NaN", function(xp) return ga.nanmax(xp.array({ nan, nan })) end, nan, "float64" },
  { "nanmin ignores NaN", function(xp) return ga.nanmin(xp.array({ nan, 3, -inf })) end, -inf, "float64" },
  { "mean of an empty array is NaN", function(xp) return ga.mean(xp.zeros(0)) end, nan, "float64" },
  { "sum over an empty axis", function(xp) return ga.sum(xp.zeros({ 2, 0 }), 2) end, { 0, 0 }, "float64" },
  { "prod over an empty axis", function(xp) return ga.prod(xp.zeros({ 2, 0 }, "int32"), 2) end, { 1, 1 }, "int64" },
  { "all of empty is true", function(xp) return ga.all(xp.zeros(0)) end, true, "bool" },
  { "any of empty is false", function(xp) return ga.any(xp.zeros(0)) end, false, "bool" },
  { "NaN is true for all/count_nonzero",
    function(xp) return ga.count_nonzero(xp.array({ nan, 0, 1 })) end, 2, "int64" },
  { "all with NaN", function(xp) return ga.all(xp.array({ nan, 1 })) end, true, "bool" },
  { "var", function(xp) return ga.var(xp.array({ 1, 2, 3, 4 })) end, 1.25, "float64" },
  { "var ddof=1", function(xp) return ga.var(xp.array({ 1, 2, 3, 4 }), { ddof = 1 }) end, 5 / 3, "float64" },
  { "var ddof=n gives inf", function(xp) return ga.var(xp.array({ 1, 2 }), { ddof = 2 }) end, inf, "float64" },
  { "var of a constant is 0", function(xp) return ga.var(xp.full(5, 0.1, "float32")) end, 0, "float32" },
  { "std of complex is real", function(xp) return ga.std(ga.add(xp.array({ 1, -1 }, "complex128"),
    ga.multiply(xp.array({ 1, -1 }, "complex128"), xp.array({ 0 }, "float64")))) end, 1, "float64" },
  { "nanvar ignores NaN", function(xp) return ga.nanvar(xp.array({ 1, nan, 3 })) end, 1, "float64" },
  { "nanstd ddof beyond the count is NaN",
    function(xp) return ga.nanstd(xp.array({ 1, nan }), { ddof = 1 }) end, nan, "float64" },
  { "ptp of int8 wraps as NumPy", function(xp) return ga.ptp(xp.array({ -128, 127 }, "int8")) end, -1, "int8" },
  { "ptp of floats", function(xp) return ga.ptp(xp.array({ { 1, 5.5 }, { -2, 0 } }), 1) end, { 3, 5.5 }, "float64" },
  { "median, odd count", function(xp) return ga.median(xp.array({ 7, 1, 3 })) end, 3, "float64" },
  { "median, even count", function(xp) return ga.median(xp.array({ 4, 1, 3, 2 }, "float32")) end, 2.5, "float32" },
  { "median with NaN is NaN", function(xp) return ga.median(xp.array({ 1, nan, 3 })) end, nan, "float64" },
  { "median over axis 1 of a transposed array",
    function(xp) return ga.median(xp.array({ { 1, 9 }, { 5, 2 }, { 3, 3 } }).T, 2) end,
    { 3, 3 }, "float64" },
  { "median leaves its input alone", function(xp)
      local x = xp.array({ 3, 1, 2 }); ga.median(x); return x end, { 3, 1, 2 }, "int64" },
  { "average without weights", function(xp) return ga.average(xp.array({ 1, 2, 6 })) end, 3, "float64" },
  { "average with weights",
    function(xp) return ga.average(xp.array({ 1, 2, 6 }), { weights = { 3, 0, 1 } }) end, 2.25, "float64" },
  { "trace", function(xp) return ga.trace(xp.array({ { 1, 2 }, { 3, 4 } }, "int8")) end, 5, "int64" },
  { "trace, offset beyond the matrix",
    function(xp) return ga.trace(xp.array({ { 1, 2 }, { 3, 4 } }), 5) end, 0, "int64" },
  { "trace method",
    function(xp) return xp.array({ { 1, 2 }, { 3, 4 } }, "float32"):trace{ offset = 1 } end, 2, "float32" },
  { "norm of a vector", function(xp) return ga.linalg.norm(xp.array({ 3, 4 })) end, 5, "float64" },
  { "norm inf", function(xp) return ga.linalg.norm(xp.array({ 3, -4 }), math.huge) end, 4, "float64" },
  { "norm -inf", function(xp) return ga.linalg.norm(xp.array({ 3, -4 }), -math.huge) end, 3, "float64" },
  { "norm 0 counts non-zeros", function(xp) return ga.linalg.norm(xp.array({ 3, 0, -4 }), 0) end, 2, "float64" },
  { "norm 1", function(xp) return ga.linalg.norm(xp.array({ 3, -4 }, "float32"), 1) end, 7, "float32" },
  { "norm 3", function(xp) return ga.linalg.norm(xp.array({ 1, 2 }), 3) end, 9 ^ (1 / 3), "float64" },
  { "norm of complex is real", function(xp) return ga.linalg.norm(xp.ones(4, "complex64")) end, 2, "float32" },
  { "Frobenius", function(xp) return ga.linalg.norm(xp.array({ { 1, 2 }, { 2, 4 } }), "fro") end, 5, "float64" },
  { "matrix 1-norm: max column sum",
    function(xp) return ga.linalg.norm(xp.array({ { 1, -2 }, { 3, 4 } }), 1) end, 6, "float64" },
  { "matrix inf-norm: max row sum",
    function(xp) return ga.linalg.norm(xp.array({ { 1, -2 }, { 3, 4 } }), math.huge) end, 7, "float64" },
  { "norm with keepdims",
    function(xp) return ga.linalg.norm(xp.array({ { 3, 4 } }), nil, 2, true) end, { { 5 } }, "float64" },
  { "a broadcast input", function(xp) return ga.sum(ga.broadcast_to(xp.array({ 1, 2 }, "int16"), { 1000, 2 }), 1) end,
    { 1000, 2000 }, "int64" },
  { "a stepped input", function(xp) return ga.sum(xp.arange(10)[{ { 1, -1, 2 } }]) end, 20, "int64" },
  { "a transposed input", function(xp) return ga.argmax(xp.array({ { 1, 9 }, { 5, 2 } }).T, 2) end, { 2, 1 }, "int64" },
  { "amax is max", function(xp) return ga.amax(xp.array({ 1, 5 })) end, 5, "int64" },
  { "amin is min", function(xp) return ga.amin(xp.array({ 1, 5 })) end, 1, "int64" },
}

describe("reductions: hand-worked values", function()
  helper.each_device(function(xp)
    for _, row in ipairs(HAND) do
      it(row[1], function()
        local r = row[2](xp)
        assert.are.equal(row[4], r.dtype)
        helper.assert_close(r, row[3], { equal_nan = true })
      end)
    end
  end)
  for _, row in ipairs(HAND) do
    it("GPU vs host: " .. row[1], function() helper.assert_gpu_vs_host(row[2], { equal_nan = true }) end)
  end
end)

-- Options ------------------------------------------------------------------

describe("reductions: options", function()
  helper.each_device(function(xp)
    local x = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32")
    it("axis as an argument, a list, in the options; negative; keepdims", function()
      assert.are.same({ 5, 7, 9 }, ga.sum(x, 1):totable())
      assert.are.same({ 6, 15 }, ga.sum(x, -1):totable())
      assert.are.equal(21, ga.sum(x, { 1, 2 }):item())
      assert.are.equal(21, ga.sum(x, { -1, 1 }):item())
      assert.are.same({ 6, 15 }, ga.sum(x, { axis = 2 }):totable())
      assert.are.same({ 2, 1 }, ga.sum(x, { axis = 2, keepdims = true }).shape)
      assert.are.same({ 1, 1 }, ga.sum(x, { keepdims = true }).shape)
      assert.are.same({}, ga.sum(x).shape)
      assert.are.equal(21, ga.sum(x, false):item())
      assert.are.same({ 2, 1 }, x:var{ axis = -1, keepdims = true }.shape)
      assert.are.same({ 1, 1 }, ga.median(x, { keepdims = true }).shape)
      assert.are.same({ 1, 3 }, ga.ptp(x, 1, { keepdims = true }).shape)
    end)
    it("a positional axis with an options table", function()
      assert.are.same({ 1, 3 }, ga.var(x, 1, { keepdims = true }).shape)
      local r = ga.sum(x, 1, { keepdims = true })
      assert.are.same({ { 5, 7, 9 } }, r:totable())
      assert.are.same({ 6, 15 }, ga.sum(x, nil, { axis = 2 }):totable())
      local ok, err = pcall(ga.sum, x, 1, { axis = 2 })
      assert.is_false(ok)
      assert.matches("sum: axis given twice", err)
    end)
    it("out= receives the result (cast to its dtype) and is returned", function()
      local o = xp.zeros(3, "float32")
      local r = ga.sum(x, { axis = 1, out = o })
      assert.is_true(rawequal(o, r))
      assert.are.same({ 5, 7, 9 }, o:totable())
      local o2 = xp.zeros(2, "int64")
      assert.is_true(rawequal(o2, ga.sum(x, { axis = 2, out = o2 })))
      assert.are.same({ 6, 15 }, o2:totable())
      local o3 = xp.zeros({}, "float64")
      assert.is_true(rawequal(o3, ga.var(x, { out = o3 })))
      helper.assert_close(o3, 35 / 12)
      local o4 = xp.zeros(2, "float32")
      assert.is_true(rawequal(o4, ga.std(x, 2, { out = o4, ddof = 1 })))
      helper.assert_close(o4, { 1, 1 })
      local o5 = xp.zeros(3)
      assert.is_true(rawequal(o5, ga.median(x, { axis = 1, out = o5 })))
      assert.are.same({ 2.5, 3.5, 4.5 }, o5:totable())
      local o6 = xp.zeros({}, "int64")
      assert.is_true(rawequal(o6, ga.trace(x, { out = o6 })))
      assert.are.equal(6, o6:item())
      local o7 = xp.zeros(3, "int32")
      assert.is_true(rawequal(o7, ga.ptp(x, 1, { out = o7 })))
      assert.are.same({ 3, 3, 3 }, o7:totable())
      local o8 = xp.zeros(2)
      assert.is_true(rawequal(o8, ga.nanvar(xp.array({ { 1, nan, 3 }, { 1, 1, 1 } }), 2, { out = o8 })))
      assert.are.same({ 1, 0 }, o8:totable())
    end)
    it("dtype= chooses the accumulator and result dtype", function()
      assert.are.equal("float32", ga.sum(x, { dtype = "float32" }).dtype)
      assert.are.equal("float32", ga.mean(x, { dtype = "float32" }).dtype)
      assert.are.equal("float32", ga.var(x, { dtype = "float32" }).dtype)
      assert.are.equal("float32", ga.std(x, { dtype = "f4" }).dtype)
      assert.are.equal("int8", ga.trace(x, { dtype = "int8" }).dtype)
      assert.are.equal("int16", ga.prod(x, { dtype = "int16" }).dtype)
      assert.are.equal(720, ga.prod(x, { dtype = "int16" }):item())
    end)
    it("ga.host.X and ga.X take Lua tables and numbers", function()
      assert.are.equal("cpu", helper.devstr(ga.host.sum({ 1, 2, 3 }).device))
      assert.are.equal(6, ga.host.sum({ 1, 2, 3 }):item())
      assert.are.equal(4, ga.host.max(4):item())
      helper.assert_close(ga.host.var({ 1, 3 }), 1)
      helper.assert_close(ga.host.linalg.norm({ 3, 4 }), 5)
      assert.are.equal(2, ga.host.median({ 1, 2, 9 }):item())
      assert.are.equal(6, ga.sum({ 1, 2, 3 }):item())
    end)
    it("the methods are the C closures themselves (no Lua wrapper)", function()
      local M = ga.core.ndarray_methods
      for _, name in ipairs { "sum", "prod", "max", "min", "argmax", "argmin", "all", "any", "mean",
                              "count_nonzero", "nansum", "nanprod", "nanmax", "nanmin" } do
        assert.is_true(rawequal(M[name], ga.core._reduce[name]), name)
        assert.is_true(rawequal(ga[name], ga.core._reduce[name]), name)
        assert.is_true(rawequal(ga.host[name], ga.core._reduce_host[name]), name)
      end
      -- amax/amin: C closures of the max/min rows that name themselves
      assert.are.equal("C", debug.getinfo(ga.amax, "S").what)
      assert.are.equal("C", debug.getinfo(ga.host.amin, "S").what)
      assert.is_table(ga.linalg)
      assert.is_table(ga.host.linalg)
    end)
    it("average: weights along an axis, axis lists, returned", function()
      local a = xp.array({ { 1, 2 }, { 3, 4 } })
      local avg, s = ga.average(a, 1, { weights = { 1, 3 }, returned = true })
      assert.are.same({ 2.5, 3.5 }, avg:totable())
      assert.are.same({ 4, 4 }, s:totable())
      local avg2, s2 = ga.average(a, { returned = true })
      assert.are.equal(2.5, avg2:item())
      assert.are.equal(4, s2:item())
      assert.are.same({ 2, 1 }, ga.average(a, 2, { weights = xp.array({ 1, 1 }), keepdims = true }).shape)
    end)
    it("a freed or foreign value is an error, not a crash", function()
      helper.assert_error(function() ga.var("abc") end, "var:")
      helper.assert_error(function() ga.linalg.norm(xp.zeros(2), {}, nil, nil, 1) end, "norm:")
    end)
  end)
end)

-- Bad inputs -----------------------------------------------------------------

describe("reductions: bad inputs", function()
  helper.each_device(function(xp)
    local x = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "float32")
    local E = {
      { function() return ga.sum(x, 3) end,
        "sum: axis 3 is out of bounds for array of dimension 2 (axes are 1-based)" },
      { function() return ga.max(x, -3) end, "max: axis -3 is out of bounds" },
      { function() return x:mean(0) end, "mean: axis 0 is out of bounds" },
      { function() return ga.var(x, 3) end, "var: axis 3 is out of bounds" },
      { function() return ga.std(x, { axis = { 1, 5 } }) end, "std: axis 5 is out of bounds" },
      { function() return ga.median(x, 3) end, "median: axis 3 is out of bounds" },
      { function() return ga.ptp(x, 3) end, "ptp: axis 3 is out of bounds" },
      { function() return ga.linalg.norm(x, nil, 3) end, "norm: axis 3 is out of bounds" },
      { function() return ga.average(x, 3) end, "average: axis 3 is out of bounds" },
      { function() return ga.sum(x, { 1, 1 }) end, "sum: repeated axis" },
      { function() return ga.sum(x, { 1, -2 }) end, "sum: repeated axis" },
      { function() return ga.var(x, { 2, -1 }) end, "var: repeated axis" },
      { function() return ga.median(x, { 1, 1 }) end, "median: repeated axis" },
      { function() return ga.linalg.norm(x, nil, { 1, -2 }) end, "norm: repeated axis" },
      { function() return ga.sum(x, 1.5) end, "sum: axis must be an integer" },
      { function() return ga.var(x, { ddof = 0.5 }) end, "var: ddof must be an integer" },
      { function() return ga.std(x, { ddof = "1" }) end, "std: ddof must be an integer" },
      { function() return ga.nanvar(x, { ddof = true }) end, "nanvar: ddof must be an integer" },
      { function() return ga.nanstd(x, { ddof = {} }) end, "nanstd: ddof must be an integer" },
      { function() return ga.argmax(xp.zeros(0)) end, "argmax: attempt to get argmax of an empty sequence" },
      { function() return ga.argmin(xp.zeros({ 2, 0 }), 2) end, "argmin: attempt to get argmin of an empty sequence" },
      { function() return ga.max(xp.zeros(0)) end,
        "max: zero-size array to reduction operation maximum which has no identity" },
      { function() return ga.min(xp.zeros({ 0, 3 }), 1) end, "min: zero-size array" },
      { function() return ga.ptp(xp.zeros(0)) end, "ptp: zero-size array" },
      { function() return ga.nanargmax(xp.array({ nan, nan })) end, "nanargmax: All-NaN slice encountered" },
      { function() return ga.nanargmin(xp.array({ { 1, nan }, { nan, nan } }), 2) end,
        "nanargmin: All-NaN slice encountered" },
      { function() return ga.sum(x, { foo = 1 }) end, "sum: unknown option 'foo'" },
      { function() return ga.var(x, { foo = 1 }) end, "var: unknown option 'foo'" },
      { function() return ga.ptp(x, { dtype = "float64" }) end, "ptp: unknown option 'dtype'" },
      { function() return ga.median(x, { ddof = 1 }) end, "median: unknown option 'ddof'" },
      { function() return ga.trace(x, { axis = 1 }) end, "trace: unknown option 'axis'" },
      { function() return ga.average(x, { out = x }) end, "average: unknown option 'out'" },
      { function() return ga.linalg.norm(x, { order = 2 }) end, "norm: unknown option 'order'" },
      { function() return ga.max(x, { dtype = "float64" }) end, "max: takes no dtype= option" },
      { function() return ga.argmax(x, { dtype = "int32" }) end, "argmax: takes no dtype= option" },
      { function() return ga.all(x, { dtype = "bool" }) end, "all: takes no dtype= option" },
      { function() return ga.sum(x, { dtype = "nonsense" }) end, "sum:" },
      { function() return ga.var(x, { dtype = "nonsense" }) end, "var: unknown dtype" },
      { function() return ga.sum(x, { out = xp.zeros(2) }) end, "sum: out has shape (2,) but the result has shape ()" },
      { function() return ga.sum(x, { axis = 1, out = xp.zeros(2) }) end, "sum: out has shape" },
      { function() return ga.mean(x, { axis = 2, out = xp.zeros({ 2, 1 }) }) end, "mean: out has shape" },
      { function() return ga.var(x, { axis = 2, out = xp.zeros(3) }) end, "var: out has shape" },
      { function() return ga.median(x, { axis = 2, out = xp.zeros(3) }) end, "median: out has" },
      { function() return ga.sum(x, { out = 5 }) end, "sum: out must be an array" },
      { function() return ga.nanmean(x, { dtype = "int32" }) end,
        "nanmean: If a is inexact, then dtype must be inexact" },
      { function() return ga.nanvar(x, { dtype = "int32" }) end,
        "nanvar: If a is inexact, then dtype must be inexact" },
      { function() return ga.ptp(xp.array({ true, false })) end, "ptp: the boolean subtract is not supported" },
      { function() return ga.average(x, { weights = { 1, 2, 3 } }) end,
        "average: Axis must be specified when shapes of a and weights differ." },
      { function() return ga.average(x, 1, { weights = { 1, 2, 3 } }) end,
        "average: Shape of weights must be consistent with shape of a along specified axis." },
      { function() return ga.average(x, 2, { weights = { 1, -1, 0 } }) end,
        "average: Weights sum to zero, can't be normalized" },
      { function() return ga.trace(xp.zeros(3)) end, "trace:" },
      { function() return ga.trace(x, 1, 1, 1) end, "trace:" },
      { function() return ga.linalg.norm(x, 3) end, "norm: Invalid norm order '3' for matrices" },
      { function() return ga.linalg.norm(x, "fro", 1) end, "norm: Invalid norm order 'fro' for vectors" },
      { function() return ga.linalg.norm(x, nil, { 1, 1 }) end, "norm: repeated axis" },
      { function() return ga.linalg.norm(xp.zeros({ 2, 2, 2 }), 1) end,
        "norm: Improper number of dimensions to norm." },
      { function() return ga.linalg.norm(x, true) end, "norm: ord must be a number or a string" },
    }
    for i, e in ipairs(E) do
      it(i .. ": " .. e[2], function() helper.assert_error(e[1], e[2]) end)
    end
  end)
end)

-- Larger inputs ----------------------------------------------------------------

-- deterministic pseudo-random floats in [-1, 1)
local function lcg(n, seed)
  local t, s = {}, seed
  for i = 1, n do
    s = (s * 6364136223846793005 + 1442695040888963407) & 0xffffffffffffffff
    t[i] = ((s >> 11) / 9007199254740992.0) * 2 - 1
  end
  return t
end

describe("reductions: larger inputs", function()
  local data = lcg(300 * 517, 7)
  helper.each_device(function(xp)
    it("10^6 float32 sum is close to the float64 sum", function()
      local x = xp.arange(1000000, "float32") * 1e-3
      local s32 = ga.sum(x):item()
      local s64 = ga.sum(x:astype("float64")):item()
      assert.is_true(math.abs(s32 - s64) <= 1e-6 * math.abs(s64), s32 .. " vs " .. s64)
      assert.are.equal("float32", ga.sum(x).dtype)
    end)
    it("a 300x517 float32 matrix: sum/mean/var over each axis agree with float64", function()
      local x = xp.array(data, "float32"):reshape({ 300, 517 })
      local x64 = x:astype("float64")
      for _, ax in ipairs { 1, 2, -1, { 1, 2 } } do
        for _, fn in ipairs { "sum", "mean", "var", "std", "max", "nanmean" } do
          helper.assert_close(ga[fn](x, ax), ga[fn](x64, ax), { rtol = 1e-4, atol = 1e-4 })
        end
        helper.assert_close(ga.sum(x.T, ax), ga.sum(x64.T, ax), { rtol = 1e-4, atol = 1e-4 })
      end
    end)
  end)
  for _, layout in ipairs { "C", "T", "S" } do
    for _, fn in ipairs { "sum", "prod", "max", "argmin", "mean", "var", "std", "median", "ptp", "count_nonzero" } do
      it("GPU vs host: " .. fn .. " of a 300x517 float32 matrix, layout " .. layout, function()
        for _, ax in ipairs { false, 1, 2 } do
          helper.assert_gpu_vs_host(function(xp)
            local x = xp.array(data, "float32"):reshape({ 300, 517 })
            if fn == "prod" then x = ga.add(ga.multiply(x, 0.01), 1) end
            if layout == "T" then x = ga.ascontiguousarray(x.T).T
            elseif layout == "S" then x = x[{ { 1, -1, 2 } }] end
            return ga[fn](x, ax)
          end, { rtol = 1e-4, atol = 1e-5 })
        end
      end)
    end
  end
  it("on the GPU, summing the same 2^20 float32 twice gives the same bits", function()
    if not helper.has_gpu() then pending("no GPU"); return end
    local x = ga.array(lcg(1 << 20, 11), "float32")
    local a, b = ga.sum(x), ga.sum(x)
    assert.are.equal(a:view("uint32"):item(), b:view("uint32"):item())
    local c, d = ga.sum(x:reshape({ 1024, 1024 }), 1), ga.sum(x:reshape({ 1024, 1024 }), 1)
    assert.are.same(c:view("uint32"):totable(), d:view("uint32"):totable())
  end)
end)
