#!/bin/sh
# Installs what is missing, builds everything and runs the whole test suite, then the safety net:
#   1. default preset (g++ RelWithDebInfo): build everything, ctest, then the Python module's
#      pytest suite (tests/python) against the build tree (the example notebook executed among
#      them), `pip install` into a fresh venv (scripts/test-pip.sh); then scripts/test-package.sh: install +
#      consumer project, the Debian packages, a plain Release configure (no preset: no -Werror, the
#      core layer at -O3; the whole plain Release build is `test-package.sh --release-full`);
#   2. sanitize preset, the one sanitizer build (clang 16, ASan + UBSan, coverage for libFuzzer):
#      the same ctest under the sanitizers, then every fuzz target of that build for
#      MMDKIT_CI_FUZZ_SECONDS (default 12) seconds on generated + corpus seeds; a finding fails the
#      run (inputs kept in tests/regress/inputs/, see scripts/fuzz.sh).
# MMDKIT_CI_SKIP_ASAN=1 skips the sanitizer ctest, MMDKIT_CI_SKIP_FUZZ=1 the fuzz runs, both the
# sanitizer build (local use only; CI runs all).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh deps/debian-packages-fuzz.txt
# npm for the test-only Node tools (tools/gltf), unless a Node.js with npm is already installed.
command -v npm >/dev/null 2>&1 || sh scripts/install-deps.sh deps/debian-packages-node.txt
# The whole suite runs the glTF tests (Khronos glTF-Validator, three.js GLTFLoader): install their
# npm packages now, once, and make the tests fail rather than skip if the tools are missing then.
sh tools/gltf/setup.sh >/dev/null
export MMDKIT_REQUIRE_NODE_TOOLS=1

stage() { echo "==== run-tests: $* ($(date -u +%H:%M:%S))"; }

stage "default build"
cmake --preset default >/dev/null
cmake --build --preset default
stage "default ctest"
ctest --preset default -LE python   # the pytest entry runs below, with its own summary

if grep -q '^MMDKIT_WITH_PYTHON:BOOL=ON' build/default/CMakeCache.txt; then
  stage "python tests (pytest)"
  # pytest exits 5 when it collects no test: that means the suite went missing, a failure here.
  rc=0
  PYTHONPATH="$PWD/build/default/python" MMDKIT_CLI="$PWD/build/default/mmdkit" \
    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python || rc=$?
  if [ "$rc" = 5 ]; then echo "run-tests: pytest collected no test in tests/python" >&2; exit 1; fi
  [ "$rc" = 0 ] || exit "$rc"
fi

if grep -q '^MMDKIT_WITH_PYTHON:BOOL=ON' build/default/CMakeCache.txt; then
  stage "python: pip install --no-build-isolation . in a fresh venv"
  sh scripts/test-pip.sh build/default   # reuses the default tree: about 20 s
fi

stage "packaging: install + consumer, Debian packages, plain Release configure"
# MMDKIT_CI_SKIP_RELEASE=1 skips the plain Release check (local use only; CI runs it).
if [ "${MMDKIT_CI_SKIP_RELEASE:-0}" != 1 ]; then
  sh scripts/test-package.sh --release build/default
else
  sh scripts/test-package.sh build/default
fi

skip_asan=${MMDKIT_CI_SKIP_ASAN:-0}
skip_fuzz=${MMDKIT_CI_SKIP_FUZZ:-0}
if [ "$skip_asan" != 1 ] || [ "$skip_fuzz" != 1 ]; then
  stage "sanitizer build (clang 16 ASan + UBSan: tests and fuzz targets)"
  cmake --preset sanitize >/dev/null
  cmake --build --preset sanitize
fi
if [ "$skip_asan" != 1 ]; then
  stage "sanitizer ctest"
  # Sanitizer findings abort the test (-fno-sanitize-recover); leaks fail it too. The options
  # (ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS) are the test preset's, in CMakePresets.json. The
  # Python module is not part of this build (a sanitized extension needs a sanitized interpreter).
  ctest --preset sanitize
fi
if [ "$skip_fuzz" != 1 ]; then
  stage "fuzz (${MMDKIT_CI_FUZZ_SECONDS:-12} s per target)"
  sh scripts/fuzz.sh --seconds "${MMDKIT_CI_FUZZ_SECONDS:-12}" --jobs 2
fi
stage "done"
