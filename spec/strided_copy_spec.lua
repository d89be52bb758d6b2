-- Copies of stepped views (issue 20): M[::2, ::2]:copy(), x[{{}, {1, -1, 3}}]
-- and the like.  On a GPU a same-dtype copy into a C-contiguous, 16-byte
-- aligned output whose input steps 2..8 elements (either way) along its
-- innermost axis takes the stepped-copy kernel (kernels/ga_strided.cuh, chosen in
-- src/cuda/ga_cuda_ew.c; rows of at least 64 bytes of output): every
-- itemsize, steps 2..8 along rows and down them, odd first elements (rows
-- that start off a 16-byte boundary), row lengths around the 16-byte chunk
-- of each itemsize and the kernel's shortest rows, several blocks, empty
-- views, negative steps along and across rows, outputs the kernel must
-- leave to the general
-- path, and 64-bit offsets.  Each copy is checked against `take` of the
-- flat base with the same elements' indices (the gather path), on the host
-- and on the GPU; the GPU's copy also against the host's.
local ga = require "gpuarray"
local helper = require "spec.helper"

-- one dtype per itemsize (1, 2, 4, 8, 16), and the rest of the set
local DTYPES = { "int8", "float16", "float32", "float64", "complex128" }
local MORE = { "bool", "uint8", "int16", "int32", "uint32", "int64", "uint64", "complex64" }

local function base(xp, shape, dtype)
  local n = 1
  for _, s in ipairs(shape) do n = n * s end
  return (xp.arange(n, "float64") % 97):astype(dtype):reshape(shape)
end

