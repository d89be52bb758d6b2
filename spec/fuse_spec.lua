-- ga.fuse: fused against unfused results for every ufunc row, broadcasting,
-- Lua numbers of each kind (NEP 50, exactly as unfused), several outputs,
-- every trailing reduction with axes, out= and in-place updates, the
-- seed's softplus and softmax, retracing on a signature change, and the
-- errors.  On the host the fused result is the unfused one bit for bit; on
-- a GPU each op row's fused kernel is checked against the unfused call on
-- the GPU, and the chains, reductions and softmax against the host.
-- Without a GPU the generated CUDA is compiled with NVRTC (f:compile).
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core
local H = ga.host

local function host(x) if helper.is_array(x) then return ga.asnumpy(x) end return x end

-- fused(args) against unfused(host args): dtype, shape, values
local function same(got, want, tol, what)
  assert.is_true(helper.is_array(got), (what or "") .. ": not an array")
  assert.are.equal(want.dtype, got.dtype, (what or "") .. ": dtype")
  assert.are.same(want.shape, got.shape, (what or "") .. ": shape")
  local ok, msg = helper.allclose(got, want, { equal_nan = true, rtol = tol, atol = tol })
  assert.is_true(ok, (what or "") .. ": " .. msg)
end

-- test values per dtype kind: positive, moderate (every row's domain is
-- fine or NaN on both sides)
local function values(xp, dt, n, seed)
  local k = helper.KIND[dt]
  local t = {}
  for i = 1, n do
    local v = ((i * 7 + seed * 3) % 11)
    if k == "b" then t[i] = v % 2 == 1
    elseif k == "i" or k == "u" then t[i] = v % 5 + 1
    else t[i] = 0.25 + v * 0.3 end
  end
  return xp.asarray(t, dt)
end

