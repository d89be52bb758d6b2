-- ga.distributed: every collective and reduction for every dtype NCCL
-- takes, against results computed on the host, in each world this machine
-- has: the host's one-rank world (always), NCCL with one rank on cuda:0
-- (a GPU and NCCL), NCCL over every GPU of this process (more than one
-- GPU); peer copies between GPUs (spec/peer_spec.lua); the error cases.
local helper = require "spec.helper"
local ga = helper.ga
local H = ga.host

local DTYPES = { "int8", "uint8", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64" }
local M = 6   -- elements per rank

local function nccl_ok()
  return helper.has_gpu() and (pcall(ga.core._dist_version, 0))
end

-- the worlds: name, the devices of its ranks (-1 the host), a maker
local worlds = { { name = "host (one rank)", devs = { -1 },
                   make = function() return H.distributed.init{} end } }
if nccl_ok() then
  worlds[#worlds + 1] = { name = "NCCL, one rank on cuda:0", devs = { 0 },
                          make = function() return ga.distributed.init{ devices = { 0 } } end }
  worlds[#worlds + 1] = { name = "NCCL, rank 0 of 1 (ncclCommInitRank)", devs = { 0 },
                          make = function()
                            return ga.distributed.init{ rank = 0, world_size = 1, id = ga.distributed.unique_id(),
                                                        device = 0 }
                          end }
  local n = ga.cuda.device_count()
  if n > 1 then
    local devs = {}
    for i = 1, n do devs[i] = i - 1 end
    worlds[#worlds + 1] = { name = "NCCL, " .. n .. " GPUs in one process", devs = devs,
                            make = function() return ga.distributed.init{ devices = devs } end }
  end
end

local function on(dev, h)
  if dev < 0 then return h:copy() end
  return h:to(dev)
end

local function host_of(x) return x.device.id < 0 and x or x:get() end

local function sync_all(devs)
  for _, d in ipairs(devs) do
    if d >= 0 then ga.cuda.Device(d):synchronize() end
  end
end

-- rank r's input (host): small values, so that sums and products fit int8
local function input(dtype, r, m, for_prod)
  local t = {}
  for i = 1, m do
    if for_prod then t[i] = (r < 2 and (i + r) % 2 == 0) and 2 or 1
    else t[i] = (i - 1) % 3 + r + 1 end
  end
  return H.array(t, { dtype = dtype })
end

local COMBINE = { sum = H.add, prod = H.multiply, max = H.maximum, min = H.minimum }

-- the element-wise reduction of host arrays hs (op "avg": the sum / n)
local function reduce_host(hs, op, dtype)
  local f = COMBINE[op == "avg" and "sum" or op]
  local acc = hs[1]
  for r = 2, #hs do acc = f(acc, hs[r]):astype(dtype) end
  if op == "avg" then
    if #hs == 1 then return acc end
    return (acc:astype("float64") / #hs):astype(dtype)
  end
  return acc
end

local function same(got, want, dtype)
  helper.assert_close(host_of(got):astype("float64"), want:astype("float64"),
    { rtol = dtype == "float16" and 2e-3 or 1e-6 })
end

for _, w in ipairs(worlds) do
  local n = #w.devs
  describe("distributed on " .. w.name, function()
    local comm
    setup(function() comm = w.make() end)
    teardown(function() if comm then comm:destroy() end end)

    it("knows its size and ranks", function()
      assert.are.equal(n, comm:size())
      assert.are.equal(0, comm:rank())
      local ranks, devs = comm:local_ranks()
      assert.are.same(w.devs, devs)
      assert.are.equal(n, #ranks)
      assert.truthy(tostring(comm):find("world=" .. n, 1, true))
    end)

    for _, dt in ipairs(DTYPES) do
      describe(dt, function()
        for _, op in ipairs { "sum", "prod", "max", "min", "avg" } do
          if not (op == "avg" and n > 1 and not dt:match("^float")) then
            it("all_reduce " .. op .. " in place and into out=", function()
              local hs, xs, outs = {}, {}, {}
              for r = 1, n do
                hs[r] = input(dt, r - 1, M, op == "prod")
                xs[r] = on(w.devs[r], hs[r])
                outs[r] = on(w.devs[r], H.zeros(M, { dtype = dt }))
              end
              local want = reduce_host(hs, op, dt)
              local got = comm:all_reduce(xs, { op = op, out = outs })
              for r = 1, n do
                assert.are.equal(outs[r], got[r])
                same(got[r], want, dt)
                same(xs[r], hs[r], dt)   -- the input is left alone
              end
              comm:all_reduce(xs, op)
              for r = 1, n do same(xs[r], want, dt) end
            end)
          end
        end

        it("broadcast from the last rank", function()
          local hs, xs = {}, {}
          for r = 1, n do hs[r] = input(dt, r - 1, M); xs[r] = on(w.devs[r], hs[r]) end
          comm:broadcast(xs, n - 1)
          for r = 1, n do same(xs[r], hs[n], dt) end
        end)

        it("reduce (max) to the last rank, the others untouched", function()
          local hs, xs = {}, {}
          for r = 1, n do hs[r] = input(dt, r - 1, M); xs[r] = on(w.devs[r], hs[r]) end
          comm:reduce(xs, { op = "max", root = n - 1 })
          same(xs[n], reduce_host(hs, "max", dt), dt)
          for r = 1, n - 1 do same(xs[r], hs[r], dt) end
        end)

        it("all_gather", function()
          local hs, xs = {}, {}
          for r = 1, n do hs[r] = input(dt, r - 1, M):reshape(2, 3); xs[r] = on(w.devs[r], hs[r]) end
          local g = comm:all_gather(xs)
          local want = H.stack(hs)
          for r = 1, n do
            assert.are.same({ n, 2, 3 }, { table.unpack(g[r].shape) })
            same(g[r], want, dt)
          end
        end)

        it("reduce_scatter (sum)", function()
          local k = 2
          local hs, xs = {}, {}
          for r = 1, n do hs[r] = input(dt, r - 1, n * k); xs[r] = on(w.devs[r], hs[r]) end
          local parts = comm:reduce_scatter(xs, "sum")
          local want = reduce_host(hs, "sum", dt)
          for r = 1, n do
            assert.are.equal(k, parts[r].shape[1])
            same(parts[r], want[{ { (r - 1) * k + 1, r * k } }], dt)
          end
        end)

        it("all_to_all", function()
          local k = 3
          local hs, xs = {}, {}
          for r = 1, n do hs[r] = input(dt, r - 1, n * k):reshape(n, k); xs[r] = on(w.devs[r], hs[r]) end
          local got = comm:all_to_all(xs)
          for r = 1, n do
            for j = 1, n do same(got[r][j], hs[j][r], dt) end
          end
        end)

        it("send/recv around the ring, in one group", function()
          local hs, xs, ys = {}, {}, {}
          for r = 1, n do
            hs[r] = input(dt, r - 1, M)
            xs[r] = on(w.devs[r], hs[r])
            ys[r] = on(w.devs[r], H.zeros(M, { dtype = dt }))
          end
          comm:group(function()
            for r = 1, n do
              comm:send(xs[r], r % n)                 -- rank r-1 sends to the next
              comm:recv(ys[r], (r - 2) % n)           -- and receives from the previous
            end
          end)
          for r = 1, n do same(ys[r], hs[(r - 2) % n + 1], dt) end
        end)
      end)
    end

    it("many all-reduces in one call (a list of lists) and in comm:group", function()
      local lists, hs = {}, {}
      for i = 1, 20 do
        lists[i], hs[i] = {}, {}
        for r = 1, n do
          hs[i][r] = input("float32", r - 1 + i, 4)
          lists[i][r] = on(w.devs[r], hs[i][r])
        end
      end
      local got = comm:all_reduce(lists)
      assert.are.equal(20, #got)
      for i = 1, 20 do
        for r = 1, n do same(lists[i][r], reduce_host(hs[i], "sum", "float32"), "float32") end
      end
      comm:group(function() for i = 1, 20 do comm:all_reduce(lists[i], "max") end end)
      sync_all(w.devs)
    end)

    it("barrier returns (and waits for the queued work)", function()
      comm:barrier()
      comm:barrier()
    end)

    it("a 0-d and an empty array", function()
      local xs, es = {}, {}
      for r = 1, n do
        xs[r] = on(w.devs[r], H.array(2.5, { dtype = "float32" }))
        es[r] = on(w.devs[r], H.zeros(0, { dtype = "float32" }))
      end
      comm:all_reduce(xs)
      comm:all_reduce(es)
      assert.are.equal(2.5 * n, host_of(xs[1]):item())
    end)

    describe("errors (before NCCL is called)", function()
      local function xs_of(dt, shape)
        local t = {}
        for r = 1, n do t[r] = on(w.devs[r], H.zeros(shape or 4, { dtype = dt or "float32" })) end
        return t
      end
      it("dtypes NCCL lacks", function()
        for _, dt in ipairs { "bool", "int16", "uint16", "complex64", "complex128" } do
          helper.assert_error(function() comm:all_reduce(xs_of(dt)) end, "Comm:all_reduce", "NCCL has no " .. dt)
        end
      end)
      it("the wrong number of arrays", function()
        local xs = xs_of()
        xs[n + 1] = xs[1]
        helper.assert_error(function() comm:all_reduce(xs) end, "Comm:all_reduce", n + 1 .. " arrays for " .. n)
      end)
      it("an array on another device than its rank's", function()
        local xs = xs_of()
        if w.devs[1] >= 0 then xs[1] = H.zeros(4, { dtype = "float32" })
        elseif helper.has_gpu() then xs[1] = ga.zeros(4, { dtype = "float32" })
        else return end   -- the host alone: no other device
        helper.assert_error(function() comm:all_reduce(xs) end, "Comm:all_reduce", "array #1 is on")
      end)
      it("a non-contiguous array", function()
        local xs = xs_of("float32", { 4, 4 })
        for r = 1, n do xs[r] = xs[r][{ {}, { 1, 4, 2 } }] end
        helper.assert_error(function() comm:all_reduce(xs) end, "not C-contiguous")
      end)
      it("mismatched shapes or dtypes across the arrays of one call", function()
        if n < 2 then
          -- one rank: an output of the wrong shape or dtype
          local xs = xs_of()
          helper.assert_error(function() comm:all_reduce(xs, { out = xs_of("float32", 5) }) end, "expected (4,)")
          helper.assert_error(function() comm:all_reduce(xs, { out = xs_of("float64") }) end,
            "output array #1 is float64")
          return
        end
        local xs = xs_of()
        xs[n] = on(w.devs[n], H.zeros(5, { dtype = "float32" }))
        helper.assert_error(function() comm:all_reduce(xs) end, "input array #" .. n .. " has shape (5,)")
        xs[n] = on(w.devs[n], H.zeros(4, { dtype = "float64" }))
        helper.assert_error(function() comm:all_reduce(xs) end, "input array #" .. n .. " is float64")
      end)
      it("bad options, roots, peers and shapes", function()
        local xs = xs_of()
        helper.assert_error(function() comm:all_reduce(xs, "mean") end, "op must be")
        helper.assert_error(function() comm:all_reduce(xs, { bad = 1 }) end, "unknown option 'bad'")
        helper.assert_error(function() comm:broadcast(xs, n) end, "root " .. n .. " is not a rank")
        helper.assert_error(function() comm:send(xs[1], -1) end, "peer -1 is not a rank")
        helper.assert_error(function() comm:reduce_scatter(xs_of("float32", n > 1 and n * 2 + 1 or {})) end,
          "must be a multiple of the world size")
        comm:all_reduce(xs, { out = xs })   -- exactly in place: fine
        helper.assert_error(function() comm:all_gather(xs, { out = xs }) end, "output array #1 has shape")
        helper.assert_error(function() comm:all_reduce(42) end, "arrays must be an array or a list")
        helper.assert_error(function() comm:group(42) end, "fn must be a function")
      end)
      it("a receive may come before its send in a group; an unmatched one is an error", function()
        local x = xs_of("int32")
        local y = xs_of("int32")
        for r = 1, n do x[r] = on(w.devs[r], H.arange(4, { dtype = "int32" }) + r) end
        comm:group(function()
          for r = 1, n do comm:recv(y[r], (r - 2) % n) end
          for r = 1, n do comm:send(x[r], r % n) end
        end)
        for r = 1, n do same(y[r], host_of(x[(r - 2) % n + 1]), "int32") end
        if w.devs[1] < 0 then   -- NCCL would wait for the send instead (a hang)
          helper.assert_error(function() comm:group(function() comm:recv(y[1], 0) end) end,
            "Comm:group", "no send matched")
          helper.assert_error(function() comm:recv(y[1], 0) end, "Comm:recv", "nothing was sent")
        end
      end)
      it("an error inside comm:group closes the group", function()
        helper.assert_error(function() comm:group(function() error("boom") end) end, "boom")
        comm:all_reduce(xs_of())   -- still usable
      end)
    end)
  end)
end

describe("distributed: communicators", function()
  it("are closable, and calls on a closed one raise", function()
    local x
    do
      local c <close> = H.distributed.init{}
      x = c
    end
    helper.assert_error(function() x:all_reduce(H.zeros(2)) end, "Comm:all_reduce", "destroyed")
    x:destroy()   -- again: nothing
    assert.truthy(tostring(x):find("destroyed", 1, true))
    local kept
    assert.is_false(pcall(function()
      local c2 <close> = H.distributed.init{}
      kept = c2
      error("boom")
    end))
    assert.truthy(tostring(kept):find("destroyed", 1, true))   -- aborted on the way out
    local c = H.distributed.init{}
    c:abort()
    helper.assert_error(function() c:barrier() end, "Comm:barrier")
  end)
  it("init checks its options", function()
    helper.assert_error(function() H.distributed.init{ world_size = 2, rank = 0, id = H.distributed.unique_id() } end,
      "distributed.init", "world of one rank")
    helper.assert_error(function() H.distributed.init{ rank = 0, world_size = 1 } end, "id= is needed")
    helper.assert_error(function() H.distributed.init{ rank = 1, world_size = 1, id = "00" } end, "rank 1 is not in")
    helper.assert_error(function() H.distributed.init{ rank = 0, world_size = 1, id = "xyz" } end, "256 hexadecimal")
    helper.assert_error(function() H.distributed.init{ devices = { 0 }, rank = 0 } end, "does not go with")
    helper.assert_error(function() H.distributed.init{ devices = {} } end, "non-empty list")
    helper.assert_error(function() H.distributed.init{ bogus = 1 } end, "unknown option 'bogus'")
    helper.assert_error(function() H.distributed.init{ devices = { 0 } } end, "ga.host.distributed is the host's")
    if not helper.has_gpu() then
      helper.assert_error(function() ga.distributed.init{ devices = { 0 } } end, "distributed.init",
        "invalid device id 0")
    end
    local c = H.distributed.init{ rank = 0, world_size = 1, id = H.distributed.unique_id() }
    assert.are.equal(1, c:size())
    c:destroy()
  end)
  it("unique_id is 256 hex digits, different each time", function()
    local a, b = ga.distributed.unique_id(), ga.distributed.unique_id()
    assert.are.equal(256, #a)
    assert.is_nil(a:find("[^0-9a-f]"))
    assert.are_not.equal(a, b)
  end)
  it("the host is always available; nccl_version is 0 there", function()
    assert.is_true(H.distributed.is_available())
    assert.are.equal(0, H.distributed.nccl_version())
  end)
end)

describe("distributed: one process per GPU", function()
  it("examples/allreduce_mp.sh with every GPU", function()
    if not nccl_ok() or ga.cuda.device_count() < 2 then pending("needs 2 GPUs and NCCL") return end
    local p = io.popen("LUA='" .. helper.lua_interpreter() .. "' sh examples/allreduce_mp.sh 2>&1")
    local out = p:read("a")
    p:close()
    assert.truthy(out:find("allreduce_mp: " .. ga.cuda.device_count() .. " local rank(s) of", 1, true), out)
  end)
end)

describe("distributed: NCCL through dlopen", function()
  local function run(env, code)
    local cmd = env .. " " .. helper.lua_env() .. " '" .. helper.lua_interpreter() .. "' -e '" .. code .. "' 2>&1"
    local p = io.popen(cmd)
    local out = p:read("a")
    p:close()
    return out
  end
  it("a missing library is a clear error, and everything else still works", function()
    local out = run("GPUARRAY_NCCL=/nonexistent/libnccl.so.2",
      [[local ga = require "gpuarray"
        local ok, err = pcall(ga.core._dist_version, 0)
        print(ok, err)
        local ok2, why = ga.distributed.is_available()
        print(ga.cuda.is_available() and tostring(ok2) or "false", why)
        print((ga.arange(3) + 1):sum():item())]])
    assert.truthy(out:find("false", 1, true), out)
    assert.truthy(out:find("cannot load NCCL from GPUARRAY_NCCL=/nonexistent/libnccl.so.2", 1, true), out)
    assert.truthy(out:find("\n6\n", 1, true) or out:find("\n6$"), out)
  end)
  it("the library found on this machine (when it has one) reports its version", function()
    local ok, v = pcall(ga.core._dist_version, 0)
    if not ok then
      assert.truthy(tostring(v):find("NCCL", 1, true), tostring(v))
      pending("no NCCL here: " .. tostring(v))
      return
    end
    assert.is_true(v >= 20700, tostring(v))
    local id = ga.core._dist_unique_id(0)
    assert.are.equal(128, #id)
  end)
end)
