#!/bin/sh
# Compile kernels/ga_strided.cuh for the CPU in every configuration and run
# the harness (no GPU needed): sh tools/strided_check/run.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# C linkage would make the configurations' kernels one function
sed 's/extern "C" //' "$here/../../kernels/ga_strided.cuh" > "$tmp/ga_strided.cuh"
: > "$tmp/configs.inc"; : > "$tmp/runs.inc"
i=0
for e in 1 2 4 8 16; do
  for s in 2 3 4 5 6 7 8 -2 -3 -5 -8; do
    for nd in 1 2 3; do
      for it in int "long long"; do
        i=$((i + 1))
        cat >> "$tmp/configs.inc" <<EOC
namespace c$i {
#define GA_IT $it
#define GA_SC_E $e
#define GA_SC_S $s
#define GA_SC_NDIM $nd
#define GA_SC_BLOCK 256
#include "ga_strided.cuh"
#undef GA_IT
#undef GA_SC_E
#undef GA_SC_S
#undef GA_SC_NDIM
#undef GA_SC_BLOCK
#undef GA_SC_W
#undef GA_SC_STEP
#undef GA_SC_WIDE
#undef GA_SC_ASTEP
#undef GA_SC_REV
#undef GA_SC_CASE
}
EOC
        echo "RUN($e, $s, $nd, $it, c$i::ga_sc, c$i::ga_sc_t, c$i::_ga_sc_ix)" >> "$tmp/runs.inc"
      done
    done
  done
done
${CXX:-g++} -std=c++17 -O1 -w -I"$tmp" "$here/harness.cpp" -o "$tmp/harness"
"$tmp/harness"
