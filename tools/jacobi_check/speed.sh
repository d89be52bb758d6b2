#!/bin/sh
# On a GPU, from the repository root: the issue-14 speed keys under each
# variant switch, timed by bench/run.lua itself (CUDA events / wall clock as
# the bench, BENCH_ONLY picks the sections), and the batched eigh checked
# against the host for each Jacobi variant (gpu_tune.lua).
#   sh tools/jacobi_check/speed.sh            (LD_LIBRARY_PATH as for the bench)
set -u
export LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/?.so;;"
keys='"(eigh_batched_f32_16384x16_ms|svd_batched_c64_16384x8x8_ms|cholesky_f64_4096_ms|overhead_matmul64_us)"'
bench() {   # label, env assignments...
  label=$1; shift
  printf '%-40s ' "$label"
  env "$@" BENCH_ONLY="$ONLY" lua5.4 bench/run.lua 2>&1 | grep -E "$keys" | tr -d '\n' | tr -s ' '
  echo
}
# eigh_batched: the default, the sync-per-call of before (checks forced by
# reading back; BENCH_LINALG_CHECKS=0 drops every check), and the kernel's knobs
ONLY=eigh_batched
bench "eigh_batched default"
bench "eigh_batched checks off" BENCH_LINALG_CHECKS=0
for v in "GPUARRAY_JSYM_WPB=2" "GPUARRAY_JSYM_WPB=8" "GPUARRAY_JSYM_SHFLT=1" "GPUARRAY_JSYM_MINB=12" \
         "GPUARRAY_JSYM_FAST=0" "GPUARRAY_JACOBI=1" "GPUARRAY_JACOBI=0"; do
  bench "eigh_batched $v" "$v"
  env "$v" lua5.4 tools/jacobi_check/gpu_tune.lua
done
lua5.4 tools/jacobi_check/gpu_tune.lua
lua5.4 tools/jacobi_check/gpu_tune.lua 4096 32 float32
lua5.4 tools/jacobi_check/gpu_tune.lua 4096 16 float64
# cholesky: default (check waits after the in-place tril, GC paid meanwhile) and no checks
ONLY=cholesky
bench "cholesky default"
bench "cholesky checks off" BENCH_LINALG_CHECKS=0
# matmul64: default (launch queue + graphs), direct launches, the tiny kernel variants
ONLY=overhead_matmul64
bench "matmul64 default"
bench "matmul64 GPUARRAY_BATCH=0" GPUARRAY_BATCH=0
bench "matmul64 GPUARRAY_MATMUL_DIRECT=1" GPUARRAY_MATMUL_DIRECT=1
bench "matmul64 DIRECT=1 TINY=1" GPUARRAY_MATMUL_DIRECT=1 GPUARRAY_MATMUL_TINY=1
for v in "GPUARRAY_MATMUL_TINY=0" "GPUARRAY_MATMUL_TINY=1" "GPUARRAY_MATMUL_TINY=2"; do
  bench "matmul64 $v" "$v"
  env "$v" lua5.4 tools/jacobi_check/mm_check.lua
  env "$v" lua5.4 tools/jacobi_check/mm_probe.lua
done
# the other per-call overheads beside it (a queued kernel plus an allocation: add; an allocation: empty)
ONLY=overhead
bench "overheads default"
