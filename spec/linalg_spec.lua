-- ga.linalg / ga.host.linalg decompositions and solvers (and ga.polyfit,
-- ga.roots) on every device: NumPy 2's answers (spec/data/linalg_ref.lua,
-- made by tools/gen_linalg_ref.py), identities on random inputs for every
-- dtype and batch shape (empty batches and 0x0 included), transposed and
-- stepped inputs, the GPU against the host, and bad inputs.
local helper = require "spec.helper"
local ga = helper.ga
local REF = require "spec.data.linalg_ref"

local DTYPES = { "float32", "float64", "complex64", "complex128" }
local SINGLE = { float32 = true, complex64 = true }
local CPLX = { complex64 = true, complex128 = true }

local decode = helper.decode_ref

-- max |got - want| <= tol * max(1, max |want|), real and imaginary parts
local function check(id, got, want, single)
  if type(want) == "number" then
    local g = type(got) == "number" and got or ga.asnumpy(got):item()
    assert.is_true(g == want or math.abs(g - want) <= 1e-9 * math.max(1, math.abs(want)),
      id .. ": " .. g .. " vs " .. want)
    return
  end
  assert.is_truthy(ga.core.ndarray_mt == getmetatable(got), id .. ": not an array")
  assert.are.same(want.shape, got.shape, id .. ": shape")
  local tol = (single or SINGLE[want.dtype]) and 2e-4 or 1e-9
  local h = ga.asnumpy(got)
  if not CPLX[h.dtype] and want.im then h = h:astype("complex128") end
  local parts = { { ga.host.real(h), want.re } }
  if want.im then parts[2] = { ga.host.imag(h), want.im } end
  local scale = 1
  for _, p in ipairs(parts) do
    for _, v in ipairs(p[2]) do
      if math.abs(v) > scale and v == v and math.abs(v) < math.huge then scale = math.abs(v) end
    end
  end
  for _, p in ipairs(parts) do
    local flat = p[1]:astype("float64"):ravel():tolist()
    if type(flat) ~= "table" then flat = { flat } end
    for i, w in ipairs(p[2]) do
      local g = flat[i]
      local ok = g == w or (w ~= w and g ~= g) or math.abs(g - w) <= tol * scale
      if not ok then
        error(("%s: element %d is %.17g, NumPy %.17g (tolerance %g)"):format(id, i, g, w, tol * scale))
      end
    end
  end
end

