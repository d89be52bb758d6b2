-- Helpers shared by the Lua files (gpuarray/reduce.lua, sort.lua,
-- ufuncs.lua): the checks of a caller's arguments (C).  Each raises
-- "<fname>: <problem>" once and without a position (the problem is the
-- caller's input, wherever this file notices it).  A composed function runs them before it calls any
-- piece (sum, subtract, take ...), so the pieces never see a bad input and
-- never name themselves in place of the public function.
local core = require "gpuarray.core"

local C = {}

local function is_array(x) return getmetatable(x) == core.ndarray_mt end

-- A function that returns the ga table (host false) or ga.host (true),
-- found on its first call: the parts are required while gpuarray's
-- init.lua is still building that table, so they cannot take it at load.
function C.lazy_module(host)
  local t
  return function()
    if not t then
      local ga = require "gpuarray"
      t = host and ga.host or ga
    end
    return t
  end
end

function C.fail(fname, fmt, ...) error(fname .. ": " .. string.format(fmt, ...), 0) end
local fail = C.fail
C.is_array = is_array

local function typename(v)
  if is_array(v) then return "an ndarray" end
  if math.type(v) == "float" then return "a float (" .. tostring(v) .. ")" end
  return type(v)
end
C.typename = typename

-- A table that is a non-empty list of integers is a list of axes (as the C
-- binding decides); any other table is an options table.
local function is_axis_list(t)
  if type(t) ~= "table" or is_array(t) then return false end
  local n = #t
  if n == 0 then return false end
  for k, v in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > n or math.type(v) ~= "integer" then return false end
  end
  return true
end
C.is_axis_list = is_axis_list

local function options_table(fname, opts)
  if type(opts) ~= "table" or is_array(opts) then
    fail(fname, "options must be a table, got %s", typename(opts))
  end
  return opts
end

-- an optional options argument: a table, or nil ({})
function C.opts(fname, opts)
  if opts == nil then return {} end
  return options_table(fname, opts)
end

-- an options table's keys are all in `allowed`
function C.options(fname, opts, allowed)
  options_table(fname, opts)
  for k in pairs(opts) do
    if type(k) ~= "string" or not allowed[k] then fail(fname, "unknown option '%s'", tostring(k)) end
  end
  return opts
end

-- (axis, opts) or (opts) -> axis, opts (a table); unknown options are errors
local function parse(fname, allowed, axis, opts)
  if opts == nil and type(axis) == "table" and not is_array(axis) and not is_axis_list(axis) then
    axis, opts = nil, axis
  end
  if opts == nil then return axis, {} end
  C.options(fname, opts, allowed)
  if opts.axis ~= nil then
    if axis ~= nil then fail(fname, "axis given both as an argument and as an option") end
    axis = opts.axis
  end
  return axis, opts
end
C.parse = parse

-- a trailing options table: a table with a string key, or empty (a list of
-- integers is an argument such as `s` or `axes`)
local function is_opts(t)
  if type(t) ~= "table" or is_array(t) then return false end
  if next(t) == nil then return true end
  for k in pairs(t) do
    if type(k) == "string" then return true end
  end
  return false
end

-- The arguments after the array: positional (`names` in order) or one
-- options table last, which takes those names and the keys of `extra`;
-- returns them by name
function C.named_args(fname, names, extra, ...)
  local n = select("#", ...)
  local v = { ... }
  local last = n   -- the options table is the last non-nil argument
  while last > 0 and v[last] == nil do last = last - 1 end
  local opts
  if last > 0 and is_opts(v[last]) then
    opts = v[last]
    v[last] = nil
    n = last - 1
  end
  if n > #names then fail(fname, "too many arguments (%d after the array)", n) end
  local r = {}
  for i = 1, #names do r[names[i]] = v[i] end
  if opts then
    for k, val in pairs(opts) do
      local known = type(k) == "string" and extra[k]
      for _, name in ipairs(names) do known = known or k == name end
      if not known then fail(fname, "unknown option '%s'", tostring(k)) end
      if r[k] ~= nil then fail(fname, "%s given both as an argument and as an option", k) end
      r[k] = val
    end
  end
  return r
end

-- x as an array, or nil: itself, or a table, number or boolean through
-- asarray (the one rule of what a function taking an array accepts)
local function as_array(x, asarray)
  if is_array(x) then return x end
  local t = type(x)
  if asarray and (t == "table" or t == "number" or t == "boolean") then return asarray(x) end
  return nil
end

-- The array argument of fname that its message calls `what` ("x", "the
-- input", "argument 2"): an ndarray; with `asarray`, also a table, number
-- or boolean, made an array by it; anything else is an error naming it.
-- Every Lua file checks its array arguments through this (or C.array).
function C.arg(fname, x, what, asarray)
  local r = as_array(x, asarray)
  if r ~= nil then return r end
  if asarray then fail(fname, "%s must be an array, a table or a number, got %s", what, typename(x)) end
  fail(fname, "%s must be an ndarray, got %s", what, typename(x))
end

-- x as an array: itself, or a table, number or boolean through asarray
function C.input(fname, x, asarray) return C.arg(fname, x, "the input", asarray) end

-- a device given as "cpu", "cuda:N", N (>= 0), -1 or a ga.cuda.Device -> its id (-1: the host)
function C.device_id(fname, d)
  if type(d) == "table" and math.type(d.id) == "integer" then return d.id end
  if math.type(d) == "integer" and d >= -1 then return d end
  if d == "cpu" then return -1 end
  local n = type(d) == "string" and d:match("^cuda:(%d+)$")
  if n then return tonumber(n) end
  fail(fname, "device must be 'cpu', 'cuda:N', an ordinal or a ga.cuda.Device, got %s", tostring(d))
end

function C.set(...)
  local t = {}
  for _, k in ipairs { ... } do t[k] = true end
  return t
end

-- one 1-based axis of an array of nd dimensions, normalised (1..nd)
local function norm_axis(fname, a, nd)
  if math.type(a) ~= "integer" then
    fail(fname, "axis must be an integer, a table of integers or nil, got %s", typename(a))
  end
  local b = a < 0 and a + nd + 1 or a
  if b < 1 or b > nd then
    fail(fname, "axis %d is out of bounds for array of dimension %d (axes are 1-based)", a, nd)
  end
  return b
end
C.norm_axis = norm_axis

-- axis (nil/false, integer or list) -> list of normalised axes, in the
-- order given; nil/false -> every axis
local function axis_list(fname, axis, nd)
  local out, seen = {}, {}
  if axis == nil or axis == false then
    for i = 1, nd do out[i] = i end
    return out
  end
  if type(axis) ~= "table" or is_array(axis) then axis = { axis } end
  for i, a in ipairs(axis) do
    local b = norm_axis(fname, a, nd)
    if seen[b] then fail(fname, "repeated axis %d", a) end
    seen[b] = true
    out[i] = b
  end
  return out
end
C.axis_list = axis_list

-- a flag option: nil (false) or a boolean
function C.flag(fname, name, v)
  if v == nil then return false end
  if type(v) ~= "boolean" then fail(fname, "%s must be a boolean, got %s", name, typename(v)) end
  return v
end

-- a dtype option: nil or a dtype name, canonical
function C.dtype(fname, dt, name)
  if dt == nil then return nil end
  if type(dt) ~= "string" then fail(fname, "%s must be a dtype name such as \"float32\", got %s", name or "dtype",
                                    typename(dt)) end
  local ok, r = pcall(core.promote_types, dt, dt)
  if not ok then fail(fname, "unknown dtype '%s'", dt) end
  return r
end

function C.ddof(fname, d)
  if d == nil then return 0 end
  local i = math.type(d) == "integer" and d or (type(d) == "number" and math.tointeger(d))
  if not i then fail(fname, "ddof must be an integer, got %s", typename(d)) end
  return i
end

-- The shape of a reduction of x over `axes` (normalised) with keepdims.
function C.result_shape(x, axes, keepdims)
  local red, shape = {}, {}
  for _, a in ipairs(axes) do red[a] = true end
  for i, n in ipairs(x.shape) do
    if not red[i] then shape[#shape + 1] = n elseif keepdims then shape[#shape + 1] = 1 end
  end
  return shape
end

-- a shape as a message shows it: "(2,3)", "(4,)"; sep ", " gives NumPy's
-- tuple "(2, 3)"
local function shape_str(s, sep)
  local t = {}
  for i = 1, #s do t[i] = tostring(s[i]) end
  return "(" .. table.concat(t, sep or ",") .. (#s == 1 and ",)" or ")")
end
C.shape_str = shape_str

-- out= : an ndarray on x's device with the given shape (nil passes)
function C.out(fname, out, x, shape)
  if out == nil then return nil end
  if not is_array(out) then fail(fname, "out must be an ndarray, got %s", typename(out)) end
  if out.device ~= x.device then
    fail(fname, "out is on %s but the input is on %s (move one with ga.asarray or x:get())", out.device, x.device)
  end
  local os = out.shape
  local same = #os == #shape
  for i = 1, #shape do same = same and os[i] == shape[i] end
  if not same then fail(fname, "out has shape %s but the result has shape %s", shape_str(os), shape_str(shape)) end
  return out
end

-- An empty reduced axis where the operation has none (NumPy's error, named
-- after the NumPy reduction: "maximum")
function C.nonempty(fname, x, axes, op)
  for _, a in ipairs(axes) do
    if x.shape[a] == 0 then fail(fname, "zero-size array to reduction operation %s which has no identity", op) end
  end
end

-- C.arg with lauxlib's positional message (argument i; reduce, sort)
function C.array(fname, x, asarray, i)
  local r = as_array(x, asarray)
  if r ~= nil then return r end
  fail(fname, "bad argument #%d (an array expected, got %s)", i or 1, type(x))
end

return C
