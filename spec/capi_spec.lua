-- The C API for host programs (include/gpuarray.h): examples/embed (built
-- by `make examples`) hosts Lua 5.4, hands a script a buffer it allocated
-- (device memory on a GPU, host memory without one) without a copy, reads
-- the results back through the C API and DLPack, installs a byte-counting
-- allocator, and shares the buffer read-only with a second lua_State on
-- another thread.  (make test-capi runs it and spec/c/test_capi.c under
-- ASan+UBSan.)
local helper = require "spec.helper"   -- luacheck: ignore

local BUILD = os.getenv("BUILD") or "build"

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok, _, code = p:close()
  return ok and code == 0, out
end

describe("the C API", function()
  it("the header is C99 and self-contained", function()
    local ok, out = sh("cc -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I/usr/include/lua5.4 " ..
                       "-Iinclude -x c include/gpuarray.h")
    assert(ok, out)
  end)

  it("examples/embed builds and runs", function()
    local f = io.open(BUILD .. "/gpuarray/core.so")
    if not f then return pending("no " .. BUILD .. "/gpuarray/core.so (make first)") end
    f:close()
    local ok, out = sh("make -s --no-print-directory BUILD=" .. BUILD .. " examples")
    assert(ok, "make examples failed:\n" .. out)
    ok, out = sh("GPUARRAY_BUILD=" .. BUILD .. " " .. BUILD .. "/embed")
    assert(ok and out:find("embed: ok", 1, true), out)
  end)
end)
