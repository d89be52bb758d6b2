--- Devices, streams and events: `ga.cuda`.
--
-- Device ids are CUDA ordinals, 0-based as in CuPy (`cuda:0`).  The current
-- device and each device's current stream belong to the Lua state, so
-- several states on several threads never see each other's choices.
-- @module gpuarray.cuda

local core = require "gpuarray.core"

local cuda = {}

--- Is at least one CUDA device usable?
-- @usage if ga.cuda.is_available() then print(ga.cuda.device_count()) end
function cuda.is_available() return core.device_count() > 0 end

--- Number of CUDA devices (0 without a driver or GPU).
function cuda.device_count() return core.device_count() end

-- Run fn with `enter` done and undone, even when fn raises.
local function with(obj, fn, ...)
  local guard = obj:enter()
  local res = table.pack(pcall(fn, ...))
  guard:close()
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

local function guard(restore)
  local done = false
  local g = {}
  function g.close() if not done then done = true; restore() end end
  return setmetatable(g, { __close = g.close })
end

---------------------------------------------------------------------------
-- Device

local Device = {}
local device_props = {}

Device.__index = function(self, k)
  if Device[k] then return Device[k] end
  local p = device_props[self.id]
  if not p then p = core.device_props(self.id); device_props[self.id] = p end
  if k == "name" then return p.name end
  if k == "compute_capability" then return tostring(p.major * 10 + p.minor) end
  if k == "multiprocessors" then return p.multiprocessors end
  if k == "total_memory" then return p.total_memory end
  return nil
end
Device.__tostring = function(self) return "<CUDA Device " .. self.id .. ">" end
Device.__eq = function(a, b) return a.id == b.id end

--- A CUDA device; `ga.cuda.Device()` is the current one.
-- @int[opt] id the device ordinal (0-based)
-- @usage ga.cuda.Device(0):with(function() local x = ga.zeros(3) end)
function cuda.Device(id)
  if id == nil then
    id = core.get_device()
    if id < 0 then error("cuda.Device: no CUDA device is current (running on the host)", 2) end
  end
  if math.type(id) ~= "integer" then error("cuda.Device: device id must be an integer", 2) end
  core.device_props(id)   -- raises for an invalid id
  return setmetatable({ id = id }, Device)
end

--- Make this device current for the rest of the program (or until changed).
function Device:use() core.set_device(self.id); return self end

--- Make the device current and return a to-be-closed guard restoring the
-- previous one: `local _ <close> = ga.cuda.Device(1):enter()`.
function Device:enter()
  local prev = core.get_device()
  core.set_device(self.id)
  return guard(function() core.set_device(prev) end)
end

--- Run fn(...) with this device current; the previous device is restored
-- even when fn raises.  Returns fn's results.
function Device:with(fn, ...) return with(self, fn, ...) end

--- Wait for all work on the device.
function Device:synchronize() core.device_synchronize(self.id) end

--- Free and total device memory in bytes.
function Device:mem_info() return core.mem_info(self.id) end

cuda.DeviceClass = Device

---------------------------------------------------------------------------
-- Streams (userdata made in C; methods added here)

local S = core.stream_mt.__index
local current = {}      -- device id -> current stream object
local nulls = {}        -- device id -> null stream object

local function cur_dev()
  local d = core.get_device()
  if d < 0 then error("cuda: no CUDA device is current (running on the host)", 3) end
  return d
end

local function null_stream(dev)
  local s = nulls[dev]
  if not s then s = core.stream_new(0, dev); nulls[dev] = s end
  return s
end

local function stream_device(s) return (s:_info()) end

--- The current stream of the current device.
-- @usage local s = ga.cuda.get_current_stream()
function cuda.get_current_stream()
  local d = cur_dev()
  return current[d] or null_stream(d)
end

--- Make this stream current for its device.
function S:use()
  local d = stream_device(self)
  core.stream_use(self)
  current[d] = self
  return self
end

--- Make the stream current; returns a to-be-closed guard restoring the previous one.
function S:enter()
  local d = stream_device(self)
  local prev = current[d] or null_stream(d)
  self:use()
  return guard(function() prev:use() end)
end

--- Run fn(...) with this stream current (restored even when fn raises).
function S:with(fn, ...) return with(self, fn, ...) end

--- The stream's device ordinal.
function S:device_id() return stream_device(self) end

cuda.Stream = setmetatable({}, {
  --- `ga.cuda.Stream{non_blocking=true}`: a new stream on the current device.
  __call = function(_, opts)
    opts = opts or {}
    if type(opts) ~= "table" then error("cuda.Stream: options must be a table", 2) end
    return core.stream_new(opts.non_blocking and 2 or 1, cur_dev())
  end,
  --- `ga.cuda.Stream.null`: the default (legacy null) stream of the current device.
  __index = function(_, k) if k == "null" then return null_stream(cur_dev()) end end,
})

---------------------------------------------------------------------------
-- Events

local E = core.event_mt.__index

--- `ga.cuda.Event()`: an event on the current device.
-- @usage local e1, e2 = ga.cuda.Event(), ga.cuda.Event(); e1:record(); ...; e2:record(); e2:synchronize()
function cuda.Event() return core.event_new() end

--- Record the event on `stream` (default: the current stream).
function E:record(stream) core.event_record(self, stream or cuda.get_current_stream()); return self end

--- Milliseconds between two recorded events.
function cuda.get_elapsed_time(e1, e2) return core.get_elapsed_time(e1, e2) end

return cuda
