#!/bin/sh
# tools/fuzz/run.sh LUA: runs tools/fuzz/fuzz.lua with the interpreter LUA
# (the environment is make fuzz's) and, when the process dies (a sanitizer
# report, an abort, a signal) or the fuzzer reports a failed check, prints
# the seed and the case that reproduce it from the log ($FUZZ_LOG), to which
# the fuzzer writes (and flushes) each case's line before running it.
lua=$1
log=${FUZZ_LOG:-fuzz.log}
: > "$log"
# a hang is a bug too: the run may overrun FUZZ_SECONDS by one slow case,
# not by minutes
limit=$(( ${FUZZ_SECONDS:-120} + 300 ))
timeout --kill-after=10 "$limit" "$lua" tools/fuzz/fuzz.lua
rc=$?
[ "$rc" -eq 124 ] && echo "fuzz: no end after ${limit}s: the last case hangs" >&2
if [ "$rc" -ne 0 ]; then
  echo "fuzz: FAILED (exit status $rc); the last case run (its program):" >&2
  start=$(grep -n '^case ' "$log" | tail -n 1 | cut -d: -f1)
  [ -n "$start" ] && tail -n "+$start" "$log" | head -n 60 >&2
  last=$(grep '^case ' "$log" | tail -n 1)
  seed=$(sed -n 's/^seed \([0-9-]*\).*/\1/p' "$log" | head -n 1)
  n=$(printf '%s\n' "$last" | sed -n 's/^case \([0-9]*\).*/\1/p')
  same="FUZZ_SKIP=${FUZZ_SKIP:-default}${FUZZ_ONLY:+ FUZZ_ONLY=$FUZZ_ONLY}"
  if [ -z "$n" ]; then   # a fixed case (numbered -1, -2, ...): every run starts with them
    echo "fuzz: a fixed case (tools/fuzz/fuzz.lua, FIXED); reproduce with: make fuzz FUZZ_SECONDS=1" >&2
  else
    echo "fuzz: reproduce with: make fuzz SEED=$seed FUZZ_CASE=$n $same" \
         "(that case alone; without FUZZ_CASE to replay the run)" >&2
  fi
fi
exit "$rc"
