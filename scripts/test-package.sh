#!/bin/sh
# Packaging test (run by scripts/run-tests.sh after the default build):
#   1. `cmake --install` of a build into a staging root (DESTDIR), then the consumer project
#      tests/install/consumer built against it with find_package(mmdkit CONFIG) (static, one
#      layer, shared) and with pkg-config (shared and --static), and run;
#   2. the Debian packages (CPack): mmdkit and mmdkit-dev built, their files and declared
#      dependencies checked, their contents unpacked into an empty root where the CLI runs and the
#      consumer builds again (installing them on a fresh Debian 12 with apt: scripts/test-deb-fresh.sh);
#   3. with --release: a plain `cmake -DCMAKE_BUILD_TYPE=Release` configure (no preset: what a
#      consumer's build does): no -Werror in any compile command, and the core layer (where g++ 12's
#      -O3 -Wrestrict false positive once broke consumers) built at -O3; with --release-full the
#      whole plain Release build instead, installed, and the consumer built against it (a second
#      full build: left out of CI's time budget, run it before a release).
# Usage: sh scripts/test-package.sh [--release|--release-full] [BUILD_DIR (default build/default)]
set -eu
cd "$(dirname "$0")/.."
root=$PWD
release=0
case ${1:-} in
  --release) release=1; shift ;;
  --release-full) release=2; shift ;;
esac
build=$(cd "${1:-build/default}" && pwd)
work=$root/build/package
rm -rf "$work"
mkdir -p "$work"
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
step() { echo "test-package: $*"; }

# consumer PREFIX NAME: builds and runs the consumer against an install in PREFIX (CMake + pkg-config).
consumer() {
  prefix=$1
  out=$work/consumer-$2
  cmake -S "$root/tests/install/consumer" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$out.log" 2>&1 || { cat "$out.log"; fail "consumer configure ($2)"; }
  cmake --build "$out" >>"$out.log" 2>&1 || { cat "$out.log"; fail "consumer build ($2)"; }
  libdir=$(dirname "$(find "$prefix" -name 'libmmdkit.so' | head -1)")
  "$out/consumer_static" || fail "consumer_static ($2)"
  "$out/consumer_vmd_layer" || fail "consumer_vmd_layer ($2)"
  LD_LIBRARY_PATH=$libdir "$out/consumer_shared" || fail "consumer_shared ($2)"
  LD_LIBRARY_PATH=$libdir ldd "$out/consumer_shared" | grep -q "libmmdkit.so.* => $libdir" ||
    fail "consumer_shared does not load $libdir/libmmdkit.so ($2)"
  # pkg-config: the .pc file finds its prefix from its own folder (staged or unpacked trees work).
  pc=$(dirname "$(find "$prefix" -name mmdkit.pc | head -1)")
  ver=$(PKG_CONFIG_PATH=$pc pkg-config --modversion mmdkit)
  PKG_CONFIG_PATH=$pc g++ -o "$out/pc_shared" -DCONSUMER_EXPECTED_VERSION="\"$ver\"" \
    "$root/tests/install/consumer/main.cpp" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs mmdkit) ||
    fail "pkg-config shared build ($2)"
  LD_LIBRARY_PATH=$libdir "$out/pc_shared" >/dev/null || fail "pkg-config shared run ($2)"
  PKG_CONFIG_PATH=$pc g++ -o "$out/pc_static" -DCONSUMER_EXPECTED_VERSION="\"$ver\"" \
    "$root/tests/install/consumer/main.cpp" -Wl,-Bstatic $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs mmdkit) \
    -Wl,-Bdynamic $(pkg-config --libs stb) || fail "pkg-config static build ($2)"
  ! ldd "$out/pc_static" | grep -q libmmdkit || fail "pc_static links libmmdkit.so ($2)"
  "$out/pc_static" >/dev/null || fail "pkg-config static run ($2)"
}

# 1. staged install of the given build
step "install $build into a staging root"
DESTDIR=$work/stage cmake --install "$build" --prefix /usr >"$work/install.log" || fail "cmake --install"
stage=$work/stage/usr
for f in bin/mmdkit include/mmdkit/version.hpp include/mmdkit/formats/vmd.hpp lib/cmake/mmdkit/mmdkitConfig.cmake \
         lib/cmake/mmdkit/mmdkitConfigVersion.cmake lib/pkgconfig/mmdkit.pc lib/libmmdkit.so lib/libmmdkit.a \
         lib/libmmdkit_core.a share/man/man1/mmdkit.1.gz share/man/man1/mmdkit-convert.1.gz \
         share/bash-completion/completions/mmdkit share/zsh/vendor-completions/_mmdkit share/doc/mmdkit/README.md; do
  [ -e "$stage/$f" ] || fail "not installed: $f"
done
"$stage/bin/mmdkit" --version | grep -q "^built with: physics" || fail "installed mmdkit --version"
# bash completion: commands and a command's options, from the installed binary itself.
cat >"$work/complete.bash" <<'BASH'
. "$1/share/bash-completion/completions/mmdkit"
PATH=$1/bin:$PATH
COMP_WORDS=(mmdkit con); COMP_CWORD=1; _mmdkit; [[ ${COMPREPLY[*]} == convert ]] || { echo "commands: ${COMPREPLY[*]}"; exit 1; }
COMP_WORDS=(mmdkit check --js); COMP_CWORD=2; _mmdkit; [[ ${COMPREPLY[*]} == --json ]] || { echo "options: ${COMPREPLY[*]}"; exit 1; }
BASH
bash "$work/complete.bash" "$stage" || fail "bash completion"
step "consumer against the staged install"
consumer "$stage" staged

