-- ga.RawKernel, ga.RawModule and ga.scalar: compiling (no GPU needed),
-- bad inputs, and launches where a GPU exists.
local helper = require "spec.helper"
local ga = helper.ga

local SAXPY = [[
extern "C" __global__ void saxpy(float a, const float *x, float *y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}]]

describe("ga.scalar", function()
  it("holds a value of a dtype", function()
    for _, row in ipairs {
      { 5, "int32", 5 }, { -3, "int8", -3 }, { 200, "uint8", 200 }, { 2.0, "int64", 2 },
      { 0.5, "float32", 0.5 }, { 1, "float64", 1.0 }, { true, "bool", true }, { 0.25, "float16", 0.25 },
    } do
      local s = ga.scalar(row[1], row[2])
      assert.are.equal(row[2], s.dtype)
      assert.are.equal(row[3], s.value)
    end
    local c = ga.scalar({ 1, 2 }, "complex64")
    assert.are.equal(1, c.value)
    assert.are.equal(2, c.imag)
    assert.are.equal("scalar(5, int32)", tostring(ga.scalar(5, "int32")))
  end)
  it("refuses bad values and dtypes", function()
    helper.assert_error(function() ga.scalar(300, "int8") end, "scalar:", "out of range for int8")
    helper.assert_error(function() ga.scalar(2.5, "int32") end, "scalar:", "not an integer")
    helper.assert_error(function() ga.scalar(1) end, "scalar:", "dtype is required")
    helper.assert_error(function() ga.scalar("x", "int32") end, "scalar:", "number or boolean")
    helper.assert_error(function() ga.scalar(1, "nope") end, "scalar:")
  end)
end)

describe("ga.RawKernel compiles without a GPU", function()
  it("compiles, with extra NVRTC options, for several archs", function()
    local k = ga.RawKernel(SAXPY, "saxpy")
    assert.are.equal("saxpy", k.name)
    assert.are.equal(SAXPY, k.code)
    for _, arch in ipairs { 75, 80, 90 } do
      local size, is_ptx = k:compile { arch = arch }
      assert.is_true(size > 0)
      assert.are.equal("boolean", type(is_ptx))
    end
    local d = ga.RawKernel('extern "C" __global__ void f(float *y) { y[0] = N * M; }', "f",
                           { options = { "-DN=3", "-DM=2" } })
    assert.are.same({ "-DN=3", "-DM=2" }, d.options)
    assert.is_true(d:compile() > 0)
    local std = ga.RawKernel('extern "C" __global__ void f(int *y) { y[0] = 1; }', "f",
                             { options = { "-std=c++14" } })
    assert.is_true(std:compile() > 0)
  end)
  it("reports compile errors with the NVRTC log and the numbered source", function()
    local k = ga.RawKernel('extern "C" __global__ void f(float *y) {\n  y[0] = undefined_thing;\n}', "f")
    local msg = helper.assert_error(function() k:compile() end, "RawKernel 'f'", "NVRTC compile error",
                                    "undefined_thing", "source:", "   2 |   y[0] = undefined_thing;")
    assert.is_truthy(msg:find("is undefined", 1, true))
    -- a missing -D shows up as an error too
    local d = ga.RawKernel('extern "C" __global__ void f(float *y) { y[0] = N; }', "f")
    helper.assert_error(function() d:compile() end, "NVRTC compile error", "identifier \"N\" is undefined")
  end)
  it("refuses bad constructor arguments", function()
    helper.assert_error(function() ga.RawKernel(nil, "f") end, "RawKernel 'f'", "code must be a string")
    helper.assert_error(function() ga.RawKernel("x", 3) end, "RawKernel", "name must be a string")
    helper.assert_error(function() ga.RawKernel("x", "f", 5) end, "RawKernel 'f'", "options must be a table")
    helper.assert_error(function() ga.RawKernel("x", "f", { bogus = 1 }) end, "unknown option 'bogus'")
    helper.assert_error(function() ga.RawKernel("x", "f", { backend = "nvcc" }) end, "backend must be \"nvrtc\"")
    helper.assert_error(function() ga.RawKernel("x", "f", { options = "-DN=1" }) end, "table of NVRTC flags")
    helper.assert_error(function() ga.RawKernel("x", "f", { options = { 1 } }) end, "NVRTC option 1")
    helper.assert_error(function() ga.RawKernel("x", "f", { translate_cucomplex = true }) end,
                        "translate_cucomplex is not supported")
    assert.is_truthy(ga.RawKernel("x", "f", { translate_cucomplex = false, backend = "nvrtc" }))
  end)
end)

