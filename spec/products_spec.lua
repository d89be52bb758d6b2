-- ga.matmul with NumPy's rules and the products of lua/gpuarray/products.lua
-- (dot vdot inner outer tensordot kron cross trace multi_dot matrix_power,
-- ga.linalg.matmul/matrix_transpose/vecdot) on every device: against NumPy 2
-- (spec/data/products_ref.lua, made by tools/gen_products_ref.py) for every
-- shape rule and dtype, integer wrap-around included; layouts (transposed,
-- stepped, negative strides, broadcast batches); out=; the GPU against the
-- host; the product kernel compiled with NVRTC for every dtype; bad inputs.
-- einsum has its own file (spec/einsum_spec.lua).
local helper = require "spec.helper"
local ga = helper.ga
local REF = require "spec.data.products_ref"

local decode = helper.decode_ref

local TOL = { float16 = 2e-3, float32 = 1e-5, complex64 = 1e-5, float64 = 1e-12, complex128 = 1e-12 }

local function flat(x)
  local t = ga.asnumpy(x):ravel():tolist()
  if type(t) ~= "table" then t = { t } end
  return t
end

local function check(id, got, want)
  assert.is_truthy(ga.core.ndarray_mt == getmetatable(got), id .. ": not an array")
  assert.are.equal(want.dtype, got.dtype, id .. ": dtype")
  assert.are.same(want.shape, got.shape, id .. ": shape")
  local parts
  if want.dtype == "uint64" then
    parts = { { flat(got:astype("int64")), want.re } }
  elseif want.im then
    parts = { { flat(got.real), want.re }, { flat(got.imag), want.im } }
  else
    parts = { { flat(got), want.re } }
  end
  local tol = TOL[want.dtype] or 0
  for _, p in ipairs(parts) do
    for i, w in ipairs(p[2]) do
      local g = p[1][i]
      local ok = g == w or (tol > 0 and math.abs(g - w) <= tol * math.max(1, math.abs(w)))
      if not ok then error(("%s: element %d is %s, NumPy %s"):format(id, i, tostring(g), tostring(w))) end
    end
  end
end

-- the same values, as a fresh C-contiguous array
local function same(x) return x:copy() end

local assert_equal_arrays
function assert_equal_arrays(a, b, tol)
  assert.are.same(a.shape, b.shape)
  assert.are.equal(a.dtype, b.dtype)
  if a.dtype == "complex64" or a.dtype == "complex128" then
    assert_equal_arrays(a.real, b.real, tol)
    return assert_equal_arrays(a.imag, b.imag, tol)
  end
  if a.dtype == "uint64" then a, b = a:astype("int64"), b:astype("int64") end
  local fa, fb = flat(a), flat(b)
  for i = 1, #fa do
    local ok = fa[i] == fb[i] or (tol and math.abs(fa[i] - fb[i]) <= tol * math.max(1, math.abs(fb[i])))
    if not ok then error(("element %d: %s vs %s"):format(i, tostring(fa[i]), tostring(fb[i]))) end
  end
end

-- deterministic small integers in [-3, 3] of dtype dt and shape
local function ints(xp, shape, dt, seed)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  local v = {}
  for i = 1, n do v[i] = ((i * 7 + (seed or 0) * 13 + i * i) % 7) - 3 end
  if dt == "bool" then
    for i = 1, n do v[i] = v[i] > 0 end
  elseif dt:match("^uint") then
    for i = 1, n do v[i] = v[i] + 3 end
  end
  if n == 0 then return xp.zeros(shape, dt) end
  return xp.array(v, dt):reshape(shape)
end

