-- Every examples/*.lua runs as written with a Lua 5.4 interpreter in a
-- subprocess (LUA_PATH/LUA_CPATH pointing at lua/ and build/) and exits 0;
-- bench/run.lua prints one JSON object.
local helper = require "spec.helper"

local function run(cmd)
  local out = os.tmpname()
  local ok, how, code = os.execute(cmd .. " > " .. out .. " 2>&1")
  local fh = io.open(out)
  local text = fh and fh:read("a") or ""
  if fh then fh:close() end
  os.remove(out)
  return ok, how, code, text
end

local function list_examples() return helper.glob("examples/*.lua") end

describe("examples", function()
  local files = list_examples()
  it("the examples of the issues exist", function()
    local have = {}
    for _, f in ipairs(files) do have[f] = true end
    for _, name in ipairs { "first_program", "transfer_overhead", "devices_and_streams", "memory_pool",
                            "softmax", "norm" } do
      assert.is_true(have["examples/" .. name .. ".lua"], "examples/" .. name .. ".lua missing")
    end
  end)
  for _, f in ipairs(files) do
    it(f .. " runs and exits with status 0", function()
      local cmd = helper.lua_env() .. " " .. helper.lua_interpreter() .. " " .. f
      local ok, how, code, text = run(cmd)
      assert.is_true(ok == true and how == "exit" and code == 0,
        string.format("%s: %s %s\n%s", f, tostring(how), tostring(code), text:sub(-3000)))
      assert.is_true(#text > 0, f .. " printed nothing")
      if not helper.has_gpu() then
        assert.is_truthy(text:lower():find("no gpu", 1, true), f .. " does not say that there is no GPU:\n" .. text)
      end
    end)
  end
end)

describe("bench/run.lua", function()
  local function check_json(text)
    local body = text:match("^%s*(%b{})%s*$")
    assert.is_truthy(body, "output is not one JSON object:\n" .. text:sub(1, 2000))
    assert.matches('"library": "gpuarray', body, 1, true)
    return body
  end
  it("without a GPU prints {library, gpu: null, note} and exits 0", function()
    if helper.has_gpu() then pending("GPU present: see the quick run"); return end
    local ok, how, code, text = run("(" .. helper.lua_env() .. " " .. helper.lua_interpreter() ..
      " bench/run.lua 2>/dev/null)")
    assert.is_true(ok == true and code == 0, tostring(how) .. " " .. tostring(code) .. "\n" .. text)
    local body = check_json(text)
    assert.matches('"gpu": null', body, 1, true)
    assert.matches('"note": "no GPU"', body, 1, true)
  end)
  it("with a GPU, a quick run (GPUARRAY_BENCH_QUICK=1) fills every key with no errors", function()
    if not helper.has_gpu() then pending("no GPU"); return end
    local ok, how, code, text = run("(GPUARRAY_BENCH_QUICK=1 " .. helper.lua_env() .. " " ..
      helper.lua_interpreter() .. " bench/run.lua 2>/dev/null)")
    assert.is_true(ok == true and code == 0, tostring(how) .. " " .. tostring(code) .. "\n" .. text)
    local body = check_json(text)
    assert.is_falsy(body:find('"errors"', 1, true), "bench sections failed:\n" .. body)
    for _, k in ipairs { "cold_compile_ms", "warm_first_add_ms", "overhead_add_us", "overhead_scalar_mul_us",
                         "overhead_empty_us", "copy_f32_GBps", "add_f32_GBps", "scale_f32_GBps",
                         "matmul_f32_8192_TFLOPs", "matmul_f64_8192_TFLOPs", "matmul_f16_8192_TFLOPs",
                         "h2d_GBps", "d2h_GBps" } do
      assert.matches('"' .. k .. '": [%d%.e+-]+', body, nil, false)
    end
  end)
end)
