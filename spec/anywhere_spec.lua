-- Issue 16's Lua traps (names a module lacks, shape printing, 0 as an index
-- bound, == of two arrays, tables as arrays and operands, array's copy=) and
-- code that runs anywhere (the host's device, streams and events).
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core
local E = helper.assert_error

describe("Lua traps", function()
  it("a name a module lacks is an error naming it, with the closest name", function()
    E(function() return ga.foo end, "ga.foo: ga has no function or value named 'foo'")
    E(function() return ga.zerso end, "did you mean ga.zeros?")
    E(function() return ga.random.randm end, "ga.random.randm: ga.random has no", "did you mean ga.random.rand?")
    E(function() return ga.host.linspac end, "ga.host.linspac", "did you mean ga.host.linspace?")
    E(function() return ga.linalg.nrm end, "ga.linalg.nrm", "ga.linalg.norm")
    E(function() return ga.fft.rfftt end, "ga.fft.rfftt: ga.fft has no", "did you mean ga.fft.rfft")
    E(function() return ga.testing.assert_allclos end, "ga.testing.assert_allclos",
      "did you mean ga.testing.assert_allclose?")
    local msg = E(function() return ga.qq end, "ga.qq")
    assert.is_nil(msg:find("did you mean", 1, true), msg)   -- no far-fetched hint
    assert.is_nil(rawget(ga, "foo"))
    assert.are.equal("function", type(ga.zeros))
  end)

  helper.each_device(function(xp)
    it("tostring(x.shape) is NumPy's tuple; the shape stays a plain table", function()
      local s = xp.zeros({ 2, 3 }).shape
      assert.are.equal("(2, 3)", tostring(s))
      assert.are.equal("(5,)", tostring(xp.zeros(5).shape))
      assert.are.equal("()", tostring(xp.zeros({}).shape))
      assert.are.same({ 2, 3 }, s)
      assert.are.equal(2, #s)
      s[1] = 7   -- the caller's own table
      assert.are.same({ 2, 3 }, xp.zeros({ 2, 3 }).shape)
    end)

    it("0 as a range bound is an error that says indices are 1-based", function()
      local x = xp.arange(6):reshape({ 2, 3 })
      E(function() return x[{ { 0, 2 } }] end, "getitem: a range bound is 0", "1-based")
      E(function() return x[{ {}, { 1, 0 } }] end, "a range bound is 0")
      E(function() x[{ { 0 } }] = 1 end, "setitem: a range bound is 0")
      assert.are.same({ 0, 3 }, x[{ { 2, 1 } }].shape)   -- stop before start: empty
      assert.are.same({ 3 }, x[{ 2 }].shape)
    end)

    it("== of two different arrays is an error pointing at ga.equal and ga.array_equal", function()
      local x = xp.arange(3)
      assert.is_true(x == x)
      E(function() return x == x:copy() end, "==: two different arrays", "ga.equal(a, b)", "a:eq(b)",
        "ga.array_equal(a, b)", "rawequal")
      E(function() return x ~= xp.arange(3) end, "==: two different arrays")
      assert.is_false(x == 0)
      assert.is_true(ga.array_equal(x, x:copy()))
    end)

    it("array(x, {copy=}) as NumPy 2: true copies, false never (an error when it must), nil when needed", function()
      local x = xp.arange(3)
      local c = xp.array(x, { copy = true })
      assert.is_false(rawequal(c, x))
      assert.are.same({ 0, 1, 2 }, c:tolist())
      assert.is_true(rawequal(xp.array(x, { copy = false }), x))
      assert.is_true(rawequal(xp.asarray(x, { copy = false }), x))
      assert.is_true(rawequal(xp.asarray(x, { dtype = "int64" }), x))
      assert.is_false(rawequal(xp.asarray(x, { copy = true }), x))
      assert.are.equal("float32", xp.array(x, { dtype = "float32", copy = true }).dtype)
      E(function() return xp.array(x, { dtype = "float32", copy = false }) end,
        "array: copy=false, but a copy is needed")
      E(function() return xp.asarray({ 1, 2 }, { copy = false }) end,
        "asarray: copy=false, but making an array of a table")
      E(function() return xp.array(x, { copy = 1 }) end, "array: copy must be true, false or nil")
      E(function() return xp.array(x, { cpy = true }) end, "array: unknown option 'cpy'")
    end)

    it("array of a table of arrays stacks them (any depth), with dtype", function()
      local a, b = xp.arange(2), xp.arange(2) + 10
      local s = xp.array({ a, b })
      assert.are.same({ { 0, 1 }, { 10, 11 } }, s:tolist())
      assert.are.equal(xp.zeros(1).device, s.device)
      assert.are.same({ 2, 2, 2 }, xp.array({ { a, b }, { b, a } }).shape)
      assert.are.equal("float32", xp.array({ a, b }, "float32").dtype)
      assert.are.same({ { 0, 1 }, { 5, 6 } }, xp.asarray({ a, { 5, 6 } }):tolist())   -- mixed: a table row too
      assert.are.same({ { 0, 1 }, { 0, 1 } }, xp.array({ ga.host.arange(2), a }):tolist())  -- moved to xp's device
      E(function() return xp.array({ a, xp.arange(3) }) end, "same shape")
    end)

    it("a nested table operand is an array on the other operand's device", function()
      local x = xp.arange(6):reshape({ 2, 3 })
      assert.are.same({ { 1, 3, 5 }, { 4, 6, 8 } }, (x + { 1, 2, 3 }):tolist())
      assert.are.same({ { 1, 1, 1 }, { -2, -2, -2 } }, ({ { 1 }, { 1 } } - x + { 0, 1, 2 } ):tolist())
      assert.are.same({ { 0, 2, 6 }, { 3, 8, 15 } }, ga.multiply(x, { 1, 2, 3 }):tolist())
      assert.are.equal(x.device, (x * { 2.5 }).device)
      assert.are.equal("float64", (xp.arange(3, "float32") + { 1, 2, 3 }).dtype)   -- int64 table: NumPy's
      E(function() return x + { 1, 2 } end, "add: operands could not be broadcast together")
      E(function() return x + { "a" } end, "add:")
      E(function() return x + print end, "add: bad operand #2 (array, number or table expected, got function)")
    end)
  end)
end)

describe("x.device is a device object, as CuPy's", function()
  it("<CPU> or <CUDA Device N>, with .id, ==, one object per device, :with", function()
    local h = ga.host.zeros(2)
    assert.are.equal("<CPU>", tostring(h.device))
    assert.are.equal(-1, h.device.id)
    assert.is_true(rawequal(h.device, ga.host.ones(3).device))
    assert.are.equal("on <CPU>", "on " .. h.device)
    assert.are.equal(5, h.device:with(function() return 5 end))
    if helper.has_gpu() then
      local d = ga.zeros(2)
      assert.are.equal("<CUDA Device 0>", tostring(d.device))
      assert.are.equal(0, d.device.id)
      assert.is_true(d.device == ga.cuda.Device(0))
      assert.is_true(rawequal(d.device, ga.cuda.Device(0)))
      assert.is_false(d.device == h.device)
      assert.are.equal("<CUDA Device 0>", tostring(d.device:with(function() return ga.ones(1).device end)))
    end
  end)
end)

describe("moving arrays: x:to(device), asarray(x, {device=})", function()
  it("to the host and back; the array itself when it is already there", function()
    local x = ga.arange(3)
    local h = x:to("cpu")
    assert.are.equal("cpu", helper.devstr(h.device))
    assert.is_true(rawequal(h:to(-1), h))
    assert.is_true(rawequal(h:to(ga.cuda.Device()), h) or helper.has_gpu())
    assert.are.same({ 0, 1, 2 }, h:tolist())
    local a = ga.asarray({ 1, 2 }, { device = "cpu", dtype = "float32" })
    assert.are.equal("cpu", helper.devstr(a.device))
    assert.are.equal("float32", a.dtype)
    if helper.has_gpu() then
      local d = h:to("cuda:0")
      assert.are.equal("cuda:0", helper.devstr(d.device))
      assert.is_true(rawequal(d:to(0), d))
      assert.are.equal("cuda:0", helper.devstr(ga.asarray(h, { device = ga.cuda.Device(0) }).device))
      assert.are.same({ 0, 1, 2 }, d:tolist())
    else
      E(function() return h:to(0) end, "cuda.Device: invalid device id 0 (0 devices)")
    end
    E(function() return x:to("gpu") end, "to: device must be 'cpu', 'cuda:N', an ordinal or a ga.cuda.Device")
    E(function() return ga.asarray(x, { device = {} }) end, "asarray: device must be")
  end)
end)

describe("code that runs anywhere: the host's device, streams and events", function()
  local prev
  before_each(function() prev = core.get_device(); core.set_device(-1) end)
  after_each(function() core.set_device(prev) end)

  it("Device() is <CPU>: synchronize returns, use/with/enter keep the host current", function()
    local d = ga.cuda.Device()
    assert.are.equal("<CPU>", tostring(d))
    assert.are.equal(-1, d.id)
    assert.are.equal("cpu", d.name)
    assert.is_true(d == ga.cuda.Device())
    d:synchronize()
    assert.are.equal(7, d:with(function() return 7 end))
    do local _ <close> = d:enter(); assert.are.equal(-1, core.get_device()) end
    assert.are.equal(-1, core.get_device())
    E(function() return d:mem_info() end, "mem_info: the host has no device memory (this needs a GPU)")
    if not helper.has_gpu() then
      E(function() return ga.cuda.Device(0) end, "cuda.Device: invalid device id 0 (0 devices)")
    end
  end)

  it("streams: get_current_stream, Stream.null and Stream{} are host streams whose calls return at once", function()
    ga.cuda.Stream.null:synchronize()
    local s = ga.cuda.get_current_stream()
    assert.is_true(rawequal(s, ga.cuda.Stream.null))
    assert.is_true(s:done())
    assert.are.equal(-1, s:device_id())
    local t = ga.cuda.Stream { non_blocking = true }
    assert.are.equal(6, t:with(function() return (ga.ones(3) * 2):sum():item() end))
    do
      local _ <close> = t:enter()
      assert.is_true(rawequal(ga.cuda.get_current_stream(), t))
    end
    assert.is_true(rawequal(ga.cuda.get_current_stream(), s))
    assert.is_true(rawequal(t:use(), t))
    assert.is_true(rawequal(ga.cuda.get_current_stream(), t))
    s:use()
  end)

  it("events record the host clock: get_elapsed_time measures the work between them", function()
    local e1, e2 = ga.cuda.Event(), ga.cuda.Event()
    E(function() return ga.cuda.get_elapsed_time(e1, e2) end, "both events must have been recorded")
    e1:record()
    local t0 = core.clock()
    while core.clock() - t0 < 0.02 do local _ = ga.ones(1000) * 2 end
    e2:record(ga.cuda.Stream.null)
    e2:synchronize()
    assert.is_true(e2:done())
    local ms = ga.cuda.get_elapsed_time(e1, e2)
    assert.is_true(ms >= 20 and ms < 5000, tostring(ms))
  end)

  it("the seed's timing code runs unchanged", function()
    local x = ga.ones({ 100, 100 })
    local start, stop = ga.cuda.Event(), ga.cuda.Event()
    start:record()
    local y = x:dot(x)
    stop:record()
    stop:synchronize()
    ga.cuda.Device():synchronize()
    assert.is_true(ga.cuda.get_elapsed_time(start, stop) >= 0)
    assert.are.equal(100, y[{ 1, 1 }]:item())
  end)
end)
