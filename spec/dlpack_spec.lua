-- DLPack (x:__dlpack, x:__dlpack_device, ga.from_dlpack), x.data_ptr,
-- __cuda_array_interface, and foreign memory (UnownedMemory,
-- MemoryPointer, ga.ndarray with a memptr), on every device: zero-copy
-- round trips of every dtype and layout (0-d, empty, transposed, stepped,
-- reversed, complex parts), the producer's deleter run exactly once
-- (counted by core._dlpack_deleter_calls), lifetimes, bad inputs.
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core
local interop = require "gpuarray.interop"

local DTYPES = { "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128" }

local function deleted() return core._dlpack_deleter_calls() end

local function full_gc() collectgarbage(); collectgarbage() end

-- the layouts: name -> function(base 2-D array 3x4) -> array
local LAYOUTS = {
  contiguous = function(x) return x end,
  transposed = function(x) return x.T end,
  stepped = function(x) return x[{ {}, { 1, 4, 2 } }] end,
  reversed = function(x) return x[{ { 3, 1, -1 } }] end,
  zero_d = function(x) return x[{ 2, 3 }] end,
  empty = function(x) return x[{ { 2, 1 } }] end,   -- (0, 4)
  row = function(x) return x[2] end,
}

local function make(xp, dt)
  local a = xp.arange(12)
  if dt == "bool" then a = a:astype("int64") % 2 end
  return a:astype(dt):reshape(3, 4)
end

