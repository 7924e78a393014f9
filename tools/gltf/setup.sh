#!/bin/sh
# Installs the test-only Node tools of tools/gltf (package.json, pinned by package-lock.json) into a
# cache folder and prints its path. Usage: DIR=$(sh tools/gltf/setup.sh) && node "$DIR/validate.mjs" out.glb
# MMDKIT_GLTF_TOOLS_DIR changes the folder (default /tmp/mmdkit-gltf-tools). Exit 3 when npm or the
# registry cannot be reached (callers skip with that message), 1 on other failures.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
dst=${MMDKIT_GLTF_TOOLS_DIR:-/tmp/mmdkit-gltf-tools}
mkdir -p "$dst"
# One installer at a time (ctest runs the glTF tests in parallel).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$dst.lock"
  flock 9
fi
cp "$src"/package.json "$src"/package-lock.json "$src"/*.mjs "$dst"/
if ! cmp -s "$src/package-lock.json" "$dst/node_modules/.mmdkit-lock" 2>/dev/null; then
  if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "tools/gltf/setup.sh: node and npm are needed (Debian packages nodejs, npm)" >&2
    exit 3
  fi
  if ! (cd "$dst" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "tools/gltf/setup.sh: npm ci failed (is the npm registry reachable?)" >&2
    exit 3
  fi
  cp "$src/package-lock.json" "$dst/node_modules/.mmdkit-lock"
fi
echo "$dst"
