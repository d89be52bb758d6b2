-- Launch batching (src/cuda/ga_cuda_queue.c): kernels are queued and run as
-- cached CUDA graphs, in issue order, flushed before copies, cuBLAS, events
-- and synchronisation.  These check the results it gives, on every path
-- (short batches, graph capture, graph replay with new parameters, stream
-- changes, memory released while kernels are queued).  On the host they run
-- too, as a plain check of the same arithmetic.
local ga = require "gpuarray"
local helper = require "spec.helper"

describe("launch queue", function()
  for _, dev in ipairs(helper.devices()) do
    local xp = dev.xp
    describe("on " .. dev.name, function()
      it("a long chain of small ops gives the sequential result", function()
        local x = xp.zeros(7, "float64")
        for i = 1, 1000 do x = x + i end           -- 1000 launches: replayed graphs
        local want = 1000 * 1001 / 2
        for _, v in ipairs(x:totable()) do assert.are.equal(want, v) end
      end)

      it("batches of every length and mixed ops, replayed with new parameters", function()
        local a = xp.arange(5, "float32")
        for len = 1, 40 do
          local y = a
          for i = 1, len do
            if i % 3 == 0 then y = y * 2 elseif i % 3 == 1 then y = y + i else y = -y end
          end
          local want = {}
          for k = 0, 4 do
            local v = k
            for i = 1, len do
              if i % 3 == 0 then v = v * 2 elseif i % 3 == 1 then v = v + i else v = -v end
            end
            want[#want + 1] = v
          end
          assert.are.same(want, y:totable())
        end
      end)

      it("results written in place by queued kernels are seen by the next op and by get()", function()
        local x = xp.ones(1000, "int32")
        for _ = 1, 100 do xp.add(x, x, { out = x }) end  -- doubles, in place, 100 times (wraps)
        local t = x:get():totable()
        assert.are.equal(0, t[1])                         -- 2^100 wraps to 0 in int32
        local y = xp.ones(3, "int64")
        for _ = 1, 40 do xp.multiply(y, 2, { out = y }) end
        assert.are.same({ 2 ^ 40, 2 ^ 40, 2 ^ 40 }, y:totable())
      end)

      it("memory released while kernels are queued", function()
        local pool = ga.get_default_memory_pool()
        local keep = {}
        for i = 1, 50 do
          local t = xp.full(1024, i, "float32") * 2
          if i % 10 == 0 then keep[#keep + 1] = t end
          if i % 7 == 0 then collectgarbage(); pool:free_all_blocks() end
        end
        for j, t in ipairs(keep) do assert.are.equal(20 * j, t:totable()[1024]) end
      end)
    end)
  end

  it("keeps order across a change of stream", function()
    if not ga.cuda.is_available() then pending("no GPU") return end
    local s = ga.cuda.Stream()
    local x = ga.zeros(1 << 16, "float32")
    s:with(function()
      for _ = 1, 10 do ga.add(x, 1, { out = x }) end
    end)
    s:synchronize()
    for _ = 1, 10 do ga.multiply(x, 3, { out = x }) end
    assert.are.equal(10 * 3 ^ 10, x:get():totable()[1 << 16])
  end)

  it("GPUARRAY_BATCH=0 launches directly and gives the same results", function()
    if not ga.cuda.is_available() then pending("no GPU") return end
    local env = require("spec.helper").lua_env() .. " "
    local prog = " -e 'local ga = require \"gpuarray\"; local x = ga.zeros(4); " ..
      "for i = 1, 100 do x = x + i end; io.write(x:get():totable()[4])'"
    for _, b in ipairs({ "0", "1" }) do
      local p = assert(io.popen(env .. "GPUARRAY_BATCH=" .. b .. " lua5.4" .. prog .. " 2>&1"))
      assert.are.equal(5050, tonumber(p:read("a")))
      p:close()
    end
  end)
end)