helper.each_device(function(xp, dev)
  local want_type = dev.name == "cpu" and 1 or 2

  describe("round trips", function()
    for _, dt in ipairs(DTYPES) do
      for lname, layout in pairs(LAYOUTS) do
        it(dt .. " " .. lname, function()
          local x = layout(make(xp, dt))
          full_gc()
          local n0 = deleted()
          for _, mv in ipairs { { 1, 0 }, { 0, 8 }, false } do
            local cap = x:__dlpack(mv and { max_version = mv } or nil)
            assert.are.equal(mv and mv[1] >= 1 and "dltensor_versioned" or "dltensor", cap.name)
            local y = xp.from_dlpack(cap)
            assert.is_true(cap.consumed)
            assert.are.equal(x.dtype, y.dtype)
            assert.are.same(x.shape, y.shape)
            assert.are.same(x.strides, y.strides)
            assert.are.equal(x.data_ptr, y.data_ptr)
            assert.are.same(helper.totable(x), helper.totable(y))
            y:free()
          end
          -- the object path (x has __dlpack and __dlpack_device)
          local z = xp.from_dlpack(x)
          assert.are.equal(x.data_ptr, z.data_ptr)
          z:free()
          assert.are.equal(n0 + 4, deleted(), "one deleter call per export")
        end)
      end
    end
  end)

  it("shares memory both ways", function()
    local x = xp.zeros({ 2, 3 }, "float32")
    local y = xp.from_dlpack(x:__dlpack{ max_version = { 1, 1 } })
    y[{ 1, 2 }] = 5
    x[{ 2, 3 }] = 7
    assert.are.same({ { 0, 5, 0 }, { 0, 0, 7 } }, helper.totable(y))
    assert.are.same({ { 0, 5, 0 }, { 0, 0, 7 } }, helper.totable(x))
  end)

  it("complex parts export as strided real views", function()
    local z = xp.array({ 1, 2, 3 }):astype("complex128")
    z = z + z * xp.array(0):astype("complex128")
    local im = z.imag
    local y = xp.from_dlpack(im)
    assert.are.same({ 16 }, y.strides)
    assert.are.equal(im.data_ptr, y.data_ptr)
  end)

  it("an unconsumed capsule runs the deleter once, at __gc or close", function()
    local x = xp.ones(10)
    full_gc()
    local n0 = deleted()
    local cap = x:__dlpack()   -- luacheck: ignore
    cap = nil   -- luacheck: ignore
    full_gc()
    assert.are.equal(n0 + 1, deleted())
    do
      local c <close> = x:__dlpack{ max_version = { 1, 0 } }
      assert.is_false(c.consumed)
    end
    assert.are.equal(n0 + 2, deleted())
    full_gc()
    assert.are.equal(n0 + 2, deleted())
  end)

  it("a consumed capsule's deleter runs when the last view is gone", function()
    local x = xp.arange(6):reshape(2, 3)
    full_gc()
    local n0 = deleted()
    local y = xp.from_dlpack(x:__dlpack{ max_version = { 1, 0 } })
    local v = y[2]                    -- a view of the import
    y:free()
    full_gc()
    assert.are.equal(n0, deleted(), "the view still holds it")
    assert.are.same({ 3, 4, 5 }, helper.totable(v))
    v:free()
    full_gc()
    assert.are.equal(n0 + 1, deleted())
  end)

  it("the export keeps the memory after the array is freed", function()
    local x = xp.arange(5, "int32")
    local cap = x:__dlpack{ max_version = { 1, 0 } }
    x:free()
    full_gc()
    assert.are.same({ 0, 1, 2, 3, 4 }, helper.totable(xp.from_dlpack(cap)))
  end)

  it("a capsule is consumed once", function()
    local cap = xp.ones(3):__dlpack()
    xp.from_dlpack(cap)
    assert.has_error(function() xp.from_dlpack(cap) end, "from_dlpack: the DLPack capsule was already consumed")
  end)

  it("copy=true exports a copy flagged IS_COPIED; version 1.1", function()
    local x = xp.arange(4)
    local cap = x:__dlpack{ copy = true, max_version = { 1, 0 } }
    assert.are.equal(2, cap.flags & 2)
    assert.are.same({ 1, 1 }, cap.version)
    local y = xp.from_dlpack(cap)
    assert.are_not.equal(x.data_ptr, y.data_ptr)
    assert.are.same(helper.totable(x), helper.totable(y))
    assert.are.equal(0, x:__dlpack{ max_version = { 1, 0 }, copy = false }.flags)
  end)

  it("dl_device: the array's own, or a copy on the host; from_dlpack{copy=true}", function()
    local x = xp.arange(3)
    local t, id = x:__dlpack_device()
    local y = xp.from_dlpack(x:__dlpack{ dl_device = { t, id } })
    assert.are.equal(x.data_ptr, y.data_ptr)
    local cap = x:__dlpack{ dl_device = { 1, 0 }, max_version = { 1, 0 } }
    assert.are.equal(dev.name == "cpu" and 0 or 2, cap.flags & 2)   -- a copy only from a GPU
    local h = ga.from_dlpack(cap)
    assert.are.equal(1, (h:__dlpack_device()))
    assert.are.same({ 0, 1, 2 }, helper.totable(h))
    if dev.name ~= "cpu" then
      assert.has_error(function() x:__dlpack{ dl_device = { 1, 0 }, copy = false } end)
    end
    assert.has_error(function() x:__dlpack{ dl_device = { 2, 7 } } end)
    local c = xp.from_dlpack(x, { copy = true })
    assert.are_not.equal(x.data_ptr, c.data_ptr)
    assert.are.same({ 0, 1, 2 }, helper.totable(c))
    assert.has_error(function() xp.from_dlpack(x, { nope = 1 }) end, "from_dlpack: unknown option 'nope' (copy)")
  end)

  it("__dlpack_device", function()
    local t, id = xp.zeros(2):__dlpack_device()
    assert.are.equal(want_type, t)
    assert.are.equal(dev.name == "cpu" and 0 or 0, id)
  end)

  it("streams: nil, -1, 1, 2, a Stream object; 0 is refused", function()
    local x = xp.ones(4)
    for _, s in ipairs { -1, 1, 2 } do
      assert.are.same({ 1, 1, 1, 1 }, helper.totable(xp.from_dlpack(x:__dlpack{ stream = s })))
    end
    assert.are.same({ 1, 1, 1, 1 }, helper.totable(xp.from_dlpack(x:__dlpack{ stream = ga.cuda.get_current_stream() })))
    if dev.name ~= "cpu" then
      local s = ga.cuda.Stream{ non_blocking = true }
      local y = s:with(function() return xp.from_dlpack(x) end)   -- the consumer's stream waits on x's
      assert.are.same({ 1, 1, 1, 1 }, helper.totable(y))
      assert.has_error(function() x:__dlpack{ stream = 0 } end)
    end
  end)

  it("a foreign object with __dlpack/__dlpack_device (a Lua producer)", function()
    local backing = xp.arange(3, "float32")
    local calls = {}
    local obj = {
      __dlpack_device = function(_) calls[#calls + 1] = "device"; return backing:__dlpack_device() end,
      __dlpack = function(_, opts)
        calls[#calls + 1] = "dlpack"
        assert.are.same({ 1, 1 }, opts.max_version)
        return backing:__dlpack(opts)
      end,
    }
    local y = xp.from_dlpack(obj)
    assert.are.same({ "device", "dlpack" }, calls)
    assert.are.equal(backing.data_ptr, y.data_ptr)
  end)

  it("bad inputs are errors naming the function", function()
    local x = xp.ones(2)
    assert.has_error(function() xp.from_dlpack(42) end,
      "from_dlpack: expected a DLPack capsule or an object with __dlpack and __dlpack_device, got number")
    assert.has_error(function() xp.from_dlpack({ __dlpack = function() return 1 end,
                                                 __dlpack_device = function() return 1, 0 end }) end,
      "from_dlpack: __dlpack returned number, not a DLPack capsule")
    assert.has_error(function() x:__dlpack{ bogus = 1 } end,
      "__dlpack: unknown option 'bogus' (stream, max_version, copy, dl_device)")
    assert.has_error(function() x:__dlpack(5) end, "__dlpack: options must be a table, got number")
    assert.has_error(function() x:__dlpack{ max_version = "1" } end)
    assert.has_error(function() x:__dlpack{ copy = 1 } end)
    assert.has_error(function() x:__dlpack{ dl_device = { 9, 0 } } end)
    assert.has_error(function() x:__dlpack{ stream = "s" } end)
    local f = xp.ones(2)
    f:free()
    assert.has_error(function() f:__dlpack() end)
  end)

  it("data_ptr and the CUDA array interface", function()
    local x = xp.zeros({ 2, 3 }, "float32")
    assert.is_true(math.type(x.data_ptr) == "integer" and x.data_ptr ~= 0)
    assert.are.equal(x.data_ptr + 4, x[{ 1, 2 }].data_ptr)
    local t = interop._array_interface(x)
    assert.are.same({ 2, 3 }, t.shape)
    assert.are.equal("<f4", t.typestr)
    assert.are.same({ x.data_ptr, false }, t.data)
    assert.are.equal(3, t.version)
    assert.is_nil(t.strides)
    assert.are.same({ 4, 12 }, interop._array_interface(x.T).strides)
    assert.are.equal("|b1", interop._array_interface(xp.zeros(1, "bool")).typestr)
    assert.are.equal("<c16", interop._array_interface(xp.zeros(1, "complex128")).typestr)
    if dev.name == "cpu" then
      assert.has_error(function() x:__cuda_array_interface() end,
        "__cuda_array_interface: a host array has no CUDA array interface (use x.data_ptr or x:__dlpack())")
    else
      local c = x:__cuda_array_interface()
      assert.are.equal(x.data_ptr, c.data[1])
      assert.is_true(math.type(c.stream) == "integer")
    end
  end)

  describe("foreign memory", function()
    local dev_id = dev.name == "cpu" and -1 or 0
    it("ga.ndarray over a MemoryPointer: no copy, strides, offset", function()
      local buf = xp.arange(12, "float64")
      local mem = ga.cuda.UnownedMemory(buf.data_ptr, buf.nbytes, buf, dev_id)
      assert.are.equal(96, mem.size)
      assert.are.equal(buf, mem.owner)
      local p = ga.cuda.MemoryPointer(mem, 16)
      assert.are.equal(buf.data_ptr + 16, p.ptr)
      assert.are.equal(80, p.size)
      assert.are.equal(mem, p.mem)
      local m = xp.ndarray({ 2, 5 }, "float64", p)
      assert.are.same({ { 2, 3, 4, 5, 6 }, { 7, 8, 9, 10, 11 } }, helper.totable(m))
      local t = xp.ndarray({ 5, 2 }, "float64", p, { 8, 40 })
      assert.are.same({ 2, 7 }, helper.totable(t[1]))
      m[{ 1, 1 }] = 100
      assert.are.equal(100, helper.totable(buf)[3])
      assert.are.equal(p, m.base)
      assert.is_false(m.flags.owndata)
    end)

    it("the owner lives as long as an array over it", function()
      local collected = false
      local owner = setmetatable({}, { __gc = function() collected = true end })
      local buf = xp.arange(4, "int32")
      local x = xp.ndarray({ 4 }, "int32", ga.cuda.UnownedMemory(buf.data_ptr, 16, owner, dev_id))
      owner = nil   -- luacheck: ignore
      full_gc()
      assert.is_false(collected)
      local v = x[{ { 2, 3 } }]
      x = nil   -- luacheck: ignore
      full_gc()
      assert.is_false(collected, "a view keeps it")
      local cap = v:__dlpack()   -- luacheck: ignore (an export keeps it too)
      v = nil   -- luacheck: ignore
      full_gc()
      assert.is_false(collected)
      cap = nil   -- luacheck: ignore
      full_gc()
      full_gc()
      assert.is_true(collected)
    end)

    it("bounds and arguments are checked", function()
      local buf = xp.zeros(4, "float32")
      local mem = ga.cuda.UnownedMemory(buf.data_ptr, 16, buf, dev_id)
      assert.has_error(function() xp.ndarray({ 5 }, "float32", mem) end,
        "ndarray: the array spans bytes [0, 20) of a memory of 16 bytes")
      assert.has_error(function() xp.ndarray({ 2 }, "float32", mem, { -4 }) end)
      assert.has_error(function() xp.ndarray({ 2 }, "float32", mem, { 4, 4 }) end,
        "ndarray: strides must have 1 entries (one per dimension), got 2")
      assert.has_error(function() ga.cuda.MemoryPointer(mem, 17) end,
        "cuda.MemoryPointer: offset 17 is outside the memory's 16 bytes")
      assert.has_error(function() ga.cuda.MemoryPointer(42) end)
      assert.has_error(function() ga.cuda.UnownedMemory("x", 4) end,
        "cuda.UnownedMemory: ptr must be an integer address, got string")
      assert.has_error(function() ga.cuda.UnownedMemory(0, 4, nil, dev_id) end)
      assert.has_error(function() ga.cuda.UnownedMemory(buf.data_ptr, -1, nil, dev_id) end)
      assert.are.equal(0, xp.ndarray({ 0 }, "float32", mem).size)
    end)
  end)
end)