local function sort_complex(x)
  local h = ga.asnumpy(x):astype("complex128")
  local re, im = ga.host.real(h):tolist(), ga.host.imag(h):tolist()
  local idx = {}
  for i = 1, #re do idx[i] = i end
  table.sort(idx, function(a, b)
    if math.abs(re[a] - re[b]) > 1e-6 then return re[a] < re[b] end
    return im[a] < im[b]
  end)
  local r, i2 = {}, {}
  for k, j in ipairs(idx) do r[k], i2[k] = re[j], im[j] end
  local z = ga.host.zeros({ #r }, "complex128")
  if #r > 0 then
    z.real[ga.ellipsis] = ga.host.array(r)
    z.imag[ga.ellipsis] = ga.host.array(i2)
  end
  return z
end

-- host batched product over the last two axes (the checks run on the host)
local function bmm(a, b)
  local H = ga.host
  a, b = ga.asnumpy(a), ga.asnumpy(b)
  return H.sum(H.expand_dims(a, -1) * H.expand_dims(b, -3), -2)
end
local function ct(x)    -- conjugate transpose, host
  x = ga.asnumpy(x):swapaxes(-1, -2)
  if CPLX[x.dtype] then x = x:conj() end
  return x
end
-- max |x - y| <= tol * max(1, max |y|)
local function near(what, x, y, dt)
  local H = ga.host
  x, y = ga.asnumpy(x), ga.asnumpy(y)
  if x.size == 0 and y.size == 0 then return end
  local err = H.max(H.absolute(x - y)):item()
  local scale = math.max(1, H.max(H.absolute(y)):item())
  local tol = SINGLE[dt] and 2e-4 or 1e-10
  assert.is_true(err <= tol * scale, ("%s: max error %g (tolerance %g)"):format(what, err, tol * scale))
end

local function fn_of(xp, name)
  local t = xp
  for part in name:gmatch("[^.]+") do t = t[part] end
  return t
end

local function rand(xp, shape, dt, seed)
  local g = ga.host.random.default_rng(seed)
  local x = g:standard_normal(shape):astype(dt)
  if CPLX[dt] then
    local z = ga.host.zeros(shape, dt)
    z.real[ga.ellipsis] = g:standard_normal(shape)
    z.imag[ga.ellipsis] = g:standard_normal(shape)
    x = z
  end
  return xp.asarray(x)
end
local function eye_plus(xp, shape, dt, seed, k)
  local n = shape[#shape]
  return rand(xp, shape, dt, seed) + xp.eye(n, nil, nil, dt) * (k or n)
end
local function hpd(xp, shape, dt, seed)
  local a = ga.asnumpy(rand(xp, shape, dt, seed))
  local n = shape[#shape]
  return xp.asarray(bmm(a, ct(a)) + ga.host.eye(n, nil, nil, dt) * n)
end

-- eig's identities, checked on the host: A V = V diag(w), unit columns
-- whose largest component is real (LAPACK's normalisation, cuSOLVER's too)
local CPLX_OF = { float32 = "complex64", float64 = "complex128", complex64 = "complex64", complex128 = "complex128" }
local function check_eig(what, a, w, v, dt)
  local H = ga.host
  assert.are.equal(w.dtype, v.dtype, what .. ": w and v dtypes")
  assert.is_true(w.dtype == dt or w.dtype == CPLX_OF[dt], what .. ": w dtype " .. w.dtype)
  local cd = CPLX_OF[dt]
  local ha, hw, hv = ga.asnumpy(a):astype(cd), ga.asnumpy(w):astype(cd), ga.asnumpy(v):astype(cd)
  near(what .. " A V = V w", bmm(ha, hv), hv * H.expand_dims(hw, -2), dt)
  local norms = H.sum(H.absolute(hv) ^ 2, -2)
  near(what .. " unit columns", norms, H.ones(norms.shape, norms.dtype), dt)
  -- the largest component of each column is real
  local n = hv.shape[hv.ndim]
  if n == 0 then return end
  local tol = SINGLE[dt] and 1e-3 or 1e-8
  local cols = hv:swapaxes(-1, -2):reshape { -1, n }
  local mag, im = H.absolute(cols):tolist(), H.imag(cols):tolist()
  for c = 1, #mag do
    local m = 0
    for k = 1, n do m = math.max(m, mag[c][k]) end
    local ok = false
    for k = 1, n do
      if mag[c][k] >= m * (1 - tol) and math.abs(im[c][k]) <= tol then ok = true end
    end
    assert.is_true(ok, what .. ": column " .. c .. " has no real largest component")
  end
end

-- sorted eigenvalues of each matrix of a stack, as a host (batch, n) complex128 array
local function sorted_stack(w)
  local h = ga.asnumpy(w)
  local n = h.shape[h.ndim]
  local flat = h:reshape { -1, n }
  local rows = {}
  for i = 1, flat.shape[1] do rows[i] = sort_complex(flat[i]) end
  if #rows == 0 then return ga.host.zeros({ 0, n }, "complex128") end
  return ga.host.stack(rows)
end

helper.each_device(function(xp)
  local L = xp.linalg

  describe("NumPy's answers", function()
    for _, c in ipairs(REF) do
      it(c.id, function()
        local args = {}
        for i, a in ipairs(c.args) do args[i] = decode(xp, a) end
        local n = #c.args
        local got
        if c.fn == "abs_qr_r" then
          got = xp.absolute(L.qr(args[1], "r"))
        elseif c.fn == "sorted_eigvals" then
          got = sort_complex(L.eigvals(args[1]))
        elseif c.fn == "sorted_eigvals_stack" then   -- sorted per matrix
          got = sorted_stack(L.eigvals(args[1])):reshape(c.want.shape)
        elseif c.fn == "sorted_eig_w_stack" then
          local w, v = L.eig(args[1])
          assert.are.same(args[1].shape, v.shape)
          got = sorted_stack(w):reshape(c.want.shape)
        elseif c.fn == "sorted_roots" then
          got = sort_complex(xp.roots(args[1]))
        else
          got = table.pack(fn_of(xp, c.fn)(table.unpack(args, 1, n)))
          if type(c.want) ~= "table" or not c.want.list then got = got[1] end
        end
        local single = c.args[1].dtype == "float32" or c.args[1].dtype == "complex64"
        if type(c.want) == "table" and c.want.list then
          for i, w in ipairs(c.want.list) do check(c.id .. " result " .. i, got[i], w, single) end
        else
          check(c.id, got, c.want, single)
        end
      end)
    end
  end)

  describe("identities", function()
    -- (2, 36, 36): on a GPU, eigh of a stack above 32 x 32 (our Jacobi kernel, V in global memory)
    local SHAPES = { { 3, 3 }, { 2, 4, 4 }, { 2, 1, 3, 3 }, { 2, 36, 36 } }
    for _, dt in ipairs(DTYPES) do
      for _, shape in ipairs(SHAPES) do
        local tag = dt .. " (" .. table.concat(shape, ",") .. ")"
        it("A inv(A) = I, A solve(A, b) = b, det(A) det(inv(A)) = 1 " .. tag, function()
          local a = eye_plus(xp, shape, dt, 1)
          local n = shape[#shape]
          local I = ga.host.eye(n, nil, nil, dt)
          local inv = L.inv(a)
          near("A inv(A)", bmm(a, inv), ga.host.broadcast_to(I, shape), dt)
          local b = rand(xp, shape, dt, 2)
          near("A x", bmm(a, L.solve(a, b)), b, dt)
          if n <= 8 then   -- (36 x 36: |det| ~ 36^36 overflows float32)
            local d = ga.asnumpy(L.det(a) * L.det(inv))
            near("det", d, ga.host.ones(d.shape, dt), dt)
            local sign, logdet = L.slogdet(a)
            near("slogdet", ga.asnumpy(sign) * ga.host.exp(ga.asnumpy(logdet)):astype(dt), L.det(a), dt)
          end
        end)
        it("cholesky, eigh reconstruct " .. tag, function()
          local a = hpd(xp, shape, dt, 3)
          local l = L.cholesky(a)
          near("L Lh", bmm(l, ct(l)), a, dt)
          near("L lower", ga.host.triu(ga.asnumpy(l), 1), ga.host.zeros(shape, dt), dt)
          near("upper", L.cholesky(a, { upper = true }), ct(l), dt)
          local w, v = L.eigh(a)
          near("A V = V w", bmm(a, v), ga.asnumpy(v) * ga.host.expand_dims(ga.asnumpy(w), -2):astype(dt), dt)
          near("Vh V = I", bmm(ct(v), v), ga.host.broadcast_to(ga.host.eye(shape[#shape], nil, nil, dt), shape), dt)
          near("eigvalsh", L.eigvalsh(a, "U"), w, dt)
        end)
        it("eig: A V = V diag(w), unit columns, eigvals = w " .. tag, function()
          local a = rand(xp, shape, dt, 11)
          local w, v = L.eig(a)
          assert.are.same(a.shape, v.shape)
          check_eig("eig", a, w, v, dt)
          near("eigvals", L.eigvals(a), w, dt)
          -- a real input of real eigenvalues: real results (NumPy)
          local at = a:swapaxes(-1, -2)
          if CPLX[dt] then at = at:conj() end
          local s = a + at
          local ws, vs = L.eig(s)
          assert.are.equal(dt, ws.dtype)
          check_eig("eig of a Hermitian", s, ws, vs, dt)
        end)
      end
      for _, shape in ipairs { { 4, 3 }, { 3, 5 }, { 2, 5, 2 }, { 3, 2, 4 }, { 5, 6, 6 }, { 2, 36, 36 } } do
        local tag = dt .. " (" .. table.concat(shape, ",") .. ")"
        it("qr, svd reconstruct " .. tag, function()
          local a = rand(xp, shape, dt, 4)
          local m, n = shape[#shape - 1], shape[#shape]
          local k = math.min(m, n)
          for _, mode in ipairs { "reduced", "complete" } do
            local q, r = L.qr(a, mode)
            near("QR " .. mode, bmm(q, r), a, dt)
            local qc = q.shape[#shape]
            near("QhQ " .. mode, bmm(ct(q), q), ga.host.eye(qc, nil, nil, dt), dt)
            assert.are.equal(mode == "reduced" and k or m, r.shape[#shape - 1])
          end
          for _, full in ipairs { true, false } do
            local u, s, vh = L.svd(a, full)
            local us = ga.asnumpy(u)[{ ga.ellipsis, {}, { 1, k } }] * ga.host.expand_dims(ga.asnumpy(s), -2):astype(dt)
            near("U S Vh " .. tostring(full), bmm(us, ga.asnumpy(vh)[{ ga.ellipsis, { 1, k }, {} }]), a, dt)
            near("UhU", bmm(ct(u), u), ga.host.eye(u.shape[#shape], nil, nil, dt), dt)
            near("VVh", bmm(vh, ct(vh)), ga.host.eye(vh.shape[#shape - 1], nil, nil, dt), dt)
          end
          near("svdvals", L.svdvals(a), select(2, L.svd(a)), dt)
          local p = L.pinv(a)
          near("A pinv(A) A", bmm(bmm(a, p), a), a, dt)
        end)
      end
      it("lstsq against the normal equations " .. dt, function()
        local a = rand(xp, { 7, 3 }, dt, 5)
        local b = rand(xp, { 7, 2 }, dt, 6)
        local x, res, rank = L.lstsq(a, b)
        near("AhA x = Ah b", bmm(ct(a), bmm(a, x)), bmm(ct(a), b), dt)
        assert.are.equal(3, rank)
        local r = ga.asnumpy(b) - bmm(a, x)
        near("residuals", res, ga.host.sum(ga.host.absolute(r) ^ 2, 1), dt)
      end)
    end

    it("empty batches and 0x0 matrices", function()
      local e = xp.zeros({ 0, 3, 3 })
      assert.are.same({ 0, 3, 3 }, L.inv(e).shape)
      assert.are.same({ 0 }, L.det(e).shape)
      assert.are.same({ 0, 3 }, L.eigvalsh(e).shape)
      assert.are.same({ 0, 3, 3 }, L.cholesky(e).shape)
      assert.are.same({ 0, 3 }, L.svdvals(e).shape)
      assert.are.same({ 0, 3, 2 }, L.solve(e, xp.zeros { 0, 3, 2 }).shape)
      local z = xp.zeros({ 2, 0, 0 })
      assert.are.same({ 2, 0, 0 }, L.inv(z).shape)
      helper.assert_close(L.det(z), { 1, 1 })
      assert.are.same({ 2, 0 }, L.eigvalsh(z).shape)
      local u, s, vh = L.svd(xp.zeros { 3, 0 })
      assert.are.same({ 3, 3 }, u.shape)
      assert.are.same({ 0 }, s.shape)
      assert.are.same({ 0, 0 }, vh.shape)
      local q, r = L.qr(xp.zeros { 3, 0 }, "complete")
      assert.are.same({ 3, 3 }, q.shape)
      assert.are.same({ 3, 0 }, r.shape)
      assert.are.same({ 0, 3 }, L.pinv(xp.zeros { 3, 0 }).shape)
      for _, dt in ipairs(DTYPES) do
        local w, v = L.eig(xp.zeros({ 0, 3, 3 }, dt))
        assert.are.same({ 0, 3 }, w.shape)
        assert.are.same({ 0, 3, 3 }, v.shape)
        assert.are.equal(dt, w.dtype)   -- no complex eigenvalue: the input's dtype (NumPy)
        w, v = L.eig(xp.zeros({ 2, 0, 0 }, dt))
        assert.are.same({ 2, 0 }, w.shape)
        assert.are.same({ 2, 0, 0 }, v.shape)
        assert.are.same({ 0 }, L.eigvals(xp.zeros({ 0, 0 }, dt)).shape)
      end
    end)

    it("eig: dtypes as NumPy 2, conjugate pairs, a defective matrix, a mixed batch", function()
      -- a rotation: i and -i, complex results of the input's precision
      for _, dt in ipairs { "float32", "float64" } do
        local r = xp.array({ { 0, -1 }, { 1, 0 } }, dt)
        local w, v = L.eig(r)
        assert.are.equal(CPLX_OF[dt], w.dtype)
        local want = ga.host.zeros({ 2 }, "complex128")
        want.imag[ga.ellipsis] = ga.host.array { -1.0, 1.0 }
        near("rotation w", sort_complex(w), want, dt)
        check_eig("rotation", r, w, v, dt)
        -- real eigenvalues: real results
        local d = xp.array({ { 2, 1 }, { 0, 3 } }, dt)
        w, v = L.eig(d)
        assert.are.equal(dt, w.dtype)
        near("triangular w", ga.host.sort(ga.asnumpy(w)), ga.host.array({ 2, 3 }, dt), dt)
        check_eig("triangular", d, w, v, dt)
        assert.are.equal(dt, L.eigvals(d).dtype)
        -- one complex pair anywhere in a batch makes the whole result complex
        local b = xp.stack { r, d }
        w, v = L.eig(b)
        assert.are.equal(CPLX_OF[dt], w.dtype)
        check_eig("mixed batch", b, w, v, dt)
      end
      -- complex input with real eigenvalues stays complex
      local c = xp.array({ { 2, 0 }, { 0, 3 } }, "complex128")
      assert.are.equal("complex128", L.eigvals(c).dtype)
      -- integers compute in float64
      assert.are.equal("float64", L.eigvals(xp.array { { 2, 0 }, { 0, 3 } }).dtype)
      assert.are.equal("complex128", L.eigvals(xp.array { { 0, -1 }, { 1, 0 } }).dtype)
      -- a defective matrix (one eigenvector): w = {1, 1}, both columns +-e1
      local j = xp.array { { 1.0, 1.0 }, { 0.0, 1.0 } }
      local w, v = L.eig(j)
      assert.are.equal("float64", w.dtype)
      near("defective w", w, ga.host.array { 1.0, 1.0 }, "float64")
      check_eig("defective", j, w, v, "float64")
      near("defective v", ga.host.absolute(ga.asnumpy(v)[{ 1, {} }]), ga.host.array { 1.0, 1.0 }, "float64")
      -- float32 keeps float32 accuracy on a larger matrix
      local a32 = rand(xp, { 24, 24 }, "float32", 12)
      local w32, v32 = L.eig(a32)
      assert.are.equal("complex64", w32.dtype)
      check_eig("float32 24x24", a32, w32, v32, "float32")
      local w64 = L.eigvals(a32:astype("float64"))
      near("float32 vs float64 eigenvalues", sorted_stack(w32), sorted_stack(w64), "float32")
      -- transposed and stepped inputs, never modified
      local base = rand(xp, { 6, 6 }, "float64", 13)
      local before = base:copy()
      near("eigvals(A.T)", sorted_stack(L.eigvals(base.T)), sorted_stack(L.eigvals(base.T:copy())), "float64")
      local st = base[{ { 1, 6, 2 }, { 1, 6, 2 } }]
      near("eigvals(stepped)", sorted_stack(L.eigvals(st)), sorted_stack(L.eigvals(st:copy())), "float64")
      assert.is_true(ga.array_equal(base, before))
      assert.has_no.errors(function() L.eig(base, { check = false }) end)
    end)

    if xp ~= ga.host then
      it("eig and eigvals of GPU arrays run on the GPU (cuSOLVER Xgeev)", function()
        local before = L._geev_host_runs
        local w, v = L.eig(rand(xp, { 3, 5, 5 }, "complex64", 14))
        L.eigvals(rand(xp, { 5, 5 }, "float64", 14))
        assert.are.equal(w.device.id, v.device.id)
        assert.is_true(w.device.id >= 0)
        if os.getenv("GPUARRAY_GEEV") ~= "0" then
          assert.are.equal(before, L._geev_host_runs, "eig fell back to the host: cuSOLVER without Xgeev?")
        else
          assert.are.equal(before + 2, L._geev_host_runs)
        end
      end)
    end

    it("transposed, stepped and broadcast inputs; inputs never modified", function()
      local base = eye_plus(xp, { 6, 6 }, "float64", 7)
      local before = base:copy()
      local t = base.T
      near("inv(A.T)", L.inv(t), L.inv(t:copy()), "float64")
      local st = base[{ { 1, 6, 2 }, { 1, 6, 2 } }]
      near("inv(stepped)", L.inv(st), L.inv(st:copy()), "float64")
      local b = xp.arange(3.0)
      local bb = xp.broadcast_to(b:reshape { 3, 1 }, { 2, 3, 1 })
      near("solve broadcast batch", L.solve(xp.broadcast_to(st, { 2, 3, 3 }), bb)[1],
           L.solve(st, b:reshape { 3, 1 }), "float64")
      near("svd(A.T)", L.svdvals(t), L.svdvals(base), "float64")
      assert.is_true(ga.array_equal(base, before))
    end)

    it("integers compute in float64, float16 is refused", function()
      assert.are.equal("float64", L.inv(xp.array { { 2, 1 }, { 1, 3 } }).dtype)
      assert.are.equal("float32", L.svdvals(xp.ones({ 2, 2 }, "float32")).dtype)
      assert.are.equal("float64", L.eigvalsh(xp.ones({ 2, 2 }, "complex128")).dtype)
      helper.assert_error(function() L.inv(xp.ones({ 2, 2 }, "float16")) end,
        "inv: array type float16 is unsupported in linalg")
    end)

    it("norm ord 2, -2 and 'nuc' keep dims", function()
      local x = rand(xp, { 2, 3, 4 }, "float64", 8)
      local r = L.norm(x, 2, { 2, 3 }, true)
      assert.are.same({ 2, 1, 1 }, r.shape)
      near("norm 2", r:reshape { 2 }, ga.host.max(ga.asnumpy(L.svdvals(x)), -1), "float64")
      near("nuc", L.norm(x, "nuc", { -1, -2 }), ga.host.sum(ga.asnumpy(L.svdvals(x:swapaxes(-1, -2))), -1), "float64")
    end)
  end)

  describe("bad inputs", function()
    it("raise NumPy's messages", function()
      helper.assert_error(function() L.solve(xp.array { { 1, 2 }, { 2, 4 } }, xp.array { 1, 2 }) end,
        "solve: Singular matrix")
      helper.assert_error(function() L.inv(xp.zeros { 2, 3, 3 }) end, "inv: Singular matrix")
      helper.assert_error(function() L.cholesky(xp.array { { 1, 2 }, { 2, 1 } }) end,
        "cholesky: Matrix is not positive definite")
      -- a stack with one bad matrix (the check waits after the in-place zeroing is queued)
      helper.assert_error(function() L.cholesky(xp.array { { { 4, 0 }, { 0, 1 } }, { { 1, 2 }, { 2, 1 } } }) end,
        "cholesky: Matrix is not positive definite")
      helper.assert_error(function() L.inv(xp.ones { 2, 3 }) end, "inv: Last 2 dimensions of the array must be square")
      helper.assert_error(function() L.det(xp.ones { 3 }) end,
        "det: 1-dimensional array given. Array must be at least two-dimensional")
      helper.assert_error(function() L.eigh(xp.ones { 3, 2 }) end, "Last 2 dimensions of the array must be square")
      helper.assert_error(function() L.solve(xp.eye(3), xp.ones { 2 }) end, "solve: Input operand 1 has a mismatch")
      helper.assert_error(function() L.solve(xp.ones { 2, 3, 3 }, xp.ones { 3, 3, 1 }) end, "solve:")
      helper.assert_error(function() L.svd(xp.array { { 1, 0 / 0 }, { 0, 1 } }) end, "svd: SVD did not converge")
      helper.assert_error(function() L.lstsq(xp.ones { 3, 2 }, xp.ones { 2 }) end, "lstsq: Incompatible dimensions")
      helper.assert_error(function() L.eigvals(xp.array { { 1, 0 / 0 }, { 0, 1 } }) end,
        "eigvals: Array must not contain infs or NaNs")
      local inf = xp.array({ { { 1, 0 }, { 0, 1 } }, { { 1, 1 / 0 }, { 0, 1 } } }, "complex64")
      helper.assert_error(function() L.eig(inf) end, "eig: Array must not contain infs or NaNs")
      helper.assert_error(function() L.eig(xp.ones { 2, 3 }) end, "eig: Last 2 dimensions of the array must be square")
      helper.assert_error(function() L.eigvals(xp.ones { 3 }) end,
        "eigvals: 1-dimensional array given. Array must be at least two-dimensional")
      helper.assert_error(function() L.eig(xp.ones({ 2, 2 }, "float16")) end,
        "eig: array type float16 is unsupported in linalg")
      helper.assert_error(function() L.qr(xp.ones { 2, 2 }, "full") end, "qr: Unrecognized mode 'full'")
      helper.assert_error(function() L.eigh(xp.eye(2), "X") end, "eigh: UPLO argument must be 'L' or 'U'")
      helper.assert_error(function() L.inv(xp.eye(2), { bogus = 1 }) end, "inv: unknown option 'bogus'")
      helper.assert_error(function() L.inv("x") end, "inv: the input must be an array")
      helper.assert_error(function() L.tensorinv(xp.ones { 2, 2 }, 0) end, "tensorinv: Invalid ind argument.")
      helper.assert_error(function() xp.polyfit(xp.ones { 3 }, xp.ones { 4 }, 1) end,
        "polyfit: expected x and y to have same length")
      helper.assert_error(function() xp.roots(xp.ones { 2, 2 }) end, "roots: Input must be a rank-1 array.")
      helper.assert_error(function() xp.polyfit(xp.arange(3), xp.arange(3), 2, { cov = "x" }) end,
        "polyfit: cov must be a boolean or 'unscaled', got 'x'")
      helper.assert_error(function() xp.polyfit(xp.arange(3), xp.arange(3), 2, { cov = true }) end,
        "polyfit: the number of data points must exceed order to scale the covariance matrix")
      for _, cov in ipairs { true, "unscaled" } do
        helper.assert_error(function() xp.polyfit(xp.ones { 4 }, xp.arange(4), 2, { cov = cov }) end,
          "polyfit: the fit is rank-deficient (rank 1 < 3): its covariance matrix is singular")
      end
    end)

    it("polyfit cov = true / 'unscaled' as NumPy 2 (1-D and 2-D y, weights)", function()
      -- numpy.polyfit(x, y, deg, cov=...) printed by NumPy 2.4
      local x = xp.array { 0, 1, 2, 3, 4, 5 }
      local y = xp.array { 1, 2.9, 7.2, 12.8, 21.1, 31 }
      local function near_ref(got, want)
        local g = ga.asnumpy(got):ravel():tolist()
        assert.are.equal(#want, #g)
        for i = 1, #want do assert.is_true(math.abs(g[i] - want[i]) <= 1e-9 * (1 + math.abs(want[i])), i) end
      end
      local c, V = xp.polyfit(x, y, 2, { cov = true })
      near_ref(c, { 1, 1.0057142857142853, 0.9857142857142918 })
      near_ref(V, { 0.00088775510204082, -0.00443877551020411, 0.00295918367346941, -0.00443877551020411,
                0.02408775510204095, -0.01953061224489807, 0.00295918367346941, -0.01953061224489807,
                0.02722448979591848 })
      local _, Vu = xp.polyfit(x, y, 2, nil, false, nil, "unscaled")
      near_ref(Vu, { 0.02678571428571438, -0.13392857142857192, 0.0892857142857147, -0.13392857142857192,
                 0.726785714285717, -0.5892857142857165, 0.08928571428571473, -0.5892857142857167,
                 0.8214285714285735 })
      local Y = xp.stack({ y, y * 2 + 1 }, 2)
      local _, V2 = xp.polyfit(x, Y, 1, { cov = true })
      assert.are.same({ 2, 2, 2 }, { V2.shape[1], V2.shape[2], V2.shape[3] })
      near_ref(V2, { 0.5347537414965988, 2.1390149659863944, -1.3368843537414972, -5.347537414965986,
                 -1.3368843537414972, -5.347537414965986, 4.901909297052156, 19.607637188208614 })
      local _, Vw = xp.polyfit(x, y, 2, { w = xp.array { 1, 2, 1, 2, 1, 2 }, cov = true })
      near_ref(Vw, { 0.00067376702922708, -0.00375021270984882, 0.00331374727582122, -0.00375021270984882,
                 0.022141086337808, -0.02199277284080834, 0.00331374727582122, -0.02199277284080834,
                 0.0298152504254196 })
    end)

    it("check = false and set_checks(false) skip the info flags", function()
      local s = xp.array { { 1, 2 }, { 2, 4 } }
      assert.has_no.errors(function() L.inv(s, { check = false }) end)
      local old = L.set_checks(false)
      local ok = pcall(L.cholesky, xp.array { { 1, 2 }, { 2, 1 } })
      L.set_checks(old)
      assert.is_true(ok)
      assert.is_true(old)
    end)
  end)
end)

describe("the GPU against the host", function()
  for _, dt in ipairs(DTYPES) do
    it(dt, function()
      local opts = { rtol = SINGLE[dt] and 2e-3 or 1e-9, atol = SINGLE[dt] and 2e-3 or 1e-9 }
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.inv(eye_plus(xp, { 3, 4, 4 }, dt, 9)) end, opts)
      helper.assert_gpu_vs_host(function(xp)
        return xp.linalg.solve(eye_plus(xp, { 3, 4, 4 }, dt, 9), rand(xp, { 3, 4, 2 }, dt, 1))
      end, opts)
      -- det of a 40x40 overflows float32 (|det| ~ 40^40): compare it on 6x6, slogdet on 40x40
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.det(eye_plus(xp, { 6, 6 }, dt, 9)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return select(2, xp.linalg.slogdet(eye_plus(xp, { 40, 40 }, dt, 9))) end,
        opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.slogdet(eye_plus(xp, { 40, 40 }, dt, 9)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.cholesky(hpd(xp, { 5, 6, 6 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.cholesky(hpd(xp, { 70, 70 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.eigvalsh(hpd(xp, { 5, 6, 6 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.eigvalsh(hpd(xp, { 40, 40 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.svdvals(rand(xp, { 6, 5, 7 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.svdvals(rand(xp, { 64, 8, 8 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.svdvals(rand(xp, { 3, 40, 40 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.eigvalsh(hpd(xp, { 3, 40, 40 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.svdvals(rand(xp, { 50, 37 }, dt, 2)) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.absolute(xp.linalg.qr(rand(xp, { 9, 6 }, dt, 2), "r")) end, opts)
      helper.assert_gpu_vs_host(function(xp) return xp.linalg.pinv(rand(xp, { 4, 3, 5 }, dt, 2)) end, opts)
      -- eig: the solvers may order eigenvalues differently; sorted per matrix
      if helper.has_gpu() then
        for _, shape in ipairs { { 5, 5 }, { 4, 6, 6 }, { 40, 40 }, { 2, 3, 7, 7 } } do
          local hw = ga.host.linalg.eigvals(rand(ga.host, shape, dt, 15))
          local gw, gv = ga.linalg.eig(rand(ga, shape, dt, 15))
          assert.are.equal(hw.dtype, gw.dtype, "eig dtype on GPU vs host")
          assert.is_true(gw.device.id >= 0)
          local scale = SINGLE[dt] and 2e-3 or 1e-8
          local d = ga.host.max(ga.host.absolute(sorted_stack(gw) - sorted_stack(hw))):item()
          local m = math.max(1, ga.host.max(ga.host.absolute(ga.asnumpy(hw))):item())
          assert.is_true(d <= scale * m, ("eigvals %s GPU vs host: %g"):format(table.concat(shape, "x"), d))
          check_eig("GPU eig " .. table.concat(shape, "x"), rand(ga, shape, dt, 15), gw, gv, dt)
        end
      end
    end)
  end
end)

describe("solver kernels", function()
  it("compile with NVRTC (no GPU needed)", function()
    local ok, size = pcall(ga.core._compile_linalg, 0, "float32", 8, 90)
    assert.is_true(ok, tostring(size))
    assert.is_true(size > 0)
  end)
end)

describe("the batched Jacobi kernel", function()
  for _, dt in ipairs(DTYPES) do
    it("compiles with NVRTC for " .. dt .. " (svd and eigh)", function()
      for _, n in ipairs { 1, 8, 32, dt == "complex128" and 48 or 64 } do
        for which = 1, 2 do
          local ok, size = pcall(ga.core._compile_linalg, which, dt, n, 90)
          assert.is_true(ok, tostring(size))
        end
      end
    end)
  end
end)
