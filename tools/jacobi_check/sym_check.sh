#!/bin/sh
# Runs kernels/ga_jacobi_sym.cuh on the host (sym_harness.cpp: a pthread per
# lane) for several sizes, dtypes, triangles and kinds of input, and fails
# when a residual is off.  No GPU needed:  sh tools/jacobi_check/sym_check.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() {   # n P real upper maxsweep eps shflt batch kinds...
  n=$1 p=$2 real=$3 up=$4 sw=$5 eps=$6 sh=$7 nb=$8
  shift 8
  printf '#define GA_JN %s\n#define GA_JP %s\n#define GA_JREAL_T %s\n#define GA_JUPPER %s\n#define GA_JWPB 2\n#define GA_JMAXSWEEP %s\n#define GA_JTOL %s\n#define GA_JFLOOR %s\n#define GA_JMINB 0\n#define GA_JSHFLT %s\n#define GA_JFAST 0\n#include "%s/../../kernels/ga_jacobi_sym.cuh"\n' \
    "$n" "$p" "$real" "$up" "$sw" "$eps" "$eps" "$sh" "$HERE" > "$T/k.h"
  g++ -O1 -std=c++17 -w -DKERNEL_SRC="\"$T/k.h\"" "$HERE/sym_harness.cpp" -o "$T/h" -lpthread
  for k in "$@"; do
    out=$("$T/h" "$nb" "$k")
    echo "$real $out"
    tol=$( [ "$real" = float ] && echo 2e-5 || echo 1e-13 )
    echo "$out" | awk -v tol="$tol" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      END { if (v["resid"] + 0 > tol || v["orth"] + 0 > tol || v["unsorted"] + 0 > 0) { print "FAILED"; exit 1 } }'
  done
}
F=1.1920928955078125e-07 D=2.220446049250313e-16
run 16 16 float 1 15 $F 1 16 0 1 2 3 4 5 6 7
run 16 16 float 0 15 $F 0 5 0
run 1 2 float 1 15 $F 1 40 0
run 3 4 float 0 15 $F 1 37 0 1
run 7 8 float 1 15 $F 1 9 0 5
run 17 32 float 1 15 $F 1 3 0
run 32 32 float 0 15 $F 1 3 0 1
run 16 16 double 1 20 $D 0 5 0 3 5
run 3 4 double 0 20 $D 1 9 7
echo "sym_check: all good"
