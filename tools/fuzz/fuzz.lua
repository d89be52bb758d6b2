-- tools/fuzz/fuzz.lua: a seeded, time-bounded fuzzer of gpuarray's Lua API
-- (pure Lua 5.4).  `make fuzz` runs it against the ASan+UBSan module with a
-- Lua interpreter built with the API checks on; see the Makefile.
--
-- Each case is a small Lua program, generated as *text* from a random stream
-- seeded by (SEED, case number), then loaded and run under pcall: an error is
-- fine, a crash (sanitizer report, abort, signal) or a hang is a bug.  The
-- program text is written (and flushed) to the log before it runs, so the
-- log's last case is a ready reproducer; `FUZZ_CASE=n` re-runs case n alone.
-- After every case the arrays it made are dropped, a full GC runs, and the
-- memory pools' used_bytes must be back at their baseline (a leak fails the
-- run, as a crash does).
--
-- Environment (make fuzz passes these on):
--   FUZZ_SECONDS  run time (default 120)       SEED       default: the time
--   FUZZ_CASE     run only this case number     FUZZ_CASES stop after n cases
--   FUZZ_SKIP     comma-separated families or tags to leave out; "default"
--                 means the tags of known bugs being fixed (KNOWN below),
--                 "none" nothing; "default,x" adds x
--   FUZZ_ONLY     comma-separated families to run (default: all)
--   FUZZ_LOG      the log file (default fuzz.log)  FUZZ_VERBOSE=1: print cases
--   FUZZ_SLOW     report cases that take longer (seconds, default 5)
--   FUZZ_ERRORS=1 print the commonest error messages (to tune the generators)
local ga = require "gpuarray"

local FAMILIES = { "create", "shape", "index", "reduce", "ufunc", "kernel", "life", "pool",
                   "print", "sort", "files" }

-- Tags of the hostile inputs that hit bugs known today and being fixed (issue
-- 10): FUZZ_SKIP=default leaves these variants out; FUZZ_SKIP=none runs them.
-- (Empty: the six families once listed here -- deep nesting, printing huge
-- empty arrays, weak index keys, repeat and concatenate overflow, huge range
-- steps -- are fixed and run by default.)
local KNOWN = {}

local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == "" then return default end
  return v
end

local function set_of(s)
  local t = {}
  for w in s:gmatch("[^,%s]+") do t[w] = true end
  return t
end

local SECONDS = tonumber(env("FUZZ_SECONDS", "120"))
local SEED = math.tointeger(tonumber(env("SEED", tostring(os.time())))) or os.time()
local ONLY_CASE = math.tointeger(tonumber(env("FUZZ_CASE", "")))
local MAX_CASES = math.tointeger(tonumber(env("FUZZ_CASES", ""))) or math.maxinteger
local VERBOSE = env("FUZZ_VERBOSE", "") == "1"
local ERRSTATS = env("FUZZ_ERRORS", "") == "1" and {} or nil   -- print the commonest errors
local SLOW = tonumber(env("FUZZ_SLOW", "5"))   -- seconds: a case this slow is reported
local SKIP = set_of(env("FUZZ_SKIP", "default"))
if SKIP.default then
  SKIP.default = nil
  for k in pairs(KNOWN) do SKIP[k] = true end
end
if SKIP.none then SKIP = {} end
local ONLY = set_of(env("FUZZ_ONLY", ""))
if next(ONLY) == nil then ONLY = nil end

