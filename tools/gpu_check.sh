#!/bin/sh
# tools/gpu_check.sh: the checks a change must pass on the GPU machine before
# an issue is resolved (../shared/device/README.md), in one command:
#
#   . .devenv/env.sh && sh tools/gpu_check.sh [build] [test] [sanitize] [bench] [multigpu]
#
#   build     make -j (module), quietly; the log on failure
#   test      make test (the whole suite, spec files in parallel)
#   sanitize  compute-sanitizer memcheck and racecheck over SANITIZE_SPECS
#             (GPUARRAY_MEM_DEBUG=1: no caching, so every array is its own
#             allocation), a line per spec file
#   bench     bench/run.lua beside CuPy's reference, both as JSON, plus a
#             table of ratios
#   multigpu  several GPUs (issue 19): the distributed and peer specs,
#             examples/allreduce_mp.sh and data_parallel.lua, and
#             bench/multi_gpu.lua beside CuPy's NCCL reference (NCCL from
#             python's nvidia.nccl unless GPUARRAY_NCCL is set; NVLink
#             multicast off)
# Logs go to $OUT (the device tool brings them back) or /tmp/gpu_check.
set -u
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
[ $# -gt 0 ] || set -- build test
JOBS=${JOBS:-$(nproc)}
SANITIZE_SPECS=${SANITIZE_SPECS:-"spec/arith_spec.lua spec/views_spec.lua spec/advindex_spec.lua spec/join_spec.lua spec/scan_spec.lua spec/sort_spec.lua spec/hostile_index_spec.lua spec/hostile_transfer_spec.lua"}
LUA=${LUA:-lua5.4}
BUSTED=${BUSTED:-$(command -v busted)}
status=0

for phase in "$@"; do
  case $phase in
  build)
    if ! make -j"$JOBS" >"$OUT/build.log" 2>&1; then
      tail -40 "$OUT/build.log"; exit 1
    fi
    echo "build: ok" ;;
  test)
    start=$(date +%s)
    # TEST_LIMIT: seconds for the whole suite, so that the logs still come
    # back (packed in $OUT/speclogs.tgz) when it runs long
    SPEC_LOGS=/tmp/gpu_check_specs timeout --kill-after=10 "${TEST_LIMIT:-1500}" make test >"$OUT/test.log" 2>&1 || status=1
    tar -C /tmp -czf "$OUT/speclogs.tgz" gpu_check_specs 2>/dev/null
    grep -a -E "passed, [0-9]+ failed|ran on gpu|success(es)? /|no summary|failed \(exit|timed out" "$OUT/test.log" | tail -70
    echo "test: $(( $(date +%s) - start )) s, status $status" ;;
  sanitize)
    export LUA BUSTED OUT
    for tool in memcheck racecheck; do
      for f in $SANITIZE_SPECS; do echo "$tool $f"; done
    done | xargs -P "$JOBS" -L 1 sh -c '
      tool=$0 f=$1 n=$(basename "$1" .lua)
      GPUARRAY_MEM_DEBUG=1 compute-sanitizer --tool "$tool" --error-exitcode 3 \
        "$LUA" "$BUSTED" --lua="$LUA" --cpath="./build/?.so" -o utfTerminal "$f" \
        >"$OUT/san-$tool-$n.log" 2>&1
      echo "$tool $n rc=$? $(grep -a -E "ERROR SUMMARY|RACECHECK SUMMARY|success(es)? /" "$OUT/san-$tool-$n.log" | tr "\n" " ")"'
    ;;
  bench)
    LUA_PATH="lua/?.lua;lua/?/init.lua;${LUA_PATH:-;}" LUA_CPATH="build/?.so;${LUA_CPATH:-;}" \
      $LUA bench/run.lua >"$OUT/ours.json" 2>"$OUT/bench.err" || { status=1; tail -5 "$OUT/bench.err"; }
    python3 .devenv/cupy_reference.py >"$OUT/cupy.json" 2>"$OUT/cupy.err" || { status=1; tail -5 "$OUT/cupy.err"; }
    python3 - "$OUT/ours.json" "$OUT/cupy.json" <<'EOF'
import json, sys
ours, cupy = (json.load(open(p)) for p in sys.argv[1:3])
lower = lambda k: k.endswith("_ms") or k.endswith("_us")   # times: smaller is better
for k in ours:
    o, c = ours[k], cupy.get(k)
    if isinstance(o, (int, float)) and isinstance(c, (int, float)) and o and c:
        r = c / o if lower(k) else o / c
        print(f"{k:32s} ours {o:10.4g}  cupy {c:10.4g}  advantage {r:5.2f}x")
    else:
        print(f"{k:32s} ours {o}  cupy {c}")
EOF
    ;;
  multigpu)
    export NCCL_NVLS_ENABLE=0
    if [ -z "${GPUARRAY_NCCL:-}" ]; then
      GPUARRAY_NCCL=$(python3 -c "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))" 2>/dev/null)
      export GPUARRAY_NCCL
    fi
    export LUA_PATH="lua/?.lua;lua/?/init.lua;${LUA_PATH:-;}" LUA_CPATH="build/?.so;${LUA_CPATH:-;}"
    LUA=$LUA BUSTED=$BUSTED sh tools/run_specs.sh spec/distributed_spec.lua spec/peer_spec.lua \
      >"$OUT/multigpu-specs.log" 2>&1 || status=1
    tail -4 "$OUT/multigpu-specs.log"
    LUA=$LUA sh examples/allreduce_mp.sh >"$OUT/allreduce_mp.log" 2>&1 || status=1
    tail -2 "$OUT/allreduce_mp.log"
    $LUA examples/data_parallel.lua >"$OUT/data_parallel.log" 2>&1 || status=1
    tail -3 "$OUT/data_parallel.log"
    $LUA bench/multi_gpu.lua >"$OUT/ours_nccl.json" 2>"$OUT/bench_nccl.err" || { status=1; tail -5 "$OUT/bench_nccl.err"; }
    python3 "${NCCL_REF:-.devenv/cupy_nccl_reference.py}" >"$OUT/cupy_nccl.json" 2>"$OUT/cupy_nccl.err" ||
      { status=1; tail -5 "$OUT/cupy_nccl.err"; }
    cat "$OUT/ours_nccl.json" "$OUT/cupy_nccl.json"
    ;;
  *) echo "gpu_check: unknown phase $phase"; exit 2 ;;
  esac
done
exit $status
