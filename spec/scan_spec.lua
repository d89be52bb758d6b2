-- Scans (cumsum cumprod nancumsum nancumprod) and nonzero selection
-- (nonzero argwhere flatnonzero, where(cond)) on every device; GPU results
-- compared with the host's.
local helper = require "spec.helper"
local ga = require "gpuarray"

local inf, nan = math.huge, 0 / 0

-- a plain Lua scan of a list, for the reference values
local function lua_scan(list, f, skip)
  local out, acc = {}, nil
  for i, v in ipairs(list) do
    if skip and v ~= v then v = skip end
    acc = acc == nil and v or f(acc, v)
    out[i] = acc
  end
  return out
end
local function add(a, b) return a + b end
local function mul(a, b) return a * b end

-- result dtype of a scan per input dtype (NumPy's)
local RESULT = {
  bool = "int64", int8 = "int64", int16 = "int64", int32 = "int64", int64 = "int64",
  uint8 = "uint64", uint16 = "uint64", uint32 = "uint64", uint64 = "uint64",
  float16 = "float16", float32 = "float32", float64 = "float64",
  complex64 = "complex64", complex128 = "complex128",
}

local FUNCS = { "cumsum", "cumprod", "nancumsum", "nancumprod" }

for _, dev in ipairs(helper.devices()) do
  local xp = dev.xp
  describe("on " .. dev.name .. " scans", function()
    it("hand-worked values along every axis and flattened", function()
      local x = xp.array({ { 1, 2, 3 }, { 4, 5, 6 } })
      assert.are.same({ 1, 3, 6, 10, 15, 21 }, ga.cumsum(x):totable())
      assert.are.same({ { 1, 2, 3 }, { 5, 7, 9 } }, ga.cumsum(x, 1):totable())
      assert.are.same({ { 1, 3, 6 }, { 4, 9, 15 } }, ga.cumsum(x, 2):totable())
      assert.are.same({ { 1, 3, 6 }, { 4, 9, 15 } }, ga.cumsum(x, -1):totable())
      assert.are.same({ { 1, 2, 3 }, { 4, 10, 18 } }, ga.cumprod(x, 1):totable())
      assert.are.same({ 1, 2, 6, 24, 120, 720 }, x:cumprod():totable())
      assert.are.same({ { 1, 3, 6 }, { 4, 9, 15 } }, x:cumsum(2):totable())
      assert.are.same({ { 1, 3, 6 }, { 4, 9, 15 } }, ga.cumsum(x, { axis = 2 }):totable())
      assert.are.same({ 1, 1, 3 }, ga.nancumsum(xp.array({ 1, nan, 2 })):totable())
      assert.are.same({ 1, 2, 2, 6 }, ga.nancumprod(xp.array({ nan, 2, nan, 3 })):totable())
      local t = ga.cumsum(xp.array({ { 1, 2 }, { 3, 4 } }, "complex64"), 1):totable()
      assert.are.same({ { { 1, 0 }, { 2, 0 } }, { { 4, 0 }, { 6, 0 } } }, t)
      assert.are.same({ 1, 2, 2, 3 }, ga.cumsum(xp.array({ true, true, false, true })):totable())
      assert.are.same({ 1, 0, 0 }, ga.cumprod(xp.array({ true, false, true })):totable())
    end)

    it("gives NumPy's result dtype for every dtype, with the right values", function()
      for _, dt in ipairs(helper.DTYPES) do
        local base = dt == "bool" and { 1, 0, 1, 1 } or { 1, 2, 3, 4 }
        local x = xp.array(base, dt)
        for _, fn in ipairs(FUNCS) do
          local r = ga[fn](x)
          assert.are.equal(RESULT[dt], r.dtype, fn .. " " .. dt)
          local f = fn:find("prod") and mul or add
          local want = lua_scan(base, f)
          if dt:match("complex") then
            for i, v in ipairs(want) do want[i] = { v, 0 } end
          end
          assert.are.same(want, r:totable(), fn .. " " .. dt)
        end
      end
    end)

    it("takes dtype= as the loop and result dtype (integers wrap as NumPy)", function()
      local x = xp.array({ 100, 100, 100 }, "int8")
      local r = ga.cumsum(x, { dtype = "int8" })
      assert.are.equal("int8", r.dtype)
      assert.are.same({ 100, -56, 44 }, r:totable())
      assert.are.same({ 100, 200, 300 }, ga.cumsum(x):totable())
      local f = ga.cumsum(xp.array({ 1.5, 2.25 }), 1, { dtype = "float32" })
      assert.are.equal("float32", f.dtype)
      assert.are.same({ 1.5, 3.75 }, f:totable())
      assert.are.same({ 1, 3 }, ga.cumsum(xp.array({ 1.7, 2.2 }), { dtype = "int32" }):totable())
      assert.are.equal("float16", ga.cumprod(xp.array({ 1, 2 }, "int64"), { dtype = "float16" }).dtype)
      assert.are.same({ true, true, true }, ga.cumsum(xp.array({ 1, 0, 0 }), { dtype = "bool" }):totable())
    end)

    it("accumulates float16 in float32, rounding once per element", function()
      -- 2048 + 1 + 1 in float16 steps would stay at 2048; in float32 it reaches 2050
      local r = ga.cumsum(xp.array({ 2048, 1, 1 }, "float16"))
      assert.are.equal("float16", r.dtype)
      assert.are.same({ 2048, 2048, 2050 }, r:totable())
    end)

    it("propagates NaN and inf; the nan variants skip NaN only", function()
      local r = ga.cumsum(xp.array({ 1, inf, -inf, 2 })):totable()
      assert.are.equal(1, r[1]); assert.are.equal(inf, r[2])
      assert.is_true(r[3] ~= r[3] and r[4] ~= r[4])
      r = ga.nancumsum(xp.array({ nan, inf, nan, 1 }, "float32")):totable()
      assert.are.same({ 0, inf, inf, inf }, r)
      r = ga.cumprod(xp.array({ 2, nan, 3 }, "float16")):totable()
      assert.is_true(r[2] ~= r[2] and r[3] ~= r[3])
      r = ga.nancumprod(xp.array({ { nan, 2 }, { 3, nan } }), 1):totable()
      assert.are.same({ { 1, 2 }, { 3, 2 } }, r)
      -- a NaN in either part of a complex number is NaN for nancumsum
      local c = ga.nancumsum(xp.array({ 1, 2, 3 }, "complex128") * xp.array({ 1, nan, 1 })):totable()
      assert.are.same({ { 1, 0 }, { 1, 0 }, { 4, 0 } }, c)
      assert.are.equal(-1 / 0, 1 / ga.cumsum(xp.array({ -0.0 })):item())   -- no identity: -0.0 stays
    end)

    it("handles empty arrays and 0-d arrays", function()
      local e = ga.cumsum(xp.zeros({ 0, 3 }), 1)
      assert.are.same({ 0, 3 }, e.shape)
      assert.are.same({ 0 }, ga.cumsum(xp.zeros({ 0, 3 })).shape)
      assert.are.same({ 2, 0 }, ga.cumprod(xp.zeros({ 2, 0 }, "int8"), 2).shape)
      local z = ga.cumsum(xp.array(5))
      assert.are.same({ 1 }, z.shape)
      assert.are.same({ 5 }, z:totable())
      assert.are.same({ 0 }, ga.nancumsum(xp.array(nan)):totable())
    end)

    it("reads transposed and stepped views and scans along any axis", function()
      local base = xp.arange(60, "float64"):reshape(3, 4, 5) % 7 - 3
      local views = {
        { "transposed", base:transpose(3, 1, 2) },
        { "stepped", base[{ {}, { 1, -1, 2 }, { 2, 5, 2 } }] },
        { "reversed", base[{ { -1, 1, -1 } }] },
        { "contiguous", base },
      }
      for _, v in ipairs(views) do
        local x = v[2]
        local c = ga.ascontiguousarray(x)
        for _, fn in ipairs(FUNCS) do
          for axis = -3, 3 do
            if axis ~= 0 then
              helper.assert_close(ga[fn](x, axis), ga[fn](c, axis))
            end
          end
          helper.assert_close(ga[fn](x), ga[fn](c))
        end
      end
      -- wide columns (more than one block of lanes on the host) = the transposed rows
      local w = xp.arange(3 * 5000, "int32"):reshape(3, 5000) % 11
      assert.are.same(ga.cumsum(w.T, 2).T:totable(), ga.cumsum(w, 1):totable())
      -- one worked example along a non-last axis of a transposed array
      local m = xp.array({ { 1, 2 }, { 3, 4 }, { 5, 6 } }).T   -- (2, 3)
      assert.are.same({ { 1, 4, 9 }, { 2, 6, 12 } }, ga.cumsum(m, 2):totable())
    end)

    it("writes into out= of any dtype and layout, also in place", function()
      local x = xp.array({ 1, 2, 3, 4 }, "int8")
      local out = xp.zeros(4, "float32")
      assert.are.equal(out, ga.cumsum(x, 1, { out = out }))
      assert.are.same({ 1, 3, 6, 10 }, out:totable())
      local o2 = xp.zeros({ 3, 2 }, "int64")
      ga.cumsum(xp.array({ { 1, 2, 3 }, { 4, 5, 6 } }), 2, { out = o2.T })
      assert.are.same({ { 1, 4 }, { 3, 9 }, { 6, 15 } }, o2:totable())
      local y = xp.arange(6, "float64")
      ga.cumsum(y, 1, { out = y })
      assert.are.same({ 0, 1, 3, 6, 10, 15 }, y:totable())
      local s = xp.arange(8, "int64")
      ga.cumsum(s[{ { 1, -1, 2 } }], 1, { out = s[{ { 2, -1, 2 } }] })   -- same buffer, other elements
      assert.are.same({ 0, 0, 2, 2, 4, 6, 6, 12 }, s:totable())
      local f = xp.array({ 1.5, 2, 3 })
      local io = xp.zeros(3, "int32")
      ga.cumsum(f, { out = io })   -- computed in float64, cast as NumPy: 1.5, 3.5, 6.5
      assert.are.same({ 1, 3, 6 }, io:totable())
    end)

    it("makes Lua tables into arrays", function()
      assert.are.same({ 1, 3, 6 }, ga.cumsum({ 1, 2, 3 }):totable())
      assert.are.same({ 1, 3, 6 }, xp.cumsum({ 1, 2, 3 }):totable())
    end)

    it("agrees with the host on long lines, many rows and long columns", function()
      local cases = {
        { "one long line (every pass)", function(m) return m.arange(300007, "int32") % 1000 - 500 end, nil },
        { "long rows", function(m) return (m.arange(7 * 50021, "int64") % 97):reshape(7, 50021) end, 2 },
        { "many short rows", function(m) return (m.arange(3000 * 40, "int16") % 13):reshape(3000, 40) end, 2 },
        { "medium rows", function(m) return (m.arange(500 * 700, "uint8")):reshape(500, 700) end, -1 },
        { "long columns", function(m) return (m.arange(70001 * 3, "int64") % 11 - 5):reshape(70001, 3) end, 1 },
        { "a middle axis", function(m) return (m.arange(4 * 999 * 5, "int32") % 7):reshape(4, 999, 5) end, 2 },
        { "odd offset", function(m) return (m.arange(100003, "int64") % 5)[{ { 2, -1 } }] end, 1 },
        { "bool", function(m) return (m.arange(200001) % 3):astype("bool") end, nil },
      }
      for _, c in ipairs(cases) do
        for _, fn in ipairs { "cumsum", "nancumsum" } do
          local ok, msg = helper.check_gpu_vs_host(function(m) return ga[fn](c[2](m), c[3]) end)
          assert.is_true(ok, c[1] .. " " .. fn .. ": " .. msg)   -- integers: exact
        end
      end
      helper.assert_gpu_vs_host(function(m)
        return ga.cumsum((m.arange(1 << 20, "float32") % 17) / 16, nil)
      end, { rtol = 1e-4 })
      helper.assert_gpu_vs_host(function(m)
        return ga.cumprod(1 + (m.arange(5000, "float64") % 3 - 1) * 1e-3)
      end, { rtol = 1e-9 })
      helper.assert_gpu_vs_host(function(m)
        return ga.cumsum(m.arange(20000, "float16"):reshape(200, 100) % 3, 1)
      end)
      helper.assert_gpu_vs_host(function(m)
        return ga.nancumsum(m.arange(40000, "complex128"):reshape(20, 2000), 2)
      end)
    end)

    it("is deterministic: the same bits on every run", function()
      local x = (xp.arange(1 << 18, "float32") % 1000) / 7
      local a = ga.cumsum(x):totable()
      local b = ga.cumsum(x):totable()
      for i = 1, #a, 997 do assert.are.equal(a[i], b[i]) end
      assert.are.equal(a[#a], b[#b])
    end)

    it("bad inputs are errors naming the function", function()
      local x = xp.ones({ 2, 3 })
      helper.assert_error(function() ga.cumsum(x, 3) end,
        "cumsum: axis 3 is out of bounds for array of dimension 2 (axes are 1-based)")
      helper.assert_error(function() ga.cumprod(x, 0) end, "cumprod: axis 0 is out of bounds")
      helper.assert_error(function() ga.cumsum(x, 1.5) end, "cumsum: axis must be an integer")
      helper.assert_error(function() ga.cumsum(xp.array(1), 1) end, "cumsum: axis 1 is out of bounds")
      helper.assert_error(function() ga.nancumsum(x, 1, { dtype = "float99" }) end,
        "nancumsum: unknown dtype 'float99'")
      helper.assert_error(function() ga.cumsum(x, { bogus = 1 }) end, "cumsum: unknown option 'bogus'")
      helper.assert_error(function() ga.cumsum(x, 1, { out = xp.zeros(6) }) end,
        "cumsum: out has shape (6,) but the result has shape (2,3)")
      helper.assert_error(function() ga.cumsum(x, { out = 3 }) end, "cumsum: out must be an array")
      helper.assert_error(function() ga.cumsum("abc") end, "cumsum: bad argument #1")
      helper.assert_error(function() ga.cumsum() end, "cumsum: bad argument #1")
      helper.assert_error(function() ga.cumsum(x, 1, {}, 4) end, "cumsum: too many arguments")
      helper.assert_error(function() ga.cumsum(x, 1, { axis = 1 }) end, "cumsum: axis given twice")
      if helper.has_gpu() then
        local other = xp == ga.host and ga.zeros({ 2, 3 }) or ga.host.zeros({ 2, 3 })
        helper.assert_error(function() ga.cumsum(x, 1, { out = other }) end, "cumsum: out is on")
      end
    end)
  end)

  describe("on " .. dev.name .. " nonzero", function()
    it("hand-worked positions (1-based) that index the array", function()
      local m = xp.array({ { 0, 7, 0 }, { 5, 0, 9 } })
      local nz = ga.nonzero(m)
      assert.are.equal(2, #nz)
      assert.are.same({ 1, 2, 2 }, nz[1]:totable())
      assert.are.same({ 2, 1, 3 }, nz[2]:totable())
      assert.are.equal("int64", nz[1].dtype)
      assert.are.same({ 7, 5, 9 }, m[nz]:totable())
      assert.are.same({ 7, 5, 9 }, m[m:nonzero()]:totable())
      assert.are.same({ { 1, 2 }, { 2, 1 }, { 2, 3 } }, ga.argwhere(m):totable())
      assert.are.same({ 2, 4, 6 }, ga.flatnonzero(m):totable())
      assert.are.same({ 1, 2, 2 }, ga.where(m)[1]:totable())
      local v = xp.array({ 0, 3, 0, 4 })
      assert.are.same({ 3, 4 }, v[ga.nonzero(v)]:totable())
      local t = xp.arange(24):reshape(2, 3, 4) % 5
      local n3 = ga.nonzero(t:eq(0))
      assert.are.same({ 1, 1, 1, 2, 2 }, n3[1]:totable())
      assert.are.same({ 1, 2, 3, 1, 3 }, n3[2]:totable())
      assert.are.same({ 1, 2, 3, 4, 1 }, n3[3]:totable())
    end)

    it("takes every dtype: non-zero is true, NaN is true, complex if either part", function()
      for _, dt in ipairs(helper.DTYPES) do
        local x = xp.array(dt == "bool" and { 0, 1, 0, 1 } or { 0, 2, 0, 1 }, dt)
        assert.are.same({ 2, 4 }, ga.nonzero(x)[1]:totable(), dt)
        assert.are.same({ 2, 4 }, ga.flatnonzero(x):totable(), dt)
      end
      assert.are.same({ 1, 3 }, ga.flatnonzero(xp.array({ nan, -0.0, inf })):totable())
      assert.are.same({ 1, 3 }, ga.flatnonzero(xp.array({ nan, -0.0, -inf }, "float16")):totable())
      local j = ga.sqrt(xp.array(-1, "complex64"))   -- the imaginary unit
      local c = xp.array({ 0, 0, 1 }, "complex64") + xp.array({ 0, 1, 0 }, "complex64") * j
      assert.are.same({ 2, 3 }, ga.flatnonzero(c):totable())   -- 0+1j is true
      local ci = xp.zeros(3, "complex128")
      ci[2] = ga.array({ 0 }, "complex128")
      assert.are.same({}, ga.flatnonzero(ci):totable())
    end)

    it("reads transposed and stepped views; empty and all-false inputs", function()
      local m = xp.array({ { 0, 1 }, { 2, 0 }, { 3, 4 } })
      local t = m.T   -- {{0, 2, 3}, {1, 0, 4}}
      assert.are.same({ { 1, 2 }, { 1, 3 }, { 2, 1 }, { 2, 3 } }, ga.argwhere(t):totable())
      local s = xp.arange(10)[{ { 1, -1, 3 } }] % 2   -- 0 3 6 9 -> 0 1 0 1
      assert.are.same({ 2, 4 }, ga.flatnonzero(s):totable())
      assert.are.same({ 0, 2 }, ga.argwhere(xp.zeros({ 3, 2 })).shape)
      assert.are.same({ 0 }, ga.nonzero(xp.zeros({ 0, 4 }))[2].shape)
      assert.are.same({ 0 }, ga.flatnonzero(xp.zeros(5, "bool")).shape)
      assert.are.same({ 1, 0 }, ga.argwhere(xp.array(7)).shape)
      assert.are.same({ 1 }, ga.flatnonzero(xp.array(true)):totable())
    end)

    it("agrees with the host on large inputs", function()
      helper.assert_gpu_vs_host(function(m)
        return ga.argwhere((m.arange(3 * 70001, "int64"):reshape(3, 70001) % 7):eq(3))
      end)
      helper.assert_gpu_vs_host(function(m)
        return ga.flatnonzero((m.arange(1000003, "float32") % 13):gt(10)[{ { 2, -1 } }])
      end)
      helper.assert_gpu_vs_host(function(m)
        return ga.nonzero((m.arange(5000):reshape(50, 100) % 9):eq(0).T)[2]
      end)
    end)

    it("bad inputs are errors naming the function", function()
      helper.assert_error(function() ga.nonzero(xp.array(1)) end, "nonzero: calling nonzero on 0-d arrays")
      helper.assert_error(function() ga.nonzero() end, "nonzero: bad argument #1")
      helper.assert_error(function() ga.argwhere("x") end, "argwhere: bad argument #1")
      helper.assert_error(function() ga.flatnonzero(xp.ones(2), 1) end, "flatnonzero: takes one array")
    end)
  end)
end
