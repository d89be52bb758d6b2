-- Sorting and searching (src/binding/lga_sort.c, gpuarray/sort.lua): sort,
-- argsort, x:sort, lexsort, partition, argpartition, unique, searchsorted,
-- on every device; GPU results checked against the host.
local helper = require "spec.helper"
local ga = require "gpuarray"

local NAN, INF = 0 / 0, math.huge

-- A stable reference sort of a Lua list: values and 1-based positions.
-- NaN last; -0.0 == 0.0.
local function ref_sort(list)
  local idx = {}
  for i = 1, #list do idx[i] = i end
  table.sort(idx, function(a, b)
    local x, y = list[a], list[b]
    local xn, yn = x ~= x, y ~= y
    if xn or yn then
      if xn and yn then return a < b end
      return yn
    end
    if x ~= y then return x < y end
    return a < b
  end)
  local vals = {}
  for i, j in ipairs(idx) do vals[i] = list[j] end
  return vals, idx
end

-- deterministic pseudo-random integers in [0, m)
local function lcg(seed)
  local s = seed
  return function(m)
    s = (s * 1103515245 + 12345) % 2147483648
    return s % m
  end
end

local function random_list(n, m, seed)
  local r, t = lcg(seed), {}
  for i = 1, n do t[i] = r(m) end
  return t
end

