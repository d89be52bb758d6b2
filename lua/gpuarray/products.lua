--- Products: `dot vdot inner outer tensordot kron cross multi_dot
-- matrix_power einsum` (`trace` is in reduce.lua), the array-API names `ga.linalg.matmul`,
-- `ga.linalg.matrix_transpose`, `ga.linalg.vecdot`, and the method
-- `x:dot`.  Each is on `ga` and `ga.host`.  `ga.matmul` itself is C
-- (src/binding/lga_blas.c: NumPy's matmul rules over one batched GEMM slot);
-- everything here is composed of it and of views (transpose, reshape,
-- diagonal) and reductions, so a GPU call runs as cuBLAS GEMMs (or our
-- integer kernel) and no element loop is written in Lua.  Axes are 1-based
-- (negative from the end) as everywhere in gpuarray.
-- @module gpuarray.products

local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local shape_str = C.shape_str

local function prod(t, i, j)
  local p = 1
  for k = i or 1, j or #t do p = p * t[k] end
  return p
end

local function build(host)
  local G = C.lazy_module(host)
  local F = {}
  local matmul = core.matmul

  local function arr(fname, x, i) return C.arg(fname, x, "argument " .. i, G().asarray) end

  local function axis1(fname, a, nd, what)
    if math.type(a) ~= "integer" then fail(fname, "%s must be an integer, got %s", what or "axis", typename(a)) end
    local b = a < 0 and a + nd + 1 or a
    if b < 1 or b > nd then
      fail(fname, "%s %d is out of bounds for array of dimension %d (axes are 1-based)", what or "axis", a, nd)
    end
    return b
  end

  local function opts_of(fname, o, allowed)
    if o == nil then return {} end
    return C.options(fname, o, allowed)
  end

  -- the result into out= (same shape; cast as NumPy's same_kind) or itself
  local function to_out(fname, r, out)
    if out == nil then return r end
    C.arg(fname, out, "out")
    local rs, os = r.shape, out.shape
    local same = #rs == #os
    for i = 1, #rs do same = same and rs[i] == os[i] end
    if not same then fail(fname, "output array has shape %s, the result's is %s", shape_str(os), shape_str(rs)) end
    if not core.can_cast(r.dtype, out.dtype, "same_kind") then
      fail(fname, "Cannot cast output from dtype('%s') to dtype('%s') with casting rule 'same_kind'", r.dtype,
        out.dtype)
    end
    out[{}] = r
    return out
  end

  ---------------------------------------------------------------- tensordot

  --- Sum of products over the given axes of `a` and `b`
  -- (`numpy.tensordot`): `axes = N` sums the last N axes of `a` against
  -- the first N of `b` (default 2); `axes = {{a1, a2, ...}, {b1, b2, ...}}`
  -- (1-based, or single integers) pairs them up.  The result's axes are
  -- `a`'s free axes then `b`'s.  One GEMM on reshaped (transposed) views.
  -- @function ga.tensordot
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @tparam[opt=2] int|table axes
  -- @treturn ndarray
  -- @usage
  -- local a = ga.arange(24.0):reshape({2, 3, 4})
  -- local b = ga.arange(12.0):reshape({4, 3})
  -- print(ga.tensordot(a, b, {{2, 3}, {2, 1}}))   --> array([ 440., 1232.])
  -- print(ga.tensordot(a, ga.ones({3, 4}), 2).shape[1])   --> 2
  local function tensordot(a, b, axes, fname)
    fname = fname or "tensordot"
    a, b = arr(fname, a, 1), arr(fname, b, 2)
    local na, nb = a.ndim, b.ndim
    local as_, bs_ = {}, {}
    if axes == nil then axes = 2 end
    if math.type(axes) == "integer" then
      if axes < 0 or axes > na or axes > nb then
        fail(fname, "axes = %d does not fit arrays of %d and %d dimensions", axes, na, nb)
      end
      for i = 1, axes do as_[i] = na - axes + i; bs_[i] = i end
    elseif type(axes) == "table" and not is_array(axes) and #axes == 2 then
      local x, y = axes[1], axes[2]
      if math.type(x) == "integer" then x = { x } end
      if math.type(y) == "integer" then y = { y } end
      if type(x) ~= "table" or type(y) ~= "table" then
        fail(fname, "axes must be an integer or a pair of axis lists")
      end
      if #x ~= #y then fail(fname, "shape-mismatch for sum: %d axes of a against %d of b", #x, #y) end
      for i = 1, #x do
        as_[i] = axis1(fname, x[i], na)
        bs_[i] = axis1(fname, y[i], nb)
      end
    else
      fail(fname, "axes must be an integer or a pair of axis lists, got %s", typename(axes))
    end
    local ash, bsh = a.shape, b.shape
    local ina, inb = {}, {}
    for i = 1, #as_ do
      if ina[as_[i]] or inb[bs_[i]] then fail(fname, "repeated axis in axes") end
      ina[as_[i]], inb[bs_[i]] = true, true
      if ash[as_[i]] ~= bsh[bs_[i]] then
        fail(fname, "shape-mismatch for sum: axis %d of a has length %d, axis %d of b has %d", as_[i], ash[as_[i]],
          bs_[i], bsh[bs_[i]])
      end
    end
    local pa, pb, fa, fb = {}, {}, {}, {}
    for i = 1, na do if not ina[i] then pa[#pa + 1] = i; fa[#fa + 1] = ash[i] end end
    for i = 1, #as_ do pa[#pa + 1] = as_[i] end
    for i = 1, #bs_ do pb[#pb + 1] = bs_[i] end
    for i = 1, nb do if not inb[i] then pb[#pb + 1] = i; fb[#fb + 1] = bsh[i] end end
    local K = 1
    for i = 1, #as_ do K = K * ash[as_[i]] end
    local A = a:transpose(pa):reshape({ prod(fa), K })
    local B = b:transpose(pb):reshape({ K, prod(fb) })
    local shape = {}
    for i = 1, #fa do shape[#shape + 1] = fa[i] end
    for i = 1, #fb do shape[#shape + 1] = fb[i] end
    return matmul(A, B):reshape(shape)
  end
  F.tensordot = function(a, b, axes) return tensordot(a, b, axes) end

  ---------------------------------------------------------------- dot & co

  --- Dot product as `numpy.dot`: for 1-D and 2-D operands the matrix
  -- product (`ga.matmul`; two vectors give a 0-d array), a 0-d operand
  -- multiplies, and for N-d `b` the sum over the last axis of `a` and the
  -- second-to-last of `b`.  Optional `out` (an array, or `{out=}`).
  -- @function ga.dot
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @param[opt] out an array of the result's shape, or `{out=}`
  -- @treturn ndarray
  -- @usage
  -- print(ga.dot(ga.array({1, 2, 3}), ga.array({4, 5, 6})))   --> array(32)
  -- print(ga.dot(ga.eye(2), ga.array({1.0, 2.0})))         --> array([1., 2.])
  local function dot(a, b, out)
    a, b = arr("dot", a, 1), arr("dot", b, 2)
    if type(out) == "table" and not is_array(out) then out = opts_of("dot", out, { out = true }).out end
    if a.ndim == 0 or b.ndim == 0 then
      if out ~= nil then return G().multiply(a, b, { out = out }) end
      return G().multiply(a, b)
    end
    if b.ndim <= 2 then
      if out ~= nil and is_array(out) then return matmul(a, b, { out = out }) end
      return to_out("dot", matmul(a, b), out)
    end
    local ok, r = pcall(tensordot, a, b, { { -1 }, { -2 } }, "dot")
    if not ok then
      if a.shape[a.ndim] ~= b.shape[b.ndim - 1] then
        fail("dot", "shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)", shape_str(a.shape), shape_str(b.shape),
          a.shape[a.ndim], a.ndim, b.shape[b.ndim - 1], b.ndim - 1)
      end
      error(r, 0)
    end
    return to_out("dot", r, out)
  end
  F.dot = dot

  --- Dot product of two arrays flattened, the first conjugated
  -- (`numpy.vdot`): a 0-d array.
  -- @function ga.vdot
  -- @tparam ndarray a
  -- @tparam ndarray b of the same size
  -- @treturn ndarray 0-d
  -- @usage
  -- local a = ga.array({1, 2}, "complex128") * ga.array({1, -1}, "complex128")
  -- print(ga.vdot(ga.array({3.0, 4.0}), ga.array({3.0, 4.0})))   --> array(25.)
  function F.vdot(a, b)
    a, b = arr("vdot", a, 1), arr("vdot", b, 2)
    if a.size ~= b.size then
      fail("vdot", "shapes (%d,) and (%d,) not aligned: %d (dim 0) != %d (dim 0)", a.size, b.size, a.size, b.size)
    end
    local x = a:ravel()
    if a.dtype == "complex64" or a.dtype == "complex128" then x = G().conj(x) end
    return matmul(x, b:ravel())
  end

  --- Inner product over the last axes (`numpy.inner`): for vectors the
  -- dot product; for N-d, `r[i..., j...] = sum(a[i..., :] * b[j..., :])`.
  -- A 0-d operand multiplies.
  -- @function ga.inner
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @treturn ndarray
  -- @usage
  -- print(ga.inner(ga.array({1, 2, 3}), ga.array({0, 1, 0})))   --> array(2)
  -- print(ga.inner(ga.eye(2), ga.array({5.0, 6.0})))           --> array([5., 6.])
  function F.inner(a, b)
    a, b = arr("inner", a, 1), arr("inner", b, 2)
    if a.ndim == 0 or b.ndim == 0 then return G().multiply(a, b) end
    if a.shape[a.ndim] ~= b.shape[b.ndim] then
      fail("inner", "shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)", shape_str(a.shape), shape_str(b.shape),
        a.shape[a.ndim], a.ndim - 1, b.shape[b.ndim], b.ndim - 1)
    end
    return tensordot(a, b, { { -1 }, { -1 } }, "inner")
  end

  --- Outer product of two arrays flattened (`numpy.outer`): `r[i, j] =
  -- a[i] * b[j]`.
  -- @function ga.outer
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @param[opt] out an array, or `{out=}`
  -- @treturn ndarray 2-D
  -- @usage
  -- print(ga.outer(ga.array({1, 2}), ga.array({1, 10, 100})))
  -- --> array([[  1,  10, 100],
  -- -->        [  2,  20, 200]])
  function F.outer(a, b, out)
    a, b = arr("outer", a, 1), arr("outer", b, 2)
    if type(out) == "table" and not is_array(out) then out = opts_of("outer", out, { out = true }).out end
    local x, y = a:reshape({ a.size, 1 }), b:reshape({ 1, b.size })
    if out ~= nil then return G().multiply(x, y, { out = out }) end
    return G().multiply(x, y)
  end

  --- Kronecker product (`numpy.kron`): blocks `a[i, j] * b`; the
  -- operands' dimensions are aligned on the right (the shorter padded with
  -- leading 1s).
  -- @function ga.kron
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @treturn ndarray
  -- @usage
  -- print(ga.kron(ga.array({1, 10}), ga.array({1, 2, 3})))   --> array([ 1,  2,  3, 10, 20, 30])
  -- print(ga.kron(ga.eye(2), ga.ones({2, 2})).shape[1])      --> 4
  function F.kron(a, b)
    a, b = arr("kron", a, 1), arr("kron", b, 2)
    local nd = math.max(a.ndim, b.ndim)
    local as_, bs_ = a.shape, b.shape
    local sa, sb, shape = {}, {}, {}
    for i = 1, nd do
      local x = as_[a.ndim - nd + i] or 1
      local y = bs_[b.ndim - nd + i] or 1
      sa[2 * i - 1], sa[2 * i] = x, 1
      sb[2 * i - 1], sb[2 * i] = 1, y
      shape[i] = x * y
    end
    if nd == 0 then return G().multiply(a, b) end
    return G().multiply(a:reshape(sa), b:reshape(sb)):reshape(shape)
  end

  --- Cross product of 2- or 3-element vectors along an axis
  -- (`numpy.cross`): the vectors are along `axisa` of `a` and `axisb` of
  -- `b` (default the last), the other axes broadcast, and the result's
  -- vectors are along `axisc`; `axis` sets all three.  Two 2-element
  -- vectors give the z component only.
  -- @function ga.cross
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @tparam[opt] table opts `{axisa=, axisb=, axisc=, axis=}` (1-based)
  -- @treturn ndarray
  -- @usage
  -- print(ga.cross(ga.array({1, 0, 0}), ga.array({0, 1, 0})))   --> array([0, 0, 1])
  -- print(ga.cross(ga.array({1.0, 2.0}), ga.array({3.0, 4.0})))  --> array(-2.)
  function F.cross(a, b, opts)
    local g = G()
    a, b = arr("cross", a, 1), arr("cross", b, 2)
    opts = opts_of("cross", opts, { axisa = true, axisb = true, axisc = true, axis = true })
    local axa, axb, axc = opts.axisa or -1, opts.axisb or -1, opts.axisc or -1
    if opts.axis ~= nil then axa, axb, axc = opts.axis, opts.axis, opts.axis end
    if a.ndim < 1 or b.ndim < 1 then fail("cross", "both operands need at least one dimension") end
    axa, axb = axis1("cross", axa, a.ndim, "axisa"), axis1("cross", axb, b.ndim, "axisb")
    a, b = g.moveaxis(a, axa, -1), g.moveaxis(b, axb, -1)
    local la, lb = a.shape[a.ndim], b.shape[b.ndim]
    if (la ~= 2 and la ~= 3) or (lb ~= 2 and lb ~= 3) then
      fail("cross", "incompatible dimensions for cross product (dimension must be 2 or 3)")
    end
    local E = g.ellipsis
    local function comp(x, i) return x[{ E, i }] end
    local a1, a2, b1, b2 = comp(a, 1), comp(a, 2), comp(b, 1), comp(b, 2)
    if la == 2 and lb == 2 then return g.subtract(a1 * b2, a2 * b1) end
    local a3 = la == 3 and comp(a, 3) or nil
    local b3 = lb == 3 and comp(b, 3) or nil
    local z = a1 * b2 - a2 * b1
    local x, y
    if a3 and b3 then
      x, y = a2 * b3 - a3 * b2, a3 * b1 - a1 * b3
    elseif a3 then        -- b's third is 0
      x, y = -(a3 * b2), a3 * b1
    else                  -- a's third is 0
      x, y = a2 * b3, -(a1 * b3)
    end
    local bx = { g.broadcast_arrays(x, y, z) }
    local r = g.stack(bx, -1)
    local nd = r.ndim
    axc = axis1("cross", axc, nd, "axisc")
    if axc ~= nd then r = g.moveaxis(r, -1, axc) end
    return r
  end

  ---------------------------------------------------------------- chains

  --- The product of a chain of matrices in the cheapest order
  -- (`numpy.linalg.multi_dot`: dynamic programming over the dimensions);
  -- the first array may be 1-D (a row) and the last 1-D (a column), the
  -- others must be 2-D.
  -- @function ga.multi_dot
  -- @tparam table arrays a list of at least two arrays
  -- @treturn ndarray
  -- @usage
  -- local a, b, c = ga.ones({10, 100}), ga.ones({100, 5}), ga.ones({5, 50})
  -- print(ga.multi_dot({a, b, c}).shape[2])   --> 50
  function F.multi_dot(arrays, opts)
    local fname = "multi_dot"
    if type(arrays) ~= "table" or is_array(arrays) then
      fail(fname, "expected a list of arrays, got %s", typename(arrays))
    end
    opts = opts_of(fname, opts, { out = true })
    local n = #arrays
    if n < 2 then fail(fname, "Expecting at least two arrays.") end
    local A = {}
    for i = 1, n do A[i] = arr(fname, arrays[i], i) end
    if n == 2 then return to_out(fname, dot(A[1], A[2]), opts.out) end
    local first_1d, last_1d = A[1].ndim == 1, A[n].ndim == 1
    if first_1d then A[1] = A[1]:reshape({ 1, A[1].size }) end
    if last_1d then A[n] = A[n]:reshape({ A[n].size, 1 }) end
    for i = 1, n do
      if A[i].ndim ~= 2 then fail(fname, "%d-dimensional array given. Array must be two-dimensional", A[i].ndim) end
    end
    local p = { A[1].shape[1] }
    for i = 1, n do p[i + 1] = A[i].shape[2] end
    -- m[i][j]: cheapest cost of A[i..j]; s[i][j]: split
    local m, s = {}, {}
    for i = 1, n do m[i] = { [i] = 0 }; s[i] = {} end
    for len = 2, n do
      for i = 1, n - len + 1 do
        local j = i + len - 1
        m[i][j] = math.huge
        for k = i, j - 1 do
          local c = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
          if c < m[i][j] then m[i][j], s[i][j] = c, k end
        end
      end
    end
    local function chain(i, j)
      if i == j then return A[i] end
      local k = s[i][j]
      return matmul(chain(i, k), chain(k + 1, j))
    end
    local r = chain(1, n)
    if first_1d and last_1d then r = r:reshape({})
    elseif first_1d then r = r:reshape({ r.shape[2] })
    elseif last_1d then r = r:reshape({ r.shape[1] }) end
    return to_out(fname, r, opts.out)
  end

  --- `a` multiplied by itself `n` times (`numpy.linalg.matrix_power`),
  -- for a square matrix or a stack of them, by repeated squaring; `n = 0`
  -- gives identities, `n < 0` the power of the inverse (`ga.linalg.inv`).
  -- @function ga.matrix_power
  -- @tparam ndarray a (..., M, M)
  -- @tparam int n
  -- @treturn ndarray
  -- @usage
  -- local a = ga.array({{1, 1}, {1, 0}})
  -- print(ga.matrix_power(a, 10))
  -- --> array([[89, 55],
  -- -->        [55, 34]])
  function F.matrix_power(a, n)
    local g = G()
    a = arr("matrix_power", a, 1)
    if math.type(n) ~= "integer" then fail("matrix_power", "exponent must be an integer, got %s", typename(n)) end
    if a.ndim < 2 then
      fail("matrix_power", "%d-dimensional array given. Array must be at least two-dimensional", a.ndim)
    end
    local sh = a.shape
    if sh[a.ndim] ~= sh[a.ndim - 1] then fail("matrix_power", "Last 2 dimensions of the array must be square") end
    if n == 0 then
      local e = g.eye(sh[a.ndim], { dtype = a.dtype })
      return g.broadcast_to(e, sh):copy()
    end
    if n < 0 then
      local inv = g.linalg and rawget(g.linalg, "inv")
      if not inv then fail("matrix_power", "a negative power needs ga.linalg.inv, which this build lacks") end
      a = inv(a)
      n = -n
    end
    if n == 1 then return a:copy() end
    local result, z
    while n > 0 do
      z = z and matmul(z, z) or a
      if n % 2 == 1 then result = result and matmul(result, z) or z end
      n = n // 2
    end
    return rawequal(result, a) and a:copy() or result
  end

  ---------------------------------------------------------------- einsum

  local ELL = "..."

  -- one operand's term -> list of labels (letters, and "@1".."@E" for the
  -- ellipsis dimensions, aligned on the right of the ellipsis)
  local function parse_term(fname, term, which)
    local before, after, has_ell = {}, {}, false
    local i = 1
    while i <= #term do
      local c = term:sub(i, i)
      if term:sub(i, i + 2) == ELL then
        if has_ell then fail(fname, "more than one ellipsis in %s", which) end
        has_ell = true
        i = i + 3
      elseif c:match("%a") then
        if has_ell then after[#after + 1] = c else before[#before + 1] = c end
        i = i + 1
      else
        fail(fname, "invalid subscript '%s' in einstein sum subscripts string, subscripts must be letters", c)
      end
    end
    return before, after, has_ell
  end

  local function einsum_parse(fname, subs, shapes)
    subs = subs:gsub("%s", "")
    local lhs, rhs = subs:match("^(.-)%->(.*)$")
    if not lhs then lhs = subs end
    if rhs and rhs:find("->", 1, true) then fail(fname, "einstein sum subscript string has more than one '->'") end
    local terms = {}
    for t in (lhs .. ","):gmatch("([^,]*),") do terms[#terms + 1] = t end
    if #terms ~= #shapes then
      fail(fname, "%d operands given for %d subscript terms ('%s')", #shapes, #terms, subs)
    end
    local E = 0
    local ops = {}
    for k, t in ipairs(terms) do
      local before, after, has_ell = parse_term(fname, t, "operand " .. k)
      local nd = #shapes[k]
      local ne = nd - #before - #after
      if (not has_ell and ne ~= 0) or ne < 0 then
        fail(fname, "operand %d has %d dimensions, subscripts '%s' name %d", k, nd, t, #before + #after)
      end
      if ne > E then E = ne end
      ops[k] = { before = before, after = after, ne = ne }
    end
    -- labels per operand
    local count = {}
    for _, o in ipairs(ops) do
      local L = {}
      for _, c in ipairs(o.before) do L[#L + 1] = c end
      for e = E - o.ne + 1, E do L[#L + 1] = "@" .. e end
      for _, c in ipairs(o.after) do L[#L + 1] = c end
      o.labels = L
      for _, c in ipairs(L) do count[c] = (count[c] or 0) + 1 end
    end
    local out = {}
    if rhs then
      local before, after, has_ell = parse_term(fname, rhs, "the output")
      local seen = {}
      for _, c in ipairs(before) do out[#out + 1] = c end
      if has_ell then for e = 1, E do out[#out + 1] = "@" .. e end end
      for _, c in ipairs(after) do out[#out + 1] = c end
      if not has_ell and E > 0 then
        -- NumPy: ellipsis dimensions must appear in the output when broadcast;
        -- dimensions of size 1 may be summed
        for e = 1, E do count["@" .. e] = (count["@" .. e] or 0) end
      end
      for _, c in ipairs(out) do
        if seen[c] then
          fail(fname, "einstein sum subscripts string includes output subscript '%s' multiple times", c)
        end
        seen[c] = true
        if not count[c] then
          fail(fname, "einstein sum subscripts string included output subscript '%s' which never appeared in an "
            .. "input", c)
        end
      end
    else
      for e = 1, E do out[#out + 1] = "@" .. e end
      local letters = {}
      for c, n in pairs(count) do if n == 1 and not c:find("@", 1, true) then letters[#letters + 1] = c end end
      table.sort(letters)
      for _, c in ipairs(letters) do out[#out + 1] = c end
    end
    return ops, out
  end

  local function index_of(t, v)
    for i = 1, #t do if t[i] == v then return i end end
    return nil
  end

  -- An einsum call's array operations depend only on the subscripts and
  -- the operands' shapes and dtypes: the first call records them as a
  -- plan (each step: an operation, its array operands as registers, its
  -- constant arguments), later calls with the same key replay it without
  -- parsing or planning anything.  Each operation is f(x, y, c1, c2).
  -- Plans of at most 256 subscripts strings are kept (then all are
  -- dropped and the cache starts again).
  local OP = {
    sum = function(x, _, axes, dt) return G().sum(x, { axis = axes, dtype = dt }) end,
    diagonal = function(x, _, i, j) return G().diagonal(x, 0, i, j) end,
    transpose = function(x, _, perm) return x:transpose(perm) end,
    broadcast = function(x, _, shape) return G().broadcast_to(x, shape) end,
    reshape = function(x, _, shape) return x:reshape(shape) end,
    astype = function(x, _, dt) return x:astype(dt) end,
    matmul = function(x, y) return matmul(x, y) end,
  }
  local REC      -- the plan being recorded: {steps=, reg = array -> register, n=}
  local function same_list(a, b)
    if #a ~= #b then return false end
    for i = 1, #a do if a[i] ~= b[i] then return false end end
    return true
  end
  local function rec(f, x, y, c1, c2)
    -- identity transposes and reshapes to the same shape are left out
    if f == OP.transpose then
      local id = true
      for i = 1, #c1 do id = id and c1[i] == i end
      if id then return x end
    elseif f == OP.reshape and same_list(x.shape, c1) then
      return x
    end
    local r = f(x, y, c1, c2)
    local P = REC
    P.n = P.n + 1
    P.steps[#P.steps + 1] = { f, P.reg[x], y and P.reg[y] or false, c1, c2, P.n }
    P.reg[r] = P.n
    return r
  end
  local PLANS, NPLANS = {}, 0
  local einsum_plan   -- below F.einsum

  -- sum the axes at positions `axes` (list) of operand o (keeps its dtype, as NumPy's einsum)
  local function sum_axes(o, axes)
    if #axes == 0 then return o end
    table.sort(axes)
    local r = rec(OP.sum, o.arr, nil, axes, o.arr.dtype)
    local L = {}
    local drop = {}
    for _, a in ipairs(axes) do drop[a] = true end
    for i, c in ipairs(o.labels) do if not drop[i] then L[#L + 1] = c end end
    return { arr = r, labels = L }
  end

  -- repeated labels of one operand -> its diagonal (the label once, last)
  local function take_diagonals(fname, o)
    local changed = true
    while changed do
      changed = false
      local L = o.labels
      for i = 1, #L do
        local j
        for q = i + 1, #L do if L[q] == L[i] then j = q; break end end
        if j then
          local sh = o.arr.shape
          if sh[i] ~= sh[j] then
            fail(fname, "dimensions in operand for collapsing index '%s' don't match (%d != %d)", L[i], sh[i], sh[j])
          end
          local c = L[i]
          local arr_ = rec(OP.diagonal, o.arr, nil, i, j)
          local NL = {}
          for q = 1, #L do if q ~= i and q ~= j then NL[#NL + 1] = L[q] end end
          NL[#NL + 1] = c
          o = { arr = arr_, labels = NL }
          changed = true
          break
        end
      end
    end
    return o
  end

  -- sum the labels of o that no other operand and not the output has
  local function sum_private(o, others, out)
    local axes = {}
    for i, c in ipairs(o.labels) do
      local needed = index_of(out, c) ~= nil
      for _, p in ipairs(others) do if needed then break end; needed = index_of(p.labels, c) ~= nil end
      if not needed then axes[#axes + 1] = i end
    end
    return sum_axes(o, axes)
  end

  -- contract operands x and y (every label they share that `keep` lacks
  -- is summed) through one (batched) matmul
  local function contract(x, y, keep, size)
    local batch, xo, con, yo = {}, {}, {}, {}
    for _, c in ipairs(x.labels) do
      if index_of(y.labels, c) then
        if keep[c] then batch[#batch + 1] = c else con[#con + 1] = c end
      else
        xo[#xo + 1] = c
      end
    end
    for _, c in ipairs(y.labels) do if not index_of(x.labels, c) then yo[#yo + 1] = c end end
    local function arrange(o, order)
      local perm, shape, full, needb = {}, {}, {}, false
      for i, c in ipairs(order) do
        perm[i] = index_of(o.labels, c)
        shape[i] = o.arr.shape[perm[i]]
        full[i] = size[c]
        if shape[i] ~= full[i] then needb = true end
      end
      local a = rec(OP.transpose, o.arr, nil, perm)
      if needb then a = rec(OP.broadcast, a, nil, full) end
      return a
    end
    local xorder, yorder = {}, {}
    for _, c in ipairs(batch) do xorder[#xorder + 1] = c; yorder[#yorder + 1] = c end
    for _, c in ipairs(xo) do xorder[#xorder + 1] = c end
    for _, c in ipairs(con) do xorder[#xorder + 1] = c; yorder[#yorder + 1] = c end
    for _, c in ipairs(yo) do yorder[#yorder + 1] = c end
    local function sz(list)
      local p = 1
      for _, c in ipairs(list) do p = p * size[c] end
      return p
    end
    local Bn, M, K, N = sz(batch), sz(xo), sz(con), sz(yo)
    local X = rec(OP.reshape, arrange(x, xorder), nil, { Bn, M, K })
    local Y = rec(OP.reshape, arrange(y, yorder), nil, { Bn, K, N })
    local R = rec(OP.matmul, X, Y)
    local shape, labels = {}, {}
    for _, c in ipairs(batch) do shape[#shape + 1] = size[c]; labels[#labels + 1] = c end
    for _, c in ipairs(xo) do shape[#shape + 1] = size[c]; labels[#labels + 1] = c end
    for _, c in ipairs(yo) do shape[#shape + 1] = size[c]; labels[#labels + 1] = c end
    return { arr = rec(OP.reshape, R, nil, shape), labels = labels }
  end

  --- Einstein summation (`numpy.einsum`): `subscripts` names each
  -- operand's axes with letters (`"ij,jk->ik"`); a letter repeated in one
  -- operand takes its diagonal (`"ii->i"`, `"ii"` the trace), letters not
  -- in the output are summed, `...` stands for broadcast leading (or
  -- inner) axes, and without `->` the output is the letters seen once, in
  -- alphabetical order, after the `...` axes.  Two operands are contracted
  -- as one (batched) GEMM on transposed/reshaped views; with more, the
  -- pair whose result is smallest goes first (greedy order).  The dtype is
  -- the operands' promoted one (sums keep it, as NumPy's).  A trailing
  -- options table takes `out=`, `dtype=` and `optimize=` (accepted, the
  -- greedy order is always used).
  -- @function ga.einsum
  -- @tparam string subscripts
  -- @param ... the operands, then optionally `{out=, dtype=, optimize=}`
  -- @treturn ndarray
  -- @usage
  -- local a = ga.arange(6.0):reshape({2, 3})
  -- print(ga.einsum("ij,kj->ik", a, a))
  -- --> array([[ 5., 14.],
  -- -->        [14., 50.]])
  -- print(ga.einsum("ii", ga.eye(3)), ga.einsum("ij->j", a))   --> array(3.)  array([3., 5., 7.])
  -- print(ga.einsum("...j,j", a, ga.ones(3)))                  --> array([ 3., 12.])
  function F.einsum(subscripts, ...)
    local fname = "einsum"
    if type(subscripts) ~= "string" then
      fail(fname, "the first argument must be a subscripts string such as \"ij,jk->ik\", got %s", typename(subscripts))
    end
    local args = table.pack(...)
    local opts = {}
    if args.n > 0 and type(args[args.n]) == "table" and not is_array(args[args.n]) and getmetatable(args[args.n]) == nil
        and (args[args.n].out ~= nil or args[args.n].dtype ~= nil or args[args.n].optimize ~= nil
             or next(args[args.n]) == nil) then
      opts = opts_of(fname, args[args.n], { out = true, dtype = true, optimize = true, casting = true, order = true })
      args.n = args.n - 1
    end
    if args.n == 0 then fail(fname, "no operands given") end
    -- the plan's key, as a path through nested tables (no string is made):
    -- subscripts, dtype option, then each operand's dtype, ndim and lengths
    local A, shapes = {}, {}
    local node = PLANS[subscripts]
    if not node then
      if NPLANS >= 256 then PLANS, NPLANS = {}, 0 end
      node = {}
      PLANS[subscripts] = node
      NPLANS = NPLANS + 1
    end
    local function step(k)
      local nx = node[k]
      if not nx then nx = {}; node[k] = nx end
      node = nx
    end
    step(opts.dtype or false)
    for i = 1, args.n do
      local x = arr(fname, args[i], i + 1)
      local sh = x.shape
      A[i], shapes[i] = x, sh
      step(x.dtype)
      step(#sh)
      for d = 1, #sh do step(sh[d]) end
    end
    local plan = node.plan
    if plan then    -- replay
      local regs = {}
      for i = 1, #A do regs[i] = A[i] end
      for _, st in ipairs(plan.steps) do
        regs[st[6]] = st[1](regs[st[2]], st[3] and regs[st[3]] or nil, st[4], st[5])
      end
      local r = regs[plan.result]
      if opts.out ~= nil then return to_out(fname, r, opts.out) end
      return r
    end
    local P = { steps = {}, reg = {}, n = #A }
    for i = 1, #A do P.reg[A[i]] = i end
    REC = P
    local r = einsum_plan(fname, subscripts, A, shapes, opts)
    REC = nil
    node.plan = { steps = P.steps, result = P.reg[r] }
    if opts.out ~= nil then return to_out(fname, r, opts.out) end
    return r
  end

  -- the planning (recording) run of einsum: checks, the parse, and the
  -- operations through rec()
  function einsum_plan(fname, subscripts, A, shapes, opts)
    local dt = C.dtype(fname, opts.dtype)
    if not dt then
      dt = A[1].dtype
      for i = 2, #A do dt = core.promote_types(dt, A[i].dtype) end
    end
    for i = 1, #A do if A[i].dtype ~= dt then A[i] = rec(OP.astype, A[i], nil, dt) end end
    local ops, out = einsum_parse(fname, subscripts, shapes)
    -- label sizes (1 broadcasts)
    local size = {}
    for k, o in ipairs(ops) do
      local mine = {}
      for i, c in ipairs(o.labels) do
        local n = shapes[k][i]
        if mine[c] and mine[c] ~= n then
          fail(fname, "dimensions in operand for collapsing index '%s' don't match (%d != %d)", c, mine[c], n)
        end
        mine[c] = n
        if size[c] == nil or size[c] == 1 then size[c] = n
        elseif n ~= 1 and n ~= size[c] then
          local nm = c:sub(1, 1) == "@" and "..." or c
          fail(fname, "operands could not be broadcast together: subscript '%s' has size %d in operand %d and %d "
            .. "before", nm, n, k, size[c])
        end
      end
    end
    local list = {}
    for k, o in ipairs(ops) do list[k] = take_diagonals(fname, { arr = A[k], labels = o.labels }) end
    -- sum what only one operand has
    for k = 1, #list do
      local others = {}
      for q = 1, #list do if q ~= k then others[#others + 1] = list[q] end end
      list[k] = sum_private(list[k], others, out)
    end
    -- contract pairs, the smallest result first
    while #list > 1 do
      local best, bi, bj, bkeep
      for i = 1, #list - 1 do
        for j = i + 1, #list do
          local keep = {}
          for _, c in ipairs(out) do keep[c] = true end
          for q = 1, #list do
            if q ~= i and q ~= j then for _, c in ipairs(list[q].labels) do keep[c] = true end end
          end
          local cost, seen = 1, {}
          for _, o in ipairs { list[i], list[j] } do
            for _, c in ipairs(o.labels) do
              if keep[c] and not seen[c] then seen[c] = true; cost = cost * size[c] end
            end
          end
          if not best or cost < best then best, bi, bj, bkeep = cost, i, j, keep end
        end
      end
      local r = contract(list[bi], list[bj], bkeep, size)
      table.remove(list, bj)
      table.remove(list, bi)
      local others = {}
      for q = 1, #list do others[#others + 1] = list[q] end
      list[#list + 1] = sum_private(r, others, out)
    end
    local o = list[1]
    -- any label left that the output lacks (ellipsis dims of size 1)
    local axes = {}
    for i, c in ipairs(o.labels) do if not index_of(out, c) then axes[#axes + 1] = i end end
    o = sum_axes(o, axes)
    local perm, bshape, needb = {}, {}, false
    for i, c in ipairs(out) do
      perm[i] = index_of(o.labels, c)
      bshape[i] = size[c]
      if o.arr.shape[perm[i]] ~= size[c] then needb = true end
    end
    local r = o.arr
    if #perm > 0 then r = rec(OP.transpose, r, nil, perm) end
    if needb then r = rec(OP.broadcast, r, nil, bshape) end
    return r
  end

  ---------------------------------------------------------------- linalg (array API)

  local L = {}

  --- Matrix product (the array API's `linalg.matmul`): the same as
  -- `ga.matmul`.
  -- @function ga.linalg.matmul
  -- @tparam ndarray a
  -- @tparam ndarray b
  -- @treturn ndarray
  -- @usage print(ga.linalg.matmul(ga.eye(2), ga.array({1.0, 2.0})))   --> array([1., 2.])
  L.matmul = function(a, b, opts)
    a, b = arr("matmul", a, 1), arr("matmul", b, 2)
    return matmul(a, b, opts)
  end

  --- The matrices of a stack transposed (the array API's
  -- `linalg.matrix_transpose`): a view with the last two axes swapped.
  -- @function ga.linalg.matrix_transpose
  -- @tparam ndarray x at least 2-D
  -- @treturn ndarray a view
  -- @usage print(ga.linalg.matrix_transpose(ga.ones({4, 2, 3})).shape[2])   --> 3
  function L.matrix_transpose(x)
    x = arr("matrix_transpose", x, 1)
    if x.ndim < 2 then
      fail("matrix_transpose", "x must be at least 2-dimensional for matrix_transpose, got %d-D", x.ndim)
    end
    return G().swapaxes(x, -1, -2)
  end

  --- Vector dot products along an axis (the array API's `linalg.vecdot`):
  -- `sum(conj(x1) * x2, axis)`, the other axes broadcast.
  -- @function ga.linalg.vecdot
  -- @tparam ndarray x1
  -- @tparam ndarray x2
  -- @tparam[opt] table opts `{axis=}` (1-based, default -1)
  -- @treturn ndarray
  -- @usage print(ga.linalg.vecdot(ga.ones({2, 3}), ga.array({1.0, 2.0, 3.0})))   --> array([6., 6.])
  function L.vecdot(x1, x2, opts)
    local g = G()
    x1, x2 = arr("vecdot", x1, 1), arr("vecdot", x2, 2)
    if type(opts) == "number" then opts = { axis = opts } end
    opts = opts_of("vecdot", opts, { axis = true })
    local ax = opts.axis or -1
    if x1.ndim < 1 or x2.ndim < 1 then fail("vecdot", "operands must have at least one dimension") end
    local nd = math.max(x1.ndim, x2.ndim)
    ax = axis1("vecdot", ax, nd)
    local p = ax - nd    -- non-positive offset from the end
    local l1, l2 = x1.shape[x1.ndim + p], x2.shape[x2.ndim + p]
    if l1 == nil or l2 == nil or l1 ~= l2 then
      fail("vecdot", "x1 and x2 must have the same size along the axis (%s and %s)", tostring(l1), tostring(l2))
    end
    if x1.dtype == "complex64" or x1.dtype == "complex128" then x1 = g.conj(x1) end
    local y1, y2 = g.moveaxis(x1, x1.ndim + p, -1), g.moveaxis(x2, x2.ndim + p, -1)
    local r = matmul(g.expand_dims(y1, -2), g.expand_dims(y2, -1))
    local sh = r.shape
    sh[#sh], sh[#sh - 1] = nil, nil
    return r:reshape(sh)
  end

  F.linalg = L
  return F
end

local G, H = build(false), build(true)
local LG, LH = G.linalg, H.linalg
G.linalg, H.linalg = nil, nil

--- Dot product (see `ga.dot`): `x:dot(b)`.
-- @function ndarray:dot
-- @tparam ndarray b
-- @param[opt] out an array, or `{out=}`
-- @treturn ndarray
-- @usage
-- local a = ga.array({{1, 2}, {3, 4}}, "float64")
-- print(a:dot(a.T))
-- --> array([[ 5., 11.],
-- -->        [11., 25.]])
core.ndarray_methods.dot = G.dot

return { ga = G, host = H, linalg = { ga = LG, host = LH } }
