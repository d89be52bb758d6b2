-- The module as a whole: it loads without a driver, never links libcuda
-- (the runtime reaches the driver itself), and starts no CUDA library at
-- require time.
local ga = require "gpuarray"
local helper = require "spec.helper"

describe("module", function()
  it("does not link libcuda directly", function()
    -- the module under test: busted's --cpath (build/, or build-asan/ for
    -- make test-asan), not a fixed path that only `make` builds
    local so = assert(package.searchpath("gpuarray.core", package.cpath))
    local p = assert(io.popen("ldd '" .. so .. "' 2>&1"))
    local out = p:read("a")
    p:close()
    assert.matches("libcudart", out)
    assert.is_nil(out:match("libcuda%.so"), out)
  end)

  it("exposes the dtypes and the default device", function()
    assert.are.equal("float32", ga.float32)
    assert.are.equal(14, #ga.core.dtypes)
    local x = ga.zeros(2)
    assert.are.equal(ga.cuda.is_available() and "cuda:0" or "cpu", helper.devstr(x.device))
  end)

  it("honours GPUARRAY_DEVICE=cpu and rejects a bad value", function()
    local env = require("spec.helper").lua_env() .. " "
    local prog = [[ -e 'io.write(tostring(require("gpuarray").zeros(1).device))']]
    local p = assert(io.popen(env .. "GPUARRAY_DEVICE=cpu lua5.4" .. prog .. " 2>&1"))
    assert.are.equal("<CPU>", p:read("a"))
    p:close()
    p = assert(io.popen(env .. "GPUARRAY_DEVICE=gpu7 lua5.4" .. prog .. " 2>&1"))
    local out = p:read("a")
    p:close()
    assert.matches("GPUARRAY_DEVICE must be 'cpu' or 'cuda:N', got 'gpu7'", out, 1, true)
  end)
end)
