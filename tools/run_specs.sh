#!/bin/sh
# tools/run_specs.sh: run the busted specs, each spec file in its own
# process, JOBS at a time (default: the number of cores), and add up their
# results.  `make test` calls it.  With a GPU the GPU half of the big ufunc
# spec is cut into UFUNC_SHARDS slices (UFUNC_GPU_SHARD=k/n, default 8) that
# run as separate jobs, so that its NVRTC compiles spread over the cores;
# spec/kernels_spec.lua and reduce_spec.lua likewise in
# KERNEL_SHARDS slices (SPEC_SHARD=k/n).
#
#   tools/run_specs.sh [spec files...]     (default: spec/*_spec.lua)
#
# Environment: LUA (lua5.4), BUSTED (/usr/bin/busted), BUILD (build),
# JOBS, UFUNC_SHARDS, BUSTED_ARGS (extra busted arguments, e.g. tags),
# SPEC_LOGS (keep each file's log there; default a temporary directory),
# SPEC_TIMEOUT (seconds one file may run, default 1200).  Each file's result
# line is printed as soon as it ends, so a run cut short still says which
# files passed.
# Prints every failing file's whole output, then one line per file and the
# totals as busted prints them; exits 1 when anything failed.
set -u
LUA=${LUA:-lua5.4}
BUSTED=${BUSTED:-/usr/bin/busted}
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
UFUNC_SHARDS=${UFUNC_SHARDS:-8}
# the long files (NVRTC compiles, subprocesses) in slices (SPEC_SHARD=k/n,
# helper.shard_it), on every machine
SHARDED=${SHARDED:-"kernels_spec reduce_spec"}
KERNEL_SHARDS=${KERNEL_SHARDS:-$(( JOBS < 8 ? JOBS : 8 ))}
BUSTED_ARGS=${BUSTED_ARGS:-}

[ $# -gt 0 ] || set -- spec/*_spec.lua
SPEC_TIMEOUT=${SPEC_TIMEOUT:-1200}
if [ -n "${SPEC_LOGS:-}" ]; then
  logs=$SPEC_LOGS
  mkdir -p "$logs" || exit 1
else
  logs=$(mktemp -d "${TMPDIR:-/tmp}/gpuarray-specs.XXXXXX") || exit 1
  trap 'rm -rf "$logs"' EXIT INT TERM
fi

gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
   [ "${GPUARRAY_DEVICE:-}" != cpu ]; then
  gpu=1
fi

# One job per line: "<log name> <spec file> <shard or -> <filter or ->".
# The largest files go first so that they do not finish last.
jobs_file=$logs/jobs
: >"$jobs_file"
for f in $(ls -S "$@"); do
  name=$(basename "$f" .lua)
  if [ "$gpu" = 1 ] && [ "$name" = ufunc_spec ] && [ "$UFUNC_SHARDS" -gt 1 ]; then
    echo "$name.1 $f 1/$UFUNC_SHARDS -" >>"$jobs_file"
    k=2
    while [ "$k" -le "$UFUNC_SHARDS" ]; do
      echo "$name.$k $f $k/$UFUNC_SHARDS GPU" >>"$jobs_file"
      k=$((k + 1))
    done
  elif case " $SHARDED " in *" $name "*) true ;; *) false ;; esac && [ "$KERNEL_SHARDS" -gt 1 ]; then
    k=1
    while [ "$k" -le "$KERNEL_SHARDS" ]; do
      echo "$name.$k $f $k/$KERNEL_SHARDS -" >>"$jobs_file"
      k=$((k + 1))
    done
  else
    echo "$name $f - -" >>"$jobs_file"
  fi
done

export LUA BUSTED BUILD BUSTED_ARGS SPEC_TIMEOUT logs
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c '
  name=$0 file=$1 shard=$2 filter=$3
  set -- --lua="$LUA" --cpath="./$BUILD/?.so" -o utfTerminal
  [ "$filter" = - ] || set -- "$@" --filter="ufunc.GPU.vs.host"  # no spaces: busted --lua re-runs itself unquoted
  t0=$(date +%s)
  [ "$shard" = - ] || export UFUNC_GPU_SHARD=$shard SPEC_SHARD=$shard
  timeout --kill-after=10 "$SPEC_TIMEOUT" "$LUA" "$BUSTED" "$@" $BUSTED_ARGS "$file" >"$logs/$name.log" 2>&1
  rc=$?
  echo $rc >"$logs/$name.rc"
  [ $rc = 124 ] && echo "$name: timed out after ${SPEC_TIMEOUT}s" >>"$logs/$name.log"
  printf "[%4ss] %-22s %s\n" "$(( $(date +%s) - t0 ))" "$name" \
    "$(grep -a -E "success(es)? /|timed out" "$logs/$name.log" | tail -n 1)" >&2
' <"$jobs_file"

status=0
ok=0 fail=0 err=0 pend=0
summary=$logs/summary
: >"$summary"
while read -r name file shard filter; do
  rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 99)
  line=$(grep -a -E '^[0-9]+ success(es)? / [0-9]+ failures? / [0-9]+ errors? / [0-9]+ pending' "$logs/$name.log" | tail -n 1)
  if [ -z "$line" ]; then
    status=1
    err=$((err + 1))
    printf '\n==== %s: no busted summary (exit %s) ====\n' "$name" "$rc"
    cat "$logs/$name.log"
    printf '%-22s no summary (exit %s)\n' "$name" "$rc" >>"$summary"
    continue
  fi
  set -- $line
  ok=$((ok + $1)) fail=$((fail + $4)) err=$((err + $7)) pend=$((pend + ${10}))
  if [ "$rc" != 0 ] || [ "$4" != 0 ] || [ "$7" != 0 ]; then
    status=1
    printf '\n==== %s: failed (exit %s) ====\n' "$name" "$rc"
    cat "$logs/$name.log"
  fi
  printf '%-22s %s\n' "$name" "$line" >>"$summary"
done <"$jobs_file"

printf '\n'
cat "$summary"
printf '%s successes / %s failures / %s errors / %s pending\n' "$ok" "$fail" "$err" "$pend"
exit $status
