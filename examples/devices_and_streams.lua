-- devices_and_streams.lua — choosing devices and streams, timing with events.
--
--   ga.cuda.Device(id):with(fn)         run fn with that device current
--   local _ <close> = Device(id):enter() the same for the rest of a block
--   ga.cuda.Stream{non_blocking=true}   a stream; :with / :enter as above
--   ga.cuda.Event(), e:record(), ga.cuda.get_elapsed_time(e1, e2)
--
-- The previous device or stream comes back when the block ends, even when
-- it ends with an error.
local ga = require "gpuarray"
local cuda = ga.cuda

print("CUDA available: " .. tostring(cuda.is_available()) .. ", devices: " .. cuda.device_count())

if not cuda.is_available() then
  print("No GPU: arrays live on the host (device '" .. ga.zeros(1).device .. "').")
  local ok, err = pcall(cuda.Device, 0)
  print("ga.cuda.Device(0) -> " .. (ok and "ok" or ("error: " .. tostring(err))))
  local x = ga.arange(0, 6, 1, "float32")
  print("host computation still works: " .. tostring(x * 2 + 1))
  return
end

-- Devices ----------------------------------------------------------------
for id = 0, cuda.device_count() - 1 do
  local d = cuda.Device(id)
  local free, total = d:mem_info()
  print(string.format("  device %d: %s, compute capability %s, %.1f of %.1f GiB free",
    id, d.name, d.compute_capability, free / 2 ^ 30, total / 2 ^ 30))
end
print("current device: " .. cuda.Device().id)

-- with(): results come back, the device is restored
local dev_of_x = cuda.Device(0):with(function()
  local x = ga.ones(4)
  return x.device
end)
print("made inside Device(0):with -> " .. dev_of_x)

-- enter(): a to-be-closed guard
do
  local _ <close> = cuda.Device(cuda.device_count() - 1):enter()
  print("inside enter(): current device " .. cuda.Device().id)
end
print("after the block: current device " .. cuda.Device().id)

-- restored even when the body raises
local ok, err = pcall(function()
  cuda.Device(0):with(function() error("something went wrong") end)
end)
print("error propagated: " .. tostring(not ok) .. " (" .. tostring(err) .. "); device now " .. cuda.Device().id)

-- Streams and events ------------------------------------------------------
local n = 1 << 24
local s = cuda.Stream { non_blocking = true }
local start, stop = cuda.Event(), cuda.Event()
local y
s:with(function()
  local x = ga.ones(n, "float32")
  x = x * 2 -- warm-up: compile the kernel
  start:record()         -- on the current stream: s
  for _ = 1, 10 do x = x * 1.5 + 1 end
  stop:record()
  y = x
end)
stop:synchronize()
print(string.format("10 x (x * 1.5 + 1) on %d floats, non-blocking stream: %.3f ms (events)",
  n, cuda.get_elapsed_time(start, stop)))
print("stream done: " .. tostring(s:done()) .. "; current stream is the null stream again: "
  .. tostring(cuda.get_current_stream() == cuda.Stream.null))

local z
do
  local _ <close> = s:enter()
  z = ga.arange(0, 4, 1, "float32") * 2 + 1   -- on s
end
s:synchronize()
print("computed on the stream inside enter(): " .. tostring(z:get()))
print(string.format("y has %d elements on %s", y.size, y.device))
