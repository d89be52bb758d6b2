#!/bin/sh
# allreduce_mp.sh — start N processes of examples/allreduce_mp.lua on this
# machine (one per GPU), give them one NCCL id through a file, and check
# that every rank succeeded.
#
#   sh examples/allreduce_mp.sh [N]
#
# N defaults to the number of GPUs (1 without a GPU: a world of one rank on
# the host).  NCCL must be loadable: on the loader's path, or
#   export GPUARRAY_NCCL=$(python3 -c "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))")
# NVLink multicast is turned off (NCCL_NVLS_ENABLE=0) unless set otherwise.
#
# Several hosts: rank 0 writes the id to GA_ID_FILE, which every host must
# see (a shared file system); start each host's ranks with their global
# rank offset:
#   host A:  rm -f /shared/ga_id
#            GA_ID_FILE=/shared/ga_id GA_WORLD_SIZE=16 GA_RANK_BASE=0 sh examples/allreduce_mp.sh 8
#   host B:  GA_ID_FILE=/shared/ga_id GA_WORLD_SIZE=16 GA_RANK_BASE=8 sh examples/allreduce_mp.sh 8
# (NCCL finds the network itself; NCCL_SOCKET_IFNAME=eth0 or NCCL_IB_HCA pick
# the interface.  An MPI launcher does the same with its own rank variables:
# set GA_RANK, GA_WORLD_SIZE and GA_LOCAL_RANK from them.)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
LUA=${LUA:-lua5.4}
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
# find gpuarray in this checkout when it is built here (else: installed)
if [ -f "$root/build/gpuarray/core.so" ]; then
  export LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;${LUA_PATH:-;}"
  export LUA_CPATH="$root/build/?.so;${LUA_CPATH:-;}"
fi

ngpu=0
if command -v nvidia-smi >/dev/null 2>&1; then ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true); fi
N=${1:-$ngpu}
[ "$N" -ge 1 ] 2>/dev/null || N=1
WORLD=${GA_WORLD_SIZE:-$N}
BASE=${GA_RANK_BASE:-0}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ga_mp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
idfile=${GA_ID_FILE:-$tmp/id}   # rank 0 writes it (see allreduce_mp.lua)

pids=""
i=0
while [ "$i" -lt "$N" ]; do
  GA_RANK=$((BASE + i)) GA_WORLD_SIZE=$WORLD GA_LOCAL_RANK=$i GA_ID_FILE=$idfile \
    "$LUA" "$here/allreduce_mp.lua" > "$tmp/rank$i.log" 2>&1 &
  pids="$pids $!"
  i=$((i + 1))
done
fail=0
i=0
for p in $pids; do
  if ! wait "$p"; then fail=1; echo "rank $((BASE + i)) failed:"; fi
  cat "$tmp/rank$i.log"
  i=$((i + 1))
done
if [ "$fail" -ne 0 ]; then echo "allreduce_mp: FAILED"; exit 1; fi
echo "allreduce_mp: $N local rank(s) of $WORLD ok"
