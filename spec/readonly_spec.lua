-- Read-only arrays (x.flags.writeable false): a DLPack 1.x tensor flagged
-- DLPACK_FLAG_BITMASK_READ_ONLY imports read-only; every kind of write
-- into it (or into a view of it) is an error naming the function and
-- saying "read-only"; reads and copies work; from_dlpack{copy=true} and
-- x:copy() are writable; re-exporting sets the flag again.  On every device.
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core

local READ_ONLY = 1

-- a read-only import of a writable array's memory (through the producer
-- side's own export with the READ_ONLY flag, as another library would)
local function readonly_of(x)
  return ga.from_dlpack(core._dlpack_export(x, true, READ_ONLY, nil))
end

local function refuses(fname, f)
  local ok, e = pcall(f)
  assert(not ok, fname .. ": the write went through")
  e = tostring(e)
  assert(e:find("read-only", 1, true), e)
  if fname ~= "" then assert(e:find(fname, 1, true), "'" .. fname .. "' not named in: " .. e) end
end

helper.each_device(function(xp)
  describe("read-only arrays", function()
    it("a READ_ONLY DLPack tensor imports read-only; views inherit; copies are writable", function()
      local base = xp.arange(12, "float32"):reshape(3, 4)
      local r = readonly_of(base)
      assert.is_false(r.flags.writeable)
      assert.is_true(base.flags.writeable)
      assert.are.equal(base.data_ptr, r.data_ptr)
      for _, v in ipairs { r.T, r[2], r[{ {}, { 1, 4, 2 } }], r:reshape(12), r:ravel(), r.real } do
        assert.is_false(v.flags.writeable)
      end
      assert.is_true(r:copy().flags.writeable)
      assert.is_true((r + 1).flags.writeable)
      local c = ga.from_dlpack(core._dlpack_export(base, true, READ_ONLY, nil), { copy = true })
      assert.is_true(c.flags.writeable)
      c:fill(7)
      assert.are.equal(0, base[{ 1, 1 }]:item())
      -- reads work
      assert.are.equal(66, r:sum():item())
      assert.is_true(ga.array_equal(base, r))
      -- an unflagged (or unversioned) tensor stays writable
      assert.is_true(ga.from_dlpack(base:__dlpack()).flags.writeable)
      assert.is_true(ga.from_dlpack(base:__dlpack{ max_version = { 0, 8 } }).flags.writeable)
    end)

    it("re-exporting a read-only array sets the flag; copy=true does not", function()
      local r = readonly_of(xp.arange(4, "float64"))
      local V1 = { 1, 1 }
      assert.are.equal(READ_ONLY, r:__dlpack{ max_version = V1 }.flags & READ_ONLY)
      assert.are.equal(READ_ONLY, r[{ { 2, 3 } }]:__dlpack{ max_version = V1 }.flags & READ_ONLY)
      assert.are.equal(0, r:__dlpack{ max_version = V1, copy = true }.flags & READ_ONLY)
      assert.is_false(ga.from_dlpack(r).flags.writeable)   -- a round trip stays read-only
    end)

    it("every kind of write fails and names the function", function()
      local base = xp.arange(16, "float32"):reshape(4, 4)
      local r = readonly_of(base)
      local before = base:copy()
      refuses("", function() r[1] = 5 end)
      refuses("", function() r[{ { 1, 2 }, 3 }] = 5 end)
      refuses("", function() r[{ 2, 2 }] = 1 end)
      refuses("", function() r.T[1] = 0 end)
      refuses("", function() r[xp.array({ 1, 3 })] = 0 end)                  -- advanced index
      refuses("", function() r[ga.greater(r, 3)] = 0 end)                        -- boolean mask
      refuses("fill", function() r:fill(1) end)
      refuses("add", function() ga.add(r, 1, { out = r }) end)
      refuses("multiply", function() ga.multiply(base, 2, { out = r }) end)
      refuses("sqrt", function() ga.sqrt(base, { out = r[1] }) end)
      refuses("set", function() r:set(base) end)
      refuses("sort", function() r[1]:sort() end)
      refuses("sum", function() ga.sum(base, 1, { out = r[1] }) end)
      refuses("cumsum", function() ga.cumsum(base, 1, { out = r }) end)
      refuses("matmul", function() ga.matmul(base, base, { out = r }) end)
      refuses("add_at", function() ga.add_at(r[1], xp.array({ 1, 1 }), 1) end)
      refuses("put", function() ga.put(r, xp.array({ 1, 2 }), 0) end)
      refuses("shuffle", function() ga.random.RandomState(1):shuffle(r) end)
      refuses("", function()
        local k = ga.ElementwiseKernel("T x", "T y", "y = x * 2", "ro_double")
        k(base, r)
      end)
      -- views share the flag
      refuses("fill", function() r[2]:fill(0) end)
      refuses("fill", function() r:reshape(16):fill(0) end)
      -- nothing was written
      assert.is_true(ga.array_equal(before, base))
      -- the same writes into a copy go through
      local w = r:copy()
      w:fill(1)
      ga.add(w, 1, { out = w })
      w[1] = 9
      assert.are.equal(9 * 4 + 2 * 12, w:sum():item())
    end)

    it("cudnn running statistics are outputs", function()
      local x = xp.array({ { 1, 10 }, { 3, 30 } }, "float32")
      local m = readonly_of(xp.zeros({ 2 }, "float32"))
      local v = xp.ones({ 2 }, "float32")
      refuses("read-only", function()
        ga.cudnn.batch_normalization_forward_training(x, xp.ones({ 2 }, "float32"), xp.zeros({ 2 }, "float32"), m, v)
      end)
    end)
  end)
end)
