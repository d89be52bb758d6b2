-- The sync ledger (ga.cuda.sync_ledger, GPUARRAY_SYNC_LEDGER=1): implicit
-- synchronisations counted by Lua call site.  The bookkeeping is checked
-- everywhere through core._sync_note (what a backend calls); the real
-- read-backs on a GPU.
local helper = require "spec.helper"
local ga = helper.ga
local core = ga.core

-- this file's name as a call site prints it
local SRC = debug.getinfo(1, "S").short_src
local function line() return debug.getinfo(2, "l").currentline end

describe("sync ledger", function()
  local L
  before_each(function() L = ga.cuda.sync_ledger():reset() end)
  after_each(function() L:stop() end)

  it("counts each synchronisation under the first call site outside gpuarray", function()
    local l1 = line() + 1
    for _ = 1, 3 do core._sync_note() end
    local l2 = line() + 1
    core._sync_note()
    assert.are.equal(4, L:total())
    assert.are.same({ [SRC .. ":" .. l1] = 3, [SRC .. ":" .. l2] = 1 }, L:counts())
    local r = L:report()
    assert.is_truthy(r:find("4 implicit host-device synchronisations at 2 call sites", 1, true), r)
    local a, b = r:find(SRC .. ":" .. l1, 1, true), r:find(SRC .. ":" .. l2, 1, true)
    assert.is_true(a ~= nil and b ~= nil and a < b, r)   -- sorted by count
    assert.are.equal(r, tostring(L))
    local top = L:report(1)
    assert.is_nil(top:find(SRC .. ":" .. l2, 1, true), top)
  end)

  it("is the state's one ledger; reset clears it, stop stops it", function()
    assert.is_true(rawequal(L, ga.cuda.sync_ledger()))
    core._sync_note()
    L:reset()
    assert.are.equal(0, L:total())
    assert.are.same({}, L:counts())
    L:stop()
    core._sync_note()
    assert.are.equal(0, L:total())
    ga.cuda.sync_ledger()
    core._sync_note()
    assert.are.equal(1, L:total())
  end)

  it("the host makes no synchronisations", function()
    local x = ga.host.arange(10)
    local _, _, _, _ = x[{ 2 }]:item(), tostring(x), x:tolist(), ga.host.nonzero(x:gt(3))
    assert.are.equal(0, L:total())
  end)

  it("GPUARRAY_SYNC_LEDGER=1 prints the table to stderr when the state closes", function()
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write('local ga = require "gpuarray"\nfor _ = 1, 2 do ga.core._sync_note() end\nga.core._sync_note()\n')
    f:close()
    local p = io.popen("GPUARRAY_SYNC_LEDGER=1 " .. helper.lua_env() .. " " .. helper.lua_interpreter() .. " " ..
                       script .. " 2>&1")
    local out = p:read("a")
    p:close()
    os.remove(script)
    assert.is_truthy(out:find("3 implicit host-device synchronisations at 2 call sites", 1, true), out)
    assert.is_truthy(out:find("2  " .. script .. ":2", 1, true) or out:find(":2\n", 1, true), out)
  end)

  if helper.has_gpu() then
    it("on a GPU: item, get and tostring each read back once, counted where they are called", function()
      local x = ga.arange(10)
      helper.sync()
      L:reset()
      local li = line() + 1
      for i = 1, 3 do local _ = x[{ i }]:item() end
      local lg = line() + 1
      local _ = x:get()
      local lt = line() + 1
      local _ = tostring(x)
      local c = L:counts()
      assert.are.equal(3, c[SRC .. ":" .. li])
      assert.are.equal(1, c[SRC .. ":" .. lg])
      assert.is_true((c[SRC .. ":" .. lt] or 0) >= 1)
      assert.are.equal(4 + c[SRC .. ":" .. lt], L:total())
    end)
  end
end)
