-- ga.load / ga.host.load with mmap_mode, as NumPy's np.load: on the host
-- an array over a mapping of the file ("r": read-only, writes are errors;
-- "r+": writes reach the file; "c": copy-on-write, the file is unchanged),
-- unmapped when the last array or view over it is freed; on a GPU a device
-- array read straight from the mapping.  .npz archives ignore mmap_mode
-- (as NumPy).  Bad modes, missing, truncated and object-dtype files are
-- errors naming load.
local helper = require "spec.helper"
local ga = helper.ga
local H = ga.host

local function tmp(ext)
  local p = os.tmpname()
  os.remove(p)
  return p .. ext
end

local function read_bytes(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write_bytes(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local function u16(v) return string.pack("<I2", v) end
local function npy(dict, data)
  local total = (10 + #dict + 1 + 63) // 64 * 64
  local hl = total - 10
  return "\147NUMPY\1\0" .. u16(hl) .. dict .. (" "):rep(hl - #dict - 1) .. "\n" .. data
end

local paths = {}
local function file(ext)
  local p = tmp(ext)
  paths[#paths + 1] = p
  return p
end

describe("load with mmap_mode", function()
  teardown(function() for _, p in ipairs(paths) do os.remove(p) end end)

  describe("on the host", function()
    it("'r': an array over the file, read-only, views too; copies are writable", function()
      local p = file(".npy")
      H.save(p, H.arange(12, "float32"):reshape(3, 4))
      local x = H.load(p, { mmap_mode = "r" })
      assert.are.same({ 3, 4 }, x.shape)
      assert.are.equal("float32", x.dtype)
      assert.are.equal(66, x:sum():item())
      assert.is_false(x.flags.writeable)
      assert.is_false(x.T.flags.writeable)
      assert.is_false(x[2].flags.writeable)
      assert.has_error(function() x[1] = 5 end)
      local ok, e = pcall(function() x:fill(0) end)
      assert.is_false(ok)
      assert.truthy(e:find("fill: array is read-only", 1, true), e)
      ok, e = pcall(function() ga.add(x, 1, { out = x }) end)
      assert.is_false(ok)
      assert.truthy(e:find("add: array is read-only", 1, true), e)
      local c = x:copy()
      c:fill(1)
      assert.is_true(c.flags.writeable)
      assert.are.equal(0, x[{ 1, 1 }]:item())
      -- the readonly flag goes with DLPack exports
      assert.are.equal(1, x:__dlpack{ max_version = { 1, 1 } }.flags & 1)
    end)

    it("'r+': writes go through to the file", function()
      local p = file(".npy")
      H.save(p, H.arange(6, "int32"))
      local x = H.load(p, { mmap_mode = "readwrite" })
      assert.is_true(x.flags.writeable)
      x[2] = 100
      ga.multiply(x, 2, { out = x })
      local view = x[{ { 5, 6 } }]
      x:free()
      view:fill(-7)   -- a view keeps the mapping
      view:free()
      assert.are.same({ 0, 200, 4, 6, -7, -7 }, helper.totable(H.load(p)))
    end)

    it("'c': copy-on-write, the file is unchanged", function()
      local p = file(".npy")
      H.save(p, H.arange(4, "float64"))
      local before = read_bytes(p)
      local x = H.load(p, { mmap_mode = "c" })
      assert.is_true(x.flags.writeable)
      x:fill(9)
      assert.are.equal(36, x:sum():item())
      x:free()
      x:free()   -- idempotent
      assert.are.equal(before, read_bytes(p))
    end)

    it("fortran_order, 0-d and empty files map too", function()
      local p = file(".npy")
      local f = H.arange(6, "float64"):reshape(2, 3).T   -- F-contiguous
      H.save(p, f)
      local x = H.load(p, { mmap_mode = "r" })
      assert.is_true(x.flags.f_contiguous)
      assert.is_true(ga.array_equal(f, x))
      H.save(p, H.array(3.5))
      assert.are.equal(3.5, H.load(p, { mmap_mode = "r" }):item())
      H.save(p, H.zeros({ 0, 3 }, "int16"))
      local e = H.load(p, { mmap_mode = "r" })
      assert.are.same({ 0, 3 }, e.shape)
      assert.is_false(e.flags.writeable)
    end)

    it("the mapping goes when the last array is collected", function()
      local p = file(".npy")
      H.save(p, H.ones(1000))
      for _ = 1, 50 do
        local x = H.load(p, { mmap_mode = "r" })
        assert.are.equal(1000, x:sum():item())
      end
      collectgarbage()
      collectgarbage()
      -- the file can be replaced and mapped again after the arrays are gone
      H.save(p, H.zeros(10))
      assert.are.equal(0, H.load(p, { mmap_mode = "r" }):sum():item())
    end)

    it("big-endian data cannot be mapped on the host (it needs a swap)", function()
      local p = file(".npy")
      write_bytes(p, npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", string.pack(">f>f", 1, 2)))
      assert.has_error(function() H.load(p, { mmap_mode = "r" }) end)
      local _, e = pcall(H.load, p, { mmap_mode = "r" })
      assert.truthy(e:find("big-endian", 1, true), e)
      assert.are.same({ 1, 2 }, helper.totable(H.load(p)))   -- a plain load swaps
    end)
  end)

  helper.each_device(function(xp, dev)
    local load = dev.name == "cpu" and H.load or ga.load
    it("every mode reads the values (" .. dev.name .. ")", function()
      local p = file(".npy")
      H.save(p, H.arange(10, "int64"))
      for _, mode in ipairs { "r", "r+", "c" } do
        local x = load(p, { mmap_mode = mode })
        assert.are.equal(dev.name == "cpu", tostring(x.device) == "<CPU>")
        assert.is_true(x.flags.writeable or (dev.name == "cpu" and mode == "r"))
        assert.are.equal(45, x:sum():item())
      end
    end)

    if dev.name ~= "cpu" then
      it("on a GPU: a device array copied from the mapping; writes stay on the device", function()
        local p = file(".npy")
        H.save(p, H.arange(1 << 16, "float32"))
        local before = read_bytes(p)
        local x = ga.load(p, { mmap_mode = "r+" })
        assert.are.equal(((1 << 16) - 1) * (1 << 15), x:sum():item())
        x:fill(0)
        assert.are.equal(before, read_bytes(p))
        -- big-endian data is swapped on the way
        local q = file(".npy")
        write_bytes(q, npy("{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }",
                           string.pack(">i4>i4>i4", 1, 2, -3)))
        assert.are.same({ 1, 2, -3 }, helper.totable(ga.load(q, { mmap_mode = "r" })))
      end)
    end

    it(".npz archives ignore mmap_mode, as NumPy", function()
      local p = file(".npz")
      xp.savez(p, xp.arange(3), { w = xp.ones(2) })
      local f <close> = load(p, { mmap_mode = "r" })
      assert.are.equal(2, f.w:sum():item())
      assert.is_true(f.w.flags.writeable)
    end)

    it("bad inputs are errors naming load", function()
      local p = file(".npy")
      H.save(p, H.arange(3))
      local function fails(frag, ...)
        local ok, e = pcall(load, ...)
        assert.is_false(ok)
        assert.truthy(tostring(e):find("load: ", 1, true), e)
        assert.truthy(tostring(e):find(frag, 1, true), e)
      end
      fails("mmap_mode must be nil, 'r', 'r+' or 'c', got 'rw'", p, { mmap_mode = "rw" })
      fails("mmap_mode must be a string or nil, got number", p, { mmap_mode = 1 })
      fails("creates a new file", p, { mmap_mode = "w+" })
      fails("cannot open", p .. ".missing.npy", { mmap_mode = "r" })
      local obj = file(".npy")
      write_bytes(obj, npy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", ("\0"):rep(16)))
      fails("object arrays are not supported", obj, { mmap_mode = "r" })
      local short = file(".npy")
      write_bytes(short, npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", ("\0"):rep(20)))
      fails("the data does not match the header", short, { mmap_mode = "r" })
      fails("the data does not match the header", short, { mmap_mode = "c" })
    end)
  end)
end)
