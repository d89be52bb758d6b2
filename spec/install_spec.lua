-- Install smoke test: `luarocks --lua-version=5.4 make --tree DIR` builds and
-- installs the rock from a copy of this tree (offline: the rock has no rock
-- dependencies), and the installed module, loaded from DIR alone, works.
-- Pending when luarocks is not installed (Debian: apt-get install luarocks).

local CUDA_DIR = os.getenv("CUDA_DIR") or "/usr/local/cuda"
local LUA = os.getenv("LUA") or "lua5.4"

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- Runs a shell command; returns success, its output (stdout and stderr).
local function sh(cmd)
  local p = assert(io.popen("(" .. cmd .. ") 2>&1"))
  local out = p:read("a")
  local ok = p:close()
  return ok == true, out
end

local have_luarocks = sh("command -v luarocks")

describe("install with luarocks", function()
  if not have_luarocks then
    pending("luarocks is not installed (apt-get install luarocks): "
            .. "the luarocks make smoke test is skipped")
    return
  end

  local tmp, tree, installed

  setup(function()
    local ok, out = sh("mktemp -d")
    assert(ok, out)
    tmp = out:gsub("%s+$", "")
    tree = tmp .. "/tree"
  end)

  teardown(function()
    if tmp and tmp:match("^/.+/") then sh("rm -rf " .. quote(tmp)) end
  end)

  it("luarocks make installs the module into a fresh tree", function()
    -- Build from a copy, so that the in-tree build/ is left alone.
    local src = tmp .. "/src"
    local ok, out = sh("mkdir -p " .. quote(src) .. " && for p in Makefile "
      .. "gpuarray-scm-1.rockspec src include lua kernels tools; do "
      .. "if [ -e \"$p\" ]; then cp -R \"$p\" " .. quote(src) .. "/ || exit 1; fi; done")
    assert(ok, "copying the sources failed:\n" .. out)

    ok, out = sh("cd " .. quote(src) .. " && luarocks --lua-version=5.4 make --tree "
      .. quote(tree) .. " CUDA_DIR=" .. quote(CUDA_DIR) .. " gpuarray-scm-1.rockspec")
    assert(ok, "luarocks make failed:\n" .. out)

    local f = io.open(tree .. "/lib/lua/5.4/gpuarray/core.so", "rb")
    assert(f, "no lib/lua/5.4/gpuarray/core.so in the tree:\n" .. out)
    f:close()
    f = io.open(tree .. "/share/lua/5.4/gpuarray/init.lua", "rb")
    assert(f, "no share/lua/5.4/gpuarray/init.lua in the tree:\n" .. out)
    f:close()
    local okh, where = sh("find " .. quote(tree) .. " -name gpuarray.h")
    assert(okh and where:find("gpuarray.h", 1, true), "the C API header was not installed:\n" .. out)
    installed = true
  end)

  it("the installed module loads from that tree alone and adds two arrays", function()
    assert(installed, "not installed (see the previous test)")
    local script = table.concat({
      "package.path = " .. ("%q"):format(tree .. "/share/lua/5.4/?.lua;"
                                         .. tree .. "/share/lua/5.4/?/init.lua"),
      "package.cpath = " .. ("%q"):format(tree .. "/lib/lua/5.4/?.so"),
      'local ga = require "gpuarray"',
      "local a = ga.array({1, 2, 3})",
      "local b = ga.array({10, 20, 30})",
      "local c = a + b",
      "local t = c:totable()",
      "assert(#t == 3 and t[1] == 11 and t[2] == 22 and t[3] == 33,",
      "       'wrong sum: ' .. tostring(c))",
      "print(c.device, tostring(c))",
    }, "\n")
    -- Run away from the repository, with no LUA_PATH that could find it.
    local ok, out = sh("cd " .. quote(tmp) .. " && env -u LUA_PATH -u LUA_CPATH "
      .. "-u LUA_PATH_5_4 -u LUA_CPATH_5_4 " .. LUA .. " -e " .. quote(script))
    assert(ok, "the installed module failed:\n" .. out)
    assert.matches("array%(%[11, 22, 33%]%)", out)
  end)
end)
