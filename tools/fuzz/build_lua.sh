#!/bin/sh
# tools/fuzz/build_lua.sh OUT [CC]: builds OUT, a Lua 5.4 interpreter with
# Lua's API checks and internal assertions on (LUA_USE_APICHECK,
# LUAI_ASSERT) and AddressSanitizer + UBSan, for `make fuzz`.
#
# The sources are Debian's lua5.4 source package (the version whose headers
# the module is built against), fetched with apt-get into a private
# sources.list and lists directory under OUT's directory: the system's apt
# configuration is not touched and no root is needed.  Debian's patches are
# applied when `patch` is present (the CVE fixes; the build-system patch is
# not wanted here).  The interpreter is linked with -Wl,-E so that C modules
# (gpuarray.core does not link liblua) resolve the Lua API from it.
#
# Fallback, when the source package cannot be had (no network, no apt):
# the script exits 2 after saying so; `make fuzz` then runs the stock lua5.4
# with the sanitizer runtimes preloaded (no API checks).
set -eu

out=$1
cc=${2:-cc}
dir=$(dirname "$out")/lua-src
mkdir -p "$dir/lists/partial"
dir=$(cd "$dir" && pwd)

say() { printf 'lua-checked: %s\n' "$*" >&2; }

if ! ls "$dir"/lua5.4_*.orig.tar.* >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get is missing: cannot fetch Debian's lua5.4 source"; exit 2
  fi
  cat > "$dir/sources.list" <<EOS
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
EOS
  set -- -o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
         -o "Dir::State::Lists=$dir/lists" -o Debug::NoLocking=1 -q
  ver=$(dpkg-query -W -f='${Version}' liblua5.4-dev 2>/dev/null || true)
  if ! (cd "$dir" && apt-get "$@" update >apt.log 2>&1 &&
        { { [ -n "$ver" ] && apt-get "$@" source --download-only "lua5.4=$ver"; } ||
          apt-get "$@" source --download-only lua5.4; } >>apt.log 2>&1); then
    cat "$dir/apt.log" >&2
    say "could not fetch Debian's lua5.4 source package"; exit 2
  fi
fi

src=$dir/src
rm -rf "$src" && mkdir -p "$src"
tar -xzf "$(ls "$dir"/lua5.4_*.orig.tar.gz | tail -1)" -C "$src" --strip-components=1
deb=$(ls "$dir"/lua5.4_*.debian.tar.* 2>/dev/null | tail -1 || true)
if [ -n "$deb" ] && command -v patch >/dev/null 2>&1; then
  tar -xf "$deb" -C "$src"
  for p in $(grep -v '^#' "$src/debian/patches/series"); do
    case $p in *build-system*) continue ;; esac
    patch -s -p1 -d "$src" < "$src/debian/patches/$p" || say "patch $p did not apply (skipped)"
  done
else
  say "Debian's patches not applied (no patch(1)): upstream sources"
fi

# The core and the standard libraries, without luac.c (a second main);
# LUA_COMPAT_5_3 as Debian's build, no readline (the fuzzer reads no input).
# -fwrapv: Lua 5.4.4's own constant folding negates math.mininteger
# (`x >> math.mininteger`, lobject.c), which UBSan would report as ours.
flags="-std=gnu99 -O1 -g -fwrapv -fno-omit-frame-pointer -fsanitize=address,undefined \
  -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -DLUA_USE_APICHECK -DLUAI_ASSERT"
files=$(ls "$src"/src/*.c | grep -v '/luac\.c$')
# shellcheck disable=SC2086
$cc $flags -I"$src/src" $files -o "$out.tmp" -Wl,-E -ldl -lm
mv "$out.tmp" "$out"
say "built $out (Lua $("$out" -v 2>&1 | cut -d' ' -f2) with LUA_USE_APICHECK, LUAI_ASSERT, ASan+UBSan)"
