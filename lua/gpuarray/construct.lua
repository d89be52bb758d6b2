--- Constructors and memory order: `ga.ndarray(shape, dtype, order)` (CuPy's
-- class called as a constructor), broadcast objects (`ga.broadcast`),
-- `ga.mgrid` and `ga.ogrid` as functions, and NumPy's `order` for
-- `x:astype`, `x:copy` and `ga.copy`.  Both `ga` and `ga.host` have them.
--
-- **Orders.**  `"C"` (row-major), `"F"` (column-major), `"A"` (F when the
-- source is F-contiguous and not C-contiguous, else C) and `"K"` (keep the
-- source's layout: the same as `"A"` here, so a strided source that is
-- neither gives C order).  An F-ordered result is made as the transpose of
-- a C-ordered copy of the transpose, so it is one kernel, like a C copy.
-- @module gpuarray.construct
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local ORDERS = { C = true, F = true, A = true, K = true }

-- "C" or "F" for an order name, given the source's flags f
local function resolve(fname, order, f, default)
  if order == nil then order = default end
  if type(order) ~= "string" or not ORDERS[order:upper()] then
    fail(fname, "order must be 'C', 'F', 'A' or 'K', got %s", type(order) == "string" and "'" .. order .. "'"
      or typename(order))
  end
  order = order:upper()
  if order == "A" or order == "K" then
    return (f.f_contiguous and not f.c_contiguous) and "F" or "C"
  end
  return order
end

local function x_flags(x) return x.flags end

local function satisfies(f, order)
  return order == "C" and f.c_contiguous or order == "F" and f.f_contiguous
end

local methods = core.ndarray_methods
local c_astype, c_copy = methods.astype, core.copy

-- the C astype tells x:astype{...} from x:astype(dtype, opts) by its arity
local function cast(x, dtype, opts)
  if opts == nil then return c_astype(x, dtype) end
  return c_astype(x, dtype, opts)
end

-- x:astype(dtype, opts) with opts.order, or x:astype{dtype=, order=, ...}
local function astype(x, dtype, opts, ...)
  local ok, f = false, nil
  if is_array(x) and select("#", ...) == 0 then ok, f = pcall(x_flags, x) end
  if not ok then return c_astype(x, dtype, opts, ...) end   -- its errors (a freed x ...)
  local tbl = type(dtype) == "table" and not is_array(dtype) and dtype or type(opts) == "table" and opts or nil
  local asked = tbl and tbl.order
  local order = resolve("astype", asked, f, "K")
  if asked ~= nil then
    local rest = {}
    for k, v in pairs(tbl) do if k ~= "order" then rest[k] = v end end
    if tbl == dtype then dtype = rest else opts = rest end
  end
  if order == "C" or x.ndim < 2 then
    local r = cast(x, dtype, opts)
    -- copy=false gives x itself, which an explicit "C" must not accept
    if rawequal(r, x) and not satisfies(f, "C") then return c_copy(x) end   -- a C copy
    return r
  end
  -- F: the transpose of a C-ordered cast of the transpose
  local t = x:transpose()
  local r = cast(t, dtype, opts)
  if rawequal(r, t) then return x end   -- copy=false, same dtype, x already F
  return r:transpose()
end

