-- bench/crossover.lua in quick mode: the tables, the model's line and the
-- SVG (two log-log panels, a legend, one line per series).
local helper = require "spec.helper"

describe("bench/crossover.lua --quick", function()
  it("prints the times and writes crossover.svg", function()
    local svg = os.tmpname()
    local p = io.popen(helper.lua_env() .. " " .. helper.lua_interpreter() .. " bench/crossover.lua --quick --svg " ..
                       svg .. " 2>&1")
    local out = p:read("a")
    local ok = p:close()
    assert.is_true(ok, out)
    for _, part in ipairs { "matmul n", "add n", "GPU + transfers", svg .. " written" } do
      assert.is_truthy(out:find(part, 1, true), out)
    end
    assert.is_true(select(2, out:gsub("\n%d+ +[%d.e+-]+ ms", "")) >= 8, out)   -- 4 matmul and 4 add rows
    local f = assert(io.open(svg))
    local s = f:read("a")
    f:close()
    os.remove(svg)
    assert.is_truthy(s:match("^<svg xmlns=\"http://www.w3.org/2000/svg\""), s:sub(1, 100))
    assert.is_truthy(s:find("matmul float32 (n x n)", 1, true))
    assert.is_truthy(s:find("add float32 (n elements)", 1, true))
    local lines = select(2, s:gsub("<polyline", ""))
    if helper.has_gpu() then
      assert.are.equal(6, lines)
      assert.is_truthy(out:find("matmul crossover: measured n = ", 1, true), out)
      assert.is_truthy(out:find("model n* = ", 1, true), out)
    else
      assert.are.equal(2, lines)
      assert.is_truthy(out:find("no GPU: host times only", 1, true), out)
    end
    assert.is_truthy(s:find("GPU + transfers", 1, true) or not helper.has_gpu())
    assert.is_truthy(s:find(">host<", 1, true))   -- the legend
    assert.is_truthy(s:match("</svg>\n$"))
  end)

  it("refuses an unknown argument", function()
    local p = io.popen(helper.lua_env() .. " " .. helper.lua_interpreter() .. " bench/crossover.lua --fast 2>&1")
    local out = p:read("a")
    assert.is_falsy(p:close())
    assert.is_truthy(out:find("crossover.lua: unknown argument --fast", 1, true), out)
  end)
end)