local SKIP = { _arange = true, _tril = true, _triu = true }
local ROWS = {}
for _, op in ipairs(core.ops()) do if not SKIP[op.name] then ROWS[#ROWS + 1] = op end end

local TOL = { float16 = 2e-3, float32 = 2e-5, float64 = 1e-12, complex64 = 2e-5, complex128 = 1e-12 }

helper.each_device(function(xp, dev)
  local gpu = dev.name ~= "cpu"
  local function tol(dt) return gpu and (TOL[dt] or 0) or 0 end

  describe("ga.fuse", function()
    it("runs every ufunc row like the unfused call (every dtype on the host, two on a GPU)", function()
      for _, op in ipairs(ROWS) do
        local f = core.ufuncs[op.name]
        local fused
        if op.nin == 1 then fused = ga.fuse(function(a) return f(a) end, { name = "r1" })
        elseif op.nin == 2 then fused = ga.fuse(function(a, b) return f(a, b) end, { name = "r2" })
        else fused = ga.fuse(function(a, b, c) return f(a, b, c) end, { name = "r3" }) end
        local types = op.types
        if gpu then   -- (each is an NVRTC compile: two dtypes per row)
          local f32 = false
          for _, t in ipairs(types) do f32 = f32 or t == "float32" end
          types = { types[1], f32 and "float32" or types[#types] }
        end
        for _, dt in ipairs(types) do
          local args = {}
          for k = 1, op.nin do
            local adt = dt
            if (op.name == "ldexp" or op.name == "_round") and k == 2 then adt = "int64" end
            if op.name == "_where" and k == 1 then adt = "bool" end
            args[k] = values(xp, adt, 12, k)
            if op.name == "_round" and k == 2 then args[k] = xp.zeros(12, "int64") + 1 end
          end
          -- the unfused call on the same device (the GPU's own math against
          -- the host's is ufunc_spec's business)
          local want = table.pack(f(table.unpack(args, 1, op.nin)))
          for j = 1, op.nout do want[j] = host(want[j]) end
          local got = table.pack(fused(table.unpack(args, 1, op.nin)))
          for j = 1, op.nout do same(got[j], want[j], tol(want[j].dtype), op.name .. " " .. dt) end
        end
      end
    end)

    it("chains ops with weak Lua numbers exactly as unfused (NEP 50)", function()
      local f = ga.fuse(function(x, s) return x * s + 1, x / s, x - 2.5, ga.maximum(x, s) end)
      for _, dt in ipairs { "bool", "int8", "uint8", "int32", "float16", "float32", "float64", "complex64" } do
        for _, s in ipairs { 3, 2.5, true } do
          local x = values(xp, dt, 10, 1)
          local hx = host(x)
          local ok, want = pcall(function() return table.pack(hx * s + 1, hx / s, hx - 2.5, ga.maximum(hx, s)) end)
          local got = table.pack(pcall(f, x, s))
          assert.are.equal(ok, got[1], dt .. " " .. tostring(s) .. ": " .. tostring(got[2]))
          if ok then
            for j = 1, 4 do same(got[j + 1], want[j], tol(want[j].dtype), dt .. " with " .. tostring(s)) end
          end
        end
      end
      -- a Lua number out of the array's range: the unfused error
      local u8 = xp.asarray({ 1, 2 }, "uint8")
      helper.assert_error(function() f(u8, 300) end, "Lua integer 300 out of bounds for uint8")
      -- constants inside and arithmetic between Lua numbers (Lua's own)
      local g = ga.fuse(function(x, s) return x * (s * 2 + 1) + 0.5 end)
      local x = values(xp, "float32", 8, 2)
      same(g(x, 3), host(x) * 7 + 0.5, tol("float32"))
      same(g(x, 1.5), host(x) * 4.0 + 0.5, tol("float32"))
    end)

    it("runs the bench's chain8 at the vector loop's edges; fused float32 sin is the row bit for bit", function()
      local chain8 = ga.fuse(function(x, y) return ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y end, { name = "chain8" })
      local fsin = ga.fuse(function(x) return ga.sin(x) end, { name = "fsin" })
      for _, n in ipairs { 1, 5, 1023, 1024, 1025, 3079 } do   -- 1024 = a block's 256 threads x 4
        local x = xp.arange(0, n, 1, "float32") / n
        local y = xp.full(n, 0.25, "float32") + x * 0.5
        local hx, hy = host(x), host(y)
        local c = chain8(x, y)
        same(c, host(ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y), tol("float32"), "chain8 n=" .. n)
        assert.is_true(ga.allclose(host(c), ga.sin(hx) * hy + ga.exp(-hx) * 0.5 - hy * hy, 1e-5, 1e-6))
        -- beyond the fast path of CUDA's sinf (|x| < 105615), inf and NaN
        for _, scale in ipairs { 100, 105614, 2e5, 3e38 } do
          local v = ((xp.arange(0, n, 1, "float64") / n * 2 - 1) * scale):astype("float32")
          if n > 2 then v[{ 2 }] = 1 / 0; v[{ n }] = 0 / 0 end
          assert.is_true(ga.array_equal(host(fsin(v)), host(ga.sin(v)), true), "sin n=" .. n .. " scale " .. scale)
        end
      end
    end)

    it("broadcasts between arguments and reads any layout", function()
      local f = ga.fuse(function(a, b) return ga.exp(a) * b - a end)
      local a = xp.arange(12, "float32"):reshape(3, 4) / 10
      local b = xp.arange(4, "float32") + 1
      local ha, hb = host(a), host(b)
      same(f(a, b), ga.exp(ha) * hb - ha, tol("float32"))
      same(f(a:reshape(3, 4, 1), b), ga.exp(ha:reshape(3, 4, 1)) * hb - ha:reshape(3, 4, 1), tol("float32"))
      same(f(a.T, a.T), ga.exp(ha.T) * ha.T - ha.T, tol("float32"))
      local big = xp.arange(3 * 40000, "float64"):reshape(3, 40000) / 1e4   -- the host runs it in chunks
      local hbig = host(big)
      same(f(big, big[1]), ga.exp(hbig) * hbig[1] - hbig, tol("float64"))
      helper.assert_error(function() f(a, xp.ones(5, "float32")) end, "broadcast")
    end)

    it("writes several outputs, out= and in-place updates", function()
      local f = ga.fuse(function(a, b) return a + b, a * b, ga.less(a, b) end)
      local a, b = values(xp, "float32", 9, 1), values(xp, "float32", 9, 2)
      local ha, hb = host(a), host(b)
      local s, p, l = f(a, b)
      same(s, ha + hb, tol("float32")); same(p, ha * hb, tol("float32")); same(l, ga.less(ha, hb), 0)
      local o1, o2, o3 = xp.empty(9, "float32"), xp.empty(9, "float64"), xp.empty(9, "bool")
      local r1, r2, r3 = f(a, b, { out = { o1, o2, o3 } })
      assert.is_true(rawequal(o1, r1) and rawequal(o2, r2) and rawequal(o3, r3))
      same(o1, ha + hb, tol("float32")); same(o2, (ha * hb):astype("float64"), tol("float32"))
      local g = ga.fuse(function(x, y) x[{}] = x * 2 + y end)
      local x = values(xp, "float64", 6, 3)
      local want = host(x) * 2 + 1
      g(x, 1)
      same(x, want, tol("float64"))
      helper.assert_error(function() f(a, b, { out = { o1 } }) end, "out has 1 array")
      -- arrays captured from outside are inputs too; a reduction's result into out=
      local w = values(xp, "float32", 9, 5)
      local c = ga.fuse(function(v) return v * w + 1, (v * w):sum() end)
      local o = xp.empty({}, "float32")
      local r, t = c(a, { out = { xp.empty(9, "float32"), o } })
      same(r, ha * host(w) + 1, tol("float32"))
      assert.is_true(rawequal(t, o))
      same(o, (ha * host(w)):sum(), gpu and 1e-5 or 0)
    end)

    it("fuses every trailing reduction with axis and keepdims", function()
      local a = values(xp, "float32", 24, 1):reshape(2, 3, 4)
      local b = values(xp, "float32", 4, 2)
      local ha, hb = host(a), host(b)
      local ib = values(xp, "int32", 24, 3):reshape(2, 3, 4)
      for _, r in ipairs { "sum", "prod", "max", "min", "mean", "all", "any", "argmax", "argmin" } do
        for _, ax in ipairs { false, 1, -1, { 1, 3 } } do
          for _, kd in ipairs { false, true } do
            local o = { keepdims = kd }
            if ax then o.axis = ax end
            local f = ga.fuse(function(x, y) return core._reduce[r](x * y - 1, o) end)
            local what = r .. " axis " .. tostring(type(ax) == "table" and "{1,3}" or ax)
                         .. " keepdims " .. tostring(kd)
            same(f(a, b), core._reduce[r](ha * hb - 1, o), gpu and 1e-4 or 0, what)
            local g = ga.fuse(function(x) return core._reduce[r](ga.square(x), o) end)
            same(g(ib), core._reduce[r](ga.square(host(ib)), o), gpu and 1e-12 or 0, "int32 " .. what)
          end
        end
      end
      -- methods and functions
      local f = ga.fuse(function(x) return x:sum(2), ga.mean(x * x, { axis = -1, keepdims = true }) end)
      local s, m = f(a)
      same(s, ha:sum(2), tol("float32")); same(m, ga.mean(ha * ha, { axis = -1, keepdims = true }), tol("float32"))
    end)

    it("runs the seed's softplus and softmax like the unfused functions", function()
      local function softplus(x) return ga.log1p(ga.exp(-ga.abs(x))) + ga.maximum(x, 0) end
      local function softmax(x)
        local e = ga.exp(x - ga.max(x))
        return e / ga.sum(e)
      end
      local fsp, fsm = ga.fuse(softplus, { name = "softplus" }), ga.fuse(softmax, { name = "softmax" })
      for _, dt in ipairs { "float32", "float64" } do
        local x = (xp.arange(1000, dt) - 500) / 100
        local hx = host(x)
        same(fsp(x), softplus(hx), tol(dt), "softplus " .. dt)
        same(fsm(x), softmax(hx), gpu and 1e-5 or 0, "softmax " .. dt)
      end
      local rows = xp.arange(12, "float64"):reshape(3, 4)
      local fr = ga.fuse(function(x)
        local e = ga.exp(x - x:max { axis = -1, keepdims = true })
        return e / e:sum { axis = -1, keepdims = true }
      end)
      local got = fr(rows)
      same(got:sum(-1), H.ones(3, "float64"), 1e-12)
    end)

    it("traces once per signature and again when it changes", function()
      local f = ga.fuse(function(x, s) return x * s end)
      local x32, x64 = xp.ones(3, "float32"), xp.ones(3, "float64")
      assert.are.equal("float32", f(x32, 2).dtype)
      assert.are.equal("float32", f(x32, 5).dtype)
      assert.are.equal(1, f.ntraces)
      assert.are.equal("float64", f(x64, 2).dtype)
      assert.are.equal("float32", f(x32, 2.5).dtype)
      assert.are.equal("float64", f(x32:astype("int32"), 2.5).dtype)
      assert.are.equal(4, f.ntraces)
      assert.are.equal(2, f(xp.ones({ 2, 2 }, "float32"), 2).ndim)
      assert.are.equal(5, f.ntraces)
      local w = ga.fuse(function(c, x, y) return ga.where(c, x, y) end)
      same(w(xp.asarray({ 1, 0, 2 }, "int8"), xp.ones(3, "float32"), 0),
           ga.where(H.asarray({ 1, 0, 2 }, "int8"), H.ones(3, "float32"), 0), 0)
    end)

    it("raises clear errors naming the op and the line", function()
      local x = xp.ones(4, "float32")
      local function err(fn, pat) helper.assert_error(function() ga.fuse(fn, { name = "bad" })(x) end, pat) end
      err(function(a) if ga.less(a, 0) then a = -a end return a end, "an `if` on an array value")
      err(function(a) if a < 0 then a = -a end return a end, "cannot depend on array values")
      err(function(a) if ga.any(a) then a = -a end return a end, "'bad': any (")
      err(function(a) local v = a:item(); return a + v end, "item")
      err(function(a) local v = a[1]; return v end, "indexing")
      err(function(a) local v = a[a]; return v end, "indexing by an array")
      err(function(a) local s = a.shape; return a + #s end, "x.shape")
      err(function(a) local m = ga.matmul(a, a); return m end, "fuse_spec.lua:")
      err(function(a) local r = ga.add(a, 1, { dtype = "float64" }); return r end, "options")
      err(function(a) local r = a + "s"; return r end, "fuse 'bad'")
      err(function(a) local r = ga.std(a); return r end, "a traced array of ga.fuse cannot be used here")
      local f = ga.fuse(function(a, b) return a + b end)
      helper.assert_error(function() f(x) end, "takes 2 arguments, got 1")
      helper.assert_error(function() f(x, x, x) end, "takes 2 arguments, got 3")
      helper.assert_error(function() f(x, "s") end, "argument #2 must be an ndarray or a Lua number")
      helper.assert_error(function() f(1, 2) end, "at least one argument must be an ndarray")
      helper.assert_error(function() ga.fuse(42) end, "fn must be a function")
      local named = ga.fuse { name = "named" } (function(a) return a * 2 end)
      assert.are.equal("<fused function 'named'>", tostring(named))
      same(named(x), host(x) * 2, 0)
      helper.assert_error(function() ga.fuse(function() end, { name = "no good" }) end, "C identifier")
      helper.assert_error(function() ga.fuse(function() end, { nope = 1 }) end, "unknown option")
    end)
  end)
end)

describe("ga.fuse code generation", function()
  it("shows the generated source (no GPU needed)", function()
    local f = ga.fuse(function(x, y) return ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y end, { name = "chain8" })
    local x = H.ones(8, "float32")
    local src = f:source(x, x)
    assert.is_truthy(src:find("_ga_fused", 1, true))
    assert.is_truthy(src:find("ga_sin(in0)", 1, true))
    assert.is_truthy(src:find("// ---- kernel 1", 1, true))
    assert.is_falsy(src:find("// ---- kernel 2", 1, true))
    local sm = ga.fuse(function(v) local e = ga.exp(v - v:max()); return e / e:sum() end)
    local s2 = sm:source(H.ones(8, "float64"))
    -- the seed's softmax in two kernels: max and sum(exp(x - max)) in one
    -- reduction (online), then exp(x - max) / sum
    assert.is_truthy(s2:find("// ---- kernel 2", 1, true))
    assert.is_falsy(s2:find("// ---- kernel 3", 1, true))
    assert.is_truthy(s2:find("max and sum(exp(x - max)) in one pass", 1, true))
    assert.are.equal(2, sm:compile(H.ones(8, "float32")))
    assert.are.equal(2, sm:compile(H.ones({ 3, 5 }, "float64")))
    -- a sum of a fused value is one ReductionKernel
    local r = ga.fuse(function(a, b) return (a * b):sum(-1) end)
    local s3 = r:source(H.ones({ 2, 4 }, "float32"), H.ones(4, "float32"))
    assert.is_falsy(s3:find("// ---- kernel 2", 1, true))
    assert.is_truthy(s3:find("ReductionKernel", 1, true))
  end)

  it("puts the math library in user kernels with the math option", function()
    local k = ga.ElementwiseKernel("T x", "T y", "y = ga_exp(x)", "ke", { math = true })
    assert.is_truthy(k:source({ "float32" }):find("GAM_F1(ga_exp", 1, true))
    assert.is_falsy(ga.ElementwiseKernel("T x", "T y", "y = x"):source({ "float32" }):find("GAM_F1(ga_exp", 1, true))
    local r = ga.ReductionKernel("T x", "T y", "ga_abs(x)", "a + b", "y = a", "0", "rk", { math = "complex" })
    assert.is_truthy(r:source({ "complex64" }):find("ga_abs", 1, true))
    helper.assert_error(function() ga.ElementwiseKernel("T x", "T y", "y = x", "k", { math = 3 }) end,
                        "option math must be a boolean or \"complex\"")
  end)

  it("compiles its kernels with NVRTC for every dtype kind", function()
    local ok = pcall(function()
      return ga.ElementwiseKernel("float32 x", "float32 y", "y = x"):compile({ "float32" })
    end)
    if not ok then return end   -- no NVRTC on this machine
    local f = ga.fuse(function(x, y, s)
      return ga.where(ga.less(x, y), ga.exp(x) * s, y:astype(x.dtype)), (x * y):sum(-1)
    end)
    for _, dt in ipairs { "bool", "int8", "uint64", "float16", "float32", "float64", "complex64", "complex128" } do
      local x = H.ones({ 2, 3 }, dt)
      local n = f:compile(x, x, 2.5)
      assert.are.equal(2, n, dt)
    end
  end)
end)
