-- Differential test against NumPy 2: random ufunc / reduction / index /
-- shape programs (tools/gen_diff_ref.py, seeded) with NumPy's answers
-- committed in spec/data/diff_ref.lua, replayed here on every device.
-- Each result must have NumPy's dtype and shape exactly and its values
-- (allclose with the dtype's tolerance, NaN equal to NaN); where NumPy
-- raised, the call must raise.  Indices, axes and positions are 1-based here
-- (the generator translated them).  The programs cover dtype=, casting=,
-- out= and Lua integers, floats and booleans as operands.
local helper = require "spec.helper"
local ga = helper.ga
local REF = require "spec.data.diff_ref"

-- Cases that fail today because of bugs being fixed elsewhere (issue 10).
-- A KNOWN case must still fail: once its fix is merged the spec reports it
-- as "now passes: remove it from KNOWN".
-- Every case once marked here (issue 10's Lua-integer range checks, dtype=
-- resolution, logical truth, empty reductions, searchsorted's float compare,
-- result_type of three dtypes, Lua floats into integer arrays) now passes.
local KNOWN = {}

local function make(xp, a)
  if a.lua then return a.v end
  return xp.array(a.v, a.dtype):reshape(a.shape)
end

local function desc_arg(a)
  if a.lua then return string.format("Lua %s %s", a.lua, tostring(a.v)) end
  return string.format("%s(%s)", a.dtype, table.concat(a.shape, ","))
end

local function desc_opts(o)
  if not o then return "" end
  local parts = {}
  for _, k in ipairs { "axis", "keepdims", "dtype", "casting", "ddof" } do
    if o[k] ~= nil then parts[#parts + 1] = k .. "=" .. tostring(o[k]) end
  end
  if o.out then parts[#parts + 1] = "out=" .. desc_arg(o.out) end
  return #parts > 0 and ", {" .. table.concat(parts, ", ") .. "}" or ""
end

local function desc_key(c)
  local items = {}
  for i, it in ipairs(c.key) do
    if it.k == "i" then items[i] = tostring(it.v)
    elseif it.k == "r" then
      items[i] = string.format("{%s, %s, %s}", tostring(it.a), tostring(it.b), tostring(it.c))
    elseif it.k == "new" then items[i] = "newaxis"
    elseif it.k == "ell" then items[i] = "ellipsis"
    else items[i] = desc_arg(it.arg) end
  end
  if c.key_bare then return items[1] end
  return "{" .. table.concat(items, ", ") .. "}"
end

local function describe_case(c)
  local args = {}
  for i, a in ipairs(c.args or {}) do args[i] = desc_arg(a) end
  if c.kind == "ufunc" then
    return string.format("%s(%s%s)", c.op, table.concat(args, ", "), desc_opts(c.opts))
  elseif c.kind == "reduce" then
    local ax = type(c.axis) == "table" and "{" .. table.concat(c.axis, ",") .. "}" or tostring(c.axis)
    return string.format("%s(%s, %s%s)", c.op, args[1], ax, desc_opts(c.opts))
  elseif c.kind == "getitem" then
    return string.format("%s[%s]", args[1], desc_key(c))
  elseif c.kind == "setitem" then
    return string.format("%s[%s] = %s", args[1], desc_key(c), args[2])
  elseif c.kind == "shape" then
    local ex = {}
    for i = 1, #c.extra do
      local e = c.extra[i]
      ex[i] = type(e) == "table" and "{" .. table.concat(e, ",") .. "}" or tostring(e)
    end
    return string.format("%s(%s; %s)", c.op, table.concat(args, ", "), table.concat(ex, ", "))
  elseif c.kind == "searchsorted" then
    return string.format("searchsorted(%s, %s, %s)", args[1], args[2], c.side)
  end
  return "result_type(" .. table.concat(c.dtypes, ", ") .. ")"
end

local function key_of(xp, c)
  local items = {}
  for i, it in ipairs(c.key) do
    if it.k == "i" then items[i] = it.v
    elseif it.k == "r" then items[i] = { it.a, it.b, it.c }
    elseif it.k == "new" then items[i] = ga.newaxis
    elseif it.k == "ell" then items[i] = ga.ellipsis
    else items[i] = make(xp, it.arg) end
  end
  if c.key_bare then return items[1] end
  return items
end

local SHAPE_OPS = {
  concatenate = function(arrays, ex) return ga.concatenate(arrays, ex[1]) end,
  stack = function(arrays, ex) return ga.stack(arrays, ex[1]) end,
}

-- Runs the case's program; returns its result (an array, a list of arrays
-- or a dtype name).
local function run(xp, c)
  local args = {}
  for i, a in ipairs(c.args or {}) do args[i] = make(xp, a) end
  if c.kind == "ufunc" then
    local opts = nil
    if next(c.opts) then
      opts = { dtype = c.opts.dtype, casting = c.opts.casting }
      if c.opts.out then opts.out = make(xp, c.opts.out) end
      args[#args + 1] = opts
    end
    local r = ga[c.op](table.unpack(args, 1, #c.args + (opts and 1 or 0)))
    if opts and opts.out then
      assert(rawequal(r, opts.out), "out= was not returned")
    end
    return r
  elseif c.kind == "reduce" then
    local opts = { keepdims = c.opts.keepdims, dtype = c.opts.dtype, ddof = c.opts.ddof }
    if c.opts.out then opts.out = make(xp, c.opts.out) end
    local r = ga[c.op](args[1], c.axis, opts)
    if opts.out then assert(rawequal(r, opts.out), "out= was not returned") end
    return r
  elseif c.kind == "getitem" then
    return args[1][key_of(xp, c)]
  elseif c.kind == "setitem" then
    args[1][key_of(xp, c)] = args[2]
    return args[1]
  elseif c.kind == "shape" then
    if SHAPE_OPS[c.op] then return SHAPE_OPS[c.op](args, c.extra) end
    return ga[c.op](args[1], table.unpack(c.extra, 1, #c.extra))
  elseif c.kind == "searchsorted" then
    return ga.searchsorted(args[1], args[2], c.side)
  end
  return ga.result_type(table.unpack(c.dtypes))
end

local TWO64 = 2.0 ^ 64

-- got (an array) against want ({dtype, shape, v}): nil when they agree,
-- else what differs.
local function compare(got, want)
  if not helper.is_array(got) then return "not an array: " .. tostring(got) end
  if got.dtype ~= want.dtype then
    return string.format("dtype %s, NumPy %s", got.dtype, want.dtype)
  end
  local gs, ws = table.concat(got.shape, ","), table.concat(want.shape, ",")
  if gs ~= ws then return string.format("shape (%s), NumPy (%s)", gs, ws) end
  local vals = ga.asnumpy(got):reshape(-1):totable()
  local rtol = helper.RTOL[want.dtype] or 0
  for i, w in ipairs(want.v) do
    local g = vals[i]
    if want.dtype == "uint64" and w < 0 then w = w + TWO64 end   -- stored as int64 bits
    local ok
    if type(w) == "boolean" or type(g) == "boolean" then
      ok = g == w
    elseif w ~= w then
      ok = g ~= g
    elseif rtol == 0 or w == math.huge or w == -math.huge then
      ok = g == w
    else
      ok = math.abs(g - w) <= rtol * (1 + math.abs(w))
    end
    if not ok then
      return string.format("element %d: got %s, NumPy %s", i, tostring(g), tostring(w))
    end
  end
  return nil
end

-- nil when the case gives NumPy's answer, else what went wrong
local function check(xp, c)
  local ok, got = pcall(run, xp, c)
  if c.want == "raise" then
    if ok then return "NumPy raises, gpuarray did not" end
    return nil
  end
  if not ok then return "raised: " .. tostring(got) end
  if c.kind == "result_type" then
    if got ~= c.want.name then return string.format("got %s, NumPy %s", tostring(got), c.want.name) end
    return nil
  end
  if c.want.list then
    if type(got) ~= "table" or helper.is_array(got) then return "not a list of arrays" end
    if #got ~= #c.want.list then
      return string.format("%d pieces, NumPy %d", #got, #c.want.list)
    end
    for i, w in ipairs(c.want.list) do
      local e = compare(got[i], w)
      if e then return "piece " .. i .. ": " .. e end
    end
    return nil
  end
  return compare(got, c.want)
end

describe("differential against NumPy " .. REF.numpy, function()
  it("has its reference data", function()
    assert.is_true(#REF.cases >= 300)
    for id in pairs(KNOWN) do
      local found = false
      for _, c in ipairs(REF.cases) do found = found or c.id == id end
      assert.is_true(found, "KNOWN lists " .. id .. ", which is not a case")
    end
  end)

  helper.each_device(function(xp)
    for _, c in ipairs(REF.cases) do
      local name = c.id .. ": " .. describe_case(c)
      if KNOWN[c.id] then
        it(name .. " [KNOWN: " .. KNOWN[c.id] .. "]", function()
          local err = check(xp, c)
          assert.is_not_nil(err, c.id .. " now passes: remove it from KNOWN")
        end)
      else
        it(name, function()
          local err = check(xp, c)
          assert.is_nil(err, err)
        end)
      end
    end
  end)
end)
