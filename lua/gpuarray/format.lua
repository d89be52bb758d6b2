--- NumPy-style printing of arrays.
--
-- `tostring(x)` on an array gives what NumPy 2's `repr()` gives for the same
-- values: `array([1., 2., 3.])`, `array([1, 2], dtype=int32)`, wrapped at 75
-- columns and summarised with `...` when the array has more than 1000
-- elements.  This module does the formatting in Lua from a nested table of
-- the values, so the binding only has to gather them.
--
-- It follows `numpy/_core/arrayprint.py` (NumPy 2.4, default print options:
-- precision 8, floatmode "maxprec", linewidth 75, threshold 1000, edgeitems 3).
-- @module gpuarray.format

local M = {}

local fmt = string.format
local huge = math.huge
local floor, abs = math.floor, math.abs

-- NumPy's print options (set_printoptions); a call may override some.
local DEFAULTS = { precision = 8, threshold = 1000, edgeitems = 3, linewidth = 75, suppress = false }
local OPTIONS = {}
for k, v in pairs(DEFAULTS) do OPTIONS[k] = v end

-- dtypes NumPy leaves out of the repr because they are the defaults.
local IMPLIED = { float64 = true, int64 = true, bool = true, complex128 = true }

-- Significand bits (without the hidden one) and lowest normal exponent of the
-- float types; `cutoff` is NumPy's `10.**min(8, finfo(dtype).precision)`
-- above which it switches to scientific notation.
local FLOATS = {
  float16 = { mant = 10, emin = -14, max = 65504.0, cutoff = 1e3 },
  float32 = { mant = 23, emin = -126, max = 3.4028234663852886e38, cutoff = 1e6 },
  float64 = { mant = 52, emin = -1022, max = 1.7976931348623157e308, cutoff = 1e8 },
}
FLOATS.complex64 = FLOATS.float32
FLOATS.complex128 = FLOATS.float64

local function kind_of(dtype)
  if dtype == "bool" then return "b" end
  local k = dtype:match("^(%a+)")
  return ({ int = "i", uint = "u", float = "f", complex = "c" })[k] or "f"
end

-- Floating point helpers ------------------------------------------------

-- Exponent e with 2^e <= a < 2^(e+1), for finite a > 0.
local function exponent2(a)
  local e = floor(math.log(a, 2))
  if 2.0 ^ e > a then e = e - 1 elseif 2.0 ^ (e + 1) <= a then e = e + 1 end
  return e
end

-- Round the double x to the nearest value of the float type ft (ties to
-- even), as the C cast would.
local function round_to(ft, x)
  if ft.mant == 52 or x ~= x or x == 0 or x == huge or x == -huge then
    return x
  end
  local a = abs(x)
  local e = exponent2(a)
  if e < ft.emin then e = ft.emin end
  local q = 2.0 ^ (e - ft.mant)          -- spacing of the type around a
  local n = a / q                         -- exact: q is a power of two
  local r = floor(n)
  local f = n - r
  if f > 0.5 or (f == 0.5 and r % 2 == 1) then r = r + 1 end
  local v = r * q
  if v > ft.max then v = huge end
  return x < 0 and -v or v
end

