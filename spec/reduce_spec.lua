-- Reductions (issue 5): the rows of src/ga_reduce.def through ga.X, the
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
  if r.device ~= (xp == ga.host and "cpu" or r.device) then return what .. ": on " .. r.device end
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
        assert.is_true(#bad == 0, #bad .. " case(s) differ from NumPy:\n" .. table.concat(bad, "\n", 1, math.min(#bad, 12)))
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