for _, dev in ipairs(helper.devices()) do
  local xp = dev.xp
  describe("on " .. dev.name .. " sort", function()
    it("sorts every dtype (hand-worked)", function()
      for _, dt in ipairs(helper.DTYPES) do
        if dt == "bool" then
          local x = xp.array({ true, false, true, false })
          assert.are.same({ false, false, true, true }, ga.sort(x):totable())
          assert.are.same({ 2, 4, 1, 3 }, ga.argsort(x):totable())
        elseif dt:match("complex") then
          local x = xp.array({ 3, 1, 2, 1 }, dt)
          assert.are.same({ { 1, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } }, ga.sort(x):totable(), dt)
        else
          local x = xp.array({ 3, 1, 2, 1, 0 }, dt)
          assert.are.equal(dt, ga.sort(x).dtype)
          assert.are.same({ 0, 1, 1, 2, 3 }, ga.sort(x):totable(), dt)
          assert.are.same({ 5, 2, 4, 3, 1 }, ga.argsort(x):totable(), dt)
          assert.are.equal("int64", ga.argsort(x).dtype)
        end
      end
      -- signed extremes and unsigned high bits
      assert.are.same({ -128, -1, 0, 127 }, ga.sort(xp.array({ 0, 127, -128, -1 }, "int8")):totable())
      assert.are.same({ math.mininteger, -1, 0, math.maxinteger },
        ga.sort(xp.array({ math.maxinteger, 0, math.mininteger, -1 }, "int64")):totable())
      assert.are.same({ 0, 1, 65535 }, ga.sort(xp.array({ 65535, 0, 1 }, "uint16")):totable())
      assert.are.same({ 1, 255 }, ga.sort(xp.array({ 255, 1 }, "uint8")):totable())
    end)

    it("puts NaN last, keeps -0.0 and 0.0 in input order (stable), for float16/32/64", function()
      for _, dt in ipairs(helper.FLOATS) do
        local x = xp.array({ NAN, 1, -INF, INF, 0.0, -1, -0.0, NAN, 0.5 }, dt)
        local s = ga.sort(x):totable()
        assert.are.same({ -INF, -1, 0, 0, 0.5, 1, INF }, { table.unpack(s, 1, 7) }, dt)
        assert.is_true(s[8] ~= s[8] and s[9] ~= s[9], dt)
        assert.are.same({ 3, 6, 5, 7, 9, 2, 4, 1, 8 }, ga.argsort(x):totable(), dt)
        -- the first zero is +0.0 (input position 5), the second -0.0
        assert.are.equal(INF, 1 / s[3])
        assert.are.equal(-INF, 1 / s[4])
      end
    end)

    it("orders complex numbers as NumPy, NaN classes last", function()
      for _, dt in ipairs(helper.COMPLEX) do
        -- (re, im) pairs seen as complex: exact NaN parts
        local fdt = dt == "complex64" and "float32" or "float64"
        local z = xp.array({ 1, NAN, NAN, 0, 5, 1, NAN, NAN, 0, NAN, 1, -1, 1, 2 }, fdt):view(dt)
        assert.are.same({ 6, 7, 3, 5, 1, 2, 4 }, ga.argsort(z):totable(), dt)
      end
    end)

    it("sorts along every axis of a 3-D array, with false flattening", function()
      local vals = random_list(60, 7, 1)
      local x = xp.array(vals):reshape(3, 4, 5)
      for axis = -3, 3 do
        if axis ~= 0 then
          local s, a = ga.sort(x, axis), ga.argsort(x, axis)
          local ax = axis < 0 and 4 + axis or axis
          assert.are.same(x.shape, s.shape)
          -- every line along the axis against the reference
          local t, st, at = x:totable(), s:totable(), a:totable()
          local dims = { 3, 4, 5 }
          local others = {}
          for d = 1, 3 do if d ~= ax then others[#others + 1] = d end end
          for i = 1, dims[others[1]] do
            for j = 1, dims[others[2]] do
              local line, got, gota = {}, {}, {}
              for k = 1, dims[ax] do
                local c = {}
                c[others[1]], c[others[2]], c[ax] = i, j, k
                line[k] = t[c[1]][c[2]][c[3]]
                got[k] = st[c[1]][c[2]][c[3]]
                gota[k] = at[c[1]][c[2]][c[3]]
              end
              local rv, ri = ref_sort(line)
              assert.are.same(rv, got, "axis " .. axis)
              assert.are.same(ri, gota, "axis " .. axis)
            end
          end
        end
      end
      local rv, ri = ref_sort(vals)
      assert.are.same(rv, ga.sort(x, false):totable())
      assert.are.same(ri, ga.argsort(x, { axis = false }):totable())
      assert.are.same(rv, ga.sort(x, { axis = false, kind = "stable" }):totable())
    end)

    it("sorts transposed and stepped views", function()
      local base = xp.array(random_list(48, 9, 2), "float32"):reshape(6, 8)
      local stepped = base[{ {}, { 1, -1, 2 } }]      -- (6, 4)
      for _, v in ipairs { base.T, stepped, stepped.T, base[{ { 6, 1, -1 } }] } do
        for _, axis in ipairs { 1, 2 } do
          local s = ga.sort(v, axis)
          local c = v:copy()
          assert.are.same(ga.sort(c, axis):totable(), s:totable())
          assert.are.same(ga.argsort(c, axis):totable(), ga.argsort(v, axis):totable())
        end
      end
    end)

    it("x:sort sorts in place (contiguous, transposed and stepped views) and returns x", function()
      local x = xp.array({ { 3, 1, 2 }, { 9, 7, 8 } }, "int32")
      assert.are.equal(x, x:sort())
      assert.are.same({ { 1, 2, 3 }, { 7, 8, 9 } }, x:totable())
      x = xp.array({ { 3, 1, 2 }, { 0, 7, 1 } }, "int32")
      x:sort(1)
      assert.are.same({ { 0, 1, 1 }, { 3, 7, 2 } }, x:totable())
      local y = xp.array({ { 3, 1 }, { 0, 7 } }, "float64")
      y.T:sort()
      assert.are.same({ { 0, 1 }, { 3, 7 } }, y:totable())
      local z = xp.array({ 5, 100, 4, 100, 3, 100 }, "int16")
      z[{ { 1, -1, 2 } }]:sort()
      assert.are.same({ 3, 100, 4, 100, 5, 100 }, z:totable())
    end)

    it("handles empty arrays, one element, rows of length 1", function()
      assert.are.same({ 0 }, ga.sort(xp.zeros(0)).shape)
      assert.are.same({ 2, 0 }, ga.argsort(xp.zeros({ 2, 0 })).shape)
      assert.are.same({ 0, 3 }, ga.sort(xp.zeros({ 0, 3 }), 1).shape)
      assert.are.same({ 7 }, ga.sort(xp.array({ 7 })):totable())
      assert.are.same({ { 1 }, { 1 }, { 1 } }, ga.argsort(xp.array({ { 5 }, { 3 }, { 4 } })):totable())
      assert.are.same({ 2 }, ga.sort(xp.array(2), false):totable())
    end)

    it("agrees with a reference on many rows and long rows (radix passes, several tiles)", function()
      for _, case in ipairs {
        { shape = { 300, 37 }, m = 50, dt = "float32" },
        { shape = { 3, 20000 }, m = 1000, dt = "int32" },
        { shape = { 70000, 3 }, m = 5, dt = "uint8" },
        { shape = { 50000 }, m = 100000, dt = "float64" },
        { shape = { 9000 }, m = 70000, dt = "int64" },
      } do
        local n = 1
        for _, d in ipairs(case.shape) do n = n * d end
        local vals = random_list(n, case.m, n)
        if case.dt == "int64" then for i = 1, n do vals[i] = vals[i] * 2 ^ 40 // 1 - 2 ^ 50 // 1 end end
        local x = xp.array(vals, case.dt):reshape(case.shape)
        local rows = n // case.shape[#case.shape]
        local len = case.shape[#case.shape]
        local s = ga.sort(x):reshape(n):totable()
        local a = ga.argsort(x):reshape(n):totable()
        for r = 0, rows - 1, math.max(1, rows // 50) do   -- a sample of rows
          local line = { table.unpack(vals, r * len + 1, r * len + len) }
          local rv, ri = ref_sort(line)
          for k = 1, len do
            assert(rv[k] == s[r * len + k], case.dt .. " row " .. r .. " value " .. k)
            assert(ri[k] == a[r * len + k], case.dt .. " row " .. r .. " position " .. k)
          end
        end
      end
    end)

    it("agrees with the host on the GPU for every dtype, axis and layout", function()
      for _, dt in ipairs(helper.DTYPES) do
        helper.assert_gpu_vs_host(function(m)
          local v = m.array(random_list(4000, 13, 5), "int64")
          if dt == "bool" then v = v:gt(6) else v = v:astype(dt) end
          local x = v:reshape(40, 100)
          return ga.concatenate({ ga.sort(x):reshape(4000), ga.sort(x.T, 1):reshape(4000),
            ga.sort(x[{ {}, { 1, -1, 3 } }], 1):reshape(40 * 34), ga.sort(x, false) })
        end)
        helper.assert_gpu_vs_host(function(m)
          local x = m.array(random_list(4000, 13, 6), "int64"):astype(dt == "bool" and "int8" or dt)
          x = dt == "bool" and x:gt(6) or x
          return ga.concatenate({ ga.argsort(x), ga.argsort(x:reshape(50, 80), 1):reshape(4000) })
        end)
      end
    end)

    it("agrees with the host on NaN, inf and signed zeros on the GPU", function()
      for _, dt in ipairs { "float16", "float32", "float64", "complex64", "complex128" } do
        helper.assert_gpu_vs_host(function(m)
          local t = {}
          local pool = { NAN, INF, -INF, 0.0, -0.0, 1, -1, 2.5 }
          local r = lcg(7)
          for i = 1, 3000 do t[i] = pool[r(#pool) + 1] end
          local x = m.array(t, dt)
          if dt:match("complex") then   -- pairs of the pool as (re, im)
            x = m.array(t, dt == "complex64" and "float32" or "float64"):view(dt)
          end
          return ga.argsort(x)
        end)
      end
    end)
  end)

  describe("on " .. dev.name .. " lexsort, partition, unique", function()
    it("lexsort: the last key is primary, stable, 1-based; 2-D keys are rows", function()
      local first = xp.array({ 1, 5, 1, 4, 3, 4, 4 })
      local last = xp.array({ 9, 4, 0, 4, 0, 2, 1 })
      assert.are.same({ 3, 5, 7, 6, 4, 2, 1 }, ga.lexsort({ first, last }):totable())
      local k = xp.array({ { 1, 5, 1, 4, 3, 4, 4 }, { 9, 4, 0, 4, 0, 2, 1 } }, "float32")
      assert.are.same({ 3, 5, 7, 6, 4, 2, 1 }, ga.lexsort(k):totable())
      assert.are.same({ 2, 3, 1 }, ga.lexsort(xp.array({ 3, 1, 2 })):totable())
      assert.are.same({ 2, 1, 3 }, ga.lexsort({ xp.array({ 2, 1, 0 }), xp.array({ 0.5, 0.5, 1 }) }):totable())
      assert.are.same({ 0 }, ga.lexsort({ xp.zeros(0) }).shape)
    end)

    it("partition / argpartition / x:partition have the partition property", function()
      local vals = random_list(101, 20, 3)
      local x = xp.array(vals)
      local sorted = ref_sort(vals)
      for _, kth in ipairs { 1, 50, 101, -1, -30, { 2, 60 } } do
        local p = ga.partition(x, kth):totable()
        local ap = ga.argpartition(x, kth):totable()
        for _, k in ipairs(type(kth) == "table" and kth or { kth }) do
          local kk = k > 0 and k or 102 + k
          assert.are.equal(sorted[kk], p[kk])
          assert.are.equal(sorted[kk], vals[ap[kk]])
          for i = 1, 101 do
            if i < kk then assert(p[i] <= p[kk]) elseif i > kk then assert(p[i] >= p[kk]) end
          end
        end
      end
      local m = xp.array({ { 7, 1, 5 }, { 0, 9, 3 } })
      local q = ga.partition(m, 1, 1):totable()
      assert.are.same({ 0, 1, 3 }, q[1])
      local y = xp.array({ 7, 1, 5, 3 })
      assert.are.equal(y, y:partition(2))
      assert.are.equal(3, y[2]:item())
      assert.are.same({ 0, 1, 3, 5, 7, 9 }, ga.partition(m, 4, false):totable())
    end)

    it("unique: sorted values with index, inverse (x's shape) and counts, NaNs as one", function()
      local x = xp.array({ { 3, 1 }, { 3, 2 } })
      local u, idx, inv, cnt = ga.unique(x, { return_index = true, return_inverse = true, return_counts = true })
      assert.are.same({ 1, 2, 3 }, u:totable())
      assert.are.same({ 2, 4, 1 }, idx:totable())
      assert.are.same({ { 3, 1 }, { 3, 2 } }, inv:totable())
      assert.are.same({ 1, 1, 2 }, cnt:totable())
      local f = xp.array({ NAN, 1, NAN, -0.0, 0.0, 1 }, "float32")
      local fu, fc = ga.unique(f, { return_counts = true })
      local t = fu:totable()
      assert.are.equal(3, #t)
      assert.are.equal(0, t[1])
      assert.are.equal(1, t[2])
      assert.is_true(t[3] ~= t[3])
      assert.are.same({ 2, 2, 2 }, fc:totable())
      local _, fi = ga.unique(f, { return_inverse = true })
      assert.are.same({ 3, 2, 3, 1, 1, 2 }, fi:totable())
      assert.are.same({ false, true }, ga.unique(xp.array({ true, false, true })):totable())
      local e, ei, ev, ec = ga.unique(xp.zeros(0), { return_index = true, return_inverse = true, return_counts = true })
      assert.are.same({ 0 }, e.shape)
      assert.are.same({ 0 }, ei.shape)
      assert.are.same({ 0 }, ev.shape)
      assert.are.same({ 0 }, ec.shape)
      assert.are.same({ 5 }, ga.unique(xp.array({ 5, 5, 5 })):totable())
      local cu = ga.unique(xp.array({ 2, 1, 2 }, "complex64"))
      assert.are.same({ { 1, 0 }, { 2, 0 } }, cu:totable())
    end)

    it("unique agrees with the host on the GPU", function()
      helper.assert_gpu_vs_host(function(m)
        local x = m.array(random_list(5000, 300, 9), "int16"):reshape(50, 100)
        local u, i, v, c = ga.unique(x, { return_index = true, return_inverse = true, return_counts = true })
        return ga.concatenate({ u:astype("int64"), i, v:reshape(5000), c })
      end)
    end)
  end)

  describe("on " .. dev.name .. " searchsorted", function()
    it("gives 1-based insertion points, left and right, for arrays, numbers and tables", function()
      local a = xp.array({ 1, 2, 2, 3 })
      assert.are.same({ 1, 2, 5, 1 }, ga.searchsorted(a, xp.array({ 0, 2, 9, 1 })):totable())
      assert.are.same({ 1, 4, 5, 2 }, ga.searchsorted(a, xp.array({ 0, 2, 9, 1 }), "right"):totable())
      assert.are.same({ 1, 4, 5, 2 }, ga.searchsorted(a, { 0, 2, 9, 1 }, { side = "right" }):totable())
      assert.are.equal(2, ga.searchsorted(a, 2):item())
      assert.are.equal(4, a:searchsorted(2, "right"):item())
      assert.are.same({}, ga.searchsorted(a, 2).shape)
      assert.are.same({ { 2, 4 } }, ga.searchsorted(a, xp.array({ { 1.5, 2.5 } })):totable())
      assert.are.equal("int64", ga.searchsorted(a, 1).dtype)
      assert.are.same({ 1 }, ga.searchsorted(xp.zeros(0), xp.array({ 3 })):totable())
    end)

    it("orders NaN and -0.0 as sort does; a Lua float compares in float64 (NumPy: not a weak scalar here)", function()
      local a = ga.sort(xp.array({ NAN, 1, -INF, 0.0 }, "float32"))   -- -inf 0 1 nan
      assert.are.same({ 4, 5, 3, 3, 1, 2 }, { ga.searchsorted(a, NAN):item(), ga.searchsorted(a, NAN, "right"):item(),
        ga.searchsorted(a, 0.0, "right"):item(), ga.searchsorted(a, -0.0, "right"):item(),
        ga.searchsorted(a, -INF):item(), ga.searchsorted(a, -1, "right"):item() })
      assert.are.same({ 4, 2, 2 }, ga.searchsorted(a, xp.array({ NAN, 0.0, -0.0 }, "float32")):totable())
      local b = xp.array({ 0.1 }, "float32")   -- float32(0.1) > 0.1
      assert.are.equal(1, ga.searchsorted(b, 0.1, "right"):item())
    end)

    it("takes a sorter of 1-based positions", function()
      local u = xp.array({ 30, 10, 20 })
      local s = ga.argsort(u)
      assert.are.same({ 1, 2, 3, 4 }, ga.searchsorted(u, { 5, 15, 25, 35 }, { sorter = s }):totable())
      assert.are.same({ 2 }, ga.searchsorted(u, { 10 }, { side = "right", sorter = s }):totable())
    end)

    it("agrees with the host on the GPU for every dtype", function()
      for _, dt in ipairs(helper.DTYPES) do
        helper.assert_gpu_vs_host(function(m)
          local a = ga.sort(m.array(random_list(500, 40, 11), "int64"):astype(dt))
          local v = m.array(random_list(300, 45, 12), "int64"):astype(dt)
          return ga.concatenate({ ga.searchsorted(a, v), ga.searchsorted(a, v, "right") })
        end)
      end
    end)
  end)

  describe("on " .. dev.name .. " sort errors", function()
    local x = xp.zeros({ 2, 2 })
    it("names the function and the problem", function()
      helper.assert_error(function() ga.sort(x, 3) end, "sort: axis 3 is out of", "(axes are 1-based)")
      helper.assert_error(function() ga.argsort(x, -3) end, "argsort: axis -3 is out of")
      helper.assert_error(function() x:sort(5) end, "sort: axis 5 is out of")
      helper.assert_error(function() ga.sort(xp.array(1)) end, "sort: axis -1 is out of")
      helper.assert_error(function() ga.sort(x, "a") end, "sort: axis must be an integer or false")
      helper.assert_error(function() ga.sort(x, { axis = 1, kind = "bogo" }) end, "sort: kind must be")
      helper.assert_error(function() ga.sort(x, { axes = 1 }) end, "sort: ", "axes")
      helper.assert_error(function() x:sort(false) end, "sort: x:sort sorts along one axis")
      helper.assert_error(function() ga.sort("abc") end, "sort: bad argument #1")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), 1, "middle") end,
        "searchsorted: side must be 'left' or 'right', got 'middle'")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), 1, 3) end,
        "searchsorted: side must be 'left' or 'right', got number")
      helper.assert_error(function() ga.searchsorted(x, 1) end, "searchsorted: a must be 1-D")
      helper.assert_error(function() ga.searchsorted(x, 1, { sorter = xp.array({ 1, 2, 3, 4 }) }) end,
        "searchsorted: a must be 1-D")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), 1, { sorter = xp.array({ 1.0, 2.0 }) }) end,
        "searchsorted: sorter must be an integer array")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), 1, { sorter = xp.array({ 1 }) }) end,
        "searchsorted: sorter must be 1-D with a's length 2")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), "x") end, "searchsorted: bad argument #2")
      helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), 1, { bogus = 1 }) end,
        "searchsorted: unknown option 'bogus'")
      helper.assert_error(function() ga.partition(xp.array({ 1, 2, 3 }), 4) end,
        "partition: kth 4 is out of range for an axis of length 3")
      helper.assert_error(function() ga.argpartition(xp.array({ 1, 2, 3 }), 0) end,
        "argpartition: kth 0 is out of range")
      helper.assert_error(function() ga.partition(xp.array({ 1, 2, 3 }), -4) end, "partition: kth -4 is out of range")
      helper.assert_error(function() ga.partition(xp.array({ 1, 2, 3 }), 1.5) end,
        "partition: kth must be an integer or a table of integers")
      helper.assert_error(function() ga.partition(x, { 1, 3 }, 1) end, "partition: kth 3 is out of range")
      helper.assert_error(function() xp.array({ 1, 2 }):partition(3) end, "partition: kth 3 is out of range")
      helper.assert_error(function() ga.lexsort({ xp.array({ 1, 2 }), xp.array({ 1, 2, 3 }) }) end,
        "lexsort: all keys must have the same length (key 1 has 2 elements, key 2 has 3)")
      helper.assert_error(function() ga.lexsort({}) end, "lexsort: need at least one key")
      helper.assert_error(function() ga.lexsort(5) end, "lexsort: keys must be a table of 1-D arrays")
      helper.assert_error(function() ga.lexsort({ x }) end, "lexsort: key 1 is not 1-D")
      helper.assert_error(function() ga.unique(xp.array({ 1 }), { return_idx = true }) end,
        "unique: unknown option 'return_idx'")
      helper.assert_error(function() ga.unique(xp.array({ 1 }), 5) end, "unique: options must be a table")
    end)

    if dev.name ~= "cpu" then
      it("refuses mixed devices", function()
        helper.assert_error(function() ga.searchsorted(xp.array({ 1, 2 }), ga.host.array({ 1 })) end,
          "searchsorted: a and v are on different devices (<CUDA Device 0> and <CPU>)")
        helper.assert_error(function() ga.lexsort({ xp.array({ 1, 2 }), ga.host.array({ 1, 2 }) }) end,
          "lexsort: keys are on different devices")
      end)
    end
  end)
