#!/bin/sh
# ctest export.GltfThreeJs: an independent reader plays the exported GLB. three.js r171's
# GLTFLoader + AnimationMixer in Node (tools/gltf/three_sample.mjs) gives the world position of
# every joint, the morph target weights and the camera at sampled frames; they must equal
# `mmdkit sample` converted to glTF space ((x, y, −z) × 0.08) within 1e-4 m and 1e-4
# (tools/gltf/compare_sample.mjs). Cases: a generated PMX + VMD (IK, append, bone morphs, camera),
# miku_v2 + wavefile_v2 and mei + mei_greeting from the corpus when it is there.
# Usage: gltf_three.sh MMDKIT SOURCE_DIR CORPUS_DIR. Exit 77 (skipped) only when npm or its
# registry cannot be reached.
. "$(dirname "$0")/gltf_env.sh"
failed=0
check() {  # name model motion frames [camera]
  name=$1 model=$2 motion=$3 frames=$4
  cam=""
  [ "${5:-}" = camera ] && cam="--camera $motion"
  # shellcheck disable=SC2086
  "$mmdkit" export "$model" "$motion" $cam -o "$work/$name.glb" 2>/dev/null
  # shellcheck disable=SC2086
  "$mmdkit" sample "$model" "$motion" --frames "$frames" --morphs ${cam:+--camera} -o "$work/$name.sample.json" 2>/dev/null
  node "$dir/three_sample.mjs" "$work/$name.glb" --frames "$frames" --out "$work/$name.three.json"
  echo "== $name"
  node "$dir/compare_sample.mjs" "$work/$name.three.json" "$work/$name.sample.json" || failed=$((failed + 1))
}
"$mmdkit" generate pmx -o "$work/gen.pmx" >/dev/null
"$mmdkit" generate vmd -o "$work/gen.vmd" --frames 120 --camera-keys 10 >/dev/null
check generated "$work/gen.pmx" "$work/gen.vmd" 0-120:3 camera
miku=$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd
wave=$corpus/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd
mei=$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd
greet=$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd
if [ -f "$miku" ] && [ -f "$wave" ]; then check miku_v2_wavefile_v2 "$miku" "$wave" 0-2800:100; else echo "corpus absent: miku_v2 not checked"; fi
if [ -f "$mei" ] && [ -f "$greet" ]; then check mei_greeting "$mei" "$greet" 0-200:10; else echo "corpus absent: mei not checked"; fi
[ "$failed" = 0 ]
