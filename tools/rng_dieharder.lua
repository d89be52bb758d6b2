-- tools/rng_dieharder.lua: the raw 32-bit words of ga.random's Philox4x32-10
-- stream on standard output, in stream order, little-endian, forever (or
-- WORDS words), for an external battery (not run by CI):
--
--   lua5.4 tools/rng_dieharder.lua [seed] | dieharder -a -g 200
--
-- Runs on the device ga.random uses (the host without a GPU: the same words).
package.cpath = "build/?.so;" .. package.cpath
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local ga = require "gpuarray"
local seed = math.tointeger(tonumber(arg[1] or "") or 20261123)
local limit = tonumber(os.getenv("WORDS") or "") or math.huge
local rs = ga.random.RandomState(seed)
local CHUNK = 1 << 20
local done = 0
io.stdout:setvbuf("full", 1 << 22)
while done < limit do
  local t = ga.asnumpy(rs:randint(0, 1 << 32, CHUNK, "uint32")):tolist()   -- a full 32-bit range: the raw word
  local parts = {}
  for i = 1, CHUNK, 1024 do
    parts[#parts + 1] = string.pack(string.rep("<I4", 1024), table.unpack(t, i, i + 1023))
  end
  if not io.stdout:write(table.concat(parts)) then break end
  done = done + CHUNK
end
