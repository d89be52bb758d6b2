-- Read-only arrays (x.flags.writeable false) and user kernels: a RawKernel /
-- RawModule function takes one only for a parameter its source declares a
-- pointer to const (the declaration is parsed: comments, strings and
-- preprocessor lines ignored); an ElementwiseKernel takes one for a raw
-- input only when its texts only read it (x[...]); outputs of
-- ElementwiseKernel and ReductionKernel are never read-only.  The errors
-- name the function, the argument and the problem.  The parser runs
-- everywhere (core._raw_param_consts); the RawKernel launches need a GPU.
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core

local function readonly_of(x)
  return ga.from_dlpack(core._dlpack_export(x, true, 1, nil))   -- DLPACK_FLAG_BITMASK_READ_ONLY
end

local function refuses(f, ...)
  local ok, e = pcall(f)
  assert(not ok, "the call went through")
  e = tostring(e)
  assert(e:find("read-only", 1, true), e)
  for _, s in ipairs { ... } do assert(e:find(s, 1, true), "'" .. s .. "' not in: " .. e) end
end

describe("the parameter lists of RawKernel sources", function()
  local P = core._raw_param_consts
  it("pointer to const or not, per parameter", function()
    assert.are.same({ true, false, false },
      P([[extern "C" __global__ void k(const float* x, float *y, int n) {}]], "k"))
    local src = [[
// k(float *z): a comment
/* __global__ void k(float *q) */
#define K __global__ void k(float *m)
const char *s = "__global__ void k(float *w)";
extern "C" {
__device__ float k2(float a);
__global__ void k(float const * __restrict__ a, float * const b, const float * const * c,
                  float * const * d, unsigned long long e, ga_raw_c<const float> g, const S<float*> *h) { }
}]]
    assert.are.same({ true, false, true, true, false, false, true }, P(src, "k"))
    assert.are.same({}, P([[extern "C" __global__ void k(void) {}]], "k"))
    assert.are.same({}, P([[extern "C" __global__ void k() {}]], "k"))
    assert.is_nil(P([[__device__ void k(const float *a) {}]], "k"))      -- not a kernel
    assert.are.same({ false }, P([[__global__ void kk(const float *a) {} __global__ void k (float *b){}]], "k"))
    assert.are.same({ true, false },
      P("template <typename T>\n__global__ void k(const T *x, T *y) {}", "k"))
  end)
end)

helper.each_device(function(xp)
  describe("read-only arrays and ElementwiseKernel / ReductionKernel", function()
    it("a raw input that is only read takes a read-only array", function()
      local base = xp.arange(8, "float32")
      local r = readonly_of(base)
      local k = ga.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i] + x[i]", "ro_rev")
      local y = k(r, xp.zeros(8, "float32"))
      assert.are.same({ 7, 7, 7, 7, 7, 7, 7, 7 }, helper.totable(y))
      local k2 = ga.ElementwiseKernel("raw T x, int32 j", "T y", "y = (x[j] > 0) ? x[j] : T(0)", "ro_pick")
      assert.are.equal(3, k2(r, xp.array({ 3 }, "int32"), xp.zeros(1, "float32"))[1]:item())
    end)

    it("a raw input the kernel may write refuses a read-only array", function()
      local base = xp.arange(8, "float32")
      local r = readonly_of(base)
      local y = xp.zeros(8, "float32")
      local writes = {
        "x[i] = 1; y = 0",
        "x[i] += 1; y = 0",
        "y = x[i]++",
        "y = 0; atomicAdd(&x[i], T(1))",
        "y = 0; swap_it(x[i], y)",
        "T *p = x.p; y = p[i]",
      }
      for n, op in ipairs(writes) do
        local k = ga.ElementwiseKernel("raw T x", "T y", op, "ro_w" .. n)
        refuses(function() k(r, y) end, "argument #1 (x)", "raw parameter")
      end
      assert.is_true(ga.array_equal(base, xp.arange(8, "float32")))
      -- the same kernels take a writable array
      local k = ga.ElementwiseKernel("raw T x", "T y", "x[i] = 1; y = 0", "ro_w1")
      k(base, y)
      assert.are.equal(8, base:sum():item())
    end)

    it("outputs are never read-only (ElementwiseKernel, ReductionKernel)", function()
      local base = xp.arange(4, "float64")
      local r = readonly_of(xp.zeros(4, "float64"))
      refuses(function() ga.ElementwiseKernel("T x", "T y", "y = x", "ro_o")(base, r) end)
      local rs = readonly_of(xp.zeros({}, "float64"))
      refuses(function() ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "ro_sum")(base, rs) end)
    end)
  end)
end)

if helper.has_gpu() then
  describe("read-only arrays and RawKernel on a GPU", function()
    local src = [[
extern "C" __global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}]]
    it("a const pointer parameter takes a read-only array; a writable one refuses it", function()
      local base = ga.arange(64, "float32")
      local r = readonly_of(base)
      local y = ga.zeros(64, "float32")
      local k = ga.RawKernel(src, "scale")
      k(1, 64, { r, y, ga.scalar(2, "float32"), ga.scalar(64, "int32") })
      assert.are.equal(2 * 63 * 64 / 2, y:sum():item())
      local ry = readonly_of(ga.zeros(64, "float32"))
      refuses(function() k(1, 64, { base, ry, ga.scalar(2, "float32"), ga.scalar(64, "int32") }) end,
        "RawKernel 'scale'", "args[2]", "float *y", "not a pointer to const")
      -- RawModule functions alike
      local m = ga.RawModule { code = src }
      local args = { base, ry, ga.scalar(2, "float32"), ga.scalar(64, "int32") }
      refuses(function() m:get_function("scale")(1, 64, args) end, "args[2]")
      assert.are.equal(0, ry:sum():item())
    end)

    it("a declaration the parser cannot see refuses read-only arrays", function()
      local msrc = [[
#define KERNEL(name) extern "C" __global__ void name(const float *x, float *y)
KERNEL(copy1) { y[threadIdx.x] = x[threadIdx.x]; }]]
      local r = readonly_of(ga.ones(4, "float32"))
      refuses(function() ga.RawKernel(msrc, "copy1")(1, 4, { r, ga.zeros(4, "float32") }) end,
        "args[1]", "was not found")
    end)
  end)
end
