-- The dense ElementwiseKernel loop shapes that the environment selects
-- (GPUARRAY_EWK_ILP, GPUARRAY_EWK_GRID, GPUARRAY_EWK_NC, read once per
-- process) and GPUARRAY_FUSE_SINPASS, run in a subprocess by
-- spec/fuse_spec.lua:
--
--   lua5.4 spec/fuse_child.lua ILP GRID NC
--
-- Checks that the generated source carries the shape, that fused kernels
-- compile with NVRTC for every dtype kind, and on a GPU that fused results
-- (chain8, several outputs, a broadcast operand, an output read first, an
-- index-dependent ElementwiseKernel) match the unfused ones at sizes around
-- the spans (a partial last block, one short of a span, a span and one).
-- Prints "fuse child ok N" (N result checks on a GPU), or raises.
local ga = require "gpuarray"
local ilp, grid, nc = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3])
local H = ga.host

local chain8 = ga.fuse(function(x, y) return ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y end, { name = "chain8" })
local x0 = H.ones(64, "float32")
local src = chain8:source(x0, x0)
if ilp > 1 then assert(src:find("#define GA_EW_ILP " .. ilp .. "\n", 1, true), "GA_EW_ILP missing") end
assert(not (ilp == 1 and src:find("#define GA_EW_ILP [24]")), "GA_EW_ILP defined for 1")
assert((grid > 0) == (src:find("#define GA_EW_GRID_STRIDE 1\n", 1, true) ~= nil), "GA_EW_GRID_STRIDE")
assert((nc > 0) == (src:find("#define GA_EW_NC 1\n", 1, true) ~= nil), "GA_EW_NC")

local sinpass = os.getenv("GPUARRAY_FUSE_SINPASS") == "1"
local fsin2 = ga.fuse(function(x) return ga.sin(x) * 2 end, { name = "fsin2" })
assert(sinpass == (fsin2:source(x0):find("#define GA_EW_PASSES 1\n", 1, true) ~= nil), "GA_EW_PASSES")
assert(not H.ones(4, "float16") or not fsin2:source(H.ones(4, "float16")):find("GA_EW_PASSES 1", 1, true))
local ok_nvrtc = pcall(function()
  return ga.ElementwiseKernel("float32 x", "float32 y", "y = x"):compile({ "float32" })
end)
if ok_nvrtc then
  local f = ga.fuse(function(x, y, s) return ga.where(ga.less(x, y), ga.exp(x) * s, y:astype(x.dtype)), x * y end)
  -- vector groups of 16 bytes (float32, float16), 8 (int16 beside float32),
  -- 4 (int8, bool) and none (complex128: one element per group)
  for _, dt in ipairs { "float32", "float16", "complex128" } do
    local x = H.ones(1000, dt)
    assert(f:compile(x, x, 2.5) == 1, dt)
  end
  assert(fsin2:compile(H.ones(1000, "float32")) == 1)
  assert(fsin2:compile(H.ones({ 30, 40 }, "float32")[{ {}, { 1, 20 } }]) == 1)   -- strided
  local g = ga.fuse(function(a, b, c, d) return a * d, b * d, c end)
  assert(g:compile(H.ones(1000, "int16"), H.ones(1000, "int8"), H.ones(1000, "bool"), H.ones(1000, "float32")) == 1)
end

local checks = 0
if ga.cuda.is_available() then
  local function close(got, want, tol, what)
    local ok, msg = ga.allclose(got, want, tol, tol, true), ""
    if not ok then
      msg = "max |diff| " .. tostring(ga.max(ga.abs(got:astype("float64") - want:astype("float64"))):item())
    end
    assert(ok, what .. ": " .. msg)
    checks = checks + 1
  end
  local span = 256 * 4 * ilp   -- float32: 4 per vector group
  local two = ga.fuse(function(x, y) return x * y + 1, x - y end, { name = "two" })
  local bc = ga.fuse(function(x, b) return x * b + b end, { name = "bc" })
  local idx = ga.ElementwiseKernel("T x", "int64 y", "y = (long long)x + i", "idx")
  local acc = ga.ElementwiseKernel("float32 x", "float32 y", "y = y * 2 + x", "acc")
  -- float32 sin fused is the unfused row bit for bit (GPUARRAY_FUSE_SINPASS:
  -- its own fast path, and the second pass for a thread with a large
  -- argument), from 0 to beyond the fast path's 105615, inf and NaN
  local fsin = ga.fuse(function(x) return ga.sin(x) end, { name = "fsin" })
  for _, n in ipairs { 1, 7, span + 3, 1 << 20 } do
    local t = ga.arange(0, n, 1, "float64") / n
    for _, scale in ipairs { 1, 100, 105614, 2e5, 3e38 } do
      local x = ((t * 2 - 1) * scale):astype("float32")
      if n > 1 then x[{ 2 }] = 1 / 0; x[{ n - 1 }] = 0 / 0; x[{ n }] = -105615 end
      assert(ga.array_equal(fsin(x), ga.sin(x), true), "sin n=" .. n .. " scale=" .. scale)
      checks = checks + 1
    end
  end
  for _, n in ipairs { 1, 5, span - 1, span, span + 1, 3 * span + 7, 1000003 } do
    local x = ga.arange(0, n, 1, "float32") / n
    local y = ga.full(n, 0.25, "float32") + x * 0.5
    close(chain8(x, y), ga.sin(x) * y + ga.exp(-x) * 0.5 - y * y, 1e-6, "chain8 n=" .. n)
    local p, q = two(x, y)
    close(p, x * y + 1, 1e-6, "two[1] n=" .. n)
    close(q, x - y, 0, "two[2] n=" .. n)
    local b = ga.full(1, 3, "float32")
    close(bc(x, b), x * b + b, 1e-6, "broadcast n=" .. n)
    for _, dt in ipairs { "int8", "float16", "float64" } do
      local xi = (ga.arange(n, "int64") % 100):astype(dt)
      close(idx(xi), xi:astype("int64") + ga.arange(n, "int64"), 0, "index " .. dt .. " n=" .. n)
    end
    local out = ga.full(n, 1.5, "float32")
    acc(x, out)
    close(out, x + 3, 1e-6, "output read first n=" .. n)
  end
end
print("fuse child ok " .. checks)
