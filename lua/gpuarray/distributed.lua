--- Collectives over several GPUs and processes: `ga.distributed` (NCCL)
-- and `ga.host.distributed` (a world of one rank on the host).
--
-- **Two ways to run.** One process driving several GPUs:
-- `ga.distributed.init{devices = {0, 1, 2, 3}}` (`ncclCommInitAll`) makes a
-- communicator whose collectives take *one array per device*, in the
-- order of `devices` (rank i is `devices[i + 1]`).  One process per GPU,
-- on one host or several: one process calls `ga.distributed.unique_id()`
-- and hands the string to every rank (a file, an environment variable,
-- MPI...); each then calls `ga.distributed.init{rank = r, world_size = n,
-- id = id}` (`ncclCommInitRank`, on the current device or `device=`), and
-- the same collectives take *one array* (see `examples/allreduce_mp.sh`;
-- across hosts NCCL finds its own network transports: the ranks only
-- need the same id).
--
-- **Ranks** are 0-based, as NCCL's and MPI's (and device ordinals): `root`
-- and `peer` are ranks.
--
-- **Ordering.** Each call is issued as one NCCL group on every device's
-- current stream, after the work already queued there, and returns at
-- once, as every other operation; a later operation on the same stream
-- sees the result.  `comm:group(fn)` issues every call made inside `fn` as
-- one group (many small all-reduces in one launch; a send and its receive
-- between two GPUs of one process).  A list of lists (`{{a0, a1}, {b0,
-- b1}}`) given to a collective is also issued as one group.
--
-- **Arrays** must be C-contiguous, of one dtype NCCL knows (int8 uint8
-- int32 uint32 int64 uint64 float16 float32 float64), of one shape, each on
-- its rank's device; what can be checked in this process is checked
-- before NCCL is called (a shape mismatch *between* processes cannot be,
-- and hangs, as in every NCCL program).
--
-- **Without NCCL** (`libnccl.so.2` on the loader's path, or the path or
-- directory in `GPUARRAY_NCCL`) the GPU functions raise an error that says
-- so; everything else works.  On the host (`ga.host.distributed`, or
-- `ga.distributed` while the host is current) the world has one rank and
-- each collective is a local copy, so the same program runs on a machine
-- without a GPU.
-- @module gpuarray.distributed
local core = require "gpuarray.core"
local C = require "gpuarray.util"
local is_array, fail, typename = C.is_array, C.fail, C.typename

local KIND = { all_reduce = 0, broadcast = 1, reduce = 2, all_gather = 3, reduce_scatter = 4, all_to_all = 5,
               send = 6, recv = 7 }
local OPS = { sum = 0, prod = 1, max = 2, min = 3, avg = 4 }

local Comm = core._comm_methods

-- strip "file:line: " and an inner "name: " from an error raised by the C side
local function reraise(fname, err)
  local msg = tostring(err):gsub("^[^:]*:%d+: ", "")
  if not msg:find("^" .. fname:gsub("%p", "%%%0") .. ":") then
    msg = fname .. ": " .. msg:gsub("^[%w_.:]+: ", "")
  end
  error(msg, 0)
end

local device_id = C.device_id

