-- Copies between devices: x:to(d), x:copy{device = d}, ga.asarray(x) under
-- another device / {device = d}: contiguous and strided, both directions,
-- ordered after the source's queued work and before the destination's
-- later work (events, no synchronisation), through peer access or staged
-- through pinned host memory (GPUARRAY_PEER_ACCESS=0); the errors of ops
-- that mix devices.  The GPU-to-GPU cases need two GPUs.
local helper = require "spec.helper"
local ga = helper.ga
local H = ga.host

local ngpu = ga.cuda.device_count()

describe("copies between devices", function()
  it("x:copy{device=} always copies; x:to(d) gives x itself when it is there", function()
    local h = H.arange(6):reshape(2, 3)
    local c = h:copy{ device = "cpu" }
    assert.is_false(rawequal(c, h))
    assert.are.same(h:totable(), c:totable())
    assert.is_true(rawequal(h:to("cpu"), h))
    assert.is_true(h:copy{ device = "cpu", order = "F" }.flags.f_contiguous)
    helper.assert_error(function() h:copy{ device = "cpu", bogus = 1 } end, "copy", "unknown option 'bogus'")
    if ngpu > 0 then
      local d = h:copy{ device = 0 }
      assert.are.equal(0, d.device.id)
      local d2 = d:copy{ device = "cuda:0" }
      assert.is_false(rawequal(d, d2))
      assert.are.same(h:totable(), d2:get():totable())
    end
  end)

  it("an op mixing the host and a GPU names both devices and the fix", function()
    if ngpu == 0 then pending("needs a GPU") return end
    local msg = helper.assert_error(function() return ga.add(ga.ones(3), H.ones(3)) end, "cuda:0", "cpu", "x:to(")
    assert.truthy(msg)
  end)
end)

if ngpu < 2 then
  describe("copies between GPUs", function()
    it("need two GPUs", function() pending("this machine has " .. ngpu .. " GPU(s)") end)
  end)
  return
end

local function on(dev, fn, ...) return ga.cuda.Device(dev):with(fn, ...) end

local DTYPES = { "bool", "int8", "int64", "uint16", "float16", "float32", "float64", "complex128" }

local function check_pair(src, dst)
  describe(("cuda:%d -> cuda:%d"):format(src, dst), function()
    for _, dt in ipairs(DTYPES) do
      it(dt .. ": contiguous, transposed and sliced; to, copy{device}, asarray", function()
        local base = H.arange(60):reshape(6, 10):astype(dt)
        local x = on(src, ga.asarray, base)
        local cases = { contiguous = x, transposed = x.T, sliced = x[{ { 2, 6, 2 }, { 10, 1, -3 } }] }
        for name, v in pairs(cases) do
          local want = v:get():totable()
          local a = v:to(dst)
          local b = v:copy{ device = dst }
          local c = on(dst, ga.asarray, v)
          local d = ga.asarray(v, { device = dst })
          for _, y in ipairs { a, b, c, d } do
            assert.are.equal(dst, y.device.id, name)
            assert.are.same(want, y:get():totable(), name)
            assert.is_true(y.flags.c_contiguous, name)
          end
        end
      end)
    end

    it("is ordered after the source's queued work and before the destination's later work", function()
      local n = 1 << 24
      for _ = 1, 3 do
        local x = on(src, function() local t = ga.zeros(n); t = t + 1; t = t * 3; return t end)
        local y = x:to(dst)                     -- queued after the kernels that made x
        on(src, function() x:fill(-1) end)       -- may not overtake the copy's read
        local s = on(dst, function() return y:sum():item() end)
        assert.are.equal(3.0 * n, s)
      end
    end)

    it("works on non-default streams of both devices", function()
      local s1 = on(src, function() return ga.cuda.Stream{ non_blocking = true } end)
      local s2 = on(dst, function() return ga.cuda.Stream{ non_blocking = true } end)
      local g1 <close> = s1:enter()
      local g2 <close> = s2:enter()
      assert.truthy(g1 and g2)
      local x = on(src, function() return ga.arange(1 << 20, { dtype = "float64" }) * 2 end)
      local y = x:to(dst)
      local last = on(dst, function() return (y + 1)[{ -1 }]:item() end)
      assert.are.equal(((1 << 20) - 1) * 2 + 1, last)
    end)
  end)
end

check_pair(0, 1)
check_pair(1, 0)

describe("copies between GPUs", function()
  it("an op mixing two GPUs names both and the fix", function()
    local a = on(0, ga.ones, 3)
    local b = on(1, ga.ones, 3)
    -- cuda:0 is current: b is on another device (CuPy's message, and the fix)
    helper.assert_error(function() return ga.add(a, b) end, "add: array device must be same as the current device",
      "array device = 1 while current = 0", "x:to(0)", "ga.cuda.Device(1):with(fn)")
    local y = b:to(0) + a
    assert.are.same({ 2, 2, 2 }, y:get():totable())
  end)

  it("staged through pinned host memory (GPUARRAY_PEER_ACCESS=0), several chunks", function()
    local code = [[
      local ga = require "gpuarray"
      local n = 5 * (1 << 21) + 7                -- 20 MiB of float32 and a bit: three 8 MiB chunks
      local x = ga.cuda.Device(0):with(function() return ga.arange(n, {dtype = "float32"}) end)
      local y = x:to(1)
      ga.cuda.Device(0):with(function() x:fill(0) end)
      local s = ga.cuda.Device(1):with(function() return (y - ga.arange(n, {dtype = "float32"})):sum():item() end)
      local back = y:to(0)
      local s2 = ga.cuda.Device(0):with(function() return back[{-1}]:item() end)
      print("RESULT", s, s2 == n - 1)
    ]]
    local cmd = "GPUARRAY_PEER_ACCESS=0 " .. helper.lua_env() .. " '" .. helper.lua_interpreter() .. "' -e '" ..
                code .. "' 2>&1"
    local p = io.popen(cmd)
    local out = p:read("a")
    p:close()
    assert.truthy(out:find("RESULT\t0.0\ttrue", 1, true), out)
  end)
end)
