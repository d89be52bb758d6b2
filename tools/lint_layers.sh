#!/bin/sh
# tools/lint_layers.sh: the layer rules of DESIGN.md, checked with grep
# (run by `make lint`).  Dependencies point down only:
#
#   binding  ->  core  ->  host | cuda  ->  base
#
#   base     includes nothing above it (only base/)
#   core     never includes binding/, host/ or cuda/ (it calls backends
#            through the ga_backend table)
#   host     never includes cuda/, core/ or binding/
#   cuda     never includes host/, core/ or binding/
#   binding  includes core/ and base/; of the backends only the CUDA
#            device, stream and event objects (lga_device.c) may include
#            cuda/: they are CUDA by name (RawKernel/RawModule go through
#            the backend's raw_* slots like everything else)
#   core and binding never call a backend's function by name (ga_host_*,
#            ga_cuda_*): the core goes through ga_backend_of(device), the
#            binding through the core (same exception)
#   lua.h / lauxlib.h / lualib.h: only binding/
# Prints every violation as file:line: text and exits 1 if there is one.
set -u
cd "$(dirname "$0")/.." || exit 1
bad=0

check() {  # check <folder> <regex of forbidden includes> <why>
  out=$(grep -n -E "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($2)" src/"$1"/* 2>/dev/null)
  if [ -n "$out" ]; then
    printf '%s\n' "$out" | sed "s|\$|   <- $3|"
    bad=1
  fi
}

check base 'core/|host/|cuda/|binding/|lua\.h|lauxlib\.h|lualib\.h' 'base includes nothing above it'
check core 'binding/|host/|cuda/|lua\.h|lauxlib\.h|lualib\.h' 'core reaches backends through ga_backend only'
check host 'cuda/|core/|binding/|lua\.h|lauxlib\.h|lualib\.h' 'host backend sees base only'
check cuda 'host/|core/|binding/|lua\.h|lauxlib\.h|lualib\.h' 'CUDA backend sees base only'
for f in src/binding/*.c src/binding/*.h; do
  case $f in src/binding/lga_device.c) continue ;; esac
  out=$(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(host|cuda)/' "$f")
  if [ -n "$out" ]; then
    printf '%s\n' "$out" | sed "s|^|$f:|; s|\$|   <- the binding calls the core, never a backend|"
    bad=1
  fi
done
# Calls by name into a backend (comments skipped: lines whose text starts
# with /* or *)
for f in src/core/*.c src/core/*.h src/binding/*.c src/binding/*.h; do
  case $f in src/binding/lga_device.c) continue ;; esac
  out=$(grep -n -E '\bga_(host|cuda)_[a-z0-9_]+[[:space:]]*\(' "$f" | grep -v -E '^[0-9]+:[[:space:]]*(/\*|\*)')
  if [ -n "$out" ]; then
    printf '%s\n' "$out" | sed "s|^|$f:|; s|\$|   <- dispatch through ga_backend_of (core) or the core (binding)|"
    bad=1
  fi
done
# Backends allocate no arrays or buffers (the core's, core/ga_mem.h): their
# scratch comes from their own pool (base/ga_scratch.h)
out=$(grep -n -E '\bga_(buffer_new|buffer_decref|array_init|array_release)[[:space:]]*\(' src/host/* src/cuda/* |
      grep -v -E '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)')
if [ -n "$out" ]; then
  printf '%s\n' "$out" | sed 's|$|   <- backends take scratch from their pool (ga_scratch_get), never core buffers|'
  bad=1
fi
# No include circles between files of one folder: a header may not include
# a header that includes it back (direct circles; deeper ones show as these).
for h in src/*/*.h; do
  hb=${h#src/}
  for inc in $(grep -h -o -E '#[[:space:]]*include[[:space:]]*"[a-z]+/[A-Za-z0-9_]+\.h"' "$h" | sed 's/.*"\(.*\)"/\1/'); do
    if [ -f "src/$inc" ] && grep -q -E "#[[:space:]]*include[[:space:]]*\"$hb\"" "src/$inc"; then
      echo "$h: include circle with src/$inc"
      bad=1
    fi
  done
done
[ "$bad" = 0 ] || echo "lint_layers: layer rule violations above (see DESIGN.md, Architecture)"
exit $bad