describe("ga.RawModule compiles without a GPU", function()
  local CODE = [[
extern "C" __global__ void fill(float *y, float v) { y[threadIdx.x] = v; }
extern "C" __global__ void scale(float *y, float a) { y[threadIdx.x] *= SCALE * a; }
]]
  it("compiles and hands out functions", function()
    local m = ga.RawModule { code = CODE, options = { "-DSCALE=2" } }
    assert.are.equal(CODE, m.code)
    assert.is_true(m:compile() > 0)
    local f = m:get_function("scale")
    assert.are.equal("scale", f.name)
    assert.are.equal(m, f.module)
    assert.is_true(f:compile { arch = 80 } > 0)
  end)
  it("reads source from a path", function()
    local p = os.tmpname() .. ".cu"
    local fh = assert(io.open(p, "w"))
    fh:write(CODE)
    fh:close()
    local m = ga.RawModule { path = p, options = { "-DSCALE=3" } }
    assert.is_true(m:compile() > 0)
    os.remove(p)
  end)
  it("reports compile errors and bad inputs", function()
    local m = ga.RawModule { code = CODE }
    helper.assert_error(function() m:compile() end, "RawModule", "NVRTC compile error", "SCALE", "   2 | ")
    helper.assert_error(function() ga.RawModule("x") end, "RawModule", "expects a table")
    helper.assert_error(function() ga.RawModule {} end, "RawModule", "code must be a string")
    helper.assert_error(function() ga.RawModule { code = "x", path = "y" } end, "code or path, not both")
    helper.assert_error(function() ga.RawModule { path = "/nonexistent/k.cu" } end, "cannot open")
    helper.assert_error(function() ga.RawModule { code = "x", name_expressions = { "f<int>" } } end,
                        "name_expressions are not supported")
    helper.assert_error(function() m:get_function(3) end, "name must be a string")
  end)
end)

