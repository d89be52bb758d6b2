--- Devices, streams and events: `ga.cuda`.
--
-- Device ids are CUDA ordinals, 0-based as in CuPy (`cuda:0`).  The current
-- device and each device's current stream belong to the Lua state, so
-- several states on several threads never see each other's choices.
--
-- **Code that runs anywhere.**  When the host is current (no GPU, or
-- `GPUARRAY_DEVICE=cpu`), `Device()` is the host device `<CPU>`, and
-- streams (`get_current_stream()`, `Stream.null`, `Stream{}`) and events
-- are host objects that do nothing but keep time: `synchronize` returns at
-- once (host work is done when its call returns), an event records the
-- host clock, so `get_elapsed_time` measures what ran between two records.
-- Timing code written for the GPU runs unchanged on a CPU-only machine.
-- What needs a GPU says so: `Device(0)` without one, `Device:mem_info()`
-- of the host.
-- @module gpuarray.cuda

local core = require "gpuarray.core"

local cuda = {}

--- Is at least one CUDA device usable?
-- @treturn boolean
-- @usage if ga.cuda.is_available() then print(ga.cuda.device_count()) end
function cuda.is_available() return core.device_count() > 0 end

--- Number of CUDA devices (0 without a driver or GPU).
-- @treturn int
-- @usage print(ga.cuda.device_count())   --> 0 on a machine without a GPU
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

-- Device --------------------------------------------------------------------

--- Devices.
-- A CUDA device is made by `ga.cuda.Device(id)`.  Two Device objects with
-- the same id are equal (`==`); `tostring(d)` is `"<CUDA Device 0>"`.
-- @section Device
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
Device.__concat = function(a, b) return tostring(a) .. tostring(b) end
local objects = {}   -- id -> the one Device object of that id (x.device returns it)

--- The device ordinal (0-based), as in `cuda:0`.
-- @field Device.id
-- @usage print(ga.cuda.Device(0).id)   --> 0

--- The device's name, such as `"NVIDIA H200"`.
-- @field Device.name
-- @usage print(ga.cuda.Device(0).name)

--- The compute capability as a string: `"90"` for 9.0.
-- @field Device.compute_capability
-- @usage print(ga.cuda.Device(0).compute_capability)

--- Number of streaming multiprocessors.
-- @field Device.multiprocessors
-- @usage print(ga.cuda.Device(0).multiprocessors)

--- Total device memory in bytes.
-- @field Device.total_memory
-- @usage print(ga.cuda.Device(0).total_memory)

local HostDevice   -- below: the host's device object

--- A CUDA device; `ga.cuda.Device()` is the current one.  Making the
-- object does not change the current device (see `Device:use`,
-- `Device:with`, `Device:enter`).
-- @int[opt] id the device ordinal (0-based); by default the current device
--   (while the host is current: the host's device `<CPU>`, id -1, whose
--   `synchronize` returns at once and `use`/`with`/`enter` make the host
--   current)
-- @treturn Device
-- @raise `cuda.Device: invalid device id N (M devices)` for an id that does
--   not exist
-- @usage
-- local d = ga.cuda.Device(0)
-- print(d, d.id, d == ga.cuda.Device(0))   --> <CUDA Device 0>  0  true
-- d:with(function() local x = ga.zeros(3) end)
function cuda.Device(id)
  if id == nil then
    id = core.get_device()
    if id < 0 then return HostDevice end
  end
  if math.type(id) ~= "integer" then error("cuda.Device: device id must be an integer", 2) end
  if id >= 0 and objects[id] then return objects[id] end   -- (-1: the host is Device() only)
  local ok, err = pcall(core.device_props, id)   -- raises for an invalid id
  if not ok then error((tostring(err):gsub("^[^:]*:%d+: ", "")), 2) end
  objects[id] = setmetatable({ id = id }, Device)
  return objects[id]
end

--- Make this device current for the rest of the program (or until changed).
-- @treturn Device the device itself
-- @usage
-- ga.cuda.Device(0):use()
-- print(ga.zeros(3).device)           --> <CUDA Device 0>
function Device:use() core.set_device(self.id); return self end

