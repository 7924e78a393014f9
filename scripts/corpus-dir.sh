#!/bin/sh
# Prints the absolute path of the real-file corpus (README "Example on real files"; the tests read
# the same folder): $MMDKIT_CORPUS (relative to the current folder) when set and not empty, else
# ../shared/corpus beside the repository. Exit 1, with a message on stderr, when it is not a folder.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${MMDKIT_CORPUS:-$repo/../shared/corpus}
if abs=$(cd "$dir" 2>/dev/null && pwd -P); then
  echo "$abs"
else
  echo "corpus-dir.sh: no corpus folder at '$dir' (set MMDKIT_CORPUS=DIR)" >&2
  exit 1
fi
