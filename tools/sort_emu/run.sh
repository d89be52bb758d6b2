#!/bin/sh
# tools/sort_emu/run.sh: run the onesweep and short-row sort kernels
# (kernels/ga_radix.cuh, float32, 32-bit positions) on the CPU, without a
# GPU: the generated CUDA text is compiled as C++ over a small emulation
# (prelude.h: one pthread per CUDA thread, barriers for __syncthreads and
# __syncwarp, __ballot_sync, __match_any_sync and __shfl_up_sync through a per-warp
# buffer; blocks run one at a time, so the look-back always finds its
# predecessor done), driven as ga_cuda_sort.c drives them (main.cpp), and
# compared with std::stable_sort on the keys of base/ga_sort_key.c
# (NaN last, -0.0 == 0.0, stable).  A check of the ranking, prefix,
# staging, row-digit and argsort logic; not of timing or concurrency.
#   make && sh tools/sort_emu/run.sh        (about a minute; needs g++)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
out=$(mktemp -d "${TMPDIR:-/tmp}/sort_emu.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
cd "$root"
LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$BUILD/?.so;;" lua5.4 - "$out" <<'LUA'
local out = arg[1]
local core = require "gpuarray".core
local names = { rhist = "ga_radix_hist", rbins = "ga_radix_bins", rpass = "ga_radix_pass", roww = "ga_radix_roww",
                rowb = "ga_radix_rowb" }
for _, c in ipairs {
  { "hist4", "rhist", 0, 0 }, { "hist5", "rhist", 1, 0 }, { "bins", "rbins", 0, 0 },
  { "pass00", "rpass", 0, 0 }, { "pass11", "rpass", 1, 1 }, { "pass21", "rpass", 2, 1 }, { "pass22", "rpass", 2, 2 },
  { "pass12", "rpass", 1, 2 }, { "pass20", "rpass", 2, 0 },
  { "roww", "roww", 8, 2 }, { "rowb", "rowb", 4, 2 }, { "roww0", "roww", 8, 0 } } do
  local f = assert(io.open(out .. "/" .. c[1] .. ".cpp", "w"))
  f:write('#include "prelude.h"\n#define ', names[c[2]], " ", c[1], "\n",
          core._sort_source(c[2], "float32", false, c[3], c[4]), "\n")
  f:close()
end
LUA
cp tools/sort_emu/prelude.h tools/sort_emu/driver.cpp tools/sort_emu/main.cpp "$out"/
cd "$out"
for f in *.cpp; do g++ -std=c++17 -O1 -w -c "$f" -o "${f%.cpp}.o"; done
g++ -o emu ./*.o -lpthread
./emu > log || true
grep -v ": ok$" log
grep -q "^fails 0$" log
