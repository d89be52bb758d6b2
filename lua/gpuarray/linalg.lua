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
-- synchronisation per call, after the call's other work is queued (the
-- host pays its pending garbage collection meanwhile). `{check = false}`
-- as the last argument (or `ga.linalg.set_checks(false)` for every call)
-- skips it: a failed factorisation then returns NaN or garbage silently,
-- as CuPy does. A route that cannot fail (the batched Jacobi `eigh` of
-- real stacks up to 32 x 32 on a GPU) reads nothing back.
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
-- GPUARRAY_JACOBI=0: no own Jacobi kernel (cuda/ga_cuda_solver.c reads it too)
local OWN_JACOBI = os.getenv("GPUARRAY_JACOBI") ~= "0"
local REAL = { float32 = "float32", float64 = "float64", complex64 = "float32", complex128 = "float64" }
local CPLX = { float32 = "complex64", float64 = "complex128", complex64 = "complex64", complex128 = "complex128" }
local EPS = { float32 = 1.1920928955078125e-07, float64 = 2.220446049250313e-16 }

-- the functions go into L (ga.linalg or ga.host.linalg, which reduce.lua
-- created with norm); polyfit and roots into P (ga or ga.host)
local function build(host, L, P)
  local G = C.lazy_module(host)

  local function arr(fname, x) return C.input(fname, x, G().asarray) end

  -- positional arguments by name, or one options table last; `check` is
  -- always allowed
  local CHECK = { check = true }
  local function args(fname, names, ...)
    local r = C.named_args(fname, names, CHECK, ...)
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
    -- row-major is L with a = L Lᴴ.  The strict upper part is zeroed in
    -- place, queued before the check waits (as CuPy's in-place _tril: one
    -- array, and the device never idles between potrf and the zeroing)
    local info = G().zeros(batch_of(A), "int32")
    core._lapack(POTRF, A, nil, nil, nil, nil, info, 0, 0, 1, false, fname)
    core._tril_inplace(A)
    if o.check and core._lapack_check(POTRF, A, info, fname) ~= 0 then
      fail(fname, "Matrix is not positive definite")
    end
    if o.upper then return H(A):copy() end
    return A
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
    return Q, rawequal(r, rfull) and r or r:copy()
  end

  -- eigh, eigvalsh ---------------------------------------------------------
  local function eigh(fname, a, uplo, vectors, check)
    if uplo ~= nil and uplo ~= "L" and uplo ~= "U" then fail(fname, "UPLO argument must be 'L' or 'U'") end
    a = matrix(fname, a, true)
    local M = G()
    local n, batch = a.shape[a.ndim], batch_of(a)
    local A = fresh(a)
    local w = M.empty(concat(batch, n), REAL[a.dtype])   -- every routine writes all of w
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
    -- stacks on a GPU: cuSOLVER's gesvdjBatched (up to 32 x 32) or, for
    -- square matrices, our Jacobi kernel (up to 64 x 64; complex128 48 x 48:
    -- cuda/ga_cuda_solver.c's jac_fits)
    local jacobi = a.device.id >= 0 and nb > 1 and
                   (p <= 32 or (OWN_JACOBI and m == n and p <= (a.dtype == "complex128" and 48 or 64)))
    local flag = (uv or jacobi) and ((full or jacobi) and 2 or 1) or 0
    local s = M.zeros(concat(batch, q), rdt)
    local u, v
    if flag > 0 then
      u = M.empty(concat(batch, flag == 2 and p or q, p), a.dtype)   -- column-major (p, p|q)
      v = M.empty(concat(batch, q, q), a.dtype)
    end
    -- NaN input (which LAPACK and cuSOLVER may turn into finite garbage
    -- with info 0, where NumPy raises), queued before A is overwritten
    local nan_in = check and M.any(M.isnan(A)) or nil
    local _, info = lapack(fname, jacobi and GESVDJ or GESVD, A, { b = s, u = u, vt = v, flag = flag })
    -- no convergence or NaN: one read-back for all three
    if check and M.logical_or(M.logical_or(M.any(info), nan_in), M.any(M.isnan(s))):item() then
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

  -- eig, eigvals ----------------------------------------------------------
  -- GPU: cuSOLVER's Xgeev (CUDA 12.6 Update 2 and newer), one call per
  -- matrix queued on the stream; where the library lacks it (or
  -- GPUARRAY_GEEV=0) the core reports the routine unavailable and LAPACK
  -- runs on a host copy, with the same results and errors.
  local UNAVAILABLE = -1          -- base/ga_linalg_call.h GA_LA_UNAVAILABLE
  L._geev_host_runs = 0           -- GPU eig calls that fell back to the host (the specs read it)
  local function eig(fname, a, vectors, check)
    a = matrix(fname, a, true)
    local M = G()
    if not M.all(M.isfinite(a)):item() then fail(fname, "Array must not contain infs or NaNs") end
    local n, batch = a.shape[a.ndim], batch_of(a)
    local A = fresh(a, true)                                   -- column-major a
    local w = M.zeros(concat(batch, n), CPLX[a.dtype])
    local v = vectors and M.zeros(concat(batch, n, n), CPLX[a.dtype]) or nil
    local bad = lapack(fname, GEEV, A, { b = w, u = v, flag = vectors and 1 or 0, check = check })
    if bad == UNAVAILABLE then
      -- no general eigensolver on this GPU: LAPACK on a host copy, and back
      L._geev_host_runs = L._geev_host_runs + 1
      local hl = require("gpuarray").host.linalg
      local hw, hv = hl[fname](M.asnumpy(a), { check = check })
      return M.asarray(hw), hv and M.asarray(hv) or nil
    end
    if bad ~= 0 then fail(fname, "Eigenvalues did not converge") end
    if v then v = v:swapaxes(-1, -2) end
    -- real input with real eigenvalues: real results (NumPy)
    if not is_complex(a.dtype) and not M.any(M.imag(w)):item() then
      w = M.real(w):copy()
      if v then v = M.real(v):copy() end
    end
    if vectors then return w, v end
    return w
  end
  function L.eig(a, ...)
    local o = args("eig", {}, ...)
    return eig("eig", a, true, o.check)
  end
  function L.eigvals(a, ...)
    local o = args("eigvals", {}, ...)
    return eig("eigvals", a, false, o.check)
  end

  -- lstsq, pinv, matrix_rank, cond ------------------------------------------
  function L.lstsq(a, b, ...)
    local fname = "lstsq"
    local o = args(fname, { "rcond" }, ...)
    a, b = arr(fname, a), arr(fname, b)
    if a.ndim ~= 2 then fail(fname, "%d-dimensional array given. Array must be two-dimensional", a.ndim) end
    if b.ndim ~= 1 and b.ndim ~= 2 then
      fail(fname, "%d-dimensional array given. Array must be one or two-dimensional", b.ndim)
    end
    local M = G()
    local m, n = a.shape[1], a.shape[2]
    if b.shape[1] ~= m then fail(fname, "Incompatible dimensions") end
    local dt = solve_dtype(fname, M.result_type(a, b))
    a, b = a:astype(dt), b:astype(dt)
    local rdt = REAL[dt]
    local rcond = o.rcond
    if rcond == nil or rcond == -1 then rcond = EPS[rdt] * math.max(m, n) end
    local vec = b.ndim == 1
    local B = vec and b:reshape { m, 1 } or b
    local nrhs = B.shape[2]
    local u, s, vh = svd(fname, a, false, true, o.check)
    local x, rank
    if math.min(m, n) == 0 then
      x, rank = M.zeros({ n, nrhs }, dt), 0
    else
      local cutoff = M.max(s) * rcond
      local big = M.greater(s, cutoff)
      local sinv = M.where(big, 1 / M.where(big, s, 1), 0):astype(dt)
      x = mm(H(vh), M.expand_dims(sinv, -1) * mm(H(u), B))
      rank = M.count_nonzero(big):item()
    end
    local resid
    if rank == n and m > n then
      local r = B - mm(a, x)
      resid = M.sum(M.absolute(r) ^ 2, 1):astype(rdt)
    else
      resid = M.zeros({ 0 }, rdt)
    end
    if vec then x = x:reshape { n } end
    return x, resid, rank, s
  end

  function L.pinv(a, ...)
    local fname = "pinv"
    local o = args(fname, { "rcond", "hermitian", "rtol" }, ...)
    a = matrix(fname, a)
    local M = G()
    local m, n, batch = a.shape[a.ndim - 1], a.shape[a.ndim], batch_of(a)
    if m == 0 or n == 0 then return M.zeros(concat(batch, n, m), a.dtype) end
    local rcond = o.rcond
    if rcond == nil then
      if o.rtol ~= nil then rcond = o.rtol else rcond = 1e-15 end
    end
    if is_array(rcond) then rcond = M.expand_dims(rcond, -1) end
    local u, s, vh = svd(fname, a, false, true, o.check)
    local cutoff = M.max(s, { axis = -1, keepdims = true }) * rcond
    local big = M.greater(s, cutoff)
    local sinv = M.where(big, 1 / M.where(big, s, 1), 0):astype(a.dtype)
    return mm(H(vh) * M.expand_dims(sinv, -2), H(u))
  end

  function L.matrix_rank(A, ...)
    local fname = "matrix_rank"
    local o = args(fname, { "tol", "hermitian", "rtol" }, ...)
    A = arr(fname, A)
    local M = G()
    if A.ndim < 2 then return M.any(M.not_equal(A, 0)):astype("int64") end
    A = matrix(fname, A)
    local m, n = A.shape[A.ndim - 1], A.shape[A.ndim]
    local S = svd(fname, A, false, false, o.check)
    local tol = o.tol
    if tol == nil then
      local rtol = o.rtol or EPS[REAL[A.dtype]] * math.max(m, n)
      tol = M.max(S, { axis = -1, keepdims = true }) * rtol
    elseif is_array(tol) then
      tol = M.expand_dims(tol, -1)
    end
    return M.count_nonzero(M.greater(S, tol), -1)
  end

  function L.cond(x, ...)
    local fname = "cond"
    local o = args(fname, { "p" }, ...)
    x = matrix(fname, x)
    local M, p = G(), o.p
    if p == nil or p == 2 or p == -2 then
      local s = svd(fname, x, false, false, o.check)
      local hi, lo = s[{ core.ellipsis, 1 }], s[{ core.ellipsis, -1 }]
      if p == -2 then return lo / hi end
      return hi / lo
    end
    if x.shape[x.ndim] ~= x.shape[x.ndim - 1] then fail(fname, "Last 2 dimensions of the array must be square") end
    local inv = L.inv(x, { check = false })
    local r = L.norm(x, p, { -2, -1 }) * L.norm(inv, p, { -2, -1 })
    -- NaN from a singular matrix is inf, unless x itself held NaN (NumPy)
    local xnan = M.any(M.isnan(x), { axis = { -2, -1 } })
    return M.where(M.logical_and(M.isnan(r), M.logical_not(xnan)), math.huge, r)
  end

  -- tensorsolve, tensorinv ---------------------------------------------------
  local function prod(t, i, j)
    local p = 1
    for q = i, j do p = p * t[q] end
    return p
  end
  function L.tensorsolve(a, b, ...)
    local fname = "tensorsolve"
    local o = args(fname, { "axes" }, ...)
    a, b = arr(fname, a), arr(fname, b)
    local an = a.ndim
    if o.axes ~= nil then
      local axes = type(o.axes) == "table" and o.axes or { o.axes }
      local moved, rest = {}, {}
      for _, k in ipairs(axes) do moved[(k < 0 and an + 1 + k or k)] = true end
      for i = 1, an do if not moved[i] then rest[#rest + 1] = i end end
      for _, k in ipairs(axes) do rest[#rest + 1] = k < 0 and an + 1 + k or k end
      a = a:transpose(rest)
    end
    local shape = a.shape
    local old = {}
    for i = b.ndim + 1, an do old[#old + 1] = shape[i] end
    local p = prod(old, 1, #old)
    if a.size ~= p * p then
      fail(fname, "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    end
    local r = L.solve(a:reshape { p, p }, b:reshape { -1 }, { check = o.check })
    return r:reshape(old)
  end

  function L.tensorinv(a, ...)
    local fname = "tensorinv"
    local o = args(fname, { "ind" }, ...)
    a = arr(fname, a)
    local ind = o.ind or 2
    if math.type(ind) ~= "integer" or ind <= 0 then fail(fname, "Invalid ind argument.") end
    local shape = a.shape
    local inv_shape = {}
    for i = ind + 1, #shape do inv_shape[#inv_shape + 1] = shape[i] end
    for i = 1, math.min(ind, #shape) do inv_shape[#inv_shape + 1] = shape[i] end
    local p = prod(shape, ind + 1, #shape)
    local r = L.inv(a:reshape { p, -1 }, { check = o.check })
    return r:reshape(inv_shape)
  end

  -- polyfit, roots (NumPy's numpy.polyfit / numpy.roots) ------------------------
  function P.polyfit(x, y, deg, ...)
    local fname = "polyfit"
    local o = args(fname, { "rcond", "full", "w", "cov" }, ...)
    local M = G()
    x, y = arr(fname, x), arr(fname, y)
    if o.cov ~= nil and o.cov ~= false and o.cov ~= true and o.cov ~= "unscaled" then
      fail(fname, "cov must be a boolean or 'unscaled', got %s", type(o.cov) == "string" and "'" .. o.cov .. "'"
        or typename(o.cov))
    end
    if math.type(deg) ~= "integer" then fail(fname, "deg must be an integer, got %s", typename(deg)) end
    if deg < 0 then fail(fname, "expected deg >= 0") end
    if x.ndim ~= 1 then fail(fname, "expected 1D vector for x") end
    if x.size == 0 then fail(fname, "expected non-empty vector for x") end
    if y.ndim < 1 or y.ndim > 2 then fail(fname, "expected 1D or 2D array for y") end
    if x.shape[1] ~= y.shape[1] then fail(fname, "expected x and y to have same length") end
    local dt = solve_dtype(fname, M.result_type(x, y, 0.0))
    x, y = x:astype(dt), y:astype(dt)
    local order = deg + 1
    local rcond = o.rcond or x.shape[1] * EPS[REAL[dt]]
    local lhs, rhs = M.vander(x, order), y
    if o.w ~= nil then
      local w = arr(fname, o.w)
      if w.ndim ~= 1 then fail(fname, "expected a 1-d array for weights") end
      if w.shape[1] ~= y.shape[1] then fail(fname, "expected w and y to have the same length") end
      lhs = lhs * M.expand_dims(w, -1)
      rhs = rhs.ndim == 2 and rhs * M.expand_dims(w, -1) or rhs * w
    end
    -- scale the columns to unit norm (better conditioning, as NumPy)
    local scale = M.sqrt(M.sum(M.absolute(lhs) ^ 2, 1))
    scale = M.where(M.equal(scale, 0), 1, scale)
    lhs = lhs / scale
    local c, resids, rank, s = L.lstsq(lhs, rhs, rcond, { check = o.check })
    c = c.ndim == 2 and c / M.expand_dims(scale, -1) or c / scale
    if o.full then return c, resids, rank, s, rcond end
    if not o.cov then return c end
    -- the coefficients' covariance, as NumPy: inv(lhsᵀ lhs) of the scaled
    -- columns, unscaled back, times the residual variance unless 'unscaled'.
    -- A rank-deficient fit has a singular lhsᵀ lhs (and no residuals): say
    -- so here rather than let inv fail under its own name
    if rank < order then
      fail(fname, "the fit is rank-deficient (rank %d < %d): its covariance matrix is singular", rank, order)
    end
    local V = L.inv(M.matmul(lhs:swapaxes(-1, -2), lhs)) / M.outer(scale, scale)
    local fac = 1
    if o.cov ~= "unscaled" then
      if x.shape[1] <= order then
        fail(fname, "the number of data points must exceed order to scale the covariance matrix")
      end
      fac = resids / (x.shape[1] - order)
    end
    if y.ndim == 1 then return c, V * fac end
    return c, M.expand_dims(V, -1) * fac
  end

  function P.roots(p)
    local fname = "roots"
    local M = G()
    p = arr(fname, p)
    if p.ndim ~= 1 then fail(fname, "Input must be a rank-1 array.") end
    local dt = solve_dtype(fname, M.result_type(p, 0.0))
    p = p:astype(dt)
    local front = M.trim_zeros(p, "f")
    local both = M.trim_zeros(front, "b")
    local trailing = front.shape[1] - both.shape[1]
    local n = both.shape[1]
    local r
    if n > 1 then
      local A = M.diag(M.ones(n - 2, dt), -1)
      A[1] = -both[{ { 2, n } }] / both[1]
      r = L.eigvals(A)
    else
      r = M.zeros({ 0 }, dt)
    end
    if trailing > 0 then r = M.concatenate { r, M.zeros({ trailing }, r.dtype) } end
    return r
  end

  return L
end

--- Whether the solvers read their info flags (the errors for a singular
-- matrix, one not positive definite, no convergence; on a GPU one small
-- synchronisation per call). Off, a failed factorisation returns NaN or
-- garbage silently (as CuPy). Returns the previous setting.
-- @function ga.linalg.set_checks
-- @tparam boolean on
-- @treturn boolean the previous setting
-- @usage
-- local old = ga.linalg.set_checks(false)
-- ga.linalg.set_checks(old)

--- Solve `a x = b` (`numpy.linalg.solve`): a (..., M, M), b (..., M, K) or
-- (M,) (a vector: x is (..., M)); the batch axes broadcast. LU with
-- partial pivoting (getrf/getrs; cuBLAS's batched LU for stacks of small
-- systems).
-- @function ga.linalg.solve
-- @param a square matrices
-- @param b right-hand sides
-- @tparam[opt] table opts `{check = false}` skips the singular test
-- @treturn ndarray x
-- @usage
-- print(ga.linalg.solve(ga.array({{3, 1}, {1, 2}}), ga.array({9, 8})))
-- --> array([2., 3.])

--- The inverse of square matrices (`numpy.linalg.inv`), batched.
-- @function ga.linalg.inv
-- @param a (..., M, M)
-- @tparam[opt] table opts `{check = false}`
-- @treturn ndarray
-- @usage
-- print(ga.linalg.inv(ga.array({{2.0, 0.0}, {0.0, 4.0}})))
-- --> array([[0.5 , 0.  ],
-- -->        [0.  , 0.25]])

--- Determinants (`numpy.linalg.det`) from the LU factors; a singular
-- matrix gives 0.
-- @function ga.linalg.det
-- @param a (..., M, M)
-- @treturn ndarray (...)
-- @usage
-- print(ga.linalg.det(ga.array({{1, 2}, {3, 4}})))   --> array(-2.)

--- Sign and natural log of the absolute determinant (`numpy.linalg.slogdet`):
-- `det = sign * exp(logdet)` without overflow. Singular: sign 0, logdet -inf.
-- @function ga.linalg.slogdet
-- @param a (..., M, M)
-- @treturn ndarray sign (a's dtype)
-- @treturn ndarray logdet (its real dtype)
-- @usage
-- local sign, logdet = ga.linalg.slogdet(ga.array({{1, 2}, {3, 4}}))
-- print(sign, logdet)   --> array(-1.)	array(0.69314718)

--- Cholesky factor (`numpy.linalg.cholesky`): lower-triangular L with
-- `a = L Lᴴ`, reading only a's lower triangle; `{upper = true}` returns Lᴴ.
-- @function ga.linalg.cholesky
-- @param a Hermitian positive-definite (..., M, M)
-- @tparam[opt] table opts `{upper = false, check = true}`
-- @treturn ndarray
-- @usage
-- print(ga.linalg.cholesky(ga.array({{4, 2}, {2, 5}})))
-- --> array([[2., 0.],
-- -->        [1., 2.]])

--- QR factorisation (`numpy.linalg.qr`) with mode `"reduced"` (Q (..., M, K),
-- R (..., K, N), K = min(M, N)), `"complete"` (Q (..., M, M), R (..., M, N)),
-- `"r"` (R only) or `"raw"` (LAPACK's reflectors h (..., N, M) and tau).
-- @function ga.linalg.qr
-- @param a (..., M, N)
-- @tparam[opt="reduced"] string mode
-- @treturn ndarray Q (or h)
-- @treturn ndarray R (or tau)
-- @usage
-- local q, r = ga.linalg.qr(ga.array({{3.0, 1.0}, {4.0, 2.0}}))
-- print(ga.absolute(r))
-- --> array([[5. , 2.2],
-- -->        [0. , 0.4]])

--- Eigenvalues (ascending, real) and eigenvectors (columns) of Hermitian
-- matrices (`numpy.linalg.eigh`), from the `UPLO` triangle (`"L"` default).
-- Batches of matrices up to 32x32 use cuSOLVER's batched Jacobi on a GPU.
-- @function ga.linalg.eigh
-- @param a (..., M, M)
-- @tparam[opt="L"] string UPLO
-- @treturn ndarray w (..., M)
-- @treturn ndarray v (..., M, M)
-- @usage
-- local w, v = ga.linalg.eigh(ga.array({{2.0, 1.0}, {1.0, 2.0}}))
-- print(w)   --> array([1., 3.])

--- Eigenvalues of Hermitian matrices only (`numpy.linalg.eigvalsh`).
-- @function ga.linalg.eigvalsh
-- @param a (..., M, M)
-- @tparam[opt="L"] string UPLO
-- @treturn ndarray
-- @usage
-- print(ga.linalg.eigvalsh(ga.array({{2.0, 1.0}, {1.0, 2.0}})))   --> array([1., 3.])

--- Singular value decomposition (`numpy.linalg.svd`): `a = U diag(S) Vh`.
-- `full_matrices` (default true): U (..., M, M), Vh (..., N, N); false:
-- (..., M, K) and (..., K, N). `compute_uv = false` returns S alone. NaN
-- input raises `SVD did not converge`. Batches of matrices up to 32x32 use
-- cuSOLVER's batched Jacobi (gesvdjBatched) on a GPU.
-- @function ga.linalg.svd
-- @param a (..., M, N)
-- @tparam[opt=true] boolean full_matrices
-- @tparam[opt=true] boolean compute_uv
-- @treturn ndarray U
-- @treturn ndarray S (descending, real)
-- @treturn ndarray Vh
-- @usage
-- local u, s, vh = ga.linalg.svd(ga.array({{3.0, 0.0}, {0.0, -2.0}}))
-- print(s)   --> array([3., 2.])

--- Singular values only (`numpy.linalg.svdvals`), descending.
-- @function ga.linalg.svdvals
-- @param a (..., M, N)
-- @treturn ndarray (..., min(M, N))
-- @usage
-- print(ga.linalg.svdvals(ga.array({{0.0, 2.0}, {1.0, 0.0}})))   --> array([2., 1.])

--- Eigenvalues and right eigenvectors of general square matrices
-- (`numpy.linalg.eig`): complex, unless a is real and every eigenvalue
-- is real (then real, as NumPy); eigenvectors of unit 2-norm with their
-- largest component real (LAPACK's normalisation). The host runs LAPACK's
-- geev; a GPU cuSOLVER's Xgeev (CUDA 12.6 Update 2 and newer, one call per
-- matrix of a batch), or LAPACK on a host copy where cuSOLVER lacks it
-- (or `GPUARRAY_GEEV=0`). The eigenvalues' order is the solver's (the GPU's
-- and the host's may differ, as CuPy's and NumPy's do). A non-finite input
-- raises `Array must not contain infs or NaNs` (one synchronisation).
-- @function ga.linalg.eig
-- @param a (..., M, M)
-- @treturn ndarray w
-- @treturn ndarray v (columns)
-- @usage
-- local w, v = ga.linalg.eig(ga.array({{0.0, -1.0}, {1.0, 0.0}}))
-- print(w)   --> array([0.+1.j, 0.-1.j])

--- Eigenvalues of general square matrices (`numpy.linalg.eigvals`): the
-- dtype rules, solvers and errors of `eig`, without the vectors.
-- @function ga.linalg.eigvals
-- @param a (..., M, M)
-- @treturn ndarray
-- @usage
-- print(ga.linalg.eigvals(ga.array({{2.0, 0.0}, {0.0, 3.0}})))   --> array([2., 3.])

--- Least-squares solution of `a x = b` (`numpy.linalg.lstsq`) through the
-- SVD: x, the residuals' squared norms (when rank = N < M, else empty), the
-- rank (an integer: one synchronisation on a GPU) and a's singular values.
-- `rcond` (default eps * max(M, N)) cuts small singular values.
-- @function ga.linalg.lstsq
-- @param a (M, N)
-- @param b (M,) or (M, K)
-- @tparam[opt] number rcond
-- @treturn ndarray x
-- @treturn ndarray residuals
-- @treturn int rank
-- @treturn ndarray s
-- @usage
-- local x = ga.linalg.lstsq(ga.array({{1, 0}, {1, 1}, {1, 2}}), ga.array({1, 3, 5}))
-- print(x)   --> array([1., 2.])

--- Moore-Penrose pseudo-inverse (`numpy.linalg.pinv`) through the SVD;
-- singular values at most `rcond` (default 1e-15; or `rtol`) times the
-- largest count as zero. Batched.
-- @function ga.linalg.pinv
-- @param a (..., M, N)
-- @tparam[opt=1e-15] number rcond
-- @treturn ndarray (..., N, M)
-- @usage
-- print(ga.linalg.pinv(ga.array({{2.0, 0.0}, {0.0, 0.0}})))
-- --> array([[0.5, 0. ],
-- -->        [0. , 0. ]])

--- Rank by the SVD (`numpy.linalg.matrix_rank`): singular values above
-- `tol` (default S.max() * max(M, N) * eps, or `rtol` * S.max()). Batched;
-- an int64 array.
-- @function ga.linalg.matrix_rank
-- @param A (..., M, N), or a vector
-- @tparam[opt] number tol
-- @treturn ndarray
-- @usage
-- print(ga.linalg.matrix_rank(ga.ones({3, 3})))   --> array(1)

--- Condition number (`numpy.linalg.cond`): p nil/2 (largest over smallest
-- singular value), -2, or any `norm` order of square matrices
-- (`norm(a, p) * norm(inv(a), p)`, inf for a singular one).
-- @function ga.linalg.cond
-- @param x (..., M, N)
-- @param[opt] p
-- @treturn ndarray
-- @usage
-- print(ga.linalg.cond(ga.array({{2.0, 0.0}, {0.0, 0.5}})))   --> array(4.)

--- Solve the tensor equation `tensordot(a, x, x.ndim) = b`
-- (`numpy.linalg.tensorsolve`); `axes` are moved to the end of a first.
-- @function ga.linalg.tensorsolve
-- @param a
-- @param b
-- @tparam[opt] table axes (1-based)
-- @treturn ndarray
-- @usage
-- print(ga.linalg.tensorsolve(ga.eye(4):reshape({2, 2, 4}), ga.ones({2, 2})).shape[1])   --> 4

--- The inverse of a tensor for `tensordot` over `ind` axes
-- (`numpy.linalg.tensorinv`).
-- @function ga.linalg.tensorinv
-- @param a
-- @tparam[opt=2] int ind
-- @treturn ndarray of shape a.shape[ind+1..] .. a.shape[1..ind]
-- @usage
-- print(ga.linalg.tensorinv(ga.eye(4):reshape({4, 2, 2}), 1).shape[1])   --> 2

--- Least-squares polynomial fit (`numpy.polyfit(x, y, deg)`): the
-- coefficients, highest power first (one column per column of a 2-D y).
-- Options: `rcond`, `full` (also return residuals, rank, singular values
-- and rcond), `w` (weights), `cov` (`true`: also return the coefficients'
-- covariance matrix, scaled by the residual variance; `"unscaled"`: not
-- scaled; (order, order), or (order, order, K) for a 2-D y).
-- @function ga.polyfit
-- @param x (M,)
-- @param y (M,) or (M, K)
-- @tparam int deg
-- @treturn ndarray
-- @usage
-- print(ga.polyfit(ga.array({0, 1, 2, 3}), ga.array({1, 3, 7, 13}), 2))
-- --> array([1., 1., 1.])
-- local c, V = ga.polyfit(ga.array({0, 1, 2, 3}), ga.array({1, 3, 7, 14}), 1, {cov = true})
-- print(V.shape[1], V.shape[2])   --> 2	2

--- Roots of a polynomial, highest power first (`numpy.roots`): the
-- eigenvalues of its companion matrix (complex unless all are real).
-- @function ga.roots
-- @param p (N,)
-- @treturn ndarray
-- @usage
-- print(ga.roots(ga.array({1, -3, 2})))   --> array([2., 1.])

-- merged into ga.linalg / ga.host.linalg (created by reduce.lua with norm)
local R = require "gpuarray.reduce"
local PG, PH = {}, {}
build(false, R.ga.linalg, PG)
build(true, R.host.linalg, PH)
return { ga = PG, host = PH }