--- Make the device current and return a to-be-closed guard restoring the
-- previous one: `local _ <close> = ga.cuda.Device(1):enter()`.  The guard
-- can also be closed by hand with `guard:close()` (once; later calls do
-- nothing).
-- @return a guard whose `__close` (and `close`) restores the previous device
-- @usage
-- do
--   local _ <close> = ga.cuda.Device(0):enter()
--   local x = ga.zeros(3)               -- on cuda:0
-- end                                   -- the previous device is current again
function Device:enter()
  local prev = core.get_device()
  core.set_device(self.id)
  return guard(function() core.set_device(prev) end)
end

--- Run fn(...) with this device current; the previous device is restored
-- even when fn raises.  Returns fn's results.
-- @tparam function fn the function to run
-- @param ... its arguments
-- @return what fn returns (an error fn raises is raised again, unchanged)
-- @usage
-- local n = ga.cuda.Device(0):with(function(k) return ga.ones(k):item() end, 1)
-- print(n)                            --> 1.0
function Device:with(fn, ...) return with(self, fn, ...) end

--- Wait for all work on the device (every stream) to finish.
-- @usage
-- local y = ga.ones(1000) * 2
-- ga.cuda.Device(0):synchronize()
function Device:synchronize() core.device_synchronize(self.id) end

--- Free and total device memory in bytes (as `cudaMemGetInfo`).
-- @treturn int free bytes
-- @treturn int total bytes
-- @usage
-- local free, total = ga.cuda.Device(0):mem_info()
-- print(free <= total)                --> true
function Device:mem_info() return core.mem_info(self.id) end

--- The Device class: the metatable of Device objects, which holds their
-- methods.
-- @table cuda.DeviceClass
-- @usage print(type(ga.cuda.DeviceClass.with))   --> function
cuda.DeviceClass = Device

-- The host's device object: `ga.cuda.Device()` while the host is current.
local HD = {}
HD.__index = function(_, k)
  if HD[k] then return HD[k] end
  if k == "name" then return "cpu" end
end
HD.__tostring = function() return "<CPU>" end
HD.__concat = Device.__concat
function HD:use() core.set_device(-1); return self end
function HD.enter()
  local prev = core.get_device()
  core.set_device(-1)
  return guard(function() core.set_device(prev) end)
end
function HD:with(fn, ...) return with(self, fn, ...) end
function HD.synchronize() end   -- host work is done when its call returns
function HD.mem_info() error("cuda.Device:mem_info: the host has no device memory (this needs a GPU)", 2) end
HostDevice = setmetatable({ id = -1 }, HD)
objects[-1] = HostDevice

