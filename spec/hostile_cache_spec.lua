-- The kernel disk cache under hostile conditions (issue 10): keys from long
-- names, FIFOs, symlinks, foreign or shared directories, flipped bytes,
-- stale temp files; and the kernels' :source/:compile option messages.
-- NVRTC needs no GPU, so the store and load paths run here: each case runs
-- a child lua5.4 with its own GPUARRAY_CACHE_DIR (the directory is chosen
-- once per process), under `timeout` so that a hang fails instead of
-- stalling the suite.
local ga = require "gpuarray"
local helper = require "spec.helper"

local function sh(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("a")
  local ok = p:close()
  return ok, out
end

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- The child: compiles `count` RawKernels named arg[1] (the source tagged
-- with arg[2], so that a new tag is a new key) for arch 90.
local script = os.tmpname()
do
  local f = assert(io.open(script, "w"))
  f:write([[
local ga = require "gpuarray"
local name, tag, count = arg[1], arg[2] or "", tonumber(arg[3] or "1")
for i = 1, count do
  local src = ('extern "C" __global__ void %s(float *y) { y[0] = %d; } // %s'):format(name, i, tag)
  assert(ga.RawKernel(src, name):compile { arch = 90 } > 0)
end
io.write("compiled\n")
]])
  f:close()
end

-- Run the child with `dir` as the cache directory; true and its output.
local function child(dir, name, tag, count, env)
  return sh((env or "") .. " GPUARRAY_CACHE_DIR=" .. q(dir) .. " " .. helper.lua_env() ..
            " timeout 20 lua5.4 " .. q(script) .. " " .. q(name or "f") .. " " .. q(tag or "") .. " " ..
            tostring(count or 1))
end

local function ls(dir)
  local ok, out = sh("ls -A " .. q(dir))
  local files = {}
  if ok then for f in out:gmatch("[^\n]+") do files[#files + 1] = f end end
  table.sort(files)
  return files
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local function write(path, s)
  local f = assert(io.open(path, "wb"))
  f:write(s)
  f:close()
end

local function mode(path) return (select(2, sh("stat -c %a " .. q(path))):gsub("%s", "")) end
local function test(flag, path) return sh("test " .. flag .. " " .. q(path)) == true end

local base = os.tmpname()
os.remove(base)
assert(sh("mkdir -m 700 " .. q(base)))
local function fresh(name)
  local d = base .. "/" .. name
  sh("rm -rf " .. q(d))
  return d
end

-- One compiled record in a fresh directory: the directory, the file's name
-- and its bytes.
local function one_record(name, tag)
  local dir = fresh(name)
  local ok, out = child(dir, "f", tag)
  assert(ok, out)
  local files = ls(dir)
  assert.are.equal(1, #files, table.concat(files, " "))
  return dir, files[1], read(dir .. "/" .. files[1])
end

teardown(function()
  sh("rm -rf " .. q(base))
  os.remove(script)
end)

describe("kernel cache keys", function()
  it("a 250-character kernel name compiles, with and without the disk cache", function()
    local name = string.rep("k", 250)
    local src = ('extern "C" __global__ void %s(float *y) { y[0] = 1; }'):format(name)
    local size = ga.RawKernel(src, name):compile { arch = 90 }
    assert.is_true(size > 0)
    assert.are.equal(size, (ga.RawKernel(src, name):compile { arch = 90 }))
    local off = fresh("off")
    local ok, out = child(off, name, "", 1, "GPUARRAY_CACHE=0")
    assert(ok, out)
    assert.is_false(test("-e", off))
  end)

  it("a 250-character kernel name keys the same cache file in every process", function()
    for _, len in ipairs { 250, 255 } do
      local dir = fresh("long" .. len)
      local name = string.rep("k", len)
      assert(child(dir, name, "long"))
      local first = ls(dir)
      assert.are.equal(1, #first)
      assert.matches("^%x+%.bin$", first[1])
      assert(child(dir, name, "long"))   -- a hit: no second file
      assert.are.same(first, ls(dir))
    end
    -- names that differ past byte 200 are different kernels
    local dir = fresh("long-differ")
    assert(child(dir, string.rep("k", 249) .. "a", "long"))
    assert(child(dir, string.rep("k", 249) .. "b", "long"))
    assert.are.equal(2, #ls(dir))
  end)
end)

describe("kernel disk cache files", function()
  it("creates the directory and its parents 0700, its files 0600", function()
    local top = fresh("new")
    local dir = top .. "/a/b"
    local ok, out = child(dir, "f", "modes")
    assert(ok, out)
    assert.are.equal("700", mode(top))
    assert.are.equal("700", mode(top .. "/a"))
    assert.are.equal("700", mode(dir))
    local files = ls(dir)
    assert.are.equal(1, #files)
    assert.are.equal("600", mode(dir .. "/" .. files[1]))
  end)

  it("a FIFO at a key path is a miss, not a hang", function()
    local dir, file = one_record("fifo", "fifo")
    local path = dir .. "/" .. file
    os.remove(path)
    assert(sh("mkfifo " .. q(path)))
    local ok, out = child(dir, "f", "fifo")   -- timeout 20: a hang fails here
    assert(ok, out)
    assert.matches("compiled", out)
    assert.is_true(test("-f", path))           -- recompiled and stored over it
  end)

  it("a symlink at a key path is not followed", function()
    local dir, file, bytes = one_record("link", "link")
    local path, victim = dir .. "/" .. file, base .. "/victim-" .. file
    write(victim, bytes)                       -- a valid record, reachable only through the link
    os.remove(path)
    assert(sh("ln -s " .. q(victim) .. " " .. q(path)))
    local ok, out = child(dir, "f", "link")
    assert(ok, out)
    assert.is_false(test("-L", path))          -- a miss: recompiled and renamed over the link
    assert.is_true(test("-f", path))
    assert.are.equal(bytes, read(victim))      -- the target untouched
  end)

  it("a record with any one byte flipped, or cut short, is a miss and is recompiled", function()
    local dir, file, bytes = one_record("flip", "flip")
    local path = dir .. "/" .. file
    -- magic, flags, size, hash, the payload's first and last bytes
    local rows = { 1, 5, 8, 9, 16, 17, 24, 25, #bytes }
    for _, at in ipairs(rows) do
      local flipped = bytes:sub(1, at - 1) .. string.char(bytes:byte(at) ~ 0x01) .. bytes:sub(at + 1)
      write(path, flipped)
      local ok, out = child(dir, "f", "flip")
      assert(ok, out)
      assert(bytes == read(path), "byte " .. at .. " flipped: the record was loaded, not recompiled")
    end
    for _, cut in ipairs { 0, 10, 24, #bytes - 1 } do
      write(path, bytes:sub(1, cut))
      assert(child(dir, "f", "flip"))
      assert(bytes == read(path), "cut to " .. cut .. " bytes: the record was loaded")
    end
    write(path, bytes .. "x")                  -- one byte too many
    assert(child(dir, "f", "flip"))
    assert(bytes == read(path), "a trailing byte: the record was loaded")
  end)

  it("removes stale temp files of ours, keeps fresh ones", function()
    local dir, file = one_record("stale", "stale")
    local old, new = dir .. "/" .. file .. ".tmp.0123456789abcdef01234567", dir .. "/" .. file .. ".tmp.feedface"
    write(old, "half a record")
    write(new, "a writer at work")
    assert(sh("touch -d '2 hours ago' " .. q(old)))
    local ok, out = child(dir, "f", "stale-new")   -- a new kernel: the process stores
    assert(ok, out)
    assert.is_false(test("-e", old))
    assert.is_true(test("-e", new))
    assert.are.equal(3, #ls(dir))   -- two records, the fresh temp file
  end)

  it("writes no temp files it leaves behind, and names them unpredictably", function()
    local dir = fresh("tmpnames")
    assert(child(dir, "f", "tmpnames", 3))
    for _, f in ipairs(ls(dir)) do assert.matches("^%x+%.bin$", f) end
    assert.are.equal(3, #ls(dir))
  end)
end)

describe("kernel disk cache directory", function()
  local function count(s, pat)
    local n = 0
    for _ in s:gmatch(pat) do n = n + 1 end
    return n
  end

  for _, row in ipairs { { "777", "writable by group or others" }, { "770", "writable by group or others" },
                         { "1777", "writable by group or others" } } do
    it("mode " .. row[1] .. ": disabled for the process, one warning, no file written", function()
      local dir = fresh("shared" .. row[1])
      assert(sh("mkdir " .. q(dir) .. " && chmod " .. row[1] .. " " .. q(dir)))
      local ok, out = child(dir, "f", "shared", 3)   -- three compiles, one warning
      assert(ok, out)
      assert.matches("compiled", out)
      assert.are.equal(1, count(out, "kernel disk cache disabled"), out)
      assert.is_truthy(out:find(dir .. " is " .. row[2], 1, true), out)
      assert.are.same({}, ls(dir))
    end)
  end

  it("a directory owned by another user is refused", function()
    local uid = select(2, sh("id -u")):gsub("%s", "")
    if uid ~= "0" then return end   -- only root can make a directory another user's
    local dir = fresh("foreign")
    assert(sh("mkdir -m 700 " .. q(dir) .. " && chown 65534 " .. q(dir)))
    local ok, out = child(dir, "f", "foreign")
    assert(ok, out)
    assert.is_truthy(out:find(dir .. " is not owned by this user", 1, true), out)
    assert.are.same({}, ls(dir))
  end)

  it("an existing private directory (0755 from older versions too) is used", function()
    local dir = fresh("old755")
    assert(sh("mkdir -m 755 " .. q(dir)))
    local ok, out = child(dir, "f", "old755")
    assert(ok, out)
    assert.is_nil(out:find("disabled", 1, true))
    assert.are.equal(1, #ls(dir))
  end)
end)

describe("kernel :source/:compile options", function()
  local EK = ga.ElementwiseKernel("T x", "T y", "y = x", "cp")
  local RK = ga.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sm")
  local RAW = ga.RawKernel('extern "C" __global__ void f(float *y) { y[0] = 1; }', "f")
  local MOD = ga.RawModule { code = 'extern "C" __global__ void g(float *y) { y[0] = 1; }' }
  local rows = {
    { function(o) return EK:source({ "float32" }, o) end, "ElementwiseKernel 'cp':source" },
    { function(o) return EK:compile({ "float32" }, o) end, "ElementwiseKernel 'cp':compile" },
    { function(o) return RK:source({ "float32" }, o) end, "ReductionKernel 'sm':source" },
    { function(o) return RK:compile({ "float32" }, o) end, "ReductionKernel 'sm':compile" },
    { function(o) return RAW:compile(o) end, "RawKernel 'f':compile" },
    { function(o) return MOD:compile(o) end, "RawModule:compile" },
  }
  for _, row in ipairs(rows) do
    it(row[2] .. ": a bad arch names the method and the value", function()
      for _, bad in ipairs {
        { 1.5, "arch must be an integer (e.g. 90), got 1.5" },
        { "90", "arch must be an integer (e.g. 90), got string" },
        { {}, "arch must be an integer (e.g. 90), got table" },
        { 0 / 0, "arch must be an integer (e.g. 90), got " },
        { 5, "arch must be from 30 to 1000 (e.g. 90), got 5" },
        { 2 ^ 40 // 1, "arch must be from 30 to 1000 (e.g. 90), got 1099511627776" },
        { math.mininteger, "arch must be from 30 to 1000 (e.g. 90), got " .. math.mininteger },
      } do
        local msg = helper.assert_error(function() row[1] { arch = bad[1] } end, row[2] .. ": " .. bad[2])
        assert.is_nil(msg:find("bad argument", 1, true), msg)
      end
      assert.is_truthy(row[1] { arch = 90.0 })   -- an integral float is an integer
    end)
  end

  it("ElementwiseKernel :source size: an integer >= 0, named", function()
    local raw = ga.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i]", "rawcp")
    for _, bad in ipairs {
      { 2.5, "ElementwiseKernel 'rawcp':source: size must be an integer (e.g. 1024), got 2.5" },
      { "8", "size must be an integer (e.g. 1024), got string" },
      { -1, "size must be from 0 to 9223372036854775807 (e.g. 1024), got -1" },
    } do
      local msg = helper.assert_error(function() raw:source({ "float32", "float32" }, { size = bad[1] }) end, bad[2])
      assert.is_nil(msg:find("bad argument", 1, true), msg)
    end
    assert.matches("y%[i%] = x%[i%]", raw:source({ "float32", "float32" }, { size = 8 }))
  end)
end)
