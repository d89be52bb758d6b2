-- Integer matmul exactness cases, run in a subprocess by spec/intmatmul_spec.lua
-- (so that GPUARRAY_INTMM=1, GPUARRAY_INTMM_KSLICE and GPUARRAY_INTMM_GROUP,
-- read once per process, can force the GPU's tensor-core path onto small
-- shapes and cut k and the batch into several pieces).
--
--   lua5.4 spec/intmm_child.lua cpu|cuda
--
-- Every integer dtype, full-range values with the extremes (INT_MIN, INT_MAX,
-- -1, 0) planted, shapes that are not multiples of 4 or 16, batches (one
-- operand broadcast or both batched), transposed operands, negative strides
-- and a transposed out=: each product against a plain Lua loop that wraps as NumPy does.
-- Prints "intmm ok N" (N products checked), or raises naming the case.
local ga = require "gpuarray"
local where = arg[1] or "cpu"
local xp = where == "cpu" and ga.host or ga

local DTYPES = { "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64" }
local BITS = { int8 = 8, uint8 = 8, int16 = 16, uint16 = 16, int32 = 32, uint32 = 32, int64 = 64, uint64 = 64 }

-- v (a Lua integer) modulo 2^w, as the dtype holds it (signed or not); 64-bit
-- dtypes keep the bit pattern (uint64 compared as int64)
local function wrap(v, dt)
  local w = BITS[dt]
  if w == 64 then return v end
  v = v & ((1 << w) - 1)
  if not dt:match("^u") and v >= (1 << (w - 1)) then v = v - (1 << w) end
  return v
end

local seed = 12345
local function rand_values(n, dt)
  local w = BITS[dt]
  local ext = { -1, 0, 1, -(1 << (w - 1)), (1 << (w - 1)) - 1 }   -- as int64: astype wraps them
  if w == 64 then ext[4], ext[5] = math.mininteger, math.maxinteger end
  local v = {}
  for i = 1, n do
    seed = seed * 6364136223846793005 + 1442695040888963407
    v[i] = seed ~ (seed >> 29)
    if i % 7 == 3 then v[i] = ext[(i // 7) % #ext + 1] end
  end
  return v
end

-- a (batch or 1, rows, cols) array of dt on the device
local function make(shape, dt)
  local n = 1
  for _, d in ipairs(shape) do n = n * d end
  return xp.asarray(ga.host.array(rand_values(n, dt), "int64"):astype(dt):reshape(shape))
end

local function flat(x)
  local t = ga.asnumpy(x):astype("int64"):ravel():tolist()
  if type(t) ~= "table" then t = { t } end
  return t
end

-- the expected product of a (ba, m, k) and b (bb, k, n) as a flat list
local function reference(a, b, dt)
  local av, bv = flat(a), flat(b)
  local ba, m, k = a.shape[1], a.shape[2], a.shape[3]
  local bb, n = b.shape[1], b.shape[3]
  local batch = math.max(ba, bb)
  local out = {}
  for z = 0, batch - 1 do
    local za, zb = ba == 1 and 0 or z, bb == 1 and 0 or z
    for i = 0, m - 1 do
      for j = 0, n - 1 do
        local s = 0
        for l = 0, k - 1 do
          s = s + av[za * m * k + i * k + l + 1] * bv[zb * k * n + l * n + j + 1]
        end
        out[#out + 1] = wrap(s, dt)
      end
    end
  end
  return out
end

local count = 0
local function check(name, got, want)
  local g = flat(got)
  if #g ~= #want then error(("%s: %d elements, expected %d"):format(name, #g, #want)) end
  for i = 1, #want do
    if g[i] ~= want[i] then error(("%s: element %d is %d, expected %d"):format(name, i, g[i], want[i])) end
  end
  count = count + 1
end

local SHAPES = {
  { { 1, 5, 37 }, { 1, 37, 3 } },      -- sizes not multiples of 4 or 16, k over two slices of 16
  { { 1, 1, 1 }, { 1, 1, 1 } },
  { { 1, 16, 16 }, { 1, 16, 16 } },
  { { 3, 17, 40 }, { 1, 40, 9 } },     -- b broadcast over the batch (stride 0)
  { { 1, 6, 50 }, { 4, 50, 7 } },      -- a broadcast
  { { 3, 19, 33 }, { 3, 33, 21 } },    -- both batched
  { { 1, 33, 200 }, { 1, 200, 35 } },  -- many slices of k
}

for _, dt in ipairs(DTYPES) do
  for si, sh in ipairs(SHAPES) do
    local a, b = make(sh[1], dt), make(sh[2], dt)
    local want = reference(a, b, dt)
    local name = ("%s case %d"):format(dt, si)
    -- 3-D operands, with 2-D ones where the batch is 1 (the plain call)
    local a2 = a.shape[1] == 1 and a:reshape({ a.shape[2], a.shape[3] }) or a
    local b2 = b.shape[1] == 1 and b:reshape({ b.shape[2], b.shape[3] }) or b
    check(name, ga.matmul(a2, b2), want)
    if si == 1 or si == 6 or si == 7 then
      -- transposed operands (copies laid out the other way, seen through .T)
      local ta = a:swapaxes(-1, -2):copy():swapaxes(-1, -2)
      local tb = b:swapaxes(-1, -2):copy():swapaxes(-1, -2)
      check(name .. " transposed", ga.matmul(ta, tb), want)
      -- into a transposed out=
      local m, n = a.shape[2], b.shape[3]
      local batch = math.max(a.shape[1], b.shape[1])
      local out = xp.zeros({ batch, n, m }, dt):swapaxes(-1, -2)
      ga.matmul(a, b, { out = out })
      check(name .. " out=", out, want)
    end
    if si == 6 then
      -- negative strides: rows of a and columns of b reversed
      local ar, br = a[{ {}, { -1, 1, -1 }, {} }], b[{ {}, {}, { -1, 1, -1 } }]
      check(name .. " reversed", ga.matmul(ar, br), reference(ar, br, dt))
    end
  end
end
print("intmm ok " .. count)
