-- Integer matmul on the GPU's int8 tensor cores (src/cuda/ga_cuda_intmm.c,
-- kernels/ga_intmm.cuh): each operand split into signed 8-bit digits, one
-- cuBLAS int8 GEMM per digit shift, a combine modulo 2^w; exact as NumPy's
-- wrapping integer matmul.  The split/combine kernels compile with NVRTC for
-- every integer dtype (CI, no GPU); spec/intmm_child.lua checks every integer
-- dtype against a plain Lua loop (extremes, odd shapes, batches, broadcast,
-- transposed operands and out=) in a subprocess: on the host always, on the
-- GPU with the path forced onto small shapes (GPUARRAY_INTMM=1), with k cut
-- into slices of 16 and batches into groups of 2 (GPUARRAY_INTMM_KSLICE,
-- GPUARRAY_INTMM_GROUP), and turned off; products above the size threshold
-- (the default path) against the host.
local helper = require "spec.helper"
local ga = helper.ga

local INTS = { "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64" }

local function child(env, where)
  local cmd = env .. " " .. helper.lua_env() .. " " .. helper.lua_interpreter() .. " spec/intmm_child.lua " ..
              where .. " 2>&1"
  local p = io.popen(cmd)
  local out = p:read("a")
  local ok = p:close()
  return ok, out
end

describe("integer matmul on the int8 tensor cores", function()
  local core = ga.core

  describe("the digit split and combine kernels compile with NVRTC", function()
    for _, dt in ipairs(INTS) do
      it(dt, function()
        local ok, size = pcall(core._compile_intmm, dt)
        if not ok and tostring(size):match("NVRTC is not available") then return pending("no NVRTC") end
        assert.is_true(ok, tostring(size))
        assert.is_true(size > 0)
      end)
    end
    it("digits per element follow the dtype's width; other dtypes are refused", function()
      assert.matches("#define ND 1\n", core._intmm_source("uint8"), 1, true)
      assert.matches("#define ND 2\n", core._intmm_source("int16"), 1, true)
      assert.matches("#define ND 4\n", core._intmm_source("int32"), 1, true)
      assert.matches("typedef unsigned long long TACC", core._intmm_source("uint64"), 1, true)
      for _, dt in ipairs { "float32", "bool", "complex64" } do
        helper.assert_error(function() core._intmm_source(dt) end, "takes integer dtypes")
      end
    end)
  end)

  it("every integer dtype exact against a plain loop on the host (the child's own check)", function()
    local ok, out = child("", "cpu")
    assert.is_true(ok, out)
    assert.matches("intmm ok 112", out, 1, true)
  end)

  if helper.has_gpu() then
    describe("on the GPU against a plain loop", function()
      for _, c in ipairs {
        { "the path forced onto every shape, k in slices of 16, batches in groups of 2",
          "GPUARRAY_INTMM=1 GPUARRAY_INTMM_KSLICE=16 GPUARRAY_INTMM_GROUP=2" },
        { "the path forced, k in one slice", "GPUARRAY_INTMM=1" },
        { "the path off (the tiled kernel)", "GPUARRAY_INTMM=0" },
      } do
        it(c[1], function()
          local ok, out = child(c[2], "cuda")
          assert.is_true(ok, out)
          assert.matches("intmm ok 112", out, 1, true)
        end)
      end
    end)

    describe("above the size threshold (the default path) against the host", function()
      local seed = 99
      local function rand(shape, dt)
        local n = 1
        for _, d in ipairs(shape) do n = n * d end
        local v = {}
        for i = 1, n do
          seed = seed * 6364136223846793005 + 1442695040888963407
          v[i] = seed ~ (seed >> 31)
        end
        -- the extremes at the corners: INT_MIN, INT_MAX, -1 of the dtype
        v[1], v[2], v[n] = math.mininteger, math.maxinteger, -1
        if dt ~= "int64" and dt ~= "uint64" then
          local w = helper.ITEMSIZE[dt] * 8
          v[1], v[2] = -(1 << (w - 1)), (1 << (w - 1)) - 1
        end
        return ga.host.array(v, "int64"):astype(dt):reshape(shape)
      end
      for _, c in ipairs {
        { "int32", { 700, 600 }, { 600, 700 } },
        { "uint32", { 650, 660 }, { 660, 710 } },
        { "int8", { 700, 600 }, { 600, 700 } },
        { "int16", { 4, 400, 400 }, { 400, 500 } },   -- batched, b broadcast
        { "int64", { 512, 512 }, { 512, 600 } },
        { "uint64", { 2, 300, 400 }, { 2, 400, 600 } },   -- both batched
      } do
        it(c[1] .. " " .. table.concat(c[2], "x") .. " @ " .. table.concat(c[3], "x"), function()
          local ha, hb = rand(c[2], c[1]), rand(c[3], c[1])
          local want = ga.host.matmul(ha, hb)
          local got = ga.matmul(ga.asarray(ha), ga.asarray(hb))
          assert.are.equal(c[1], got.dtype)
          assert.is_true(ga.host.array_equal(ga.asnumpy(got), want), c[1] .. ": GPU product differs from the host's")
          -- a transposed operand
          local gt = ga.matmul(ga.asarray(ha), ga.asarray(hb):swapaxes(-1, -2):copy():swapaxes(-1, -2))
          assert.is_true(ga.host.array_equal(ga.asnumpy(gt), want), c[1] .. ": transposed b differs")
        end)
      end
      -- digit products of -128 * -128 = 2^14 over k = 2048 with one odd term:
      -- cuBLAS's int32 sums reach 2^25 + 1, which a float epilogue would round
      for _, dt in ipairs { "int8", "int32" } do
        it(dt .. ": int32 sums of digit products above 2^24 stay exact", function()
          local m, k, n = 400, 2048, 400
          local ha = ga.host.full({ m, k }, -128, dt)
          local hb = ga.host.full({ k, n }, -128, dt)
          ha[{ { 1, m }, 1 }] = 1
          hb[{ 1, { 1, n } }] = 3
          local want = ga.host.matmul(ha, hb)
          local got = ga.matmul(ga.asarray(ha), ga.asarray(hb))
          assert.is_true(ga.host.array_equal(ga.asnumpy(got), want), dt .. ": GPU product differs from the host's")
        end)
      end
    end)
  end
end)
