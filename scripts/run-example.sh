#!/bin/sh
# Installs what is missing, builds mmdkit, and runs the main job on an input it makes itself:
# a generated motion, shown with `mmdkit info`, round-tripped through JSON and compared.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target mmdkit_cli
out=${MMDKIT_EXAMPLE_DIR:-build/example}
mkdir -p "$out"
./build/default/mmdkit generate vmd --bone-keys 2000 --morph-keys 200 --camera-keys 50 --seed 7 -o "$out/example.vmd" --force
./build/default/mmdkit info "$out/example.vmd"
./build/default/mmdkit convert "$out/example.vmd" "$out/example.json" --force
./build/default/mmdkit convert "$out/example.json" "$out/example-back.vmd" --force
cmp "$out/example.vmd" "$out/example-back.vmd" && echo "example: VMD -> JSON -> VMD is byte-identical ($out)"
