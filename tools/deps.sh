#!/bin/sh
# tools/deps.sh: check what building and testing gpuarray needs on Debian 12
# (run by `make deps`, hence by `make test` and `make demo`).
#
#   Debian packages: gcc libc6-dev (C compiler), g++ (ElementwiseKernel on
#                    host arrays), lua5.4, liblua5.4-dev,
#                    lua-busted (busted usable from Lua 5.4), libopenblas-dev,
#                    zlib1g-dev (deflate for .npz: savez_compressed, load)
#   CUDA toolkit:    $CUDA_DIR (default /usr/local/cuda) with the headers
#                    cuda_runtime_api.h and nvrtc.h and the libraries cudart,
#                    nvrtc, cublas, curand and cufft (nvcc is not needed)
#
# Missing packages are installed with apt-get when running as root on a
# system that has it; otherwise the script names the missing packages and the
# command that installs them, and exits 1.  A missing CUDA toolkit cannot be
# installed from Debian: the script says so and exits 1.  When everything is
# present it prints nothing and returns at once.
#
# Environment: CUDA_DIR, LUA_INCDIR (default /usr/include/lua5.4), LUA
# (default lua5.4).  Set GPUARRAY_NO_APT=1 to never run apt-get.

set -u

CUDA_DIR=${CUDA_DIR:-/usr/local/cuda}
LUA_INCDIR=${LUA_INCDIR:-/usr/include/lua5.4}
LUA=${LUA:-lua5.4}
CC=${CC:-cc}

say() { printf 'deps: %s\n' "$*" >&2; }

have() { command -v "$1" >/dev/null 2>&1; }

# Is libopenblas.so where the linker will look?
have_openblas() {
  if have "$CC"; then
    p=$("$CC" -print-file-name=libopenblas.so 2>/dev/null)
    case $p in /*) [ -e "$p" ] && return 0 ;; esac
  fi
  for p in /usr/lib/*-linux-gnu/libopenblas.so /usr/lib64/libopenblas.so \
           /usr/lib/libopenblas.so /usr/local/lib/libopenblas.so; do
    [ -e "$p" ] && return 0
  done
  return 1
}

# Sets $missing to the Debian packages whose files are absent.
check_packages() {
  missing=
  have "$CC" || missing="$missing gcc"
  [ -e /usr/include/stdio.h ] || missing="$missing libc6-dev"
  have "${CXX:-c++}" || missing="$missing g++"
  have "$LUA" || missing="$missing lua5.4"
  [ -e "$LUA_INCDIR/lua.h" ] || missing="$missing liblua5.4-dev"
  if ! have busted || ! have "$LUA" ||
     ! "$LUA" -e 'require "busted.runner"' >/dev/null 2>&1; then
    missing="$missing lua-busted"
  fi
  have_openblas || missing="$missing libopenblas-dev"
  [ -e /usr/include/zlib.h ] ||
    missing="$missing zlib1g-dev"
  missing=${missing# }
}

# Sets $cuda_missing to the CUDA toolkit files that are absent.
check_cuda() {
  cuda_missing=
  for f in include/cuda_runtime_api.h include/nvrtc.h \
           lib64/libcudart.so lib64/libnvrtc.so lib64/libcublas.so \
           lib64/libcurand.so lib64/libcufft.so; do
    [ -e "$CUDA_DIR/$f" ] || cuda_missing="$cuda_missing $CUDA_DIR/$f"
  done
  cuda_missing=${cuda_missing# }
}

report_cuda() {
  say "the CUDA toolkit is missing or incomplete in CUDA_DIR=$CUDA_DIR; not found:"
  for f in $cuda_missing; do say "    $f"; done
  say "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads;"
  say "nvcc is not needed) or point CUDA_DIR at it, e.g. make test CUDA_DIR=/opt/cuda"
}

check_packages
check_cuda
[ -z "$missing" ] && [ -z "$cuda_missing" ] && exit 0

if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && have apt-get && [ "${GPUARRAY_NO_APT:-0}" != 1 ]; then
    say "installing missing Debian packages: $missing"
    log=$(mktemp "${TMPDIR:-/tmp}/gpuarray-deps.XXXXXX") || exit 1
    # shellcheck disable=SC2086  # $missing is a word list
    if ! apt-get update -q >"$log" 2>&1; then
      cat "$log" >&2; rm -f "$log"
      say "apt-get update failed (output above)"
      exit 1
    fi
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
           --no-install-recommends $missing >"$log" 2>&1; then
      cat "$log" >&2; rm -f "$log"
      say "apt-get install $missing failed (output above)"
      exit 1
    fi
    # Keep warnings and errors that apt printed, drop the progress chatter.
    grep -E '^(E|W):' "$log" >&2
    rm -f "$log"
    check_packages
    if [ -n "$missing" ]; then
      say "still missing after apt-get install: $missing"
      exit 1
    fi
    say "installed."
  else
    say "missing Debian packages: $missing"
    if [ "$(id -u)" = 0 ]; then
      say "install them with:  apt-get update && apt-get install -y $missing"
    else
      say "install them with:  sudo apt-get update && sudo apt-get install -y $missing"
    fi
    [ -n "$cuda_missing" ] && report_cuda
    exit 1
  fi
fi

if [ -n "$cuda_missing" ]; then
  report_cuda
  exit 1
fi
exit 0
