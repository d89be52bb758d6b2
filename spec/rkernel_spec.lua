-- ga.ReductionKernel (CuPy's user-defined reductions).
--
-- Everywhere (CI has no GPU): construction and its errors (the identity
-- checked), call checks that need no device, and NVRTC compiles of every
-- kernel shape (ROW vector/strided, COL, the combining kernels) for every
-- dtype through k:compile (virtual arrays).  With a GPU: results against
-- the host's built-in reductions, broadcasting, axes, keepdims, out=,
-- empty reductions, float16, Lua scalars.
local helper = require "spec.helper"
local ga = helper.ga
local RK = ga.ReductionKernel

local function sumsq() return RK("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq") end
local function dot() return RK("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "dot") end
local function amax() return RK("T x", "T y", "x", "a > b ? a : b", "y = a", nil, "amax") end

describe("ReductionKernel: construction", function()
  it("exposes CuPy's attributes and defaults", function()
    local k = RK("T x, float32 w", "T y", "x * w", "a + b", "y = a", "0", "wsum",
                 { reduce_type = "float64", preamble = "// pre", reduce_dims = false })
    assert.are.equal(2, k.nin)
    assert.are.equal(1, k.nout)
    assert.are.equal(3, k.nargs)
    assert.are.equal("wsum", k.name)
    assert.are.equal("x * w", k.map_expr)
    assert.are.equal("a + b", k.reduce_expr)
    assert.are.equal("y = a", k.post_map_expr)
    assert.are.equal("0", k.identity)
    assert.are.equal("float64", k.reduce_type)
    assert.are.equal("// pre", k.preamble)
    assert.is_false(k.reduce_dims)
    assert.are.equal("<ReductionKernel 'wsum'>", tostring(k))
    local d = amax()
    assert.is_nil(d.identity)
    assert.are.equal("T", d.reduce_type)   -- the first output's type
    assert.are.equal("", d.preamble)
    assert.are.equal("reduce_kernel", RK("T x", "T y", "x", "a + b", "y = a", 0).name)
    assert.are.equal("1.5", RK("T x", "T y", "x", "a + b", "y = a", 1.5).identity)
    assert.are.equal("nm", RK("T x", "T y", "x", "a + b", "y = a", 0, { name = "nm" }).name)
  end)

  local bad = {
    { { "T x", "T y", "x", "a + b", "y = a", "" }, "identity '' is empty" },
    { { "T x", "T y", "x", "a + b", "y = a", "  " }, "is empty (pass nil" },
    { { "T x", "T y", "x", "a + b", "y = a", "0; y = 1" }, "identity '0; y = 1' does not parse: ';'" },
    { { "T x", "T y", "x", "a + b", "y = a", "(1" }, "identity '(1' does not parse: unclosed '('" },
    { { "T x", "T y", "x", "a + b", "y = a", "1)" }, "does not parse: unbalanced ')'" },
    { { "T x", "T y", "x", "a + b", "y = a", "{0}" }, "does not parse: '{'" },
    { { "T x", "T y", "x", "a + b", "y = a", "0 // c" }, "comments are not allowed" },
    { { "T x", "T y", "x", "a + b", "y = a", "'a" }, "unterminated literal" },
    { { "raw T x", "T y", "x[0]", "a + b", "y = a", "0" }, "parameter 'x' is raw" },
    { { "T x", "", "x", "a + b", "", "0" }, "out_params is empty" },
    { { "", "float32 y", "1", "a + b", "y = a", "0" }, "in_params is empty" },
    { { "T a", "T y", "a", "a + b", "y = a", "0" }, "'a' cannot be a parameter name" },
    { { "T x", "T b", "x", "a + b", "b = a", "0" }, "'b' cannot be a parameter name" },
    { { "T x", "T y", "x", "a + b", "y = a", "0", "k", { reduce_type = "U" } },
      "reduce_type 'U' is neither" },
    { { "T x", "T y", "x", "a + b", "y = a", "0", "k", { bogus = 1 } }, "unknown option 'bogus'" },
    { { "float x", "T y", "x", "a + b", "y = a", "0" },
      "in_params: type 'float' of parameter 'x' is not a dtype name" },
    { { "T x", "T y", "x", "a + b", "y = a", "0", "1bad" }, "invalid kernel name '1bad'" },
    { { "T x", "T y", nil, "a + b", "y = a", "0" }, "map_expr must be a string, got nil" },
    { { "T x", "T y", "x", "a + b", "y = a", {} }, "identity must be a string, got table" },
  }
  for _, row in ipairs(bad) do
    it("refuses: " .. row[2], function()
      local args = row[1]
      helper.assert_error(function() RK(table.unpack(args, 1, 8)) end, "ReductionKernel: ", row[2])
    end)
  end
end)

describe("ReductionKernel: call checks without a device", function()
  local h = ga.host.ones(4, "float32")
  it("host arrays run (compiled by the system C++ compiler, as ElementwiseKernel's)", function()
    assert.are.equal(4, sumsq()(h):item())
  end)
  it("wrong argument counts", function()
    helper.assert_error(function() dot()(h) end, "ReductionKernel 'dot': takes 2 arguments (the inputs) or 3")
    helper.assert_error(function() sumsq()() end, "takes 1 argument (the inputs) or 2 (inputs and outputs), got 0")
  end)
  it("unknown call options and bad option values", function()
    helper.assert_error(function() sumsq()(h, { axes = 1 }) end, "axes")
    helper.assert_error(function() sumsq()(h, { axis = "1" }) end, "axis must be an integer or a table of integers")
    helper.assert_error(function() sumsq()(h, { keepdims = 1 }) end, "keepdims must be a boolean")
    helper.assert_error(function() sumsq()(h, ga.host.ones(1), { out = h }) end, "cannot give the output both")
    helper.assert_error(function() sumsq()(h, "x") end, "argument #2 (y): ndarray, number or boolean expected")
  end)
end)

describe("ReductionKernel: generated source and NVRTC compiles (no GPU)", function()
  local dtypes = { "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                   "float32", "float64", "complex64", "complex128" }
  -- every kernel shape: ROW vector (full and last axis), ROW strided
  -- (transposed), COL (first axis), keepdims, and the combining kernels
  local shapes = {
    { name = "full, split", opts = { shape = { 1 << 20 } }, second = true },
    { name = "last axis", opts = { shape = { 64, 1024 }, axis = 2 } },
    { name = "transposed", opts = { shape = { 64, 1024 }, layout = "transposed", axis = -1 } },
    { name = "first axis (COL)", opts = { shape = { 4096, 256 }, axis = 1 }, second = true },
    { name = "keepdims, axis list", opts = { shape = { 8, 16, 32 }, axis = { 1, 3 }, keepdims = true } },
  }
  local k = RK("T x", "T y", "x + x", "a + b", "y = a", "0", "twice")
  for _, dt in ipairs(dtypes) do
    it("compiles every kernel shape for " .. dt, function()
      for _, s in ipairs(shapes) do
        local n = k:compile({ dt }, s.opts)
        assert.is_true(n > 0, s.name)
        if s.second then
          local o = {}
          for key, v in pairs(s.opts) do o[key] = v end
          o.second = true
          assert.is_true(k:compile({ dt }, o) > 0, s.name .. " (combining kernel)")
        end
      end
    end)
  end

  it("two inputs, scalars, no identity, float16 in float32, several outputs", function()
    assert.is_true(dot():compile({ "float32", "float32" }, { shape = { 1000, 1000 }, axis = 1 }) > 0)
    assert.is_true(dot():compile({ "float64", 2.5 }, { shape = { 1 << 16 } }) > 0)
    assert.is_true(amax():compile({ "int32" }, { shape = { 4096, 64 }, axis = 1 }) > 0)
    assert.is_true(amax():compile({ "float32" }, { shape = { 1 << 20 }, second = true }) > 0)
    local l2 = RK("T x", "float32 y", "x * x", "a + b", "y = sqrt(a)", 0, "l2", { reduce_type = "float32" })
    assert.is_true(l2:compile({ "float16" }) > 0)
    local mm = RK("T x", "T lo, T hi, int64 n", "x", "a + b",
                  "lo = a / _in_ind.size() * _out_ind.size(); hi = a; n = _in_ind.size()", "0", "stats")
    assert.is_true(mm:compile({ "float32" }, { axis = 2 }) > 0)
  end)

  it("the source shows the user's expressions and CuPy's names", function()
    local src = dot():source { "float32", "float32" }
    assert.matches("typedef float T;", src, 1, true)
    assert.matches("typedef float _type_reduce;", src, 1, true)
    assert.matches("x * y", src, 1, true)
    assert.matches("a + b", src, 1, true)
    assert.matches("z = a", src, 1, true)
    assert.matches("__global__ void __launch_bounds__(256) dot(", src, 1, true)
    assert.matches("ga_vec<T, 4>", src, 1, true)   -- the vector path
    helper.assert_error(function() dot():source { "float32", "float64" } end, "type placeholder T is float32")
    assert.is_string(dot():source({ "float32", "float32" }, { shape = { 0 } }))   -- the identity
    helper.assert_error(function() amax():source({ "float32" }, { shape = { 0, 3 }, axis = 1 }) end,
                        "zero-size array to reduction operation amax which has no identity")
    helper.assert_error(function() sumsq():source({ "float32" }, { axis = 3 }) end, "axis 3 is out of bounds")
    helper.assert_error(function() sumsq():source({ "float32" }, { axis = { 1, 1 } }) end, "repeated axis 1")
  end)

  it("an identity NVRTC rejects is named, with the log and the numbered source", function()
    local k2 = RK("T x", "T y", "x", "a + b", "y = a", "1 +", "badid")
    helper.assert_error(function() k2:compile { "float32" } end,
                        "ReductionKernel 'badid': identity '1 +' does not parse as a value of the reduce type")
    local ok, e = pcall(k2.compile, k2, { "float32" })
    assert.is_false(ok)
    assert.matches("error", e)
    assert.matches("return (_type_reduce)(1 +); // _ga_identity", e, 1, true)
    local k3 = RK("T x", "T y", "x", "a + b", "y = a", "no_such_name", "badid2")
    helper.assert_error(function() k3:compile { "float32" } end, "identity 'no_such_name' does not parse")
  end)

  it("a bad reduce expression is an NVRTC error with the log and the numbered source", function()
    local k2 = RK("T x", "T y", "x", "a +* b", "y = a", "0", "badr")
    local ok, e = pcall(k2.compile, k2, { "float32" })
    assert.is_false(ok)
    assert.matches("ReductionKernel 'badr': NVRTC compile error", e, 1, true)
    assert.matches("a +* b", e, 1, true)
    assert.matches("source:\n", e, 1, true)
    assert.matches("%d+ | ", e)
    assert.not_matches("identity", e:match("^[^\n]*"))
  end)
end)

local gpu_describe = helper.has_gpu() and describe or pending

gpu_describe("ReductionKernel on the GPU", function()
  local H = ga.host
  local function data(shape, dtype)
    local n = 1
    for _, s in ipairs(shape) do n = n * s end
    return (H.arange(n, "float64") % 7 - 3):astype(dtype):reshape(shape)
  end

  it("sum of squares: full, every axis, keepdims, layouts, dtypes (against the host)", function()
    for _, dt in ipairs { "float32", "float64", "int32", "int64" } do
      local hx = data({ 6, 50, 33 }, dt)
      local x = ga.asarray(hx)
      local k = sumsq()
      for _, axis in ipairs { false, 1, 2, 3, -1, { 1, 3 }, { 1, 2, 3 } } do
        local opts = { axis = axis or nil }
        local r = k(x, opts)
        assert.are.equal(dt, r.dtype)
        local ref = (hx * hx):sum { axis = axis or nil, dtype = dt }
        helper.assert_close(r, ref)
        local rk = k(x, { axis = axis or nil, keepdims = true })
        helper.assert_close(rk, (hx * hx):sum { axis = axis or nil, keepdims = true, dtype = dt })
      end
      -- transposed and stepped inputs
      helper.assert_close(k(x:transpose(), { axis = 1 }), (hx * hx):transpose():sum { axis = 1, dtype = dt })
      local step = { {}, { 1, -1, 2 } }
      helper.assert_close(k(x[step], { axis = 2 }), (hx * hx)[step]:sum { axis = 2, dtype = dt })
    end
  end)

  it("long reductions (split) and leading axes (COL) match the host", function()
    local hx = data({ 1 << 20 }, "float32")
    helper.assert_close(sumsq()(ga.asarray(hx)), (hx * hx):sum(), { rtol = 1e-5 })
    local hm = data({ 4096, 256 }, "float32")
    helper.assert_close(sumsq()(ga.asarray(hm), { axis = 1 }), (hm * hm):sum { axis = 1 })
    helper.assert_close(sumsq()(ga.asarray(hm), { axis = 2 }), (hm * hm):sum { axis = 2 })
    -- the same bits every run
    local x = ga.asarray(hx)
    assert.are.same(sumsq()(x):item(), sumsq()(x):item())
  end)

  it("dot of two arrays with broadcasting, and Lua scalars", function()
    local ha, hb = data({ 5, 40 }, "float64"), data({ 40 }, "float64")
    local r = dot()(ga.asarray(ha), ga.asarray(hb), { axis = 2 })
    helper.assert_close(r, (ha * hb):sum { axis = 2 })
    assert.are.same({ 5 }, r.shape)
    helper.assert_close(dot()(ga.asarray(ha), 2.0), (ha * 2):sum())
    local x = ga.arange(6, "float32"):reshape(2, 3)
    assert.are.equal(55, dot()(x, x):item())
  end)

  it("max without identity; empty axes: identity or CuPy's error", function()
    local hx = data({ 7, 9 }, "float32")
    helper.assert_close(amax()(ga.asarray(hx), { axis = 1 }), hx:max { axis = 1 })
    helper.assert_close(amax()(ga.asarray(-hx - 10)), (-hx - 10):max())
    local e = ga.zeros({ 0, 3 }, "float32")
    helper.assert_close(sumsq()(e, { axis = 1 }), H.zeros(3, "float32"))
    assert.are.equal(0, sumsq()(e):item())
    assert.are.same({ 0 }, amax()(e, { axis = 2 }).shape)   -- nothing to reduce into
    helper.assert_error(function() amax()(e, { axis = 1 }) end,
                        "zero-size array to reduction operation amax which has no identity")
  end)

  it("output dtype from the placeholder or the declaration; float16 input; out=", function()
    local l2 = RK("T x", "float32 y", "x * x", "a + b", "y = sqrt(a)", 0, "l2", { reduce_type = "float32" })
    local r = l2(ga.asarray({ 3, 4 }, "float16"))
    assert.are.equal("float32", r.dtype)
    assert.are.equal(5, r:item())
    local h16 = data({ 3, 1000 }, "float16")
    local s = RK("T x", "T y", "x", "a + b", "y = a", 0, "s16", { reduce_type = "float32" })
    local r16 = s(ga.asarray(h16), { axis = 2 })
    assert.are.equal("float16", r16.dtype)
    helper.assert_close(r16, h16:sum { axis = 2 })
    local out = ga.empty(3, "float16")
    assert.is_true(rawequal(out, s(ga.asarray(h16), { axis = 2, out = out })))
    helper.assert_close(out, r16)
    helper.assert_error(function() s(ga.asarray(h16), { axis = 2, out = ga.empty(4, "float16") }) end,
                        "has shape (4,) but the reduction's output has shape (3,)")
    helper.assert_error(function() s(ga.asarray(h16), { axis = 2, out = ga.empty(3, "float32") }) end,
                        "type placeholder T is float32")
  end)

  it("several outputs, _in_ind/_out_ind sizes", function()
    local mm = RK("T x", "T mean, T total", "x", "a + b",
                  "mean = a / _in_ind.size() * _out_ind.size(); total = a", "0", "stats")
    local hx = data({ 4, 10 }, "float64")
    local m, t = mm(ga.asarray(hx), { axis = 2 })
    helper.assert_close(m, hx:mean { axis = 2 })
    helper.assert_close(t, hx:sum { axis = 2 })
  end)

  it("bad inputs on the GPU: mixed devices, bad reduce expression", function()
    helper.assert_error(function() dot()(ga.ones(3, "float32"), ga.host.ones(3, "float32")) end,
                        "arguments are on different devices (#1 x on cuda:0, #2 y on cpu)")
    local k = RK("T x", "T y", "x", "a +* b", "y = a", "0", "badr")
    helper.assert_error(function() k(ga.ones(3, "float32")) end, "NVRTC compile error")
  end)
end)

-- Host arrays: map/reduce/post compiled as C++ (src/host/ga_host_redk.c).
describe("ReductionKernel on host arrays", function()
  local H = ga.host
  it("full and axis reductions, keepdims, scalars, reduce_type, no identity, against built-in ops", function()
    local x = H.arange(12.0):reshape({ 3, 4 })
    helper.assert_close(sumsq()(x), (x * x):sum())
    helper.assert_close(sumsq()(x, { axis = 2 }), (x * x):sum({ axis = 2 }))
    helper.assert_close(sumsq()(x.T, { axis = 1, keepdims = true }), (x.T * x.T):sum({ axis = 1, keepdims = true }))
    local mx = RK("T x", "T y", "x", "max(a, b)", "y = a", nil, "mymax_h")
    assert.are.equal(9, mx(H.array({ 3, 9, -1 }):astype("float32")):item())
    helper.assert_error(function() mx(H.empty(0)) end,
      "zero-size array to reduction operation mymax_h which has no identity")
    local l2 = RK("T x, T w", "float64 y", "x * w", "a + b", "y = sqrt(a)", "0", "l2w_h", { reduce_type = "float64" })
    helper.assert_close(l2(x, 2.0), ((x * 2):sum()) ^ 0.5)
    local i8 = H.arange(100):astype("int8")
    local s8 = RK("T x", "int64 y", "x", "a + b", "y = a", "0", "s8_h", { reduce_type = "int64" })
    assert.are.equal(4950, s8(i8):item())
    helper.assert_close(sumsq()(H.zeros({ 0, 3 }), { axis = 1 }), H.zeros(3))
  end)
  it("the GPU agrees with the host", function()
    if not helper.has_gpu() then return end
    helper.assert_gpu_vs_host(function(xp)
      return sumsq()(xp.arange(60.0):reshape({ 3, 4, 5 }), { axis = { 1, 3 } })
    end)
  end)
end)
