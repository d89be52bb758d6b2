-- allreduce_mp.lua — one process per GPU, NCCL collectives between them.
--
-- Each process is one rank: it reads its rank, the world size and the
-- communicator id from the environment, makes an array on its GPU, and
-- all-reduces it with the others (then an all_gather and a broadcast), and
-- checks the results.  examples/allreduce_mp.sh starts the processes:
--
--   sh examples/allreduce_mp.sh [N]          (N = number of GPUs by default)
--
-- Environment (what the launcher sets):
--   GA_RANK        this process's rank, 0-based (default 0)
--   GA_WORLD_SIZE  the number of ranks (default 1)
--   GA_ID_FILE     where rank 0 writes the id of ga.distributed.unique_id()
--                  and the other ranks read it (GA_ID: the id itself, made
--                  by a process that lives until the ranks have met); with
--                  neither, a world of one makes its own
--   GA_DEVICE      the GPU to use (default GA_LOCAL_RANK or GA_RANK, modulo
--                  the GPUs of this host)
--
-- Across hosts nothing changes in this program: every rank needs the same
-- id (GA_ID_FILE on a shared file system) and its global rank; NCCL connects the
-- hosts by itself (InfiniBand or sockets; NCCL_SOCKET_IFNAME picks the
-- interface).  See allreduce_mp.sh for the launch.  Without a GPU (or
-- without NCCL) a world of one rank runs on the host.
local ga = require "gpuarray"

local rank = math.tointeger(tonumber(os.getenv("GA_RANK") or "0"))
local world = math.tointeger(tonumber(os.getenv("GA_WORLD_SIZE") or "1"))
assert(rank and world and rank >= 0 and rank < world, "GA_RANK must be in [0, GA_WORLD_SIZE)")

local ngpu = ga.cuda.device_count()
local nccl, why = ga.distributed.is_available()
local use_gpu = ngpu > 0 and nccl
if not use_gpu then
  if world > 1 then error("rank " .. rank .. ": " .. world .. " ranks need GPUs and NCCL (" ..
                          (ngpu == 0 and "no GPU here" or tostring(why)) .. ")") end
  print(ngpu == 0 and "no GPU: a world of one rank on the host"
        or "NCCL is not available (" .. tostring(why) .. "): a world of one rank on the host")
end
local dist = use_gpu and ga.distributed or ga.host.distributed
local xp = use_gpu and ga or ga.host

-- The id.  NCCL's rendezvous point lives in the process that called
-- unique_id() until the ranks have met, so rank 0 makes it (and is one of
-- the ranks) and writes it to GA_ID_FILE (atomically: a temporary file
-- renamed); the other ranks wait for the file.  (Remove a stale file
-- before a new run.)
local function sleep(s) os.execute("sleep " .. s) end
local id = os.getenv("GA_ID")
local idfile = os.getenv("GA_ID_FILE")
if not id and idfile then
  if rank == 0 then
    id = dist.unique_id()
    local f = assert(io.open(idfile .. ".tmp", "w"), "cannot write " .. idfile .. ".tmp")
    f:write(id, "\n")
    f:close()
    assert(os.rename(idfile .. ".tmp", idfile))
  else
    for _ = 1, 1200 do                       -- up to two minutes
      local f = io.open(idfile, "r")
      if f then id = f:read("l"); f:close() end
      if id and #id == 256 then break end
      id = nil
      sleep(0.1)
    end
    assert(id, "rank " .. rank .. ": no id in " .. idfile .. " after two minutes (is rank 0 running?)")
  end
end
if not id then
  assert(world == 1, "GA_ID_FILE or GA_ID is needed for more than one rank")
  id = dist.unique_id()
end

local device = nil
if use_gpu then
  local d = tonumber(os.getenv("GA_DEVICE") or os.getenv("GA_LOCAL_RANK") or "") or rank
  device = math.tointeger(d) % ngpu
  ga.cuda.Device(device):use()
end

local comm <close> = dist.init{ rank = rank, world_size = world, id = id }
local where = device and ("cuda:" .. device) or "cpu"

local n = 1 << 20
local x = xp.full(n, rank + 1, { dtype = "float32" })
comm:all_reduce(x, "sum")                                   -- 1 + 2 + ... + world
local want = world * (world + 1) / 2
local lo, hi = x:min():item(), x:max():item()
assert(lo == want and hi == want, ("rank %d: all_reduce gave [%g, %g], expected %g"):format(rank, lo, hi, want))

local g = comm:all_gather(xp.full(2, rank, { dtype = "int32" }))   -- row r = r, r
for r = 0, world - 1 do assert(g[{ r + 1, 1 }]:item() == r, "all_gather: wrong row " .. r) end

local b = xp.full(3, rank == 0 and 42 or -1, { dtype = "int64" })
comm:broadcast(b, 0)
assert(b:sum():item() == 126, "broadcast: not rank 0's values")

comm:barrier()
print(("rank %d/%d on %s: all_reduce, all_gather, broadcast ok"):format(rank, world, where))
