--- Dense linear algebra: `ga.linalg` (arrays on the current device:
-- cuSOLVER, cuBLAS's batched LU) and `ga.host.linalg` (host arrays:
-- LAPACK through OpenBLAS), with NumPy's names, arguments and results.
--
-- **Batches.** Every function takes a stack of matrices: the last two axes
-- are the matrix, the leading ones a batch (broadcast between the
-- operands of `solve`). A batch is one library call (cuSOLVER's and
-- cuBLAS's batched routines where they exist, else one launch per matrix
-- queued on the stream), never a synchronisation per matrix.
--
-- **dtypes.** float32, float64, complex64 and complex128; integers and
-- bool are computed in float64 (as NumPy); float16 is an error (as NumPy).
-- Results have the input's precision; eigenvalues and singular values its
-- real dtype.
--
-- **Errors** are NumPy's `LinAlgError` texts: `Singular matrix`, `Matrix is
-- not positive definite`, `Last 2 dimensions of the array must be square`,
-- `SVD did not converge`, `Eigenvalues did not converge`. On a GPU they
-- are found by reading the solver's info flags back: one small
-- synchronisation per call. `{check = false}` as the last argument (or
-- `ga.linalg.set_checks(false)` for every call) skips it: a failed
-- factorisation then returns NaN or garbage silently, as CuPy does.
--
-- **Layout.** Inputs of any strides (transposed, stepped, broadcast) are
-- copied once into the column-major order the solvers take (a row-major
-- matrix is its transpose in column-major order, which several routines
-- use without a transpose: `solve` and `inv` factor Aᵀ and solve with the
-- transposed flag). Inputs are never modified.
-- @module gpuarray.linalg
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local GETRF, GETRS, POTRF, GEQRF, ORGQR, SYEVD, GESVD, GESVDJ, GEEV = 0, 1, 2, 3, 4, 5, 6, 7, 8
local CHECKS = true          -- ga.linalg.set_checks
local REAL = { float32 = "float32", float64 = "float64", complex64 = "float32", complex128 = "float64" }
local CPLX = { float32 = "complex64", float64 = "complex128", complex64 = "complex64", complex128 = "complex128" }
local EPS = { float32 = 1.1920928955078125e-07, float64 = 2.220446049250313e-16 }

local function build(host)
  local L = {}
  local G = C.lazy_module(host)

  local function arr(fname, x)
    if is_array(x) then return x end
    if type(x) == "table" or type(x) == "number" or type(x) == "boolean" then return G().asarray(x) end
    fail(fname, "the input must be an array, a table or a number, got %s", typename(x))
  end

  -- the trailing options table (a table with a string key, or empty)
  local function is_opts(t)
    if type(t) ~= "table" or is_array(t) then return false end
    if next(t) == nil then return true end
    for k in pairs(t) do if type(k) == "string" then return true end end
    return false
  end

  -- positional arguments by name, or one options table last; `check` is
  -- always allowed
  local function args(fname, names, ...)
    local n = select("#", ...)
    local v = { ... }
    while n > 0 and v[n] == nil do n = n - 1 end
    local opts
    if n > 0 and is_opts(v[n]) then opts = v[n]; v[n] = nil; n = n - 1 end
    if n > #names then fail(fname, "too many arguments") end
    local r = {}
    for i = 1, #names do r[names[i]] = v[i] end
    if opts then
      local allowed = { check = true }
      for _, k in ipairs(names) do allowed[k] = true end
      for k, val in pairs(opts) do
        if type(k) ~= "string" or not allowed[k] then fail(fname, "unknown option '%s'", tostring(k)) end
        if r[k] ~= nil then fail(fname, "%s given both as an argument and as an option", k) end
        r[k] = val
      end
    end
    if r.check == nil then r.check = CHECKS else r.check = r.check and true or false end
    return r
  end

  -- the dtype the solvers compute x in (NumPy's linalg rules)
  local function solve_dtype(fname, dt)
    if dt == "float32" or dt == "float64" or dt == "complex64" or dt == "complex128" then return dt end
    if dt == "float16" then fail(fname, "array type float16 is unsupported in linalg") end
    return "float64"
  end

  local function matrix(fname, x, square)
    x = arr(fname, x)
    if x.ndim < 2 then
      fail(fname, "%d-dimensional array given. Array must be at least two-dimensional", x.ndim)
    end
    if square and x.shape[x.ndim] ~= x.shape[x.ndim - 1] then
      fail(fname, "Last 2 dimensions of the array must be square")
    end
    local dt = solve_dtype(fname, x.dtype)
    if dt ~= x.dtype then x = x:astype(dt) end
    return x
  end

  local function batch_of(x, drop)
    local s = x.shape
    for _ = 1, drop or 2 do s[#s] = nil end
    return s
  end
  local function concat(a, ...)
    local r = {}
    for i = 1, #a do r[i] = a[i] end
    for _, v in ipairs { ... } do r[#r + 1] = v end
    return r
  end

  -- a fresh C-contiguous copy of x (transposed in its last two axes when t)
  local function fresh(x, t)
    if t then x = x:swapaxes(-1, -2) end
    return x:copy()
  end

  local function lapack(fname, op, a, o)
    local info = G().zeros(batch_of(a), "int32")
    local bad = core._lapack(op, a, o.b or nil, o.u or nil, o.vt or nil, o.ipiv or nil, info, o.k or 0,
                             o.flag or 0, o.uplo or 0, o.check and true or false, fname)
    return bad, info
  end

  -- matrix product over the last two axes with broadcast batches:
  -- ga.matmul where it takes the operands, else a broadcast product summed
  local function mm(a, b)
    local ok, r = pcall(G().matmul, a, b)
    if ok then return r end
    local M = G()
    return M.sum(M.expand_dims(a, -1) * M.expand_dims(b, -3), -2)
  end
  local function H(x)   -- conjugate transpose of the last two axes
    x = x:swapaxes(-1, -2)
    if x.dtype == "complex64" or x.dtype == "complex128" then x = x:conj() end
    return x
  end
  local function is_complex(dt) return dt == "complex64" or dt == "complex128" end

  --- ga.linalg.set_checks(on): whether the solvers read their info flags
  -- (errors for singular, not positive definite, no convergence; on a GPU
  -- a small synchronisation per call). Returns the previous setting.
  function L.set_checks(on)
    local old = CHECKS
    CHECKS = on and true or false
    return old
  end

  -- solve ------------------------------------------------------------------
  function L.solve(a, b, ...)
    local fname = "solve"
    local o = args(fname, {}, ...)
    a = matrix(fname, a, true)
    b = arr(fname, b)
    local dt = solve_dtype(fname, G().result_type(a, b))
    local n = a.shape[a.ndim]
    local vec = b.ndim == 1
    if vec then b = b:reshape { n == b.shape[1] and n or b.shape[1], 1 } end
    if b.shape[b.ndim - 1] ~= n then
      fail(fname, "Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n) "
           .. "(size %d is different from %d)", b.shape[b.ndim - 1], n)
    end
    local k = b.shape[b.ndim]
    local ok, batch = pcall(G().broadcast_shapes, batch_of(a), batch_of(b))
    if not ok then
      fail(fname, "operands could not be broadcast together: %s", tostring(batch):gsub("^[%w_.]+: ", ""))
    end
    local A = fresh(G().broadcast_to(a, concat(batch, n, n)):astype(dt))
    local B = fresh(G().broadcast_to(b, concat(batch, n, k)):astype(dt), true)   -- (..., k, n): column-major b
    local ipiv = G().empty(concat(batch, n), "int32")
    if lapack(fname, GETRF, A, { ipiv = ipiv, check = o.check }) ~= 0 then fail(fname, "Singular matrix") end
    lapack(fname, GETRS, A, { b = B, ipiv = ipiv, k = k, flag = 1 })      -- (Aᵀ)ᵀ x = b
    if vec then return B:reshape(concat(batch, n)) end
    return B:swapaxes(-1, -2)
  end

  -- inv --------------------------------------------------------------------
  function L.inv(a, ...)
    local fname = "inv"
    local o = args(fname, {}, ...)
    a = matrix(fname, a, true)
    local n, batch = a.shape[a.ndim], batch_of(a)
    local A = fresh(a)
    local B = G().broadcast_to(G().eye(n, nil, nil, a.dtype), concat(batch, n, n)):copy()
    local ipiv = G().empty(concat(batch, n), "int32")
    if lapack(fname, GETRF, A, { ipiv = ipiv, check = o.check }) ~= 0 then fail(fname, "Singular matrix") end
    -- column-major Aᵀ X = I: X = inv(Aᵀ), which read row-major is inv(A)
    lapack(fname, GETRS, A, { b = B, ipiv = ipiv, k = n, flag = 0 })
    return B
  end

  -- det, slogdet -----------------------------------------------------------
  local function lu_parts(fname, a)
    local n, batch = a.shape[a.ndim], batch_of(a)
    local A = fresh(a)
    local ipiv = G().empty(concat(batch, n), "int32")
    lapack(fname, GETRF, A, { ipiv = ipiv })
    local M = G()
    local d = M.diagonal(A, 0, -2, -1)
    local swaps = M.count_nonzero(M.not_equal(ipiv, M.arange(1, n + 1, 1, "int32")), -1)
    local odd = M.equal(M.remainder(swaps, 2), 1)
    return d, odd, batch
  end

  function L.det(a, ...)
    local fname = "det"
    args(fname, {}, ...)
    a = matrix(fname, a, true)
    if a.shape[a.ndim] == 0 then return G().ones(batch_of(a), a.dtype) end
    local d, odd = lu_parts(fname, a)
    local p = G().prod(d, -1)
    return G().where(odd, -p, p)
  end

  function L.slogdet(a, ...)
    local fname = "slogdet"
    args(fname, {}, ...)
    a = matrix(fname, a, true)
    local M, rdt = G(), REAL[a.dtype]
    if a.shape[a.ndim] == 0 then return M.ones(batch_of(a), a.dtype), M.zeros(batch_of(a), rdt) end
    local d, odd = lu_parts(fname, a)
    local ad = M.absolute(d)
    local logdet = M.sum(M.log(ad), -1)
    local zero = M.any(M.equal(ad, 0), -1)
    local sign
    if is_complex(a.dtype) then
      sign = M.prod(M.where(M.equal(ad, 0), 1, d / ad:astype(a.dtype)), -1)
    else
      sign = M.prod(M.sign(d), -1)
    end
    sign = M.where(odd, -sign, sign)
    sign = M.where(zero, 0, sign)
    logdet = M.where(zero, -math.huge, logdet)
    return sign:astype(a.dtype), logdet:astype(rdt)
  end

  -- cholesky ---------------------------------------------------------------
  function L.cholesky(a, ...)
    local fname = "cholesky"
    local o = args(fname, { "upper" }, ...)
    a = matrix(fname, a, true)
    local A = fresh(a)
    -- column-major upper triangle = a's lower triangle; the factor U read
    -- row-major is L with a = L Lᴴ
    if lapack(fname, POTRF, A, { uplo = 1, check = o.check }) ~= 0 then
      fail(fname, "Matrix is not positive definite")
    end
    local l = G().tril(A)
    if o.upper then return H(l):copy() end
    return l
  end

  -- qr ---------------------------------------------------------------------
  local QR_MODES = { reduced = true, complete = true, r = true, raw = true }
  function L.qr(a, ...)
    local fname = "qr"
    local o = args(fname, { "mode" }, ...)
    local mode = o.mode or "reduced"
    if not QR_MODES[mode] then
      fail(fname, "Unrecognized mode '%s' (expected 'reduced', 'complete', 'r' or 'raw')", tostring(mode))
    end
    a = matrix(fname, a)
    local M = G()
    local m, n, batch = a.shape[a.ndim - 1], a.shape[a.ndim], batch_of(a)
    local k = math.min(m, n)
    local At = fresh(a, true)                                  -- column-major a: (..., n, m)
    local tau = M.zeros(concat(batch, k), a.dtype)
    lapack(fname, GEQRF, At, { b = tau })
    if mode == "raw" then return At, tau end
    local rfull = M.triu(At:swapaxes(-1, -2))                  -- (..., m, n)
    local r = (mode == "complete" or k == m) and rfull or rfull[{ core.ellipsis, { 1, k }, {} }]
    if mode == "r" then return k == m and r or r:copy() end
    local qcols = mode == "complete" and m or k
    local Q
    if qcols == k then
      Q = k == n and At or At[{ core.ellipsis, { 1, k }, {} }]:copy()
    else                                                       -- complete with m > n: pad with zero columns
      Q = M.zeros(concat(batch, m, m), a.dtype)
      if k > 0 then Q[{ core.ellipsis, { 1, k }, {} }] = At end
    end
    if k == 0 then
      Q = M.broadcast_to(M.eye(m, qcols, nil, a.dtype), concat(batch, m, qcols)):copy()
    else
      lapack(fname, ORGQR, Q, { b = tau, k = k })
      Q = Q:swapaxes(-1, -2)
    end
    if mode == "complete" and k < m then r = rfull end
    return Q, r:copy()
  end

  -- eigh, eigvalsh ---------------------------------------------------------
  local function eigh(fname, a, uplo, vectors, check)
    if uplo ~= nil and uplo ~= "L" and uplo ~= "U" then fail(fname, "UPLO argument must be 'L' or 'U'") end
    a = matrix(fname, a, true)
    local M = G()
    local n, batch = a.shape[a.ndim], batch_of(a)
    local A = fresh(a)
    local w = M.zeros(concat(batch, n), REAL[a.dtype])
    -- column-major A is aᵀ = conj(a): its upper triangle is a's lower
    local bad = lapack(fname, SYEVD, A, { b = w, flag = vectors and 1 or 0, uplo = uplo == "U" and 0 or 1,
                                          check = check })
    if bad ~= 0 then fail(fname, "Eigenvalues did not converge") end
    if not vectors then return w end
    return w, H(A)   -- vectors of conj(a) are conj of a's: conj(Vᵀ)ᵀ
  end
  function L.eigh(a, ...)
    local o = args("eigh", { "UPLO" }, ...)
    return eigh("eigh", a, o.UPLO, true, o.check)
  end
  function L.eigvalsh(a, ...)
    local o = args("eigvalsh", { "UPLO" }, ...)
    return eigh("eigvalsh", a, o.UPLO, false, o.check)
  end

  -- svd, svdvals -----------------------------------------------------------
  local function svd(fname, a, full, uv, check)
    a = matrix(fname, a)
    local M = G()
    local m, n, batch = a.shape[a.ndim - 1], a.shape[a.ndim], batch_of(a)
    local k = math.min(m, n)
    local rdt = REAL[a.dtype]
    if k == 0 then
      local s = M.zeros(concat(batch, 0), rdt)
      if not uv then return s end
      local uc, vr = full and m or 0, full and n or 0
      return M.broadcast_to(M.eye(m, uc, nil, a.dtype), concat(batch, m, uc)):copy(), s,
             M.broadcast_to(M.eye(vr, n, nil, a.dtype), concat(batch, vr, n)):copy()
    end
    -- the solver wants column-major (p, q) with p >= q: a itself when n >= m
    -- (column-major aᵀ), else a transposed copy (column-major a)
    local wide = n >= m
    local p, q = math.max(m, n), k
    local A = fresh(a, not wide)
    local nb = 1
    for _, d in ipairs(batch) do nb = nb * d end
    local jacobi = a.device.id >= 0 and p <= 32 and nb > 1
    local flag = (uv or jacobi) and ((full or jacobi) and 2 or 1) or 0
    local s = M.zeros(concat(batch, q), rdt)
    local u, v
    if flag > 0 then
      u = M.empty(concat(batch, flag == 2 and p or q, p), a.dtype)   -- column-major (p, p|q)
      v = M.empty(concat(batch, q, q), a.dtype)
    end
    local _, info = lapack(fname, jacobi and GESVDJ or GESVD, A, { b = s, u = u, vt = v, flag = flag })
    -- no convergence, or NaN input (LAPACK may return NaNs with info 0
    -- where NumPy raises): one read-back for both
    if check and M.logical_or(M.any(info), M.any(M.isnan(s))):item() then
      fail(fname, "SVD did not converge")
    end
    if not uv then return s end
    -- column-major u (p, .) read row-major is uᵀ; v is vt, or v for Jacobi
    local U, Vh
    if jacobi then
      local vc = is_complex(a.dtype) and v:conj() or v
      if wide then
        -- a = conj(v') s u'ᵀ: U = conj(v'), Vh = u'ᵀ (row-major read of u')
        U, Vh = H(v), u
        if not full then Vh = Vh[{ core.ellipsis, { 1, q }, {} }] end
      else
        -- a = u' s v'ᴴ: U = u', Vh = v'ᴴ (row-major read of v' is v'ᵀ)
        U, Vh = u:swapaxes(-1, -2), vc
        if not full then U = U[{ core.ellipsis, {}, { 1, q } }] end
      end
    elseif wide then
      U, Vh = v, u
    else
      U, Vh = u:swapaxes(-1, -2), v:swapaxes(-1, -2)
    end
    return U, s, Vh
  end
  function L.svd(a, ...)
    local o = args("svd", { "full_matrices", "compute_uv", "hermitian" }, ...)
    local full = o.full_matrices == nil or o.full_matrices
    local uv = o.compute_uv == nil or o.compute_uv
    return svd("svd", a, full, uv, o.check)
  end
  function L.svdvals(a, ...)
    local o = args("svdvals", {}, ...)
    return svd("svdvals", a, false, false, o.check)
  end

  return L
end

-- merged into ga.linalg / ga.host.linalg (created by reduce.lua with norm)
local R = require "gpuarray.reduce"
for k, f in pairs(build(false)) do R.ga.linalg[k] = f end
for k, f in pairs(build(true)) do R.host.linalg[k] = f end
return { ga = {}, host = {} }
