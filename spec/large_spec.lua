-- Arrays past 2^31 elements or bytes take the kernels' 64-bit index path;
-- the ones just below take the 32-bit path at its edge.  GPU only: on the
-- host the same loops run with 64-bit indices always.
local ga = require "gpuarray"

local gpu = ga.cuda.is_available()

describe("large arrays on the GPU", function()
  -- the first and last 3 elements (the summary tostring() prints): a table
  -- of 2^31 Lua integers would not fit in memory
  local function check_edges(x, want)
    local t = ga.core.repr_table(x, 1000, 3)
    assert.are.equal(7, #t)
    assert.are.equal("...", t[4])
    for _, k in ipairs({1, 2, 3, 5, 6, 7}) do assert.are.equal(want, t[k], "edge " .. k) end
  end

  it("dense add over 2^31 + 16 int8 elements (64-bit index)", function()
    if not gpu then pending("no GPU") return end
    local n = 2 ^ 31 + 16
    local x = ga.ones(n, "int8")
    local y = x + 2
    assert.are.equal(n, y.size)
    check_edges(y, 3)
    x:free(); y:free()
  end)

  it("dense add just below the 32-bit limit", function()
    if not gpu then pending("no GPU") return end
    local n = 2 ^ 31 - 2 ^ 22 - 1
    local x = ga.full(n, 5, "int8")
    local y = x - 1
    assert.are.equal(n, y.size)
    check_edges(y, 4)
    x:free(); y:free()
  end)

  it("strided (transposed) copy of a 2^16 x (2^15 + 1) int8 array", function()
    if not gpu then pending("no GPU") return end
    local x = ga.ones({2 ^ 16, 2 ^ 15 + 1}, "int8")
    local y = ga.ascontiguousarray(x.T * 3)
    assert.are.same({2 ^ 15 + 1, 2 ^ 16}, y.shape)
    local t = ga.core.repr_table(y, 1000, 3)
    for _, r in ipairs({1, 2, 3, 5, 6, 7}) do
      for _, c in ipairs({1, 2, 3, 5, 6, 7}) do assert.are.equal(3, t[r][c]) end
    end
    x:free(); y:free()
  end)

  -- onesweep (src/cuda/ga_cuda_sort.c) from 2^30 elements: 64-bit
  -- positions, payloads and look-back words
  local function pattern(len, dt)   -- (i * 37 + 11) % 251, a row of len
    return ((ga.arange(0, len, 1, "int64") * 37 + 11) % 251):astype(dt)
  end
  it("sorts 2^31 + 2^20 uint8 elements (onesweep, 64-bit path)", function()
    if not gpu then pending("no GPU") return end
    local row = pattern(2049, "uint8")
    local x = (row + ga.zeros({ 2 ^ 20, 1 }, "uint8")):reshape(2049 * 2 ^ 20)
    local s = ga.sort(x)
    local n = s.size
    assert.is_true(ga.all(s[{ { 2, n } }]:ge(s[{ { 1, n - 1 } }])):item())
    assert.are.equal(row:astype("int64"):sum():item() * 2 ^ 20, s:astype("int64"):sum():item())
    assert.are.equal(row:min():item(), s[1]:item())
    assert.are.equal(row:max():item(), s[n]:item())
    x:free(); s:free(); row:free()
  end)

  it("argsorts 2^30 + 3 int8 elements stably (64-bit payloads)", function()
    if not gpu then pending("no GPU") return end
    local n = (1 << 30) + 3
    local x = ((ga.arange(0, n, 1, "int64") * 37 + 11) % 251 - 125):astype("int8")
    local a = ga.argsort(x)
    local s = ga.take(x, a)
    local up = s[{ { 2, n } }]:ge(s[{ { 1, n - 1 } }])
    local tie_ok = ga.logical_or(s[{ { 2, n } }]:ne(s[{ { 1, n - 1 } }]), a[{ { 2, n } }]:gt(a[{ { 1, n - 1 } }]))
    assert.is_true(ga.all(up):item())
    assert.is_true(ga.all(tie_ok):item())
    assert.are.equal(n * (n + 1) // 2, a:sum():item())
    x:free(); a:free(); s:free(); up:free(); tie_ok:free()
  end)
end)
