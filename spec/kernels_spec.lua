-- The kernel engine: every op row's template compiles with NVRTC for every
-- dtype it accepts, in both kernel shapes (no GPU needed, so CI runs it),
-- and the disk cache survives corrupt files and can be switched off.
local ga = require "gpuarray"
local core = ga.core

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok, out, code
end

local lua = "lua5.4"
local paths = require("spec.helper").lua_env() .. " "

-- SPEC_SHARD=k/n: every n-th case (tools/run_specs.sh spreads the compiles)
local it = require("spec.helper").shard_it(it)

describe("kernel templates", function()
  for _, op in ipairs(core.ops()) do
    it(op.name .. " compiles for every dtype of its type set", function()
      assert.is_true(#op.types > 0)
      for _, dt in ipairs(op.types) do
        for _, dense in ipairs({ true, false }) do
          local ok, size = pcall(core.compile_ew, op.name, dt, dense, 90)
          assert(ok, ("%s %s %s: %s"):format(op.name, dt, dense and "dense" or "strided", tostring(size)))
          assert.is_true(size > 0)
        end
      end
    end)
  end

  -- the tiled kernels for strided layouts (ga_cuda_ew.c): every op in the
  -- shared-memory transpose shape (staged input and output, a broadcast
  -- input, batches), the row kernel for a sample of ops
  for _, op in ipairs(core.ops()) do
    it(op.name .. " compiles as a tiled transpose for every dtype", function()
      for _, dt in ipairs(op.types) do
        local ok, size = pcall(core.compile_ew, op.name, dt, "transpose", 90)
        assert(ok, ("%s %s transpose: %s"):format(op.name, dt, tostring(size)))
        assert.is_true(size > 0)
      end
    end)
  end
  for _, name in ipairs { "copy", "add", "divmod", "exp", "isnan" } do
    it(name .. " compiles as a tiled row kernel for every dtype", function()
      local op
      for _, o in ipairs(core.ops()) do if o.name == name then op = o end end
      for _, dt in ipairs(op.types) do
        local ok, size = pcall(core.compile_ew, name, dt, "rows", 90)
        assert(ok, ("%s %s rows: %s"):format(name, dt, tostring(size)))
        assert.is_true(size > 0)
      end
    end)
  end

  it("chooses the kernel shape from the layout", function()
    local tr = core.ew_source("copy", "float32", "transpose")
    assert.matches("#define GA_EW_SMEMS GA_EW_SMEM(0, float)\n", tr, 1, true)   -- kernels/ga_ew.cuh
    assert.matches("_ga_t0[tx][ty + q * GA_EW_TY]", tr, 1, true)
    local rows = core.ew_source("copy", "float32", "rows")
    assert.matches("#define GA_EW_TX 256\n", rows, 1, true)
    assert.matches("#define GA_EW_SMEMS\n", rows, 1, true)   -- nothing in shared memory
    local strided = core.ew_source("copy", "float32", "strided")
    assert.matches("i += (GA_IT)gridDim.x * blockDim.x", strided, 1, true)
    assert.has_error(function() core.compile_ew("copy", "float32", "diagonal") end,
      "compile_ew: unknown layout 'diagonal' (dense, strided, rows, transpose, step[-]2..8[w])")
  end)

  it("embeds the op's expression in the generated source", function()
    local src = core.ew_source("true_divide", "int8", false)
    assert.matches("out0 = ga_true_divide((out0_t)in0, (out0_t)in1)", src, 1, true)
    assert.matches("typedef double out0_t;", src, 1, true)
    assert.matches("typedef signed char in0_t;", src, 1, true)
  end)

  it("rejects an op without a loop for the dtype", function()
    assert.has_error(function() core.compile_ew("subtract", "bool", true) end,
      "compile_ew: op 'subtract' has no bool loop")
  end)
end)

describe("disk cache", function()
  local dir = os.tmpname()
  os.remove(dir)
  local prog = [[-e 'local c = require("gpuarray").core; assert(c.compile_ew("multiply", "float32", true, 90))']]

  it("stores compiled kernels, treats corrupt files as misses, and can be disabled", function()
    local ok, out = sh(paths .. "GPUARRAY_CACHE_DIR=" .. dir .. " " .. lua .. " " .. prog)
    assert(ok, out)
    local ok2, list = sh("ls " .. dir)
    assert(ok2, list)
    local files = {}
    for f in list:gmatch("%S+") do files[#files + 1] = f end
    assert.are.equal(1, #files)
    assert.matches("^%x+%.bin$", files[1])
    -- truncate it: the next process must recompile, not crash, and rewrite it
    local f = assert(io.open(dir .. "/" .. files[1], "wb")); f:write("GAK1garbage"); f:close()
    ok, out = sh(paths .. "GPUARRAY_CACHE_DIR=" .. dir .. " " .. lua .. " " .. prog)
    assert(ok, out)
    f = assert(io.open(dir .. "/" .. files[1], "rb"))
    local size = #f:read("a"); f:close()
    assert.is_true(size > 100)
    -- GPUARRAY_CACHE=0 writes nothing
    local dir2 = dir .. "-off"
    ok, out = sh(paths .. "GPUARRAY_CACHE=0 GPUARRAY_CACHE_DIR=" .. dir2 .. " " .. lua .. " " .. prog)
    assert(ok, out)
    local ok3 = sh("test -e " .. dir2)
    assert.is_falsy(ok3)
    sh("rm -rf " .. dir .. " " .. dir2)
  end)
end)

-- Advanced indexing (src/cuda/ga_cuda_gather.c): gather, scatter and
-- scatter-add for every dtype of x (the atomics differ per dtype), every
-- integer dtype of the index arrays, 0-d to 3-d selections.
describe("indexing kernels", function()
  local INDEX = { "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64" }
  for _, mode in ipairs { "gather", "scatter", "add" } do
    it(mode .. " compiles for every dtype", function()
      for _, dt in ipairs(core.dtypes) do
        for _, wide in ipairs { false, true } do   -- 32- and 64-bit offsets
          local ok, size = pcall(core.compile_gather, mode, dt, "int64", 2, 3, 90, wide)
          assert(ok, ("%s %s: %s"):format(mode, dt, tostring(size)))
          assert.is_true(size > 0)
        end
      end
    end)
  end
  it("compiles for every index dtype, 0 to 3 index arrays, 0-d to 3-d selections", function()
    for _, it_dt in ipairs(INDEX) do
      for n = 0, 3 do
        local ok, size = pcall(core.compile_gather, "gather", "float32", it_dt, n, n, 90)
        assert(ok, ("%s x%d: %s"):format(it_dt, n, tostring(size)))
        assert.is_true(size > 0)
      end
    end
  end)
  it("checks bounds and uses CAS for 16-bit atomics in the source", function()
    local src = core.gather_source("add", "float16", "uint64", 1, 1)
    assert.matches("ga_flag(err, j, t)", src, 1, true)
    assert.matches("#define GA_LOADS GA_LOAD_U64(0)", src, 1, true)
    assert.matches("atomicCAS(w, assumed", src, 1, true)
    assert.matches("#define GA_ATOMIC 4", src, 1, true)
    assert.matches("0x7fffffffffffffffull", src, 1, true)
    assert.matches("typedef int ga_idx;", src, 1, true)
    assert.matches("typedef long long ga_idx;", core.gather_source("gather", "int8", "int8", 1, 1, nil, true), 1, true)
  end)
end)

-- Sorting and searching (src/cuda/ga_cuda_sort.c): radix-sort histogram and
-- scatter in every payload mode, the prefix-sum kernels, binary search.
describe("sort kernels", function()
  it("compile for every dtype, payload mode and index width", function()
    for _, dt in ipairs(core.dtypes) do
      for _, big in ipairs { false, true } do
        for _, c in ipairs { { "hist", 0, 0 }, { "hist", 2, 0 }, { "scatter", 0, 0 }, { "scatter", 1, 1 },
                             { "scatter", 2, 1 }, { "scatter", 2, 2 }, { "scatter", 1, 2 }, { "search", 0, 0 } } do
          local ok, size = pcall(core._compile_sort, c[1], dt, big, c[2], c[3], 90)
          assert(ok, ("%s %s big=%s: %s"):format(c[1], dt, tostring(big), tostring(size)))
          assert.is_true(size > 0)
        end
      end
    end
    for _, w in ipairs { "scan_reduce", "scan_parts", "scan_down" } do
      for _, big in ipairs { false, true } do
        local ok, size = pcall(core._compile_sort, w, "float32", big, 0, 0, 90)
        assert(ok, w .. ": " .. tostring(size))
      end
    end
    assert.matches("ga_warp_rank(", core._sort_source("scatter", "float32", false, 0, 0), 1, true)
  end)

  -- onesweep (rhist: every pass's digits, with the row number's bytes;
  -- rbins; rpass in its payload modes, 32- and 64-bit positions and
  -- look-back words) and the short-row kernels (roww, rowb; sort and
  -- argsort): the argsort pass for every dtype (the key transforms are
  -- ga_sort.cuh's, compiled above for every dtype), every kernel and mode
  -- for a 1-, a 4- and a 16-byte dtype
  local function compile_all(list, dts)
    for _, dt in ipairs(dts) do
      for _, c in ipairs(list) do
        local ok, size = pcall(core._compile_sort, c[1], dt, c[2], c[3], c[4], 90)
        assert(ok, ("%s %s big=%s %d %d: %s"):format(c[1], dt, tostring(c[2]), c[3], c[4], tostring(size)))
        assert.is_true(size > 0)
      end
    end
  end
  it("the onesweep argsort pass compiles for every dtype", function()
    compile_all({ { "rpass", false, 1, 2 } }, core.dtypes)
  end)
  it("onesweep and short-row kernels compile in every mode", function()
    compile_all({ { "rhist", false, 0, 0 }, { "rhist", true, 3, 0 }, { "rpass", false, 0, 0 },
                  { "rpass", true, 2, 1 }, { "rpass", true, 0, 0 }, { "roww", false, 0, 0 }, { "roww", false, 0, 2 },
                  { "rowb", false, 0, 0 }, { "rowb", false, 0, 2 } }, { "int8", "float32", "complex128" })
    for _, big in ipairs { false, true } do
      local ok, size = pcall(core._compile_sort, "rbins", "float32", big, 0, 0, 90)
      assert(ok, "rbins: " .. tostring(size))
    end
    -- the widest histogram (complex128 keys and 8 row bytes: 25 passes)
    assert(pcall(core._compile_sort, "rhist", "complex128", true, 8, 0, 90))
    local src = core._sort_source("rpass", "float32", true, 1, 2)
    assert.matches("#define LBW 64", src, 1, true)
    assert.matches("typedef long long IT;", src, 1, true)
    assert.matches("atomicAdd(counter, 1u)", src, 1, true)
    assert.matches("#define LBW 32", core._sort_source("rpass", "float32", false, 0, 0), 1, true)
    assert.matches("#define KPT 16", core._sort_source("roww", "float32", false, 0, 0), 1, true)
    assert.matches("#define KPT 8", core._sort_source("roww", "float32", false, 8, 0), 1, true)
  end)
end)

-- Scans and nonzero (src/cuda/ga_cuda_scan.c): every scan row (GA_REDF_SCAN in
-- ga_reduce.def) for every dtype, in each layout's passes (row: one long
-- line, reduce-then-scan; rows: many rows, one pass; col: a non-last axis);
-- dtype= loops; the two nonzero kernels.
describe("scan and nonzero kernels", function()
  it("covers the scan rows", function()
    assert.are.same({ "sum", "prod", "nansum", "nanprod" }, core.scan_ops())
  end)
  for _, op in ipairs(core.scan_ops()) do
    it(op .. " compiles as a scan for every dtype, layout and pass", function()
      for _, dt in ipairs(core.dtypes) do
        for _, layout in ipairs { "row", "rows", "col" } do
          for pass = 1, 3 do
            local ok, size = pcall(core.compile_scan, op, dt, layout, pass, 90)
            assert(ok, ("%s %s %s pass %d: %s"):format(op, dt, layout, pass, tostring(size)))
          end
        end
      end
    end)
  end
  it("compiles with dtype= (float16 and narrow integer loops)", function()
    for _, dt in ipairs { "float16", "int8", "bool", "complex64" } do
      for pass = 1, 3 do
        local ok, size = pcall(core.compile_scan, "sum", "float64", "row", pass, 90, dt)
        assert(ok, ("sum dtype=%s pass %d: %s"):format(dt, pass, tostring(size)))
      end
    end
  end)
  it("compiles the nonzero kernels", function()
    for pass = 1, 2 do
      local ok, size = pcall(core.compile_nonzero, pass, 90)
      assert(ok, tostring(size))
      assert.is_true(size > 0)
    end
  end)
  it("generates the row statements and the passes each layout needs", function()
    local src, name = core.scan_source("nansum", "float16", "row", 3)
    assert.are.equal("ga_scan3", name)
    assert.matches("ga_isnan(in0) ? (acc_t)0 : (acc_t)in0", src, 1, true)
    assert.matches("typedef float acc_t; typedef ga_half out0_mt;", src, 1, true)
    assert.are.equal("ga_scan1", select(2, core.scan_source("sum", "float32", "row", 1)))
    assert.are.equal("ga_scanc1", select(2, core.scan_source("sum", "float32", "col", 1)))
    assert.are.equal("ga_scan2", select(2, core.scan_source("sum", "float32", "col", 2)))
    assert.is_nil(core.scan_source("sum", "float32", "rows", 1))   -- one chunk per row: pass 3 only
    assert.has_error(function() core.scan_source("max", "float32", "row", 3) end, "scan_source: no scan 'max'")
  end)
end)

-- The reduction rows (src/base/ga_reduce.def) as the CUDA backend generates them
-- (src/cuda/ga_cuda_reduce.c), compiled by NVRTC without a GPU.  Layouts of
-- core._compile_reduce: 0 a full contiguous reduction (split: `second` is
-- its combining kernel), 1 a strided 2-d reduced block, 2 the first axis of
-- a matrix (COL, vector loads), 3 the same unaligned, 4 a short last axis.
describe("reduction kernels", function()
  local rows, dts = {}, core.dtypes
  for _, r in ipairs { "sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin", "argmax", "argmin",
                       "nanargmax", "nanargmin", "all", "any", "count_nonzero", "mean", "nanmean" } do
    rows[#rows + 1] = r
  end
  for _, row in ipairs(rows) do
    it(row .. ": every dtype, the split full reduction and its combining kernel", function()
      for _, dt in ipairs(dts) do
        for _, second in ipairs { false, true } do
          local ok, size = pcall(core._compile_reduce, row, dt, 0, second)
          assert(ok, ("%s %s second=%s: %s"):format(row, dt, tostring(second), tostring(size)))
          assert.is_true(size > 0)
        end
      end
    end)
    it(row .. ": every layout for float16, complex128 and bool", function()
      for _, dt in ipairs { "float16", "complex128", "bool" } do
        for lay = 1, 4 do
          for _, second in ipairs { false, true } do
            local ok, size = pcall(core._compile_reduce, row, dt, lay, second)
            assert(ok, ("%s %s layout %d second=%s: %s"):format(row, dt, lay, tostring(second), tostring(size)))
          end
        end
      end
    end)
  end
  it("refuses an unknown row", function()
    assert.has_error(function() core._compile_reduce("median", "float32", 0) end,
                     "compile_reduce: no reduction row 'median'")
  end)
end)
