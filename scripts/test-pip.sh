#!/bin/sh
# `pip install` as Python users type it (docs/PYTHON.md "Installing with pip"), offline, in a fresh
# venv made with --system-site-packages (Debian's python3-numpy, -pybind11, -setuptools, -wheel):
#   pip install --no-build-isolation --no-index .
# then, from outside the source tree, the installed package is imported, reads a file, evaluates
# and (with a GL driver) draws a frame. Run by scripts/run-tests.sh after the default build.
# Cost: with BUILD_DIR (default build/default, already built) setup.py reuses that tree, so the
# module is only relinked if needed: about 10-20 s here (venv + pip). Without a build tree
# (MMDKIT_PIP_FRESH=1) pip configures and builds a Release tree of its own: a full build (minutes;
# ccache hits from earlier Release builds make it cheaper), not part of CI's budget.
# Usage: sh scripts/test-pip.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/mmdkit-pip.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "test-pip: FAILED: $*" >&2; exit 1; }
start=$(date +%s)
/usr/bin/python3 -m venv --system-site-packages "$work/venv" || fail "python3 -m venv (Debian python3-venv)"
if [ "${MMDKIT_PIP_FRESH:-0}" = 1 ]; then
  unset MMDKIT_BUILD_DIR
else
  MMDKIT_BUILD_DIR=$(cd "${1:-build/default}" && pwd)
  export MMDKIT_BUILD_DIR
fi
"$work/venv/bin/python" -m pip install -q --no-build-isolation --no-index --no-deps "$root" >"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log" >&2; fail "pip install --no-build-isolation --no-index ."; }
# setup.py's in-tree build leaves setuptools' build/lib.* and build/bdist.* behind: not sources.
cd "$work"
"$work/venv/bin/python" - "$root" <<'PY' || fail "the installed package does not work"
import os, sys
import mmdkit
root = sys.argv[1]
here = os.path.dirname(mmdkit.__file__)
assert here.startswith(sys.prefix), f"mmdkit imported from {here}, not the venv {sys.prefix}"
assert not here.startswith(root), here
m = mmdkit.Motion.from_bytes(mmdkit.Motion().to_bytes())
assert m.to_bytes() == mmdkit.Motion().to_bytes()
try:
    info = mmdkit.render.context_info()
except mmdkit.RenderError as e:
    print(f"test-pip: no OpenGL here ({e}); drawing not checked")
else:
    print(f"test-pip: drawing with {info['renderer']}")
print(f"test-pip: mmdkit {mmdkit.__version__} installed in {here}")
PY
echo "test-pip: ok ($(($(date +%s) - start)) s)"