helper.each_device(function(xp, dev)
  describe("against NumPy " .. REF.numpy, function()
    for _, c in ipairs(REF.cases) do
      it(c.id, function()
        local args, n = {}, #c.args
        for i = 1, n do args[i] = decode(xp, c.args[i]) end
        check(c.id, ga[c.fn](table.unpack(args, 1, n)), c.want)
      end)
    end
  end)

  describe("matmul layouts", function()
    for _, dt in ipairs { "float32", "float64", "complex64", "int32", "int8", "bool", "float16", "uint64" } do
      it(dt .. ": transposed, stepped, negative strides and broadcast batches read in place", function()
        local a, b = ints(xp, { 6, 5 }, dt, 1), ints(xp, { 5, 4 }, dt, 2)
        local want = ga.matmul(a, b)
        -- transposed operands (F-contiguous views)
        assert_equal_arrays(ga.matmul(same(a.T).T, same(b.T).T), want)
        -- stepped (every other row and column of larger arrays)
        local big_a = xp.zeros({ 12, 10 }, dt)
        big_a[{ { 1, -1, 2 }, { 1, -1, 2 } }] = a
        local big_b = xp.zeros({ 10, 8 }, dt)
        big_b[{ { 1, -1, 2 }, { 1, -1, 2 } }] = b
        local step = { { 1, -1, 2 }, { 1, -1, 2 } }
        assert_equal_arrays(ga.matmul(big_a[step], big_b[step]), want)
        -- negative strides
        local fa = ga.flip(ga.flip(a, 1), 2)
        assert_equal_arrays(ga.matmul(ga.flip(ga.flip(fa, 1), 2), b), want)
        -- a broadcast batch (stride 0) against a real one
        local bb = xp.stack({ b, b, b })
        local r = ga.matmul(ga.broadcast_to(a, { 3, 6, 5 }), bb)
        assert.are.same({ 3, 6, 4 }, r.shape)
        for i = 1, 3 do assert_equal_arrays(r[i], want) end
        local r2 = ga.matmul(a, bb)
        for i = 1, 3 do assert_equal_arrays(r2[i], want) end
        -- a stepped vector
        local v = xp.zeros(10, dt)
        v[{ { 1, -1, 2 } }] = ints(xp, { 5 }, dt, 3)
        assert_equal_arrays(ga.matmul(a, v[{ { 1, -1, 2 } }]), ga.matmul(a, ints(xp, { 5 }, dt, 3)))
      end)
    end

    it("batches that do not collapse (a transposed batch axis)", function()
      local a = ints(xp, { 3, 4, 2, 5 }, "float64", 4)
      local b = ints(xp, { 4, 3, 5, 2 }, "float64", 5)
      local r = ga.matmul(a, b:transpose({ 2, 1, 3, 4 }))
      assert.are.same({ 3, 4, 2, 2 }, r.shape)
      for i = 1, 3 do
        for j = 1, 4 do assert_equal_arrays(r[{ i, j }], ga.matmul(a[{ i, j }], b[{ j, i }])) end
      end
    end)

    it("out=: same dtype, another dtype, a transposed out, an out that is an operand", function()
      local a, b = ints(xp, { 4, 4 }, "float64", 6), ints(xp, { 4, 4 }, "float64", 7)
      local want = ga.matmul(a, b)
      local o = xp.empty({ 4, 4 }, "float64")
      assert.is_true(rawequal(o, ga.matmul(a, b, { out = o })))
      assert_equal_arrays(o, want)
      local oc = xp.empty({ 4, 4 }, "complex128")
      ga.matmul(a, b, { out = oc })
      assert_equal_arrays(oc.real, want)
      local ot = xp.empty({ 4, 4 }, "float64").T
      ga.matmul(a, b, { out = ot })
      assert_equal_arrays(ot:copy(), want)
      local a2 = a:copy()
      ga.matmul(a2, b, { out = a2 })
      assert_equal_arrays(a2, want)
      assert_equal_arrays(ga.matmul(a, b, { dtype = "float32" }), want:astype("float32"))
    end)

    it("k = 0 gives zeros, empty batches give empty results", function()
      local r = ga.matmul(xp.ones({ 2, 0 }, "int32"), xp.ones({ 0, 3 }, "int32"))
      assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, r:totable())
      assert.are.same({ 0, 2, 3 }, ga.matmul(xp.ones({ 0, 2, 4 }), xp.ones({ 4, 3 })).shape)
      assert.are.equal(0, ga.matmul(xp.ones(0), xp.ones(0)):item())
    end)

    it("x:dot and ga.dot", function()
      local a = ints(xp, { 3, 4 }, "int64", 8)
      assert_equal_arrays(a:dot(a.T), ga.matmul(a, a.T))
      assert.are.same({ 3, 2, 3 }, ga.dot(a, xp.ones({ 2, 4, 3 }, "int64")).shape)
    end)
  end)

  describe("the other products", function()
    it("ga.linalg.matmul, matrix_transpose, vecdot", function()
      local a = ints(xp, { 2, 3, 4 }, "float64", 9)
      assert_equal_arrays(ga.linalg.matmul(a, a:transpose({ 1, 3, 2 })), ga.matmul(a, a:transpose({ 1, 3, 2 })))
      local t = ga.linalg.matrix_transpose(a)
      assert.are.same({ 2, 4, 3 }, t.shape)
      assert.are.equal(a[{ 2, 3, 4 }]:item(), t[{ 2, 4, 3 }]:item())
      local v = ga.linalg.vecdot(a, ints(xp, { 4 }, "float64", 10))
      assert_equal_arrays(v, ga.matmul(a, ints(xp, { 4 }, "float64", 10)))
      local z = xp.array({ 1, 2 }, "complex128") * xp.array({ 0, 0 }, "complex128")
      z.imag[ga.ellipsis] = xp.array({ 1.0, 2.0 })
      assert.are.equal(5, ga.linalg.vecdot(z, z).real:item())   -- conj(z) . z = |z|^2
      assert.are.equal(0, ga.linalg.vecdot(z, z).imag:item())
      assert.are.same({ 3 }, ga.linalg.vecdot(ints(xp, { 4, 3 }, "float64", 1), ints(xp, { 4, 3 }, "float64", 2),
        { axis = 1 }).shape)
    end)

    it("matrix_power of 1 and of a float stack", function()
      local a = ints(xp, { 3, 3 }, "float64", 11)
      assert_equal_arrays(ga.matrix_power(a, 4), ga.matmul(ga.matmul(a, a), ga.matmul(a, a)))
      assert.is_false(rawequal(a, ga.matrix_power(a, 1)))
    end)

    it("cross along other axes", function()
      local a, b = ints(xp, { 3, 4 }, "float64", 12), ints(xp, { 3, 4 }, "float64", 13)
      local r = ga.cross(a, b, { axis = 1 })
      assert.are.same({ 3, 4 }, r.shape)
      assert_equal_arrays(r, ga.cross(a.T, b.T).T:copy())
      assert.are.same({ 4, 3 }, ga.cross(a, b, { axisa = 1, axisb = 1 }).shape)
    end)

    it("trace with dtype and out", function()
      local a = ints(xp, { 3, 3 }, "int8", 14)
      assert.are.equal("int64", ga.trace(a).dtype)
      assert.are.equal("float32", ga.trace(a, { dtype = "float32" }).dtype)
    end)
  end)

  describe("bad inputs", function()
    local function err(f, msg) assert.has_error(f, msg) end
    it("matmul: NumPy's texts", function()
      err(function() ga.matmul(xp.ones({ 2, 3 }), xp.ones({ 4, 5 })) end,
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) "
        .. "(size 4 is different from 3)")
      err(function() ga.matmul(xp.ones(3), xp.ones(4)) end,
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) "
        .. "(size 4 is different from 3)")
      err(function() ga.matmul(xp.ones({ 2, 3, 4 }), xp.ones({ 3, 4, 5 })) end,
        "matmul: operands could not be broadcast together with remapped shapes [original->remapped]: "
        .. "(2,3,4)->(2,newaxis,newaxis) (3,4,5)->(3,newaxis,newaxis)  and requested shape (3,5)")
      err(function() ga.matmul(xp.ones({}), xp.ones(3)) end,
        "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature "
        .. "(n?,k),(k,m?)->(n?,m?) requires 1)")
      err(function() ga.matmul(xp.ones(3), xp.ones({})) end,
        "matmul: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature "
        .. "(n?,k),(k,m?)->(n?,m?) requires 1)")
      err(function() ga.matmul(xp.ones({ 2, 3 }), xp.ones({ 3, 4 }), { out = xp.ones({ 2, 5 }) }) end,
        "matmul: Output operand 0 has shape (2,5), the product's is (2,4)")
      err(function() ga.matmul(xp.ones({ 2, 3 }), xp.ones({ 3, 4 }), { out = xp.ones({ 2, 4 }, "int32") }) end,
        "matmul: Cannot cast ufunc 'matmul' output from dtype('float64') to dtype('int32') with casting rule "
        .. "'same_kind'")
      err(function() ga.matmul(xp.ones({ 2, 3 }), xp.ones({ 3, 4 }), { dtype = "int32" }) end,
        "matmul: Cannot cast ufunc 'matmul' input 0 from dtype('float64') to dtype('int32') with casting rule "
        .. "'same_kind'")
      err(function() ga.matmul(xp.ones({ 2, 3 }), xp.ones({ 3, 4 }), { bogus = 1 }) end)
      err(function() ga.matmul(xp.ones({ 2, 3 }), 5) end)
    end)
    it("the other products", function()
      err(function() ga.tensordot(xp.ones({ 2, 3 }), xp.ones({ 4, 3 }), { { 1 }, { 1 } }) end,
        "tensordot: shape-mismatch for sum: axis 1 of a has length 2, axis 1 of b has 4")
      err(function() ga.tensordot(xp.ones({ 2, 3 }), xp.ones({ 3 }), 3) end)
      err(function() ga.tensordot(xp.ones({ 2, 3 }), xp.ones({ 3 }), { { 5 }, { 1 } }) end)
      err(function() ga.vdot(xp.ones(3), xp.ones(4)) end,
        "vdot: shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)")
      err(function() ga.inner(xp.ones({ 2, 3 }), xp.ones(4)) end,
        "inner: shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)")
      err(function() ga.dot(xp.ones({ 2, 3 }), xp.ones({ 2, 4, 5 })) end,
        "dot: shapes (2,3) and (2,4,5) not aligned: 3 (dim 2) != 4 (dim 2)")
      err(function() ga.cross(xp.ones(4), xp.ones(3)) end,
        "cross: incompatible dimensions for cross product (dimension must be 2 or 3)")
      err(function() ga.trace(xp.ones(3)) end, "trace: diag requires an array of at least two dimensions")
      err(function() ga.multi_dot({ xp.ones({ 2, 2 }) }) end, "multi_dot: Expecting at least two arrays.")
      err(function() ga.multi_dot({ xp.ones({ 2, 2 }), xp.ones({ 2, 2, 2 }), xp.ones({ 2, 2 }) }) end,
        "multi_dot: 3-dimensional array given. Array must be two-dimensional")
      err(function() ga.matrix_power(xp.ones({ 2, 3 }), 2) end,
        "matrix_power: Last 2 dimensions of the array must be square")
      err(function() ga.matrix_power(xp.ones({ 2, 2 }), 1.5) end)
      err(function() ga.linalg.matrix_transpose(xp.ones(3)) end,
        "matrix_transpose: x must be at least 2-dimensional for matrix_transpose, got 1-D")
      err(function() ga.linalg.vecdot(xp.ones(3), xp.ones(4)) end)
    end)
  end)

  if dev.name ~= "cpu" then
    it("operands on two devices: an error naming both and the fix", function()
      local d, h = ga.ones({ 2, 2 }), ga.host.ones({ 2, 2 })
      assert.has_error(function() ga.matmul(d, h) end,
        "matmul: operands are on different devices (cuda:0 and cpu); move one with x:to(\"cuda:0\") "
        .. "(or ga.asarray(x) to the GPU, x:get() to the host)")
      assert.has_error(function() ga.matmul(d, d, { out = ga.host.ones({ 2, 2 }) }) end)
    end)

    describe("the GPU against the host", function()
      local function rand_ints(shape, dt, lo, hi, seed)
        local s = seed
        local n = 1
        for _, d in ipairs(shape) do n = n * d end
        local v = {}
        for i = 1, n do
          s = (s * 6364136223846793005 + 1442695040888963407)
          v[i] = lo + (s >> 33) % (hi - lo)
        end
        return ga.host.array(v, "int64"):astype(dt):reshape(shape)
      end
      for _, c in ipairs {
        { "int32", { 300, 250 }, { 250, 200 }, -2 ^ 31 // 1, 2 ^ 31 // 1 },   -- wraps, the large tile
        { "int8", { 4, 70, 90 }, { 90, 65 }, -128, 128 },
        { "uint16", { 129, 33 }, { 33, 257 }, 0, 65536 },
        { "int64", { 100, 140 }, { 140, 70 }, math.mininteger // 2, math.maxinteger // 2 },
        { "bool", { 80, 60 }, { 60, 90 }, 0, 2 },
        { "float32", { 150, 170 }, { 170, 90 }, -50, 50 },
        { "float16", { 20, 30 }, { 30, 40 }, -3, 4 },
        { "float64", { 3, 64, 64 }, { 64, 64 }, -9, 9 },
        { "complex64", { 40, 50 }, { 2, 50, 30 }, -9, 9 },
      } do
        it(c[1] .. " " .. table.concat(c[2], "x") .. " @ " .. table.concat(c[3], "x"), function()
          local ha, hb = rand_ints(c[2], c[1], c[4], c[5], 1), rand_ints(c[3], c[1], c[4], c[5], 2)
          local want = ga.host.matmul(ha, hb)
          local got = ga.matmul(ga.asarray(ha), ga.asarray(hb))
          assert_equal_arrays(got, want, TOL[c[1]])
          -- transposed copies on the GPU too
          local gt = ga.matmul(ga.asarray(ha:copy()):copy(), ga.asarray(hb).T:copy().T)
          assert_equal_arrays(gt, want, TOL[c[1]])
        end)
      end
    end)
  end
end)

describe("the product kernel compiles with NVRTC", function()
  local core = ga.core
  for _, dt in ipairs { "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                        "float16", "float32", "float64" } do
    it(dt, function()
      local ok, size = pcall(core._compile_matmul, dt, 200, 200, 64, false, true)
      if not ok and tostring(size):match("NVRTC is not available") then return pending("no NVRTC") end
      assert.is_true(ok, tostring(size))
      assert.is_true(size > 0)
    end)
  end
  it("every tile (int32: large, int64: medium, small; loads along k or not)", function()
    for _, c in ipairs { { "int32", 2048, 2048, true, false }, { "int64", 2048, 2048, false, true },
                         { "float32", 16, 16, true, true }, { "float64", 64, 64, false, false },
                         { "int64", 64, 64, true, false } } do
      local ok, size = pcall(core._compile_matmul, c[1], c[2], c[3], 64, c[4], c[5])
      if not ok and tostring(size):match("NVRTC is not available") then return pending("no NVRTC") end
      assert.is_true(ok, tostring(size))
    end
    assert.matches("#define BM 128", core._matmul_source("int32", 2048, 2048, 64, false, false), 1, true)
    assert.matches("unsigned long long TACC", core._matmul_source("int64", 64, 64, 64, false, false), 1, true)
    -- the tiny tile: 64 threads of 2x2 outputs
    assert.matches("thread 2x2, 64 threads", core._matmul_source("float32", 64, 64, 64, true, false), 1, true)
  end)
end)
