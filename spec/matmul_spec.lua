-- ga.matmul / a:dot(b) for 2-D float16/32/64: square, rectangular,
-- transposed operands, against hand-computed products and (on a GPU) the
-- host; mismatched inner dimensions are an error.
local helper = require "spec.helper"
local ga = helper.ga

local function mm(a, b)
  local n, k, m = #a, #b, #b[1]
  assert(#a[1] == k)
  local c = {}
  for i = 1, n do
    c[i] = {}
    for j = 1, m do
      local s = 0
      for p = 1, k do s = s + a[i][p] * b[p][j] end
      c[i][j] = s
    end
  end
  return c
end

-- small integers in [-3, 3]: every product is exact in float16 too
local function data(n, m, seed)
  local t = {}
  for i = 1, n do
    t[i] = {}
    for j = 1, m do t[i][j] = ((i * 5 + j * 3 + i * j + seed) % 7) - 3 end
  end
  return t
end

local T = helper.transpose

local CASES = {
  { "2x2 @ 2x2", { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } }, { { 19, 22 }, { 43, 50 } } },
  { "2x3 @ 3x1", { { 1, 2, 3 }, { 4, 5, 6 } }, { { 1 }, { 0 }, { -1 } }, { { -2 }, { -2 } } },
  { "1x3 @ 3x2", { { 1, 2, 3 } }, { { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { 22, 28 } } },
  { "3x1 @ 1x3 (outer)", { { 1 }, { 2 }, { 3 } }, { { 4, 5, 6 } }, { { 4, 5, 6 }, { 8, 10, 12 }, { 12, 15, 18 } } },
  { "2x2 @ identity", { { 1.5, -2 }, { 0.25, 4 } }, { { 1, 0 }, { 0, 1 } }, { { 1.5, -2 }, { 0.25, 4 } } },
}

helper.each_device(function(xp, dev)
  for _, dt in ipairs(helper.FLOATS) do
    describe(dt, function()
      for _, c in ipairs(CASES) do
        it(c[1], function()
          local a, b = xp.array(c[2], dt), xp.array(c[3], dt)
          for _, r in ipairs { ga.matmul(a, b), a:dot(b) } do
            assert.are.equal(dt, r.dtype)
            assert.are.equal(dev.name, helper.devstr(r.device))
            assert.are.same({ #c[4], #c[4][1] }, r.shape)
            assert.are.same(c[4], r:totable())
          end
        end)
      end

      it("transposed operands via .T", function()
        local A, B = data(5, 3, 1), data(4, 5, 2) -- A^T (3x5) @ B^T (5x4)
        local at, bt = xp.array(A, dt).T, xp.array(B, dt).T
        assert.is_false(at.flags.c_contiguous)
        local want = mm(T(A), T(B))
        assert.are.same(want, ga.matmul(at, bt):totable())
        -- one operand transposed
        local b2 = xp.array(T(B), dt)
        assert.are.same(want, ga.matmul(at, b2):totable())
        assert.are.same(want, xp.array(T(A), dt):dot(bt):totable())
      end)

      it("rectangular 33x17 @ 17x9 against the Lua product", function()
        local A, B = data(33, 17, 3), data(17, 9, 4)
        local r = ga.matmul(xp.array(A, dt), xp.array(B, dt))
        assert.are.same({ 33, 9 }, r.shape)
        assert.are.same(mm(A, B), r:totable())
      end)

      it("(k=0) 2x0 @ 0x3 is zeros", function()
        local r = ga.matmul(xp.zeros({ 2, 0 }, dt), xp.zeros({ 0, 3 }, dt))
        assert.are.same({ { 0, 0, 0 }, { 0, 0, 0 } }, r:totable())
      end)

      it("mismatched inner dimensions are an error", function()
        local a, b = xp.zeros({ 2, 3 }, dt), xp.zeros({ 2, 3 }, dt)
        local before = helper.used(xp)
        helper.assert_error(function() return ga.matmul(a, b) end, "matmul: ")
        helper.assert_error(function() return a:dot(b) end, ": ")
        if before then assert.are.equal(before, helper.used(xp)) end
      end)
    end)
  end

  it("float32 @ float64 promotes to float64", function()
    local r = ga.matmul(xp.array({ { 1, 2 } }, "float32"), xp.array({ { 3 }, { 4 } }, "float64"))
    assert.are.equal("float64", r.dtype)
    assert.are.same({ { 11 } }, r:totable())
  end)
end)

describe("GPU against host", function()
  for _, dt in ipairs(helper.FLOATS) do
    for _, shape in ipairs { { 64, 64, 64 }, { 100, 37, 129 }, { 256, 512, 128 } } do
      local n, k, m = shape[1], shape[2], shape[3]
      for _, tr in ipairs { "NN", "TN", "NT", "TT" } do
        it(string.format("%s %dx%d @ %dx%d %s", dt, n, k, k, m, tr), function()
          -- values (i%5 - 2)/4 and similar: exact in every float dtype, sums
          -- stay well inside float16's range
          local function operand(xm, rows, cols, transposed, s)
            local r, c = rows, cols
            if transposed then r, c = cols, rows end
            local col = {}
            for i = 1, r do col[i] = { ((i + s) % 5 - 2) / 4 } end
            local row = {}
            for j = 1, c do row[j] = ((j * 3 + s) % 7 - 3) / 4 end
            local x = xm.array(col, dt) * xm.array(row, dt) + xm.eye(r, c, 0, dt)
            if transposed then x = x.T end
            return x
          end
          local ok, msg = helper.check_gpu_vs_host(function(xm)
            return ga.matmul(operand(xm, n, k, tr:sub(1, 1) == "T", 1), operand(xm, k, m, tr:sub(2, 2) == "T", 2))
          end, { rtol = helper.RTOL[dt] * 10 })
          assert.is_true(ok, msg)
          -- and the host against a Lua product of the same data
          local a = operand(ga.host, n, k, tr:sub(1, 1) == "T", 1)
          local b = operand(ga.host, k, m, tr:sub(2, 2) == "T", 2)
          if n * k * m <= 64 * 64 * 64 then
            helper.assert_close(ga.matmul(a, b), mm(a:totable(), b:totable()), { rtol = helper.RTOL[dt] * 10 })
          end
        end)
      end
    end
  end
end)