describe("ga.RawKernel launches", function()
  if not helper.has_gpu() then
    it("needs a GPU", function() pending("no GPU: only compiling is checked") end)
    return
  end

  it("runs saxpy against host math", function()
    local k = ga.RawKernel(SAXPY, "saxpy")
    local n = 1000
    local x = ga.arange(n, "float32") / 7
    local y = ga.ones(n, "float32")
    local hx, hy = ga.asnumpy(x), ga.asnumpy(y)
    k(math.ceil(n / 128), 128, { ga.scalar(2.5, "float32"), x, y, n })
    helper.assert_close(y, hx * 2.5 + hy)
  end)

  it("takes typed scalars of several dtypes", function()
    local k = ga.RawKernel([[
extern "C" __global__ void pack(double *out, signed char a, short b, int c, long long d, unsigned char e,
                                unsigned int f, float g, double h, bool i, double lua_float, long long lua_int) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = (double)d; out[4] = e; out[5] = f; out[6] = g; out[7] = h;
  out[8] = i ? 1 : 0; out[9] = lua_float; out[10] = (double)lua_int;
}]], "pack")
    local out = ga.zeros(11, "float64")
    k(1, 1, { out, ga.scalar(-5, "int8"), ga.scalar(-300, "int16"), ga.scalar(70000, "int32"),
              ga.scalar(1 << 40, "int64"), ga.scalar(250, "uint8"), ga.scalar(4000000000, "uint32"),
              ga.scalar(0.5, "float32"), ga.scalar(0.1, "float64"), true, 2.25, 7 })
    assert.are.same({ -5, -300, 70000, 2 ^ 40, 250, 4000000000, 0.5, 0.1, 1, 2.25, 7 }, out:get():totable())
  end)

  it("uses dynamic shared memory", function()
    local k = ga.RawKernel([[
extern "C" __global__ void rev(const float *x, float *y, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  y[t] = s[n - 1 - t];
}]], "rev")
    local x = ga.arange(256, "float32")
    local y = ga.empty(256, "float32")
    k(1, 256, { x, y, ga.scalar(256, "int32") }, { shared_mem = 256 * 4 })
    helper.assert_close(y, ga.host.arange(255, -1, -1, "float32"))
    -- above the 48 KiB default (the kernel is opted in)
    local big = ga.RawKernel([[
extern "C" __global__ void touch(float *y, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) y[0] = s[n - 1];
}]], "touch")
    local z = ga.zeros(1, "float32")
    big(1, 128, { z, ga.scalar(16384, "int32") }, { shared_mem = 16384 * 4 })
    assert.are.equal(16383, z:get():item())
  end)

  it("runs a 2-D grid of 2-D blocks", function()
    local k = ga.RawKernel([[
extern "C" __global__ void idx(int *out, int w, int h) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < h && c < w) out[r * w + c] = r * 1000 + c;
}]], "idx")
    local w, h = 37, 21
    local out = ga.zeros({ h, w }, "int32")
    k({ math.ceil(w / 16), math.ceil(h / 8) }, { 16, 8 }, { out, ga.scalar(w, "int32"), ga.scalar(h, "int32") })
    local t = out:get():totable()
    for r = 1, h do for c = 1, w do assert.are.equal((r - 1) * 1000 + (c - 1), t[r][c]) end end
  end)

  it("orders with built-in ops on the same stream", function()
    local k = ga.RawKernel([[
extern "C" __global__ void setv(float *y, float v, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}]], "setv")
    local n = 1 << 20
    local y = ga.zeros(n, "float32")
    for v = 1, 40 do   -- more launches than one batch holds
      k(n // 256, 256, { y, ga.scalar(v, "float32"), n })
      y = y + 1
    end
    local t = y:get():totable()
    for i = 1, n do
      if t[i] ~= 41 then assert.are.equal(41, t[i], "element " .. i) end
    end
  end)

  it("shares a module between functions", function()
    local m = ga.RawModule { code = [[
extern "C" __global__ void fill(float *y, float v) { y[threadIdx.x] = v; }
extern "C" __global__ void scale(float *y, float a) { y[threadIdx.x] *= SCALE * a; }
]], options = { "-DSCALE=2" } }
    local y = ga.empty(3, "float32")
    m:get_function("fill")(1, 3, { y, ga.scalar(1.5, "float32") })
    m:get_function("scale")(1, 3, { y, ga.scalar(2, "float32") })
    assert.are.same({ 6, 6, 6 }, y:get():totable())
  end)

  it("reports launch errors as Lua errors", function()
    local k = ga.RawKernel(SAXPY, "saxpy")
    local x, y = ga.ones(4, "float32"), ga.ones(4, "float32")
    local args = { ga.scalar(1, "float32"), x, y, 4 }
    helper.assert_error(function() k(1, 4096, args) end, "RawKernel 'saxpy'",
      "block x dimension 4096 exceeds the device's maximum")
    helper.assert_error(function() k(1, { 32, 32, 2 }, args) end, "RawKernel 'saxpy'", "too large")
    helper.assert_error(function() k(1, { 1, 1, 128 }, args) end, "block z dimension")
    helper.assert_error(function() k(1, 4, args, { shared_mem = 1 << 30 }) end, "shared_mem")
    helper.assert_error(function() k(0, 4, args) end, "grid must be positive")
    helper.assert_error(function() k(1, { 1, 2, 3, 4 }, args) end, "block must be an integer or a table")
    helper.assert_error(function() k(1, 4, 5) end, "args must be a table")
    helper.assert_error(function() k(1, 4, { "s" }) end, "args[1] must be an ndarray")
    helper.assert_error(function() k(1, 4, { 1, ga.host.ones(4, "float32") }) end, "args[2] is a host array")
    helper.assert_error(function() k(1, 4, args, { bogus = 1 }) end, "unknown option 'bogus'")
    helper.assert_error(function() k(1, 4, args, { stream = 1 }) end, "stream must be a ga.cuda.Stream")
    local z = ga.ones(4, "float32")
    z:free()
    helper.assert_error(function() k(1, 4, { 1, z, y, 4 }) end, "args[2]: array has been freed")
    local missing = ga.RawKernel(SAXPY, "nosuch")
    helper.assert_error(function() missing(1, 4, args) end, "RawKernel 'nosuch'", "no kernel named 'nosuch'",
                        "extern \"C\"")
    local bad = ga.RawKernel('extern "C" __global__ void f(float *y) { y[0] = nope; }', "f")
    helper.assert_error(function() bad(1, 1, { y }) end, "RawKernel 'f'", "NVRTC compile error", "   1 | ")
    -- the device still works afterwards
    k(1, 4, args)
    assert.are.same({ 2, 2, 2, 2 }, y:get():totable())
  end)

  it("launches on a given stream", function()
    local k = ga.RawKernel(SAXPY, "saxpy")
    local s = ga.cuda.Stream { non_blocking = true }
    local x, y = ga.ones(8, "float32"), ga.ones(8, "float32")
    -- a non-blocking stream does not wait for the default stream's work
    -- (CUDA's and CuPy's rule): the inputs must be ready before the launch
    ga.cuda.Device():synchronize()
    k(1, 8, { ga.scalar(3, "float32"), x, y, 8 }, { stream = s })
    s:synchronize()
    assert.are.same({ 4, 4, 4, 4, 4, 4, 4, 4 }, y:get():totable())
  end)
end)
