-- memory_pool.lua — the caching memory pool.
--
-- Device memory comes from a pool (as in CuPy): freed blocks stay cached for
-- reuse, so used_bytes (handed out to arrays) and total_bytes (held from the
-- driver) differ.  free_all_blocks() returns cached blocks; set_limit() caps
-- the pool; an allocation past the cap raises an error the script can catch.
local ga = require "gpuarray"

local where = ga.cuda.is_available() and ("GPU " .. ga.cuda.Device().name)
  or "the host (no GPU available)"
print("arrays live on " .. where)

local pool = ga.get_default_memory_pool()
local MiB = 2 ^ 20
local function stats(label)
  print(string.format("  %-36s used %8.1f MiB  total %8.1f MiB  free blocks %d",
    label, pool:used_bytes() / MiB, pool:total_bytes() / MiB, pool:n_free_blocks()))
end

stats("at start")
local a = ga.zeros(1 << 24, "float32")            -- 64 MiB
local b = ga.ones(1 << 24, "float32")             -- 64 MiB
stats("after two 64 MiB arrays")
local c = a + b
stats("after c = a + b")

a:free()                                          -- deterministic release
do
  local tmp <close> = ga.empty(1 << 22)           -- 32 MiB, freed at the end of the block
  stats(string.format("inside a block with a %d MiB <close> array", tmp.nbytes >> 20))
end
stats("after a:free() and the block")

pool:free_all_blocks()
stats("after free_all_blocks()")

-- a limit, and an allocation beyond it
pool:set_limit(pool:total_bytes() + 16 * MiB)
print(string.format("limit set to %.1f MiB", pool:get_limit() / MiB))
local ok, err = pcall(ga.zeros, 1 << 26)          -- 512 MiB
print("allocating 512 MiB: " .. (ok and "succeeded" or ("error caught: " .. tostring(err))))
pool:set_limit(0)                                 -- no limit
stats("after the failed allocation")

-- the script goes on
local d = ga.zeros(1 << 26)
print(string.format("without the limit the 512 MiB array is made: %d elements", d.size))
d:free(); b:free(); c:free()
pool:free_all_blocks()
stats("at the end")

local pinned = ga.get_default_pinned_memory_pool()
print("pinned host pool: " .. pinned:n_free_blocks() .. " free blocks")
pinned:free_all_blocks()
