--- Kernel fusion: `ga.fuse` turns a Lua function of arrays into one kernel
-- (CuPy's `cupy.fuse`), the third front door of the one elementwise pipeline.
--
-- **How.** The first call with a given signature (each argument's dtype and
-- ndim; which arguments are Lua numbers, and their kind) runs the function
-- once with *symbolic* arrays: the ufuncs (`ga.exp`, `ga.maximum`, every op
-- row and its operator metamethod), `ga.where`, `astype` and the reductions
-- record an op graph instead of computing.  Each op node is resolved by the
-- eager pipeline's own rules (`core._fuse_resolve` is `ga_ew_prepare`), so
-- dtypes and NEP 50 weak scalars come out exactly as the unfused expression.
--
-- **GPU.** The graph becomes the body of an `ElementwiseKernel` (a device
-- function that applies each op row's own expression -- the text the
-- built-in kernels run -- to registers, storing every intermediate in its
-- eager dtype), so launch planning, vector loads, broadcasting, dimension
-- collapsing and the memory and disk kernel caches are the elementwise
-- pipeline's.  A reduction (`sum prod max min mean all any`) of a fused
-- value becomes a `ReductionKernel` whose map is the fused function (one
-- kernel for the elementwise part and the reduction); `argmax`, `argmin`
-- and the other reduction rows write their fused input once and reduce it.
-- The seed's normalisation `e = exp(x - max(x)); return e / sum(e)` is two
-- kernels: max and sum(exp(x - max)) in one online reduction, then the
-- elementwise rest.
--
-- **Host.** The same graph runs op row by op row in chunks of the output
-- (each chunk small enough to stay in cache), the eager host loops
-- themselves: the host result is the unfused result, bit for bit.  (The
-- input of a reduction is computed whole, then reduced by the built-in
-- row.)
-- @module gpuarray.fuse
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local NDARRAY = core.ndarray_mt
local function is_array(x) return getmetatable(x) == NDARRAY end

local M = {}

local resolve, ctype = core._fuse_resolve, core._fuse_ctype
local ufuncs = core.ufuncs
local G = C.lazy_module(false)

-- ---------------------------------------------------------------------
-- tracing

local SYM = {}          -- metatable of the symbolic arrays
local host_outputs      -- (below)
local current           -- the trace being recorded (one at a time)

local MM = { __add = "add", __sub = "subtract", __mul = "multiply", __div = "true_divide",
             __idiv = "floor_divide", __pow = "power", __mod = "remainder", __unm = "negative",
             __band = "bitwise_and", __bor = "bitwise_or", __bxor = "bitwise_xor", __bnot = "invert",
             __shl = "left_shift", __shr = "right_shift" }
-- Lua's own arithmetic between Lua numbers (a scalar argument and a constant)
local LUAOP = { __add = function(a, b) return a + b end, __sub = function(a, b) return a - b end,
                __mul = function(a, b) return a * b end, __div = function(a, b) return a / b end,
                __idiv = function(a, b) return a // b end, __pow = function(a, b) return a ^ b end,
                __mod = function(a, b) return a % b end, __unm = function(a) return -a end }
-- the reduction rows a fused ReductionKernel runs: reduce expression, and
-- whether the post-map divides by the count
local REDK = { sum = "a + b", prod = "a * b", max = "ga_maximum(a, b)", min = "ga_minimum(a, b)",
               amax = "ga_maximum(a, b)", amin = "ga_minimum(a, b)", all = "a && b", any = "a || b",
               mean = "a + b" }
local IDENT = { sum = "0", prod = "1", all = "true", any = "false", mean = "0" }
local KIND = { bool = "b", int8 = "i", int16 = "i", int32 = "i", int64 = "i", uint8 = "u", uint16 = "u",
               uint32 = "u", uint64 = "u", float16 = "f", float32 = "f", float64 = "f", complex64 = "c",
               complex128 = "c" }

-- Where the user's code is: the first frame outside gpuarray's own files.
local function where_line()
  for level = 3, 40 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.what ~= "C" and not info.source:find("gpuarray/[%w_]+%.lua$") then
      return info.short_src .. ":" .. (info.currentline or 0), info.currentline
    end
  end
  return "?", nil
end

local function tfail(tr, what, fmt, ...)
  local at = where_line()
  error(string.format("fuse '%s': %s (%s): ", tr.name, what, at) .. string.format(fmt, ...), 0)
end

local function is_sym(v) return getmetatable(v) == SYM end

local function new_node(tr, n)
  local id = #tr.nodes + 1
  n.id = id
  n.at = n.at or where_line()
  tr.nodes[id] = n
  return id
end

local function sym(tr, id) return setmetatable({ __tr = tr, __id = id }, SYM) end
local function node_of(s) return s.__tr.nodes[s.__id] end

-- the trace's node for an operand (symbolic, Lua number/boolean, ndarray)
local function operand(tr, v, what)
  if is_sym(v) then
    if v.__tr ~= tr then tfail(tr, what, "a symbolic array of another trace") end
    return v.__id
  end
  local t = math.type(v)
  if t or type(v) == "boolean" then
    local lk = t == "integer" and "int" or t and "float" or "bool"
    return new_node(tr, { kind = "const", weak = true, value = v, lkind = lk })
  end
  if is_array(v) then
    for _, n in ipairs(tr.nodes) do   -- one node per captured array
      if n.kind == "capt" and rawequal(n.value, v) then return n.id end
    end
    return new_node(tr, { kind = "capt", value = v, dtype = v.dtype, ndim = v.ndim })
  end
  tfail(tr, what, "an operand is %s, not an array or a number", C.typename(v))
end

-- the representative value of a weak node (for type resolution), or its dtype
local function res_arg(n)
  if n.weak then return n.value end
  return n.dtype
end

local function ndim_of(tr, ids)
  local nd = 0
  for _, id in ipairs(ids) do
    local n = tr.nodes[id]
    if not n.weak and n.ndim > nd then nd = n.ndim end
  end
  return nd
end

-- a weak Lua number as a strong 0-d array of its default dtype (a ufunc
-- of Lua numbers only, as eager)
local function strong(tr, id)
  local n = tr.nodes[id]
  local dt = n.lkind == "int" and "int64" or n.lkind == "float" and "float64" or "bool"
  return new_node(tr, { kind = "cast", input = id, dtype = dt, ndim = 0, from = dt })
end

local function cast_node(tr, id, dtype)
  local n = tr.nodes[id]
  if n.dtype == dtype then return id end
  return new_node(tr, { kind = "cast", input = id, dtype = dtype, ndim = n.ndim, from = n.dtype })
end

-- record op row `name` on operands (returns its symbolic results)
local function record(tr, name, args, opts)
  if opts ~= nil then tfail(tr, name, "options (out=, dtype=, casting=) are not supported inside a fused function") end
  local ids = {}
  for k = 1, #args do ids[k] = operand(tr, args[k], name) end
  if name == "_where" and not tr.nodes[ids[1]].weak then ids[1] = cast_node(tr, ids[1], "bool") end
  local any = false
  for _, id in ipairs(ids) do any = any or not tr.nodes[id].weak end
  if not any then ids[1] = strong(tr, ids[1]) end
  local ra = {}
  for k, id in ipairs(ids) do ra[k] = res_arg(tr.nodes[id]) end
  local ok, ins, outs, expr = pcall(resolve, name, table.unpack(ra, 1, #ids))
  if not ok then tfail(tr, name, "%s", tostring(ins):gsub("^[%w_]+: ", "")) end
  local nd = ndim_of(tr, ids)
  local op = new_node(tr, { kind = "op", name = name, inputs = ids, ins = ins, outs = outs, expr = expr, ndim = nd })
  local res = {}
  for j = 1, #outs do
    local p = new_node(tr, { kind = "proj", op = op, j = j, dtype = outs[j], ndim = nd,
                             bool_result = outs[j] == "bool" })
    res[j] = sym(tr, p)
  end
  tr.nodes[op].projs = {}
  for j = 1, #outs do tr.nodes[op].projs[j] = res[j].__id end
  return table.unpack(res)
end

-- a Lua operator between Lua numbers (scalar arguments, constants): Lua's
-- own arithmetic, evaluated at each call
local function lua_arith(tr, mm, a, b)
  local ia, ib = operand(tr, a, mm), operand(tr, b, mm)
  local na, nb = tr.nodes[ia], tr.nodes[ib]
  local f = LUAOP[mm]
  local v = f(na.value, nb.value)
  local t = math.type(v)
  return sym(tr, new_node(tr, { kind = "lua", weak = true, f = f, inputs = { ia, ib }, value = v,
                                lkind = t == "integer" and "int" or "float" }))
end

local function all_weak(tr, a, b)
  local function w(v) return not is_sym(v) or tr.nodes[v.__id].weak end
  return w(a) and w(b)
end

for mm, name in pairs(MM) do
  SYM[mm] = function(a, b)
    local tr = (is_sym(a) and a or b).__tr
    if mm == "__unm" or mm == "__bnot" then b = nil end
    if LUAOP[mm] and all_weak(tr, a, b == nil and a or b) then return lua_arith(tr, mm, a, b == nil and a or b) end
    if b == nil then return record(tr, name, { a }) end
    return record(tr, name, { a, b })
  end
end
SYM.__unm = function(a)
  local tr = a.__tr
  if node_of(a).weak then return lua_arith(tr, "__unm", a, a) end
  return record(tr, "negative", { a })
end

local function no_compare(a, b)
  local tr = (is_sym(a) and a or b).__tr
  tfail(tr, "comparison", "Lua's < <= == on a traced array give a Lua boolean, which cannot depend on array values "
        .. "(an `if` on an array value cannot be fused); use ga.less/x:lt ... and ga.where")
end
SYM.__lt, SYM.__le, SYM.__eq = no_compare, no_compare, no_compare
SYM.__concat = function(a) tfail(a.__tr or {}, "..", "a traced array cannot be concatenated") end
SYM.__len = function(a) tfail(a.__tr, "#", "the length of a traced array is not known while tracing") end
SYM.__call = function(a) tfail(a.__tr, "call", "a traced array is not callable") end
SYM.__tostring = function(a)
  local n = node_of(a)
  if n.weak then return "<fuse: traced Lua " .. n.lkind .. ">" end
  return string.format("<fuse: traced %s, ndim %d>", n.dtype, n.ndim)
end
SYM.__close = nil

SYM.__ga_fuse = function(name, ...)
  local n = select("#", ...)
  local args = { ... }
  local opts = args[n]
  local tr
  for k = 1, n - 1 do if is_sym(args[k]) then tr = args[k].__tr break end end
  return record(tr, name, table.move(args, 1, n - 1, 1, {}), opts)
end

-- x:sum(...), ga.sum(x, ...): a reduction node; its dtype and ndim come
-- from the eager reduction of a host proxy of ones (its checks too)
local function reduce_node(tr, fname, x, axis, opts)
  local id = operand(tr, x, fname)
  local n = tr.nodes[id]
  if n.weak then id = strong(tr, id); n = tr.nodes[id] end
  local o = {}
  if type(axis) == "table" and not C.is_axis_list(axis) then opts, axis = axis, nil end
  if opts ~= nil then
    if type(opts) ~= "table" then tfail(tr, fname, "options must be a table") end
    for k, v in pairs(opts) do
      if k ~= "axis" and k ~= "keepdims" then
        tfail(tr, fname, "option %s is not supported inside a fused function", tostring(k))
      end
      o[k] = v
    end
  end
  if axis ~= nil then o.axis = axis end
  local shape = {}
  for d = 1, n.ndim do shape[d] = 1 end
  local proxy = G().host.zeros(shape, n.dtype)
  local ok, r = pcall(core._reduce[fname], proxy, o)
  if not ok then tfail(tr, fname, "%s", tostring(r):gsub("^[%w_]+: ", "")) end
  local ax = o.axis
  if type(ax) == "table" then ax = table.move(ax, 1, #ax, 1, {}) end
  return sym(tr, new_node(tr, { kind = "red", name = fname, input = id, axis = ax,
                                keepdims = o.keepdims and true or false,
                                dtype = r.dtype, ndim = r.ndim }))
end
SYM.__ga_fuse_reduce = function(fname, x, axis, opts) return reduce_node(x.__tr, fname, x, axis, opts) end

local METHODS = {}
for _, r in ipairs { "sum", "prod", "max", "min", "mean", "all", "any", "argmax", "argmin", "amax", "amin",
                     "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanargmax", "nanargmin", "count_nonzero" } do
  METHODS[r] = function(x, axis, opts) return reduce_node(x.__tr, r, x, axis, opts) end
end
for m, name in pairs { lt = "less", le = "less_equal", gt = "greater", ge = "greater_equal", eq = "equal",
                       ne = "not_equal", conj = "conjugate", conjugate = "conjugate" } do
  METHODS[m] = function(x, y)
    if y == nil then return record(x.__tr, name, { x }) end
    return record(x.__tr, name, { x, y })
  end
end
function METHODS.astype(x, dtype)
  local tr = x.__tr
  local ok, _, _, canon = pcall(ctype, dtype)
  if not ok or type(canon) ~= "string" then tfail(tr, "astype", "bad dtype %s", tostring(dtype)) end
  local id = x.__id
  if tr.nodes[id].weak then id = strong(tr, id) end
  return sym(tr, cast_node(tr, id, canon))
end
function METHODS.item(x) tfail(x.__tr, "item", "x:item() reads a value back to Lua; it cannot be fused") end
METHODS.get = function(x) tfail(x.__tr, "get", "x:get() copies to the host; it cannot be fused") end
METHODS.tolist = function(x) tfail(x.__tr, "tolist", "x:tolist() reads values back to Lua; it cannot be fused") end

SYM.__index = function(x, k)
  local tr = rawget(x, "__tr")
  local n = tr.nodes[rawget(x, "__id")]
  if k == "dtype" then
    if n.weak then tfail(tr, "dtype", "a Lua number argument has no dtype (it is a weak scalar)") end
    return n.dtype
  elseif k == "ndim" then
    return n.weak and 0 or n.ndim
  elseif METHODS[k] then
    return METHODS[k]
  elseif type(k) == "string" then
    tfail(tr, tostring(k), "x.%s is not supported inside a fused function (the shape of a traced array is not "
          .. "known; fusable: ufuncs, operators, ga.where, astype, reductions)", k)
  end
  tfail(tr, "index", "indexing a traced array is not supported inside a fused function%s",
        (is_sym(k) or is_array(k)) and " (indexing by an array)" or "")
end

-- x[{}] = v (or x[ga.ellipsis] = v): an in-place update of the whole array
SYM.__newindex = function(x, k, v)
  local tr = rawget(x, "__tr")
  local whole = (type(k) == "table" and not is_sym(k) and not is_array(k) and next(k) == nil) or k == G().ellipsis
  if not whole then tfail(tr, "setitem", "only whole-array updates x[{}] = value can be fused") end
  local n = tr.nodes[rawget(x, "__id")]
  if n.weak then tfail(tr, "setitem", "a Lua number argument cannot be updated in place") end
  local vid = operand(tr, v, "setitem")
  local vn = tr.nodes[vid]
  if vn.weak then vid = strong(tr, vid) end
  vid = cast_node(tr, vid, n.dtype)
  rawset(x, "__id", vid)
  local root = rawget(x, "__root")
  if root then tr.writes[root] = vid end
end

-- ---------------------------------------------------------------------
-- signatures and traces

-- a Lua integer's class: the integer dtypes that hold it (the loop search
-- and the range checks of the eager call depend on nothing else)
local LIMS = { { -128, 127 }, { 0, 255 }, { -32768, 32767 }, { 0, 65535 }, { -2147483648, 2147483647 },
               { 0, 4294967295 } }
local function int_class(v)
  local bits = 0
  for i, l in ipairs(LIMS) do if v >= l[1] and v <= l[2] then bits = bits | (1 << i) end end
  if v >= 0 then bits = bits | 256 end
  return bits
end

local function signature(fname, args, n)
  local parts = {}
  for k = 1, n do
    local v = args[k]
    if is_array(v) then
      parts[k] = v.dtype .. ":" .. v.ndim
    elseif math.type(v) == "integer" then
      parts[k] = "i" .. int_class(v)
    elseif math.type(v) == "float" then
      parts[k] = "f"
    elseif type(v) == "boolean" then
      parts[k] = "b"
    else
      error(string.format("%s: argument #%d must be an ndarray or a Lua number, got %s", fname, k, C.typename(v)), 4)
    end
  end
  return table.concat(parts, ",")
end

-- run the function on symbolic arguments; returns the trace
local function trace(F, args, n)
  local tr = { name = F.name, nodes = {}, writes = {}, nargs = n, args = {} }
  local syms = {}
  for k = 1, n do
    local v = args[k]
    local id
    if is_array(v) then
      id = new_node(tr, { kind = "arg", k = k, dtype = v.dtype, ndim = v.ndim, at = "argument " .. k })
    else
      local t = math.type(v)
      id = new_node(tr, { kind = "scalar", k = k, weak = true, value = v, at = "argument " .. k,
                          lkind = t == "integer" and "int" or t and "float" or "bool" })
    end
    syms[k] = sym(tr, id)
    if is_array(v) then rawset(syms[k], "__root", k) end
    tr.args[k] = id
  end
  if current then
    error(string.format("fuse '%s': a fused function cannot be traced inside another trace", F.name), 3)
  end
  current = tr
  local function handler(e)
    -- an error of something that cannot take a traced array: name the line
    if type(e) == "string" and not e:find("^fuse '") then
      e = string.format("fuse '%s': %s (at %s; only ufuncs, operators, ga.where, astype and reductions can be "
                        .. "fused)", F.name, e, (where_line()))
    end
    return e
  end
  local res = table.pack(xpcall(F.fn, handler, table.unpack(syms, 1, n)))
  current = nil
  if not res[1] then error(res[2], 0) end
  local outs = {}
  for j = 2, res.n do
    local v = res[j]
    if not is_sym(v) then
      if is_array(v) or math.type(v) then v = sym(tr, operand(tr, v, "return")) end
      if not is_sym(v) then
        error(string.format("fuse '%s': return value #%d is %s, not an array", F.name, j - 1, C.typename(v)), 0)
      end
    end
    local id = v.__id
    if tr.nodes[id].weak then id = strong(tr, id) end
    outs[#outs + 1] = id
  end
  tr.outs = outs
  tr.nret = #outs
  -- in-place updates of the arguments are extra outputs
  tr.wout = {}
  for k = 1, n do
    if tr.writes[k] then tr.wout[#tr.wout + 1] = { k = k, id = tr.writes[k] } end
  end
  -- what the outputs need
  local live = {}
  local function mark(id)
    if live[id] then return end
    live[id] = true
    local nd = tr.nodes[id]
    if nd.kind == "op" or nd.kind == "lua" then for _, i in ipairs(nd.inputs) do mark(i) end end
    if nd.kind == "proj" then mark(nd.op) end
    if nd.kind == "cast" or nd.kind == "red" then mark(nd.input) end
  end
  for _, id in ipairs(outs) do mark(id) end
  for _, w in ipairs(tr.wout) do mark(w.id) end
  -- a comparison's result that nothing uses was most likely an `if` on an array value
  for _, nd in ipairs(tr.nodes) do
    if not live[nd.id] and ((nd.kind == "proj" and nd.bool_result) or (nd.kind == "red" and nd.dtype == "bool")) then
      local op = nd.kind == "red" and nd or tr.nodes[nd.op]
      error(string.format("fuse '%s': %s (%s): its boolean array result is not used by any output; an `if` on an "
                          .. "array value cannot be fused (Lua cannot see an array's truth): use ga.where", F.name,
                          op.name, op.at), 0)
    end
  end
  tr.live = live
  return tr
end

-- ---------------------------------------------------------------------
-- the host interpreter: op rows in sequence, in chunks

local function eval_nodes(tr, vals, targets, lo, hi)
  -- vals: node id -> value (arrays or numbers) for leaves; computes what
  -- targets need; lo/hi: a chunk of the first axis of every array leaf
  local memo = {}
  local function val(id)
    if memo[id] ~= nil then return memo[id] end
    local n = tr.nodes[id]
    local v
    if vals[id] ~= nil then
      v = vals[id]
      if lo and is_array(v) and v.ndim == tr.chunk_nd and v.shape[1] > 1 then v = v[{ { lo, hi } }] end
    elseif n.kind == "const" then
      v = n.value
    elseif n.kind == "lua" then
      v = n.f(val(n.inputs[1]), val(n.inputs[2]))
    elseif n.kind == "proj" then
      local op = tr.nodes[n.op]
      if not memo[-n.op] then
        local a = {}
        for k, i in ipairs(op.inputs) do a[k] = val(i) end
        memo[-n.op] = table.pack(ufuncs[op.name](table.unpack(a, 1, #op.inputs)))
      end
      v = memo[-n.op][n.j]
    elseif n.kind == "cast" then
      local x = val(n.input)
      if not is_array(x) then
        local host = tr.device == -1
        v = (host and G().host or G()).asarray(x, n.dtype)
      else
        v = x:astype(n.dtype)
      end
    else
      error("fuse: internal error: node kind " .. n.kind .. " has no value")
    end
    memo[id] = v
    return v
  end
  local r = {}
  for j, id in ipairs(targets) do r[j] = val(id) end
  return r
end

-- ---------------------------------------------------------------------
-- the CUDA code: the fused function and its kernels

local SCALAR_T = { int = { "int64", "long long" }, float = { "float64", "double" }, bool = { "bool", "bool" } }

-- The leaves (kernel parameters) and internal nodes of the subgraph that
-- computes `targets`; `mat` says which nodes are materialised arrays.
local function subgraph(tr, targets, mat)
  local seen, leaves, inner = {}, {}, {}
  local function visit(id)
    if seen[id] then return end
    seen[id] = true
    local n = tr.nodes[id]
    if mat[id] or n.weak then leaves[#leaves + 1] = id; return end
    if n.kind == "op" then for _, i in ipairs(n.inputs) do visit(i) end
    elseif n.kind == "proj" then visit(n.op)
    elseif n.kind == "cast" then visit(n.input)
    else error("fuse: internal error: " .. n.kind .. " is not materialised") end
    inner[#inner + 1] = id
  end
  for _, id in ipairs(targets) do visit(id) end
  table.sort(leaves)
  table.sort(inner)
  return leaves, inner
end

-- The outputs `targets` on the host: small loops at once; large ones in
-- chunks of the first axis of the broadcast shape (about CHUNK elements:
-- every temporary stays in cache), each chunk assigned into the outputs.
local CHUNK = 1 << 15
host_outputs = function(tr, vals, leaves, targets, dts)
  local big = false
  for _, id in ipairs(leaves) do
    local v = vals[id]
    if v == nil then v = tr.nodes[id].value end
    if is_array(v) and v.size > CHUNK then big = true; break end
  end
  if not big then return eval_nodes(tr, vals, targets) end
  local shape = {}
  for _, id in ipairs(leaves) do
    local v = vals[id]
    if is_array(v) then
      local s, off = v.shape, #shape - v.ndim
      if off < 0 then
        for _ = 1, -off do table.insert(shape, 1, 1) end
        off = 0
      end
      for d = 1, #s do
        local cur = shape[off + d]
        if cur == 1 or cur == nil then shape[off + d] = s[d]
        elseif s[d] ~= 1 and s[d] ~= cur then
          error(string.format("fuse '%s': operands could not be broadcast together", tr.name), 0)
        end
      end
    end
  end
  local size = 1
  for _, d in ipairs(shape) do size = size * d end
  if #shape == 0 or size <= CHUNK or shape[1] < 2 then return eval_nodes(tr, vals, targets) end
  local H = G().host
  local outs = {}
  for j = 1, #targets do outs[j] = H.empty(shape, dts[j]) end
  local rows = math.max(1, CHUNK // (size // shape[1]))
  tr.chunk_nd = #shape
  for lo = 1, shape[1], rows do
    local hi = math.min(lo + rows - 1, shape[1])
    local r = eval_nodes(tr, vals, targets, lo, hi)
    for j = 1, #targets do outs[j][{ { lo, hi } }] = r[j] end
  end
  return outs
end

local function complex_in(tr, ids)
  for _, id in ipairs(ids) do
    local n = tr.nodes[id]
    if n.dtype and KIND[n.dtype] == "c" then return true end
    if n.kind == "op" then for _, d in ipairs(n.ins) do if KIND[d] == "c" then return true end end end
  end
  return false
end

-- the code computing node ids `inner`; leaves are p<id>, values v<id>
local function gen_body(tr, inner, mat, b)
  local function ref(id) return (mat[id] or tr.nodes[id].weak) and ("p" .. id) or ("v" .. id) end
  for _, id in ipairs(inner) do
    local n = tr.nodes[id]
    if n.kind == "cast" then
      -- the COPY row in the source's dtype, stored in the target's (astype)
      local src = tr.nodes[n.input]
      local from = src.weak and SCALAR_T[src.lkind][1] or src.dtype
      local st, ct = ctype(from)
      local dt = ctype(n.dtype)
      b[#b + 1] = string.format("  %s v%d;  // astype %s -> %s", dt, id, from, n.dtype)
      if from == "float16" then
        b[#b + 1] = string.format("  { %s t = ga_cast<%s>(%s); v%d = ga_cast<%s>(ga_cast<%s>(t)); }", ct, ct,
                                  ref(n.input), id, dt, st)
      else
        b[#b + 1] = string.format("  v%d = ga_cast<%s>(%s);", id, dt, ref(n.input))
      end
    elseif n.kind == "op" then
      for _, p in ipairs(n.projs) do b[#b + 1] = string.format("  %s v%d;", (ctype(tr.nodes[p].dtype)), p) end
      -- (no source lines in the text: the kernel's key is its structure)
      b[#b + 1] = string.format("  {  // %s", n.name)
      for k, d in ipairs(n.ins) do
        local st, ct = ctype(d)
        b[#b + 1] = string.format("    typedef %s in%d_t; typedef %s in%d_mt;", ct, k - 1, st, k - 1)
      end
      for j, d in ipairs(n.outs) do
        local st, ct = ctype(d)
        b[#b + 1] = string.format("    typedef %s out%d_t; typedef %s out%d_mt;", ct, j - 1, st, j - 1)
      end
      for k, i in ipairs(n.inputs) do
        local src = tr.nodes[i]
        local via = src.weak or (n.ins[k] == "float16" and src.dtype ~= "float16")
        b[#b + 1] = string.format("    in%d_t in%d = ga_cast<in%d_%s>(%s);", k - 1, k - 1, k - 1,
                                  via and "mt" or "t", ref(i))
      end
      for j = 1, #n.outs do b[#b + 1] = string.format("    out%d_t out%d;", j - 1, j - 1) end
      b[#b + 1] = string.format("    { const long long _i = 0; (void)_i; %s; }", n.expr)
      for j, p in ipairs(n.projs) do
        local dt = ctype(tr.nodes[p].dtype)
        if n.outs[j] == "float16" then
          b[#b + 1] = string.format("    v%d = ga_cast<%s>(ga_cast<out%d_mt>(out%d));", p, dt, j - 1, j - 1)
        else
          b[#b + 1] = string.format("    v%d = ga_cast<%s>(out%d);", p, dt, j - 1)
        end
      end
      b[#b + 1] = "  }"
    end
  end
  return ref
end

local function param_decl(tr, id)
  local n = tr.nodes[id]
  if n.weak then return SCALAR_T[n.lkind][1] .. " p" .. id, "const " .. SCALAR_T[n.lkind][2] .. " p" .. id end
  return n.dtype .. " p" .. id, "const " .. (ctype(n.dtype)) .. " &p" .. id
end

-- The kernel's parameters for the leaves, the fused function's (by
-- reference, or by value) and the arguments of its call
local function leaf_params(tr, leaves, by_value)
  local inp, fparams, args = {}, {}, {}
  for _, id in ipairs(leaves) do
    local decl, fdecl = param_decl(tr, id)
    inp[#inp + 1] = decl
    fparams[#fparams + 1] = by_value and (fdecl:gsub("&", "")) or fdecl
    args[#args + 1] = "p" .. id
  end
  return inp, fparams, args
end

-- An ElementwiseKernel computing `targets` (output dtypes odt) from the
-- materialised nodes; returns {kernel, leaves}.
local function ew_kernel(tr, targets, odt, mat)
  local leaves, inner = subgraph(tr, targets, mat)
  local inp, fparams, args = leaf_params(tr, leaves, false)
  -- the outputs through temporaries, each assigned by a statement of its
  -- own: ElementwiseKernel then sees that they are written before they
  -- are read, and the vector path does not load them
  local outp, decls, stores = {}, {}, {}
  for j = 1, #targets do
    outp[j] = odt[j] .. " o" .. (j - 1)
    fparams[#fparams + 1] = (ctype(odt[j])) .. " &_o" .. (j - 1)   -- (no mention of o<j> in the preamble)
    args[#args + 1] = "_r" .. (j - 1)
    decls[j] = (ctype(odt[j])) .. " _r" .. (j - 1) .. ";"
    stores[j] = "o" .. (j - 1) .. " = _r" .. (j - 1) .. ";"
  end
  local b = { string.format("// ga.fuse '%s'", tr.name),
              "__device__ __forceinline__ void _ga_fused(" .. table.concat(fparams, ", ") .. ") {" }
  local ref = gen_body(tr, inner, mat, b)
  for j, id in ipairs(targets) do
    b[#b + 1] = string.format("  _o%d = ga_cast<%s>(%s);", j - 1, (ctype(odt[j])), ref(id))
  end
  b[#b + 1] = "}"
  local cplx = complex_in(tr, inner) or complex_in(tr, leaves)
  local k = G().ElementwiseKernel(table.concat(inp, ", "), table.concat(outp, ", "),
                                  table.concat(decls, " ") .. " _ga_fused(" .. table.concat(args, ", ") .. ");\n"
                                  .. table.concat(stores, "\n"), tr.cname,
                                  { preamble = table.concat(b, "\n"), math = cplx and "complex" or true })
  return { kernel = k, leaves = leaves }
end

-- A ReductionKernel: reduction node r of a fused input.
local function red_kernel(tr, r, mat)
  local n = tr.nodes[r]
  local src = tr.nodes[n.input]
  local leaves, inner = subgraph(tr, { n.input }, mat)
  local inp, fparams, args = leaf_params(tr, leaves, true)
  -- the accumulator: as the eager row (float16 in float32; sum of
  -- integers in int64/uint64, mean of integers in float64)
  local d = src.dtype
  local acc = d
  local name = n.name
  if d == "float16" then acc = "float32" end
  if name == "sum" or name == "prod" then
    if KIND[d] == "b" or KIND[d] == "i" then acc = "int64" elseif KIND[d] == "u" then acc = "uint64" end
  elseif name == "mean" then
    if KIND[d] == "b" or KIND[d] == "i" or KIND[d] == "u" then acc = "float64" end
  elseif name == "all" or name == "any" then
    acc = "bool"
  end
  local b = { string.format("// ga.fuse '%s': %s of a fused value", tr.name, name),
              "__device__ __forceinline__ " .. (ctype(acc)) .. " _ga_fused(" .. table.concat(fparams, ", ") .. ") {" }
  local ref = gen_body(tr, inner, mat, b)
  local load
  if name == "all" or name == "any" then load = string.format("ga_truth(%s)", ref(n.input))
  elseif d == "float16" then load = string.format("(float)%s", ref(n.input))
  else load = string.format("ga_cast<%s>(%s)", (ctype(acc)), ref(n.input)) end
  b[#b + 1] = "  return " .. load .. ";"
  b[#b + 1] = "}"
  local post = "y = ga_cast<" .. (ctype(n.dtype)) .. ">(a)"
  if name == "mean" then
    post = "y = ga_cast<" .. (ctype(n.dtype)) .. ">(a / (" .. (ctype(acc)) .. ")(_in_ind.size() / _out_ind.size()))"
  end
  local cplx = complex_in(tr, inner) or complex_in(tr, leaves)
  local k = G().ReductionKernel(table.concat(inp, ", "), n.dtype .. " y",
                                "_ga_fused(" .. table.concat(args, ", ") .. ")", REDK[name], post, IDENT[name],
                                tr.cname, { reduce_type = acc, preamble = table.concat(b, "\n"),
                                            math = cplx and "complex" or true })
  return { kernel = k, leaves = leaves }
end

-- ---------------------------------------------------------------------
-- running a trace

local function leaf_value(tr, vals, id)
  local n = tr.nodes[id]
  if vals[id] ~= nil then return vals[id] end
  if n.kind == "const" then return n.value end
  if n.kind == "lua" then
    local v = n.f(leaf_value(tr, vals, n.inputs[1]), leaf_value(tr, vals, n.inputs[2]))
    vals[id] = v
    return v
  end
  error("fuse: internal error: leaf " .. id)
end

local function call_leaves(tr, vals, leaves)
  local a = {}
  for k, id in ipairs(leaves) do a[k] = leaf_value(tr, vals, id) end
  return a
end

-- The seed's normalisation `e = exp(x - max(x)); e / sum(e)`: the max and
-- the sum of exp(x - max) are one reduction (the online softmax: the
-- accumulator is a pair (m, s) kept in a complex of x's dtype, two partial
-- pairs combine as (M, s1 exp(m1 - M) + s2 exp(m2 - M)) with M = max(m1,
-- m2)), so the normalisation runs as two kernels.  NaN and infinities come
-- out as unfused (exp of inf - inf is NaN either way); the sum is rounded
-- differently (a few ulp).
local function axes_key(ax, nd)
  if ax == nil then return "all" end
  local r = {}
  for i, a in ipairs(type(ax) == "table" and ax or { ax }) do r[i] = a < 0 and a + nd + 1 or a end
  table.sort(r)
  return table.concat(r, ",")
end

local function softmax_max(tr, S)
  if S.name ~= "sum" then return nil end
  local E = tr.nodes[S.input]
  if E.kind ~= "proj" or tr.nodes[E.op].name ~= "exp" then return nil end
  local eop = tr.nodes[E.op]
  local D = tr.nodes[eop.inputs[1]]
  if D.kind ~= "proj" or tr.nodes[D.op].name ~= "subtract" then return nil end
  local dop = tr.nodes[D.op]
  local X, Mx = tr.nodes[dop.inputs[1]], tr.nodes[dop.inputs[2]]
  if Mx.kind ~= "red" or (Mx.name ~= "max" and Mx.name ~= "amax") or Mx.input ~= X.id then return nil end
  local dt = X.dtype
  if dt ~= "float32" and dt ~= "float64" then return nil end
  for _, d in ipairs { Mx.dtype, D.dtype, E.dtype, S.dtype, eop.ins[1], dop.ins[1], dop.ins[2] } do
    if d ~= dt then return nil end
  end
  if axes_key(Mx.axis, X.ndim) ~= axes_key(S.axis, X.ndim) or Mx.keepdims ~= S.keepdims then return nil end
  return Mx
end

local function softmax_kernel(tr, Mx, mat)
  local X = tr.nodes[Mx.input]
  local leaves, inner = subgraph(tr, { X.id }, mat)
  local inp, fparams, args = leaf_params(tr, leaves, true)
  local T = ctype(X.dtype)
  local CX = X.dtype == "float32" and "complex64" or "complex128"
  local CT = ctype(CX)
  local b = { string.format("// ga.fuse '%s': max and sum(exp(x - max)) in one pass", tr.name),
              "__device__ __forceinline__ " .. CT .. " _ga_fused(" .. table.concat(fparams, ", ") .. ") {" }
  local ref = gen_body(tr, inner, mat, b)
  b[#b + 1] = string.format("  return %s((%s)%s, (%s)1);", CT, T, ref(X.id), T)
  b[#b + 1] = "}"
  b[#b + 1] = string.format("__device__ __forceinline__ %s _ga_osm(const %s &a, const %s &b) {", CT, CT, CT)
  b[#b + 1] = string.format("  const %s m = ga_maximum(a.re, b.re);", T)
  b[#b + 1] = string.format("  return %s(m, a.im * ga_exp(a.re - m) + b.im * ga_exp(b.re - m));", CT)
  b[#b + 1] = "}"
  local k = G().ReductionKernel(table.concat(inp, ", "), X.dtype .. " m, " .. X.dtype .. " s",
                                "_ga_fused(" .. table.concat(args, ", ") .. ")", "_ga_osm(a, b)",
                                "m = a.re; s = a.im", nil, tr.cname,
                                { reduce_type = CX, preamble = table.concat(b, "\n"), math = true })
  return { kernel = k, leaves = leaves }
end

-- The steps of a trace on one kind of device, made once: each live
-- reduction (a fused ReductionKernel, or the built-in reduction of an
-- argument or of a fused temporary), then the outputs' kernel.
local function make_plan(tr, host)
  local P = { reds = {}, capt = {} }
  local mat = {}
  for k = 1, tr.nargs do
    local n = tr.nodes[tr.args[k]]
    if not n.weak then mat[n.id] = true end
  end
  for _, n in ipairs(tr.nodes) do
    if n.kind == "capt" then mat[n.id] = true; P.capt[#P.capt + 1] = n end
  end
  local pair, paired = {}, {}
  if not host then
    for _, n in ipairs(tr.nodes) do
      if n.kind == "red" and tr.live[n.id] then
        local Mx = softmax_max(tr, n)
        if Mx and not pair[Mx.id] then pair[Mx.id] = n; paired[n.id] = true end
      end
    end
  end
  for _, n in ipairs(tr.nodes) do
    if n.kind == "red" and tr.live[n.id] and not paired[n.id] then   -- (a paired sum comes with its max)
      local st = { id = n.id, name = n.name, o = { axis = n.axis, keepdims = n.keepdims }, input = n.input }
      if pair[n.id] then
        st.mode = "softmax"
        st.sid = pair[n.id].id
        st.k = softmax_kernel(tr, n, mat)
        mat[st.sid] = true
      elseif mat[n.input] then
        st.mode = "direct"
      elseif host then
        st.mode = "host"
      elseif REDK[n.name] then
        st.mode = "redk"
        st.k = red_kernel(tr, n.id, mat)
      else
        st.mode = "temp"
        st.k = ew_kernel(tr, { n.input }, { tr.nodes[n.input].dtype }, mat)
      end
      P.reds[#P.reds + 1] = st
      mat[n.id] = true
    end
  end
  -- the outputs: returned values, then the arguments updated in place
  local targets, odt, wk = {}, {}, {}
  for j, id in ipairs(tr.outs) do targets[j] = id; odt[j] = tr.nodes[id].dtype end
  for _, w in ipairs(tr.wout) do
    targets[#targets + 1] = w.id
    odt[#odt + 1] = tr.nodes[w.id].dtype
    wk[#targets] = w.k
  end
  P.targets, P.odt, P.wk = targets, odt, wk
  P.kt, P.kd, P.kslot, P.copy = {}, {}, {}, {}
  for j, id in ipairs(targets) do
    if mat[id] and not wk[j] then
      -- an argument or a reduction returned as it is (an argument copied:
      -- a new array, as eager)
      P.copy[j] = tr.nodes[id].kind ~= "red"
    else
      P.kt[#P.kt + 1] = id
      P.kd[#P.kd + 1] = odt[j]
      P.kslot[#P.kslot + 1] = j
    end
  end
  P.mat = mat
  if #P.kt > 0 then
    P.leaves = subgraph(tr, P.kt, mat)
    local arrays = false
    for _, id in ipairs(P.leaves) do arrays = arrays or not tr.nodes[id].weak end
    -- outputs of Lua numbers only (0-d): computed as the eager rows would
    if not host and arrays then P.k = ew_kernel(tr, P.kt, P.kd, mat) end
  end
  return P
end

local function run(F, tr, args, outs_given)
  local device
  for k = 1, tr.nargs do
    local v = args[k]
    if is_array(v) then
      local d = v.device.id
      if device == nil then device = d
      elseif d ~= device then
        error(string.format("%s: arguments are on different devices (%s and %s)", F.fname,
                            d == -1 and "cpu" or "cuda:" .. d, device == -1 and "cpu" or "cuda:" .. device), 3)
      end
    end
  end
  if device == nil then error(string.format("%s: at least one argument must be an ndarray", F.fname), 3) end
  local host = device == -1
  local P = host and tr.hplan or not host and tr.gplan
  if not P then
    P = make_plan(tr, host)
    if host then tr.hplan = P else tr.gplan = P end
  end
  local vals = {}
  for k = 1, tr.nargs do vals[tr.args[k]] = args[k] end
  for _, n in ipairs(P.capt) do
    if n.value.device.id ~= device then
      error(string.format("%s: an array captured by the function is on another device than the arguments", F.fname), 3)
    end
    vals[n.id] = n.value
  end
  tr.device = device
  for _, st in ipairs(P.reds) do
    local x
    if st.mode == "softmax" then
      local a = call_leaves(tr, vals, st.k.leaves)
      a[#a + 1] = st.o
      vals[st.id], vals[st.sid] = st.k.kernel(table.unpack(a))
    elseif st.mode == "redk" then
      local a = call_leaves(tr, vals, st.k.leaves)
      a[#a + 1] = st.o
      vals[st.id] = st.k.kernel(table.unpack(a))
    else
      if st.mode == "direct" then x = vals[st.input]
      elseif st.mode == "host" then x = eval_nodes(tr, vals, { st.input })[1]
      else x = st.k.kernel(table.unpack(call_leaves(tr, vals, st.k.leaves))) end
      if not is_array(x) then x = (host and G().host or G()).asarray(x) end
      vals[st.id] = core._reduce[st.name](x, st.o)
    end
  end
  local targets, nt = P.targets, #P.targets
  local given = {}
  for j = 1, nt do given[j] = P.wk[j] and args[P.wk[j]] or outs_given and outs_given[j] or false end
  local res = {}
  for j = 1, nt do
    if P.copy[j] ~= nil then
      local v = vals[targets[j]]
      res[j] = (P.copy[j] and not given[j]) and v:copy() or v
    end
  end
  local kt, kslot = P.kt, P.kslot
  if #kt > 0 then
    if not P.k then
      local r = host and host_outputs(tr, vals, P.leaves, kt, P.kd) or eval_nodes(tr, vals, kt)
      for i, j in ipairs(kslot) do
        local v = r[i]
        if not is_array(v) then v = (host and G().host or G()).asarray(v) end
        if rawequal(v, vals[kt[i]]) and not given[j] then v = v:copy() end
        res[j] = v
      end
    else
      local a = call_leaves(tr, vals, P.k.leaves)
      -- outputs given in the result's dtype are written by the kernel
      local all_given = true
      for i, j in ipairs(kslot) do all_given = all_given and given[j] and given[j].dtype == P.kd[i] end
      if all_given then
        for _, j in ipairs(kslot) do a[#a + 1] = given[j] end
        P.k.kernel(table.unpack(a))
        for _, j in ipairs(kslot) do res[j] = given[j] end
      else
        local r = table.pack(P.k.kernel(table.unpack(a)))
        for i, j in ipairs(kslot) do res[j] = r[i] end
      end
    end
  end
  -- copy into outputs given (cast, broadcast as an assignment)
  for j = 1, nt do
    local g = given[j]
    if g and not rawequal(res[j], g) then
      local ok, err = pcall(function() g[{}] = res[j] end)
      if not ok then error(string.format("%s: out: %s", F.fname, tostring(err):gsub("^[^:]+: ", "")), 4) end
      res[j] = g
    end
  end
  return table.unpack(res, 1, tr.nret)
end

-- ---------------------------------------------------------------------
-- the fused function object

local FUSED = {}
FUSED.__index = {}

local function split_args(F, ...)
  local n = select("#", ...)
  local args = { ... }
  while n > 0 and args[n] == nil do n = n - 1 end   -- trailing nils: not arguments
  local opts
  if n > 0 and type(args[n]) == "table" and not is_array(args[n]) and getmetatable(args[n]) == nil then
    opts = args[n]
    args[n] = nil
    n = n - 1
  end
  if not F.vararg and n ~= F.nparams then
    error(string.format("%s: takes %d argument%s, got %d", F.fname, F.nparams, F.nparams == 1 and "" or "s", n), 3)
  end
  local out
  if opts then
    for k in pairs(opts) do
      if k ~= "out" then error(string.format("%s: unknown option '%s' (known: out)", F.fname, tostring(k)), 3) end
    end
    out = opts.out
    if is_array(out) then out = { out } end
    if out ~= nil and type(out) ~= "table" then
      error(string.format("%s: out must be an ndarray or a table of ndarrays", F.fname), 3)
    end
  end
  return args, n, out
end

-- Does the last trace's signature fit these arguments (the fast path)?
local function fits(tr, args, n)
  if tr.nargs ~= n then return false end
  local sig = tr.sig
  for k = 1, n do
    local v, want = args[k], sig[k]
    if is_array(v) then
      if want ~= v.dtype or sig[-k] ~= v.ndim then return false end
    elseif math.type(v) == "integer" then
      if want ~= int_class(v) then return false end
    elseif math.type(v) == "float" then
      if want ~= "f" then return false end
    elseif type(v) == "boolean" then
      if want ~= "b" then return false end
    else
      return false
    end
  end
  return true
end

local function get_trace(F, args, n)
  local last = F.last
  if last and fits(last, args, n) then return last end
  local key = signature(F.fname, args, n)
  local tr = F.traces[key]
  if not tr then
    tr = trace(F, args, n)
    tr.cname = F.cname
    tr.sig = {}
    for k = 1, n do
      local v = args[k]
      if is_array(v) then tr.sig[k], tr.sig[-k] = v.dtype, v.ndim
      elseif math.type(v) == "integer" then tr.sig[k] = int_class(v)
      elseif math.type(v) == "float" then tr.sig[k] = "f"
      else tr.sig[k] = "b" end
    end
    F.traces[key] = tr
    F.ntraces = F.ntraces + 1
  end
  F.last = tr
  return tr
end

FUSED.__call = function(F, ...)
  local args, n, out = split_args(F, ...)
  local tr = get_trace(F, args, n)
  if out then
    if #out ~= tr.nret then
      error(string.format("%s: out has %d array%s but the function returns %d", F.fname, #out,
                          #out == 1 and "" or "s", tr.nret), 2)
    end
    for j = 1, #out do
      if not is_array(out[j]) then error(string.format("%s: out[%d] is not an ndarray", F.fname, j), 2) end
    end
  end
  return run(F, tr, args, out)
end

--- The generated CUDA source of the kernels a call `f(...)` runs (traced
-- for the arguments' signature; no GPU needed: the arguments may be host
-- arrays).  Kernels are separated by a comment line `// ---- kernel N`.
-- @function fused:source
-- @param ... the arguments, as for a call
-- @treturn string the CUDA source
-- @usage
-- local f = ga.fuse(function(x, y) return x * y + 1 end, { name = "fma1" })
-- local x = ga.host.ones(4, "float32")
-- local src = f:source(x, x)
-- print(src:find("extern \"C\" __global__ void __launch_bounds__(256) fma1", 1, true) ~= nil)   --> true
local function kernel_texts(F, method, ...)
  local args, n = split_args(F, ...)
  local tr = get_trace(F, args, n)
  local P = tr.gplan
  if not P then P = make_plan(tr, false); tr.gplan = P end
  local srcs = {}
  local function types(kk)
    local t = {}
    for i, id in ipairs(kk.leaves) do
      local nd = tr.nodes[id]
      if nd.weak then
        t[i] = nd.lkind == "int" and 1 or nd.lkind == "float" and 1.5 or true
      else
        t[i] = nd.dtype
      end
    end
    return t
  end
  for _, st in ipairs(P.reds) do
    local kk = st.k
    if st.mode == "redk" or st.mode == "softmax" then
      local shape = {}
      for d = 1, math.max(tr.nodes[st.input].ndim, 1) do shape[d] = 4 end
      srcs[#srcs + 1] = kk.kernel[method](kk.kernel, types(kk), { shape = shape })
    elseif st.mode == "temp" then
      srcs[#srcs + 1] = kk.kernel[method](kk.kernel, types(kk))
      if method == "source" then
        srcs[#srcs] = srcs[#srcs] .. "\n// then the built-in " .. st.name .. " of its output"
      end
    elseif method == "source" then
      srcs[#srcs + 1] = "// the built-in " .. st.name .. " of an argument"
    else
      srcs[#srcs + 1] = 0
    end
  end
  if P.k then srcs[#srcs + 1] = P.k.kernel[method](P.k.kernel, types(P.k)) end
  return srcs
end

function FUSED.__index.source(F, ...)
  local srcs = kernel_texts(F, "source", ...)
  for i = 1, #srcs do srcs[i] = "// ---- kernel " .. i .. "\n" .. srcs[i] end
  return table.concat(srcs, "\n")
end

--- Compile the kernels a call `f(...)` runs with NVRTC (no GPU needed: the
-- arguments may be host arrays), for checking code generation.
-- @function fused:compile
-- @param ... the arguments, as for a call
-- @treturn int the number of kernels compiled
-- @usage
-- local f = ga.fuse(function(x, y) return ga.sin(x) * y end)
-- local x = ga.host.ones(4, "float32")
-- print(f:compile(x, x))   --> 1
function FUSED.__index.compile(F, ...)
  local n = 0
  for _, r in ipairs(kernel_texts(F, "compile", ...)) do
    if type(r) == "number" and r > 0 then n = n + 1 end
  end
  return n
end

FUSED.__tostring = function(F) return string.format("<fused function '%s'>", F.name) end

--- Fuse a Lua function of arrays into one kernel (CuPy's `cupy.fuse`).
--
-- `ga.fuse(fn [, {name=}])` returns a callable object: `f(a, b, ...)` runs
-- `fn`'s array arithmetic as one elementwise kernel (plus one kernel per
-- reduction inside), `f(a, b, {out = z})` writes the result into `z` (a
-- table of arrays for several results).  The function is traced once per
-- signature -- each argument's dtype and ndim, which arguments are Lua
-- numbers and their kind (integer, float, boolean) -- with symbolic arrays;
-- later calls with that signature run the recorded kernels.
--
-- Inside `fn`: every ufunc (`ga.exp`, `ga.maximum`, `ga.arctan2` ...) and
-- operator (`+ - * / // % ^`, unary `-`, `& | ~ << >>`), the comparison
-- functions and methods (`ga.less`, `x:lt(y)`), `ga.where`, `x:astype(dt)`,
-- Lua numbers (weak scalars, NEP 50, exactly as unfused: `x * 0.5` stays
-- float32), arrays captured from outside (read as extra inputs), several
-- return values (one kernel writes them all), reductions `sum prod max min
-- mean all any argmax argmin` (and the other reduction rows) with `axis` and
-- `keepdims` (each fused with its elementwise input into one reduction
-- kernel; a softmax `e = exp(x - max(x)); e / sum(e)` is two kernels), and
-- in-place updates of an argument `x[{}] = value`.  Lua
-- control flow on Lua values runs at trace time.  Not fusable, each a clear
-- error naming the op and the line: `if` on an array value (detected as a
-- comparison whose boolean result no output uses, and as Lua's `<`/`==` on a
-- traced array), `x:item()`, indexing, `x.shape`, ops outside the list.
--
-- Arguments: arrays on one device (all on the GPU, or all on the host) and
-- Lua numbers; at least one array.  Every output has the broadcast shape of
-- the arrays its kernel reads (as CuPy).  A fused kernel may contract a
-- multiply and an add into one FMA, so GPU results can differ from the
-- unfused ones in the last bit; on the host the result is the unfused one.
--
-- `ga.fuse{name = "f"}(fn)` is the same as `ga.fuse(fn, {name = "f"})`
-- (CuPy's `@cupy.fuse(kernel_name=...)`).
--
-- `f:source(a, b, ...)` returns the generated CUDA source for those
-- arguments (no GPU needed); `f.ntraces` counts the traces made so far.
-- @function ga.fuse
-- @tparam function fn a function of arrays and Lua numbers
-- @tparam[opt] table opts `name` (the kernel's name, default "fused")
-- @return a callable fused function
-- @usage
-- local softplus = ga.fuse(function(x) return ga.log1p(ga.exp(-ga.abs(x))) + ga.maximum(x, 0) end,
--                          { name = "softplus" })
-- local x = ga.host.asarray({-2, 0, 3}, "float32")
-- print(softplus(x))   --> array([0.126928 , 0.6931472, 3.0485873], dtype=float32)
-- local axpy = ga.fuse(function(a, x, y) return a * x + y end)
-- print(axpy(2, x, 1))   --> array([-3.,  1.,  7.], dtype=float32)
-- print(axpy:source(2, x, x):find("_ga_fused", 1, true) ~= nil)   --> true
-- local softmax = ga.fuse(function(v) local e = ga.exp(v - v:max()); return e / e:sum() end)
-- print(softmax(ga.host.asarray({1, 2, 3})))   --> array([0.09003057, 0.24472847, 0.66524096])
function M.fuse(fn, opts)
  -- ga.fuse{name = "f"}(fn), as CuPy's @cupy.fuse(...)
  if type(fn) == "table" and opts == nil and getmetatable(fn) == nil then
    local o = fn
    return function(f) return M.fuse(f, o) end
  end
  if type(fn) ~= "function" then error("fuse: fn must be a function, got " .. C.typename(fn), 2) end
  if opts ~= nil and type(opts) ~= "table" then error("fuse: options must be a table, got " .. C.typename(opts), 2) end
  opts = opts or {}
  for k in pairs(opts) do
    if k ~= "name" then error("fuse: unknown option '" .. tostring(k) .. "' (known: name)", 2) end
  end
  local name = opts.name or "fused"
  if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") or #name > 40 then
    error("fuse: name must be a C identifier of at most 40 characters, got " .. tostring(name), 2)
  end
  local info = debug.getinfo(fn, "u")
  local F = { fn = fn, name = name, cname = name, fname = "fuse '" .. name .. "'", traces = {}, ntraces = 0,
              nparams = info.nparams, vararg = info.isvararg }
  return setmetatable(F, FUSED)
end

return { ga = { fuse = M.fuse }, host = { fuse = M.fuse } }