end

-- The CUDA sort's three ways (src/cuda/ga_cuda_sort.c), each forced by
-- core._sort_path and checked against the host: onesweep at sizes around
-- its tiles (by default 6144 keys; 5376 with 8-byte keys or a payload, 2560
-- and 2048 for complex128 without and with one) and its look-back (many
-- tiles), also with its tuning knobs turned (keys per thread, blocks per
-- SM), rows of one warp and
-- of one block at lengths around their limits, the per-digit pipeline;
-- NaN, -0.0 (argsort: the positions, so stability shows) and many
-- duplicates.  On the host the paths are one merge sort.
describe("sort paths, GPU against host", function()
  local core = ga.core
  local NAN_ = 0 / 0
  -- n values of dt from a hash of the index (mod distinct values); floats
  -- get NaNs and -0.0 sprinkled in
  local function data(m, n, dt, mod)
    local i = m.arange(0, n, 1, "int64")
    local h = (i * 2654435761 + 12345) % 4294967291 % mod
    local x
    if dt == "bool" then x = h:gt(mod // 2)
    elseif dt:match("^float") or dt:match("^complex") then
      x = (h - mod // 2):astype(dt) * 0.5
      if n > 7 then
        x[{ { 3, -1, 7 } }] = NAN_
        x[{ { 5, -1, 11 } }] = -0.0
        x[{ { 6, -1, 13 } }] = 0.0
      end
    elseif dt:match("^uint") then x = h:astype(dt)
    else x = (h - mod // 2):astype(dt) end
    i:free(); h:free()
    return x
  end
  -- sort and argsort of fx(m) along axis, exactly as on the host
  local EXACT = { rtol = 0, atol = 0, equal_nan = true }
  local function both(fx, axis)
    helper.assert_gpu_vs_host(function(m) return ga.sort(fx(m), axis) end, EXACT)
    helper.assert_gpu_vs_host(function(m) return ga.argsort(fx(m), axis) end, EXACT)
  end
  local function with_path(p, f, kpt, minb)
    local old = core._sort_path(p, kpt, minb)
    local ok, err = pcall(f)
    core._sort_path(old)
    if not ok then error(err, 0) end
  end

  it("onesweep around tile and look-back boundaries, every key width", function()
    with_path("onesweep", function()
      local sizes = { 1, 1025, 2048, 2561, 5377, 6143, 6145, 3 * 6144 + 5 }
      for _, dt in ipairs { "float32", "int8", "uint16", "float64", "complex128", "bool", "int64", "float16" } do
        for _, n in ipairs(sizes) do
          both(function(m) return data(m, n, dt, 97) end)
        end
      end
      for _, dt in ipairs { "float32", "int64" } do
        both(function(m) return data(m, (1 << 20) + 3, dt, 100003) end)
      end
      -- rows through onesweep: the row number's bytes as extra digits
      for _, shape in ipairs { { 300, 37 }, { 3, 5000 }, { 2, 1 } } do
        both(function(m) return data(m, shape[1] * shape[2], "float32", 1000):reshape(shape) end)
      end
    end)
  end)

  it("onesweep with its tuning knobs turned (tools/sort_bench.lua's variants)", function()
    for _, v in ipairs { { 12, 4 }, { 32, 2 } } do
      with_path("onesweep", function()
        for _, dt in ipairs { "float32", "int64" } do
          for _, n in ipairs { 256 * v[1] - 1, 3 * 256 * v[1] + 5, (1 << 18) + 3 } do
            both(function(m) return data(m, n, dt, 100003) end)
          end
        end
        both(function(m) return data(m, 3 * 5000, "float32", 1000):reshape(3, 5000) end)
      end, v[1], v[2])
    end
  end)

  it("rows of one warp and of one block at lengths around their limits", function()
    for _, c in ipairs {
      { "warp", { 1, 31, 33, 256, 512 } },
      { "block", { 1, 257, 1000, 4096 } },
    } do
      with_path(c[1], function()
        for _, dt in ipairs { "float32", "int8", "uint16", "float64", "complex128", "bool", "int64", "float16" } do
          for _, n in ipairs(c[2]) do
            local rows = n > 1000 and 3 or 37
            both(function(m) return data(m, rows * n, dt, 53):reshape(rows, n) end)
          end
        end
      end)
    end
  end)

  it("chooses a way itself: many short rows, one long row, argsort stable over duplicates", function()
    with_path("auto", function()
      both(function(m) return data(m, 2000 * 256, "float32", 1 << 20):reshape(2000, 256) end)
      both(function(m) return data(m, 300000, "int32", 3) end)
      both(function(m) return data(m, 100 * 3000, "float64", 5):reshape(100, 3000) end)
      both(function(m) return data(m, 3 * 70000, "uint8", 2):reshape(3, 70000) end, 1)
      helper.assert_gpu_vs_host(function(m)
        return ga.unique(data(m, 300000, "int32", 1 << 12))
      end, EXACT)
    end)
  end)

  it("the per-digit pipeline still agrees (core._sort_path 'digit')", function()
    with_path("digit", function()
      both(function(m) return data(m, 5000, "float32", 97) end)
      both(function(m) return data(m, 37 * 300, "int16", 97):reshape(37, 300) end)
    end)
  end)
end)
