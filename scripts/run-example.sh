#!/bin/sh
# Installs what is missing, builds mmdkit, and runs the main job on inputs it makes itself:
# a generated humanoid figure (an ellipsoid per bone) and a random motion; the model posed at frame 30 (OBJ + MTL), bone transforms
# sampled, the motion round-tripped through JSON, and the model rendered (an image of its bind pose
# under MMD's default camera and light, and a short video of it dancing a camera-less motion).
# Then, when the real-file corpus is there (MMDKIT_CORPUS, relative to the current folder; default
# ../shared/corpus beside the repository: scripts/corpus-dir.sh), a few steps of README's "Example
# on real files" on it.
set -eu
c=$(sh "$(dirname "$0")/corpus-dir.sh" 2>/dev/null) || c=
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target mmdkit_cli
m=./build/default/mmdkit
out=${MMDKIT_EXAMPLE_DIR:-build/example}
mkdir -p "$out"
# --shape figure: one ellipsoid per bone (a figure that shows its pose; the default shape scatters
# vertices around the bones for tests and benchmarks).
$m generate pmx --vertices 20000 --seed 7 --shape figure -o "$out/model.pmx" --force
# --model: the motion keys the model's own bones and morphs, so every track binds (no warnings).
$m generate vmd --model "$out/model.pmx" --bone-keys 3000 --morph-keys 200 --camera-keys 50 --seed 7 -o "$out/motion.vmd" --force
$m info "$out/model.pmx"
$m info "$out/motion.vmd"
$m check "$out/model.pmx"
$m pose "$out/model.pmx" "$out/motion.vmd" --frame 30 -o "$out/posed.obj" --force
$m sample "$out/model.pmx" "$out/motion.vmd" --frames 0-60:30 --bones センター,左足首 -o "$out/transforms.json" --force
$m convert "$out/motion.vmd" "$out/motion.json" --force
$m convert "$out/motion.json" "$out/motion-back.vmd" --force
cmp "$out/motion.vmd" "$out/motion-back.vmd"
echo "example: posed mesh $out/posed.obj ($(grep -c '^v ' "$out/posed.obj") vertices), transforms $out/transforms.json;"
echo "example: VMD -> JSON -> VMD is byte-identical"
$m generate vmd --model "$out/model.pmx" --bone-keys 240 --morph-keys 40 --camera-keys 0 --frames 60 --seed 7 -o "$out/dance.vmd" --force
$m render "$out/model.pmx" -o "$out/model.png" --force
$m render "$out/model.pmx" "$out/dance.vmd" --frames 0-30 --size 640x360 -o "$out/dance.mp4" --force
echo "example: rendered $out/model.png (the figure in its bind pose: arms out, under MMD's default camera and light) and $out/dance.mp4 (a random dance of 31 frames)"
if [ -n "$c" ]; then
  $m info "$c/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"
  $m pose "$c/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd" "$c/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd" --frame 600 -o "$out/miku600.obj" --force
  $m sample "$c/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd" "$c/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd" --frames 0-300:10 -o "$out/miku.json" --force
  echo "example: real files from $c: posed $out/miku600.obj, sampled $out/miku.json"
else
  echo "example: no corpus folder (MMDKIT_CORPUS, default ../shared/corpus beside the repository): real-file steps skipped"
fi