-- The flat (1-based) positions in a C-contiguous base of `shape` that the
-- view of ranges {start, stop, step} per axis (1-based, inclusive, positive
-- or negative steps) selects, in the view's C order.
local function positions(shape, ranges)
  local axes = {}
  for d, r in ipairs(ranges) do
    local n, first, last, step = shape[d], r[1] or 1, r[2] or -1, r[3] or 1
    if first < 0 then first = n + 1 + first end
    if last < 0 then last = n + 1 + last end
    local list = {}
    for i = first, last, step do list[#list + 1] = i end
    axes[d] = list
  end
  local out, strides = {}, {}
  local st = 1
  for d = #shape, 1, -1 do strides[d] = st; st = st * shape[d] end
  local function walk(d, off)
    if d > #shape then out[#out + 1] = off + 1; return end
    for _, i in ipairs(axes[d]) do walk(d + 1, off + (i - 1) * strides[d]) end
  end
  walk(1, 0)
  return out
end

-- x[ranges]:copy() against take of the same positions, on xp
local function check(xp, shape, ranges, dtype)
  local x = base(xp, shape, dtype)
  local key = {}
  for d, r in ipairs(ranges) do key[d] = r end
  local v = x[key]
  local c = v:copy()
  assert.is_true(c.flags.c_contiguous)
  local pos = positions(shape, ranges)
  assert.are.equal(#pos, c.size)
  if #pos == 0 then return c end
  local want = x:reshape(-1):take(xp.asarray(pos, "int64")):reshape(c.shape)
  helper.assert_close(c, want, { rtol = 0 })
  return c
end

local function gpu_vs_host(shape, ranges, dtype)
  helper.assert_gpu_vs_host(function(xp) return check(xp, shape, ranges, dtype) end, { rtol = 0 })
end

-- row lengths around the 16-byte chunk (W elements of the itemsize) and
-- the kernel's shortest rows (4 chunks; shorter rows take the row kernels)
local function lengths(dtype)
  local w = 16 // ga.host.zeros(1, dtype).itemsize
  local t = { 1, w + 1, 4 * w - 1, 4 * w, 4 * w + 1, 6 * w + 3 }
  local seen, out = {}, {}
  for _, n in ipairs(t) do
    if n >= 1 and not seen[n] then seen[n] = true; out[#out + 1] = n end
  end
  return out
end

describe("stepped copies", function()
  helper.each_device(function(xp)
    it("M[::2, ::2]:copy() takes every other element of every other row", function()
      local M = base(xp, { 64, 64 }, "float32")
      local c = M[{ { 1, -1, 2 }, { 1, -1, 2 } }]:copy()
      assert.are.same({ 32, 32 }, c.shape)
      local h = ga.asnumpy(c)
      assert.are.equal(0, h[{ 1, 1 }]:item())
      assert.are.equal(2, h[{ 1, 2 }]:item())
      assert.are.equal((2 * 64 + 4) % 97, h[{ 2, 3 }]:item())
    end)

    for _, dt in ipairs(DTYPES) do
      it(dt .. ": steps 2..8 along rows, every other row, row lengths around a 16-byte chunk", function()
        for step = 2, 8 do
          for _, n1 in ipairs(lengths(dt)) do
            local cols = (n1 - 1) * step + 1
            check(xp, { 5, cols }, { {}, { 1, -1, step } }, dt)
            if n1 % 2 == 1 then   -- an odd start, every other row
              check(xp, { 6, cols + 3 }, { { 1, -1, 2 }, { 2, cols + 1, step } }, dt)
            end
          end
        end
      end)

      -- (a sample of steps per shape: each (itemsize, step, ndim) is a
      -- kernel of its own to compile)
      it(dt .. ": odd starts, outer steps, 3-d, 1-d, negative steps", function()
        for _, step in ipairs { 2, 3, 5, 8 } do
          local first = 1 + step % 5   -- 2..5: rows start off a 16-byte boundary
          check(xp, { 9, 70 * step + 5 }, { { 2, -1, step }, { first, -1, step } }, dt)
          check(xp, { 9, 70 * step + 3 }, { { -1, 1, -step }, { first, -1, step } }, dt)
        end
        for _, step in ipairs { 2, 7 } do
          check(xp, { 3, 4, 66 * step + 7 }, { {}, { 1, -1, 2 }, { 1 + step % 5, -2, step } }, dt)
        end
        check(xp, { 140 * 4 }, { { 3, -1, 4 } }, dt)   -- 1-d
        -- backwards along rows (the span read from its lowest byte)
        for _, step in ipairs { 2, 3, 8 } do
          check(xp, { 5, 70 * step + 5 }, { {}, { -(1 + step % 5), 1, -step } }, dt)
          check(xp, { 4, 66 * step + 2 }, { { -1, 1, -3 }, { -1, 1, -step } }, dt)
        end
      end)
    end

    it("every other dtype", function()
      for _, dt in ipairs(MORE) do
        for _, step in ipairs { 2, 3, 5, 8 } do
          check(xp, { 7, 66 * step + 1 }, { { 1, -1, 2 }, { 1 + step % 3, -1, step } }, dt)
        end
      end
    end)

    it("several blocks of output (the grid-stride loop's first pass)", function()
      check(xp, { 40, 3001 }, { { 1, -1, 3 }, { 2, -1, 2 } }, "float32")
      check(xp, { 17, 4099 }, { {}, { 1, -1, 3 } }, "int8")
    end)

    it("empty views", function()
      local x = base(xp, { 0, 10 }, "float32")
      local c = x[{ {}, { 1, -1, 2 } }]:copy()
      assert.are.same({ 0, 5 }, c.shape)
      local y = base(xp, { 4, 10 }, "float64")
      assert.are.same({ 4, 0 }, y[{ {}, { 3, 2, 2 } }]:copy().shape)
    end)

    it("x[{{}, {1, -1, 3}}] into an existing array, ascontiguousarray, astype", function()
      local x = base(xp, { 33, 100 }, "float32")
      local v = x[{ {}, { 1, -1, 3 } }]
      local want = check(xp, { 33, 100 }, { {}, { 1, -1, 3 } }, "float32")
      local dst = xp.zeros({ 33, 34 }, "float32")
      dst:set(v)
      helper.assert_close(dst, want, { rtol = 0 })
      helper.assert_close(ga.ascontiguousarray(v), want, { rtol = 0 })
      helper.assert_close(v:astype("float64"), want:astype("float64"), { rtol = 0 })   -- a cast: the general path
      -- an output that is contiguous but 4 bytes past a 16-byte boundary,
      -- and one that is not contiguous: the general path
      local flat = xp.zeros(33 * 34 + 1, "float32")
      local off = flat[{ { 2, -1 } }]:reshape({ 33, 34 })
      off:set(v)
      helper.assert_close(off, want, { rtol = 0 })
      local wide = xp.zeros({ 33, 68 }, "float32")
      wide[{ {}, { 1, -1, 2 } }]:set(v)
      helper.assert_close(wide[{ {}, { 1, -1, 2 } }], want, { rtol = 0 })
    end)

    it("copies of a view into itself's base (overlap goes through a temporary)", function()
      local x = base(xp, { 8, 64 }, "float32")
      local want = x[{ {}, { 1, -1, 2 } }]:copy()
      x[{ {}, { 1, 32 } }]:set(x[{ {}, { 1, -1, 2 } }])
      helper.assert_close(x[{ {}, { 1, 32 } }], want, { rtol = 0 })
    end)
  end)

  it("the GPU copies every itemsize and step as the host does", function()
    for _, dt in ipairs(DTYPES) do
      for step = 2, 8 do
        gpu_vs_host({ 11, 70 * step + 9 }, { { 2, -1, 2 }, { 1 + step % 4, -1, step } }, dt)
        if step == 2 or step == 3 or step == 8 then
          gpu_vs_host({ 11, 70 * step + 9 }, { { 2, -1, 2 }, { -1 - step % 4, 1, -step } }, dt)
        end
      end
    end
  end)

  -- 64-bit offsets: a view whose input spans more than 2^31 bytes (GPU only:
  -- 2.1 GB of device memory)
  if helper.has_gpu() then
    it("steps over more than 2^31 bytes (64-bit offsets)", function()
      local rows, cols = 65600, 32768
      local x = ga.zeros({ rows, cols }, "int8")
      x[{ rows - 1, cols - 3 }] = 7   -- a kept element (odd row, odd column)
      x[{ 3, 5 }] = 5
      local c = x[{ { 1, -1, 2 }, { 1, -1, 2 } }]:copy()
      assert.are.same({ rows // 2, cols // 2 }, c.shape)
      assert.are.equal(7, c[{ rows // 2, cols // 2 - 1 }]:item())
      assert.are.equal(5, c[{ 2, 3 }]:item())
      assert.are.equal(12, c:sum { dtype = "int64" }:item())
      x:free(); c:free()
    end)
  end
end)

-- The kernel text compiles with NVRTC (no GPU needed) for every itemsize
-- and step, 32- and 64-bit offsets: core.compile_ew's step<S>[w] layouts
-- (a copy of a 3-d view stepping S elements along rows and 2 rows down).
describe("stepped-copy kernel", function()
  it("is what a stepped copy into a contiguous output compiles to", function()
    local src = ga.core.ew_source("copy", "float32", "step3")
    assert.matches("#define GA_SC_E 4\n#define GA_SC_S 3\n#define GA_SC_NDIM 3\n", src, 1, true)
    assert.matches("#define GA_IT int\n", src, 1, true)
    assert.matches("#define GA_IT long long\n", ga.core.ew_source("copy", "int8", "step2w"), 1, true)
    -- another op is not a stepped copy, nor a copy into a strided output
    assert.is_nil(ga.core.ew_source("add", "float32", "step2"):find("GA_SC_E", 1, true))
    assert.is_nil(ga.core.ew_source("copy", "float32", "rows"):find("GA_SC_E", 1, true))
    assert.matches("#define GA_SC_S -4\n", ga.core.ew_source("copy", "int16", "step-4"), 1, true)
  end)

  it("compiles with NVRTC for every itemsize and step", function()
    for _, dt in ipairs(DTYPES) do
      for _, lay in ipairs { "step3", "step-2", "step5w" } do
        local ok, size = pcall(ga.core.compile_ew, "copy", dt, lay, 90)
        assert(ok, ("%s %s: %s"):format(dt, lay, tostring(size)))
        assert.is_true(size > 0)
      end
    end
  end)
end)