# 2. Debian packages
step "Debian packages (cpack)"
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/deb/mmdkit_*.deb)
dev=$(ls "$work"/deb/mmdkit-dev_*.deb)
dpkg-deb -c "$deb" >"$work/deb.txt"
dpkg-deb -c "$dev" >"$work/dev.txt"
for f in ./usr/bin/mmdkit ./usr/share/man/man1/mmdkit.1.gz ./usr/share/bash-completion/completions/mmdkit \
         ./usr/share/doc/mmdkit/README.md; do
  grep -q " $f" "$work/deb.txt" || fail "mmdkit package lacks $f"
done
grep -q "libmmdkit.so.[0-9]" "$work/deb.txt" || fail "mmdkit package lacks libmmdkit.so.N"
for f in ./usr/include/mmdkit/version.hpp ./usr/lib/cmake/mmdkit/mmdkitConfig.cmake ./usr/lib/pkgconfig/mmdkit.pc \
         ./usr/lib/libmmdkit.a ./usr/lib/libmmdkit.so; do
  grep -q " $f" "$work/dev.txt" || fail "mmdkit-dev package lacks $f"
done
! grep -q "/usr/include" "$work/deb.txt" || fail "headers in the runtime package"
depends=$(dpkg-deb -f "$deb" Depends)
echo "$depends" | grep -q "libc6" || fail "mmdkit Depends lacks libc6: $depends"
echo "$depends" | grep -q "libstdc++6" || fail "mmdkit Depends lacks libstdc++6: $depends"
echo "$depends" | grep -q "libstb0" || fail "mmdkit Depends lacks libstb0: $depends"
dev_depends=$(dpkg-deb -f "$dev" Depends)
echo "$dev_depends" | grep -q "mmdkit (= " || fail "mmdkit-dev does not depend on mmdkit"
# Every pkg-config module mmdkitConfig.cmake / mmdkit.pc ask for must come with mmdkit-dev (a fresh
# Debian root has none of them: scripts/test-deb-fresh.sh found libbullet-dev and zlib1g-dev missing).
need_dev="pkg-config libstb-dev zlib1g-dev"
grep -q 'pkg_check_modules(BULLET' "$build/mmdkitConfig.cmake" 2>/dev/null && need_dev="$need_dev libbullet-dev"
for p in $need_dev; do
  echo "$dev_depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$p" || fail "mmdkit-dev Depends lacks $p: $dev_depends"
done
step "mmdkit-dev Depends: $dev_depends"
step "mmdkit Depends: $depends"
# With the render layer the EGL driver stack is loaded at run time (no shlibdeps): Recommends names it.
if "$stage/bin/mmdkit" --version | grep -q "render yes"; then
  recommends=$(dpkg-deb -f "$deb" Recommends)
  for p in libegl1 libegl-mesa0 libgl1-mesa-dri; do
    echo "$recommends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$p" || fail "mmdkit Recommends lacks $p: $recommends"
  done
  # FFmpeg is dlopened when a video is written (src/render/ffmpeg.hpp): Recommends names it too.
  for p in libavcodec libavformat libavutil libswscale libswresample; do
    echo "$recommends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$p[0-9][0-9]*" || fail "mmdkit Recommends lacks $p: $recommends"
  done
  step "mmdkit Recommends: $recommends"
fi
unpacked=$work/unpacked
dpkg-deb -x "$deb" "$unpacked"
dpkg-deb -x "$dev" "$unpacked"
LD_LIBRARY_PATH=$unpacked/usr/lib "$unpacked/usr/bin/mmdkit" --version >/dev/null || fail "packaged mmdkit --version"
zcat "$unpacked/usr/share/man/man1/mmdkit-info.1.gz" | grep -q '^mmdkit\\-info \\- summary of a file' ||
  fail "packaged man page mmdkit-info(1) lacks its NAME line"
step "consumer against the packages' contents"
consumer "$unpacked/usr" deb

# 3. plain Release build, as a consumer would configure it
if [ "$release" != 0 ]; then
  rel=$root/build/release
  step "plain Release configure (no preset, warnings not errors) in $rel"
  cmake -S "$root" -B "$rel" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMMDKIT_BUILD_TESTS=OFF \
    -DMMDKIT_BUILD_BENCH=OFF >"$work/release.log" 2>&1 || { cat "$work/release.log"; fail "Release configure"; }
  # Warnings as errors belong to our presets: a consumer's configure must not get them.
  if grep -q -e '-Werror' "$rel/build.ninja" "$rel"/CMakeFiles/rules.ninja 2>/dev/null; then
    grep -m3 -n -e '-Werror' "$rel/build.ninja" >&2 || true
    fail "a plain Release configure compiles with -Werror"
  fi
  grep -q -e '-O3' "$rel/build.ninja" || fail "a plain Release configure does not compile with -O3"
  if [ "$release" = 2 ]; then
    cmake --build "$rel" >>"$work/release.log" 2>&1 || { tail -50 "$work/release.log"; fail "Release build"; }
    DESTDIR=$work/stage-release cmake --install "$rel" --prefix /usr >>"$work/release.log" || fail "Release install"
    consumer "$work/stage-release/usr" release
  else
    cmake --build "$rel" --target mmdkit_core >>"$work/release.log" 2>&1 ||
      { tail -50 "$work/release.log"; fail "Release build of the core layer"; }
    step "plain Release: no -Werror; core layer built at -O3 (whole build: --release-full)"
  fi
fi
step "ok"
