--- Element-wise functions (ufuncs), their NumPy aliases, the functions
-- built on them (`round`, `angle`, `real`, `imag`, `clip`), the ndarray
-- methods that call them, and the dtype rules (`can_cast`, `result_type`,
-- `promote_types`).
--
-- Every ufunc is one row of the op table (`src/base/ga_ops.def`); the C module
-- makes each row a function (`ga.core.ufuncs`, also under the row's aliases;
-- the row's metamethod and method aliases go to the ndarray), and
-- `gpuarray/init.lua` copies the public ones and this file's functions into
-- `ga` and `ga.host`.
--
-- Common to every ufunc: operands are arrays or Lua numbers, they broadcast
-- (NumPy rules), dtypes promote as in NumPy 2 (NEP 50: a Lua number is a
-- *weak scalar* that takes the array's dtype when its kind can hold it:
-- `int32 array + 1` is int32, `+ 1.5` float64), the result is on the
-- operands' device (a 0-d array on the current device when every operand is
-- a number), and the last argument may be an options table
-- `{out=, dtype=, casting=}`:
--
-- * `out`: the array to write the result into (it may be one of the
--   inputs); it is returned.  Ufuncs with two outputs (`divmod`, `modf`,
--   `frexp`) take a table of two arrays.
-- * `dtype`: the output dtype, as NumPy's `dtype=` (a signature for the
--   outputs): the first loop giving it that the inputs cast to safely, else
--   the loop computing in `dtype` itself, the inputs cast as `casting`
--   allows (`ga.add(int32_array, 1, {dtype = "int8"})` wraps; a float64
--   array into int64 is refused).  Comparisons and logical functions
--   ignore `dtype = "bool"`.  A Lua integer must fit the loop's dtype.
-- * `casting`: `"same_kind"` (default), `"unsafe"`, `"safe"`, `"equiv"` or
--   `"no"`, the rule the input and output casts must obey
--
-- A dtype a ufunc does not support (`ga.sqrt` of an integer array is fine,
-- it computes in float64; `ga.bitwise_and` of floats is not) is an error
-- naming the ufunc and the input dtypes.
-- @submodule gpuarray

local core = require "gpuarray.core"

local U = core.ufuncs
local M = core.ndarray_methods
local F = {}   -- what init.lua copies into ga and ga.host

-- The op rows the functions below run, as functions whose errors name the
-- public function and the line that called it (core.ufunc_as).
local as, dtype_of = core.ufunc_as, core.dtype_of
local where_row, round_row, angle_row = as("_where", "where"), as("_round", "round"), as("_angle", "angle")
local clip_rows = { clip = as("clip", "clip"), minimum = as("minimum", "clip"), maximum = as("maximum", "clip"),
                    positive = as("positive", "clip") }

local is_array = require("gpuarray.util").is_array

-- {min, max} of each integer dtype (uint64's max is beyond Lua's integers)
local int_range = {
  int8 = { -128, 127 }, uint8 = { 0, 255 }, int16 = { -32768, 32767 }, uint16 = { 0, 65535 },
  int32 = { -2147483648, 2147483647 }, uint32 = { 0, 4294967295 },
  int64 = { math.mininteger, math.maxinteger }, uint64 = { 0, nil },
}

for name, f in pairs(U) do
  if name:sub(1, 1) ~= "_" then F[name] = f end
end

--- Arithmetic.
-- `+ - * / // % ^` and unary `-` on arrays call `add`, `subtract`,
-- `multiply`, `true_divide`, `floor_divide`, `remainder`, `power` and
-- `negative`.
-- @section arithmetic

--- Element-wise sum `a + b`.
-- @function ga.add
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local a = ga.array({{1, 2, 3}, {4, 5, 6}}, "int32")
-- print(ga.add(a, ga.array({10, 20, 30}, "int32")))   -- broadcasts the row
-- print(ga.add(a, 1, {dtype = "float32"}).dtype)      --> float32
-- ga.add(a, 1, {out = a})                              -- in place
-- ga.add(a, 0.5, {out = a, casting = "unsafe"})        -- float64 -> int32

--- Element-wise difference `a - b`.
-- @function ga.subtract
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.subtract(10, ga.arange(3)))   --> array([10,  9,  8])

--- Element-wise product `a * b`.
-- @function ga.multiply
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.multiply(ga.arange(3), ga.array({{1}, {2}})))
-- --> array([[0, 1, 2],
-- -->        [0, 2, 4]])

--- Element-wise true division `a / b`: integer operands give float64.
-- `ga.divide` is the same function.
-- @function ga.true_divide
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.true_divide(ga.arange(3), 2))   --> array([0. , 0.5, 1. ])

--- Element-wise true division `a / b`; the same function as `ga.true_divide`.
-- @function ga.divide
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.divide(ga.array({1, 2}), ga.array({4, 8})))   --> array([0.25, 0.25])

--- Element-wise floor division `a // b`: the largest integer <= `a / b`
-- (integer division by zero gives 0, as in NumPy).
-- @function ga.floor_divide
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.floor_divide(ga.array({7, -7}), 2))   --> array([ 3, -4])
-- print(ga.array({7.5}) // 2)                    --> array([3.])

--- Element-wise negation `-a`.
-- @function ga.negative
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local a = ga.arange(3)
-- print(ga.negative(a))               --> array([ 0, -1, -2])
-- ga.negative(a, {out = a})           -- in place

--- Element-wise `+a`: a copy of the values (not for bool, as in NumPy).
-- @function ga.positive
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.positive(ga.array({-1, 2})))   --> array([-1,  2])

