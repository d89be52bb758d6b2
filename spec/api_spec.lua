-- The Lua-facing API of the ufuncs (lua/gpuarray/ufuncs.lua, the operators
-- of src/binding/lga_array.c, src/binding/lga_dtype.c): operators against the ufuncs they
-- call, aliases, round/angle/clip, real/imag views, x:astype between every
-- pair of dtypes, comparison and other methods, can_cast / result_type /
-- promote_types against NumPy, and bad inputs.  Runs on the host, and on
-- the GPU when there is one (GPU results are also compared with the host's).
--
-- The tables ASTYPE, CAN_CAST, PROMOTE and RESULT_TYPE below were computed
-- with NumPy 2.4 (x.astype(to), np.can_cast, np.promote_types,
-- np.result_type on the same values).  Where NumPy's cast is undefined --
-- a float or complex out of an integer's range, or NaN, to an integer --
-- the expected value follows gpuarray's rule (CuPy's on the GPU): truncate,
-- saturate to the target's range, NaN -> 0.
local helper = require "spec.helper"
local ga = helper.ga
local U = ga.core.ufuncs

local NAN, INF, MININT = 0 / 0, math.huge, math.mininteger
local DTYPES = helper.DTYPES   -- the order of the data tables' columns

-- NumPy 2.4.6: x:astype(to) for the source values of every dtype (float/complex to integer
-- out of range or NaN: the saturating rule, NaN -> 0; NumPy's own result is platform-dependent there).
local ASTYPE = {
  bool = {
    src = {false, true},
    bool = {false, true},
    int8 = {0, 1},
    int16 = {0, 1},
    int32 = {0, 1},
    int64 = {0, 1},
    uint8 = {0, 1},
    uint16 = {0, 1},
    uint32 = {0, 1},
    uint64 = {0, 1},
    float16 = {0.0, 1.0},
    float32 = {0.0, 1.0},
    float64 = {0.0, 1.0},
    complex64 = {{0.0, 0.0}, {1.0, 0.0}},
    complex128 = {{0.0, 0.0}, {1.0, 0.0}},
  },
  int8 = {
    src = {0, 1, -1, 127, -128, 100},
    bool = {false, true, true, true, true, true},
    int8 = {0, 1, -1, 127, -128, 100},
    int16 = {0, 1, -1, 127, -128, 100},
    int32 = {0, 1, -1, 127, -128, 100},
    int64 = {0, 1, -1, 127, -128, 100},
    uint8 = {0, 1, 255, 127, 128, 100},
    uint16 = {0, 1, 65535, 127, 65408, 100},
    uint32 = {0, 1, 4294967295, 127, 4294967168, 100},
    uint64 = {0, 1, 1.8446744073709552e+19, 127, 1.8446744073709552e+19, 100},
    float16 = {0.0, 1.0, -1.0, 127.0, -128.0, 100.0},
    float32 = {0.0, 1.0, -1.0, 127.0, -128.0, 100.0},
    float64 = {0.0, 1.0, -1.0, 127.0, -128.0, 100.0},
    complex64 = {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {127.0, 0.0}, {-128.0, 0.0}, {100.0, 0.0}},
    complex128 = {{0.0, 0.0}, {1.0, 0.0}, {-1.0, 0.0}, {127.0, 0.0}, {-128.0, 0.0}, {100.0, 0.0}},
  },
  int16 = {
    src = {0, -1, 32767, -32768, 300, -300},
    bool = {false, true, true, true, true, true},
    int8 = {0, -1, -1, 0, 44, -44},
    int16 = {0, -1, 32767, -32768, 300, -300},
    int32 = {0, -1, 32767, -32768, 300, -300},
    int64 = {0, -1, 32767, -32768, 300, -300},
    uint8 = {0, 255, 255, 0, 44, 212},
    uint16 = {0, 65535, 32767, 32768, 300, 65236},
    uint32 = {0, 4294967295, 32767, 4294934528, 300, 4294966996},
    uint64 = {0, 1.8446744073709552e+19, 32767, 1.8446744073709519e+19, 300, 1.8446744073709552e+19},
    float16 = {0.0, -1.0, 32768.0, -32768.0, 300.0, -300.0},
    float32 = {0.0, -1.0, 32767.0, -32768.0, 300.0, -300.0},
    float64 = {0.0, -1.0, 32767.0, -32768.0, 300.0, -300.0},
    complex64 = {{0.0, 0.0}, {-1.0, 0.0}, {32767.0, 0.0}, {-32768.0, 0.0}, {300.0, 0.0}, {-300.0, 0.0}},
    complex128 = {{0.0, 0.0}, {-1.0, 0.0}, {32767.0, 0.0}, {-32768.0, 0.0}, {300.0, 0.0}, {-300.0, 0.0}},
  },
  int32 = {
    src = {0, -1, 2147483647, -2147483648, 70000, -70000, 16777217},
    bool = {false, true, true, true, true, true, true},
    int8 = {0, -1, -1, 0, 112, -112, 1},
    int16 = {0, -1, -1, 0, 4464, -4464, 1},
    int32 = {0, -1, 2147483647, -2147483648, 70000, -70000, 16777217},
    int64 = {0, -1, 2147483647, -2147483648, 70000, -70000, 16777217},
    uint8 = {0, 255, 255, 0, 112, 144, 1},
    uint16 = {0, 65535, 65535, 0, 4464, 61072, 1},
    uint32 = {0, 4294967295, 2147483647, 2147483648, 70000, 4294897296, 16777217},
    uint64 = {0, 1.8446744073709552e+19, 2147483647, 1.8446744071562068e+19, 70000, 1.8446744073709482e+19, 16777217},
    float16 = {0.0, -1.0, INF, -INF, INF, -INF, INF},
    float32 = {0.0, -1.0, 2147483648.0, -2147483648.0, 70000.0, -70000.0, 16777216.0},
    float64 = {0.0, -1.0, 2147483647.0, -2147483648.0, 70000.0, -70000.0, 16777217.0},
    complex64 = {{0.0, 0.0}, {-1.0, 0.0}, {2147483648.0, 0.0}, {-2147483648.0, 0.0}, {70000.0, 0.0}, {-70000.0, 0.0},
      {16777216.0, 0.0}},
    complex128 = {{0.0, 0.0}, {-1.0, 0.0}, {2147483647.0, 0.0}, {-2147483648.0, 0.0}, {70000.0, 0.0}, {-70000.0, 0.0},
      {16777217.0, 0.0}},
  },
  int64 = {
    src = {0, -1, 9223372036854775807, MININT, 9007199254740993, -300, 1000000000000},
    bool = {false, true, true, true, true, true, true},
    int8 = {0, -1, -1, 0, 1, -44, 0},
    int16 = {0, -1, -1, 0, 1, -300, 4096},
    int32 = {0, -1, -1, 0, 1, -300, -727379968},
    int64 = {0, -1, 9223372036854775807, MININT, 9007199254740993, -300, 1000000000000},
    uint8 = {0, 255, 255, 0, 1, 212, 0},
    uint16 = {0, 65535, 65535, 0, 1, 65236, 4096},
    uint32 = {0, 4294967295, 4294967295, 0, 1, 4294966996, 3567587328},
    uint64 = {0, 1.8446744073709552e+19, 9223372036854775807, 9.2233720368547758e+18, 9007199254740993,
      1.8446744073709552e+19, 1000000000000},
    float16 = {0.0, -1.0, INF, -INF, INF, -300.0, INF},
    float32 = {0.0, -1.0, 9.223372036854776e+18, -9.223372036854776e+18, 9007199254740992.0, -300.0, 999999995904.0},
    float64 = {0.0, -1.0, 9.223372036854776e+18, -9.223372036854776e+18, 9007199254740992.0, -300.0, 1000000000000.0},
    complex64 = {{0.0, 0.0}, {-1.0, 0.0}, {9.223372036854776e+18, 0.0}, {-9.223372036854776e+18, 0.0},
      {9007199254740992.0, 0.0}, {-300.0, 0.0}, {999999995904.0, 0.0}},
    complex128 = {{0.0, 0.0}, {-1.0, 0.0}, {9.223372036854776e+18, 0.0}, {-9.223372036854776e+18, 0.0},
      {9007199254740992.0, 0.0}, {-300.0, 0.0}, {1000000000000.0, 0.0}},
  },
  uint8 = {
    src = {0, 1, 255, 128},
    bool = {false, true, true, true},
    int8 = {0, 1, -1, -128},
    int16 = {0, 1, 255, 128},
    int32 = {0, 1, 255, 128},
    int64 = {0, 1, 255, 128},
    uint8 = {0, 1, 255, 128},
    uint16 = {0, 1, 255, 128},
    uint32 = {0, 1, 255, 128},
    uint64 = {0, 1, 255, 128},
    float16 = {0.0, 1.0, 255.0, 128.0},
    float32 = {0.0, 1.0, 255.0, 128.0},
    float64 = {0.0, 1.0, 255.0, 128.0},
    complex64 = {{0.0, 0.0}, {1.0, 0.0}, {255.0, 0.0}, {128.0, 0.0}},
    complex128 = {{0.0, 0.0}, {1.0, 0.0}, {255.0, 0.0}, {128.0, 0.0}},
  },
  uint16 = {
    src = {0, 65535, 300, 40000},
    bool = {false, true, true, true},
    int8 = {0, -1, 44, 64},
    int16 = {0, -1, 300, -25536},
    int32 = {0, 65535, 300, 40000},
    int64 = {0, 65535, 300, 40000},
    uint8 = {0, 255, 44, 64},
    uint16 = {0, 65535, 300, 40000},
    uint32 = {0, 65535, 300, 40000},
    uint64 = {0, 65535, 300, 40000},
    float16 = {0.0, INF, 300.0, 40000.0},
    float32 = {0.0, 65535.0, 300.0, 40000.0},
    float64 = {0.0, 65535.0, 300.0, 40000.0},
    complex64 = {{0.0, 0.0}, {65535.0, 0.0}, {300.0, 0.0}, {40000.0, 0.0}},
    complex128 = {{0.0, 0.0}, {65535.0, 0.0}, {300.0, 0.0}, {40000.0, 0.0}},
  },
  uint32 = {
    src = {0, 4294967295, 70000, 3000000000},
    bool = {false, true, true, true},
    int8 = {0, -1, 112, 0},
    int16 = {0, -1, 4464, 24064},
    int32 = {0, -1, 70000, -1294967296},
    int64 = {0, 4294967295, 70000, 3000000000},
    uint8 = {0, 255, 112, 0},
    uint16 = {0, 65535, 4464, 24064},
    uint32 = {0, 4294967295, 70000, 3000000000},
    uint64 = {0, 4294967295, 70000, 3000000000},
    float16 = {0.0, INF, INF, INF},
    float32 = {0.0, 4294967296.0, 70000.0, 3000000000.0},
    float64 = {0.0, 4294967295.0, 70000.0, 3000000000.0},
    complex64 = {{0.0, 0.0}, {4294967296.0, 0.0}, {70000.0, 0.0}, {3000000000.0, 0.0}},
    complex128 = {{0.0, 0.0}, {4294967295.0, 0.0}, {70000.0, 0.0}, {3000000000.0, 0.0}},
  },
  uint64 = {
    src = {0, -1, MININT, 70000, 9007199254740993},
    bool = {false, true, true, true, true},
    int8 = {0, -1, 0, 112, 1},
    int16 = {0, -1, 0, 4464, 1},
    int32 = {0, -1, 0, 70000, 1},
    int64 = {0, -1, MININT, 70000, 9007199254740993},
    uint8 = {0, 255, 0, 112, 1},
    uint16 = {0, 65535, 0, 4464, 1},
    uint32 = {0, 4294967295, 0, 70000, 1},
    uint64 = {0, 1.8446744073709552e+19, 9.2233720368547758e+18, 70000, 9007199254740993},
    float16 = {0.0, INF, INF, INF, INF},
    float32 = {0.0, 1.8446744073709552e+19, 9.223372036854776e+18, 70000.0, 9007199254740992.0},
    float64 = {0.0, 1.8446744073709552e+19, 9.223372036854776e+18, 70000.0, 9007199254740992.0},
    complex64 = {{0.0, 0.0}, {1.8446744073709552e+19, 0.0}, {9.223372036854776e+18, 0.0}, {70000.0, 0.0},
      {9007199254740992.0, 0.0}},
    complex128 = {{0.0, 0.0}, {1.8446744073709552e+19, 0.0}, {9.223372036854776e+18, 0.0}, {70000.0, 0.0},
      {9007199254740992.0, 0.0}},
  },
  float16 = {
    src = {0.0, -0.0, 1.5, -1.5, 2.9, -2.5, 127.9, 255.9, 300.0, -300.0, 65504.0, -65504.0, NAN, INF, -INF},
    bool = {false, false, true, true, true, true, true, true, true, true, true, true, true, true, true},
    int8 = {0, 0, 1, -1, 2, -2, 127, 127, 127, -128, 127, -128, 0, 127, -128},
    int16 = {0, 0, 1, -1, 2, -2, 127, 255, 300, -300, 32767, -32768, 0, 32767, -32768},
    int32 = {0, 0, 1, -1, 2, -2, 127, 255, 300, -300, 65504, -65504, 0, 2147483647, -2147483648},
    int64 = {0, 0, 1, -1, 2, -2, 127, 255, 300, -300, 65504, -65504, 0, 9223372036854775807, MININT},
    uint8 = {0, 0, 1, 0, 2, 0, 127, 255, 255, 0, 255, 0, 0, 255, 0},
    uint16 = {0, 0, 1, 0, 2, 0, 127, 255, 300, 0, 65504, 0, 0, 65535, 0},
    uint32 = {0, 0, 1, 0, 2, 0, 127, 255, 300, 0, 65504, 0, 0, 4294967295, 0},
    uint64 = {0, 0, 1, 0, 2, 0, 127, 255, 300, 0, 65504, 0, 0, 1.8446744073709552e+19, 0},
    float16 = {0.0, -0.0, 1.5, -1.5, 2.900390625, -2.5, 127.875, 255.875, 300.0, -300.0, 65504.0, -65504.0, NAN, INF,
      -INF},
    float32 = {0.0, -0.0, 1.5, -1.5, 2.900390625, -2.5, 127.875, 255.875, 300.0, -300.0, 65504.0, -65504.0, NAN, INF,
      -INF},
    float64 = {0.0, -0.0, 1.5, -1.5, 2.900390625, -2.5, 127.875, 255.875, 300.0, -300.0, 65504.0, -65504.0, NAN, INF,
      -INF},
    complex64 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-1.5, 0.0}, {2.900390625, 0.0}, {-2.5, 0.0}, {127.875, 0.0},
      {255.875, 0.0}, {300.0, 0.0}, {-300.0, 0.0}, {65504.0, 0.0}, {-65504.0, 0.0}, {NAN, 0.0}, {INF, 0.0}, {-INF,
      0.0}},
    complex128 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-1.5, 0.0}, {2.900390625, 0.0}, {-2.5, 0.0}, {127.875, 0.0},
      {255.875, 0.0}, {300.0, 0.0}, {-300.0, 0.0}, {65504.0, 0.0}, {-65504.0, 0.0}, {NAN, 0.0}, {INF, 0.0}, {-INF,
      0.0}},
  },
  float32 = {
    src = {0.0, -0.0, 1.5, -2.7, 127.5, 128.5, -128.9, 255.5, 256.0, -1.0, 40000.0, 70000.5, 3000000000.0,
      -3000000000.0, 1e+20, -1e+20, 3.4e+38, 1e-40, NAN, INF, -INF},
    bool = {false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
      true, true, true, true},
    int8 = {0, 0, 1, -2, 127, 127, -128, 127, 127, -1, 127, 127, 127, -128, 127, -128, 127, 0, 0, 127, -128},
    int16 = {0, 0, 1, -2, 127, 128, -128, 255, 256, -1, 32767, 32767, 32767, -32768, 32767, -32768, 32767, 0, 0,
      32767, -32768},
    int32 = {0, 0, 1, -2, 127, 128, -128, 255, 256, -1, 40000, 70000, 2147483647, -2147483648, 2147483647,
      -2147483648, 2147483647, 0, 0, 2147483647, -2147483648},
    int64 = {0, 0, 1, -2, 127, 128, -128, 255, 256, -1, 40000, 70000, 3000000000, -3000000000, 9223372036854775807,
      MININT, 9223372036854775807, 0, 0, 9223372036854775807, MININT},
    uint8 = {0, 0, 1, 0, 127, 128, 0, 255, 255, 0, 255, 255, 255, 0, 255, 0, 255, 0, 0, 255, 0},
    uint16 = {0, 0, 1, 0, 127, 128, 0, 255, 256, 0, 40000, 65535, 65535, 0, 65535, 0, 65535, 0, 0, 65535, 0},
    uint32 = {0, 0, 1, 0, 127, 128, 0, 255, 256, 0, 40000, 70000, 3000000000, 0, 4294967295, 0, 4294967295, 0, 0,
      4294967295, 0},
    uint64 = {0, 0, 1, 0, 127, 128, 0, 255, 256, 0, 40000, 70000, 3000000000, 0, 1.8446744073709552e+19, 0,
      1.8446744073709552e+19, 0, 0, 1.8446744073709552e+19, 0},
    float16 = {0.0, -0.0, 1.5, -2.69921875, 127.5, 128.5, -128.875, 255.5, 256.0, -1.0, 40000.0, INF, INF, -INF, INF,
      -INF, INF, 0.0, NAN, INF, -INF},
    float32 = {0.0, -0.0, 1.5, -2.700000047683716, 127.5, 128.5, -128.89999389648438, 255.5, 256.0, -1.0, 40000.0,
      70000.5, 3000000000.0, -3000000000.0, 1.0000000200408773e+20, -1.0000000200408773e+20, 3.3999999521443642e+38,
      9.99994610111476e-41, NAN, INF, -INF},
    float64 = {0.0, -0.0, 1.5, -2.700000047683716, 127.5, 128.5, -128.89999389648438, 255.5, 256.0, -1.0, 40000.0,
      70000.5, 3000000000.0, -3000000000.0, 1.0000000200408773e+20, -1.0000000200408773e+20, 3.3999999521443642e+38,
      9.99994610111476e-41, NAN, INF, -INF},
    complex64 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-2.700000047683716, 0.0}, {127.5, 0.0}, {128.5, 0.0},
      {-128.89999389648438, 0.0}, {255.5, 0.0}, {256.0, 0.0}, {-1.0, 0.0}, {40000.0, 0.0}, {70000.5, 0.0},
      {3000000000.0, 0.0}, {-3000000000.0, 0.0}, {1.0000000200408773e+20, 0.0}, {-1.0000000200408773e+20, 0.0},
      {3.3999999521443642e+38, 0.0}, {9.99994610111476e-41, 0.0}, {NAN, 0.0}, {INF, 0.0}, {-INF, 0.0}},
    complex128 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-2.700000047683716, 0.0}, {127.5, 0.0}, {128.5, 0.0},
      {-128.89999389648438, 0.0}, {255.5, 0.0}, {256.0, 0.0}, {-1.0, 0.0}, {40000.0, 0.0}, {70000.5, 0.0},
      {3000000000.0, 0.0}, {-3000000000.0, 0.0}, {1.0000000200408773e+20, 0.0}, {-1.0000000200408773e+20, 0.0},
      {3.3999999521443642e+38, 0.0}, {9.99994610111476e-41, 0.0}, {NAN, 0.0}, {INF, 0.0}, {-INF, 0.0}},
  },
  float64 = {
    src = {0.0, -0.0, 1.5, -2.7, 127.5, -128.9, 255.5, 256.0, -1.0, 40000.0, 70000.5, 3000000000.0, -3000000000.0,
      1e+19, -1e+19, 9.3e+18, 9.223372036854776e+18, 1.8446744073709552e+19, 1e+300, 1e-310, 65520.0, NAN, INF, -INF},
    bool = {false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true,
      true, true, true, true, true, true, true},
    int8 = {0, 0, 1, -2, 127, -128, 127, 127, -1, 127, 127, 127, -128, 127, -128, 127, 127, 127, 127, 0, 127, 0, 127,
      -128},
    int16 = {0, 0, 1, -2, 127, -128, 255, 256, -1, 32767, 32767, 32767, -32768, 32767, -32768, 32767, 32767, 32767,
      32767, 0, 32767, 0, 32767, -32768},
    int32 = {0, 0, 1, -2, 127, -128, 255, 256, -1, 40000, 70000, 2147483647, -2147483648, 2147483647, -2147483648,
      2147483647, 2147483647, 2147483647, 2147483647, 0, 65520, 0, 2147483647, -2147483648},
    int64 = {0, 0, 1, -2, 127, -128, 255, 256, -1, 40000, 70000, 3000000000, -3000000000, 9223372036854775807, MININT,
      9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 0, 65520, 0,
      9223372036854775807, MININT},
    uint8 = {0, 0, 1, 0, 127, 0, 255, 255, 0, 255, 255, 255, 0, 255, 0, 255, 255, 255, 255, 0, 255, 0, 255, 0},
    uint16 = {0, 0, 1, 0, 127, 0, 255, 256, 0, 40000, 65535, 65535, 0, 65535, 0, 65535, 65535, 65535, 65535, 0, 65520,
      0, 65535, 0},
    uint32 = {0, 0, 1, 0, 127, 0, 255, 256, 0, 40000, 70000, 3000000000, 0, 4294967295, 0, 4294967295, 4294967295,
      4294967295, 4294967295, 0, 65520, 0, 4294967295, 0},
    uint64 = {0, 0, 1, 0, 127, 0, 255, 256, 0, 40000, 70000, 3000000000, 0, 1e+19, 0, 9.3e+18, 9.2233720368547758e+18,
      1.8446744073709552e+19, 1.8446744073709552e+19, 0, 65520, 0, 1.8446744073709552e+19, 0},
    float16 = {0.0, -0.0, 1.5, -2.69921875, 127.5, -128.875, 255.5, 256.0, -1.0, 40000.0, INF, INF, -INF, INF, -INF,
      INF, INF, INF, INF, 0.0, INF, NAN, INF, -INF},
    float32 = {0.0, -0.0, 1.5, -2.700000047683716, 127.5, -128.89999389648438, 255.5, 256.0, -1.0, 40000.0, 70000.5,
      3000000000.0, -3000000000.0, 9.999999980506448e+18, -9.999999980506448e+18, 9.300000300729369e+18,
      9.223372036854776e+18, 1.8446744073709552e+19, INF, 0.0, 65520.0, NAN, INF, -INF},
    float64 = {0.0, -0.0, 1.5, -2.7, 127.5, -128.9, 255.5, 256.0, -1.0, 40000.0, 70000.5, 3000000000.0, -3000000000.0,
      1e+19, -1e+19, 9.3e+18, 9.223372036854776e+18, 1.8446744073709552e+19, 1e+300, 1e-310, 65520.0, NAN, INF, -INF},
    complex64 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-2.700000047683716, 0.0}, {127.5, 0.0}, {-128.89999389648438,
      0.0}, {255.5, 0.0}, {256.0, 0.0}, {-1.0, 0.0}, {40000.0, 0.0}, {70000.5, 0.0}, {3000000000.0, 0.0},
      {-3000000000.0, 0.0}, {9.999999980506448e+18, 0.0}, {-9.999999980506448e+18, 0.0}, {9.300000300729369e+18, 0.0},
      {9.223372036854776e+18, 0.0}, {1.8446744073709552e+19, 0.0}, {INF, 0.0}, {0.0, 0.0}, {65520.0, 0.0}, {NAN, 0.0},
      {INF, 0.0}, {-INF, 0.0}},
    complex128 = {{0.0, 0.0}, {-0.0, 0.0}, {1.5, 0.0}, {-2.7, 0.0}, {127.5, 0.0}, {-128.9, 0.0}, {255.5, 0.0}, {256.0,
      0.0}, {-1.0, 0.0}, {40000.0, 0.0}, {70000.5, 0.0}, {3000000000.0, 0.0}, {-3000000000.0, 0.0}, {1e+19, 0.0},
      {-1e+19, 0.0}, {9.3e+18, 0.0}, {9.223372036854776e+18, 0.0}, {1.8446744073709552e+19, 0.0}, {1e+300, 0.0},
      {1e-310, 0.0}, {65520.0, 0.0}, {NAN, 0.0}, {INF, 0.0}, {-INF, 0.0}},
  },
  complex64 = {
    src = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0}, {INF,
      -INF}},
    bool = {true, true, false, true, true, true, true, true},
    int8 = {1, 0, 0, 0, 0, 127, -128, 127},
    int16 = {1, 0, 0, 0, 0, 300, -32768, 32767},
    int32 = {1, 0, 0, 0, 0, 300, -2147483648, 2147483647},
    int64 = {1, 0, 0, 0, 0, 300, -10000000000, 9223372036854775807},
    uint8 = {1, 0, 0, 0, 0, 255, 0, 255},
    uint16 = {1, 0, 0, 0, 0, 300, 0, 65535},
    uint32 = {1, 0, 0, 0, 0, 300, 0, 4294967295},
    uint64 = {1, 0, 0, 0, 0, 300, 0, 1.8446744073709552e+19},
    float16 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -INF, INF},
    float32 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -10000000000.0, INF},
    float64 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -10000000000.0, INF},
    complex64 = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0},
      {INF, -INF}},
    complex128 = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0},
      {INF, -INF}},
  },
  complex128 = {
    src = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0}, {1e+300,
      1.0}, {INF, -INF}},
    bool = {true, true, false, true, true, true, true, true, true},
    int8 = {1, 0, 0, 0, 0, 127, -128, 127, 127},
    int16 = {1, 0, 0, 0, 0, 300, -32768, 32767, 32767},
    int32 = {1, 0, 0, 0, 0, 300, -2147483648, 2147483647, 2147483647},
    int64 = {1, 0, 0, 0, 0, 300, -10000000000, 9223372036854775807, 9223372036854775807},
    uint8 = {1, 0, 0, 0, 0, 255, 0, 255, 255},
    uint16 = {1, 0, 0, 0, 0, 300, 0, 65535, 65535},
    uint32 = {1, 0, 0, 0, 0, 300, 0, 4294967295, 4294967295},
    uint64 = {1, 0, 0, 0, 0, 300, 0, 1.8446744073709552e+19, 1.8446744073709552e+19},
    float16 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -INF, INF, INF},
    float32 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -10000000000.0, INF, INF},
    float64 = {1.5, 0.0, 0.0, NAN, 0.0, 300.0, -10000000000.0, 1e+300, INF},
    complex64 = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0},
      {INF, 1.0}, {INF, -INF}},
    complex128 = {{1.5, -2.5}, {0.0, 1.0}, {0.0, 0.0}, {NAN, 0.0}, {0.0, NAN}, {300.0, 7.0}, {-10000000000.0, 0.0},
      {1e+300, 1.0}, {INF, -INF}},
  },
}
-- NumPy: can_cast(from, to, rule) as one character per `to` in DTYPES order.
local CAN_CAST = {
  no = {
    bool = "10000000000000",
    int8 = "01000000000000",
    int16 = "00100000000000",
    int32 = "00010000000000",
    int64 = "00001000000000",
    uint8 = "00000100000000",
    uint16 = "00000010000000",
    uint32 = "00000001000000",
    uint64 = "00000000100000",
    float16 = "00000000010000",
    float32 = "00000000001000",
    float64 = "00000000000100",
    complex64 = "00000000000010",
    complex128 = "00000000000001",
  },
  equiv = {
    bool = "10000000000000",
    int8 = "01000000000000",
    int16 = "00100000000000",
    int32 = "00010000000000",
    int64 = "00001000000000",
    uint8 = "00000100000000",
    uint16 = "00000010000000",
    uint32 = "00000001000000",
    uint64 = "00000000100000",
    float16 = "00000000010000",
    float32 = "00000000001000",
    float64 = "00000000000100",
    complex64 = "00000000000010",
    complex128 = "00000000000001",
  },
  safe = {
    bool = "11111111111111",
    int8 = "01111000011111",
    int16 = "00111000001111",
    int32 = "00011000000101",
    int64 = "00001000000101",
    uint8 = "00111111111111",
    uint16 = "00011011101111",
    uint32 = "00001001100101",
    uint64 = "00000000100101",
    float16 = "00000000011111",
    float32 = "00000000001111",
    float64 = "00000000000101",
    complex64 = "00000000000011",
    complex128 = "00000000000001",
  },
  same_kind = {
    bool = "11111111111111",
    int8 = "01111000011111",
    int16 = "01111000011111",
    int32 = "01111000011111",
    int64 = "01111000011111",
    uint8 = "01111111111111",
    uint16 = "01111111111111",
    uint32 = "01111111111111",
    uint64 = "01111111111111",
    float16 = "00000000011111",
    float32 = "00000000011111",
    float64 = "00000000011111",
    complex64 = "00000000000011",
    complex128 = "00000000000011",
  },
  unsafe = {
    bool = "11111111111111",
    int8 = "11111111111111",
    int16 = "11111111111111",
    int32 = "11111111111111",
    int64 = "11111111111111",
    uint8 = "11111111111111",
    uint16 = "11111111111111",
    uint32 = "11111111111111",
    uint64 = "11111111111111",
    float16 = "11111111111111",
    float32 = "11111111111111",
    float64 = "11111111111111",
    complex64 = "11111111111111",
    complex128 = "11111111111111",
  },
}
-- NumPy: promote_types(a, b), a row per a in DTYPES order.
local PROMOTE = {
  bool = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128"},
  int8 = {"int8", "int8", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float16", "float32",
    "float64", "complex64", "complex128"},
  int16 = {"int16", "int16", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float32", "float32",
    "float64", "complex64", "complex128"},
  int32 = {"int32", "int32", "int32", "int32", "int64", "int32", "int32", "int64", "float64", "float64", "float64",
    "float64", "complex128", "complex128"},
  int64 = {"int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "float64", "float64", "float64",
    "float64", "complex128", "complex128"},
  uint8 = {"uint8", "int16", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128"},
  uint16 = {"uint16", "int32", "int32", "int32", "int64", "uint16", "uint16", "uint32", "uint64", "float32",
    "float32", "float64", "complex64", "complex128"},
  uint32 = {"uint32", "int64", "int64", "int64", "int64", "uint32", "uint32", "uint32", "uint64", "float64",
    "float64", "float64", "complex128", "complex128"},
  uint64 = {"uint64", "float64", "float64", "float64", "float64", "uint64", "uint64", "uint64", "uint64", "float64",
    "float64", "float64", "complex128", "complex128"},
  float16 = {"float16", "float16", "float32", "float64", "float64", "float16", "float32", "float64", "float64",
    "float16", "float32", "float64", "complex64", "complex128"},
  float32 = {"float32", "float32", "float32", "float64", "float64", "float32", "float32", "float64", "float64",
    "float32", "float32", "float64", "complex64", "complex128"},
  float64 = {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64",
    "float64", "float64", "float64", "complex128", "complex128"},
  complex64 = {"complex64", "complex64", "complex64", "complex128", "complex128", "complex64", "complex64",
    "complex128", "complex128", "complex64", "complex64", "complex128", "complex64", "complex128"},
  complex128 = {"complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128",
    "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128"},
}
-- NumPy: result_type(...) ("a:DT" is an array of dtype DT).
local RESULT_TYPE = {
  {{"a:int8", 1}, "int8"},
  {{"a:int8", 1.5}, "float64"},
  {{"a:float16", 1.5}, "float16"},
  {{"a:uint8", -1}, "uint8"},
  {{"a:bool", 1}, "int64"},
  {{"a:bool", true}, "bool"},
  {{"a:int8", true}, "int8"},
  {{1}, "int64"},
  {{1.0}, "float64"},
  {{true}, "bool"},
  {{1, 2.0}, "float64"},
  {{true, 1}, "int64"},
  {{"a:int8", "a:uint8"}, "int16"},
  {{"int8", "uint8", 2.0}, "float64"},
  {{"a:int64", "uint64"}, "float64"},
  {{"a:complex64", 1.0}, "complex64"},
  {{"a:complex64", "float64"}, "complex128"},
  {{"a:float32", "int16"}, "float32"},
  {{"a:float32", "int32"}, "float64"},
  {{"a:uint16", "a:int8", 3}, "int32"},
  {{"float16", 100000}, "float16"},
  {{"a:bool", 1.5}, "float64"},
  {{"a:uint64", -5}, "uint64"},
  {{"a:int32", "a:float16"}, "float64"},
  {{"complex64", "int64"}, "complex128"},
  {{"a:bool", "a:bool"}, "bool"},
}

-- Differences between nested values (NaN equals NaN, -0.0 equals 0.0),
-- as "path: got X, want Y" strings appended to out.
local function diff(got, want, path, out)
  if type(want) == "table" then
    if type(got) ~= "table" or #got ~= #want then
      out[#out + 1] = path .. ": got " .. tostring(got) .. ", want a table of " .. #want
      return out
    end
    for i = 1, #want do diff(got[i], want[i], path .. "[" .. i .. "]", out) end
    return out
  end
  local same = got == want or (type(got) == "number" and type(want) == "number" and got ~= got and want ~= want)
  if not same then
    out[#out + 1] = string.format("%s: got %s, want %s", path, tostring(got), tostring(want))
  end
  return out
end

local function assert_values(x, want, what)
  local d = diff(helper.totable(x), want, what or "value", {})
  assert.is_true(#d == 0, table.concat(d, "\n"))
end

local function is_complex(dt) return helper.KIND[dt] == "c" end

-- An array of dtype dt holding the ASTYPE source values: uint64 through
-- int64 (Lua has no integers above 2^63 - 1), complex through the real and
-- imag views.
local function make_src(xp, dt, src)
  if dt == "uint64" then return xp.array(src, "int64"):astype("uint64") end
  if is_complex(dt) then
    local rt = dt == "complex64" and "float32" or "float64"
    local re, im = {}, {}
    for i, p in ipairs(src) do re[i], im[i] = p[1], p[2] end
    local z = xp.zeros(#src, dt)
    U.copy(xp.array(re, rt), { out = z.real })
    U.copy(xp.array(im, rt), { out = z.imag })
    return z
  end
  return xp.array(src, dt)
end

describe("api: data tables", function()
  it("list the dtypes in helper.DTYPES order", function()
    assert.are.same({ "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
      "float16", "float32", "float64", "complex64", "complex128" }, DTYPES)
  end)
end)

describe("astype on the GPU", function()
  it("agrees with the host on every pair of dtypes", function()
    local bad = {}
    for _, from in ipairs(DTYPES) do
      for _, to in ipairs(DTYPES) do
        local ok, msg = helper.check_gpu_vs_host(function(m)
          return make_src(m, from, ASTYPE[from].src):astype(to)
        end, { rtol = 0, atol = 0, equal_nan = true })
        if not ok then bad[#bad + 1] = from .. " -> " .. to .. ": " .. msg end
      end
    end
    assert.is_true(#bad == 0, table.concat(bad, "\n"))
  end)
end)

helper.each_device(function(xp, dev)
  describe("astype", function()
    for _, from in ipairs(DTYPES) do
      it("from " .. from .. " to every dtype gives NumPy's values", function()
        local row = ASTYPE[from]
        local x = make_src(xp, from, row.src)
        assert_values(x, row[from], "source " .. from)
        local bad = {}
        for _, to in ipairs(DTYPES) do
          local y = x:astype(to)
          assert.are.equal(to, y.dtype)
          assert.are.equal(dev.name, helper.devstr(y.device))
          assert.is_false(rawequal(x, y))
          diff(y:totable(), row[to], from .. " -> " .. to, bad)
        end
        assert.is_true(#bad == 0, table.concat(bad, "\n"))
      end)
    end

    it("keeps the shape; strided and broadcast inputs give C-contiguous copies, F ones F (order K)", function()
      local base = { { -1.5, 2.5, 3.9 }, { 4.2, -5.7, 6.0 } }
      for _, l in ipairs(helper.layouts(xp, base, "float64")) do
        local y = l.x:astype("int16")
        assert.are.same({ 2, 3 }, y.shape)
        local f = l.x.flags
        if f.f_contiguous and not f.c_contiguous then assert.is_true(y.flags.f_contiguous, l.name)
        else assert.is_true(y.flags.c_contiguous, l.name) end
        assert_values(y, { { -1, 2, 3 }, { 4, -5, 6 } }, l.name)
      end
      local t = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }, "int32").T:astype("float32")
      assert.are.same({ 3, 2 }, t.shape)
      assert_values(t, { { 1, 4 }, { 2, 5 }, { 3, 6 } })
      local z = xp.zeros({}, "float32"):astype("complex64")
      assert.are.same({}, z.shape)
    end)

    it("copy: true (default) always copies, false returns x for the same dtype", function()
      local x = xp.array({ 1, 2, 3 }, "int32")
      assert.is_false(rawequal(x, x:astype("int32")))
      assert.is_false(rawequal(x, x:astype("int32", { copy = true })))
      assert.is_true(rawequal(x, x:astype("int32", { copy = false })))
      assert.is_true(rawequal(x, x:astype("i4", { copy = false })))
      local y = x:astype("int64", { copy = false })
      assert.is_false(rawequal(x, y))
      assert.are.equal("int64", y.dtype)
      assert.is_true(rawequal(x, x:astype { dtype = "int32", copy = false }))
    end)

    it("casting: unsafe by default, the rule is checked when given", function()
      local x = xp.array({ 1.5 }, "float64")
      assert.are.equal("int8", x:astype("int8").dtype)
      assert.are.equal("float32", x:astype("float32", { casting = "same_kind" }).dtype)
      assert.are.equal("complex128", x:astype("complex128", { casting = "safe" }).dtype)
      assert.are.equal("float64", x:astype("float64", { casting = "no" }).dtype)
      helper.assert_error(function() return x:astype("int8", { casting = "safe" }) end,
        "astype: Cannot cast array data from dtype('float64') to dtype('int8') according to the rule 'safe'")
      helper.assert_error(function() return x:astype("float32", { casting = "safe" }) end, "astype: ", "'safe'")
      helper.assert_error(function() return x:astype("int64", { casting = "same_kind" }) end, "astype: ")
      helper.assert_error(function() return x:astype { dtype = "float32", casting = "equiv" } end, "astype: ")
    end)

    it("bad inputs are errors naming astype", function()
      local x = xp.array({ 1, 2 })
      helper.assert_error(function() return x:astype("float31") end, "astype: unknown dtype 'float31'")
      helper.assert_error(function() return x:astype() end, "astype: a dtype is required")
      helper.assert_error(function() return x:astype { copy = false } end, "astype: a dtype is required")
      helper.assert_error(function() return x:astype(3) end, "astype: dtype must be a string")
      helper.assert_error(function() return x:astype("int8", {}, 1) end, "astype: takes a dtype")
      helper.assert_error(function() return x:astype("int8", 5) end, "astype: takes a dtype")
      helper.assert_error(function() return x:astype("int8", { ordr = "C" }) end, "astype: unknown option 'ordr'")
      helper.assert_error(function() return x:astype("int8", { copy = 1 }) end, "astype: copy must be a boolean")
      helper.assert_error(function() return x:astype("int8", { casting = "sometimes" }) end,
        "astype: casting must be one of")
      helper.assert_error(function() return ga.core.ndarray_methods.astype(5, "int8") end, "astype: ")
      local f = xp.zeros(2)
      f:free()
      helper.assert_error(function() return f:astype("int8") end, "astype: array has been freed")
    end)
  end)

  describe("operators", function()
    local ARITH = { "int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64" }
    local BITS = { "bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64" }
    local SHIFTS = { "int8", "uint8", "int16", "int32", "int64", "uint64" }
    local function with(list, ...)
      local r = {}
      for _, v in ipairs(list) do r[#r + 1] = v end
      for _, v in ipairs { ... } do r[#r + 1] = v end
      return r
    end
    -- a, b: exact in every dtype of the row; n: the Lua number of the row
    local OPS = {
      { "+", "add", function(a, b) return a + b end, with(ARITH, "bool", "complex128"), { 6, 8, 9 }, { 3, 2, 1 }, 2 },
      { "-", "subtract", function(a, b) return a - b end, with(ARITH, "complex64"), { 6, 8, 9 }, { 3, 2, 1 }, 2 },
      { "*", "multiply", function(a, b) return a * b end, with(ARITH, "bool", "complex128"),
        { 6, 8, 9 }, { 3, 2, 1 }, 2 },
      { "/", "true_divide", function(a, b) return a / b end, with(ARITH, "complex128"), { 6, 8, 9 }, { 3, 2, 1 }, 2 },
      { "//", "floor_divide", function(a, b) return a // b end, ARITH, { 6, 8, 9 }, { 4, 3, 2 }, 4 },
      { "%", "remainder", function(a, b) return a % b end, ARITH, { 6, 8, 9 }, { 4, 3, 2 }, 4 },
      { "^", "power", function(a, b) return a ^ b end, with(ARITH, "complex128"), { 2, 3, 5 }, { 3, 2, 1 }, 2 },
      { "&", "bitwise_and", function(a, b) return a & b end, BITS, { 6, 12, 1 }, { 3, 10, 1 }, 5 },
      { "|", "bitwise_or", function(a, b) return a | b end, BITS, { 6, 12, 0 }, { 3, 10, 1 }, 5 },
      { "~", "bitwise_xor", function(a, b) return a ~ b end, BITS, { 6, 12, 1 }, { 3, 10, 1 }, 5 },
      { "<<", "left_shift", function(a, b) return a << b end, SHIFTS, { 1, 3, 5 }, { 1, 2, 3 }, 2 },
      { ">>", "right_shift", function(a, b) return a >> b end, SHIFTS, { 64, 100, 7 }, { 1, 2, 3 }, 2 },
    }
    for _, row in ipairs(OPS) do
      local sym, fname, op, dtypes, A, B, n = table.unpack(row)
      for _, dt in ipairs(dtypes) do
        it("a " .. sym .. " b is " .. fname .. " (" .. dt .. "), Lua numbers on either side", function()
          local a, b = xp.array(A, dt), xp.array(B, dt)
          if dt == "bool" then
            a, b = xp.array(A):astype("bool"), xp.array(B):astype("bool")
          end
          local pairs_ = { { op(a, b), ga[fname](a, b) }, { op(a, n), ga[fname](a, n) }, { op(n, a), ga[fname](n, a) } }
          for k, p in ipairs(pairs_) do
            assert.are.equal(p[2].dtype, p[1].dtype, "case " .. k)
            assert.are.equal(dev.name, helper.devstr(p[1].device))
            assert.are.same(p[2].shape, p[1].shape)
            assert_values(p[1], p[2]:totable(), "case " .. k)
          end
        end)
      end
      it("a " .. sym .. " b broadcasts (column against row)", function()
        local dt = dtypes[2]
        local col = xp.array({ { A[1] }, { A[2] }, { A[3] } }, dt)
        local r = op(col, xp.array(B, dt))
        assert.are.same({ 3, 3 }, r.shape)
        assert_values(r, ga[fname](col, xp.array(B, dt)):totable())
        helper.assert_error(function() return op(xp.array({ 1, 2 }, dt), xp.array({ 1, 2, 3 }, dt)) end,
          fname .. ": operands could not be broadcast together with shapes (2,) (3,)")
      end)
    end

    it("known values: reversed operands keep their order", function()
      local x = xp.array({ 7, -7 })
      assert_values(x // 2, { 3, -4 })
      assert_values(x % 3, { 1, 2 })
      assert_values(7 % xp.array({ 3, -3 }), { 1, -2 })
      assert_values(10 - xp.arange(3), { 10, 9, 8 })
      assert_values(2 ^ xp.arange(4), { 1, 2, 4, 8 })
      assert_values(xp.arange(4) ^ 2, { 0, 1, 4, 9 })
      assert_values(1 << xp.arange(4), { 1, 2, 4, 8 })
      assert_values(256 >> xp.arange(3), { 256, 128, 64 })
      assert_values(6 & xp.array({ 3, 5 }), { 2, 4 })
      assert_values(xp.array({ 12, 10 }) ~ 6, { 10, 12 })
      assert_values(xp.array({ -16 }, "int8") >> 2, { -4 })
      assert_values(xp.array({ 7.5, -7.5 }) // 2, { 3, -4 })
      assert_values(xp.array({ 7.5, -7.5 }) % 2, { 1.5, 0.5 })
      -- pow is transcendental: CUDA's double pow is within 1 ULP, not exact
      helper.assert_close(xp.array({ 2.0 }) ^ 0.5, { math.sqrt(2) }, { rtol = 5e-16, atol = 0 })
      local i8 = xp.array({ 1, 2 }, "int8")
      assert.are.equal("int8", (i8 ^ 2).dtype)
      assert.are.equal("float64", (i8 ^ 0.5).dtype)
      assert.are.equal("int8", (i8 // 2).dtype)
      assert.are.equal("int8", (i8 << 1).dtype)
      assert.are.equal("bool", (xp.array({ true }) & xp.array({ false })).dtype)
    end)

    it("unary - and ~ (invert)", function()
      for _, dt in ipairs { "int8", "uint8", "int32", "int64", "uint64", "bool" } do
        local x = xp.array({ 0, 1, 5 }):astype(dt)
        local r = ~x
        assert.are.equal(dt, r.dtype)
        assert_values(r, ga.invert(x):totable(), dt)
      end
      assert_values(~xp.array({ 0, 5 }, "uint8"), { 255, 250 })
      assert_values(~xp.array({ 0, -1 }), { -1, 0 })
      assert_values(~xp.array({ true, false }), { false, true })
      for _, dt in ipairs { "int8", "int64", "float32", "float64", "complex128" } do
        local x = xp.array({ 1, -2 }, dt)
        assert_values(-x, ga.negative(x):totable(), dt)
      end
    end)

    it("errors name the ufunc (bitwise on floats, // and % on complex, - on bool)", function()
      local f = xp.array({ 1.5, 2.5 })
      local i = xp.array({ 1, 2 })
      local c = xp.array({ 1, 2 }, "complex64")
      local b = xp.array({ true })
      local rows = {
        { function() return f & 1 end, "bitwise_and: ufunc 'bitwise_and' not supported for the input types" },
        { function() return 1 & f end, "bitwise_and: " },
        { function() return i & 1.5 end, "bitwise_and: " },
        { function() return xp.array({ 1 }, "float32") | 1 end, "bitwise_or: " },
        { function() return f ~ 1 end, "bitwise_xor: " },
        { function() return ~f end, "invert: " },
        { function() return f << 1 end, "left_shift: " },
        { function() return 1 >> f end, "right_shift: " },
        { function() return c // 2 end, "floor_divide: " },
        { function() return c % 2 end, "remainder: " },
        { function() return -b end, "negative: " },
        { function() return i + "x" end, "add: bad operand #2" },
        { function() return print - i end, "subtract: bad operand #1" },
        { function() return i << print end, "left_shift: bad operand #2" },
      }
      for k, r in ipairs(rows) do
        local msg = helper.assert_error(r[1], r[2])
        assert.is_truthy(msg:find("api_spec.lua", 1, true), "row " .. k .. ": no position in '" .. msg .. "'")
      end
    end)

    it("< <= > >= are errors; == of two arrays is an error (one object: true)", function()
      local x = xp.arange(3)
      helper.assert_error(function() return x < x end, "lt: arrays cannot be compared", "a:lt(b)")
      helper.assert_error(function() return x <= 1 end, "le: arrays cannot be compared")
      helper.assert_error(function() return 1 > x end, "cannot be compared")
      helper.assert_error(function() return x >= 1 end, "cannot be compared")
      assert.is_true(x == x)
      helper.assert_error(function() return x == x:copy() end, "==: two different arrays", "ga.equal(a, b)",
                          "ga.array_equal")
      assert.is_false(x == 0)   -- Lua never asks an array about a number
      assert.is_true(rawequal(x, x) and not rawequal(x, x:copy()))
    end)
  end)

  describe("aliases", function()
    local ALIASES = {
      abs = "absolute", mod = "remainder", divide = "true_divide", conj = "conjugate", fix = "trunc",
      degrees = "rad2deg", radians = "deg2rad", bitwise_not = "invert", around = "round",
    }
    it("are the same functions, in ga and ga.host", function()
      for alias, name in pairs(ALIASES) do
        assert.are.equal("function", type(ga[alias]), alias)
        assert.is_true(rawequal(ga[alias], ga[name]), alias .. " = " .. name)
        assert.is_true(rawequal(ga.host[alias], ga.host[name]), "host." .. alias)
      end
    end)
    it("give NumPy's values", function()
      assert_values(ga.abs(xp.array({ -1, 2 }, "int8")), { 1, 2 })
      assert_values(ga.mod(xp.array({ -7 }), 3), { 2 })
      assert_values(ga.fix(xp.array({ -2.5, 2.5 })), { -2, 2 })
      assert_values(ga.degrees(xp.array({ math.pi })), { 180 })
      assert_values(ga.radians(xp.array({ 180 })), { math.pi })
      assert_values(ga.bitwise_not(xp.array({ 0 }, "uint16")), { 65535 })
      assert_values(ga.conj(xp.array({ 3 }, "complex128") * ga.sqrt(xp.array(-1, "complex128"))), { { 0, -3 } })
    end)
    it("every public ufunc row is in ga and ga.host; internal rows are not", function()
      for name, f in pairs(U) do
        if name:sub(1, 1) == "_" then
          assert.is_nil(rawget(ga, name), name)
        elseif name ~= "copy" then
          assert.is_true(rawequal(ga[name], f) or name == "clip", name)
          assert.are.equal("function", type(ga.host[name]), "host." .. name)   -- makes host arrays of Lua values
        end
      end
      assert.are.same({ 0, 1, 2 }, ga.copy(ga.arange(3)):tolist())   -- the creation function, not the COPY row
    end)
  end)

  describe("round", function()
    it("rounds halves to even, to decimals, negative decimals on integers (NumPy's values)", function()
      assert_values(ga.round(xp.array({ 0.5, 1.5, 2.5, -0.5, -1.5 })), { 0, 2, 2, 0, -2 })
      assert_values(ga.round(xp.array({ 1.234, 5.678, -1.25 }), 1), { 1.2, 5.7, -1.2 })
      assert_values(ga.around(xp.array({ 1234.5, 5678 }), -2), { 1200, 5700 })
      local r = ga.round(xp.array({ 15, 25, -15 }, "int8"), -1)
      assert.are.equal("int8", r.dtype)
      assert_values(r, { 20, 20, -20 })
      assert_values(xp.array({ 1.25, 1.35 }):round(1), { 1.2, 1.4 })
      assert_values(xp.array({ 7, 12 }):round(), { 7, 12 })
      assert.are.equal("float32", ga.round(xp.array({ 1.5 }, "float32")).dtype)
    end)
    it("takes options as the second or third argument, and integral floats as decimals", function()
      local out = xp.zeros(2)
      assert.is_true(rawequal(out, ga.round(xp.array({ 1.5, 2.5 }), { out = out })))
      assert_values(out, { 2, 2 })
      ga.round(xp.array({ 1.26, 2.5 }), 1, { out = out })
      assert_values(out, { 1.3, 2.5 })
      assert_values(ga.round(xp.array({ 1.26 }), 1.0), { 1.3 })
      assert.are.equal("float32", ga.round(xp.array({ 1.26 }), 1, { dtype = "float32" }).dtype)
    end)
    it("errors name round", function()
      helper.assert_error(function() return ga.round(xp.array({ 1.5 }), 1.5) end, "round: decimals must be an integer")
      helper.assert_error(function() return ga.round(xp.array({ 1.5 }), "1") end, "round: decimals must be an integer")
      helper.assert_error(function() return ga.round("x") end, "round: bad operand #1")
      helper.assert_error(function() return ga.round(xp.array({ 1.5 }), 0, { out = 3 }) end, "round: out must be")
    end)
  end)

  describe("angle", function()
    local j = function() return ga.sqrt(xp.array(-1, "complex128")) end
    it("radians and degrees (NumPy's values)", function()
      local z = xp.array({ 1, -1, 0 }) + xp.array({ 1, 1, -2 }) * j()
      local a = ga.angle(z)
      assert.are.equal("float64", a.dtype)
      helper.assert_close(a, { math.pi / 4, 3 * math.pi / 4, -math.pi / 2 })
      helper.assert_close(ga.angle(z, true), { 45, 135, -90 })
      helper.assert_close(ga.angle(z, false), { math.pi / 4, 3 * math.pi / 4, -math.pi / 2 })
    end)
    it("dtypes: complex64 -> float32, real arrays 0 or pi, bool -> float64", function()
      assert.are.equal("float32", ga.angle(xp.array({ 1 }, "complex64")).dtype)
      helper.assert_close(ga.angle(xp.array({ 2.0, -3.0 })), { 0, math.pi })
      assert.are.equal("float16", ga.angle(xp.array({ 1, -1 }, "int8")).dtype)
      local b = ga.angle(xp.array({ true, false }))
      assert.are.equal("float64", b.dtype)
      assert_values(b, { 0, 0 })
      helper.assert_close(ga.angle(-1), math.pi)
    end)
    it("errors name angle", function()
      helper.assert_error(function() return ga.angle(xp.array({ 1.0 }), 1) end, "angle: deg must be a boolean")
      helper.assert_error(function() return ga.angle("x") end, "angle: bad operand #1")
    end)
  end)

  describe("real and imag", function()
    for _, dt in ipairs { "complex64", "complex128" } do
      local rt = dt == "complex64" and "float32" or "float64"
      local function z2(m)
        local z = m.zeros({ 2, 3 }, dt)
        U.copy(m.array({ { 1, 2, 3 }, { 4, 5, 6 } }, rt), { out = z.real })
        U.copy(m.array({ { -1, -2, -3 }, { -4, -5, -6 } }, rt), { out = z.imag })
        return z
      end
      it(dt .. ": views of the real dtype, same strides, base, no copy", function()
        local z = z2(xp)
        for _, part in ipairs { "real", "imag" } do
          local v = z[part]
          assert.are.equal(rt, v.dtype)
          assert.are.same(z.shape, v.shape)
          assert.are.same(z.strides, v.strides)
          assert.are.equal(dev.name, helper.devstr(v.device))
          assert.is_true(rawequal(v.base, z))
          assert.is_false(v.flags.owndata)
          assert.is_true(rawequal(ga[part](z).base, z))
        end
        assert_values(z.real, { { 1, 2, 3 }, { 4, 5, 6 } })
        assert_values(z.imag, { { -1, -2, -3 }, { -4, -5, -6 } })
        assert_values(ga.real(z), { { 1, 2, 3 }, { 4, 5, 6 } })
        assert_values(ga.imag(z), { { -1, -2, -3 }, { -4, -5, -6 } })
        assert.are.same(z.T.strides, z.T.real.strides)
        assert_values(z.T.imag, { { -1, -4 }, { -2, -5 }, { -3, -6 } })
      end)
      it(dt .. ": writing through a view changes the array, and only that half", function()
        local z = z2(xp)
        ga.add(z.real, 10, { out = z.real })
        assert_values(z, { { { 11, -1 }, { 12, -2 }, { 13, -3 } }, { { 14, -4 }, { 15, -5 }, { 16, -6 } } })
        ga.multiply(z.imag, 0, { out = z.imag })
        assert_values(z, { { { 11, 0 }, { 12, 0 }, { 13, 0 } }, { { 14, 0 }, { 15, 0 }, { 16, 0 } } })
        local t = z.T.imag
        U.copy(xp.array({ { 7, 8 }, { 7, 8 }, { 7, 8 } }, rt), { out = t })   -- through the transposed view
        assert_values(z.imag, { { 7, 7, 7 }, { 8, 8, 8 } })
      end)
      it(dt .. ": GPU views agree with the host", function()
        helper.assert_gpu_vs_host(function(m) return z2(m).T.imag end)
        helper.assert_gpu_vs_host(function(m) return z2(m).real * 2 end)
      end)
    end
    it("real dtypes: real is the array itself, imag a new array of zeros", function()
      for _, dt in ipairs { "bool", "int8", "uint64", "float16", "float64" } do
        local x = xp.array({ 1, 0, 1 }):astype(dt)
        assert.is_true(rawequal(x.real, x), dt)
        assert.is_true(rawequal(ga.real(x), x), dt)
        local im = x.imag
        assert.is_false(rawequal(im, x))
        assert.are.equal(dt, im.dtype)
        assert.are.equal(dev.name, helper.devstr(im.device))
        assert.are.same({ 3 }, im.shape)
        assert_values(im, dt == "bool" and { false, false, false } or { 0, 0, 0 }, dt)
      end
      assert.are.same({ 2, 2 }, xp.zeros({ 2, 2 }, "int32").T.imag.shape)
    end)
    it("Lua numbers: real is the number, imag 0; other values are errors", function()
      assert.are.equal(3, ga.real(3))
      assert.are.equal(2.5, ga.real(2.5))
      assert.are.equal(0, ga.imag(3))
      assert.are.equal("integer", math.type(ga.imag(3)))
      assert.are.equal("float", math.type(ga.imag(2.5)))
      helper.assert_error(function() return ga.real("x") end, "real: bad argument #1")
      helper.assert_error(function() return ga.imag({}) end, "imag: bad argument #1")
    end)
  end)

  describe("clip", function()
    it("limits to [lo, hi]; nil means no bound (NumPy's values)", function()
      local a = xp.arange(6)
      assert_values(ga.clip(a, 1, 4), { 1, 1, 2, 3, 4, 4 })
      assert_values(ga.clip(a, nil, 2), { 0, 1, 2, 2, 2, 2 })
      assert_values(ga.clip(a, 3, nil), { 3, 3, 3, 3, 4, 5 })
      assert_values(ga.clip(a, 3), { 3, 3, 3, 3, 4, 5 })
      assert_values(a:clip(1, 3), { 1, 1, 2, 3, 3, 3 })
      assert_values(a:clip(nil, 1), { 0, 1, 1, 1, 1, 1 })
      local i8 = xp.array({ 1, 2, 3 }, "int8")
      assert.are.equal("int8", ga.clip(i8, nil, 2).dtype)
      local f = ga.clip(i8, 0, 2.5)
      assert.are.equal("float64", f.dtype)
      assert_values(f, { 1, 2, 2.5 })
      assert_values(ga.clip(xp.arange(3), xp.array({ { 1 }, { 0 } }), 1), { { 1, 1, 1 }, { 0, 1, 1 } })
      local out = xp.zeros(6, "int64")
      assert.is_true(rawequal(out, ga.clip(a, 2, 3, { out = out })))
      assert_values(out, { 2, 2, 2, 3, 3, 3 })
      ga.clip(a, nil, 0, { out = out })
      assert_values(out, { 0, 0, 0, 0, 0, 0 })
    end)
    it("errors name clip", function()
      local a = xp.arange(3)
      helper.assert_error(function() return ga.clip(a) end, "clip: at least one of the bounds")
      helper.assert_error(function() return ga.clip(a, nil, nil) end, "clip: at least one of the bounds")
      helper.assert_error(function() return a:clip() end, "clip: at least one of the bounds")
      helper.assert_error(function() return ga.clip(a, "x", 2) end, "clip: bad operand #2")
      helper.assert_error(function() return ga.clip(a, nil, "x") end, "clip: bad operand #2")
      helper.assert_error(function() return ga.clip(a, 0, 1, { out = 1 }) end, "clip: out must be")
    end)
  end)

  describe("methods", function()
    it("lt le gt ge eq ne are the comparison ufuncs", function()
      local x, y = xp.array({ 1, 2, 3 }), xp.array({ 2, 2, 2 })
      local rows = { { "lt", "less", { true, false, false } }, { "le", "less_equal", { true, true, false } },
        { "gt", "greater", { false, false, true } }, { "ge", "greater_equal", { false, true, true } },
        { "eq", "equal", { false, true, false } }, { "ne", "not_equal", { true, false, true } } }
      for _, r in ipairs(rows) do
        local m, f, want = table.unpack(r)
        assert.is_true(rawequal(ga.core.ndarray_methods[m], ga[f]), m)
        local got = x[m](x, y)
        assert.are.equal("bool", got.dtype)
        assert_values(got, want, m)
        assert_values(x[m](x, 2), want, m .. " number")
      end
      helper.assert_error(function() return x:lt("a") end, "less: bad operand #2")
    end)
    it("conj and conjugate", function()
      local z = xp.array({ 1, 2 }, "complex64") * ga.sqrt(xp.array(-1, "complex64"))
      assert_values(z:conj(), { { 0, -1 }, { 0, -2 } })
      assert_values(z:conjugate(), { { 0, -1 }, { 0, -2 } })
      assert.are.equal("complex64", z:conj().dtype)
      assert_values(xp.arange(3):conj(), { 0, 1, 2 })
    end)
  end)

  describe("ufuncs", function()
    it("check their argument counts", function()
      local x = xp.arange(3.0)
      helper.assert_error(function() return ga.sin(x, x) end, "sin: takes 1 operand")
      helper.assert_error(function() return ga.add(x) end, "add: takes 2 operands, got 1")
      helper.assert_error(function() return ga.add(x, x, x) end, "add: takes 2 operands")
    end)
  end)
end)

describe("can_cast, result_type, promote_types", function()
  local RULES = { "no", "equiv", "safe", "same_kind", "unsafe" }
  it("can_cast matches NumPy for every pair and rule", function()
    local bad = {}
    for _, rule in ipairs(RULES) do
      for _, from in ipairs(DTYPES) do
        for k, to in ipairs(DTYPES) do
          local want = CAN_CAST[rule][from]:sub(k, k) == "1"
          if ga.can_cast(from, to, rule) ~= want then
            bad[#bad + 1] = from .. " -> " .. to .. " " .. rule .. ": want " .. tostring(want)
          end
        end
      end
    end
    assert.is_true(#bad == 0, table.concat(bad, "\n"))
  end)
  it("can_cast: safe by default, an array stands for its dtype, aliases work", function()
    for _, from in ipairs(DTYPES) do
      for k, to in ipairs(DTYPES) do
        assert.are.equal(CAN_CAST.safe[from]:sub(k, k) == "1", ga.can_cast(from, to))
      end
    end
    assert.is_true(ga.can_cast(ga.host.zeros(2, "int8"), "int16"))
    assert.is_false(ga.can_cast(ga.host.zeros(2), "float32"))
    assert.is_true(ga.can_cast(ga.host.zeros(2), "float32", "same_kind"))
    assert.is_true(ga.can_cast("f4", "double"))
    assert.is_true(rawequal(ga.host.can_cast, ga.can_cast))
  end)
  it("promote_types matches NumPy for every pair", function()
    for _, a in ipairs(DTYPES) do
      for k, b in ipairs(DTYPES) do
        assert.are.equal(PROMOTE[a][k], ga.promote_types(a, b), a .. " + " .. b)
      end
    end
    assert.are.equal("float32", ga.promote_types("f2", "i2"))
  end)
  it("result_type matches NumPy (Lua numbers and booleans are weak)", function()
    for _, case in ipairs(RESULT_TYPE) do
      local args, labels = {}, {}
      for i, a in ipairs(case[1]) do
        if type(a) == "string" and a:sub(1, 2) == "a:" then args[i] = ga.host.zeros(2, a:sub(3))
        else args[i] = a end
        labels[i] = tostring(a)
      end
      assert.are.equal(case[2], ga.result_type(table.unpack(args, 1, #case[1])), table.concat(labels, ", "))
    end
  end)
  it("result_type of arrays and names is promote_types, and agrees with the ufuncs", function()
    for _, a in ipairs(DTYPES) do
      for k, b in ipairs(DTYPES) do
        assert.are.equal(PROMOTE[a][k], ga.result_type(ga.host.zeros(1, a), b))
      end
    end
    for _, dt in ipairs(helper.REAL) do
      local x = ga.host.zeros(2, dt)
      assert.are.equal((x + 1).dtype, ga.result_type(x, 1), dt .. " + 1")
      assert.are.equal((x + 1.5).dtype, ga.result_type(x, 1.5), dt .. " + 1.5")
    end
  end)
  it("errors name the function", function()
    helper.assert_error(function() return ga.can_cast("float31", "int8") end, "can_cast: unknown dtype 'float31'")
    helper.assert_error(function() return ga.can_cast("int8", "float31") end, "can_cast: unknown dtype 'float31'")
    helper.assert_error(function() return ga.can_cast("int8") end, "can_cast: takes 2 or 3 arguments")
    helper.assert_error(function() return ga.can_cast("int8", "int8", "safe", 1) end, "can_cast: takes 2 or 3")
    helper.assert_error(function() return ga.can_cast("int8", "int16", "sometimes") end,
      "can_cast: casting must be one of")
    helper.assert_error(function() return ga.can_cast(1, "int16") end, "can_cast: Lua numbers are not supported")
    helper.assert_error(function() return ga.can_cast({}, "int16") end, "can_cast: bad argument #1")
    helper.assert_error(function() return ga.can_cast("int8", ga.host.zeros(1)) end, "can_cast: bad argument #2")
    helper.assert_error(function() return ga.result_type() end, "result_type: at least one")
    helper.assert_error(function() return ga.result_type("int8", "float31") end, "result_type: unknown dtype 'float31'")
    helper.assert_error(function() return ga.result_type("int8", {}) end, "result_type: bad argument #2")
    helper.assert_error(function() return ga.result_type(io.stdout) end, "result_type: bad argument #1")
    helper.assert_error(function() return ga.promote_types("int8") end, "promote_types: takes 2 dtype names")
    helper.assert_error(function() return ga.promote_types("int8", "x") end, "promote_types: unknown dtype 'x'")
    helper.assert_error(function() return ga.promote_types("int8", 1) end, "promote_types: bad argument #2")
  end)
end)
