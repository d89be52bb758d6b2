-- Issue 10 (hostile input) for reductions, scans, sorting and the memory
-- pool: empty reductions without identity, searchsorted's comparison dtype,
-- messages that name the public function once, checked sizes.
local helper = require "spec.helper"
local ga = require "gpuarray"

-- the message of f(...)'s error, which must happen
local function err(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

-- `msg` names fname once, has no position inside the library, and holds `text`
local function assert_named(msg, fname, text)
  assert.is_nil(msg:find("gpuarray/[%w_]+%.lua:%d+:"), "a library position in: " .. msg)
  local _, n = msg:gsub("%f[%w_]" .. fname .. ": ", "")
  assert.are.equal(1, n, "'" .. fname .. ": ' once in: " .. msg)
  assert.is_truthy(msg:find(": " .. fname .. ": ", 1, true) or msg:find("^" .. fname .. ": "), msg)
  if text then assert.is_truthy(msg:find(text, 1, true), "'" .. text .. "' in: " .. msg) end
end

helper.each_device(function(M, d)
  local dev = d.name
  describe("empty reductions without identity (" .. dev .. ")", function()
    -- NumPy 2 raises whenever a reduced axis is empty, even for an empty result
    local MAXMSG = "zero-size array to reduction operation maximum which has no identity"
    local MINMSG = "zero-size array to reduction operation minimum which has no identity"
    local rows = {
      { "max", MAXMSG }, { "min", MINMSG }, { "amax", MAXMSG }, { "amin", MINMSG },
      { "nanmax", "zero-size array to reduction operation fmax which has no identity" },
      { "nanmin", "zero-size array to reduction operation fmin which has no identity" },
      { "argmax", "attempt to get argmax of an empty sequence" },
      { "argmin", "attempt to get argmin of an empty sequence" },
      { "nanargmax", "attempt to get argmax of an empty sequence" },
      { "nanargmin", "attempt to get argmin of an empty sequence" },
      { "ptp", MAXMSG },
    }
    -- (shape, axis): every case reduces an empty axis
    local cases = { { { 0, 0 }, 1 }, { { 0, 0 }, 2 }, { { 3, 0 }, 2 }, { { 0, 3 }, 1 }, { { 0 }, 1 },
                    { { 0, 0 }, nil } }
    for _, row in ipairs(rows) do
      for _, c in ipairs(cases) do
        it(row[1] .. " of shape {" .. table.concat(c[1], ",") .. "} axis " .. tostring(c[2]), function()
          local x = M.zeros(c[1])
          assert_named(err(M[row[1]], x, c[2]), row[1], row[2])
        end)
      end
      it(row[1] .. " of an empty axis whose other axis is long (empty result not needed)", function()
        assert_named(err(M[row[1]], M.zeros({ 0, 5 }), 1), row[1], row[2])
      end)
    end
    it("a non-empty reduced axis of an empty array is fine (NumPy: shape (0,))", function()
      for _, name in ipairs { "max", "min", "argmax", "argmin", "nanmax", "nanargmin", "ptp" } do
        local r = M[name](M.zeros({ 3, 0 }), 1)
        assert.are.same({ 0 }, r.shape)
      end
    end)
    it("reductions with an identity still give it", function()
      assert.are.same({ 0 }, M.sum(M.zeros({ 0, 0 }), 1).shape)
      assert.are.equal(0, M.sum(M.zeros({ 0, 3 })):item())
      assert.are.equal(true, M.all(M.zeros({ 0, 0 })):item())
    end)
    if dev ~= "cpu" then   -- ReductionKernel runs on a GPU only (its planning: below, everywhere)
      it("ReductionKernel without identity raises for an empty reduced axis", function()
        local k = ga.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", nil, "mymax")
        local e = tostring(select(2, pcall(k, ga.zeros({ 0, 0 }, "float32"), { axis = 1 })))
        assert.is_truthy(e:find("zero-size array to reduction operation mymax which has no identity", 1, true), e)
      end)
    end
  end)

  describe("searchsorted compares as NumPy (" .. dev .. ")", function()
    -- NumPy: np.searchsorted(a, v) converts v as np.asarray (a Lua float is
    -- float64, an integer int64) and compares in result_type(a, v);
    -- expected values are NumPy 2's, + 1
    local rows = {
      { { 0, 0.1, 1 }, "float32", 0.1, "right", 2 },
      { { 0, 0.1, 1 }, "float32", 0.1, "left", 2 },
      { { 0, 0.1, 1 }, "float32", { 0.1 }, "right", { 2 } },
      { { 1, 2, 3 }, "float16", 2.0001, "left", 3 },
      { { 1, 2, 3 }, "float16", { 2.0001 }, "left", { 3 } },
      { { 1, 2, 3 }, "int8", 1000, "left", 4 },
      { { 1, 2, 3 }, "int8", { 1000, 1.5 }, "left", { 4, 2 } },
      { { 1, 2, 3 }, "int8", 2, "right", 3 },
      { { 1, 2, 3 }, "uint64", -1, "left", 1 },
      { { 1, 2, 3 }, "uint8", -1, "left", 1 },
      { { false, true }, "bool", 0.5, "left", 2 },
      { { false, true }, "bool", 1, "right", 3 },
      { { 1, 2, 3 }, "int8", true, "right", 2 },
      { { 1, 2, 3 }, "float32", 16777217, "left", 4 },
      { { 16777216, 16777218 }, "float32", 16777217, "left", 2 },
    }
    for _, r in ipairs(rows) do
      it(string.format("%s %s %s", r[2], tostring(type(r[3]) == "table" and r[3][1] or r[3]), r[4]), function()
        local a = M.array(r[1], r[2])
        local got = M.searchsorted(a, r[3], r[4])
        if type(r[5]) == "table" then assert.are.same(r[5], got:totable())
        else assert.are.equal(r[5], got:item()) end
      end)
    end
  end)

  describe("messages name the public function once (" .. dev .. ")", function()
    local x = M.array({ { 3, 1, 2 }, { 6, 5, 4 } }, "float64")
    local function ss(sorter) return M.searchsorted(M.array({ 1, 2, 3 }), 2, { sorter = sorter }) end
    local rows = {
      { "median", function() return M.median(x, { out = {} }) end, "out must be an ndarray" },
      { "median", function() return M.median(x, 1, { out = M.zeros(2) }) end, "out has shape (2,)" },
      { "median", function() return M.median(x, "a") end, "axis must be" },
      { "median", function() return M.median(x, { keepdims = 1 }) end, "keepdims must be a boolean" },
      { "var", function() return M.var(x, { out = 3 }) end, "out must be an ndarray" },
      { "var", function() return M.var(x, 1, { out = M.zeros(2) }) end, "out has shape (2,)" },
      { "var", function() return M.var(x, { dtype = 5 }) end, "dtype must be" },
      { "var", function() return M.var(x, { dtype = "nope" }) end, "unknown dtype" },
      { "var", function() return M.var(x, { ddof = "a" }) end, "ddof must be an integer" },
      { "var", function() return M.var(x, 3) end, "out of bounds" },
      { "var", function() return M.var(x, { 1, 1 }) end, "repeated axis" },
      { "var", function() return M.var(x, { bogus = 1 }) end, "unknown option" },
      { "std", function() return M.std(x, { keepdims = "yes" }) end, "keepdims must be a boolean" },
      { "std", function() return M.std(x, 2.5) end, "axis must be" },
      { "nanvar", function() return M.nanvar(x, { out = {} }) end, "out must be an ndarray" },
      { "nanstd", function() return M.nanstd(x, 1, { out = M.zeros(5) }) end, "out has shape" },
      { "nanstd", function() return M.nanstd(x, { dtype = "int32" }) end, "dtype must be inexact" },
      { "ptp", function() return M.ptp(x, 2.5) end, "axis must be" },
      { "ptp", function() return M.ptp(x, { out = 3 }) end, "out must be an ndarray" },
      { "ptp", function() return M.ptp(x, 1, { out = M.zeros(2) }) end, "out has shape" },
      { "ptp", function() return M.ptp(M.array({ true, false }), 1) end, "boolean subtract" },
      { "average", function() return M.average(x, { weights = "w" }) end, "weights must be" },
      { "average", function() return M.average(x, { weights = { 1, 2 } }) end, "Axis must be specified" },
      { "average", function() return M.average(x, 2, { weights = { 1, 2 } }) end, "Shape of weights" },
      { "average", function() return M.average(x, { returned = 1 }) end, "returned must be a boolean" },
      { "average", function() return M.average(x, "z") end, "axis must be" },
      { "trace", function() return M.trace(M.ones(3)) end, "at least two dimensions" },
      { "trace", function() return M.trace(x, "a") end, "offset must be an integer" },
      { "trace", function() return M.trace(x, 0, 1, 1) end, "cannot be the same" },
      { "trace", function() return M.trace(x, 0, 1, 5) end, "out of bounds" },
      { "trace", function() return M.trace(x, { out = M.zeros(3) }) end, "out has shape" },
      { "trace", function() return M.trace(x, { dtype = {} }) end, "dtype must be" },
      { "norm", function() return M.linalg.norm(x, nil, "a") end, "axis must be" },
      { "norm", function() return M.linalg.norm(x, nil, nil, 3) end, "keepdims must be a boolean" },
      { "nanmean", function() return M.nanmean(x, { dtype = 3 }) end, "dtype must be" },
      { "nanmean", function() return M.nanmean(x, { dtype = "int32" }) end, "dtype must be inexact" },
      { "sum", function() return M.sum(x, { keepdims = 3 }) end, "keepdims must be a boolean" },
      { "nanargmax", function() return M.nanargmax(M.array({ 0 / 0, 0 / 0 })) end, "All-NaN slice" },
      { "nanargmin", function() return M.nanargmin(M.array({ { 1, 0 / 0 }, { 0 / 0, 0 / 0 } }), 2) end,
        "All-NaN slice" },
      -- searchsorted's sorter and side (ss(sorter) searches 2 in {1, 2, 3})
      { "searchsorted", function() return ss(M.array({ 1, 2 })) end,
        "sorter must be 1-D with a's length 3" },
      { "searchsorted", function() return ss(M.array({ 1, 2, 3.0 })) end,
        "sorter must be an integer array" },
      { "searchsorted", function() return ss(M.array({ 1, 2, 4 })) end,
        "sorter index out of range" },
      { "searchsorted", function() return ss(M.array({ 0, 1, 2 })) end,
        "sorter index out of range" },
      { "searchsorted", function() return ss(M.array({ -1, 1, 2 })) end,
        "sorter index out of range" },
      { "searchsorted", function() return ss("x") end,
        "sorter must be an integer array" },
      { "searchsorted", function() return ss(M.array({{ 1, 2, 3 }})) end,
        "sorter must be 1-D" },
      { "searchsorted", function() return M.searchsorted(M.array({ 1, 2, 3 }), 2, 5) end, "side must be" },
      { "searchsorted", function() return M.searchsorted(M.array({ 1, 2, 3 }), 2, { side = "up" }) end,
        "side must be" },
      { "searchsorted", function() return M.searchsorted(M.array({ 1, 2, 3 }), "v") end, "bad argument #2" },
      { "searchsorted", function() return M.searchsorted(x, 2) end, "a must be 1-D" },
      { "searchsorted", function() return M.searchsorted(M.array({ 1 }), 2, { bogus = 1 }) end, "unknown option" },
      -- sorting's composed functions
      { "unique", function() return M.unique("x") end, "an array expected" },
      { "unique", function() return M.unique(x, { return_index = 3 }) end, "return_index must be a boolean" },
      { "unique", function() return M.unique(x, 3) end, "options must be a table" },
      { "partition", function() return M.partition(x, 5) end, "out of range" },
      { "partition", function() return M.partition(x, 1, "a") end, "axis must be an integer or false" },
      { "partition", function() return M.partition(x, 1, 3) end, "out of bounds" },
      { "argpartition", function() return M.argpartition(x, 1.5) end, "kth must be an integer" },
      { "lexsort", function() return M.lexsort({ M.ones(3), M.ones(2) }) end, "same length" },
      { "lexsort", function() return M.lexsort(3) end, "keys must be" },
    }
    for i, r in ipairs(rows) do
      it(string.format("%d: %s (%s)", i, r[1], r[3]), function()
        assert_named(err(r[2]), r[1], r[3])
      end)
    end
  end)
end)

describe("ReductionKernel without identity, planned without a GPU", function()
  it("refuses an empty reduced axis even when the result is empty too (NumPy)", function()
    local k = ga.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", nil, "mymax")
    for _, c in ipairs { { { 0, 0 }, 1 }, { { 0, 0 }, 2 }, { { 3, 0 }, 2 }, { { 0 }, 1 } } do
      local ok, e = pcall(k.source, k, { "float32" }, { shape = c[1], axis = c[2] })
      assert.is_false(ok)
      assert.is_truthy(tostring(e):find("zero-size array to reduction operation mymax which has no identity", 1,
        true), tostring(e))
    end
  end)
end)

describe("pool:set_limit", function()
  local pool = ga.get_default_memory_pool()
  local saved
  before_each(function() saved = pool:get_limit() end)
  after_each(function() pool:set_limit(saved) end)
  it("clamps sizes past int64 (2^63, 2^64) to math.maxinteger", function()
    pool:set_limit(2 ^ 63)
    assert.are.equal(math.maxinteger, pool:get_limit())
    pool:set_limit { size = 2 ^ 64 }
    assert.are.equal(math.maxinteger, pool:get_limit())
    pool:set_limit(math.maxinteger)
    assert.are.equal(math.maxinteger, pool:get_limit())
    local x = ga.ones(10)   -- allocations still work
    assert.are.equal(10, x:sum():item())
  end)
  it("takes integral floats, nil and {} (no limit)", function()
    pool:set_limit(2.0 ^ 20)
    assert.are.equal(1 << 20, pool:get_limit())
    pool:set_limit()
    assert.are.equal(0, pool:get_limit())
    pool:set_limit(5)
    pool:set_limit {}
    assert.are.equal(0, pool:get_limit())
  end)
  local bad = {
    { math.huge, "size must be a finite number of bytes, got inf" },
    { -math.huge, "size must be a finite number of bytes" },
    { 0 / 0, "size must be a finite number of bytes" },
    { -1, "memory limit size out of range: -1" },
    { 1.5, "size must be an integer number of bytes, got 1.5" },
    { "1", "size must be a number of bytes, got string" },
    { { size = math.huge }, "size must be a finite number of bytes" },
    { { size = -2 }, "memory limit size out of range" },
    { { fraction = 1.5 }, "memory limit fraction out of range: 1.5" },
    { { fraction = -0.1 }, "memory limit fraction out of range" },
    { { fraction = "a" }, "memory limit fraction out of range" },
    { { fraction = 0 / 0 }, "memory limit fraction out of range" },
    { { size = 1, fraction = 0.5 }, "size and fraction cannot be specified at one time" },
    { { limit = 1 }, "unknown option 'limit'" },
  }
  for i, r in ipairs(bad) do
    it(string.format("refuses %d: %s", i, r[2]), function()
      local before = pool:get_limit()
      local msg = err(pool.set_limit, pool, r[1])
      assert_named(msg, "set_limit", r[2])
      assert.are.equal(before, pool:get_limit())
    end)
  end
end)

describe("checked counts", function()
  local H = ga.host
  it("var's n - ddof does not wrap for ddof = math.mininteger", function()
    local v = H.var(H.array({ 1, 3 }), { ddof = math.mininteger }):item()
    assert.is_true(v > 0 and v < 1e-15, tostring(v))
  end)
  it("sizes past the maximum are 'array is too big', named once", function()
    local big = H.broadcast_to(H.zeros(1), { 2 ^ 62 })
    for _, r in ipairs {
      { "cumsum", function() return H.cumsum(big) end },
      { "sort", function() return H.sort(big) end },
      { "argsort", function() return H.argsort(big) end },
    } do
      assert_named(err(r[2]), r[1], "array is too big")
    end
    -- named once (the C search is called from sort.lua: its position stays)
    local msg = err(H.searchsorted, H.array({ 1, 2 }), big)
    assert.is_truthy(msg:find("searchsorted: array is too big", 1, true), msg)
  end)
end)