--- Element-wise power `a ^ b` (NumPy's `a ** b`); integers stay integers.
-- @function ga.power
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.power(ga.arange(4), 2))    --> array([0, 1, 4, 9])
-- print(ga.power(2.0, ga.arange(3)))  --> array([1., 2., 4.])

--- Element-wise power computed in float64 (or complex128): the result is
-- never an integer or float32 array.
-- @function ga.float_power
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.float_power(ga.array({2, 3}, "int8"), 2))   --> array([4., 9.])

--- Element-wise remainder `a % b` with the sign of `b` (Python's and Lua's
-- `%`); `ga.mod` is the same function.
-- @function ga.remainder
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.remainder(ga.array({7, -7}), 3))   --> array([1, 2])
-- print(ga.array({7, -7}) % 3)                --> array([1, 2])

--- Element-wise remainder with the sign of `b`; the same function as
-- `ga.remainder`.
-- @function ga.mod
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.mod(ga.array({-7.5}), 2))   --> array([0.5])

--- Element-wise remainder with the sign of `a` (C's `fmod`).
-- @function ga.fmod
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.fmod(ga.array({7, -7}), 3))   --> array([ 1, -1])

--- Floor division and remainder at once: two arrays, `a // b` and `a % b`.
-- @function ga.divmod
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out={q, r}, dtype=, casting=}`
-- @treturn ndarray the quotients
-- @treturn ndarray the remainders
-- @usage
-- local q, r = ga.divmod(ga.array({7, -7}), 3)
-- print(q, r)                         --> array([ 2, -3])  array([1, 2])

--- Element-wise reciprocal `1 / a`, in `a`'s dtype (integers: `1 // a`).
-- @function ga.reciprocal
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.reciprocal(ga.array({1.0, 2.0, 4.0})))   --> array([1.  , 0.5 , 0.25])

--- Element-wise absolute value; for complex `a` the modulus, of the real
-- dtype (complex64 gives float32).  `ga.abs` is the same function.
-- @function ga.absolute
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.absolute(ga.array({-1, 2})))   --> array([1, 2])
-- local j = ga.sqrt(ga.array(-1, "complex64"))   -- the imaginary unit
-- print(ga.absolute(3 + 4 * j))           --> array(5., dtype=float32)

--- Element-wise absolute value; the same function as `ga.absolute`.
-- @function ga.abs
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.abs(ga.array({-1.5, 2})))   --> array([1.5, 2. ])

--- Element-wise absolute value of a float array (no integers, no complex).
-- @function ga.fabs
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.fabs(ga.array({-1.5, 2})))   --> array([1.5, 2. ])

--- Element-wise sign: -1, 0 or 1 (NaN for NaN; complex: `a / |a|`).
-- @function ga.sign
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.sign(ga.array({-5, 0, 3})))   --> array([-1,  0,  1])

--- Element-wise square root (integers compute in float64; negative reals
-- give NaN, complex arrays the principal root).
-- @function ga.sqrt
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.sqrt(ga.array({1, 4, 9})))           --> array([1., 2., 3.])
-- print(ga.sqrt(ga.array({-4}, "complex128")))   --> array([0.+2.j])

--- Element-wise cube root (real dtypes).
-- @function ga.cbrt
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.cbrt(ga.array({-8.0, 27.0})))   --> array([-2.,  3.])

--- Element-wise square `a * a`.
-- @function ga.square
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.square(ga.array({-3, 4}, "int8")))   --> array([ 9, 16], dtype=int8)

--- Element-wise greatest common divisor of integers (non-negative).
-- @function ga.gcd
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.gcd(ga.array({12, -18, 7}), 6))   --> array([6, 6, 1])

--- Element-wise least common multiple of integers (non-negative).
-- @function ga.lcm
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.lcm(ga.array({4, 6}), 10))   --> array([20, 30])

--- The Heaviside step function: 0 where `x < 0`, `h0` where `x == 0`,
-- 1 where `x > 0` (float dtypes).
-- @function ga.heaviside
-- @param x an array or a Lua number
-- @param h0 the value at 0: an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.heaviside(ga.array({-1.5, 0, 2}), 0.5))   --> array([0. , 0.5, 1. ])

