-- The documentation stays true to the code:
--
-- * every `@usage` example in lua/gpuarray/*.lua and every ```lua block of
--   README.md runs without error, with `ga` bound to `require "gpuarray"`,
--   in this process but in a global environment of its own (run_example);
-- * every public function, method, metamethod and attribute of the API has
--   an LDoc comment with a description and an `@usage` example, and every
--   documented name exists.
--
-- GPU rule: an example that mentions `ga.cuda.X` for any X other than
-- `is_available`, `device_count` and `DeviceClass` needs a CUDA device; it
-- runs only when `ga.cuda.is_available()`, and is pending otherwise (it is
-- still compiled).  Every other example runs everywhere: on a machine without
-- a GPU, `ga.zeros` etc. make host arrays.
local helper = require "spec.helper"
-- SPEC_SHARD=k/n: every n-th case (tools/run_specs.sh spreads the file)
local it = helper.shard_it(it)
local ga = helper.ga

local NO_GPU_NEEDED = { is_available = true, device_count = true, DeviceClass = true }

local function needs_gpu(code)
  for name in code:gmatch("ga%.cuda%.([%w_]+)") do
    if not NO_GPU_NEEDED[name] then return true end
  end
  return false
end

local function read_lines(path)
  local lines = {}
  for line in io.lines(path) do lines[#lines + 1] = line end
  return lines
end

local function lua_files() return helper.glob("lua/gpuarray/*.lua") end

-- LDoc comment blocks ----------------------------------------------------

local function is_block_start(line)
  return line:match("^%s*%-%-%-$") or line:match("^%s*%-%-%-[^%-]")
end

local function is_comment(line)
  return line:match("^%s*%-%-") ~= nil
end

-- The prefix a file's own table has in the code, and the public name it maps to.
local PREFIX = {
  ["lua/gpuarray/cuda.lua"] = { "^cuda%.", "ga.cuda." },
  ["lua/gpuarray/format.lua"] = { "^M%.", "format." },
}

-- Parse one file into blocks: {file, line, name, kind, summary, usage, fields}.
-- The name is the one LDoc would use: @function/@table/standalone @field,
-- else the function defined on the line right after the block.
local function parse_blocks(path)
  local lines = read_lines(path)
  local blocks = {}
  local i = 1
  while i <= #lines do
    if is_block_start(lines[i]) then
      local first = i
      local text = { (lines[i]:gsub("^%s*%-%-%-%s?", "")) }
      i = i + 1
      while i <= #lines and is_comment(lines[i]) and not is_block_start(lines[i]) do
        text[#text + 1] = (lines[i]:gsub("^%s*%-%-%s?", ""))
        i = i + 1
      end
      local b = { file = path, line = first, tags = {}, fields = {}, desc = {} }
      local cur   -- the tag whose lines are being collected
      for _, t in ipairs(text) do
        local tag, rest = t:match("^%s*@([%w_]+)%S*%s?(.*)$")
        if tag then
          cur = { name = tag, lines = {} }
          if rest ~= "" then cur.lines[1] = rest end
          b.tags[#b.tags + 1] = cur
        elseif cur then
          cur.lines[#cur.lines + 1] = t
        else
          b.desc[#b.desc + 1] = t
        end
      end
      for _, tag in ipairs(b.tags) do
        local value = table.concat(tag.lines, "\n")
        local word = value:match("^%s*([%w_.:]+)")
        if tag.name == "function" or tag.name == "table" then
          b.kind, b.name = tag.name, word
        elseif tag.name == "type" or tag.name == "section" or tag.name == "module" then
          b.kind = tag.name
        elseif tag.name == "field" then
          b.fields[#b.fields + 1] = word
        elseif tag.name == "usage" then
          b.usage = value
        end
      end
      if not b.kind and #b.fields > 0 then   -- a standalone field
        b.kind, b.name, b.fields = "field", b.fields[1], {}
      end
      if not b.kind then   -- infer from the code that follows
        local code = lines[i] or ""
        local fname = code:match("^%s*function%s+([%w_.:]+)%s*%(")
        if fname then b.kind, b.name = "function", fname end
      end
      local p = PREFIX[path]
      if b.name and p then b.name = b.name:gsub(p[1], p[2]) end
      b.summary = (b.desc[1] or ""):match("%S.*")
      blocks[#blocks + 1] = b
    else
      i = i + 1
    end
  end
  return blocks
end

local function readme_blocks()
  local lines = read_lines("README.md")
  local out = {}
  local i = 1
  while i <= #lines do
    if lines[i]:match("^```lua%s*$") then
      local first, code = i, {}
      i = i + 1
      while i <= #lines and not lines[i]:match("^```") do
        code[#code + 1] = lines[i]
        i = i + 1
      end
      out[#out + 1] = { file = "README.md", line = first, usage = table.concat(code, "\n") }
    end
    i = i + 1
  end
  return out
end

-- Running an example ------------------------------------------------------

local PRELUDE = 'local ga = require "gpuarray"\n'

-- An example runs in this process (a subprocess each cost a CUDA context:
-- most of the suite's time on a GPU) but as if alone: its own global
-- environment (nothing it defines reaches the next one), its prints
-- captured, a full collection after it.  load_example compiles it (nil and
-- the message when it does not); run_example runs the chunk and returns
-- ok and the output.
local function load_example(code, where)
  local out = {}
  local env = setmetatable({}, { __index = _G })
  env._G = env
  env.print = function(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = tostring(t[i]) end
    out[#out + 1] = table.concat(t, "\t", 1, t.n)
  end
  env.io = setmetatable({ write = function(...) out[#out + 1] = table.concat({ ... }) end }, { __index = io })
  local chunk, err = load(PRELUDE .. code, "=" .. where, "t", env)
  return chunk and { chunk = chunk, out = out } or nil, err
end

local function run_example(ex)
  local ok, msg = xpcall(ex.chunk, debug.traceback)
  collectgarbage("collect")
  if not ok then ex.out[#ex.out + 1] = tostring(msg) end
  return ok, table.concat(ex.out, "\n")
end

local function example_cases(label, examples)
  describe(label, function()
    for _, ex in ipairs(examples) do
      local where = ex.file .. ":" .. ex.line .. (ex.name and (" " .. ex.name) or "")
      it(where .. " runs", function()
        local loaded, err = load_example(ex.usage, where)
        assert.is_truthy(loaded, "does not compile: " .. tostring(err) .. "\n" .. ex.usage)
        if needs_gpu(ex.usage) and not helper.has_gpu() then
          pending("needs a GPU (mentions ga.cuda.*)")
          return
        end
        -- ga.cudnn on a GPU needs the cuDNN library (GPUARRAY_CUDNN)
        if ex.usage:find("ga.cudnn.", 1, true) and helper.has_gpu() and not ga.cudnn.available() then
          pending("needs cuDNN on this GPU machine (set GPUARRAY_CUDNN=/path/to/libcudnn.so.9)")
          return
        end
        local ok, text = run_example(loaded)
        assert.is_true(ok, where .. " failed:\n" .. ex.usage .. "\n---- output:\n" .. text:sub(-3000))
      end)
    end
  end)
end

-- The specs ----------------------------------------------------------------

local all_blocks, documented = {}, {}
for _, f in ipairs(lua_files()) do
  for _, b in ipairs(parse_blocks(f)) do
    all_blocks[#all_blocks + 1] = b
    if b.name then
      documented[b.name] = b
      for _, fld in ipairs(b.fields) do documented[b.name .. "." .. fld] = b end
    end
  end
end

local usages = {}
for _, b in ipairs(all_blocks) do
  if b.usage then usages[#usages + 1] = b end
end


describe("docs", function()
  it("the doc comment parser finds the blocks it should", function()
    assert.is_true(#usages >= 60, "only " .. #usages .. " @usage examples found")
    assert.is_truthy(documented["ga.zeros"], "ga.zeros")
    assert.is_truthy(documented["ga.cuda.Device"], "ga.cuda.Device")
    assert.is_truthy(documented["ndarray:get"], "ndarray:get")
    assert.is_truthy(documented["ndarray.shape"], "ndarray.shape")
    assert.is_truthy(documented["Pool:used_bytes"], "Pool:used_bytes")
  end)
  it("the GPU rule: ga.cuda.X needs a GPU, except is_available, device_count, DeviceClass", function()
    assert.is_false(needs_gpu("print(ga.cuda.is_available(), ga.cuda.device_count())"))
    assert.is_false(needs_gpu("print(ga.zeros(3))"))
    assert.is_true(needs_gpu("ga.cuda.Device(0):use()"))
    assert.is_true(needs_gpu("local s = ga.cuda.Stream{}"))
  end)
end)

example_cases("docs: @usage examples of lua/gpuarray/*.lua", usages)
example_cases("docs: ```lua blocks of README.md", readme_blocks())

-- What the API exposes, as the names the doc comments use.
local function required_names()
  local names = {}
  local function add(n) names[#names + 1] = n end
  for k, v in pairs(ga) do
    if type(v) == "function" then add("ga." .. k) end
  end
  add("ga.host")
  for k, v in pairs(ga.cuda) do
    if type(v) == "function" or type(v) == "table" then add("ga.cuda." .. k) end
  end
  for k in pairs(ga.core.ndarray_methods) do
    if not k:match("^_") then add("ndarray:" .. k) end
  end
  local internal_mm = { __index = true, __newindex = true, __gc = true, __name = true, __metatable = true }
  for k in pairs(ga.core.ndarray_mt) do
    if k:match("^__") and not internal_mm[k] then add("ndarray:" .. k) end
  end
  for _, k in ipairs { "shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides",
                       "device", "base", "flags", "T", "data_ptr" } do
    add("ndarray." .. k)
  end
  for k, v in pairs(ga.cuda.DeviceClass) do
    if type(v) == "function" and not k:match("^_") then add("Device:" .. k) end
  end
  for _, k in ipairs { "id", "name", "compute_capability", "multiprocessors", "total_memory" } do
    add("Device." .. k)
  end
  for k in pairs(ga.core.stream_mt.__index) do
    if not k:match("^_") then add("Stream:" .. k) end
  end
  add("Stream.null")
  for k in pairs(ga.core.event_mt.__index) do
    if not k:match("^_") then add("Event:" .. k) end
  end
  local Pool = getmetatable(ga.get_default_memory_pool()).__index
  for k, v in pairs(Pool) do
    if type(v) == "function" and not k:match("^_") then add("Pool:" .. k) end
  end
  for k, v in pairs(require "gpuarray.format") do
    if type(v) == "function" then add("format." .. k) end
  end
  add("ga.core.clock")
  for k, v in pairs(ga.random) do
    if type(v) == "function" then add("ga.random." .. k) end
  end
  for k, v in pairs(ga.random._State) do
    if type(v) == "function" and not k:match("^_") then add("RandomState:" .. k) end
  end
  for k, v in pairs(ga.random._Generator) do
    if type(v) == "function" and not k:match("^_") then add("Generator:" .. k) end
  end
  for k, v in pairs(ga.random._Curand) do
    if type(v) == "function" and not k:match("^_") then add("CurandBitGenerator:" .. k) end
  end
  for k, v in pairs(ga.fft.config) do
    if type(v) == "function" and not k:match("^_") then add("ga.fft.config." .. k) end
  end
  for k, v in pairs(ga.fft.config._PlanCache) do
    if type(v) == "function" and not k:match("^_") then add("PlanCache:" .. k) end
  end
  for k in pairs(getmetatable(ga.fuse(function() end)).__index) do add("fused:" .. k) end
  for _, m in ipairs { "testing", "profiler", "fft", "linalg", "cudnn" } do
    for k, v in pairs(ga[m]) do
      if type(v) == "function" then add("ga." .. m .. "." .. k) end
    end
  end
  for k, v in pairs(ga.distributed) do
    if type(v) == "function" then add("ga.distributed." .. k) end
  end
  for k, v in pairs(ga.distributed._Comm) do
    if type(v) == "function" and not k:match("^_") then add("Comm:" .. k) end
  end
  table.sort(names)
  return names
end

-- Does a documented name exist in the code?
local function exists(name)
  local x = ga.host.zeros({ 2, 3 })
  local Pool = getmetatable(ga.get_default_memory_pool()).__index
  local kind, key = name:match("^(%w+)[:.](.+)$")
  if name:match("^ga%.") then
    local t = { ga = ga }
    for part in name:gmatch("[^.]+") do
      if type(t) ~= "table" then return false end
      t = t[part]
    end
    return t ~= nil
  elseif kind == "ndarray" then
    if name:find(":", 1, true) then
      return ga.core.ndarray_methods[key] ~= nil or ga.core.ndarray_mt[key] ~= nil
    end
    return (pcall(function() return x[key] end))
  elseif kind == "Device" then
    if name:find(":", 1, true) then return ga.cuda.DeviceClass[key] ~= nil end
    if helper.has_gpu() then return ga.cuda.Device(0)[key] ~= nil end
    return ({ id = true, name = true, compute_capability = true, multiprocessors = true,
              total_memory = true })[key] == true
  elseif kind == "Stream" then
    if key == "null" then return true end
    return ga.core.stream_mt.__index[key] ~= nil
  elseif kind == "Event" then
    return ga.core.event_mt.__index[key] ~= nil
  elseif kind == "Pool" then
    return Pool[key] ~= nil
  elseif kind == "RandomState" then
    return ga.random._State[key] ~= nil
  elseif kind == "Generator" then
    return ga.random._Generator[key] ~= nil
  elseif kind == "CurandBitGenerator" then
    return rawget(ga.random._Curand, key) ~= nil
  elseif kind == "Comm" then
    return ga.distributed._Comm[key] ~= nil
  elseif kind == "PlanCache" then
    return ga.fft.config._PlanCache[key] ~= nil
  elseif kind == "fused" then
    return getmetatable(ga.fuse(function() end)).__index[key] ~= nil
  elseif kind == "format" then
    return (require "gpuarray.format")[key] ~= nil
  end
  return false
end

describe("docs: every public name has an LDoc comment with an example", function()
  for _, name in ipairs(required_names()) do
    it(name, function()
      local b = documented[name]
      assert.is_truthy(b, name .. " has no LDoc comment in lua/gpuarray/*.lua " ..
        "(document it with a --- block and @function/@field " .. name .. ")")
      assert.is_truthy(b.summary, name .. " (" .. b.file .. ":" .. b.line .. ") has no description")
      assert.is_truthy(b.usage and b.usage:match("%S"),
        name .. " (" .. b.file .. ":" .. b.line .. ") has no @usage example")
    end)
  end
  it("every host creation function and ufunc has a ga.X of the same name", function()
    for k, v in pairs(ga.host) do
      if type(v) == "function" then
        assert.are.equal("function", type(ga[k]), "ga.host." .. k .. " has no ga." .. k)
      end
    end
  end)
  it("every documented name exists in the code", function()
    local stale = {}
    for name, b in pairs(documented) do
      if not exists(name) then stale[#stale + 1] = name .. " (" .. b.file .. ":" .. b.line .. ")" end
    end
    table.sort(stale)
    assert.are.same({}, stale)
  end)
end)
