-- ga.ElementwiseKernel (CuPy's user-defined element-wise kernels).
--
-- Everywhere (CI has no GPU): the parameter language and its errors, type
-- resolution (placeholders, Lua values, exact dtypes), call checks that
-- need no device, the generated source of every kernel shape, and NVRTC
-- compiles for every dtype (k:source / k:compile use virtual arrays).
-- With a GPU: results against the host, broadcasting, layouts, raw arrays,
-- size=, outputs given and checked, several outputs, options.
local helper = require "spec.helper"
local ga = helper.ga
local EK = ga.ElementwiseKernel

local function fma3()
  return EK("float32 a, float32 b, float32 c", "float32 z", "z = a * b + c", "fma3")
end

describe("ElementwiseKernel: construction", function()
  it("parses parameters and exposes CuPy's attributes", function()
    local k = EK("float32 x, raw T y, const T w", "T z, float64 u", "z = x; u = w", "two",
                 { preamble = "// pre", loop_prep = "// prep", after_loop = "// after",
                   reduce_dims = false, return_tuple = true })
    assert.are.equal(3, k.nin)
    assert.are.equal(2, k.nout)
    assert.are.equal(5, k.nargs)
    assert.are.equal("two", k.name)
    assert.are.equal("z = x; u = w", k.operation)
    assert.are.equal("float32 x, raw T y, const T w", k.in_params)
    assert.are.equal("T z, float64 u", k.out_params)
    assert.are.equal("// pre", k.preamble)
    assert.are.equal("// prep", k.loop_prep)
    assert.are.equal("// after", k.after_loop)
    assert.is_false(k.reduce_dims)
    assert.is_true(k.return_tuple)
    assert.is_false(k.no_return)
    assert.are.equal("<ElementwiseKernel 'two'>", tostring(k))
  end)

  it("defaults: name 'kernel', reduce_dims, empty texts; the name may come in the options", function()
    local k = EK("T x", "T y", "y = x")
    assert.are.equal("kernel", k.name)
    assert.is_true(k.reduce_dims)
    assert.are.equal("", k.preamble)
    assert.are.equal("named", EK("T x", "T y", "y = x", { name = "named" }).name)
    assert.are.equal("named2", EK("T x", "T y", "y = x", nil, { name = "named2" }).name)
  end)

  it("accepts empty input or output lists", function()
    local k = EK("", "float32 z", "z = i")
    assert.are.equal(0, k.nin)
    local k2 = EK("raw float32 x", "", "x[i] = 0")
    assert.are.equal(0, k2.nout)
  end)

  local bad = {
    { "float32", "float32 z", "needs a type and a name" },
    { "float32 x, float32 x", "float32 z", "parameter name 'x' is used twice" },
    { "float32 x", "float32 x", "parameter name 'x' is used twice" },
    { "float32 x,", "float32 z", "empty parameter" },
    { "foo float32 x", "float32 z", "unknown keyword 'foo'" },
    { "float x", "float32 z", "type 'float' of parameter 'x' is not a dtype name" },
    { "int x", "float32 z", "type 'int' of parameter 'x' is not a dtype name" },
    { "f4 x", "float32 z", "is not a dtype name" },
    { "float32 i", "float32 z", "'i' cannot be a parameter name" },
    { "float32 _ind", "float32 z", "'_ind' cannot be a parameter name" },
    { "float32 3x", "float32 z", "'3x' in parameter" },
    { "float32 *x", "float32 z", "is not a name" },
    { "T T", "T z", "'T' is both a type placeholder and a parameter name" },
    { "float32 float64", "float32 z", "'float64' cannot be a parameter name" },
    { "i x", "float32 z", "'i' cannot be a type placeholder" },
  }
  for _, row in ipairs(bad) do
    it(("rejects in_params %q"):format(row[1]), function()
      helper.assert_error(function() EK(row[1], row[2], "z = 0") end, "ElementwiseKernel: ", row[3])
    end)
  end

  it("rejects more than 16 parameters", function()
    local p = {}
    for j = 1, 17 do p[j] = "float32 x" .. j end
    helper.assert_error(function() EK(table.concat(p, ", "), "", "") end,
      "ElementwiseKernel: at most 16 parameters")
  end)

  it("rejects bad names, arguments and options", function()
    helper.assert_error(function() EK("T x", "T y", "y = x", "bad name") end, "invalid kernel name 'bad name'")
    helper.assert_error(function() EK("T x", "T y", "y = x", "x") end, "parameter 'x' has the kernel's own name")
    helper.assert_error(function() EK(nil, "T y", "y = 1") end, "ElementwiseKernel: in_params must be a string")
    helper.assert_error(function() EK("T x", "T y") end, "ElementwiseKernel: operation must be a string")
    helper.assert_error(function() EK("T x", "T y", "y = x", 3) end, "name must be a string, got number")
    helper.assert_error(function() EK("T x", "T y", "y = x", "k", { foo = 1 }) end, "unknown option 'foo'")
    helper.assert_error(function() EK("T x", "T y", "y = x", "k", { reduce_dims = "yes" }) end,
      "option reduce_dims must be a boolean")
    helper.assert_error(function() EK("T x", "T y", "y = x", "k", 5) end, "options must be a table")
    helper.assert_error(function() EK("T x", "T y", "y = x", "k", { preamble = 1 }) end,
      "preamble must be a string")
  end)
end)

describe("ElementwiseKernel: type resolution and call checks (no GPU needed)", function()
  local F3 = { "float32", "float32", "float32" }

  it("typed parameters take arrays of exactly their dtype (CuPy does not cast them)", function()
    helper.assert_error(function() fma3():source { "float32", "float64", "float32" } end,
      "ElementwiseKernel 'fma3': argument #2 (b) is float64 but the parameter is declared float32",
      "does not cast")
    helper.assert_error(function() fma3():source { "float32", "float32", "float32", "float16" } end,
      "output #4 (z) is float16 but the parameter is declared float32")
  end)

  it("placeholders: bound by arrays (outputs first), conflicts are errors", function()
    local k = EK("T x, T y", "T z", "z = x + y", "add2")
    assert.matches("typedef double T;", k:source { "float64", "float64" }, 1, true)
    helper.assert_error(function() k:source { "float32", "float64" } end,
      "type placeholder T is float32 (from #1, x) but argument #2 (y) is float64")
    helper.assert_error(function() k:source { "float32", "float32", "int32" } end,
      "type placeholder T is int32 (from #3, z) but argument #1 (x) is float32")
  end)

  it("an output placeholder no input fixes needs the output array", function()
    local k = EK("T x", "U z", "z = x", "cvt")
    helper.assert_error(function() k:source { "float32" } end,
      "output z has type placeholder U that no input fixes")
    local src = k:source { "float32", "int16" }
    assert.matches("typedef float T;", src, 1, true)
    assert.matches("typedef short U;", src, 1, true)
  end)

  it("Lua values: kernel parameters of the parameter's type; alone they make int64 / float64 / bool", function()
    local k = EK("T x, T a", "T z", "z = a * x", "scal")
    local src = k:source { "float32", 2 }
    assert.matches("typedef float T;", src, 1, true)
    assert.matches("const T a", src, 1, true)
    local k2 = EK("T a, U b, V c, raw W w", "", "w[i] = a + b + c", "scalars")
    src = k2:source({ 1, 2.5, true, "int8" }, { size = 4 })
    assert.matches("typedef long long T;", src, 1, true)
    assert.matches("typedef double U;", src, 1, true)
    assert.matches("typedef bool V;", src, 1, true)
    local k3 = EK("T a, T b, raw float32 w", "", "w[i] = a + b", "widest")
    assert.matches("typedef double T;", k3:source({ 1, 2.5, "float32" }, { size = 4 }), 1, true)
  end)

  it("refuses Lua values that the parameter's dtype cannot hold", function()
    local k = EK("int8 a", "int8 y", "y = a", "i8")
    helper.assert_error(function() k:source { 300, "int8" } end,
      "argument #1 (a): Lua integer 300 out of bounds for int8")
    helper.assert_error(function() k:source { 2.5, "int8" } end, "argument #1 (a): 2.5 is not a value of int8")
    assert.is_string(k:source { 2.0, "int8" })
    helper.assert_error(function() EK("uint8 a", "uint8 y", "y = a"):source { -1, "uint8" } end,
      "out of bounds for uint8")
  end)

  it("checks the number and kind of arguments", function()
    helper.assert_error(function() fma3():source { "float32" } end,
      "ElementwiseKernel 'fma3': takes 3 arguments (the inputs) or 4 (inputs and outputs), got 1")
    helper.assert_error(function() fma3():source { "float32", "float32", "float32", "float32", "float32" } end,
      "got 5")
    helper.assert_error(function() fma3():source { "float32", "float32", "float32", 3 } end,
      "output #4 (z) must be an ndarray, got a number")
    helper.assert_error(function() fma3():source { "float32", "float32", {} } end,
      "argument #3 (c): ndarray, number or boolean expected, got table")
    helper.assert_error(function() fma3():source { "float32", "float32", "float99" } end, "unknown dtype 'float99'")
  end)

  it("size= only when every array is raw; raw outputs need it or the outputs", function()
    helper.assert_error(function() fma3():source(F3, { size = 4 }) end,
      "size= can be used only when every array argument is raw")
    local k = EK("raw T x", "T y", "y = x[i]", "gather")
    helper.assert_error(function() k:source { "float32" } end, "the loop size is undecided")
    assert.matches("ga_raw_c<T> x", k:source({ "float32" }, { size = 8 }), 1, true)
    local k2 = EK("T x", "raw T y", "y[i] = x", "scatter")
    helper.assert_error(function() k2:source { "float32" } end, "output y is raw, so its size is undecided")
    assert.is_string(k2:source { "float32", "float32" })
    helper.assert_error(function() EK("T a", "T z", "z = a"):source { 1 } end, "the loop size is undecided")
  end)

  it("freed arrays and bad arguments are errors (host arrays)", function()
    local k = fma3()
    local h = ga.host.ones(3, "float32")
    local f = ga.host.ones(3, "float32")
    f:free()
    helper.assert_error(function() k(f, h, h) end, "ElementwiseKernel 'fma3': argument #1 (a): array has been freed")
    helper.assert_error(function() k(h, h) end, "takes 3 arguments (the inputs) or 4 (inputs and outputs), got 2")
    helper.assert_error(function() k(h, h, "x") end, "argument #3 (c): ndarray, number or boolean expected, got string")
    helper.assert_error(function() k(h, h, h, { foo = 1 }) end, "unknown option 'foo'")
    helper.assert_error(function() k(h, h, h, { size = -1 }) end, "size must be a non-negative integer")
  end)
end)

-- Host arrays: the operation compiled by the system C++ compiler
-- (src/host/ga_host_ewk.c), cached on disk like the GPU's kernels.
describe("ElementwiseKernel on host arrays", function()
  local H = ga.host
  it("computes what the built-in ops compute: broadcasting, scalars, layouts, dtypes", function()
    local k = EK("T a, T b, T c", "T z", "z = a * b + c", "fma_t")
    local x = H.arange(12.0):reshape({ 3, 4 })
    helper.assert_close(k(x, x, 1.5), x * x + 1.5)
    helper.assert_close(k(x.T, H.arange(3.0), x.T), x.T * H.arange(3.0) + x.T)             -- broadcast, transposed
    helper.assert_close(k(x[{ { 1, 3, 2 }, { 4, 1, -2 } }], 2, 0), x[{ { 1, 3, 2 }, { 4, 1, -2 } }] * 2)
    local f = x:astype("float32")
    local r = k(f, f, f)
    assert.are.equal("float32", r.dtype)
    helper.assert_close(r, f * f + f)
    local i = H.arange(-4, 5):astype("int8")
    assert.are.same((i * i + i):totable(), k(i, i, i):totable())                             -- int8 wraps alike
    local sq = EK("T x", "T z", "z = x * x", "sq_t")
    helper.assert_close(sq(H.array({ 1.5, -2 }):astype("float16")), H.array({ 2.25, 4 }):astype("float16"))
    local zc = H.array({ 1, 2 }):astype("complex64") * H.array({ 1 }):astype("complex64")
    helper.assert_close(sq(zc), zc * zc)
  end)

  it("raw arrays, i, _ind.size(), outputs read before written, several outputs, loop_prep/after_loop", function()
    local rev = EK("raw T x", "T z", "z = x[_ind.size() - 1 - i]", "rev_t")
    assert.are.same({ 4, 3, 2, 1, 0 }, rev(H.arange(5), H.empty(5, "int64")):totable())
    local acc = EK("T x", "T z", "z += x", "acc_t")
    local z = H.ones(3)
    acc(H.arange(3.0), z)
    assert.are.same({ 1, 2, 3 }, z:totable())
    local two = EK("float64 x", "float64 s, float64 d", "s = x + 1; d = x - 1", "two_t")
    local s, d = two(H.arange(3.0))
    assert.are.same({ 1, 2, 3 }, s:totable())
    assert.are.same({ -1, 0, 1 }, d:totable())
    local pre = EK("T x", "T z", "z = twice(x) + k", "pre_t",
                   { preamble = "template <typename U> U twice(U v) { return v + v; }", loop_prep = "int k = 1" })
    assert.are.same({ 1, 3, 5 }, pre(H.arange(3.0)):totable())
    local m = EK("T x", "T z", "z = ga_exp(x) + ga_sin(x)", "math_t", { math = true })   -- the op rows' math
    helper.assert_close(m(H.arange(3.0)), H.exp(H.arange(3.0)) + H.sin(H.arange(3.0)))
    local fill = EK("", "float32 z", "z = i", "fill_t")
    assert.are.same({ 0, 1, 2 }, fill(H.empty(3, "float32")):totable())
  end)

  it("a compile error is a clear error with the compiler's message; mixed devices are an error", function()
    helper.assert_error(function() EK("T x", "T z", "z = x +* 1", "bad_t")(H.ones(2)) end,
      "ElementwiseKernel 'bad_t': did not compile on the host")
    if helper.has_gpu() then
      helper.assert_error(function() fma3()(H.ones(2, "float32"), ga.ones(2, "float32"), 1) end,
        "arguments are on different devices")
      helper.assert_gpu_vs_host(function(xp)
        local x = xp.arange(24.0):reshape({ 2, 3, 4 })
        return EK("T a, T b", "T z", "z = a * b - a", "gh_t")(x, x[{ 1 }])
      end)
    end
  end)
end)

describe("ElementwiseKernel: generated source", function()
  local F3 = { "float32", "float32", "float32" }

  it("contiguous: the dense vector kernel, 16-byte accesses, no load of a write-first output", function()
    local src = fma3():source(F3)
    assert.matches('extern "C" __global__ void __launch_bounds__(256) fma3(int _ga_n', src, 1, true)
    -- (the loads and stores: items of kernels/ga_ew.cuh)
    assert.matches("#define GA_EW_VEC 4\n", src, 1, true)
    assert.matches("#define GA_EW_VLOADS GA_EW_VLOAD(0, float32) GA_EW_VLOAD(1, float32) GA_EW_VLOAD(2, float32) " ..
                   "GA_EW_VOUT(3, float32)\n", src, 1, true)
    assert.matches("float32 &z = _ga_v3.v[_ga_j];", src, 1, true)
    assert.matches("#define GA_EW_VSTORES GA_EW_VSTORE(3, float32)\n", src, 1, true)
    assert.matches("typedef float float32;", src, 1, true)
    -- 8-byte elements: 2 per thread; 16-byte ones: 1
    assert.matches("#define GA_EW_VEC 2\n", EK("float64 x", "float64 y", "y = x"):source { "float64" }, 1, true)
    local csrc = EK("complex128 x", "complex128 y", "y = x"):source { "complex128" }
    assert.matches("#define GA_EW_VEC 1\n", csrc, 1, true)
    -- nothing contiguous (raw arrays only): one element per thread
    local zsrc = EK("raw float32 x", "", "x[i] = 0", "zero"):source({ "float32" }, { size = 8 })
    assert.matches("#define GA_EW_VEC 1\n", zsrc, 1, true)
  end)

  -- which outputs the vector path must load before the operation runs
  local wf = {
    { "z = a", false },
    { "  z = a * 2;  w = z", false },
    { "// z = z\n z = a", false },
    { "w = a; z = w", false },
    { "z += a", true },
    { "z = z + a", true },
    { "if (a > 0) z = a", true },
    { "if (a > 0) { z = a; }", true },
    { "w = z; z = a", true },
    { "a > 0 ? z = 1 : 0", true },
    { "z == a", true },
    { "w = a", true },   -- never assigned: keep the old value
    { "#define Q 1\nz = a", true },
  }
  for _, row in ipairs(wf) do
    it(("output z %s loaded for %q"):format(row[2] and "is" or "is not", row[1]), function()
      local k = EK("float32 a", "float32 z, float32 w", row[1], "wf")
      local src = k:source { "float32" }
      local loads = src:find("GA_EW_VLOADW(1, float32)", 1, true) ~= nil
      assert.are.equal(row[2], loads, src:match("extern.*"))
    end)
  end

  it("an output a preamble macro mentions is loaded too", function()
    local k = EK("float32 a", "float32 z", "z = ADDZ(a)", "macro", { preamble = "#define ADDZ(v) (z + (v))" })
    assert.matches("GA_EW_VLOADW(1, float32)", k:source { "float32" }, 1, true)
  end)

  it("strided layout: grid-stride loop with byte offsets over the collapsed shape", function()
    local src = fma3():source(F3, { layout = "strided" })
    assert.matches("struct _ga_ix_t { int sh[2]; int st[4][2]; };", src, 1, true)
    assert.matches("const float32 &a = *(const float32 *)(_ga_p0 + _ga_o0);", src, 1, true)
    assert.matches("#define GA_IT int\n", src, 1, true)
    assert.matches("i += (GA_IT)gridDim.x * blockDim.x", src, 1, true)
  end)

  it("raw parameters, scalars, _ind, preamble / loop_prep / after_loop in CuPy's order", function()
    local k = EK("raw T x, T s", "T y", "y = x[_ind.size() - 1 - i] * s", "rev",
                 { preamble = "__device__ int pre_fn() { return 1; }", loop_prep = "int prep_v = pre_fn()",
                   after_loop = "(void)prep_v" })
    local src = k:source { "float32", 2.0, "float32" }
    assert.matches("const ga_raw_c<T> x", src, 1, true)
    assert.matches("const T s", src, 1, true)
    assert.matches("const ga_ind<int> _ind = {_ga_n};", src, 1, true)
    local p1 = src:find("pre_fn() { return 1; }", 1, true)
    local p2 = src:find("int prep_v = pre_fn()", 1, true)
    local p3 = src:find("y = x[_ind.size() - 1 - i] * s", 1, true)
    local p4 = src:find("(void)prep_v", 1, true)
    assert.is_true(p1 < p2 and p2 < p3 and p3 < p4)
    assert.matches("const ga_raw_s<T, 2> x", k:source({ "float32", 2.0, "float32" }, { layout = "strided" }), 1, true)
    local size, is_ptx = k:compile { "float32", 2.0, "float32" }
    assert.is_true(size > 0)
    assert.is_boolean(is_ptx)
    assert.is_true(k:compile({ "float32", 2.0, "float32" }, { layout = "strided" }) > 0)
  end)

  it("NVRTC compiles a placeholder kernel for every dtype, both layouts, with compound assignment", function()
    local k = EK("T x, T y, raw T r", "T z", "z = x; z += y; z += r[i % r.size()]", "every_dtype")
    for _, dt in ipairs(helper.DTYPES) do
      for _, layout in ipairs { "contiguous", "strided" } do
        local ok, size = pcall(k.compile, k, { dt, dt, dt }, { layout = layout })
        assert(ok, dt .. " " .. layout .. ": " .. tostring(size))
        assert.is_true(size > 0)
      end
    end
  end)

  it("typedefs of CuPy's dtype names, float16 and complex arithmetic compile", function()
    local k = EK("float16 h, complex64 c, float32 f", "float16 ho, complex64 co, complex128 cd",
                 "ho = h * 3.25f + f; ho -= h; co = c * f + 1.0f; co *= 2.0f; " ..
                 "cd = complex128(real(c), imag(conj(c))); " ..
                 "int64 n = i; uint8 u = (uint8)n; float64 d = u; (void)d",
                 "types")
    assert.is_true(k:compile { "float16", "complex64", "float32" } > 0)
    local m = EK("float32 a, float64 d", "float32 z, float64 w",
                 "z = sqrtf(a) + expf(a) + fabsf(a); w = exp(d) + log1p(d) + pow(d, 2.0)", "mathfns")
    assert.is_true(m:compile { "float32", "float64" } > 0)   -- CUDA's math functions need no include
  end)

  it("a compile error is a Lua error with the NVRTC log and the numbered source", function()
    local k = EK("float32 a", "float32 z", "z = a +* ;", "broken")
    local msg = helper.assert_error(function() k:compile { "float32" } end,
      "ElementwiseKernel 'broken': NVRTC compile error in kernel 'broken'", "error", "z = a +* ;")
    assert.matches("\n%s+%d+ | ", msg)
    assert.matches("| extern \"C\" __global__ void __launch_bounds__(256) broken(", msg, 1, true)
  end)
end)

-- GPU ----------------------------------------------------------------------

local gpu_describe = helper.has_gpu() and describe or pending

gpu_describe("ElementwiseKernel on the GPU", function()
  local function tbl(x) return ga.asnumpy(x):totable() end

  it("fma3 matches the host (contiguous, vector path and tail)", function()
    local k = fma3()
    for _, n in ipairs { 1, 3, 4, 1000, 4099 } do
      local a, b = ga.arange(n, "float32"), ga.full(n, 0.5, "float32")
      local c = ga.ones(n, "float32")
      local z = k(a, b, c)
      assert.are.equal("float32", z.dtype)
      assert.are.equal(z.device, a.device)
      helper.assert_close(z, ga.host.arange(n, "float32") * 0.5 + 1)
      local out = ga.empty(n, "float32")
      assert.is_true(rawequal(out, k(a, b, c, out)))
      helper.assert_close(out, z)
    end
  end)

  it("broadcasts non-raw operands (NumPy rules) and accepts Lua numbers", function()
    local k = EK("T x, T y", "T z", "z = x * 10 + y", "bc")
    local col = ga.array({ { 1 }, { 2 }, { 3 } }, "float64")
    local row = ga.array({ { 1, 2, 3, 4 } }, "float64")
    local z = k(col, row)
    assert.are.same({ 3, 4 }, z.shape)
    assert.are.same({ { 11, 12, 13, 14 }, { 21, 22, 23, 24 }, { 31, 32, 33, 34 } }, tbl(z))
    assert.are.same({ 15, 25 }, tbl(k(ga.array({ 1, 2 }, "float64"), 5)))
    -- outputs take part in broadcasting (CuPy): inputs stretch to the output's shape
    local out = ga.empty({ 2, 3 }, "float64")
    k(ga.array({ 1, 2, 3 }, "float64"), 0.5, out)
    assert.are.same({ { 10.5, 20.5, 30.5 }, { 10.5, 20.5, 30.5 } }, tbl(out))
    helper.assert_error(function() k(ga.ones(3), ga.ones(4)) end, "could not be broadcast")
  end)

  it("transposed and broadcast layouts take the strided kernel and agree with the host", function()
    local k = EK("T x, T y", "T z", "z = x - y", "sub")
    local base = { { 1, 2, 3 }, { 4, 5, 6 } }
    for _, lay in ipairs(helper.layouts(ga, base, "float32")) do
      local h = ga.host.array(base, "float32")
      helper.assert_close(k(lay.x, ga.full({ 2, 3 }, 1, "float32")), h - 1)
    end
    local t = ga.array(helper.transpose(base), "int32").T
    assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, tbl(k(t, ga.array(base, "int32"))))
    local nr = EK("T x", "T z", "z = x + i", "nored", { reduce_dims = false })
    assert.are.same({ { 1, 3, 5 }, { 7, 9, 11 } }, tbl(nr(ga.array(base, "int64"))))
  end)

  it("raw arrays: flat C-order index in any layout, _ind.size(), size=", function()
    local rev = EK("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "rev")
    local x = ga.arange(5, "int32")
    assert.are.same({ 4, 3, 2, 1, 0 }, tbl(rev(x, ga.empty(5, "int32"))))
    local t = ga.array({ { 1, 3 }, { 2, 4 } }, "float32").T   -- logical {{1,2},{3,4}}
    assert.are.same({ 4, 3, 2, 1 }, tbl(rev(t, ga.empty(4, "float32"))))
    local fill = EK("raw T x, T v", "", "x[i] = v * i", "fillv")
    local buf = ga.zeros(6, "float64")
    fill(buf, 0.5, { size = 4 })
    assert.are.same({ 0, 0.5, 1, 1.5, 0, 0 }, tbl(buf))
    local iota = EK("", "int64 y", "y = i", "iota")
    assert.are.same({ 0, 1, 2 }, tbl(iota({ size = 3 })))
    local g = EK("raw T x", "raw T y", "y[i] = x[i] + x.size()", "rawout")
    assert.are.same({ 3, 4, 5 }, tbl(g(ga.arange(3), { size = 3 })))
  end)

  it("several outputs, return_tuple, no_return; placeholder output dtype", function()
    local k = EK("T x", "T s, float64 h", "s = x + x; h = x / 2.0", "two")
    local s, h = k(ga.arange(3, "int16"))
    assert.are.equal("int16", s.dtype)
    assert.are.equal("float64", h.dtype)
    assert.are.same({ 0, 2, 4 }, tbl(s))
    assert.are.same({ 0, 0.5, 1 }, tbl(h))
    local kt = EK("T x", "T y", "y = x", "tup", { return_tuple = true })
    local r = kt(ga.arange(2, "int8"))
    assert.are.equal("table", type(r))
    assert.are.same({ 0, 1 }, tbl(r[1]))
    local kn = EK("T x", "T y", "y = x", "nr", { no_return = true })
    assert.are.equal(0, select("#", kn(ga.arange(2))))
  end)

  it("checks outputs given: shape, dtype, device", function()
    local k = fma3()
    local a = ga.ones(4, "float32")
    helper.assert_error(function() k(a, a, a, ga.empty(3, "float32")) end, "could not be broadcast")
    local a24 = ga.ones({ 2, 4 }, "float32")
    helper.assert_error(function() k(a24, a24, a24, ga.empty({ 1, 4 }, "float32")) end,
      "output #4 (z) has shape (1,4) but the loop has shape (2,4)")
    local o24 = ga.empty({ 2, 4 }, "float32")   -- inputs broadcast to a bigger output (CuPy)
    k(a, a, a, o24)
    assert.are.same({ { 2, 2, 2, 2 }, { 2, 2, 2, 2 } }, tbl(o24))
    helper.assert_error(function() k(a, a, a, ga.empty(4, "float64")) end,
      "output #4 (z) is float64 but the parameter is declared float32")
    helper.assert_error(function() k(a, a, a, ga.host.empty(4, "float32")) end,
      "arguments are on different devices")
  end)

  it("outputs the operation reads are loaded first; float16 and complex64 values", function()
    local acc = EK("T x", "T z", "z += x", "acc")
    local z = ga.full(9, 10, "float32")
    acc(ga.arange(9, "float32"), z)
    assert.are.same({ 10, 11, 12, 13, 14, 15, 16, 17, 18 }, tbl(z))
    local cond = EK("T x", "T z", "if (x > 2) z = x", "cond")
    local zc = ga.full(6, -1, "int32")
    cond(ga.arange(6, "int32"), zc)
    assert.are.same({ -1, -1, -1, 3, 4, 5 }, tbl(zc))
    local h = EK("float16 x", "float16 y", "y = x * 3.25f + 1.0f; y += 0.5f", "half")
    helper.assert_close(h(ga.arange(10, "float16")), ga.host.arange(10, "float16") * 3.25 + 1.5)
    local c = EK("complex64 x", "complex64 y", "y = x * x + 1.0f", "cplx")
    local xc = ga.asarray(ga.arange(4, "float32"), "complex64")
    local hc = ga.host.asarray(ga.host.arange(4, "float32"), "complex64")
    helper.assert_close(c(xc), hc * hc + 1)
  end)

  it("empty loops return empty outputs; a compile error is a Lua error at call time", function()
    local e = fma3()(ga.empty(0, "float32"), ga.empty(0, "float32"), ga.empty(0, "float32"))
    assert.are.equal(0, e.size)
    local bad = EK("T x", "T y", "y = undefined_thing(x)", "bad_call")
    helper.assert_error(function() bad(ga.ones(2)) end, "NVRTC compile error in kernel 'bad_call'", "undefined_thing")
  end)
end)