--- Choose element-wise: `x` where `cond` is true, else `y` (NumPy's
-- three-argument `where`).  `cond`, `x` and `y` broadcast together; the
-- result's dtype is that of `x` and `y` promoted (Lua numbers are weak, as
-- in every ufunc).  `cond` may have any dtype (non-zero is true) or be a
-- Lua boolean or number.  With `cond` alone it is `ga.nonzero(cond)`
-- (a table of 1-based int64 position arrays; gpuarray/scan.lua).
-- @function ga.where
-- @param cond an array, a Lua boolean or a Lua number
-- @param x an array or a Lua number
-- @param y an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out` (a table with `cond` alone)
-- @usage
-- local a = ga.arange(5)
-- print(ga.where(a:gt(2), a, -1))                     --> array([-1, -1, -1,  3,  4])
-- print(ga.where(ga.array({1, 0}), 1.5, ga.arange(2)))   --> array([1.5, 1. ])
-- print(ga.where(a:gt(2))[1])                         --> array([4, 5])
function F.where(cond, x, y, opts)
  if x == nil and y == nil and opts == nil then return core._scan.nonzero(cond) end
  if x == nil or y == nil then
    error("where: takes cond alone (the same as ga.nonzero(cond)) or cond, x and y", 2)
  end
  if type(cond) == "number" then cond = cond ~= 0
  elseif (dtype_of(cond) or "bool") ~= "bool" then cond = cond:astype("bool") end
  return where_row(cond, x, y, opts)
end

--- Limit the values to `[lo, hi]`: `minimum(maximum(a, lo), hi)`.  Either
-- bound may be `nil` for none (not both); the bounds broadcast and promote
-- like the operands of any ufunc.  As in NumPy, a Lua-integer bound beyond
-- an integer array's range is dropped (`clip(uint8_array, -1, 300)` is a
-- uint8 copy), not an error.
-- @function ga.clip
-- @param a an array or a Lua number
-- @param lo the lower bound: an array, a Lua number or `nil`
-- @param hi the upper bound: an array, a Lua number or `nil`
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local a = ga.arange(6)
-- print(ga.clip(a, 1, 4))             --> array([1, 1, 2, 3, 4, 4])
-- print(ga.clip(a, nil, 2))           --> array([0, 1, 2, 2, 2, 2])
-- print(a:clip(3))                    --> array([3, 3, 3, 3, 4, 5])
function F.clip(a, lo, hi, opts)
  if lo == nil and hi == nil then
    error("clip: at least one of the bounds lo, hi must be given (nil means none)", 2)
  end
  -- NumPy drops a Python-integer bound beyond an integer array's range
  -- (no value clips against it), before any promotion
  local r = int_range[dtype_of(a) or "bool"]
  if r then
    if math.type(lo) == "integer" and lo <= r[1] then lo = nil end
    if math.type(hi) == "integer" and r[2] and hi >= r[2] then hi = nil end
    if lo == nil and hi == nil then return clip_rows.positive(a, opts) end
  end
  if lo == nil then return clip_rows.minimum(a, hi, opts) end
  if hi == nil then return clip_rows.maximum(a, lo, opts) end
  return clip_rows.clip(a, lo, hi, opts)
end

--- Exponents and logarithms.
-- Integer and bool operands compute in float64 (int8/uint8 in float16,
-- int16/uint16 in float32, as NumPy's loops do).
-- @section explog

--- Element-wise `e^x`.
-- @function ga.exp
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.exp(ga.array({0.0, 1.0})))   --> array([1.        , 2.71828183])

--- Element-wise `2^x`.
-- @function ga.exp2
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.exp2(ga.array({3.0, -1.0})))   --> array([8. , 0.5])

--- Element-wise `e^x - 1`, accurate for small `x`.
-- @function ga.expm1
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.expm1(ga.array({1e-10})))   --> array([1.e-10])

--- Element-wise natural logarithm (NaN below 0, `-inf` at 0).
-- @function ga.log
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.log(ga.array({1.0, math.exp(2)})))   --> array([0., 2.])

--- Element-wise base-2 logarithm.
-- @function ga.log2
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.log2(ga.array({1, 8, 1024})))   --> array([ 0.,  3., 10.])

--- Element-wise base-10 logarithm.
-- @function ga.log10
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.log10(ga.array({1, 1000})))   --> array([0., 3.])

--- Element-wise `log(1 + x)`, accurate for small `x`.
-- @function ga.log1p
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.log1p(ga.array({1e-10})))   --> array([1.e-10])

--- Element-wise `log(e^a + e^b)`, without overflow (float dtypes).
-- @function ga.logaddexp
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.logaddexp(ga.array({1000.0}), 1000.0))   --> array([1000.69314718])

--- Element-wise `log2(2^a + 2^b)`, without overflow (float dtypes).
-- @function ga.logaddexp2
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.logaddexp2(ga.array({3.0}), 3.0))   --> array([4.])

--- Trigonometric functions.
-- Angles are in radians.
-- @section trig

--- Element-wise sine.
-- @function ga.sin
-- @param x an array or a Lua number (radians)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.sin(ga.array({0, math.pi / 2})))   --> array([0., 1.])

--- Element-wise cosine.
-- @function ga.cos
-- @param x an array or a Lua number (radians)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.cos(ga.array({0, math.pi})))   --> array([ 1., -1.])

--- Element-wise tangent.
-- @function ga.tan
-- @param x an array or a Lua number (radians)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.tan(ga.array({0.0, math.pi / 4}, "float32")))   --> array([0., 1.], dtype=float32)

--- Element-wise inverse sine, in `[-pi/2, pi/2]` (NaN outside `[-1, 1]`).
-- @function ga.arcsin
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arcsin(ga.array({0, 1})))   --> array([0.        , 1.57079633])

--- Element-wise inverse cosine, in `[0, pi]` (NaN outside `[-1, 1]`).
-- @function ga.arccos
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arccos(ga.array({1, -1})))   --> array([0.        , 3.14159265])

--- Element-wise inverse tangent, in `(-pi/2, pi/2)`.
-- @function ga.arctan
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arctan(ga.array({0, 1})))   --> array([0.        , 0.78539816])

--- Element-wise angle of the point `(x, y)` from the x axis: `atan(y / x)`
-- in the right quadrant, in `[-pi, pi]` (float dtypes).
-- @function ga.arctan2
-- @param y an array or a Lua number
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arctan2(ga.array({1, -1}), -1))   --> array([ 2.35619449, -2.35619449])

--- Element-wise hypotenuse `sqrt(a^2 + b^2)`, without overflow.
-- @function ga.hypot
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.hypot(ga.array({3, 5}), ga.array({4, 12})))   --> array([ 5., 13.])

--- Element-wise degrees to radians.  `ga.radians` is the same function.
-- @function ga.deg2rad
-- @param x an array or a Lua number (degrees)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.deg2rad(ga.array({180})))   --> array([3.14159265])

--- Element-wise degrees to radians; the same function as `ga.deg2rad`.
-- @function ga.radians
-- @param x an array or a Lua number (degrees)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.radians(ga.array({90, 360})))   --> array([1.57079633, 6.28318531])

--- Element-wise radians to degrees.  `ga.degrees` is the same function.
-- @function ga.rad2deg
-- @param x an array or a Lua number (radians)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.rad2deg(ga.array({math.pi / 2})))   --> array([90.])

--- Element-wise radians to degrees; the same function as `ga.rad2deg`.
-- @function ga.degrees
-- @param x an array or a Lua number (radians)
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.degrees(ga.array({math.pi})))   --> array([180.])

--- The normalised sinc function `sin(pi x) / (pi x)` (1 at 0).
-- @function ga.sinc
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.sinc(ga.array({0.0, 0.5})))   --> array([1.        , 0.63661977])

--- Hyperbolic functions.
-- @section hyperbolic

--- Element-wise hyperbolic sine.
-- @function ga.sinh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.sinh(ga.array({0, 1})))   --> array([0.        , 1.17520119])

--- Element-wise hyperbolic cosine.
-- @function ga.cosh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.cosh(ga.array({0, 1})))   --> array([1.        , 1.54308063])

--- Element-wise hyperbolic tangent.
-- @function ga.tanh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.tanh(ga.array({0, 100})))   --> array([0., 1.])

--- Element-wise inverse hyperbolic sine.
-- @function ga.arcsinh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arcsinh(ga.array({0, 1})))   --> array([0.        , 0.88137359])

--- Element-wise inverse hyperbolic cosine (NaN below 1).
-- @function ga.arccosh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arccosh(ga.array({1, 2})))   --> array([0.       , 1.3169579])

--- Element-wise inverse hyperbolic tangent (`inf` at 1, NaN beyond).
-- @function ga.arctanh
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.arctanh(ga.array({0, 0.5})))   --> array([0.        , 0.54930614])

--- Rounding.
-- `floor`, `ceil`, `trunc` and `fix` keep integer dtypes as they are;
-- `rint` and `round` round halves to even, as NumPy does.
-- @section rounding

--- Element-wise round to the nearest integer, halves to even (the value
-- stays in a float dtype).
-- @function ga.rint
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.rint(ga.array({0.5, 1.5, -2.7})))   --> array([ 0.,  2., -3.])

--- Element-wise floor: the largest integer <= `x`.
-- @function ga.floor
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.floor(ga.array({-1.5, 1.5})))   --> array([-2.,  1.])

--- Element-wise ceiling: the smallest integer >= `x`.
-- @function ga.ceil
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.ceil(ga.array({-1.5, 1.5})))   --> array([-1.,  2.])

--- Element-wise truncation toward zero.  `ga.fix` is the same function.
-- @function ga.trunc
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.trunc(ga.array({-1.7, 1.7})))   --> array([-1.,  1.])

--- Element-wise rounding toward zero; the same function as `ga.trunc`.
-- @function ga.fix
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.fix(ga.array({-2.5, 2.5})))   --> array([-2.,  2.])

--- Round to `decimals` decimal places, halves to even (NumPy's `round`:
-- scale by `10^decimals`, `rint`, scale back, so `2.675` may give `2.67`).
-- Negative `decimals` round to tens, hundreds...; integer arrays stay
-- integer.  The same as `ga.around` and `x:round(decimals)`.
-- @function ga.round
-- @param x an array or a Lua number
-- @tparam[opt=0] int decimals number of decimal places
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.round(ga.array({0.5, 1.5, 2.5})))      --> array([0., 2., 2.])
-- print(ga.round(ga.array({1.234, 5.678}), 1))    --> array([1.2, 5.7])
-- print(ga.round(ga.array({1234, 5678}), -2))     --> array([1200, 5700])
function F.round(x, decimals, opts)
  if opts == nil and type(decimals) == "table" and not is_array(decimals) then
    decimals, opts = nil, decimals
  end
  if decimals == nil then decimals = 0 end
  if math.type(decimals) ~= "integer" then
    local d = type(decimals) == "number" and math.tointeger(decimals)
    if not d then error("round: decimals must be an integer, got " .. tostring(decimals), 2) end
    decimals = d
  end
  -- NumPy rounds a bool array through float16
  if dtype_of(x) == "bool" then x = x:astype("float16") end
  return round_row(x, decimals, opts)
end

--- Round to `decimals` decimal places; the same function as `ga.round`.
-- @function ga.around
-- @param x an array or a Lua number
-- @tparam[opt=0] int decimals number of decimal places
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.around(ga.array({3.14159}), 2))   --> array([3.14])
F.around = F.round

--- Floating point.
-- Classification and decomposition of floats.  `isfinite`, `isinf` and
-- `isnan` take every dtype (integers are always finite); the others take
-- float dtypes (integer operands compute in float64).
-- @section floating

--- Element-wise test for finite values (not inf, not NaN).
-- @function ga.isfinite
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.isfinite(ga.array({1, math.huge, 0 / 0})))   --> array([ True, False, False])

--- Element-wise test for positive or negative infinity.
-- @function ga.isinf
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.isinf(ga.array({1, -math.huge})))   --> array([False,  True])

--- Element-wise test for NaN.
-- @function ga.isnan
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.isnan(ga.array({1, 0 / 0})))   --> array([False,  True])

--- Element-wise sign bit: true for negative values, `-0.0` included.
-- @function ga.signbit
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.signbit(ga.array({-0.0, 0.0, -2})))   --> array([ True, False,  True])

--- Element-wise magnitude of `a` with the sign of `b`.
-- @function ga.copysign
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.copysign(ga.array({1.5, -2.0}), -1.0))   --> array([-1.5, -2. ])

--- Element-wise next representable value after `a` toward `b`, in `a`'s
-- float dtype.
-- @function ga.nextafter
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local x = ga.nextafter(ga.array({1.0}), 2.0)
-- print(x:item() - 1 == 2^-52)        --> true

--- Element-wise distance from `x` to the next representable value away
-- from zero (NumPy's `spacing`: toward +inf for zeros; always toward +inf
-- for float16, as NumPy; NaN for infinities), in `x`'s float dtype.
-- @function ga.spacing
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local s = ga.spacing(ga.array({1.0, -1.0}))
-- print(s[1] == 2^-52, s[2] == -2^-52)   --> true true

--- Element-wise `x * 2^e` (`e` an integer array or Lua integer).
-- @function ga.ldexp
-- @param x an array or a Lua number
-- @param e an integer array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.ldexp(ga.array({1.5, 3.0}), 2))   --> array([ 6., 12.])

--- Decompose into mantissa and exponent: `x = m * 2^e` with `|m|` in
-- `[0.5, 1)` (and 0 for 0).
-- @function ga.frexp
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out={m, e}, dtype=, casting=}`
-- @treturn ndarray the mantissas (`x`'s float dtype)
-- @treturn ndarray the exponents (int32)
-- @usage
-- local m, e = ga.frexp(ga.array({1.0, 8.0}))
-- print(m, e)                         --> array([0.5, 0.5])  array([1, 4], dtype=int32)

--- Decompose into fractional and integral parts, both with the sign of `x`.
-- @function ga.modf
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out={frac, int}, dtype=, casting=}`
-- @treturn ndarray the fractional parts
-- @treturn ndarray the integral parts (as floats)
-- @usage
-- local frac, int = ga.modf(ga.array({2.5, -1.25}))
-- print(frac, int)                    --> array([ 0.5 , -0.25])  array([ 2., -1.])

--- Complex numbers.
-- Lua has no complex numbers: make a complex array from reals
-- (`ga.array({1, 2}, "complex64")`), with the imaginary unit
-- `ga.sqrt(ga.array(-1, "complex128"))`, or write into `z.imag`.
-- `x:item()` of a complex element returns two numbers, re and im.
-- @section complex

--- Element-wise complex conjugate (real arrays: a copy).  `ga.conj` and
-- `x:conj()` are the same.
-- @function ga.conjugate
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex128"))
-- print(ga.conjugate(ga.array({1, 2}) + j))   --> array([1.-1.j, 2.-1.j])

--- Element-wise complex conjugate; the same function as `ga.conjugate`.
-- @function ga.conj
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex64"))
-- print(ga.conj(2 * j))               --> array(0.-2.j, dtype=complex64)

--- The argument (phase) of complex values, `arctan2(imag, real)`, in
-- radians or, with `deg = true`, degrees.  Real arrays give 0 or pi.
-- @function ga.angle
-- @param x an array or a Lua number
-- @tparam[opt=false] boolean deg degrees instead of radians
-- @treturn ndarray a new array of the real dtype (complex64 gives float32)
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex128"))
-- print(ga.angle(ga.array({1, -1}) + j))         --> array([0.78539816, 2.35619449])
-- print(ga.angle(ga.array({1, -1}) + j, true))   --> array([ 45., 135.])
function F.angle(x, deg)
  if deg ~= nil and type(deg) ~= "boolean" then
    error("angle: deg must be a boolean, got " .. type(deg), 2)
  end
  -- NumPy computes arctan2(0, x) for a real x: bool gives float64
  if dtype_of(x) == "bool" then x = x:astype("float64") end
  local a = angle_row(x)
  if not deg then return a end
  U.rad2deg(a, { out = a })
  return a
end

--- The real part: for a complex array, a view of the real parts (float32
-- for complex64, float64 for complex128; no copy, writing into it changes
-- `x`); for a real array, `x` itself; for a Lua number, the number.  The
-- same as `x.real`.
-- @function ga.real
-- @param x an array or a Lua number
-- @return ndarray or number
-- @usage
-- local z = ga.array({1, 2}, "complex64")
-- print(ga.real(z))                   --> array([1., 2.], dtype=float32)
function F.real(x)
  if is_array(x) then return x.real end
  if type(x) == "number" then return x end
  error("real: bad argument #1 (ndarray or number expected, got " .. type(x) .. ")", 2)
end

--- The imaginary part: for a complex array, a view of the imaginary parts
-- (no copy, writing into it changes `x`); for a real array, a new array of
-- zeros of its dtype; for a Lua number, 0.  The same as `x.imag`.
-- @function ga.imag
-- @param x an array or a Lua number
-- @return ndarray or number
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex128"))
-- print(ga.imag(ga.array({1, 2}) + 3 * j))   --> array([3., 3.])
-- print(ga.imag(ga.arange(2)))               --> array([0, 0])
function F.imag(x)
  if is_array(x) then return x.imag end
  if type(x) == "number" then return math.type(x) == "integer" and 0 or 0.0 end
  error("imag: bad argument #1 (ndarray or number expected, got " .. type(x) .. ")", 2)
end

--- Element-wise test for a zero imaginary part (true for every real dtype).
-- @function ga.isreal
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex128"))
-- print(ga.isreal(ga.array({1, 2}) + ga.array({0, 1}) * j))   --> array([ True, False])

--- Element-wise test for a non-zero imaginary part (false for every real
-- dtype).
-- @function ga.iscomplex
-- @param x an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage
-- local j = ga.sqrt(ga.array(-1, "complex128"))
-- print(ga.iscomplex(ga.array({1, 2}) + ga.array({0, 1}) * j))   --> array([False,  True])

--- Comparison.
-- The results are bool arrays.  Lua's `<`, `<=`, `==` must give one
-- boolean, so element-wise comparisons are these functions and the methods
-- `a:lt(b) a:le(b) a:gt(b) a:ge(b) a:eq(b) a:ne(b)`; `a == b` is identity
-- and `a < b` an error.  Complex values order lexicographically (real
-- part, then imaginary part), as in NumPy.
-- @section comparison

--- Element-wise `a > b`.  The same as `a:gt(b)`.
-- @function ga.greater
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.greater(ga.arange(4), 1))   --> array([False, False,  True,  True])

--- Element-wise `a >= b`.  The same as `a:ge(b)`.
-- @function ga.greater_equal
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.greater_equal(ga.arange(4), 1))   --> array([False,  True,  True,  True])

--- Element-wise `a < b`.  The same as `a:lt(b)`.
-- @function ga.less
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.less(ga.arange(4), 2))   --> array([ True,  True, False, False])

--- Element-wise `a <= b`.  The same as `a:le(b)`.
-- @function ga.less_equal
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.less_equal(ga.arange(4), 2))   --> array([ True,  True,  True, False])

--- Element-wise `a == b` (NaN equals nothing).  The same as `a:eq(b)`.
-- @function ga.equal
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.equal(ga.array({1, 2, 0 / 0}), ga.array({1, 3, 0 / 0})))   --> array([ True, False, False])

--- Element-wise `a ~= b` (NaN differs from everything).  The same as
-- `a:ne(b)`.
-- @function ga.not_equal
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.not_equal(ga.arange(3), 1))   --> array([ True, False,  True])

--- Element-wise maximum; NaN wins (use `fmax` to ignore NaNs).
-- @function ga.maximum
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.maximum(ga.array({1, 5, 0 / 0}), 3))   --> array([ 3.,  5., nan])

--- Element-wise minimum; NaN wins (use `fmin` to ignore NaNs).
-- @function ga.minimum
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.minimum(ga.array({1, 5}), 3))   --> array([1, 3])

--- Element-wise maximum ignoring NaN (NaN only where both are NaN).
-- @function ga.fmax
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.fmax(ga.array({1, 5, 0 / 0}), 3))   --> array([3., 5., 3.])

--- Element-wise minimum ignoring NaN (NaN only where both are NaN).
-- @function ga.fmin
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.fmin(ga.array({1, 5, 0 / 0}), 3))   --> array([1., 3., 3.])

--- Logic.
-- Truth values of any dtype (non-zero is true, NaN too), each operand's
-- tested in its own dtype (`logical_or(float32_array, 1e-50)` is true,
-- `logical_and(int8_array, 300)` needs no int8 300); the results are bool
-- arrays.
-- @section logic

--- Element-wise `a and b` of truth values.
-- @function ga.logical_and
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.logical_and(ga.array({0, 1, 2}), ga.array({1, 1, 0})))   --> array([False,  True, False])

--- Element-wise `a or b` of truth values.
-- @function ga.logical_or
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.logical_or(ga.array({0, 0, 2}), ga.array({0, 1, 0})))   --> array([False,  True,  True])

--- Element-wise exclusive or of truth values.
-- @function ga.logical_xor
-- @param a an array or a Lua number
-- @param b an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.logical_xor(ga.array({true, true}), ga.array({true, false})))   --> array([False,  True])

--- Element-wise `not a` of truth values.
-- @function ga.logical_not
-- @param a an array or a Lua number
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a bool array, or `opts.out`
-- @usage print(ga.logical_not(ga.array({0, 3})))   --> array([ True, False])

--- Bitwise.
-- For bool and integer dtypes (a float operand is an error naming the
-- ufunc).  The operators `a & b`, `a | b`, `a ~ b` (xor), `~a`, `a << b`
-- and `a >> b` call these.
-- @section bitwise

--- Element-wise bitwise and `a & b`.
-- @function ga.bitwise_and
-- @param a an array or a Lua integer
-- @param b an array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.bitwise_and(ga.array({12, 10}), 6))   --> array([4, 2])

--- Element-wise bitwise or `a | b`.
-- @function ga.bitwise_or
-- @param a an array or a Lua integer
-- @param b an array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.bitwise_or(ga.array({12, 10}), 1))   --> array([13, 11])

--- Element-wise bitwise exclusive or (Lua's binary `a ~ b`).
-- @function ga.bitwise_xor
-- @param a an array or a Lua integer
-- @param b an array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.bitwise_xor(ga.array({12, 10}), 6))   --> array([10, 12])

--- Element-wise bitwise not `~a` (bool: logical not).  `ga.bitwise_not`
-- is the same function.
-- @function ga.invert
-- @param a an array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage
-- print(ga.invert(ga.array({0, 255}, "uint8")))   --> array([255,   0], dtype=uint8)
-- print(ga.invert(ga.array({true, false})))      --> array([False,  True])

--- Element-wise bitwise not; the same function as `ga.invert`.
-- @function ga.bitwise_not
-- @param a an array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.bitwise_not(ga.array({0, -1})))   --> array([-1,  0])

--- Element-wise shift of the bits of `a` left by `b` (`a << b`).
-- @function ga.left_shift
-- @param a an integer array or a Lua integer
-- @param b an integer array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.left_shift(1, ga.arange(4)))   --> array([1, 2, 4, 8])

--- Element-wise shift of the bits of `a` right by `b` (`a >> b`;
-- arithmetic for signed dtypes).
-- @function ga.right_shift
-- @param a an integer array or a Lua integer
-- @param b an integer array or a Lua integer
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray a new array, or `opts.out`
-- @usage print(ga.right_shift(ga.array({16, -16}), 2))   --> array([ 4, -4])

--- Type promotion.
-- The rules the ufuncs apply, as functions (NumPy 2's).
-- @section promotion

--- Whether a cast from `from` to `to` obeys the casting rule.
-- @function ga.can_cast
-- @tparam string|ndarray from a dtype name, or an array (its dtype; Lua
--   numbers are refused, as in NumPy 2)
-- @tparam string to a dtype name
-- @tparam[opt="safe"] string casting `"no"`, `"equiv"`, `"safe"`,
--   `"same_kind"` or `"unsafe"`
-- @treturn boolean
-- @usage
-- print(ga.can_cast("int8", "int16"), ga.can_cast("int64", "float32"))   --> true  false
-- print(ga.can_cast(ga.zeros(2), "float32", "same_kind"))               --> true

--- The dtype of the result of a ufunc on these operands (NumPy's
-- `result_type`): arrays and dtype names promote as `promote_types`; Lua
-- numbers and booleans are weak (NEP 50): they take the others' dtype when
-- its kind can hold them (an integer next to a bool array gives int64, a
-- float next to an integer array float64), and their default dtype (int64,
-- float64, bool) when there is nothing else.
-- @function ga.result_type
-- @param ... arrays, dtype names, Lua numbers or booleans (at least one)
-- @treturn string a dtype name
-- @usage
-- print(ga.result_type(ga.zeros(2, "int8"), 1))        --> int8
-- print(ga.result_type("int8", "uint8", 2.5))          --> float64
-- print(ga.result_type(ga.zeros(2, "float16"), 2.5))   --> float16

--- The smallest dtype both dtypes cast to safely (NumPy's
-- `promote_types`).
-- @function ga.promote_types
-- @tparam string a a dtype name
-- @tparam string b a dtype name
-- @treturn string a dtype name
-- @usage
-- print(ga.promote_types("int8", "uint8"))     --> int16
-- print(ga.promote_types("int64", "uint64"))   --> float64
F.can_cast, F.result_type, F.promote_types = core.can_cast, core.result_type, core.promote_types

--- ndarray methods.
-- @section methods

--- A copy of the array with another dtype (NumPy's results: float to
-- integer truncates toward zero, anything to bool is `x ~= 0`, complex to
-- real drops the imaginary part; a float out of the integer's range
-- saturates and NaN gives 0, as on the GPU), on the array's device, in
-- the memory order asked for (gpuarray.construct: default `"K"`, so an
-- F-contiguous array stays F-contiguous and any other gives C order).
-- @function ndarray:astype
-- @tparam string|table dtype a dtype name, or `{dtype=, order=, casting=, copy=}`
-- @tparam[opt] table opts `{order="K", casting="unsafe", copy=true}`: the
--   order (`"C" "F" "A" "K"`), the casting rule the conversion must obey;
--   with `copy = false`, the array itself when it already has that dtype
--   (and order)
-- @treturn ndarray
-- @usage
-- local x = ga.array({-1.7, 0.5, 2.9})
-- print(x:astype("int32"))            --> array([-1,  0,  2], dtype=int32)
-- print(x:astype("bool"))             --> array([ True,  True,  True])
-- print(rawequal(x:astype("float64", {copy = false}), x))   --> true
-- print(ga.arange(6):reshape({2, 3}):astype("float32", {order = "F"}).flags.f_contiguous)   --> true
-- print(pcall(x.astype, x, "int8", {casting = "safe"}))
-- --> false  astype: Cannot cast array data from dtype('float64') to dtype('int8') according to the rule 'safe'

--- The values limited to `[lo, hi]` (either may be `nil`); the same as
-- `ga.clip(x, lo, hi, opts)`.
-- @function ndarray:clip
-- @param lo the lower bound: an array, a Lua number or `nil`
-- @param hi the upper bound: an array, a Lua number or `nil`
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray
-- @usage print(ga.arange(5):clip(1, 3))   --> array([1, 1, 2, 3, 3])
M.clip = F.clip

--- Round to `decimals` decimal places, halves to even; the same as
-- `ga.round(x, decimals, opts)`.
-- @function ndarray:round
-- @tparam[opt=0] int decimals
-- @tparam[opt] table opts `{out=, dtype=, casting=}`
-- @treturn ndarray
-- @usage print(ga.array({1.25, 1.35}):round(1))   --> array([1.2, 1.4])
M.round = F.round

--- The complex conjugate; the same as `ga.conjugate(x)`.
-- @function ndarray:conj
-- @treturn ndarray
-- @usage
-- local z = ga.array({1, 2}, "complex64") * ga.sqrt(ga.array(-1, "complex64"))
-- print(z:conj())                     --> array([0.-1.j, 0.-2.j], dtype=complex64)

--- The complex conjugate; the same as `x:conj()` and `ga.conjugate(x)`.
-- @function ndarray:conjugate
-- @treturn ndarray
-- @usage print(ga.arange(2):conjugate())   --> array([0, 1])

--- Element-wise `x < b`, a bool array (`ga.less`).
-- @function ndarray:lt
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):lt(1))    --> array([ True, False, False])

--- Element-wise `x <= b`, a bool array (`ga.less_equal`).
-- @function ndarray:le
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):le(1))    --> array([ True,  True, False])

--- Element-wise `x > b`, a bool array (`ga.greater`).
-- @function ndarray:gt
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):gt(1))    --> array([False, False,  True])

--- Element-wise `x >= b`, a bool array (`ga.greater_equal`).
-- @function ndarray:ge
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):ge(1))    --> array([False,  True,  True])

--- Element-wise `x == b`, a bool array (`ga.equal`; `x == b` itself
-- compares identity).
-- @function ndarray:eq
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):eq(ga.array({0, 0, 2})))   --> array([ True, False,  True])

--- Element-wise `x ~= b`, a bool array (`ga.not_equal`).
-- @function ndarray:ne
-- @param b an array or a Lua number
-- @treturn ndarray
-- @usage print(ga.arange(3):ne(1))    --> array([ True, False,  True])

--- The real part: for a complex array a view (float32 for complex64,
-- float64 for complex128; same strides, no copy: writing into it changes
-- the array), for a real array the array itself.
-- @field ndarray.real
-- @usage
-- local z = ga.zeros(2, "complex128")
-- ga.add(z.real, 1.5, {out = z.real})  -- writes the real parts of z
-- print(z)                            --> array([1.5+0.j, 1.5+0.j])

--- The imaginary part: for a complex array a view (no copy: writing into
-- it changes the array), for a real array a new array of zeros.
-- @field ndarray.imag
-- @usage
-- local z = ga.zeros(2, "complex64")
-- ga.add(z.imag, ga.array({1, 2}, "float32"), {out = z.imag})
-- print(z)                            --> array([0.+1.j, 0.+2.j], dtype=complex64)
-- print(ga.arange(2).imag)            --> array([0, 0])

-- ga.host's ufuncs: nested-table operands become host arrays, and when no
-- operand is an array the first Lua number does too (the shared functions
-- would make them on the current device: ga.host.subtract(1, 0.5) gave a
-- GPU array).  The dtype rules (result_type, can_cast, promote_types) take
-- no data and are shared as they are.
local H = {}
local host_asarray = core.host.asarray
local function data_table(v) return type(v) == "table" and not is_array(v) and v[1] ~= nil end
local NO_DATA = { result_type = true, can_cast = true, promote_types = true }
local wrapped = {}   -- one wrapper per function: an alias stays the same function
for name, f in pairs(F) do
  if NO_DATA[name] then
    H[name] = f
  elseif wrapped[f] then
    H[name] = wrapped[f]
  else
    H[name] = function(...)
      local n = select("#", ...)
      local any, tables = false, false
      for i = 1, n do
        local v = (select(i, ...))
        if is_array(v) then any = true elseif data_table(v) then tables = true end
      end
      if any and not tables then return f(...) end
      local args = table.pack(...)
      for i = 1, n do
        local v = args[i]
        if data_table(v) then
          args[i], any = host_asarray(v), true
        end
      end
      if not any then
        for i = 1, n do
          local t = type(args[i])
          if t == "number" or t == "boolean" then
            args[i] = host_asarray(args[i])
            break
          end
        end
      end
      return f(table.unpack(args, 1, n))
    end
    wrapped[f] = H[name]
  end
end

return { ga = F, host = H }