-- Decimal digits (string, no trailing zeros, no leading zero unless the value
-- is 0) and decimal exponent E of the integer n times 10^x: value = d.ddd*10^E.
local function digits_of_int(n, x)
  local s = fmt("%d", n)
  local z = #s:match("0*$")
  if z == #s then return "0", 0 end
  s = s:sub(1, #s - z)
  x = x + z
  return s, x + #s - 1
end

-- Parse C's "%.Ne" output into (digits, exponent); digits lose trailing zeros.
local function parse_e(s)
  local i, f, e = s:match("^(%d)%.?(%d*)e([-+]%d+)$")
  local d = (i .. f):gsub("0+$", "")
  if d == "" then return "0", 0 end
  return d, tonumber(e)
end

-- Shortest digits that identify a (finite, > 0) among the values of type ft
-- (read back with round-half-even), as NumPy's Dragon4 in "unique" mode, the
-- closest such when there are several: returns (digits, E), a ~ d1.d2d3...*10^E.
local function shortest(ft, a)
  local function ok(v) return round_to(ft, v) == a end
  for p = 0, 16 do
    local s = fmt("%." .. p .. "e", a)
    local v = tonumber(s)
    if ok(v) then return parse_e(s) end
    -- The interval around a power of two is lopsided: the p-digit decimal
    -- on the other side of a may fit where the nearest one does not.
    local i, f, e = s:match("^(%d)%.?(%d*)e([-+]%d+)$")
    local n = tonumber(i .. f)
    n = v < a and n + 1 or n - 1
    local x = tonumber(e) - p
    local v2 = tonumber(fmt("%de%d", n, x))
    if n > 0 and ok(v2) then return digits_of_int(n, x) end
  end
  return parse_e(fmt("%.16e", a))
end

local function is_negative(x)
  return x < 0 or (x == 0 and 1 / x < 0)
end

-- Dragon4 positional, unique mode, at most `prec` fractional digits,
-- trim='.': returns the integer part (with sign) and the fractional part.
local function positional_parts(ft, x, prec, plus)
  local sign = is_negative(x) and "-" or (plus and "+" or "")
  local a = abs(x)
  if a == 0 then return sign .. "0", "" end
  local d, E = shortest(ft, a)
  local ip, fp
  if #d - 1 - E > prec then            -- more digits than allowed: round
    local s = fmt("%." .. prec .. "f", a)
    ip, fp = s:match("^(%d+)%.?(%d*)$")
    fp = fp:gsub("0+$", "")
  elseif E >= 0 then
    if #d <= E + 1 then
      ip, fp = d .. ("0"):rep(E + 1 - #d), ""
    else
      ip, fp = d:sub(1, E + 1), d:sub(E + 2)
    end
  else
    ip, fp = "0", ("0"):rep(-E - 1) .. d
  end
  return sign .. ip, fp
end

-- Dragon4 scientific, unique mode, at most `prec` digits after the point,
-- trim='.': returns the mantissa's integer part (with sign), its fraction
-- and the decimal exponent.  With `min_digits`, a fraction shorter than that
-- is continued with the value's own next digits (rounded), as NumPy does.
local function scientific_parts(ft, x, prec, plus, min_digits)
  local sign = is_negative(x) and "-" or (plus and "+" or "")
  local a = abs(x)
  if a == 0 then return sign .. "0", ("0"):rep(min_digits or 0), 0 end
  local d, E = shortest(ft, a)
  if #d - 1 > prec then
    d, E = parse_e(fmt("%." .. prec .. "e", a))
  end
  if min_digits and #d - 1 < min_digits then
    local i, f, e = fmt("%." .. min_digits .. "e", a):match("^(%d)%.?(%d*)e([-+]%d+)$")
    d, E = i .. f, tonumber(e)
  end
  return sign .. d:sub(1, 1), d:sub(2), E
end

local function finite(x)
  return x == x and x ~= huge and x ~= -huge
end

local function lpad(s, n) return (" "):rep(n - #s) .. s end
local function rpad(s, n, c) return s .. (c or " "):rep(n - #s) end

-- NumPy's FloatingFormat: looks at all the (shown) values once, then
-- formats each in one column-aligned style.  `plus` is sign='+' (used for the
-- imaginary parts of complex numbers).
local function float_formatter(ft, values, plus, o)
  local PRECISION = o.precision
  local fin = {}
  local has_nonfinite, has_neginf = false, false
  for _, x in ipairs(values) do
    if finite(x) then
      fin[#fin + 1] = x
    else
      has_nonfinite = true
      if x == -huge then has_neginf = true end
    end
  end

  local exp_format = false
  local maxv, minv
  for _, x in ipairs(fin) do
    if x ~= 0 then
      local a = abs(x)
      if not maxv or a > maxv then maxv = a end
      if not minv or a < minv then minv = a end
    end
  end
  if maxv then
    -- NumPy compares in the array's own type.
    local ratio = round_to(ft, maxv / minv)
    if maxv >= ft.cutoff or (not o.suppress and (minv < round_to(ft, 0.0001)
       or ratio > 1000.0)) then
      exp_format = true
    end
  end

  local pad_left, pad_right, precision, exp_size = 0, 0, PRECISION, -1
  if #fin > 0 then
    if exp_format then
      local maxfrac, maxint, maxexp = 0, 0, 0
      for _, x in ipairs(fin) do
        local ip, fp, E = scientific_parts(ft, x, PRECISION, plus)
        local es = fmt("%02d", abs(E))
        if #fp > maxfrac then maxfrac = #fp end
        if #ip > maxint then maxint = #ip end
        if #es > maxexp then maxexp = #es end
      end
      exp_size = maxexp
      precision = maxfrac
      pad_left = maxint
      pad_right = exp_size + 2 + precision
    else
      for _, x in ipairs(fin) do
        local ip, fp = positional_parts(ft, x, PRECISION, plus)
        if #ip > pad_left then pad_left = #ip end
        if #fp > pad_right then pad_right = #fp end
      end
    end
  end
  if has_nonfinite then
    local neginf = (plus or has_neginf) and 1 or 0
    local offset = pad_right + 1
    pad_left = math.max(pad_left, 3 - offset, 3 + neginf - offset)
  end

  return function(x)
    if not finite(x) then
      local r
      if x ~= x then
        r = (plus and "+" or "") .. "nan"
      else
        r = (x < 0 and "-" or (plus and "+" or "")) .. "inf"
      end
      return lpad(r, pad_left + pad_right + 1)
    end
    if exp_format then
      local ip, fp, E = scientific_parts(ft, x, precision, plus, precision)
      local es = fmt("%0" .. exp_size .. "d", abs(E))
      return lpad(ip, pad_left) .. "." .. rpad(fp, precision, "0")
             .. "e" .. (E < 0 and "-" or "+") .. es
    end
    local ip, fp = positional_parts(ft, x, PRECISION, plus)
    return lpad(ip, pad_left) .. "." .. rpad(fp, pad_right)
  end
end

-- Unsigned decimal of a 64-bit integer (uint64 values >= 2^63 arrive as
-- negative Lua integers).
local function ustr(n)
  if n >= 0 then return fmt("%d", n) end
  local q = (n >> 1) // 5
  local r = n - q * 10
  return fmt("%d%d", q, r)
end

local function int_formatter(values, unsigned)
  local tostr = unsigned and ustr or function(v) return fmt("%d", v) end
  local w = 0
  for _, v in ipairs(values) do
    local n = #tostr(v)
    if n > w then w = n end
  end
  return function(v) return lpad(tostr(v), w) end
end

local function bool_formatter(zero_d)
  local truestr = zero_d and "True" or " True"
  return function(v) return v and truestr or "False" end
end

local function complex_formatter(ft, values, o)
  local re, im = {}, {}
  for i, z in ipairs(values) do re[i], im[i] = z[1], z[2] end
  local fr = float_formatter(ft, re, false, o)
  local fi = float_formatter(ft, im, true, o)
  return function(z)
    local r, i = fr(z[1]), fi(z[2])
    local body = i:match("^(.-) *$")
    return r .. body .. "j" .. i:sub(#body + 1)
  end
end

-- Layout (numpy's _formatArray / _extendLine) ------------------------------

local function extend_line(s, line, word, width, next_prefix)
  local needs_wrap = #line + #word > width
  if #line <= #next_prefix then needs_wrap = false end
  if needs_wrap then
    s = s .. line:gsub(" +$", "") .. "\n"
    line = next_prefix
  end
  return s, line .. word
end

local function format_array(t, ndim, formatter, width, prefix, sep)
  local function recurse(v, depth, hanging, curr_width)
    if depth == ndim then return formatter(v) end
    local axes_left = ndim - depth
    local next_hanging = hanging .. " "
    local next_width = curr_width - 1
    local n = #v
    local s
    if axes_left == 1 then
      local elem_width = curr_width - 1
      local line = hanging
      s = ""
      for i = 1, n do
        local e = v[i]
        local word = e == "..." and "..." or recurse(e, depth + 1, next_hanging, next_width)
        s, line = extend_line(s, line, word, elem_width, hanging)
        if i < n then line = line .. sep end
      end
      s = s .. line
    else
      local line_sep = sep:gsub(" +$", "") .. ("\n"):rep(axes_left - 1)
      local parts = {}
      for i = 1, n do
        local e = v[i]
        parts[i] = hanging .. (e == "..." and "..."
                               or recurse(e, depth + 1, next_hanging, next_width))
      end
      s = table.concat(parts, line_sep)
    end
    return "[" .. s:sub(#hanging + 1) .. "]"
  end
  return recurse(t, 0, prefix, width)
end

-- The leaves of t (the values shown), "..." markers left out.
local function leaves(t, ndim, out)
  out = out or {}
  if ndim == 0 then
    out[#out + 1] = t
  else
    for _, v in ipairs(t) do
      if v ~= "..." then leaves(v, ndim - 1, out) end
    end
  end
  return out
end

local function shape_repr(shape)
  if #shape == 1 then return "(" .. shape[1] .. ",)" end
  local p = {}
  for i, n in ipairs(shape) do p[i] = fmt("%d", n) end
  return "(" .. table.concat(p, ", ") .. ")"
end

-- The options of one call: the current ones, with `over` on top.
local function options(over)
  if not over then return OPTIONS end
  local o = {}
  for k, v in pairs(OPTIONS) do o[k] = v end
  for k, v in pairs(over) do o[k] = v end
  return o
end

local function check_options(fname, t, allowed)
  if type(t) ~= "table" then error(fname .. ": options must be a table, got " .. type(t), 3) end
  for k, v in pairs(t) do
    local want = allowed[k]
    if not want then error(fname .. ": unknown option '" .. tostring(k) .. "'", 3) end
    if want == "boolean" then
      if type(v) ~= "boolean" then error(fname .. ": " .. k .. " must be a boolean, got " .. type(v), 3) end
    elseif math.type(v) ~= "integer" or v < (k == "linewidth" and 1 or 0) then
      error(fname .. ": " .. k .. " must be a non-negative integer, got " .. tostring(v), 3)
    elseif k == "precision" and v > 99 then
      error(fname .. ": precision must be at most 99, got " .. tostring(v), 3)
    end
  end
end

local OPTION_TYPES = { precision = "int", threshold = "int", edgeitems = "int", linewidth = "int",
                       suppress = "boolean" }

--- Set NumPy's print options for `tostring(x)`, `ga.array_repr` and
-- `ga.array_str` (also `ga.set_printoptions`): `precision` (digits after
-- the point, 8), `threshold` (more elements than this are summarised with
-- `...`, 1000), `edgeitems` (items kept at each end of a summarised axis,
-- 3), `linewidth` (75), `suppress` (true: never scientific notation for
-- small values, which print as 0; false).  Options not given keep their
-- value; `format.set_printoptions()` with no table restores the defaults.
-- @tparam[opt] table opts
-- @usage
-- local format = require "gpuarray.format"
-- format.set_printoptions{precision = 3}
-- print(ga.array({1 / 3}))            --> array([0.333])
-- format.set_printoptions()           -- the defaults again
function M.set_printoptions(opts)
  if opts == nil then
    for k, v in pairs(DEFAULTS) do OPTIONS[k] = v end
    return
  end
  check_options("set_printoptions", opts, OPTION_TYPES)
  for k, v in pairs(opts) do OPTIONS[k] = v end
end

--- The current print options, as a new table (see `set_printoptions`).
-- @treturn table `{precision=, threshold=, edgeitems=, linewidth=, suppress=}`
-- @usage
-- local format = require "gpuarray.format"
-- print(format.get_printoptions().threshold)   --> 1000
function M.get_printoptions()
  local t = {}
  for k, v in pairs(OPTIONS) do t[k] = v end
  return t
end

local function values_formatter(t, ndim, dtype, kind, o)
  local values = leaves(t, ndim)
  if kind == "b" then
    return bool_formatter(ndim == 0)
  elseif kind == "i" or kind == "u" then
    return int_formatter(values, kind == "u" and dtype == "uint64")
  elseif kind == "c" then
    return complex_formatter(FLOATS[dtype] or FLOATS.float64, values, o)
  end
  local v = {}
  for i, x in ipairs(values) do v[i] = math.type(x) == "integer" and x + 0.0 or x end
  return float_formatter(FLOATS[dtype] or FLOATS.float64, v, false, o)
end

-- repr's and str's reading of their arguments: the options, dtype, shape,
-- kind, ndim and size
local function describe(info, over)
  local o = options(over)
  local dtype = info.dtype or "float64"
  local shape = info.shape or {}
  local size = 1
  for _, n in ipairs(shape) do size = size * n end
  return o, dtype, shape, info.kind or kind_of(dtype), #shape, size
end

--- NumPy's `repr()` of an array.
-- @param t nested table of the array's values as `x:totable()` gives them
--   (a plain value for 0-d); when the array is summarised, an axis' omitted
--   middle is one string entry `"..."`.
-- @tparam table info `{dtype = "float32", shape = {2, 3}, kind = "f"}`
--   (`kind` one of `f i u b c`; derived from dtype when absent)
-- @tparam[opt] table over print options for this call only (`precision`,
--   `linewidth`, `suppress`, `threshold`)
-- @treturn string e.g. `"array([1., 2., 3.], dtype=float32)"`
-- @usage
-- local format = require "gpuarray.format"
-- print(format.repr({1, 2}, {dtype = "int32", shape = {2}}))   --> array([1, 2], dtype=int32)
-- print(format.repr({{0.5, 1}}, {dtype = "float64", shape = {1, 2}}))   --> array([[0.5, 1. ]])
function M.repr(t, info, over)
  local o, dtype, shape, kind, ndim, size = describe(info, over)

  local prefix = "array("
  local lst
  if size == 0 then
    lst = "[]"
  else
    lst = format_array(t, ndim, values_formatter(t, ndim, dtype, kind, o), o.linewidth - 1,
                       " " .. (" "):rep(#prefix), ", ")
  end

  local extras = {}
  if (size == 0 and not (ndim == 1 and shape[1] == 0)) or size > o.threshold then
    extras[#extras + 1] = "shape=" .. shape_repr(shape)
  end
  if not IMPLIED[dtype] or size == 0 then
    extras[#extras + 1] = "dtype=" .. dtype
  end
  if #extras == 0 then return prefix .. lst .. ")" end

  local arr_str = prefix .. lst .. ","
  local extra_str = table.concat(extras, ", ") .. ")"
  local last_nl = arr_str:match(".*()\n")
  local last_line_len = #arr_str - (last_nl or 0)
  local spacer = " "
  if last_line_len + #extra_str + 1 > o.linewidth then
    spacer = "\n" .. (" "):rep(#prefix)
  end
  return arr_str .. spacer .. extra_str
end

-- Python's str() of one value (a 0-d array's str).
local function scalar_str(v, kind)
  if kind == "b" then return v and "True" or "False" end
  if kind == "i" or kind == "u" then return kind == "u" and ustr(v) or fmt("%d", v) end
  local function f(x)
    if x ~= x then return "nan" end
    if x == huge then return "inf" elseif x == -huge then return "-inf" end
    for p = 1, 17 do
      local s = fmt("%." .. p .. "g", x)
      if tonumber(s) == x then return s:find("[%.e]") and s or s .. ".0" end
    end
    return fmt("%.17g", x)
  end
  if kind == "c" then
    local im = f(v[2])
    if v[1] == 0 and 1 / v[1] > 0 then return im .. "j" end
    return "(" .. f(v[1]) .. (im:sub(1, 1) == "-" and "" or "+") .. im .. "j)"
  end
  return f(v)
end

--- NumPy's `str()` of an array: the values only, separated by spaces
-- (`[1. 2. 3.]`); a 0-d array prints as its value.
-- @param t nested table of the values, as for `repr`
-- @tparam table info `{dtype =, shape =, kind =}` as for `repr`
-- @tparam[opt] table over print options for this call only
-- @treturn string
-- @usage
-- local format = require "gpuarray.format"
-- print(format.str({1, 2}, {dtype = "int32", shape = {2}}))   --> [1 2]
function M.str(t, info, over)
  local o, dtype, _, kind, ndim, size = describe(info, over)
  if ndim == 0 then return scalar_str(t, kind) end
  if size == 0 then return "[]" end
  return format_array(t, ndim, values_formatter(t, ndim, dtype, kind, o), o.linewidth, " ", " ")
end

return M