local active = {}
for _, f in ipairs(FAMILIES) do
  if not SKIP[f] and (ONLY == nil or ONLY[f]) then active[#active + 1] = f end
end
assert(#active > 0, "fuzz: no family left to run (FUZZ_ONLY / FUZZ_SKIP)")

local function skipped(tag) return SKIP[tag] == true end

---------------------------------------------------------------------------
-- random choices (math.random, reseeded per case)

local function rint(a, b) return math.random(a, b) end
local function chance(p) return math.random() < p end
local function pick(t) return t[math.random(#t)] end
local function weighted(t)   -- { {w, v}, ... }
  local sum = 0
  for _, e in ipairs(t) do sum = sum + e[1] end
  local r = math.random() * sum
  for _, e in ipairs(t) do
    r = r - e[1]
    if r <= 0 then return e[2] end
  end
  return t[#t][2]
end

local DTYPES = { "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128" }

-- Lua-source literals of hostile integers, floats and other values.
local HUGE_INTS = { "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
  "4294967295", "(1 << 53) + 1", "(1 << 62)", "-(1 << 62)", "math.maxinteger",
  "math.mininteger", "math.maxinteger - 1", "math.mininteger + 1", "(1 << 40)" }
local FLOATS = { "0.5", "-0.0", "1.5", "-2.5", "3.0", "1e300", "-1e300", "math.huge",
  "-math.huge", "(0/0)", "2^63", "-2^63", "2^62", "2^31", "2^53", "1e19", "1e-320", "-1e-50",
  "2^64", "255.0", "256.0", "-1.0" }
local ODD = { "nil", "true", "false", "'3'", "'abc'", "''", "{}", "{1, 2}", "{{}}", "ga.newaxis",
  "ga.ellipsis", "function() end", "print", "ga.zeros(2)", "io.stdout", "coroutine.create(print)",
  "setmetatable({}, {__index = function() error('boom') end})",
  "setmetatable({}, {__len = function() return 2^62 end})",
  "string.rep('x', 300)", "{n = 3}", "{[0] = 1}", "'float32'", "'int64'" }

local function small_int() return tostring(rint(-3, 5)) end
local function lit_int()
  return weighted { { 6, small_int() }, { 3, pick(HUGE_INTS) } }
end
local function lit_float() return pick(FLOATS) end
local function lit_any()
  return weighted { { 4, small_int() }, { 2, pick(HUGE_INTS) }, { 3, pick(FLOATS) },
                    { 3, pick(ODD) } }
end
-- a count, length or axis: mostly sensible, sometimes hostile
local function lit_count(lo, hi)
  return weighted { { 8, tostring(rint(lo or 0, hi or 4)) }, { 2, pick(HUGE_INTS) },
                    { 1, pick(FLOATS) }, { 1, pick(ODD) } }
end
local function lit_dtype()
  return weighted { { 10, "'" .. pick(DTYPES) .. "'" },
    { 1, pick { "'float'", "'int'", "'f4'", "'double'", "'<f8'", "'object'", "'int128'",
                "''", "'float32 '", "nil", "1", "true", "{dtype = 'int8'}", "{dtype = 3}",
                "{}", "'complex'", "string.rep('a', 1000)" } } }
end
local function lit_scalar_for(dt)
  if dt == "bool" then return pick { "true", "false" } end
  if dt:find("^uint") then return tostring(rint(0, 9)) end
  if dt:find("int") then return tostring(rint(-3, 9)) end
  return pick { "0.5", "-1.25", "2.0", "3" }
end

-- A small array expression (at most a few dozen elements), sometimes a view.
local function shape_list(maxnd, maxd)
  local nd = rint(0, maxnd or 3)
  local t = {}
  for i = 1, nd do t[i] = rint(0, maxd or 4) end
  return t
end
local function shape_lit(t) return "{" .. table.concat(t, ", ") .. "}" end

local function arr(opts)
  opts = opts or {}
  local dt = opts.dtype or pick(DTYPES)
  local xp = chance(0.5) and "ga" or "ga.host"
  local shp = opts.shape or shape_list(opts.maxnd, opts.maxd)
  local n = 1
  for _, d in ipairs(shp) do n = n * d end
  local e
  local how = rint(1, 5)
  if how == 1 then
    e = string.format("%s.zeros(%s, '%s')", xp, shape_lit(shp), dt)
  elseif how == 2 then
    e = string.format("%s.ones(%s, '%s')", xp, shape_lit(shp), dt)
  elseif how == 3 then
    e = string.format("%s.full(%s, %s, '%s')", xp, shape_lit(shp), lit_scalar_for(dt), dt)
  else
    local vals = {}
    for i = 1, n do vals[i] = lit_scalar_for(dt) end
    e = string.format("%s.array({%s}, '%s')", xp, table.concat(vals, ", "), dt)
    if #shp ~= 1 then e = e .. ":reshape(" .. shape_lit(shp) .. ")" end
  end
  if not opts.plain and chance(0.3) then   -- a view
    e = "(" .. e .. ")" .. pick { ".T", "[{ga.ellipsis}]", ":transpose()",
      "[{ga.newaxis}]", "[{ga.ellipsis, ga.newaxis}]" }
    if #shp >= 1 and shp[1] >= 2 then e = e .. pick { "", "[{{1, nil, 2}}]", "[{{-1, 1, -1}}]" } end
  end
  return e, shp, dt
end

---------------------------------------------------------------------------
-- the families: each returns the Lua source of one case.  The program may
-- use `touch(v)` (reads an array's attributes and, when small, its values)
-- and `try(f, ...)` (pcall, result discarded).

local gen = {}

-- nested tables: ragged, mixed types, metatables, deep
local function nested(depth, maxdepth)
  if depth >= maxdepth or chance(0.25) then
    return weighted { { 5, small_int() }, { 3, lit_float() }, { 2, pick { "true", "false" } },
                      { 1, lit_any() }, { 1, "{" .. lit_float() .. ", " .. small_int() .. "}" } }
  end
  local n = weighted { { 6, rint(1, 3) }, { 1, 0 }, { 1, rint(4, 8) } }
  local items = {}
  local ragged = chance(0.2)
  local sub = nil
  for i = 1, n do
    if sub == nil or ragged then sub = nested(depth + 1, maxdepth) end
    items[i] = sub
  end
  local t = "{" .. table.concat(items, ", ") .. "}"
  local m = rint(1, 14)
  if m == 1 then
    t = "setmetatable(" .. t .. ", {__len = function() return " .. lit_count() .. " end})"
  elseif m == 2 then
    t = "setmetatable(" .. t .. ", {__index = function(_, k) return " .. lit_any() .. " end})"
  elseif m == 3 then
    t = "{" .. table.concat(items, ", ") .. (n > 0 and ", " or "") .. "[" .. lit_count(1, 9) ..
        "] = " .. small_int() .. "}"
  elseif m == 4 then
    t = "{n = " .. lit_count() .. ", " .. table.concat(items, ", ") .. "}"
  end
  return t
end

-- deep(d): {{...{1}...}} d deep (built at run time: Lua's parser stops at
-- 200 levels)
local function deep_table(d) return "deep(" .. d .. ")" end
local function deep(d)
  local t = 1
  for _ = 1, d do t = { t } end
  return t
end

function gen.create()
  local k = rint(1, 8)
  if k <= 3 then
    local src = nested(0, rint(1, 5))
    if not skipped("deep") and chance(0.1) then src = deep_table(rint(17, 300)) end
    local dt = chance(0.6) and (", " .. lit_dtype()) or ""
    return "local x = ga.array(" .. src .. dt .. ")\ntouch(x)"
  elseif k == 4 then
    local shp = {}
    for i = 1, rint(0, 4) do shp[i] = lit_count(0, 3) end
    local f = pick { "zeros", "ones", "empty" }
    return string.format("local x = ga.%s({%s}, %s)\ntouch(x)", f, table.concat(shp, ", "),
                         lit_dtype())
  elseif k == 5 then
    return string.format("local x = ga.full(%s, %s, %s)\ntouch(x)",
      chance(0.5) and lit_count(0, 3) or "{" .. lit_count(0, 3) .. ", " .. lit_count(0, 3) .. "}",
      lit_any(), lit_dtype())
  elseif k == 6 then
    local a = {}
    for i = 1, rint(1, 3) do a[i] = weighted { { 3, small_int() }, { 2, lit_int() }, { 2, lit_float() } } end
    if chance(0.4) then a[#a + 1] = lit_dtype() end
    return "local x = ga.arange(" .. table.concat(a, ", ") .. ")\ntouch(x)"
  elseif k == 7 then
    local f = pick { "linspace", "eye", "identity" }
    if f == "linspace" then
      return string.format("local x = ga.linspace(%s, %s, %s)\ntouch(x)", lit_any(), lit_any(),
        chance(0.5) and lit_count(0, 5) or "{num = " .. lit_count(0, 5) .. ", endpoint = " ..
        pick { "true", "false", "1" } .. ", dtype = " .. lit_dtype() .. "}")
    end
    return string.format("local x = ga.%s(%s, %s)\ntouch(x)", f, lit_count(0, 4), lit_any())
  else
    -- fill / astype / set with hostile values (float -> int conversions)
    local e, _, dt = arr()
    local op = pick {
      "x:fill(" .. lit_any() .. ")",
      "touch(x:astype(" .. lit_dtype() .. (chance(0.3) and ", {casting = 'safe'}" or "") .. "))",
      "x:set(" .. nested(0, 3) .. ")",
      "touch(ga.asarray(x, " .. lit_dtype() .. "))",
      "touch(ga.full_like(x, " .. lit_any() .. "))",
      "touch(ga." .. pick { "zeros_like", "ones_like", "empty_like" } .. "(x, " .. lit_dtype() .. "))",
    }
    return "local x = " .. e .. " -- " .. dt .. "\n" .. op .. "\ntouch(x)"
  end
end

local function axis_lit(nd)
  return weighted { { 8, tostring(rint(-(nd + 1), nd + 1)) }, { 2, lit_count() },
    { 2, "{" .. rint(-nd, nd) .. ", " .. rint(-nd, nd) .. "}" }, { 1, "false" }, { 1, "nil" } }
end

local function shape_arg()
  local t = {}
  for i = 1, rint(0, 4) do t[i] = weighted { { 6, tostring(rint(-1, 6)) }, { 2, lit_count() } } end
  return "{" .. table.concat(t, ", ") .. "}"
end

function gen.shape()
  local e, shp = arr()
  local nd = #shp
  local ops = {
    function() return "x:reshape(" .. shape_arg() .. ")" end,
    function() return "ga.reshape(x, " .. shape_arg() .. ", " .. pick { "'C'", "'F'", "'A'", "'Q'", "nil" } .. ")" end,
    function()
      local a = {}
      for i = 1, rint(0, nd + 1) do a[i] = axis_lit(nd) end
      return "ga.transpose(x" .. (#a > 0 and ", {" .. table.concat(a, ", ") .. "}" or "") .. ")"
    end,
    function() return "ga.swapaxes(x, " .. axis_lit(nd) .. ", " .. axis_lit(nd) .. ")" end,
    function() return "ga.moveaxis(x, " .. axis_lit(nd) .. ", " .. axis_lit(nd) .. ")" end,
    function() return "ga.rollaxis(x, " .. axis_lit(nd) .. ", " .. axis_lit(nd) .. ")" end,
    function() return "ga.expand_dims(x, " .. axis_lit(nd) .. ")" end,
    function() return "ga.squeeze(x, " .. axis_lit(nd) .. ")" end,
    function() return "ga.broadcast_to(x, " .. shape_arg() .. ")" end,
    function() return "ga.flip(x, " .. axis_lit(nd) .. ")" end,
    function() return "ga.roll(x, " .. lit_int() .. ", " .. axis_lit(nd) .. ")" end,
    function()
      return "ga.roll(x, {" .. lit_int() .. ", " .. lit_int() .. "}, {" .. axis_lit(nd) .. ", " ..
             axis_lit(nd) .. "})"
    end,
    function()
      if not skipped("repeat.overflow") and chance(0.3) then
        -- huge counts whose total wraps (the known bug's variant): one per
        -- element of a 1-D array, or one for all
        local n, c = rint(1, 4), {}
        for i = 1, n do c[i] = chance(0.6) and pick(HUGE_INTS) or small_int() end
        if chance(0.5) then   -- totals that wrap to a small length
          c = pick { { "math.maxinteger", "math.maxinteger", tostring(rint(2, 5)) },
                     { "1 << 62", "1 << 62", "1 << 62", "1 << 62", tostring(rint(0, 3)) },
                     { "1 << 63", "1 << 63", small_int() }, { "-1", "2" } }
          n = #c
        end
        return "ga['repeat'](ga.arange(" .. n .. "), " ..
               (chance(0.7) and "{" .. table.concat(c, ", ") .. "}" or pick(HUGE_INTS)) .. ")"
      end
      local function cnt() return weighted { { 6, small_int() }, { 1, lit_float() }, { 1, pick(ODD) } } end
      local c = chance(0.5) and cnt() or "{" .. cnt() .. ", " .. cnt() .. ", " .. cnt() .. "}"
      return "ga['repeat'](x, " .. c .. ", " .. axis_lit(nd) .. ")"
    end,
    function() return "ga.tile(x, " .. (chance(0.5) and lit_count(0, 3) or shape_arg()) .. ")" end,
    function()
      local parts = { "x" }
      for i = 2, rint(1, 4) do parts[i] = (arr()) end
      if not skipped("concat.overflow") and chance(0.3) then
        -- lengths whose sum wraps (the known bug's variant)
        parts = { "ga.zeros(" .. rint(0, 2) .. ", 'bool')" }
        local wrap = chance(0.5)   -- four of 2^62: the sum wraps to the small part's length
        for _ = 1, wrap and 4 or rint(2, 5) do
          parts[#parts + 1] = "ga.broadcast_to(ga.zeros(1, 'bool'), {" ..
                              (wrap and "1 << 62" or pick(HUGE_INTS)) .. "})"
        end
        return "ga.concatenate({" .. table.concat(parts, ", ") .. "}" ..
               pick { "", ", 1", ", {axis = false}", ", -1" } .. ")"
      end
      local f = pick { "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack" }
      local extra = ""
      if f == "concatenate" or f == "stack" then
        extra = ", " .. pick { axis_lit(nd), "{axis = false}", "{axis = " .. axis_lit(nd) .. ", dtype = " ..
                lit_dtype() .. "}", "{out = " .. (arr()) .. "}", "{casting = 'no'}" }
      end
      return "ga." .. f .. "({" .. table.concat(parts, ", ") .. "}" .. extra .. ")"
    end,
    function()
      local f = pick { "split", "array_split", "hsplit", "vsplit", "dsplit" }
      local n = weighted { { 4, lit_count(1, 4) },
        { 2, "{" .. lit_int() .. ", " .. lit_int() .. "}" }, { 1, "{}" } }
      return "ga." .. f .. "(x, " .. n .. (f:sub(1, 1) ~= "h" and f:sub(1, 1) ~= "v" and
             f:sub(1, 1) ~= "d" and ", " .. axis_lit(nd) or "") .. ")"
    end,
    function() return "ga.diagonal(x, " .. lit_int() .. ", " .. axis_lit(nd) .. ", " .. axis_lit(nd) .. ")" end,
    function() return "ga." .. pick { "tril", "triu", "diag", "diagflat" } .. "(x, " .. lit_int() .. ")" end,
    function() return "ga." .. pick { "atleast_1d", "atleast_2d", "atleast_3d", "ravel", "flatten",
                        "ascontiguousarray", "asfortranarray", "fliplr", "flipud" } .. "(x)" end,
  }
  local body = {}
  for i = 1, rint(1, 3) do
    body[i] = "local r" .. i .. " = " .. pick(ops)() .. "\ntouch(r" .. i .. ")"
  end
  return "local x = " .. e .. "\n" .. table.concat(body, "\n")
end

-- one index item for an array of `nd` dims
local function index_item(xshape)
  local function bound(step)
    -- a huge step overflows the view's stride (found by this fuzzer)
    local huge = (step and skipped("hugestep")) and small_int() or pick(HUGE_INTS)
    return weighted { { 6, tostring(rint(-4, 5)) }, { 2, huge }, { 1, "nil" },
                      { 1, step and skipped("hugestep") and "2.0" or pick(FLOATS) }, { 1, pick(ODD) } }
  end
  return weighted {
    { 5, tostring(rint(-4, 5)) },
    { 1, lit_int() },
    { 5, "{" .. bound() .. ", " .. bound() .. (chance(0.6) and ", " .. bound(true) or "") .. "}" },
    { 1, "{}" },
    { 2, "ga.newaxis" }, { 2, "ga.ellipsis" },
    { 3, (arr { dtype = pick { "int64", "int32", "uint8", "int8", "bool", "uint64", "float32" },
                maxnd = 2, plain = true }) },
    { 2, "ga.array({" .. small_int() .. ", " .. lit_int() .. "})" },
    { 2, (xshape and #xshape >= 1 and
          (arr { dtype = "bool", shape = { xshape[1] }, plain = true }) or "ga.array({true})") },
    { 1, pick(ODD) }, { 1, lit_float() }, { 1, "{'2', '3'}" },
  }
end

function gen.index()
  local e, shp = arr { maxd = 5 }
  local nd = #shp
  local key
  if chance(0.25) then
    key = index_item(shp)
  else
    local items = {}
    for i = 1, rint(0, nd + 2) do items[i] = index_item(shp) end
    key = "{" .. table.concat(items, ", ") .. "}"
  end
  local lines = { "local x = " .. e }
  if not skipped("weakindex") and chance(0.1) then
    -- an index array only a weak table holds, with the collector running
    -- all the time (the runner restores the GC's parameters)
    key = "setmetatable({ga.arange(1, " .. rint(1, 6) .. ")" .. pick { "", ", 1", ", {}" } ..
          "}, {__mode = 'v'})"
    lines[#lines + 1] = "collectgarbage('incremental', 0, " .. pick { "100", "400", "1000" } .. ")"
  end
  lines[#lines + 1] = "local key = " .. key
  local k = rint(1, 4)
  if k <= 2 then
    lines[#lines + 1] = "touch(x[key])"
  else
    local v = weighted { { 3, lit_any() }, { 2, nested(0, 2) }, { 3, (arr { maxnd = 2 }) },
                         { 1, "x" }, { 1, "x[{ga.ellipsis}]" } }
    lines[#lines + 1] = "x[key] = " .. v
    lines[#lines + 1] = "touch(x)"
  end
  if chance(0.3) then
    lines[#lines + 1] = "touch(x:" .. pick { "take", "put", "compress" } .. "(" ..
      (arr { dtype = pick { "int64", "bool", "int8" }, maxnd = 1, plain = true }) ..
      ", " .. axis_lit(nd) .. "))"
  end
  return table.concat(lines, "\n")
end

local REDUCTIONS = { "sum", "prod", "nansum", "nanprod", "max", "min", "amax", "amin", "nanmax",
  "nanmin", "argmax", "argmin", "nanargmax", "nanargmin", "all", "any", "count_nonzero", "mean",
  "nanmean", "var", "std", "nanvar", "nanstd", "ptp", "average", "median", "cumsum", "cumprod",
  "trace" }

function gen.reduce()
  local e, shp = arr { maxd = 3 }
  local nd = #shp
  local f = pick(REDUCTIONS)
  local opts = {}
  if chance(0.4) then opts[#opts + 1] = "keepdims = " .. pick { "true", "false", "1", "'yes'" } end
  if chance(0.3) then opts[#opts + 1] = "dtype = " .. lit_dtype() end
  if chance(0.3) then
    opts[#opts + 1] = "out = " .. weighted { { 3, (arr { maxnd = 2, maxd = 3 }) },
                                             { 1, "{}" }, { 1, "x" }, { 1, lit_any() } }
  end
  if chance(0.15) then opts[#opts + 1] = "ddof = " .. lit_any() end
  if chance(0.2) then opts[#opts + 1] = "axis = " .. axis_lit(nd) end
  local args = { "x" }
  if chance(0.6) then args[#args + 1] = axis_lit(nd) end
  if #opts > 0 then args[#args + 1] = "{" .. table.concat(opts, ", ") .. "}" end
  local call = "ga." .. f .. "(" .. table.concat(args, ", ") .. ")"
  if chance(0.2) and f ~= "trace" then
    call = "x:" .. f .. "(" .. table.concat(args, ", ", 2) .. ")"
  end
  return "local x = " .. e .. "\ntouch(" .. call .. ")"
end

-- the ufuncs, with their numbers of inputs from src/ga_ops.def (the public
-- names: those in `ga`)
local UFUNCS = {}
do
  local f = io.open("src/ga_ops.def")
  if f then
    for name, nin, nout in f:read("a"):gmatch('GA_OP%([%w_]+,%s*"([%w_]+)",%s*(%d+),%s*(%d+)') do
      if type(ga[name]) == "function" then
        UFUNCS[#UFUNCS + 1] = { name = name, nin = tonumber(nin), nout = tonumber(nout) }
      end
    end
    f:close()
  end
  for _, n in ipairs { "round", "clip", "where", "angle", "real", "imag", "isclose" } do
    if type(ga[n]) == "function" then UFUNCS[#UFUNCS + 1] = { name = n, nin = 2, nout = 1 } end
  end
  if #UFUNCS == 0 then UFUNCS[1] = { name = "add", nin = 2, nout = 1 } end
end

local function operand(shp)
  return weighted {
    { 6, (arr { shape = shp }) }, { 2, (arr { maxnd = 2, maxd = 2 }) },
    { 2, small_int() }, { 2, lit_int() }, { 2, lit_float() }, { 1, pick { "true", "false" } },
    { 1, pick(ODD) },
  }
end

function gen.ufunc()
  local u = pick(UFUNCS)
  local shp = shape_list(2, 3)
  local nin = u.nin
  if chance(0.05) then nin = rint(0, 4) end
  local args = {}
  for i = 1, nin do args[i] = operand(shp) end
  local opts = {}
  if chance(0.4) then opts[#opts + 1] = "dtype = " .. lit_dtype() end
  if chance(0.3) then
    opts[#opts + 1] = "casting = " .. pick { "'same_kind'", "'unsafe'", "'safe'", "'equiv'",
                                            "'no'", "'bogus'", "1", "true" }
  end
  if chance(0.3) then
    local o = u.nout == 2 and "{" .. (arr { shape = shp }) .. ", " .. (arr { shape = shp }) .. "}"
              or weighted { { 4, (arr { shape = shp }) }, { 1, "{}" }, { 1, lit_any() },
                            { 1, "ga.array({1, 2, 3}, 'int8')[{{1, nil, 2}}]" } }
    opts[#opts + 1] = "out = " .. o
  end
  if #opts > 0 or chance(0.05) then args[#args + 1] = "{" .. table.concat(opts, ", ") .. "}" end
  local lines = { "touch(ga." .. u.name .. "(" .. table.concat(args, ", ") .. "))" }
  if chance(0.2) then   -- operators and in-place through out= the input itself
    local a = arr { shape = shp }
    lines[1] = "local a = " .. a .. "\n" .. "touch(ga." .. u.name .. "(" ..
      table.concat(args, ", ", 1, math.max(0, nin - 1)) .. (nin > 1 and ", " or "") ..
      "a, {out = a" .. (chance(0.5) and ", casting = 'unsafe'" or "") .. "}))"
  elseif chance(0.2) then
    local ops = { "+", "-", "*", "/", "//", "%", "^", "&", "|", "~", "<<", ">>" }
    lines[1] = "touch(" .. operand(shp) .. " " .. pick(ops) .. " " .. operand(shp) .. ")"
  end
  if chance(0.1) then
    lines[#lines + 1] = "touch(ga.result_type(" .. lit_dtype() .. ", " .. lit_dtype() .. ", " ..
                        lit_dtype() .. "))"
  end
  return table.concat(lines, "\n")
end

-- kernel parameter strings
local TOKENS = { "float32", "float64", "int32", "int64", "bool", "uint8", "complex64", "float16",
  "T", "U", "raw", "const", "x", "y", "z", "out", "i", "_ind", "n", ",", ",", " ", "  ",
  "float", "int", "1x", "x-y", "\0", "é", "(", ")", "*", "&", ";", "/*", "//", "\n", "__x",
  "raw raw", "T T", "a.b" }
local function param_string(nparams)
  if chance(0.15) then
    return string.format("%q", pick { "", " ", ",", ",,", string.rep("T x, ", 200),
      "float32 " .. string.rep("n", rint(200, 5000)), string.rep("a", 70000), "\0float32 x" })
  end
  local parts = {}
  for i = 1, nparams or rint(1, 3) do
    if chance(0.7) then
      parts[i] = (chance(0.2) and "raw " or "") .. pick { "float32", "T", "int64", "bool", "U",
        "complex128", "float16" } .. " " .. pick { "a", "b", "c", "x", "y", "z" } .. (i > 1 and i or "")
    else
      local w = {}
      for j = 1, rint(1, 4) do w[j] = pick(TOKENS) end
      parts[i] = table.concat(w, " ")
    end
  end
  return string.format("%q", table.concat(parts, ", "))
end

local function code_string()
  return string.format("%q", pick { "z = x", "z = a + b", "z = ", "}", "{{", "z = x; } int y; {",
    "", string.rep("z = z + 1;", rint(1, 50)), "a", "a + b", "__syncthreads()", "\0" })
end

local function types_list(n)
  local t = {}
  for i = 1, n do
    t[i] = weighted { { 6, "'" .. pick(DTYPES) .. "'" }, { 1, small_int() }, { 1, lit_float() },
                      { 1, pick(ODD) } }
  end
  return "{" .. table.concat(t, ", ") .. "}"
end

function gen.kernel()
  local name = weighted { { 5, "'k'" }, { 1, "nil" },
    { 2, string.format("%q", string.rep("k", rint(100, 600))) }, { 1, "'1bad'" },
    { 1, "'a b'" }, { 1, "'k\\0x'" }, { 1, "''" }, { 1, lit_any() } }
  local kopts = weighted { { 5, "nil" }, { 1, "{preamble = " .. code_string() .. "}" },
    { 1, "{reduce_dims = " .. lit_any() .. ", no_return = " .. lit_any() .. "}" },
    { 1, "{loop_prep = " .. code_string() .. ", after_loop = " .. code_string() .. "}" },
    { 1, lit_any() } }
  local sopts = weighted { { 5, "" }, { 1, ", {layout = " .. pick { "'strided'", "'contiguous'",
    "'transposed'", "'x'", "1" } .. "}" }, { 1, ", {arch = " .. lit_any() .. "}" },
    { 1, ", {size = " .. lit_count() .. "}" }, { 1, ", {shape = " .. shape_arg() .. ", axis = " ..
    axis_lit(2) .. ", keepdims = " .. pick { "true", "false" } .. "}" } }
  if chance(0.6) then
    return string.format("local k = ga.ElementwiseKernel(%s, %s, %s, %s, %s)\n" ..
      "touch(k.nin); touch(k.in_params)\nlocal s = k:source(%s%s)\nassert(type(s) == 'string')",
      param_string(), param_string(rint(1, 2)), code_string(), name, kopts, types_list(rint(1, 4)), sopts)
  end
  return string.format("local k = ga.ReductionKernel(%s, %s, %s, %s, %s, %s, %s, %s)\n" ..
    "touch(k.nin)\nlocal s = k:source(%s%s)\nassert(type(s) == 'string')",
    param_string(), param_string(1), code_string(), pick { "'a + b'", "'max(a, b)'", "''", "'a +'" },
    pick { "'y = a'", "'y = a / _in_ind.size()'", "''", "'}'" },
    weighted { { 3, "'0'" }, { 1, "nil" }, { 1, lit_any() }, { 1, "'0; }'" } },
    name, kopts, types_list(rint(1, 3)), sopts)
end

-- lifetimes: free, <close>, views of freed bases, weak tables, forced GC
function gen.life()
  local e = arr { maxnd = 2, maxd = 4 }
  local use = function(v)
    return pick { "touch(" .. v .. ")", "try(function() return " .. v .. " + 1 end)",
      "try(function() return " .. v .. ":sum() end)", "try(function() return " .. v .. "[1] end)",
      "try(function() " .. v .. "[{ga.ellipsis}] = 2 end)", "try(function() return tostring(" .. v .. ") end)",
      "try(function() return " .. v .. ":copy() end)", "try(function() return ga.add(1, 1, {out = " .. v .. "}) end)",
      "try(function() return " .. v .. ":reshape(-1) end)", "try(function() return " .. v .. ":free() end)",
      "try(function() return ga.concatenate({" .. v .. ", " .. v .. "}) end)" }
  end
  local k = rint(1, 6)
  if k == 1 then
    return "local x = " .. e .. "\nx:free()\n" .. use("x") .. "\n" .. use("x") .. "\nx:free()"
  elseif k == 2 then
    return "local x = " .. e .. "\nlocal v = x" .. pick { "[{ga.ellipsis}]", ".T", "[{ga.newaxis}]",
      ":reshape(-1)", ":ravel()" } .. "\nx:free()\n" .. use("v") .. "\n" .. use("(v.base or v)")
  elseif k == 3 then
    return "local y\ndo\n  local x <close> = " .. e .. "\n  y = x[{ga.ellipsis}]\n  " .. use("x") ..
           "\nend\n" .. use("y") .. "\n" .. use("y")
  elseif k == 4 then
    return "local w = setmetatable({}, {__mode = '" .. pick { "k", "v", "kv" } .. "'})\n" ..
      "for i = 1, " .. rint(1, 5) .. " do w[i] = " .. e .. "; w[ga.zeros(1)] = w[i] end\n" ..
      "collectgarbage(); collectgarbage()\nfor _, v in pairs(w) do " .. use("v") .. " end"
  elseif k == 5 then
    return "local x = " .. e .. "\nlocal v = x[{ga.ellipsis}]\nx = nil\n" ..
      "collectgarbage(); collectgarbage()\n" .. use("v") .. "\nv:free()\n" .. use("v")
  end
  return "local t = {}\nfor i = 1, " .. rint(2, 20) .. " do t[i] = " .. e ..
    (chance(0.5) and "[{ga.ellipsis}]" or "") .. "; if i % 3 == 0 then t[i - 1]:free() end; " ..
    "if i % 4 == 0 then collectgarbage('step') end end\n" .. "for _, v in ipairs(t) do " .. use("v") .. " end"
end

-- memory pool limits (the runner puts the fuzz-wide limit back afterwards)
function gen.pool()
  local p = pick { "ga.get_default_memory_pool()", "ga.get_default_pinned_memory_pool()" }
  local lim = weighted { { 4, tostring(rint(0, 4096)) }, { 2, pick { "1", "256", "1 << 20" } },
    { 1, lit_any() }, { 1, "{size = " .. lit_any() .. "}" }, { 1, "{fraction = " .. lit_any() .. "}" },
    { 1, "2^63" }, { 1, "math.huge" } }
  -- cap(p): a limit the case removed (0) or raised past the run's is put
  -- back before anything allocates: hostile sizes must fail, not be made
  local lines = { "local p = " .. p, "try(p.set_limit, p, " .. lim .. ")", "cap(p)" }
  for _ = 1, rint(1, 4) do
    lines[#lines + 1] = pick { "touch(" .. (arr()) .. ")", "try(function() return ga.zeros(" ..
      lit_count(0, 100000) .. ") end)", "p:free_all_blocks()", "touch(p:used_bytes() + p:total_bytes())",
      "touch(p:get_limit())", "touch(ga.arange(" .. rint(0, 5000) .. ") * 2)",
      "collectgarbage()", "touch(p:n_free_blocks())" }
  end
  return table.concat(lines, "\n")
end

function gen.print()
  local k = rint(1, 5)
  if k == 1 and not skipped("hugeempty") then
    return "local x = ga.zeros({" .. pick { "1 << 40", "1 << 31", "2^40" } .. ", 0})\ntouch(tostring(x))"
  elseif k == 2 and not skipped("deep") then
    local s = {}
    for i = 1, rint(17, 40) do s[i] = "1" end
    return "local x = ga.zeros({" .. table.concat(s, ", ") .. "}, " .. lit_dtype() ..
           ")\ntouch(tostring(x))\ntouch(x:totable())"
  end
  local e = arr { maxnd = 4 }
  local what = pick { "tostring(x)", "x:totable()", "x:item()", "x:tolist()", "#x", "x.shape",
    "x.strides", "x.flags", "x.base", "x.nbytes", "x.itemsize", "x.T", "x.real", "x.imag",
    "string.format('%s', x)", "x.nonexistent", "x[0]", "ga.asnumpy(x)", "x:get()", "x.device",
    "x.data", "x.__index", "rawlen(x)" }
  return "local x = " .. e .. "\ntouch(" .. what .. ")"
end

-- .npy strings and raw bytes (issue 15): exact round trips, mutated and
-- cut .npy bytes, hostile frombuffer arguments, print options
function gen.files()
  local e = arr { maxnd = 3 }
  local k = rint(1, 5)
  if k == 1 then
    return "local x = " .. e .. "\nlocal y = ga.loads(x:dumps())\n" ..
      "assert(y:tobytes() == x:tobytes() and y.dtype == x.dtype and #y.shape == #x.shape, 'npy round trip')"
  elseif k == 2 then
    return "local s = (" .. e .. "):dumps()\nfor _ = 1, " .. rint(1, 4) .. " do\n" ..
      "  local i = math.random(#s)\n" ..
      "  s = s:sub(1, i - 1) .. string.char(math.random(0, 255)) .. s:sub(i + 1)\nend\n" ..
      "touch(try(ga.loads, s))\ntouch(try(ga.loads, s:sub(1, math.random(0, #s))))"
  elseif k == 3 then
    return "touch(try(ga.frombuffer, " .. pick { "''", "'abc'", "string.rep('x', 64)", lit_any() } .. ", " ..
      lit_dtype() .. ", {count = " .. lit_int() .. ", offset = " .. lit_int() .. "}))"
  elseif k == 4 then
    return "local x = " .. e .. "\ntouch(try(x.tobytes, x, " .. pick { "'C'", "'F'", "'A'", lit_any() } ..
      "))\ntouch(try(ga.array_str, x, {precision = " .. lit_int() .. "}))"
  end
  return "touch(try(ga.set_printoptions, {" .. pick { "precision", "threshold", "edgeitems", "linewidth" } ..
    " = " .. pick { lit_int(), lit_any() } .. "}))\ntouch(tostring(" .. e .. "))\nga.set_printoptions()"
end

function gen.sort()
  local e, shp = arr { maxnd = 2 }
  local nd = #shp
  local f = pick { "sort", "argsort", "partition", "argpartition", "searchsorted", "unique",
    "lexsort", "nonzero", "argwhere", "flatnonzero", "count_nonzero", "where" }
  local args
  if f == "searchsorted" then
    args = "x, " .. weighted { { 3, lit_any() }, { 2, (arr()) } } .. ", " ..
           pick { "'left'", "'right'", "'middle'", "nil",
                  "{side = 'right', sorter = " .. (arr { dtype = "int64", plain = true }) .. "}" }
  elseif f == "partition" or f == "argpartition" then
    args = "x, " .. lit_count(1, 4) .. ", " .. axis_lit(nd)
  elseif f == "where" then
    args = "x, " .. operand(shp) .. ", " .. operand(shp)
  elseif f == "lexsort" then
    args = "{x, x}"
  elseif f == "nonzero" or f == "argwhere" or f == "flatnonzero" or f == "unique" then
    args = "x"
  else
    args = "x" .. (chance(0.6) and ", " .. axis_lit(nd) or "")
  end
  return "local x = " .. e .. "\ntouch(ga." .. f .. "(" .. args .. "))"
end

---------------------------------------------------------------------------
-- the runner

-- Reads what a value offers without ever being expensive: attributes always,
-- values only for small arrays.
local function touch(v, depth)
  depth = depth or 0
  if depth > 3 then return end
  local ok_mt = getmetatable(v) == ga.core.ndarray_mt
  if ok_mt then
    local ok, size = pcall(function() return v.size end)
    pcall(function() return v.shape, v.dtype, v.strides, v.ndim, v.flags end)
    if ok and size == 0 and skipped("hugeempty") then
      -- printing an empty array costs O(its long axes) today (known bug)
      local long = 1.0   -- a float: the product of huge axes must not wrap
      for _, d in ipairs(v.shape) do long = long * math.max(d, 1) end
      if long > 4096 then return end
    end
    if ok and type(size) == "number" and size <= 4096 then
      pcall(tostring, v)
      pcall(v.totable, v)
    elseif ok and type(size) == "number" and size > 0 then
      pcall(tostring, v)   -- summarised: O(printed elements)
    end
  elseif type(v) == "table" then
    local n = 0
    for _, e in pairs(v) do
      n = n + 1
      if n > 64 then break end
      touch(e, depth + 1)
    end
  end
end

local function try(f, ...) pcall(f, ...) end

local pools = { ga.get_default_memory_pool(), ga.get_default_pinned_memory_pool() }
-- a limit for the whole run: hostile sizes must fail, not take the machine
local LIMIT = 256 << 20
local function cap(p)
  local l = p:get_limit()
  if l == 0 or l > LIMIT then p:set_limit(LIMIT) end
end

local case_env = setmetatable({ ga = ga, touch = touch, try = try, cap = cap, deep = deep },
                               { __index = _G })
local function reset_pools()
  for _, p in ipairs(pools) do p:set_limit(LIMIT) end
end
local function used()
  local t = {}
  for i, p in ipairs(pools) do t[i] = p:used_bytes() end
  return t
end

local logname = env("FUZZ_LOG", "fuzz.log")
local log
local function open_log()
  if log then log:close() end
  log = assert(io.open(logname, "w"))
  log:write(string.format("seed %d families %s skip %s\n", SEED, table.concat(active, ","),
    (function() local s = {} for k in pairs(SKIP) do s[#s + 1] = k end table.sort(s)
      return #s > 0 and table.concat(s, ",") or "none" end)()))
  log:flush()
end

local function make_case(n)
  math.randomseed(SEED, n)
  local fam = pick(active)
  return fam, gen[fam]()
end

local function run_case(n, fam, src)
  log:write(string.format("case %d %s\n%s\n-- end case %d\n", n, fam, src, n))
  log:flush()
  if VERBOSE then io.stderr:write(string.format("case %d %s\n%s\n", n, fam, src)) end
  local chunk, err = load(src, "=case " .. n, "t", case_env)
  if not chunk then return false, "fuzzer bug: generated code does not compile: " .. err end
  local ok, msg = pcall(chunk)
  return true, ok, msg
end

local function fail(n, fam, src, why)
  io.stderr:write(string.format("\nfuzz: FAILED at case %d (%s), seed %d: %s\n%s\n", n, fam, SEED, why, src))
  io.stderr:write(string.format("fuzz: reproduce with: make fuzz SEED=%d FUZZ_CASE=%d FUZZ_SKIP=%s%s\n",
    SEED, n, env("FUZZ_SKIP", "default"), ONLY and " FUZZ_ONLY=" .. env("FUZZ_ONLY", "") or ""))
  log:write("FAILED: " .. why .. "\n")
  log:close()
  os.exit(1)
end

-- after a case: nothing of it may stay in the pools
local function check_pools(n, fam, src, base)
  collectgarbage("collect"); collectgarbage("collect")
  local now = used()
  for i = 1, #pools do
    if now[i] ~= base[i] then
      fail(n, fam, src, string.format("pool %d used_bytes %d after the case, %d before (a leak)",
        i, now[i], base[i]))
    end
  end
end

-- Fixed cases, run before the random ones in every run (not with
-- FUZZ_CASE): regressions that random cases find only by luck.  The deep
-- ones keep a value per level on the Lua stack: under the checked
-- interpreter (Lua's API checks on) a missing lua_checkstack aborts here,
-- in the main thread and in a coroutine, whose stack starts small.
local ONES32 = "{" .. ("1, "):rep(31) .. "1}"
local FIXED = {
  "touch(ga.array(deep(32)))",
  "touch(ga.array(deep(32), 'complex128'))",
  "try(ga.array, deep(33))",
  "local x = ga.ones(" .. ONES32 .. ", 'complex128')\nlocal s, t = tostring(x), x:totable()",
  "local x = ga.ones(" .. ONES32 .. ", 'bool')\ncoroutine.wrap(function()\n" ..
    "  local s, t = tostring(x), x:totable()\n  touch(ga.array(deep(32), 'int8'))\nend)()",
}

local function main()
  open_log()
  io.stderr:write(string.format("fuzz: seed %d, %s s, families %s%s\n", SEED,
    ONLY_CASE and "one case" or tostring(SECONDS), table.concat(active, ","),
    next(SKIP) and " (FUZZ_SKIP: " .. env("FUZZ_SKIP", "default") .. ")" or ""))
  reset_pools()
  collectgarbage("collect"); collectgarbage("collect")
  local base = used()
  local t0 = os.time()
  local clock0 = os.clock()
  local counts, errors, slow = {}, 0, 0
  local first, last = ONLY_CASE or 1, ONLY_CASE or MAX_CASES
  if not ONLY_CASE then
    for i, src in ipairs(FIXED) do
      local compiled, ok, msg = run_case(-i, "fixed", src)
      if not compiled then fail(-i, "fixed", src, ok) end
      if not ok and not src:find("^try") then fail(-i, "fixed", src, "raised: " .. tostring(msg)) end
      check_pools(-i, "fixed", src, base)
    end
  end
  local n = first - 1
  while n < last do
    n = n + 1
    if not ONLY_CASE and os.time() - t0 >= SECONDS then n = n - 1; break end
    if n % 20000 == 0 then open_log() end   -- keep the log short: the last cases matter
    local fam, src = make_case(n)
    local c0 = ga.core.clock()
    local compiled, ok, msg = run_case(n, fam, src)
    local dt = ga.core.clock() - c0
    if dt > SLOW then
      slow = slow + 1
      io.stderr:write(string.format("fuzz: case %d (%s) took %.1f s:\n%s\n", n, fam, dt, src))
    end
    if not compiled then fail(n, fam, src, ok) end
    if not ok then
      errors = errors + 1
      if ERRSTATS then
        local k = fam .. ": " .. tostring(msg):gsub("^[^:]*:%d+: ", ""):gsub("%d+", "N"):sub(1, 70)
        ERRSTATS[k] = (ERRSTATS[k] or 0) + 1
      end
      if ONLY_CASE then io.stderr:write("fuzz: the case raised: " .. tostring(msg) .. "\n") end
    end
    if fam == "pool" then reset_pools() end
    collectgarbage("incremental", 200, 100)   -- Lua 5.4's defaults, if the case changed them
    check_pools(n, fam, src, base)
    counts[fam] = (counts[fam] or 0) + 1
  end
  for _, p in ipairs(pools) do p:set_limit(0) end
  local ran = n - first + 1
  local parts = {}
  for _, f in ipairs(active) do parts[#parts + 1] = f .. "=" .. (counts[f] or 0) end
  io.stderr:write(string.format("fuzz: %d cases in %d s (%.0f s CPU), %d raised errors, %d slow" ..
    " (> %g s), no crash, no pool leak; seed %d\nfuzz: per family: %s\n", ran, os.time() - t0,
    os.clock() - clock0, errors, slow, SLOW, SEED, table.concat(parts, " ")))
  if ERRSTATS then
    local t = {}
    for k, c in pairs(ERRSTATS) do t[#t + 1] = { k, c } end
    table.sort(t, function(a, b) return a[2] > b[2] end)
    for i = 1, math.min(#t, 60) do io.stderr:write(string.format("%6d  %s\n", t[i][2], t[i][1])) end
  end
  log:write("done\n")
  log:close()
end

main()