-- id -> the device object (-1: the host's), made on first use: x.device
-- (binding/lga_array.c asks here) and x:to(device) (init.lua)
core._devices = setmetatable({}, { __index = function(_, id) return objects[id] or cuda.Device(id) end })
core._device_objects(core._devices)

-- Streams (userdata made in C; methods added here) --------------------------

local S = core.stream_mt.__index
local current = {}      -- device id -> current stream object
local nulls = {}        -- device id -> null stream object

local function cur_dev() return core.get_device() end

-- Host streams: what the current stream is while the host is current.
-- Every method is a no-op that keeps the GPU stream's contract.
local HS = {}
HS.__index = HS
HS.__tostring = function(self) return self.null and "<Stream null (host)>" or "<Stream (host)>" end
function HS:use() current[-1] = self; return self end
function HS:enter()
  local prev = current[-1] or nulls[-1]
  self:use()
  return guard(function() prev:use() end)
end
function HS:with(fn, ...) return with(self, fn, ...) end
function HS.device_id() return -1 end
function HS.synchronize() end
function HS.done() return true end
nulls[-1] = setmetatable({ null = true }, HS)

local function null_stream(dev)
  if dev < 0 then return nulls[-1] end
  local s = nulls[dev]
  if not s then s = core.stream_new(0, dev); nulls[dev] = s end
  return s
end

local function stream_device(s) return (s:_info()) end

--- Streams.
-- A CUDA stream is made by `ga.cuda.Stream{}` (or is `ga.cuda.Stream.null`).
-- Work is queued on the current stream of the current device; each device
-- has its own current stream, the null stream until another is made
-- current.
-- @section Stream

--- The current stream of the current device.
-- @treturn Stream
-- @usage
-- local s = ga.cuda.get_current_stream()
-- s:synchronize()
function cuda.get_current_stream()
  local d = cur_dev()
  return current[d] or null_stream(d)
end

--- Make this stream current for its device (the stream's device, which need
-- not be the current one).
-- @function Stream:use
-- @treturn Stream the stream itself
-- @usage
-- local s = ga.cuda.Stream():use()
-- print(rawequal(ga.cuda.get_current_stream(), s))   --> true
function S:use()
  local d = stream_device(self)
  core.stream_use(self)
  current[d] = self
  return self
end

--- Make the stream current; returns a to-be-closed guard restoring the previous one.
-- @function Stream:enter
-- @return a guard whose `__close` (and `close`) restores the previous stream
-- @usage
-- local s = ga.cuda.Stream{non_blocking = true}
-- do
--   local _ <close> = s:enter()
--   local y = ga.ones(1000) * 2         -- queued on s
-- end
-- s:synchronize()
function S:enter()
  local d = stream_device(self)
  local prev = current[d] or null_stream(d)
  self:use()
  return guard(function() prev:use() end)
end

--- Run fn(...) with this stream current (restored even when fn raises).
-- @function Stream:with
-- @tparam function fn the function to run
-- @param ... its arguments
-- @return what fn returns
-- @usage
-- local s = ga.cuda.Stream()
-- local y = s:with(function() return ga.ones(1000) * 3 end)
-- s:synchronize()                     -- y is ready now
-- print(y.shape[1])                   --> 1000
function S:with(fn, ...) return with(self, fn, ...) end

--- The stream's device ordinal.
-- @function Stream:device_id
-- @treturn int
-- @usage print(ga.cuda.Stream():device_id())   --> 0
function S:device_id() return stream_device(self) end

--- Wait until all work queued on the stream has finished.
-- @function Stream:synchronize
-- @usage
-- local s = ga.cuda.Stream()
-- s:with(function() local y = ga.ones(1000) * 2 end)
-- s:synchronize()

--- Has all work queued on the stream finished?  (Does not wait.)
-- @function Stream:done
-- @treturn boolean
-- @usage
-- local s = ga.cuda.Stream()
-- s:synchronize()
-- print(s:done())                     --> true

--- The null stream (CUDA's legacy default stream) of the current device.
-- @field Stream.null
-- @usage ga.cuda.Stream.null:synchronize()

--- A new stream on the current device: `ga.cuda.Stream{non_blocking=true}`.
-- (`ga.cuda.Stream` is a callable table; `ga.cuda.Stream.null` is the null
-- stream.)
-- @function cuda.Stream
-- @tparam[opt] table opts `{non_blocking = true}` for a stream that does
--   not synchronise with the null stream
-- @treturn Stream
-- @usage
-- local s = ga.cuda.Stream{non_blocking = true}
-- s:with(function() local y = ga.ones(1000) * 3 end)
-- s:synchronize()

cuda.Stream = setmetatable({}, {
  -- `ga.cuda.Stream{non_blocking=true}`: a new stream on the current device.
  __call = function(_, opts)
    opts = opts or {}
    if type(opts) ~= "table" then error("cuda.Stream: options must be a table", 2) end
    local d = cur_dev()
    if d < 0 then return setmetatable({}, HS) end
    return core.stream_new(opts.non_blocking and 2 or 1, d)
  end,
  -- `ga.cuda.Stream.null`: the default (legacy null) stream of the current device.
  __index = function(_, k) if k == "null" then return null_stream(cur_dev()) end end,
})

-- Events --------------------------------------------------------------------

--- Events.
-- A CUDA event is made by `ga.cuda.Event()`: a marker recorded on a stream,
-- to wait for or to time GPU work with.
-- @section Event
local E = core.event_mt.__index

--- `ga.cuda.Event()`: an event on the current device.
-- @treturn Event
-- @usage
-- local e1, e2 = ga.cuda.Event(), ga.cuda.Event()
-- e1:record()
-- local y = ga.ones(1000) * 2
-- e2:record()
-- e2:synchronize()
-- @function cuda.Event
local HE = {}   -- host events: the host clock at record()
HE.__index = HE
HE.__tostring = function() return "<Event (host)>" end
function cuda.Event(...)
  if core.get_device() < 0 then return setmetatable({}, HE) end
  return core.event_new(...)
end
function HE:record(stream)
  if stream ~= nil and getmetatable(stream) ~= HS then
    error("Event:record: a host event records on a host stream (this stream is a GPU's)", 2)
  end
  self.t = core.clock()
  return self
end
function HE.synchronize() end
function HE.done() return true end

--- Record the event on `stream` (default: the current stream of the
-- current device).
-- @function Event:record
-- @tparam[opt] Stream stream
-- @treturn Event the event itself
-- @usage
-- local s = ga.cuda.Stream()
-- local e = ga.cuda.Event():record(s)
-- e:synchronize()
function E:record(stream) core.event_record(self, stream); return self end

--- Wait until the work recorded before the event has finished.
-- @function Event:synchronize
-- @usage
-- local e = ga.cuda.Event()
-- local y = ga.ones(1000) * 2
-- e:record()
-- e:synchronize()

--- Milliseconds between two recorded events.  The second one must have
-- completed (after `e2:synchronize()`, say).
-- @tparam Event e1 the start
-- @tparam Event e2 the end
-- @treturn number milliseconds
-- @usage
-- local e1, e2 = ga.cuda.Event(), ga.cuda.Event()
-- e1:record()
-- local y = ga.ones(1000000) * 3
-- e2:record()
-- e2:synchronize()
-- print(ga.cuda.get_elapsed_time(e1, e2), "ms")
function cuda.get_elapsed_time(e1, e2)
  local h1, h2 = getmetatable(e1) == HE, getmetatable(e2) == HE
  if h1 or h2 then
    if not (h1 and h2) then error("cuda.get_elapsed_time: one host event and one GPU event", 2) end
    if not (e1.t and e2.t) then error("cuda.get_elapsed_time: both events must have been recorded", 2) end
    return (e2.t - e1.t) * 1e3
  end
  return core.get_elapsed_time(e1, e2)
end

-- The sync ledger -------------------------------------------------------------

--- The sync ledger: counts every implicit host-device synchronisation
-- (`item()`, `tostring`, `get`/`tolist`, boolean masks, `nonzero`, ... each
-- blocking read-back a backend makes) under the Lua call site that caused
-- it, `file:line` of the first frame that is not gpuarray's own, so the
-- hidden `:item()` in a hot loop shows up.  Calling it starts counting (the
-- state's one ledger; started again after `stop`); `GPUARRAY_SYNC_LEDGER=1`
-- starts it when the module loads and prints the report to stderr when the
-- state closes.  The host makes no synchronisations: there it counts 0.
-- Within a coroutine the site is where the main thread resumed it.
-- @treturn SyncLedger with `:total()`, `:counts()` (a table site -> count),
--   `:report([n])` (the table as text, the n biggest; also `tostring`),
--   `:reset()` and `:stop()`
-- @usage
-- local ledger = ga.cuda.sync_ledger()
-- local x = ga.arange(10)
-- for i = 1, 3 do local v = x[{ i }]:item() end   -- 3 synchronisations on a GPU
-- print(ledger:total() >= 0, type(ledger:counts()))   --> true  table
-- print(ledger:report(5))
-- ledger:stop()
function cuda.sync_ledger() return core.sync_ledger() end

return cuda
