#!/bin/sh
# tools/rng_sass/sass.sh DIST DTYPE [P1 [NAME]]: the random kernel the backend
# generates (core._random_source; GA_RNG_TUNE="u,cs" picks a variant),
# compiled by NVRTC for sm_90, with its registers and its SASS in /tmp/NAME.*
# Needs /tmp/i12n_cubin (tools/rng_sass/nvrtc_cubin.c) and cuobjdump.
set -e
D=${1:-1}; T=${2:-float32}; P1=${3:-1}; N=${4:-rng}
CUOBJDUMP=${CUOBJDUMP:-/tmp/i14j/pkgs/nvidia/cu13/bin/cuobjdump}
LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="build/?.so" lua5.4 -e \
  "local c=require'gpuarray.core'; io.open('/tmp/$N.cu','w'):write(c._random_source($D,'$T',0,90,$P1))"
/tmp/i12n_cubin /tmp/$N.cu /tmp/$N.cubin -diag-suppress=177
$CUOBJDUMP -res-usage /tmp/$N.cubin | grep REG
$CUOBJDUMP -sass /tmp/$N.cubin | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's/^\s+\/\*([0-9a-f]+)\*\/\s+/\1 /; s/ +\/\*.*//' > /tmp/$N.sass
wc -l < /tmp/$N.sass
