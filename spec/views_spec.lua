-- Everything accepts views (issue 4): the foundation and ufunc op families on
-- transposed, stepped, negatively strided, broadcast (stride 0) and offset
-- views, against the same op on a contiguous copy of the data (which the
-- other specs check against NumPy), some against hand-worked values, and the
-- GPU against the host.  The views are built with core._strided_view, a
-- spec-only helper (slicing builds them once it lands).
local helper = require "spec.helper"
local ga = helper.ga
local sv = ga.core._strided_view

local A = { { 1, -2, 3, 4 }, { 5, 6, -7, 8 }, { -9, 10, 11, 12 } }   -- 3 x 4
local B = { { 2, 3, -1, 5 }, { 7, -4, 2, 1 }, { 3, 3, 6, -2 } }
local JUNK = 77   -- fills the bytes a view skips: a wrong stride shows

local function flat(t)
  local r = {}
  for _, row in ipairs(t) do for _, v in ipairs(row) do r[#r + 1] = v end end
  return r
end

-- The m x n table `t` as a view of the given layout: {name, x, t} where t is
-- the view's logical value (the broadcast view repeats t's first row).
local function view(xp, layout, t, dtype)
  local m, n = #t, #t[1]
  local isz = helper.ITEMSIZE[dtype]
  if layout == "contiguous" then
    return xp.array(t, dtype), t
  elseif layout == "transposed" then        -- the buffer holds t's transpose
    return sv(xp.array(helper.transpose(t), dtype), { m, n }, { isz, m * isz }, 0), t
  elseif layout == "stepped" then           -- every 2nd row, every 3rd column
    local big = {}
    for i = 1, 2 * m do
      big[i] = {}
      for j = 1, 3 * n do big[i][j] = JUNK end
    end
    for i = 1, m do for j = 1, n do big[2 * i - 1][3 * j - 2] = t[i][j] end end
    return sv(xp.array(big, dtype), { m, n }, { 2 * 3 * n * isz, 3 * isz }, 0), t
  elseif layout == "negative" then          -- both axes reversed in memory
    local rev = {}
    for i = 1, m do
      rev[i] = {}
      for j = 1, n do rev[i][j] = t[m + 1 - i][n + 1 - j] end
    end
    return sv(xp.array(rev, dtype), { m, n }, { -n * isz, -isz }, ((m - 1) * n + n - 1) * isz), t
  elseif layout == "offset" then            -- 5 elements before the data
    local f = flat(t)
    for _ = 1, 5 do table.insert(f, 1, JUNK) end
    f[#f + 1] = JUNK
    return sv(xp.array(f, dtype), { m, n }, { n * isz, isz }, 5 * isz), t
  elseif layout == "broadcast" then         -- one row, stride 0 down the columns
    local r = {}
    for i = 1, m do r[i] = t[1] end
    return sv(xp.array({ JUNK, table.unpack(t[1]) }, dtype), { m, n }, { 0, isz }, isz), r
  end
  error("no layout " .. layout)
end

local LAYOUTS = { "transposed", "stepped", "negative", "offset", "broadcast" }

local function tmap(t, f)
  local r = {}
  for i, row in ipairs(t) do
    r[i] = {}
    for j, v in ipairs(row) do r[i][j] = f(v, i, j) end
  end
  return r
end

-- f(xp, x, y) on views of A and B (layouts la, lb) and on contiguous
-- copies of the same values; the two must agree (values and dtype).
local function same_as_contiguous(xp, f, la, lb, dtype, opts)
  local x, tx = view(xp, la, A, dtype)
  local y, ty = view(xp, lb, B, dtype)
  local got = { f(xp, x, y) }
  local want = { f(xp, xp.array(tx, dtype), xp.array(ty, dtype)) }
  assert.are.equal(#want, #got)
  for k = 1, #want do
    if helper.is_array(want[k]) then assert.are.equal(want[k].dtype, got[k].dtype) end
    helper.assert_close(got[k], want[k], opts or { equal_nan = true })
  end
end

local FAMILIES = {
  { "copy", function(_, x) return x:copy() end },
  { "ascontiguousarray", function(xp, x) return xp.ascontiguousarray(x) end },
  { "astype", function(_, x) return x:astype("float32") end },
  { "add", function(_, x, y) return x + y end },
  { "subtract", function(_, x, y) return x - y end },
  { "multiply", function(_, x, y) return x * y end },
  { "true_divide", function(_, x, y) return x / y end },
  { "floor_divide", function(_, x, y) return x // y end },
  { "remainder", function(_, x, y) return x % y end },
  { "power", function(_, x) return x ^ 2 end },
  { "negative", function(_, x) return -x end },
  { "scalar", function(_, x) return x * 2.5 + 1 end },
  { "exp", function(_, x) return ga.exp(x) end },
  { "sqrt", function(_, x) return ga.sqrt(ga.absolute(x)) end },
  { "sin", function(_, x) return ga.sin(x) end },
  { "floor", function(_, x) return ga.floor(x / 3) end },
  { "maximum", function(_, x, y) return ga.maximum(x, y) end },
  { "arctan2", function(_, x, y) return ga.arctan2(x, y) end },
  { "isnan", function(_, x) return ga.isnan(x / 0) end },
  { "logical_and", function(_, x, y) return ga.logical_and(x, y) end },
  { "less", function(_, x, y) return ga.less(x, y) end },
  { "ge", function(_, x, y) return x:ge(y) end },
  { "equal", function(_, x, y) return ga.equal(x, y) end },
  { "divmod", function(_, x, y) return ga.divmod(x, y) end },
  { "modf", function(_, x) return ga.modf(x / 4) end },
  { "frexp", function(_, x) return ga.frexp(x) end },
  { "matmul", function(_, x, y) return ga.matmul(x, y.T) end },
  { "totable", function(_, x) return x:totable() end },
  { "get", function(_, x) return x:get():totable() end },   -- a host copy: compare values
}

describe("views", function()
  helper.each_device(function(xp)
    for _, la in ipairs(LAYOUTS) do
      for _, fam in ipairs(FAMILIES) do
        it(fam[1] .. " accepts a " .. la .. " view", function()
          -- the second operand in another layout, so the two disagree
          local lb = la == "transposed" and "negative" or "transposed"
          same_as_contiguous(xp, fam[2], la, lb, "float64")
        end)
      end
      it("integer ops accept a " .. la .. " view", function()
        same_as_contiguous(xp, function(_, x, y) return x & y, x << 1, x // y, ga.gcd(x, y) end,
          la, "stepped", "int32")
        same_as_contiguous(xp, function(_, x) return x:astype("int8"), x:astype("float16") end,
          la, la, "int64")
      end)
      it("tostring of a " .. la .. " view", function()
        local x, t = view(xp, la, A, "float32")
        assert.are.equal(tostring(xp.array(t, "float32")), tostring(x))
      end)
      it("complex ops accept a " .. la .. " view", function()
        same_as_contiguous(xp, function(_, x, y) return x * y + 1, ga.exp(x / 8), ga.conj(x) end,
          la, "negative", "complex128")
      end)
    end

    it("hand-worked: values through each layout", function()
      local x = view(xp, "transposed", A, "int64")
      assert.are.same({ { 1, -2, 3, 4 }, { 5, 6, -7, 8 }, { -9, 10, 11, 12 } }, x:totable())
      local n = view(xp, "negative", A, "int64")
      assert.are.same({ { 2, -4, 6, 8 }, { 10, 12, -14, 16 }, { -18, 20, 22, 24 } }, (n * 2):totable())
      local s = view(xp, "stepped", A, "float64")
      assert.are.same({ { 1, 5, -9 }, { -2, 6, 10 }, { 3, -7, 11 }, { 4, 8, 12 } },
        xp.ascontiguousarray(s.T):totable())
      local b = view(xp, "broadcast", A, "int32")
      assert.are.same({ { 3, 1, 2, 9 }, { 8, -6, 5, 5 }, { 4, 1, 9, 2 } },
        (b + view(xp, "offset", B, "int32")):totable())
      local q, r = ga.divmod(view(xp, "negative", A, "int64"), 3)
      assert.are.same({ { 0, -1, 1, 1 }, { 1, 2, -3, 2 }, { -3, 3, 3, 4 } }, q:totable())
      assert.are.same({ { 1, 1, 0, 1 }, { 2, 0, 2, 2 }, { 0, 1, 2, 0 } }, r:totable())
      -- (3x4) @ (4x3) through a stepped and a transposed view
      local m = ga.matmul(view(xp, "stepped", A, "float64"), view(xp, "transposed", B, "float64").T)
      assert.are.same({ { 13, 25, 7 }, { 75, 5, -25 }, { 61, -69, 45 } }, m:totable())
    end)

    it("writes through views: set and out=", function()
      for _, la in ipairs { "transposed", "stepped", "negative", "offset" } do
        local x, t = view(xp, la, A, "float64")
        x:set(xp.array(B, "float64"))
        assert.are.same(B, x:totable(), la)
        ga.add(xp.array(t, "float64"), 1, { out = x })
        assert.are.same(tmap(A, function(v) return v + 1 end), x:totable(), la)
        x:set(xp.full({ 3, 4 }, 0.5, "float64"))
        assert.are.same(tmap(A, function() return 0.5 end), x:totable(), la)
      end
      -- the bytes a stepped view skips are untouched
      local base = xp.full({ 4, 6 }, JUNK, "int32")
      local s = sv(base, { 2, 2 }, { 2 * 6 * 4, 3 * 4 }, 4)
      s:set(xp.array({ { 1, 2 }, { 3, 4 } }, "int32"))
      assert.are.same({ { 77, 1, 77, 77, 2, 77 }, { 77, 77, 77, 77, 77, 77 }, { 77, 3, 77, 77, 4, 77 },
                        { 77, 77, 77, 77, 77, 77 } }, base:totable())
    end)

    it("overlapping views give NumPy's results (the input is copied first)", function()
      local x = xp.arange(6, "float64")
      sv(x, { 5 }, { 8 }, 8):set(sv(x, { 5 }, { 8 }, 0))          -- x[1:] = x[:-1]
      assert.are.same({ 0, 0, 1, 2, 3, 4 }, x:totable())
      x = xp.arange(6, "float64")
      ga.add(sv(x, { 5 }, { 8 }, 8), 10, { out = sv(x, { 5 }, { 8 }, 0) })   -- out=x[:-1]
      assert.are.same({ 11, 12, 13, 14, 15, 5 }, x:totable())
      x = xp.arange(6, "int32")
      ga.add(x, 0, { out = sv(x, { 6 }, { -4 }, 20) })              -- reversed in place
      assert.are.same({ 5, 4, 3, 2, 1, 0 }, x:totable())
      x = xp.arange(16, "float32")                                  -- an in-place transpose
      local m = sv(x, { 4, 4 }, { 16, 4 }, 0)
      m:set(sv(x, { 4, 4 }, { 4, 16 }, 0))
      assert.are.same({ 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 }, x:totable())
      x = xp.arange(6, "float64")                                   -- identical view: in place
      ga.multiply(x, x, { out = x })
      assert.are.same({ 0, 1, 4, 9, 16, 25 }, x:totable())
      x = xp.arange(4, "int64")                                     -- both outputs of divmod
      local q = sv(x, { 3 }, { 8 }, 8)
      ga.divmod(sv(x, { 3 }, { 8 }, 0), 2, { out = { q, xp.empty(3, "int64") } })
      assert.are.same({ 0, 0, 0, 1 }, x:totable())
    end)
  end)

  describe("GPU matches host on every layout", function()
    for _, la in ipairs(LAYOUTS) do
      for _, fam in ipairs(FAMILIES) do
        it(fam[1] .. " on a " .. la .. " view", function()
          helper.assert_gpu_vs_host(function(xp)
            local x = view(xp, la, A, "float32")
            local y = view(xp, la == "transposed" and "negative" or "transposed", B, "float32")
            local r = { fam[2](xp, x, y) }
            if #r == 1 then return r[1] end
            for k = 1, #r do r[k] = helper.totable(r[k]) end
            return r
          end, { equal_nan = true })
        end)
      end
    end

    it("large tiled layouts: transposes, batches, odd edges, every dtype", function()
      if not helper.has_gpu() then return end
      for _, dt in ipairs(helper.DTYPES) do
        local isz = helper.ITEMSIZE[dt]
        for _, shp in ipairs { { 70, 45 }, { 33, 1031 }, { 16, 16 } } do
          local m, n = shp[1], shp[2]
          helper.assert_gpu_vs_host(function(xp)
            local x = (xp.arange(m * n, "int64") % 97):astype(dt)
            local t = sv(x, { n, m }, { isz, n * isz }, 0)              -- x.T
            local r = sv(x, { m // 2, n // 2 }, { 2 * n * isz, 2 * isz }, 0)   -- x[::2, ::2]
            local out = xp.ascontiguousarray(t)
            return { out:totable(), r:copy():totable(),
                     xp.ascontiguousarray(sv(out, { m, n }, { isz, m * isz }, 0)):totable() }
          end)
        end
        helper.assert_gpu_vs_host(function(xp)   -- a batch of transposes, 3-d
          local x = (xp.arange(3 * 40 * 50, "int64") % 89):astype(dt)
          return xp.ascontiguousarray(sv(x, { 3, 50, 40 }, { 40 * 50 * isz, isz, 50 * isz }, 0))
        end)
      end
    end)

    it("ElementwiseKernel on views", function()
      if not helper.has_gpu() then return end
      local k = ga.ElementwiseKernel("float64 a, float64 b", "float64 z", "z = a * 2 + b", "views_k")
      for _, la in ipairs(LAYOUTS) do
        local x, tx = view(ga, la, A, "float64")
        local y, ty = view(ga, "negative", B, "float64")
        helper.assert_close(k(x, y), tmap(tx, function(v, i, j) return v * 2 + ty[i][j] end))
      end
    end)
  end)
end)