-- copy: core.copy (on x's device) or core.host.copy (to the host)
local function copy_in(fname, copy, x, order, default)
  if not is_array(x) then fail(fname, "expected an array, got %s", typename(x)) end
  local ok, f = pcall(x_flags, x)
  if not ok then return copy(x) end   -- its error (a freed x)
  if type(order) == "table" then order = order.order end
  order = resolve(fname, order, f, default)
  if order == "C" or x.ndim < 2 then return copy(x) end
  return copy(x:transpose()):transpose()
end

local Broadcast = {}
Broadcast.__index = Broadcast
Broadcast.__tostring = function(self)
  return "<broadcast shape=" .. tostring(self.shape) .. " of " .. self.numiter .. " arrays>"
end

local function build(m)
  local F = {}
  local G = C.lazy_module(m == core.host)

  --- A new array whose values are not initialised, as `cupy.ndarray(shape,
  -- dtype, order=)` (`memptr`/`strides` are not taken here).
  -- @function ga.ndarray
  -- @tparam int|table shape
  -- @tparam[opt="float64"] string|table dtype a dtype name, or `{dtype=, order=}`
  -- @tparam[opt="C"] string order `"C"` (row-major) or `"F"` (column-major)
  -- @treturn ndarray
  -- @usage
  -- local a = ga.ndarray({2, 3}, "float32", "F")
  -- print(a.shape, a.flags.f_contiguous, a.strides[1], a.strides[2])   --> (2, 3)  true  4  8
  function F.ndarray(shape, dtype, order)
    if type(dtype) == "table" then
      for k in pairs(dtype) do
        if k ~= "dtype" and k ~= "order" then fail("ndarray", "unknown option '%s'", tostring(k)) end
      end
      order, dtype = dtype.order, dtype.dtype
    end
    order = order == nil and "C" or order
    if type(order) ~= "string" or (order:upper() ~= "C" and order:upper() ~= "F") then
      fail("ndarray", "order must be 'C' or 'F', got %s",
           type(order) == "string" and "'" .. order .. "'" or typename(order))
    end
    local g = G()
    if order:upper() == "C" or type(shape) ~= "table" or #shape < 2 then return g.empty(shape, dtype or "float64") end
    local rev = {}
    for i = #shape, 1, -1 do rev[#rev + 1] = shape[i] end
    return g.empty(rev, dtype or "float64"):transpose()
  end

  --- A copy of `a` in the memory order asked for (NumPy's `np.copy`, whose
  -- default order is `"K"`: an F-contiguous source stays F-contiguous).
  -- @function ga.copy
  -- @tparam ndarray a
  -- @tparam[opt="K"] string|table order `"C"`, `"F"`, `"A"`, `"K"`, or `{order=}`
  -- @treturn ndarray a new array on `a`'s device
  -- @usage
  -- local f = ga.copy(ga.zeros({2, 3}), "F")
  -- print(f.flags.f_contiguous, ga.copy(f).flags.f_contiguous)   --> true  true
  -- print(ga.copy(f, "C").flags.c_contiguous)                     --> true
  function F.copy(a, order) return copy_in("copy", m.copy, a, order, "K") end

  --- NumPy's broadcast object: the shape, size and number of dimensions of
  -- the arguments broadcast together (`shape size ndim nd numiter`), and
  -- their broadcast views in `values` (a table).
  -- @function ga.broadcast
  -- @param ... arrays (or tables or numbers), one at least
  -- @treturn table a broadcast object
  -- @usage
  -- local b = ga.broadcast(ga.arange(3), ga.zeros({2, 1}))
  -- print(b.shape, b.size, b.ndim, b.numiter)   --> (2, 3)  6  2  2
  -- print(b.values[1].shape)                    --> (2, 3)
  function F.broadcast(...)
    local n = select("#", ...)
    if n == 0 then fail("broadcast", "needs at least one array") end
    local g, args = G(), { ... }
    for i = 1, n do
      local v = args[i]
      if not is_array(v) then
        if type(v) ~= "table" and type(v) ~= "number" and type(v) ~= "boolean" then
          fail("broadcast", "argument %d must be an array, a table or a number, got %s", i, typename(v))
        end
        args[i] = g.asarray(v)
      end
    end
    local views = table.pack(g.broadcast_arrays(table.unpack(args, 1, n)))
    local shape, size = views[1].shape, views[1].size
    return setmetatable({ shape = shape, size = size, ndim = #shape, nd = #shape, numiter = n,
                          values = { table.unpack(views, 1, n) } }, Broadcast)
  end

  -- one axis of mgrid/ogrid: a number n is {0, n}; {start, stop[, step]}
  -- (values, half-open, as a Python slice) or {start, stop, num = k} (k
  -- points with stop, as NumPy's complex step)
  local function axis_values(fname, r, i)
    local g = G()
    if type(r) == "number" then return g.arange(r) end
    if type(r) ~= "table" then
      fail(fname, "range %d must be a number or a table {start, stop[, step]}, got %s", i, typename(r))
    end
    local start, stop, step, num = r[1], r[2], r[3], r.num
    if type(start) ~= "number" or type(stop) ~= "number" then
      fail(fname, "range %d needs numbers start and stop: {start, stop[, step]} or {start, stop, num = k}", i)
    end
    if num ~= nil then
      if math.type(num) ~= "integer" or num < 0 then fail(fname, "range %d: num must be an integer >= 0", i) end
      return g.linspace(start, stop, num)
    end
    step = step or 1
    if type(step) ~= "number" or step == 0 then fail(fname, "range %d: step must be a non-zero number", i) end
    return g.arange(start, stop, step)
  end

  --- A dense multi-dimensional grid (NumPy's `mgrid[...]` as a function):
  -- one range per axis; the result has shape `(k, n1, ..., nk)`, or is the
  -- 1-D range itself for one range.  A range is a number n (`0 .. n-1`),
  -- `{start, stop[, step]}` (values, half-open, as NumPy's slices) or
  -- `{start, stop, num = k}` (k points, stop included: NumPy's `kj` step).
  -- @function ga.mgrid
  -- @param ... the ranges
  -- @treturn ndarray
  -- @usage
  -- print(ga.mgrid({0, 2}, 3))
  -- --> array([[[0, 0, 0],
  -- -->         [1, 1, 1]],
  -- -->
  -- -->        [[0, 1, 2],
  -- -->         [0, 1, 2]]])
  -- print(ga.mgrid({0, 1, num = 3}))          --> array([0. , 0.5, 1. ])
  function F.mgrid(...)
    local n = select("#", ...)
    if n == 0 then fail("mgrid", "needs at least one range") end
    local g, vals = G(), {}
    for i = 1, n do vals[i] = axis_values("mgrid", (select(i, ...)), i) end
    if n == 1 then return vals[1] end
    vals[n + 1] = { indexing = "ij" }
    return g.stack(g.meshgrid(table.unpack(vals, 1, n + 1)))
  end

  --- An open grid (NumPy's `ogrid[...]` as a function): a table of arrays,
  -- the i-th of shape 1 but for its own axis.  Ranges as for `ga.mgrid`.
  -- @function ga.ogrid
  -- @param ... the ranges
  -- @treturn table of ndarrays (the 1-D range itself for one range)
  -- @usage
  -- local g = ga.ogrid(2, {0, 3})
  -- print(g[1].shape, g[2].shape)             --> (2, 1)  (1, 3)
  function F.ogrid(...)
    local n = select("#", ...)
    if n == 0 then fail("ogrid", "needs at least one range") end
    local vals = {}
    for i = 1, n do vals[i] = axis_values("ogrid", (select(i, ...)), i) end
    if n == 1 then return vals[1] end
    vals[n + 1] = { indexing = "ij", sparse = true }
    return G().meshgrid(table.unpack(vals, 1, n + 1))
  end
  return F
end

-- ndarray:astype (documented in gpuarray/ufuncs.lua) with order=
methods.astype = astype

--- A copy of x in the order asked for (CuPy's `ndarray.copy`, default `"C"`).
-- With `{device = d}` the copy is made on device d (`"cpu"`, `"cuda:N"`, an
-- ordinal or a `ga.cuda.Device`): between two GPUs a peer-to-peer copy, as
-- `x:to(d)`, but always a new array.
-- @function ndarray:copy
-- @tparam[opt="C"] string|table order `"C"`, `"F"`, `"A"`, `"K"`, or `{order=, device=}`
-- @treturn ndarray
-- @usage
-- local x = ga.arange(6):reshape({2, 3})
-- print(x:copy("F").flags.f_contiguous, x:copy().flags.c_contiguous)   --> true  true
-- print(x:copy{device = "cpu"}.device)   --> <CPU>
function methods.copy(x, order)
  if type(order) == "table" and not is_array(order) and order.device ~= nil then
    if not is_array(x) then fail("copy", "expected an array, got %s", typename(x)) end
    for k in pairs(order) do
      if k ~= "device" and k ~= "order" then fail("copy", "unknown option '%s'", tostring(k)) end
    end
    local y = methods.to(x, order.device)
    if rawequal(y, x) then return copy_in("copy", c_copy, x, order.order, "C") end
    if order.order == nil or order.order == "C" or y.ndim < 2 then return y end
    return copy_in("copy", c_copy, y, order.order, "C")
  end
  return copy_in("copy", c_copy, x, order, "C")
end

return { ga = build(core), host = build(core.host) }
