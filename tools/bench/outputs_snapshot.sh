#!/bin/sh
# Records what the commands that evaluate models write (sample in binary and JSON, with --physics,
# --morphs, --camera, --each, scenes and an MMD project; pose; bake; export; render PNGs with
# physics), so that a change to the evaluation paths (src/physics, src/cli sample / pose / render)
# can be checked to keep every output bit for bit: run it with the binary before the change into
# one folder, with the binary after it into another, and compare. Complements eval_snapshot.sh
# (which covers plain `sample`).
#
#   sh tools/bench/outputs_snapshot.sh MMDKIT_BINARY OUT_DIR            # record
#   sh tools/bench/outputs_snapshot.sh MMDKIT_BINARY OUT_DIR BEFORE_DIR # record, then cmp with BEFORE_DIR
#
# Every output file and each command's stderr (*.err, without timings and progress lines) is compared.
# render needs EGL (llvmpipe is enough: the PNGs are byte-equal run to run there); without it the
# render entries are missing from both folders. Corpus: $MMDKIT_CORPUS (default
# /work/shared/corpus). Keep OUT_DIR outside the repository. A few minutes on one core.
set -eu
. "$(dirname "$0")/snapshot_common.sh"
cam="$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/vmds/wavefile_camera.vmd"
acc="$corpus/hkrn__nanoem/emapp/test/fixtures/test.x"
pmm="$corpus/oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm"

# A scene file of two placed models and an attached accessory.
cat > "$out/scene.json" <<JSON
{"models": [
  {"file": "$miku", "motions": ["$wave"], "position": [-5, 0, 0], "rotation": [0, 15, 0]},
  {"file": "$mei", "motions": ["$greet"], "position": [5, 0, 2]}],
 "accessories": [{"file": "$acc", "model": 0, "bone": "右手首", "position": [0, 0.5, 0]}],
 "camera": "$cam"}
JSON

run() {  # name, then the command's arguments; stderr kept as NAME.err (OUT_DIR written as OUT)
  name=$1
  shift
  rc=0
  "$bin" "$@" 2>"$out/$name.tmp" || rc=$?
  echo "exit $rc" >>"$out/$name.tmp"
  # Timings and progress lines (a line every 5 s) vary from run to run: left out.
  sed -e "s|$out|OUT|g" -e '/ETA/d' -e 's/[0-9.]* s at [0-9.]* frames\/s.*)$/TIME)/' "$out/$name.tmp" >"$out/$name.err"
  rm -f "$out/$name.tmp"
}

# sample: binary and JSON, physics, morphs, camera, fps 120, --each, scenes, a project.
run sample_phys.bin sample --force "$miku" "$wave" --physics --morphs --format binary --frames 0-600 -o "$out/sample_phys.bin"
run sample_phys.json sample --force "$miku" "$wave" "$cam" --physics --camera --frames 0-300:7,120,5 -o "$out/sample_phys.json"
run sample_phys120.bin sample --force "$mei" "$greet" --physics --physics-fps 120 --format binary -o "$out/sample_phys120.bin"
run sample_pmx.json sample --force "$pmx" "$pmx_motion" --morphs --physics --frames 0-200:4 -o "$out/sample_pmx.json"
run sample_bones.json sample --force "$miku" "$wave" --bones 頭,左足ＩＫ --frames 0-100 -o "$out/sample_bones.json"
mkdir -p "$out/each"
mkdir -p "$out/each_bin"
run sample_each sample --force "$miku" "$wave" "$greet" --each --frames 0-60 -o "$out/each"
run sample_each_bin sample --force "$miku" "$wave" "$greet" --each --format binary --physics --frames 0-60 -o "$out/each_bin"
run sample_scene.json sample --force --scene "$out/scene.json" --morphs --camera --frames 0-200:5 -o "$out/sample_scene.json"
run sample_scene_phys.json sample --force --scene "$out/scene.json" --physics --frames 0-150:3 -o "$out/sample_scene_phys.json"
run sample_short.json sample --force "$miku" "$wave" --accessory "$acc@右手首" --stage "$mei" --physics --frames 0-60:6 -o "$out/sample_short.json"
run sample_pmm.json sample --force --scene "$pmm" --camera --frames 0-90:9 -o "$out/sample_pmm.json"

# pose: OBJ + MTL, one model and a scene, with and without physics.
run pose_phys.obj pose --force "$miku" "$wave" --frame 100 --physics -o "$out/pose_phys.obj"
run pose_plain.obj pose --force "$pmx" "$pmx_motion" --frame 33.5 --right-handed --scale 0.08 -o "$out/pose_plain.obj"
run pose_scene.obj pose --force --scene "$out/scene.json" --frame 60 --physics -o "$out/pose_scene.obj"

