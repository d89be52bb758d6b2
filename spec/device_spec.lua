-- ga.cuda: devices, streams, events, on machines with and without a GPU.
local helper = require "spec.helper"
local ga = helper.ga
local cuda = ga.cuda

local HAS_GPU = helper.has_gpu()

describe("ga.cuda without a GPU", function()
  if HAS_GPU then
    it("(this machine has a GPU)", function() pending("GPU present: see 'ga.cuda with a GPU'") end)
    return
  end
  it("is_available() is false", function()
    assert.are.equal(false, cuda.is_available())
  end)
  it("device_count() is 0", function()
    assert.are.equal(0, cuda.device_count())
  end)
  it("Device(0) is a clear error in the contract's words", function()
    helper.assert_error(function() return cuda.Device(0) end, "cuda.Device: invalid device id 0 (0 devices)")
  end)
  it("Device(0):use() is a clear error, and nothing changes", function()
    helper.assert_error(function() cuda.Device(0):use() end, "cuda.Device")
    assert.are.equal("cpu", helper.devstr(ga.zeros(1).device))
  end)
  it("arrays go to the host", function()
    if os.getenv("GPUARRAY_DEVICE") then pending("GPUARRAY_DEVICE is set"); return end
    assert.are.equal("cpu", helper.devstr(ga.zeros(3).device))
    assert.is_true(rawequal(ga.host, ga.get_array_module(ga.ones(2))))
  end)
end)

