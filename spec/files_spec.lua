-- Issue 15, files: .npy/.npz round trips for every dtype, layout and shape
-- (0-d, empty, Fortran order, non-contiguous sources) on every device,
-- NumPy-written fixtures (tools/gen_npy_fixtures.py, spec/data/npy/), and
-- NumPy reading our files where `python3 -c "import numpy"` works; raw
-- bytes (tobytes/frombuffer, tofile/fromfile), dumps/loads, loadtxt/savetxt.
local helper = require "spec.helper"
local ga = helper.ga

local DATA = "spec/data/npy/"
local FIX = dofile(DATA .. "fixtures.lua")

local function hex(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
local function tmp(ext)
  local p = os.tmpname()
  os.remove(p)
  return p .. (ext or "")
end

local function shape_eq(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

local function same(x, y)
  assert.are.equal(x.dtype, y.dtype)
  assert.is_true(shape_eq(x.shape, y.shape))
  assert.are.equal(hex(x:tobytes()), hex(y:tobytes()))
end

-- values of every dtype, with negative zero, inf and nan where they exist
local function sample(xp, dt, shape)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  local x = xp.arange(n):astype("float64") * 1.5 - 2
  if dt == "bool" then x = ga.greater(x, 0) else x = x:astype(dt) end
  return x:reshape(shape)
end

local numpy_ok = os.execute("python3 -c 'import numpy' >/dev/null 2>&1") == true

helper.each_device(function(xp, dev)
  describe("npy round trip", function()
    for _, dt in ipairs(helper.DTYPES) do
      for _, shape in ipairs { {}, { 0 }, { 5 }, { 2, 3 }, { 0, 4 }, { 2, 3, 4 } } do
        it(dt .. " shape {" .. table.concat(shape, ",") .. "}", function()
          local x = sample(xp, dt, shape)
          local p = tmp(".npy")
          ga.save(p, x)
          local y = xp.load(p)
          os.remove(p)
          assert.are.equal(dev.name, helper.devstr(y.device))
          same(x, y)
          same(x, xp.loads(x:dumps()))
        end)
      end
    end
    it("Fortran order is kept (fortran_order True) and non-contiguous sources are copied", function()
      local x = sample(xp, "float32", { 3, 4 })
      local p = tmp(".npy")
      ga.save(p, x.T)
      local f = io.open(p, "rb")
      local head = f:read(128)
      f:close()
      assert.truthy(head:find("'fortran_order': True", 1, true))
      local y = xp.load(p)
      assert.is_true(y.flags.f_contiguous)
      same(x.T, y)
      local s = x[{ {}, { 1, 4, 2 } }]
      ga.save(p, s)
      same(s, xp.load(p))
      os.remove(p)
    end)
    it("adds .npy to a path without it, and saves Lua tables", function()
      local p = tmp()
      ga.save(p, { { 1, 2 }, { 3, 4 } })
      local y = xp.load(p .. ".npy")
      os.remove(p .. ".npy")
      assert.are.same({ { 1, 2 }, { 3, 4 } }, y:totable())
    end)
    it("large arrays stream in chunks (over two 8 MiB chunks)", function()
      local x = xp.arange(2500000, "float64") * 0.5
      local p = tmp(".npy")
      ga.save(p, x)
      local y = xp.load(p)
      os.remove(p)
      assert.is_true(ga.array_equal(x, y))
      assert.are.equal(20000000, #x:tobytes())
    end)
  end)

  describe("NumPy-written fixtures", function()
    for _, f in ipairs(FIX.npy) do
      it(f.file, function()
        local y = xp.load(DATA .. f.file)
        assert.are.equal(f.dtype, y.dtype)
        assert.is_true(shape_eq(f.shape, y.shape))
        assert.are.equal(f.hex, hex(y:tobytes()))
        if f.fortran and #f.shape > 1 then assert.is_true(y.flags.f_contiguous) end
      end)
    end
    for _, z in ipairs(FIX.npz) do
      it(z.file, function()
        local f <close> = xp.load(DATA .. z.file)
        local keys = f:keys()
        local want = {}
        for k in pairs(z.members) do want[#want + 1] = k end
        table.sort(want)
        assert.are.same(want, keys)
        for k, m in pairs(z.members) do
          local y = f[k]
          assert.are.equal(m.dtype, y.dtype)
          assert.is_true(shape_eq(m.shape, y.shape))
          assert.are.equal(m.hex, hex(y:tobytes()))
        end
      end)
    end
  end)

  describe("bytes", function()
    it("tobytes in C and F order, frombuffer with count and offset", function()
      local x = xp.arange(6, "int16"):reshape({ 2, 3 })
      assert.are.equal("000001000200030004000500", hex(x:tobytes()))
      assert.are.equal("000003000100040002000500", hex(x:tobytes("F")))
      assert.are.equal(hex(x:tobytes()), hex(x.T:tobytes("A")))
      local y = xp.frombuffer(x:tobytes(), "int16", { count = 2, offset = 2 })
      assert.are.same({ 1, 2 }, y:totable())
      assert.are.equal(dev.name, helper.devstr(y.device))
      assert.are.equal(0, xp.frombuffer("", "float32").size)
    end)
    it("tofile/fromfile binary and text", function()
      local p = tmp()
      local x = sample(xp, "float64", { 2, 3 })
      x:tofile(p)
      same(x:reshape(-1), xp.fromfile(p))
      assert.are.same({ 1.0, 2.5 }, xp.fromfile(p, "float64", { count = 2, offset = 16 }):totable())
      x:tofile(p, { sep = " ", format = "%.2f" })
      local f = io.open(p)
      assert.are.equal("-2.00 -0.50 1.00 2.50 4.00 5.50", f:read("a"))
      f:close()
      assert.are.same({ -2, -0.5, 1, 2.5, 4, 5.5 }, xp.fromfile(p, "float64", { sep = " " }):totable())
      xp.arange(3):tofile(p, { sep = "," })
      assert.are.same({ 0, 1, 2 }, xp.fromfile(p, "int64", { sep = "," }):totable())
      os.remove(p)
    end)
    it("dump writes a .npy that load reads", function()
      local p = tmp()
      local x = sample(xp, "complex64", { 4 })
      x:dump(p)
      same(x, xp.load(p))
      os.remove(p)
    end)
  end)

  describe("npz", function()
    it("savez and savez_compressed round trip every dtype, lazily", function()
      for _, fn in ipairs { "savez", "savez_compressed" } do
        local p = tmp(".npz")
        local named = {}
        for _, dt in ipairs(helper.DTYPES) do named[dt] = sample(xp, dt, { 3, 2 }) end
        named.zero_d = sample(xp, "float64", {})
        named.empty = sample(xp, "int32", { 0, 3 })
        named.fort = sample(xp, "float32", { 2, 5 }).T
        ga[fn](p, sample(xp, "int8", { 7 }), named)
        local f = xp.load(p)
        assert.are.equal("arr_0", f:keys()[1])
        for k, x in pairs(named) do same(x, f[k]) end
        same(sample(xp, "int8", { 7 }), f.arr_0)
        assert.are.equal(dev.name, helper.devstr(f.arr_0.device))
        f:close()
        f:close()   -- idempotent
        assert.has_error(function() return f.arr_0 end)
        os.remove(p)
      end
    end)
    it("compresses", function()
      local p = tmp(".npz")
      ga.savez_compressed(p, { z = xp.zeros(100000) })
      local fh = io.open(p, "rb")
      local size = fh:seek("end")
      fh:close()
      assert.is_true(size < 10000)
      local f <close> = xp.load(p)
      assert.are.equal(0, f.z:sum():item())
      os.remove(p)
    end)
    it("positional Lua tables are arrays, an empty archive has no keys", function()
      local p = tmp(".npz")
      ga.savez(p, { 1, 2 }, { { true } })
      local f = xp.load(p)
      assert.are.same({ "arr_0", "arr_1" }, f:keys())
      assert.are.same({ 1, 2 }, f.arr_0:totable())
      assert.are.same({ { true } }, f.arr_1:totable())
      f:close()
      ga.savez(p)
      f = xp.load(p)
      assert.are.same({}, f:keys())
      assert.are.equal("NpzFile (0 members)", tostring(f))
      f:close()
      os.remove(p)
    end)
    it("an unknown member is an error naming it", function()
      local p = tmp(".npz")
      ga.savez(p, xp.zeros(1))
      local f <close> = xp.load(p)
      helper.assert_error(function() return f.nope end, "no member 'nope'")
      os.remove(p)
    end)
  end)

  describe("text", function()
    it("savetxt/loadtxt", function()
      local p = tmp()
      local x = xp.array({ { 1.5, -2 }, { 3, 4.25 } })
      ga.savetxt(p, x)
      same(x, xp.loadtxt(p))
      ga.savetxt(p, x, { fmt = "%g", delimiter = ",", header = "a,b" })
      local f = io.open(p)
      assert.are.equal("# a,b\n1.5,-2\n3,4.25\n", f:read("a"))
      f:close()
      same(x, xp.loadtxt(p, { delimiter = "," }))
      assert.are.same({ -2, 4.25 }, xp.loadtxt(p, { delimiter = ",", usecols = { 2 } }):totable())
      assert.are.same({ { 1.5, -2 } }, xp.loadtxt(p, { delimiter = ",", max_rows = 1, ndmin = 2 }):totable())
      os.remove(p)
    end)
  end)
end)

describe("NumPy reads our files and we read NumPy's", function()
  local pending_or_it = numpy_ok and it or pending
  pending_or_it("every dtype, Fortran order, 0-d, empty, npz both ways", function()
    local dir = tmp()
    assert.is_true(os.execute("mkdir -p " .. dir))
    for _, dt in ipairs(helper.DTYPES) do ga.save(dir .. "/" .. dt .. ".npy", sample(ga, dt, { 3, 4 })) end
    ga.save(dir .. "/fort.npy", sample(ga, "float64", { 3, 4 }).T)
    ga.save(dir .. "/zerod.npy", sample(ga, "int32", {}))
    ga.save(dir .. "/empty.npy", sample(ga, "float32", { 0, 2 }))
    ga.savez(dir .. "/s.npz", sample(ga, "int64", { 3 }), { b = sample(ga, "complex128", { 2 }) })
    ga.savez_compressed(dir .. "/c.npz", { z = ga.zeros(5000), u = sample(ga, "uint16", { 4 }) })
    local script = [[
import numpy as np, sys, os
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f)
    if f.endswith(".npy"):
        a = np.load(p)
        np.save(p[:-4] + ".back.npy", a)
        print(f, a.dtype, a.shape, a.flags.f_contiguous, a.tobytes().hex())
    elif f.endswith(".npz"):
        with np.load(p) as z:
            for k in sorted(z.files):
                print(f, k, z[k].dtype, z[k].shape, z[k].tobytes().hex())
]]
    local sp = dir .. "/check.py"
    local fh = io.open(sp, "w")
    fh:write(script)
    fh:close()
    local pipe = io.popen("python3 " .. sp .. " " .. dir)
    local out = pipe:read("a")
    assert.is_true(pipe:close())
    for _, dt in ipairs(helper.DTYPES) do
      local x = sample(ga, dt, { 3, 4 })
      assert.truthy(out:find(dt .. ".npy " .. dt .. " (3, 4) False " .. hex(x:tobytes()), 1, true), dt)
      same(x, ga.load(dir .. "/" .. dt .. ".back.npy"))
    end
    assert.truthy(out:find("fort.npy float64 (4, 3) True", 1, true))
    assert.truthy(out:find("zerod.npy int32 () True", 1, true))
    assert.truthy(out:find("s.npz b complex128 (2,)", 1, true))
    assert.truthy(out:find("c.npz z float64 (5000,)", 1, true))
    os.execute("rm -rf " .. dir)
  end)
end)

-- NumPy 2.4's output for the same calls (checked with numpy.set_printoptions,
-- array_repr and array_str).
describe("print options, array_repr, array_str", function()
  after_each(function() ga.set_printoptions() end)
  local ROWS = {
    { function() ga.set_printoptions { threshold = 5, edgeitems = 2 }; return tostring(ga.host.arange(10)) end,
      "array([0, 1, ..., 8, 9], shape=(10,))" },
    { function() return ga.array_str(ga.host.arange(2000)) end, "[   0    1    2 ... 1997 1998 1999]" },
    { function() return ga.array_str(ga.host.array({ { 1.5, 2 }, { 3, 4 } })) end, "[[1.5 2. ]\n [3.  4. ]]" },
    { function() return ga.array_str(ga.host.array(3.0)) end, "3.0" },
    { function() return ga.array_str(ga.host.array(true)) end, "True" },
    { function() return ga.array_str(ga.host.array({ 1e-10, 1 })) end, "[1.e-10 1.e+00]" },
    { function() return ga.array_repr(ga.host.array({ 1e-10, 1 }), { suppress_small = true }) end, "array([0., 1.])" },
    { function() ga.set_printoptions { suppress = true }; return tostring(ga.host.array({ 1e-10, 1 })) end,
      "array([0., 1.])" },
    { function() return ga.array_repr(ga.host.array({ 1 / 3, 2 }), { precision = 2 }) end, "array([0.33, 2.  ])" },
    { function() ga.set_printoptions { precision = 3 }; return tostring(ga.host.array({ 1 / 3 })) end,
      "array([0.333])" },
    { function() ga.set_printoptions { linewidth = 20 }; return tostring(ga.host.arange(10.0)) end,
      "array([0., 1., 2.,\n       3., 4., 5.,\n       6., 7., 8.,\n       9.])" },
    { function() return ga.array_str(ga.host.array({ true, false })) end, "[ True False]" },
    { function() return ga.array_str(ga.host.zeros({ 0, 2 })) end, "[]" },
    { function() return ga.array_repr(ga.host.arange(3, "int8"), { max_line_width = 10 }) end,
      "array([0,\n       1,\n       2],\n      dtype=int8)" },
  }
  for i, row in ipairs(ROWS) do
    it("row " .. i .. ": " .. row[2]:gsub("\n", "\\n"), function() assert.are.equal(row[2], row[1]()) end)
  end
  it("get_printoptions returns a copy; bad options are errors", function()
    local o = ga.get_printoptions()
    assert.are.same({ precision = 8, threshold = 1000, edgeitems = 3, linewidth = 75, suppress = false }, o)
    o.precision = 1
    assert.are.equal(8, ga.get_printoptions().precision)
    helper.assert_error(function() ga.set_printoptions { precison = 3 } end, "set_printoptions", "unknown option")
    helper.assert_error(function() ga.set_printoptions { precision = -1 } end, "set_printoptions", "precision")
    helper.assert_error(function() ga.set_printoptions { suppress = 1 } end, "set_printoptions", "suppress")
    helper.assert_error(function() ga.array_repr(1) end, "array_repr", "expected an ndarray")
    helper.assert_error(function() ga.array_str(ga.zeros(1), { precision = 1.5 }) end, "array_str", "precision")
  end)
end)