local HEX = "0123456789abcdef"
local function to_hex(s)
  return (s:gsub(".", function(c)
    local b = c:byte()
    return HEX:sub(b // 16 + 1, b // 16 + 1) .. HEX:sub(b % 16 + 1, b % 16 + 1)
  end))
end
local function from_hex(fname, s)
  if type(s) ~= "string" then
    fail(fname, "id must be a string (from ga.distributed.unique_id()), got %s", typename(s))
  end
  if #s == 128 then return s end   -- the raw bytes
  s = s:gsub("%s+$", "")
  if #s ~= 256 or s:find("[^0-9a-fA-F]") then
    fail(fname, "id must be the 256 hexadecimal digits ga.distributed.unique_id() returns (got %d characters)", #s)
  end
  return (s:gsub("..", function(h) return string.char(tonumber(h, 16)) end))
end

local function build(host)
  local D = {}

  local function kind() return (host or core.get_device() < 0) and -1 or 0 end

  --- Can the collectives run here?  On the host: always (one rank).  With
  -- a GPU current: whether NCCL can be loaded; the second result says why
  -- not.
  -- @function ga.distributed.is_available
  -- @treturn boolean
  -- @treturn[opt] string why not
  -- @usage
  -- local ok, why = ga.distributed.is_available()
  -- print(ok or why)
  function D.is_available()
    local ok, err = pcall(core._dist_version, kind())
    if ok then return true end
    return false, (tostring(err):gsub("^[^:]*:%d+: ", ""))
  end

  --- NCCL's version as an integer (`22805` for 2.28.5); 0 on the host,
  -- which needs no library.  Raises the reason when NCCL cannot be loaded.
  -- @function ga.distributed.nccl_version
  -- @treturn int
  -- @usage
  -- if ga.distributed.is_available() then print(ga.distributed.nccl_version()) end
  function D.nccl_version()
    local ok, v = pcall(core._dist_version, kind())
    if not ok then reraise("distributed.nccl_version", v) end
    return v
  end

  --- A new communicator id for `init{rank=, world_size=, id=}`, as 256
  -- hexadecimal digits (NCCL's 128-byte `ncclUniqueId`): made by one
  -- process, passed to every rank (in a file, an environment variable...).
  -- `init` also takes the 128 raw bytes.  On the host: any string of that
  -- form (a world of one needs no rendezvous).
  -- @function ga.distributed.unique_id
  -- @treturn string
  -- @usage
  -- local id = ga.distributed.unique_id()
  -- print(#id)                          --> 256
  function D.unique_id()
    local ok, id = pcall(core._dist_unique_id, kind())
    if not ok then reraise("distributed.unique_id", id) end
    return to_hex(id)
  end

  --- A communicator.
  --
  -- * `init{devices = {0, 1, ...}}`: this process drives every rank, one
  --   per device (rank i on `devices[i + 1]`): NCCL's `ncclCommInitAll`.
  -- * `init{rank = r, world_size = n, id = s, device = d}`: this process is
  --   rank r (0-based) of n, on device d (default: the current one), and
  --   every rank passes the same id (from `unique_id()`): `ncclCommInitRank`,
  --   which waits for all n ranks.
  -- * `init{}`: a world of one rank on the current device (the host when
  --   it is current; `ga.host.distributed.init{}` always).
  --
  -- The communicator is closable: `local comm <close> = ...`,
  -- `comm:destroy()`, or the garbage collector; a `<close>` scope left by
  -- an error aborts it (`ncclCommAbort`: the other ranks may never reach
  -- the calls this one would wait for).
  -- @function ga.distributed.init
  -- @tparam[opt] table opts `devices`, or `rank`, `world_size`, `id`, `device`
  -- @treturn Comm
  -- @raise without NCCL, for a bad device, rank or id
  -- @usage
  -- local comm <close> = ga.distributed.init{}
  -- print(comm:size(), comm:rank())     --> 1  0
  function D.init(opts)
    local fname = "distributed.init"
    opts = opts or {}
    C.options(fname, opts, { devices = true, rank = true, world_size = true, id = true, device = true })
    local devs, ranks, world, id = {}, {}, 1, nil
    if opts.devices ~= nil then
      if opts.rank ~= nil or opts.id ~= nil or opts.world_size ~= nil or opts.device ~= nil then
        fail(fname, "devices= (one process, every rank) does not go with rank=, world_size=, id= or device=")
      end
      if type(opts.devices) ~= "table" or #opts.devices == 0 then
        fail(fname, "devices must be a non-empty list of devices, got %s", typename(opts.devices))
      end
      for i, d in ipairs(opts.devices) do devs[i] = device_id(fname, d); ranks[i] = i - 1 end
      world = #devs
    elseif opts.rank ~= nil or opts.world_size ~= nil or opts.id ~= nil then
      local r, n = opts.rank, opts.world_size
      if math.type(r) ~= "integer" or math.type(n) ~= "integer" then
        fail(fname, "rank and world_size must be integers (rank 0-based), got %s and %s", typename(r), typename(n))
      end
      if n < 1 or r < 0 or r >= n then fail(fname, "rank %d is not in [0, world_size = %d)", r, n) end
      if opts.id == nil then
        fail(fname, "id= is needed (ga.distributed.unique_id() of one process, given to every rank)")
      end
      id = from_hex(fname, opts.id)
      devs[1] = opts.device ~= nil and device_id(fname, opts.device) or (host and -1 or core.get_device())
      ranks[1], world = r, n
    else
      if opts.device ~= nil then devs[1] = device_id(fname, opts.device)
      else devs[1] = host and -1 or core.get_device() end
      ranks[1] = 0
    end
    if host then
      for _, d in ipairs(devs) do
        if d ~= -1 then fail(fname, "ga.host.distributed is the host's (device %d given)", d) end
      end
    end
    local ok, comm = pcall(core._dist_init, devs, ranks, world, id)
    if not ok then reraise(fname, comm) end
    return comm
  end

  return D
end

--- Communicators.
-- Made by `ga.distributed.init`.  Each collective takes `arrays`: one
-- array per local rank, in rank order (a single array when this process
-- has one rank), or a list of such lists, all issued as one group.  It
-- returns what it wrote, in the same form.
-- @section Comm

local function unpack_arrays(fname, arrays)
  if is_array(arrays) then return { arrays }, true end
  if type(arrays) ~= "table" then
    fail(fname, "arrays must be an array or a list of arrays, got %s", typename(arrays))
  end
  return arrays, false
end

-- the options: a table of the allowed keys, or the value of the first alone
local function opts_of(fname, opts, allowed, first)
  if opts == nil then return {} end
  if first and (type(opts) ~= "table" or is_array(opts)) then return { [first] = opts } end
  return C.options(fname, opts, allowed)
end

local function op_of(fname, op)
  if op == nil then return 0 end
  local v = OPS[op]
  if not v then fail(fname, "op must be \"sum\", \"prod\", \"max\", \"min\" or \"avg\", got %s", tostring(op)) end
  return v
end

local function rank_arg(fname, what, v)
  if v == nil then return 0 end
  if math.type(v) ~= "integer" then fail(fname, "%s must be an integer rank (0-based), got %s", what, typename(v)) end
  return v
end

local function run(self, fname, kind, op, root, peer, arrays, out)
  local list, single = unpack_arrays(fname, arrays)
  local outs = out
  if out ~= nil then
    if single then
      if not is_array(out) then fail(fname, "out must be an array (as the input), got %s", typename(out)) end
      outs = { out }
    elseif type(out) ~= "table" or is_array(out) then
      fail(fname, "out must be a list of arrays (as the input), got %s", typename(out))
    end
  end
  local ok, r = pcall(self._run, self, fname, kind, op, root, peer, list, outs)
  if not ok then reraise(fname, r) end
  if single then return r[1] end
  return r
end

--- Reduce the arrays of every rank element-wise and give every rank the
-- result: in place, or into `out`.  `op`: `"sum"` (the default), `"prod"`,
-- `"max"`, `"min"` or `"avg"`.
-- @function Comm:all_reduce
-- @param arrays one array per local rank (or one array), or a list of such lists
-- @tparam[opt] string|table opts the op, or `{op =, out =}`
-- @return the results (the arrays themselves when in place)
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local x = ga.arange(4, {dtype = "float32"})
-- comm:all_reduce(x, "sum")
-- print(x)                            --> array([0., 1., 2., 3.], dtype=float32)

--- Copy the array of rank `root` (default 0) to every rank: in place, or
-- into `out`.
-- @function Comm:broadcast
-- @param arrays one array per local rank (or one array)
-- @tparam[opt] int|table opts the root, or `{root =, out =}`
-- @return the results
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local x = comm:broadcast(ga.ones(3), 0)
-- print(x:sum():item())               --> 3.0

--- Reduce the arrays of every rank into rank `root`'s array (in place) or
-- its `out`; the other ranks' arrays are left as they are.
-- @function Comm:reduce
-- @param arrays one array per local rank (or one array)
-- @tparam[opt] table opts `{op =, root =, out =}`
-- @return the arrays written (root's holds the result)
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local x = comm:reduce(ga.full(3, 2.0), {op = "max", root = 0})
-- print(x:max():item())               --> 2.0

--- Gather every rank's array into a new array of shape `(world, ...)` on
-- every rank (row r is rank r's), or into `out`.
-- @function Comm:all_gather
-- @param arrays one array per local rank (or one array)
-- @tparam[opt] table opts `{out =}`
-- @return the gathered arrays
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local g = comm:all_gather(ga.arange(3))
-- print(g.shape)                      --> (1, 3)

--- Reduce the arrays of every rank and scatter the result: each input's
-- first axis is `world * k` long, and rank r receives rows `r*k+1 ..
-- (r+1)*k` of the reduction (shape `(k, ...)`), new or into `out`.
-- @function Comm:reduce_scatter
-- @param arrays one array per local rank (or one array)
-- @tparam[opt] string|table opts the op, or `{op =, out =}`
-- @return the scattered parts
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local part = comm:reduce_scatter(ga.arange(4), "sum")
-- print(part.shape)                   --> (4,)

--- Exchange blocks: each input's first axis is `world * k` long; block j
-- (rows `j*k+1 .. (j+1)*k`) goes to rank j, and block i of rank j's result
-- came from rank i.  New arrays, or `out`.  (Grouped `ncclSend`/`ncclRecv`.)
-- @function Comm:all_to_all
-- @param arrays one array per local rank (or one array)
-- @tparam[opt] table opts `{out =}`
-- @return the exchanged arrays
-- @usage
-- local comm <close> = ga.distributed.init{}
-- print(comm:all_to_all(ga.arange(2)))   --> array([0, 1])

--- Send array `x` (of the local rank on x's device) to rank `peer`, which
-- receives it with `recv` into an array of the same size and dtype.
-- Between two ranks of one process (or a rank and itself) the send and
-- its receive must be in one `comm:group`.
-- @function Comm:send
-- @tparam ndarray x what to send
-- @int peer the receiving rank (0-based)
-- @treturn ndarray x
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local x, y = ga.arange(3), ga.zeros(3, {dtype = "int64"})
-- comm:group(function() comm:send(x, 0); comm:recv(y, 0) end)
-- print(y)                            --> array([0, 1, 2])

--- Receive into array `y` what rank `peer` sends with `send` (same size
-- and dtype).
-- @function Comm:recv
-- @tparam ndarray y where to receive (on a device of this communicator)
-- @int peer the sending rank (0-based)
-- @treturn ndarray y
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local y = ga.empty(2)
-- comm:group(function() comm:send(ga.ones(2), 0); comm:recv(y, 0) end)
-- print(y)                            --> array([1., 1.])

-- The collectives above, from one driver: the options each takes (the
-- first of them may be given alone, not in a table); op and root default
-- to "sum" and 0
local COLLECTIVES = {
  all_reduce = { "op", "out" }, broadcast = { "root", "out" }, reduce = { "op", "root", "out" },
  all_gather = { false, "out" }, reduce_scatter = { "op", "out" }, all_to_all = { false, "out" },
}
for name, names in pairs(COLLECTIVES) do
  local fname, kind, first = "Comm:" .. name, KIND[name], names[1] or nil
  local allowed = C.set(table.unpack(names, first and 1 or 2))
  Comm[name] = function(self, arrays, opts)
    opts = opts_of(fname, opts, allowed, first)
    return run(self, fname, kind, op_of(fname, opts.op), rank_arg(fname, "root", opts.root), 0, arrays, opts.out)
  end
end

-- send and recv: one array (named x or y in the messages) and the peer
for name, what in pairs { send = "x", recv = "y" } do
  local fname, kind = "Comm:" .. name, KIND[name]
  Comm[name] = function(self, x, peer)
    C.arg(fname, x, what)
    return run(self, fname, kind, 0, 0, rank_arg(fname, "peer", peer), x)
  end
end

--- Wait until every rank has reached this point (an all-reduce of one
-- number, then a wait for it: the host blocks).
-- @function Comm:barrier
-- @usage
-- local comm <close> = ga.distributed.init{}
-- comm:barrier()
function Comm.barrier(self)
  local ok, err = pcall(self._barrier, self)
  if not ok then reraise("Comm:barrier", err) end
end

--- Run `fn(...)` with every collective it issues on this communicator
-- gathered into one NCCL group (one launch; `ncclGroupStart`/`End`), and
-- return fn's results.  The group is closed even when fn raises.
-- @function Comm:group
-- @tparam function fn the calls to group
-- @param ... fn's arguments
-- @return what fn returns
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local xs = {}
-- for i = 1, 10 do xs[i] = ga.ones(4) end
-- comm:group(function() for i = 1, 10 do comm:all_reduce(xs[i]) end end)
function Comm.group(self, fn, ...)
  if type(fn) ~= "function" then fail("Comm:group", "fn must be a function, got %s", typename(fn)) end
  local ok, err = pcall(self._group, self, true)
  if not ok then reraise("Comm:group", err) end
  local res = table.pack(pcall(fn, ...))
  local ok2, err2 = pcall(self._group, self, false)
  if not res[1] then error(res[2], 0) end
  if not ok2 then reraise("Comm:group", err2) end
  return table.unpack(res, 2, res.n)
end

--- The number of ranks in the world.
-- @function Comm:size
-- @treturn int
-- @usage
-- local comm <close> = ga.distributed.init{}
-- print(comm:size())                  --> 1
function Comm.size(self) return (self:_info()) end

--- This process's (first) rank, 0-based.
-- @function Comm:rank
-- @treturn int
-- @usage
-- local comm <close> = ga.distributed.init{}
-- print(comm:rank())                  --> 0
function Comm.rank(self)
  local _, _, ranks = self:_info()
  return ranks[1]
end

--- This process's ranks and their devices: two lists, in rank order
-- (device ordinals; -1 for the host).
-- @function Comm:local_ranks
-- @treturn {int,...} ranks
-- @treturn {int,...} device ordinals
-- @usage
-- local comm <close> = ga.distributed.init{}
-- local ranks, devs = comm:local_ranks()
-- print(#ranks == #devs)              --> true
function Comm.local_ranks(self)
  local _, devs, ranks = self:_info()
  return ranks, devs
end

--- Release the communicator (`ncclCommDestroy`); later calls raise.  Also
-- what `<close>` and the garbage collector do; calling it again does
-- nothing.
-- @function Comm:destroy
-- @usage
-- local comm = ga.distributed.init{}
-- comm:destroy()
-- comm:destroy()                      -- (nothing)

--- Release the communicator at once without waiting for its pending work
-- (`ncclCommAbort`): for a rank that gives up after an error.
-- @function Comm:abort
-- @usage
-- local comm = ga.distributed.init{}
-- comm:abort()

core._comm_mt.__tostring = function(self)
  local world, devs, ranks, open = self:_info()
  if not open then return "<Comm (destroyed)>" end
  local parts = {}
  for i = 1, #devs do
    parts[i] = ("%d@%s"):format(ranks[i], devs[i] < 0 and "cpu" or ("cuda:" .. devs[i]))
  end
  return ("<Comm world=%d local=%s>"):format(world, table.concat(parts, ","))
end

local M = { ga = build(false), host = build(true), _Comm = Comm }
M.ga._Comm, M.host._Comm = Comm, Comm
return M
