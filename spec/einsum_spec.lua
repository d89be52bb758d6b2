-- ga.einsum on every device against explicit Lua loops (a brute-force sum
-- over every assignment of the labels) for ~55 subscripts strings: implicit
-- and explicit outputs, traces and diagonals (repeated labels), sums over
-- labels, outer products, chains of 3-5 operands (the greedy contraction
-- order); `...` against the same string with the ellipsis spelled out; the
-- dtype rules, out=, and bad inputs.
local helper = require "spec.helper"
local ga = helper.ga

-- The labels of each operand and of the output ("->" or NumPy's implicit rule).
local function parse(subs)
  local lhs, rhs = subs:match("^(.-)%->(.*)$")
  lhs = lhs or subs
  local terms = {}
  for t in (lhs .. ","):gmatch("([^,]*),") do terms[#terms + 1] = t end
  local count = {}
  for _, t in ipairs(terms) do for c in t:gmatch("%a") do count[c] = (count[c] or 0) + 1 end end
  local out = rhs
  if not out then
    local l = {}
    for c, n in pairs(count) do if n == 1 then l[#l + 1] = c end end
    table.sort(l)
    out = table.concat(l)
  end
  return terms, out
end

-- sizes for the labels: 2, 3 or 4 (distinct where it helps catch transposes)
local SIZE = { i = 2, j = 3, k = 4, l = 2, a = 3, b = 2, c = 4, d = 3, e = 2, J = 3, A = 2 }

-- values of operand q at a flat index p: small integers
local function val(q, p) return ((p * 5 + q * 3 + p * p) % 7) - 3 end

local function brute(subs, shapes)
  local terms, out = parse(subs)
  local labels = {}
  local seen = {}
  for _, t in ipairs(terms) do
    for c in t:gmatch("%a") do if not seen[c] then seen[c] = true; labels[#labels + 1] = c end end
  end
  local oshape = {}
  for c in out:gmatch("%a") do oshape[#oshape + 1] = SIZE[c] end
  local osize = 1
  for _, n in ipairs(oshape) do osize = osize * n end
  local res = {}
  for p = 1, osize do res[p] = 0 end
  local idx = {}
  local function flat_index(term, shape)
    local p, stride = 0, 1
    for d = #term, 1, -1 do
      p = p + idx[term:sub(d, d)] * stride
      stride = stride * shape[d]
    end
    return p
  end
  local function rec(n)
    if n > #labels then
      local prod = 1
      for q, t in ipairs(terms) do prod = prod * val(q, flat_index(t, shapes[q])) end
      local o = 0
      local stride = 1
      for d = #out, 1, -1 do
        o = o + idx[out:sub(d, d)] * stride
        stride = stride * oshape[d]
      end
      res[o + 1] = res[o + 1] + prod
      return
    end
    for v = 0, SIZE[labels[n]] - 1 do
      idx[labels[n]] = v
      rec(n + 1)
    end
  end
  rec(1)
  return res, oshape
end

local function operands(xp, subs, dt)
  local terms = parse(subs)
  local ops, shapes = {}, {}
  for q, t in ipairs(terms) do
    local shape, n = {}, 1
    for c in t:gmatch("%a") do shape[#shape + 1] = SIZE[c]; n = n * SIZE[c] end
    local v = {}
    for p = 0, n - 1 do v[p + 1] = val(q, p) end
    shapes[q] = shape
    ops[q] = xp.array(v, dt):reshape(shape)
  end
  return ops, shapes
end

local function flat(x)
  local t = ga.asnumpy(x):ravel():tolist()
  if type(t) ~= "table" then t = { t } end
  return t
end

local CASES = {
  -- one operand: transposes, traces, diagonals, sums
  "ij->ji", "ij", "ji", "ii->i", "ii", "ij->", "ij->i", "ij->j", "ijk->kji", "ijk->ik", "ijk->j",
  "iij->ij", "iji->ij", "iji->ji", "iii->i", "iii", "jii->j",
  -- two operands
  "i,i->", "i,i", "i,j->ij", "i,j", "i,j->ji", "ij,j->i", "ij,jk->ik", "ij,jk", "ij,kj->ik", "ji,jk->ik",
  "ij,ij->ij", "ij,ij->", "ij,ij->i", "ij,ji->", "ijk,ikl->ijl", "bij,bjk->bik", "bij,bkj->bik",
  "bij,bjk->b", "bij,bjk->ik", "abc,cd->abd", "abc,bcd->ad", "ijk,jk->i", "ijk,kj->ij", "ij,k->ijk",
  "ij,k->ik", "ab,cd->abcd", "ab,cd->acbd", "iJ,Jk->ik", "Ab,bA->A", "aab,bc->ac", "ii,ij->j",
  -- three or more: the greedy order
  "i,j,k->ijk", "ij,jk,kl->il", "ij,jk,kl->", "ij,jk,ki->", "i,ij,j->", "ab,bc,cd,de->ae",
  "ab,ab,ab->ab", "a,a,a->a", "ij,jk,kl,li->", "abc,cd,de->abe",
}

helper.each_device(function(xp)
  describe("against explicit loops", function()
    for _, subs in ipairs(CASES) do
      for _, dt in ipairs { "int64", "float64" } do
        it(subs .. " " .. dt, function()
          local ops, shapes = operands(xp, subs, dt)
          local want, oshape = brute(subs, shapes)
          local got = ga.einsum(subs, table.unpack(ops))
          assert.are.equal(dt, got.dtype)
          assert.are.same(oshape, got.shape)
          local f = flat(got)
          for p = 1, #want do assert.are.equal(want[p], f[p], subs .. " element " .. p) end
        end)
      end
    end
  end)

  it("a cached plan replays with new values (and a failed call caches nothing)", function()
    for round = 1, 3 do
      local a = xp.arange(12.0):reshape({ 3, 4 }) * round
      local b = xp.arange(20.0):reshape({ 4, 5 }) - round
      local r = ga.einsum("ij,jk,k->i", a, b, xp.ones(5))
      local want = ga.matmul(ga.matmul(a, b), xp.ones(5))
      assert.are.same(want:totable(), r:totable())
      assert.has_error(function() ga.einsum("ij,jk,k->i", a, b, xp.ones(6)) end)
    end
  end)

  describe("ellipsis", function()
    local function same(a, b)
      assert.are.same(b.shape, a.shape)
      assert.are.same(flat(b), flat(a))
    end
    local x = xp.arange(24.0):reshape({ 2, 3, 4 })
    local y = xp.arange(40.0):reshape({ 2, 4, 5 }) - 7
    it("...ij,...jk->...ik is a batched matmul", function()
      same(ga.einsum("...ij,...jk->...ik", x, y), ga.einsum("bij,bjk->bik", x, y))
      same(ga.einsum("...ij,...jk", x, y), ga.matmul(x, y))
    end)
    it("broadcast ellipsis dimensions", function()
      local a = xp.arange(12.0):reshape({ 1, 3, 4 })
      same(ga.einsum("...ij,...jk->...ik", a, y), ga.matmul(a, y))
    end)
    it("...i,...i->... and inner ellipses", function()
      same(ga.einsum("...i,...i->...", x, x), ga.einsum("abi,abi->ab", x, x))
      same(ga.einsum("i...->...i", x), ga.einsum("iab->abi", x))
      same(ga.einsum("ij...,j...->i...", x, x[1]), ga.einsum("ija,ja->ia", x, x[1]))
      same(ga.einsum("...ii->...i", xp.arange(18.0):reshape({ 2, 3, 3 })),
        ga.einsum("aii->ai", xp.arange(18.0):reshape({ 2, 3, 3 })))
      same(ga.einsum("...", x), x)
      same(ga.einsum("...j,j", x, xp.ones(4)), ga.matmul(x, xp.ones(4)))
    end)
    it("a 0-d operand", function()
      same(ga.einsum("i,->i", xp.arange(3.0), xp.array(2.0)), xp.arange(3.0) * 2)
      same(ga.einsum(",", xp.array(2.0), xp.array(3.0)), xp.array(6.0))
    end)
  end)

  describe("dtypes and options", function()
    it("promotes the operands; sums keep the dtype (int8 wraps as NumPy's)", function()
      local a = xp.full({ 3 }, 100, "int8")
      local r = ga.einsum("i,i", a, a)
      assert.are.equal("int8", r.dtype)
      assert.are.equal((30000 + 128) % 256 - 128, r:item())
      assert.are.equal("float32", ga.einsum("i,i", a, xp.ones(3, "float32")).dtype)
      assert.are.equal("float64", ga.einsum("i,i", a, a, { dtype = "float64" }).dtype)
      local z = ga.einsum("ij,jk", xp.ones({ 2, 2 }, "complex64"), xp.ones({ 2, 2 }, "complex64"))
      assert.are.equal("complex64", z.dtype)
      assert.are.equal(2, z.real[{ 1, 1 }]:item())
      assert.are.equal("bool", ga.einsum("ij,jk", xp.ones({ 2, 2 }, "bool"), xp.ones({ 2, 2 }, "bool")).dtype)
    end)
    it("out=", function()
      local o = xp.zeros({ 2, 2 })
      local r = ga.einsum("ij,jk->ik", xp.ones({ 2, 3 }), xp.ones({ 3, 2 }), { out = o })
      assert.is_true(rawequal(o, r))
      assert.are.same({ { 3, 3 }, { 3, 3 } }, o:totable())
    end)
  end)

  describe("bad inputs", function()
    it("each a clear error", function()
      local a = xp.ones({ 2, 3 })
      assert.has_error(function() ga.einsum("ij,jk", a) end, "einsum: 1 operands given for 2 subscript terms ('ij,jk')")
      assert.has_error(function() ga.einsum("ijk", a) end,
        "einsum: operand 1 has 2 dimensions, subscripts 'ijk' name 3")
      assert.has_error(function() ga.einsum("i1", a) end,
        "einsum: invalid subscript '1' in einstein sum subscripts string, subscripts must be letters")
      assert.has_error(function() ga.einsum("ij->k", a) end,
        "einsum: einstein sum subscripts string included output subscript 'k' which never appeared in an input")
      assert.has_error(function() ga.einsum("ij->ii", a) end,
        "einsum: einstein sum subscripts string includes output subscript 'i' multiple times")
      assert.has_error(function() ga.einsum("ii", a) end,
        "einsum: dimensions in operand for collapsing index 'i' don't match (2 != 3)")
      assert.has_error(function() ga.einsum("ij,ij", a, xp.ones({ 2, 4 })) end,
        "einsum: operands could not be broadcast together: subscript 'j' has size 4 in operand 2 and 3 before")
      assert.has_error(function() ga.einsum(a, a) end)
      assert.has_error(function() ga.einsum("i...j...", a) end, "einsum: more than one ellipsis in operand 1")
    end)
  end)
end)
