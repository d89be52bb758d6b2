--- Assertions for tests, as `numpy.testing` / `cupy.testing`: `ga.testing`
-- (the same table serves `ga.host.testing`).  Each `assert_*` raises an
-- error with NumPy's report (the mismatch count, the largest absolute and
-- relative differences, the first mismatched positions, 1-based) and
-- returns nothing when the arrays agree.  Arrays may live on any device
-- (they are compared on the host); Lua numbers and tables are accepted.
--
-- `for_all_devices(fn)` runs a case on the host and on the GPU (when there
-- is one) and checks that the results agree: what gpuarray's own specs do.
-- @module gpuarray.testing
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array = C.is_array

local T = {}

local function host_of(x)
  if is_array(x) then return x.device.id < 0 and x or x:get() end
  return core.host.asarray(x)
end

local function shape_str(sh) return C.shape_str(sh, ", ") end

local function same_shape(a, b)
  if a.ndim ~= b.ndim then return false end
  for i = 1, a.ndim do if a.shape[i] ~= b.shape[i] then return false end end
  return true
end

-- NumPy's header, the counts, the differences and the first positions
local function report(title, a, b, bad, err_msg, diffs)
  local H = require("gpuarray").host
  local n, nbad = bad.size, H.count_nonzero(bad):item()
  local lines = { "", title }
  if err_msg and err_msg ~= "" then lines[#lines + 1] = err_msg end
  lines[#lines + 1] = ("Mismatched elements: %d / %d (%.3g%%)"):format(nbad, n, 100 * nbad / math.max(n, 1))
  if diffs then
    lines[#lines + 1] = ("Max absolute difference among violations: %.6g"):format(diffs.abs)
    lines[#lines + 1] = ("Max relative difference among violations: %.6g"):format(diffs.rel)
  end
  local pos = H.argwhere(bad)
  local shown = {}
  local m = math.min(pos.shape[1], 5)
  for i = 1, m do
    local p = pos[{ i }]:tolist()
    if type(p) ~= "table" then p = { p } end
    shown[#shown + 1] = "(" .. table.concat(p, ", ") .. ")"
  end
  if m > 0 then
    lines[#lines + 1] = "First mismatched positions (1-based): " .. table.concat(shown, " ") ..
      (pos.shape[1] > m and " ..." or "")
  end
  lines[#lines + 1] = " ACTUAL: " .. tostring(a)
  lines[#lines + 1] = " DESIRED: " .. tostring(b)
  error(table.concat(lines, "\n"), 3)
end

local function prepare(fname, actual, desired)
  local a, b = host_of(actual), host_of(desired)
  if not same_shape(a, b) and b.ndim ~= 0 and a.ndim ~= 0 then
    error(("\n%s\n(shapes %s, %s mismatch)"):format(fname, shape_str(a.shape), shape_str(b.shape)), 3)
  end
  return a, b
end

--- Raise unless `|actual - desired| <= atol + rtol * |desired|` everywhere
-- (NaN equals NaN unless `equal_nan` is false; equal infinities agree).
-- @function ga.testing.assert_allclose
-- @param actual
-- @param desired
-- @tparam[opt=1e-7] number rtol
-- @tparam[opt=0] number atol
-- @tparam[opt=true] boolean equal_nan
-- @tparam[opt] string err_msg
-- @usage
-- ga.testing.assert_allclose(ga.array({1, 2}), {1, 2 + 1e-9})
-- print(pcall(ga.testing.assert_allclose, {1, 2}, {1, 3}))   --> false	...Mismatched elements: 1 / 2 (50%)...
function T.assert_allclose(actual, desired, rtol, atol, equal_nan, err_msg)
  local H = require("gpuarray").host
  rtol, atol = rtol or 1e-7, atol or 0
  local a, b = prepare("assert_allclose", actual, desired)
  local af, bf = a, b
  if not (a.dtype:match("float") or a.dtype:match("complex")) then af = a:astype("float64") end
  if not (b.dtype:match("float") or b.dtype:match("complex")) then bf = b:astype("float64") end
  local ok = H.isclose(af, bf, rtol, atol, equal_nan ~= false)
  if H.all(ok):item() then return end
  local bad = H.logical_not(ok)
  local d = H.abs(H.subtract(af, bf))
  local bd = H.compress(H.ravel(bad), H.ravel(H.broadcast_to(d, bad.shape)))
  local rel = H.divide(bd, H.compress(H.ravel(bad), H.ravel(H.broadcast_to(H.abs(bf), bad.shape))))
  report(("Not equal to tolerance rtol=%g, atol=%g"):format(rtol, atol), a, b, bad, err_msg,
         { abs = H.max(bd):item(), rel = H.max(rel):item() })
end

--- Raise unless the arrays have the same shape (a 0-d one broadcasts) and
-- equal elements (NaN equals NaN).
-- @function ga.testing.assert_array_equal
-- @usage
-- ga.testing.assert_array_equal(ga.arange(3), {0, 1, 2})
function T.assert_array_equal(actual, desired, err_msg)
  local H = require("gpuarray").host
  local a, b = prepare("assert_array_equal", actual, desired)
  local eq = H.equal(a, b)
  if a.dtype:match("float") or a.dtype:match("complex") then
    eq = H.logical_or(eq, H.logical_and(H.isnan(a), H.isnan(b)))
  end
  if H.all(eq):item() then return end
  local bad = H.logical_not(eq)
  local diffs
  if not (a.dtype == "bool" or b.dtype == "bool") then
    local d = H.abs(H.subtract(a:astype("float64"), b:astype("float64")))
    local bd = H.compress(H.ravel(bad), H.ravel(H.broadcast_to(d, bad.shape)))
    local den = H.compress(H.ravel(bad), H.ravel(H.broadcast_to(H.abs(b:astype("float64")), bad.shape)))
    diffs = { abs = H.max(bd):item(), rel = H.max(H.divide(bd, den)):item() }
  end
  report("Arrays are not equal", a, b, bad, err_msg, diffs)
end

--- Raise unless every element of `x` is strictly less than `y`'s.
-- @function ga.testing.assert_array_less
-- @usage
-- ga.testing.assert_array_less({1, 2}, {2, 3})
function T.assert_array_less(x, y, err_msg)
  local H = require("gpuarray").host
  local a, b = prepare("assert_array_less", x, y)
  local lt = H.less(a, b)
  if H.all(lt):item() then return end
  report("Arrays are not strictly ordered `x < y`", a, b, H.logical_not(lt), err_msg)
end

--- Raise unless `a` and `b` differ by at most `maxulp` units in the last
-- place (float16/32/64, compared in the dtype of `a`).
-- @function ga.testing.assert_array_max_ulp
-- @tparam[opt=1] integer maxulp
-- @usage
-- local x = ga.array({1.0}, "float32")
-- ga.testing.assert_array_max_ulp(x, ga.nextafter(x, 2), 1)
function T.assert_array_max_ulp(a, b, maxulp)
  local H = require("gpuarray").host
  maxulp = maxulp or 1
  local x, y = prepare("assert_array_max_ulp", a, b)
  local dt = x.dtype
  local ity = ({ float16 = "int16", float32 = "int32", float64 = "int64" })[dt]
  if not ity then error("assert_array_max_ulp: a must be float16, float32 or float64, got " .. dt, 2) end
  y = y:astype(dt)
  -- the ordered integers of the bit patterns: their difference counts ulps
  local function ordered(v)
    local bits = H.ascontiguousarray(v):view(ity):astype("int64")
    local lo = ({ int16 = -32768, int32 = -2147483648, int64 = math.mininteger })[ity]
    return H.where(H.less(bits, 0), H.subtract(lo, bits), bits)
  end
  local d = H.abs(H.subtract(ordered(x), ordered(y)))
  local nan = H.logical_or(H.isnan(x), H.isnan(y))
  local both_nan = H.logical_and(H.isnan(x), H.isnan(y))
  local bad = H.logical_or(H.greater(d, maxulp), H.logical_and(nan, H.logical_not(both_nan)))
  if not H.any(bad):item() then return end
  report(("Arrays are not almost equal up to %d ULP (max difference is %d ULP)"):format(maxulp,
         H.max(H.where(nan, 0, d)):item()), x, y, bad)
end

--- Run `fn(xp)` with `xp = ga.host` and, when a GPU is there, `xp = ga`,
-- and check that the results agree (assert_allclose with `rtol`, default
-- 1e-7; exact for integers and bools).  Returns the host result and the
-- GPU's (nil without a GPU).
-- @function ga.testing.for_all_devices
-- @tparam function fn
-- @tparam[opt] table opts `{rtol=, atol=}`
-- @usage
-- local h = ga.testing.for_all_devices(function(xp) return xp.arange(4) * 2 end)
-- print(h)   --> array([0, 2, 4, 6])
function T.for_all_devices(fn, opts)
  local ga = require "gpuarray"
  opts = opts or {}
  local h = fn(ga.host)
  if not ga.cuda.is_available() then return h, nil end
  local d = fn(ga)
  if is_array(h) and (h.dtype:match("float") or h.dtype:match("complex")) then
    T.assert_allclose(d, h, opts.rtol or 1e-7, opts.atol or 0, true, "GPU against host")
  else
    T.assert_array_equal(d, h, "GPU against host")
  end
  return h, d
end

local DTYPES = { "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
                 "float64", "complex64", "complex128" }

--- Run `fn(dtype)` for each dtype (`dtypes`, default all 14; "float",
-- "int", "signed" and "unsigned" name groups); an error says which dtype
-- failed.
-- @function ga.testing.for_all_dtypes
-- @tparam function fn
-- @param[opt] dtypes a table of names, or a group name
-- @usage
-- ga.testing.for_all_dtypes(function(dt) assert(ga.host.zeros(2, dt).dtype == dt) end, "float")
function T.for_all_dtypes(fn, dtypes)
  local list = dtypes
  if type(dtypes) == "string" or dtypes == nil then
    local groups = { float = "^float", int = "int", signed = "^int", unsigned = "^uint", complex = "^complex" }
    local pat = groups[dtypes or ""]
    if dtypes ~= nil and not pat then error("for_all_dtypes: unknown dtype group '" .. dtypes .. "'", 2) end
    list = {}
    for _, d in ipairs(DTYPES) do if not pat or d:match(pat) then list[#list + 1] = d end end
  end
  for _, dt in ipairs(list) do
    local ok, err = pcall(fn, dt)
    if not ok then error("for_all_dtypes: failed for " .. dt .. ": " .. tostring(err), 2) end
  end
end

return T
