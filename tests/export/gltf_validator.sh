#!/bin/sh
# ctest export.GltfValidator: the Khronos glTF-Validator (npm gltf-validator, tools/gltf) on
# exports of generated models (PMX with SDEF / additional UVs, PMD) as .glb and .gltf, alone and
# with a generated motion (bones, morphs, camera; every frame and --reduce), and of miku_v2 +
# wavefile_v2 and mei + mei_greeting from the corpus when it is there. Every file must have 0
# errors and 0 warnings.
# Usage: gltf_validator.sh MMDKIT SOURCE_DIR CORPUS_DIR. Exit 77 (skipped) only when npm or its
# registry cannot be reached.
. "$(dirname "$0")/gltf_env.sh"
"$mmdkit" generate pmx -o "$work/gen.pmx" --vertices 400 --morphs 8 --variant pmx2.1-utf8 >/dev/null
"$mmdkit" generate pmd -o "$work/gen.pmd" --vertices 300 --morphs 5 >/dev/null
"$mmdkit" export "$work/gen.pmx" -o "$work/gen_pmx.glb" 2>/dev/null
"$mmdkit" export "$work/gen.pmx" -o "$work/gen_pmx.gltf" --unlit 2>/dev/null
"$mmdkit" export "$work/gen.pmd" -o "$work/gen_pmd.glb" 2>/dev/null
"$mmdkit" generate vmd -o "$work/gen.vmd" --frames 120 --camera-keys 10 >/dev/null
"$mmdkit" export "$work/gen.pmx" "$work/gen.vmd" --camera "$work/gen.vmd" -o "$work/gen_anim.glb" 2>/dev/null
"$mmdkit" export "$work/gen.pmd" "$work/gen.vmd" -o "$work/gen_anim_reduced.gltf" --reduce 0.05 --fps 60 2>/dev/null
files="$work/gen_pmx.glb $work/gen_pmx.gltf $work/gen_pmd.glb $work/gen_anim.glb $work/gen_anim_reduced.gltf"
while read -r m v; do
  if [ -f "$corpus/$m" ] && [ -f "$corpus/$v" ]; then
    out="$work/$(basename "$m" .pmd)_$(basename "$v" .vmd).glb"
    "$mmdkit" export "$corpus/$m" "$corpus/$v" -o "$out" 2>/dev/null
    files="$files $out"
  else
    echo "corpus files $m / $v absent: not validated"
  fi
done <<EOF
jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd
mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd
EOF
# shellcheck disable=SC2086
node "$dir/validate.mjs" $files
