# Sourced by the Node-based glTF tests (gltf_validator.sh, gltf_three.sh) with their arguments
# MMDKIT SOURCE_DIR CORPUS_DIR: sets mmdkit, src, corpus ($MMDKIT_CORPUS overrides), dir (the
# installed tools/gltf) and work (a temporary folder removed on exit). Exits 77 (ctest: skipped)
# with a message only when npm or its registry cannot be reached, and not even then under the test
# command (MMDKIT_REQUIRE_NODE_TOOLS=1, set by scripts/run-tests.sh, which installs the tools first).
set -u
mmdkit=$1
src=$2
corpus=${MMDKIT_CORPUS:-$3}
dir=$(sh "$src/tools/gltf/setup.sh")
rc=$?
if [ "$rc" = 3 ]; then
  if [ "${MMDKIT_REQUIRE_NODE_TOOLS:-0}" = 1 ]; then  # the test command's whole suite: no skipping
    echo "FAILED: the Node tools of tools/gltf could not be installed (scripts/run-tests.sh installs them)"
    exit 1
  fi
  echo "SKIPPED: the Node tools of tools/gltf could not be installed (npm or the npm registry unreachable)"
  exit 77
fi
[ "$rc" = 0 ] || exit 1
work=$(mktemp -d /tmp/mmdkit-gltf-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
set -e
