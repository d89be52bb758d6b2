#!/bin/sh
# On a GPU, from the repository root: the issue-14 speed keys under each
# variant switch, timed by bench/run.lua itself (CUDA events / wall clock as
# the bench, BENCH_ONLY picks the sections), the batched eigh checked
# against the host for each Jacobi variant (gpu_tune.lua), the small
# products against the host (mm_check.lua) and their host/device split
# (mm_probe.lua).  Ends with a summary: one line per variant and key.
#   sh tools/jacobi_check/speed.sh            (LD_LIBRARY_PATH as for the bench)
set -u
export LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;"
SUMMARY=$(mktemp)
trap 'rm -f "$SUMMARY"' EXIT
keys='"(eigh_batched_f32_16384x16_ms|svd_batched_c64_16384x8x8_ms|cholesky_f64_4096_ms|overhead_[a-z0-9_]*_us)"'
bench() {   # label, env assignments...
  label=$1; shift
  env "$@" BENCH_ONLY="$ONLY" lua5.4 bench/run.lua 2>&1 | grep -E "$keys" | tr -d '",' |
    while read -r k v; do printf '%-36s %-32s %s\n' "$label" "${k%:}" "$v" | tee -a "$SUMMARY"; done
}
# eigh_batched: the default, no checks at all (BENCH_LINALG_CHECKS=0), the kernel's knobs
ONLY=eigh_batched
bench "eigh_batched default"
bench "eigh_batched checks off" BENCH_LINALG_CHECKS=0
for v in "GPUARRAY_JSYM_WPB=2" "GPUARRAY_JSYM_WPB=8" "GPUARRAY_JSYM_SHFLT=1" "GPUARRAY_JSYM_MINB=12" \
         "GPUARRAY_JSYM_FAST=0" "GPUARRAY_JACOBI=1" "GPUARRAY_JACOBI=0"; do
  bench "eigh_batched $v" "$v"
  env "$v" lua5.4 tools/jacobi_check/gpu_tune.lua | tee -a "$SUMMARY"
done
for a in "16384 16 float32" "4096 32 float32" "4096 16 float64"; do
  lua5.4 tools/jacobi_check/gpu_tune.lua $a | tee -a "$SUMMARY"
done
# cholesky: default (check waits after the in-place tril, GC paid meanwhile) and no checks
ONLY=cholesky
bench "cholesky default"
bench "cholesky checks off" BENCH_LINALG_CHECKS=0
# the per-call overheads (matmul64 among them): queued launches and direct ones
ONLY=overhead
bench "overheads default"
bench "overheads GPUARRAY_BATCH=0" GPUARRAY_BATCH=0
lua5.4 tools/jacobi_check/mm_check.lua | tee -a "$SUMMARY"
lua5.4 tools/jacobi_check/mm_probe.lua | tee -a "$SUMMARY"
echo "==== summary"
cat "$SUMMARY"