# sample and pose: usage errors, refusals and notes of both forms (stderr and exit code only), a
# VPD pose, stdout, and a camera-only motion.
vpd="$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/vpds/05.vpd"
run sample_vpd.json sample --force "$miku" "$vpd" --morphs -o "$out/sample_vpd.json"
run sample_vpd_wave.bin sample --force "$miku" "$wave" "$vpd" --format binary --bones 頭 --frames 0-30:3 -o "$out/sample_vpd_wave.bin"
run sample_stdout sample "$mei" "$greet" --frames 0-20 --morphs --camera --no-ik -o - >"$out/sample_stdout.json"
run sample_cam_only sample --force "$miku" "$cam" -o "$out/sample_cam_only.json"
run sample_cam_only_camera.json sample --force "$miku" "$cam" --camera --frames 0-30 -o "$out/sample_cam_only_camera.json"
run sample_cam_only_camera_bones.json sample --force "$miku" "$cam" --camera --bones 頭 --frames 0-3 -o "$out/sample_cam_only_camera_bones.json"
run sample_cam_none.json sample --force "$miku" "$wave" --camera --frames 0-3 -o "$out/sample_cam_none.json"
run sample_past_end.json sample --force "$miku" "$wave" --frames 100000 -o "$out/sample_past_end.json"
run sample_frac.json sample --force "$miku" "$wave" --frames 0.5,1.25,7.75 -o "$out/sample_frac.json"
run sample_e_nomodel sample
run sample_e_format sample "$miku" --format xml
run sample_e_fps sample "$miku" --physics --physics-fps 50
run sample_e_bones sample "$miku" --bones 頭,nosuchbone
run sample_e_frames sample "$miku" --frames 5-1
run sample_e_phys_frac sample "$miku" --physics --frames 0.5
run sample_e_missing sample "$miku" /nonexistent/motion.vmd
run sample_e_out sample "$miku" "$wave" -o "$miku"
run sample_e_scene_bin sample --scene "$out/scene.json" --format binary
run sample_e_scene_bones sample --scene "$out/scene.json" --bones 頭
run sample_e_scene_frames sample --scene "$out/scene.json" --frames x
run sample_e_scene_phys_frac sample --scene "$out/scene.json" --physics --frames 1.5
run sample_e_scene_fps sample --scene "$out/scene.json" --physics --physics-fps 7
run sample_e_scene_model sample "$miku" --scene "$out/scene.json"
run sample_e_short_missing sample "$miku" /nonexistent/motion.vmd --stage "$mei"
run sample_e_each_scene sample "$miku" "$wave" --each --stage "$mei" -o "$out/each"
run sample_e_each_noout sample "$miku" "$wave" --each
run pose_vpd.obj pose --force "$miku" "$vpd" --copy-textures -o "$out/pose_vpd.obj"
run pose_cam_only pose --force "$miku" "$cam" -o "$out/pose_cam_only.obj"
run pose_e_nomodel pose -o "$out/x.obj"
run pose_e_frame pose "$miku" --frame -1 -o "$out/x.obj"
run pose_e_scale pose "$miku" --scale 0 -o "$out/x.obj"
run pose_e_fps pose "$miku" --physics --physics-fps 50 -o "$out/x.obj"
run pose_e_phys_frac pose "$miku" --physics --frame 1.5 -o "$out/x.obj"
run pose_e_stdout pose "$miku" -o -
run pose_e_ext pose "$miku" -o "$out/x.txt"
run pose_e_out pose "$miku" "$wave" -o "$out/pose_phys.obj"
run pose_e_scene_frame pose --scene "$out/scene.json" --frame -1 -o "$out/x.obj"
run pose_e_scene_scale pose --scene "$out/scene.json" --scale 1e9 -o "$out/x.obj"
run pose_e_scene_fps pose --scene "$out/scene.json" --physics --physics-fps 7 -o "$out/x.obj"
run pose_e_scene_phys_frac pose --scene "$out/scene.json" --physics --frame 1.5 -o "$out/x.obj"
run pose_e_scene_stdout pose --scene "$out/scene.json" -o -
run pose_e_scene_ext pose --scene "$out/scene.json" -o "$out/x.txt"
run pose_e_scene_copy pose --scene "$out/scene.json" --copy-textures -o "$out/x.obj"
run pose_e_scene_out pose --scene "$out/scene.json" -o "$out/pose_scene.obj"
run pose_short.obj pose --force "$mei" "$greet" --stage "$miku" --frame 30 -o "$out/pose_short.obj"

# bake: VMD bytes and the JSON form.
run bake_miku.vmd bake --force "$miku" "$wave" -o "$out/bake_miku.vmd"
run bake_mei.json bake --force "$mei" "$greet" --frames 20-80 --floor -o "$out/bake_mei.json"

# export: glTF with physics from frame 0 and from a later first frame.
run export_phys.glb export --force "$miku" "$wave" --physics --frames 0-200 -o "$out/export_phys.glb"
run export_phys_from.glb export --force "$miku" "$wave" --physics --frames 150-260 -o "$out/export_phys_from.glb"
run export_plain.gltf export --force "$mei" "$greet" --fps 60 -o "$out/export_plain.gltf"

# render: PNGs with physics (the model's rigid bodies simulate by default).
if "$bin" --version 2>/dev/null | grep -qi render; then
  for f in 0 100 300; do
    run "render_miku_$f.png" render --force "$miku" "$wave" --frame "$f" --size 320x240 -o "$out/render_miku_$f.png"
  done
  run render_mei_60.png render --force "$mei" "$greet" --frame 60 --size 320x240 -o "$out/render_mei_60.png"
  run render_scene_90.png render --force --scene "$out/scene.json" --frame 90 --size 320x240 -o "$out/render_scene_90.png"
fi

# A text output with its output folder (the scene file's path in an OBJ comment) and the random
# temporary folder of a .pmm's motions (sample's header) written the same way every run.
norm() {  # folder, file
  sed -e "s|$1|OUT|g" -e 's|/tmp/mmdkit-pmm-[A-Za-z0-9]*|PMMTMP|g' "$2"
}

if [ -n "$before" ]; then
  status=0
  for f in $(cd "$before" && find . -type f | sort); do
    case "$f" in ./scene.json) continue ;; esac
    if [ ! -e "$out/$f" ]; then
      echo "MISSING   $f"
      status=1
    elif cmp -s "$before/$f" "$out/$f"; then
      echo "same      $f"
    elif [ "$(norm "$before" "$before/$f" | cksum)" = "$(norm "$out" "$out/$f" | cksum)" ]; then
      echo "same      $f (but for the output folder and a .pmm's temporary folder named in it)"
    else
      echo "DIFFERENT $f"
      status=1
    fi
  done
  exit $status
fi