describe("ga.cuda with a GPU", function()
  if not HAS_GPU then
    it("(no GPU on this machine)", function() pending("no GPU") end)
    return
  end
  local n = cuda.device_count()

  it("is_available() and device_count()", function()
    assert.is_true(cuda.is_available())
    assert.is_true(n >= 1)
    assert.are.equal("integer", math.type(n))
  end)

  describe("Device", function()
    it("fields: id, name, compute_capability, mem_info", function()
      local d = cuda.Device(0)
      assert.are.equal(0, d.id)
      assert.are.equal("string", type(d.name))
      assert.is_true(#d.name > 0)
      assert.matches("^%d%d+$", d.compute_capability)
      local free, total = d:mem_info()
      assert.is_true(total > 0)
      assert.is_true(free >= 0 and free <= total)
    end)
    it("Device() is the current device (0 by default)", function()
      assert.are.equal(0, cuda.Device().id)
    end)
    it("use() makes it current", function()
      cuda.Device(0):use()
      assert.are.equal(0, cuda.Device().id)
      assert.are.equal("cuda:0", helper.devstr(ga.zeros(1).device))
    end)
    it("with(fn, ...) runs fn with the device current and returns its results", function()
      local a, b, c = cuda.Device(0):with(function(x, y)
        return cuda.Device().id, x + y, "z"
      end, 1, 2)
      assert.are.same({ 0, 3, "z" }, { a, b, c })
    end)
    it("with(fn) re-raises the body's error and restores the previous device", function()
      local target = n > 1 and 1 or 0
      local ok, err = pcall(function()
        cuda.Device(target):with(function() error("boom in body") end)
      end)
      assert.is_false(ok)
      assert.matches("boom in body", tostring(err), 1, true)
      assert.are.equal(0, cuda.Device().id)
    end)
    it("enter() is a to-be-closed guard that restores the device, even on error", function()
      local target = n > 1 and 1 or 0
      do
        local _ <close> = cuda.Device(target):enter()
        assert.are.equal(target, cuda.Device().id)
      end
      assert.are.equal(0, cuda.Device().id)
      local ok = pcall(function()
        local _ <close> = cuda.Device(target):enter()
        error("boom")
      end)
      assert.is_false(ok)
      assert.are.equal(0, cuda.Device().id)
    end)
    it("with() on a second device switches and restores (needs 2 GPUs)", function()
      if n < 2 then pending("only one GPU"); return end
      local inside = cuda.Device(1):with(function()
        local x = ga.zeros(4)
        return x.device
      end)
      assert.are.equal(1, inside.id)
      assert.are.equal(0, cuda.Device().id)
    end)
    it("synchronize() returns", function()
      local x = ga.ones(1 << 20) * 2
      cuda.Device():synchronize()
      assert.are.equal(2.0, x:get():totable()[1])
    end)
    it("an invalid device id is an error naming the id and the count", function()
      -- "(1 device)" or "(1 devices)": both read as the contract's message
      helper.assert_error(function() return cuda.Device(n + 6) end,
        string.format("cuda.Device: invalid device id %d (%d device", n + 6, n))
      helper.assert_error(function() return cuda.Device(-1) end, "cuda.Device: ", "invalid device id -1")
      assert.are.equal(0, cuda.Device().id)
    end)
    it("arrays on another device than the current one are refused, CuPy-style", function()
      if n < 2 then pending("only one GPU"); return end
      local a = ga.ones(3)
      local ok, err = pcall(function()
        cuda.Device(1):with(function() return a + a end)
      end)
      assert.is_false(ok)
      assert.matches("add: array device must be same as the current device: array device = 0 while current = 1",
        tostring(err), 1, true)
      assert.are.equal(0, cuda.Device().id)
    end)
  end)

  describe("Stream", function()
    it("null stream is the default current stream", function()
      assert.is_not_nil(cuda.Stream.null)
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
    end)
    it("with(fn) makes the stream current and restores the previous one", function()
      local s = cuda.Stream { non_blocking = true }
      local r = s:with(function()
        assert.is_true(cuda.get_current_stream() == s)
        local x = ga.arange(0, 1000, 1, "float32") * 2
        return x:get():totable()[1000]
      end)
      assert.are.equal(1998.0, r)
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
    end)
    it("with(fn) restores the stream when the body raises", function()
      local s = cuda.Stream()
      local ok, err = pcall(function() s:with(function() error("stream boom") end) end)
      assert.is_false(ok)
      assert.matches("stream boom", tostring(err), 1, true)
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
    end)
    it("enter() guard", function()
      local s = cuda.Stream { non_blocking = false }
      do
        local _ <close> = s:enter()
        assert.is_true(cuda.get_current_stream() == s)
      end
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
      pcall(function()
        local _ <close> = s:enter()
        error("x")
      end)
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
    end)
    it("use() then use() of null", function()
      local s = cuda.Stream()
      s:use()
      assert.is_true(cuda.get_current_stream() == s)
      cuda.Stream.null:use()
      assert.is_true(cuda.get_current_stream() == cuda.Stream.null)
    end)
    it("synchronize() and done()", function()
      local s = cuda.Stream { non_blocking = true }
      local x
      s:with(function()
        x = ga.ones(1 << 22, "float32")
        for _ = 1, 5 do x = x * 1.0001 end
      end)
      s:synchronize()
      assert.is_true(s:done())
      helper.assert_close(x:get():totable()[1], 1.0001 ^ 5, { rtol = 1e-5 })
    end)
    it("work on a non-blocking stream gives the same result as on the null stream", function()
      local s = cuda.Stream { non_blocking = true }
      local h = ga.host.arange(0, 10000, 1, "float64")
      local r = s:with(function()
        local d = ga.asarray(h)
        local y = d * 3 - 1
        return y:get()
      end)
      helper.assert_close(r, h * 3 - 1)
    end)
  end)

  describe("Event", function()
    it("elapsed time between two events is >= 0", function()
      local e1, e2 = cuda.Event(), cuda.Event()
      e1:record()
      local x = ga.ones(1 << 24, "float32")
      for _ = 1, 3 do x = x + 1 end
      e2:record()
      e2:synchronize()
      local ms = cuda.get_elapsed_time(e1, e2)
      assert.are.equal("number", type(ms))
      assert.is_true(ms >= 0)
      assert.is_true(ms < 60000)
    end)
    it("record on an explicit stream", function()
      local s = cuda.Stream { non_blocking = true }
      local e1, e2 = cuda.Event(), cuda.Event()
      e1:record(s)
      s:with(function() local _ = ga.ones(1 << 20) + 1 end)
      e2:record(s)
      e2:synchronize()
      assert.is_true(cuda.get_elapsed_time(e1, e2) >= 0)
    end)
  end)
end)

describe("ga.cuda API shape", function()
  it("exists on every machine", function()
    for _, name in ipairs { "is_available", "device_count", "Device", "Stream", "Event", "get_current_stream",
                            "get_elapsed_time" } do
      assert.is_not_nil(cuda[name], "ga.cuda." .. name .. " missing")
    end
    assert.are.equal("function", type(cuda.is_available))
    assert.are.equal("boolean", type(cuda.is_available()))
  end)
end)
