-- eigh/eigvalsh of stacks of small real symmetric matrices: on a GPU our
-- two-sided batched Jacobi kernel (kernels/ga_jacobi_sym.cuh: float32 up to
-- 32 x 32, float64 up to 16 x 16; larger ones the one-sided kernel), on the
-- host LAPACK; the same rows run on both.  Checked by identities (A V = V
-- diag(w), Vᵀ V = I, w ascending), against the host's eigenvalues, one
-- size per lane count (each size is an NVRTC compile on a GPU: 1, 2, 3,
-- 16, 17), batches that fill warps and blocks partly, both triangles (UPLO),
-- degenerate eigenvalues, diagonal input, huge and tiny scales, NaN input.
local helper = require "spec.helper"
local ga = helper.ga
local H = ga.host

local TOL = { float32 = 5e-5, float64 = 1e-12 }   -- relative to max |A| (times n below)

-- host batched product over the last two axes
local function bmm(a, b) return H.sum(H.expand_dims(a, -1) * H.expand_dims(b, -3), -2) end

-- a host stack (nb, n, n) of symmetric matrices, float64
local function sym(nb, n, seed)
  local g = H.random.default_rng(seed)
  local x = g:standard_normal { nb, n, n }
  return (x + x:swapaxes(-1, -2)) * 0.5
end

-- Q diag(d) Qᵀ with Q orthogonal (host, float64): given eigenvalues
local function with_eigs(nb, n, seed, d)
  local g = H.random.default_rng(seed)
  local q = H.linalg.qr(g:standard_normal { nb, n, n })
  local dd = H.broadcast_to(H.array(d), { nb, n })
  return bmm(q * H.expand_dims(dd, -2), q:swapaxes(-1, -2))
end

