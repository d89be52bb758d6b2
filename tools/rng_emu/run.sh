#!/bin/sh
# tools/rng_emu/run.sh: runs the generator kernel (kernels/ga_rand.cuh as
# the CUDA backend generates it) on the CPU over prelude.h and compares
# every value with the host backend's draw (core._random_fill): float32
# standard normals (the aligned loop, its tail, draws that start mid-block
# and the general path, several grids), normal(loc, scale), uniform,
# exponential, float64 normals.
# A check of the kernel's index and table logic without a GPU (MUFU.RSQ is
# stood in for by a 1-ulp-off reciprocal square root).  Needs g++.
#   make && sh tools/rng_emu/run.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/rng_emu.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
cd "$root"
LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;" lua5.4 - "$out" "$root/tools/rng_emu" <<'LUA'
local out, here = arg[1], arg[2]
local ga = require "gpuarray"
local core = ga.core
local cases = {   -- name, dist, dtype, p0, p1
  { "norm32", 1, "float32", 0, 1 }, { "norm32ls", 1, "float32", 0.5, 2 }, { "unif32", 0, "float32", 0, 1 },
  { "exp32", 4, "float32", 0, 1.5 }, { "norm64", 1, "float64", 0, 1 } }
local bad, runs = 0, 0
for _, c in ipairs(cases) do
  local name, dist, dt, p0, p1 = c[1], c[2], c[3], c[4], c[5]
  local f = assert(io.open(out .. "/" .. name .. ".cpp", "w"))
  f:write('#include "prelude.h"\n', core._random_source(dist, dt, 0, 90, p1 == 1 and p0 == 0 and 1 or 2),
          '\n#include "main.cpp"\n')
  f:close()
  assert(os.execute(string.format("g++ -O1 -ffp-contract=off -w -I%s -o %s/%s %s/%s.cpp", here, out, name, out, name)))
  for _, r in ipairs { { 4099, 0, 0, 3 }, { 4096, 0, 0, 7 }, { 1000, 8, 0, 1 }, { 999, 4, 0, 5 }, { 1001, 2, 0, 3 },
                       { 1003, 6, 0, 2 }, { 1000, 0, 1, 3 }, { 3, 0, 0, 4 }, { 1, 4, 0, 1 }, { 4097, 4, 2, 9 },
                       { 1001, 4 * ((1 << 32) - 100), 0, 3 },   -- counter word 0 wraps (64-bit loop)
                       { 1001, 1, 0, 3 }, { 1002, 3, 0, 2 }, { 4099, 5, 1, 3 }, { 7, 3, 0, 5 },   -- off % 4 odd
                       { 1001, 4 * ((1 << 32) - 100) + 3, 0, 3 } } do
    local n, off, mis, grid = r[1], r[2], r[3], r[4]
    if dist == 1 and off % 2 == 1 then goto skip end
    do
      local k0, k1, s = 0x12345678, 0x9abcdef0, 3
      local h = ga.host.empty(n, dt)
      core._random_fill(h, dist, k0, k1, s, off, p0, p1, 0, 0)
      local want = h:tolist()
      local p = assert(io.popen(string.format("%s/%s %d %d %d %d %d %d %d %.17g %.17g", out, name, n, off, mis, grid,
                                              k0, k1, s, p0, p1)))
      local i, diff = 0, 0
      for line in p:lines() do
        i = i + 1
        local v = tonumber(line)
        if string.format("%a", v) ~= string.format("%a", want[i]) then
          diff = diff + 1
          if diff <= 3 then print(string.format("%s n=%d off=%d mis=%d grid=%d: [%d] %a ~= host %a", name, n, off, mis, grid, i, v, want[i])) end
        end
      end
      p:close()
      runs = runs + 1
      if i ~= n then diff = diff + 1; print(name .. ": " .. i .. " values, not " .. n) end
      if diff > 0 then bad = bad + 1 end
    end
    ::skip::
  end
end
print(string.format("rng_emu: %d draws, %d differ from the host", runs, bad))
os.exit(bad == 0 and 0 or 1)
LUA
