#!/bin/sh
# tools/fuzz/run.sh LUA: runs tools/fuzz/fuzz.lua with the interpreter LUA
# (the environment is make fuzz's) and, when the process dies (a sanitizer
# report, an abort, a signal) or the fuzzer reports a failed check, prints
# the seed and the case that reproduce it from the log ($FUZZ_LOG), to which
# the fuzzer writes (and flushes) each case's line before running it.
lua=$1
log=${FUZZ_LOG:-fuzz.log}
: > "$log"
"$lua" tools/fuzz/fuzz.lua
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "fuzz: FAILED (exit status $rc); the last cases run:" >&2
  tail -n 5 "$log" >&2
  last=$(grep '^case ' "$log" | tail -n 1)
  seed=$(sed -n 's/^seed \([0-9-]*\).*/\1/p' "$log" | head -n 1)
  n=$(printf '%s\n' "$last" | sed -n 's/^case \([0-9]*\).*/\1/p')
  echo "fuzz: reproduce with: make fuzz SEED=$seed FUZZ_CASE=$n" \
       "(that case alone; or SEED=$seed alone to replay the run)" >&2
fi
exit "$rc"
