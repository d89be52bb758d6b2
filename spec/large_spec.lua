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
end)