-- checks w, v = eigh(a) of the host float64 stack s given in dtype dt
local function check(what, s, w, v, dt)
  local n = s.shape[#s.shape]
  local a = s:astype(dt):astype("float64")      -- the matrix the device saw
  w, v = ga.asnumpy(w):astype("float64"), ga.asnumpy(v):astype("float64")
  assert.are.same(s.shape, v.shape, what .. ": vectors' shape")
  assert.are.same({ table.unpack(s.shape, 1, #s.shape - 1) }, w.shape, what .. ": eigenvalues' shape")
  local scale = H.max(H.absolute(a)):item()
  if scale == 0 then scale = 1 end
  local tol = TOL[dt] * math.max(n, 4) * scale
  local res = H.max(H.absolute(bmm(a, v) - v * H.expand_dims(w, -2))):item()
  assert.is_true(res <= tol, ("%s: |A V - V w| %g (tolerance %g)"):format(what, res, tol))
  local orth = H.max(H.absolute(bmm(v:swapaxes(-1, -2), v) - H.eye(n))):item()
  assert.is_true(orth <= TOL[dt] * math.max(n, 4), ("%s: |Vᵀ V - I| %g"):format(what, orth))
  if n > 1 then
    local d = w[{ ga.ellipsis, { 2, n } }] - w[{ ga.ellipsis, { 1, n - 1 } }]
    assert.is_true(H.min(d):item() >= 0, what .. ": eigenvalues not ascending")
  end
  local want = H.linalg.eigvalsh(a)
  local err = H.max(H.absolute(w - want)):item()
  assert.is_true(err <= tol, ("%s: eigenvalues off by %g (tolerance %g)"):format(what, err, tol))
end

helper.each_device(function(xp)
  local L = xp.linalg
  local dev = xp == H and "host" or "gpu"

  describe("eigh of small symmetric stacks (" .. dev .. ")", function()
    for _, dt in ipairs { "float32", "float64" } do
      -- every size is a kernel of its own (NVRTC, seconds for 32 lanes):
      -- one size per lane count (2, 4, 16, 32) and the U triangle twice
      local sizes = dt == "float32" and { 1, 3, 16, 17 } or { 2, 3, 16 }
      for _, n in ipairs(sizes) do
        -- 37: a warp and a block partly filled for every lane count
        local nb = n <= 4 and 37 or 5
        local both = n == 3 or n == 16
        it(("%s n=%d, %d matrices%s"):format(dt, n, nb, both and ", UPLO L and U" or ""), function()
          local s = sym(nb, n, n)
          local w, v = L.eigh(xp.asarray(s:astype(dt)))
          check("L", s, w, v, dt)
          -- only the named triangle is read: the other holds garbage
          local g = H.random.default_rng(99):standard_normal { nb, n, n } * 100
          local lo = H.tril(s) + H.triu(g, 1)
          local wl, vl = L.eigh(xp.asarray(lo:astype(dt)), "L")
          check("tril", s, wl, vl, dt)
          if both then
            local up = H.triu(s) + H.tril(g, -1)
            local wu, vu = L.eigh(xp.asarray(up:astype(dt)), "U")
            check("triu", s, wu, vu, dt)
          end
          -- eigvalsh: the same values
          local w2 = ga.asnumpy(L.eigvalsh(xp.asarray(s:astype(dt))))
          local d = H.max(H.absolute(w2:astype("float64") - ga.asnumpy(w):astype("float64"))):item()
          assert.is_true(d <= TOL[dt] * 16 * math.max(1, H.max(H.absolute(s)):item()), "eigvalsh vs eigh " .. d)
        end)
      end

      it(dt .. ": degenerate eigenvalues, diagonal and zero input", function()
        for _, n in ipairs { 3, 16 } do
          local d = {}
          for k = 1, n do d[k] = k <= n // 2 and 1 or 3 end
          local s = with_eigs(3, n, n, d)
          local w, v = L.eigh(xp.asarray(s:astype(dt)))
          check("degenerate n=" .. n, s, w, v, dt)
          local diag = H.zeros { 4, n, n }
          local g = H.random.default_rng(n):standard_normal { 4, n }
          for b = 1, 4 do for k = 1, n do diag[{ b, k, k }] = g[{ b, k }] end end
          w, v = L.eigh(xp.asarray(diag:astype(dt)))
          check("diagonal n=" .. n, diag, w, v, dt)
          w, v = L.eigh(xp.zeros({ 2, n, n }, dt))
          assert.are.equal(0, H.max(H.absolute(ga.asnumpy(w))):item())
          check("zero n=" .. n, H.zeros { 2, n, n }, w, v, dt)
        end
      end)

      it(dt .. ": huge and tiny scales", function()
        local big, small = dt == "float32" and 1e30 or 1e200, dt == "float32" and 1e-30 or 1e-200
        for _, n in ipairs { 3, 16 } do
          for _, k in ipairs { big, small } do
            local s = sym(3, n, 7) * k
            local w, v = L.eigh(xp.asarray(s:astype(dt)))
            check(("scale %g n=%d"):format(k, n), s, w, v, dt)
          end
        end
      end)

      -- (LAPACK may say it did not converge; the GPU kernel returns NaNs)
      it(dt .. ": a NaN spoils its own matrix only", function()
        for _, n in ipairs { 3, 16 } do
          local s = sym(3, n, 5)
          local x = s:copy()
          x[{ 2, 1, 1 }] = 0 / 0
          local ok, w, v = pcall(L.eigh, xp.asarray(x:astype(dt)))
          if not ok then
            assert.is_truthy(tostring(w):find("Eigenvalues did not converge", 1, true), tostring(w))
            return
          end
          w, v = ga.asnumpy(w), ga.asnumpy(v)
          for _, b in ipairs { 1, 3 } do
            check("neighbour " .. b, s[{ { b, b } }], w[{ { b, b } }], v[{ { b, b } }], dt)
          end
          local nan = H.any(H.isnan(w[{ 2 }])):item() or H.any(H.isnan(v[{ 2 }])):item()
          assert.is_true(nan, "the NaN matrix's results hold a NaN")
        end
      end)
    end
  end)
end)

describe("the two-sided Jacobi eigh kernel", function()
  it("compiles with NVRTC (no GPU needed)", function()
    -- every lane count once (P = 32 takes seconds of NVRTC: one of them;
    -- the sizes the GPU rows run, so that the disk cache serves both)
    for _, dt in ipairs { "float32", "float64" } do
      for _, n in ipairs(dt == "float32" and { 1, 3, 7, 16, 17 } or { 2, 16 }) do
        local ok, size = pcall(ga.core._compile_linalg, 3, dt, n, 90)
        assert.is_true(ok, tostring(size))
        assert.is_true(size > 0)
      end
      -- past its sizes: no source
      assert.is_false(pcall(ga.core._linalg_source, 3, dt, dt == "float32" and 33 or 17))
    end
  end)
end)
