#!/usr/bin/env bash
# Compare mmdkit's bone evaluation (`mmdkit sample`) with babylon-mmd and three.js on corpus files,
# and (with --fixture) regenerate the small peer fixture the anim tests read
# (tests/anim/data/peers_babylon.tsv). Needs node and the peers installed
# (../shared/peers/setup.sh → /tmp/mmd-peers; MMD_PEERS_DIR to change).
#
# Usage: tools/compare_peers.sh [--fixture] [--mmdkit PATH] [--out DIR]
#   --mmdkit  the mmdkit executable (default build/evalbones/mmdkit)
#   --out     folder for the JSON results and reports (default /tmp/mmdkit-peers)
#   --fixture rewrite tests/anim/data/peers_babylon.tsv from babylon-mmd (JS runtime,
#             --fix-pmd-knee) at the fixture frames
# Corpus: $MMDKIT_CORPUS or ../shared/corpus.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${MMDKIT_CORPUS:-$here/../shared/corpus}
peers=${MMD_PEERS_DIR:-/tmp/mmd-peers}
mmdkit=$here/build/evalbones/mmdkit
out=/tmp/mmdkit-peers
fixture=0
while [ $# -gt 0 ]; do
  case $1 in
    --fixture) fixture=1 ;;
    --mmdkit) mmdkit=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"

miku=$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd
wave=$corpus/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd
mei=$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd
meimo=$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Motion
sample_pmx=$corpus/miu200521358__mlib_go/test_resources/サンプルモデル.pmx
sample_vmd=$corpus/miu200521358__mlib_go/test_resources/サンプルモーション_0046.vmd
squat_vmd=$corpus/miu200521358__mlib_go/test_resources/しゃがむ.vmd
base_pmx=$corpus/miu200521358__mmd_base/test/resources/サンプルモデル.pmx
base_vmd=$corpus/miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd

# name model motion frames
cases=(
  "miku_wavefile|$miku|$wave|0-300:10"
  "mei_greeting|$mei|$meimo/mei_greeting/mei_greeting.vmd|0-200:10"
  "mei_guide|$mei|$meimo/mei_guide/mei_guide_happy.vmd|0-200:10"
  "mei_bye|$mei|$meimo/mei_bye/mei_bye.vmd|0-200:10"
  "sample_pmx_0046|$sample_pmx|$sample_vmd|0"
  "sample_pmx_squat|$sample_pmx|$squat_vmd|0"
  "sample_pmx_motion2|$base_pmx|$base_vmd|0-7400:100"
)

for c in "${cases[@]}"; do
  IFS='|' read -r name model motion frames <<<"$c"
  [ -f "$model" ] && [ -f "$motion" ] || { echo "skip $name: missing files" >&2; continue; }
  knee=""
  case $model in *.pmd) knee=--fix-pmd-knee ;; esac
  "$mmdkit" sample "$model" "$motion" --frames "$frames" -o "$out/$name.mmdkit.json" --force
  node "$peers/eval_babylon.mjs" "$model" "$motion" --frames "$frames" $knee --out "$out/$name.babylon.json" 2>/dev/null
  node "$peers/eval_three.mjs" "$model" "$motion" --frames "$frames" --out "$out/$name.three.json" 2>/dev/null || true
  node "$peers/compare_eval.mjs" "$out/$name.mmdkit.json" "$out/$name.babylon.json" --top 8 >"$out/$name.vs_babylon.txt"
  [ -f "$out/$name.three.json" ] && node "$peers/compare_eval.mjs" "$out/$name.mmdkit.json" "$out/$name.three.json" --top 8 >"$out/$name.vs_three.txt"
  # Per-bone maximum over all frames.
  node -e '
    const fs = require("fs");
    const [a, b] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const ang = (p, q) => { const s = p[0]*q[0]+p[1]*q[1]+p[2]*q[2]+p[3]*q[3] < 0 ? -1 : 1; let dm = 0, dp = 0;
      for (let i = 0; i < 4; i++) { dm += (p[i]-s*q[i])**2; dp += (p[i]+s*q[i])**2; } return 4*Math.atan2(Math.sqrt(dm), Math.sqrt(dp))*180/Math.PI; };
    const worst = new Map();
    for (const fa of a.frames) { const fb = b.frames.find((f) => f.frame === fa.frame); if (!fb) continue;
      const mb = new Map(); for (const x of fb.bones) if (!mb.has(x.name)) mb.set(x.name, x);
      for (const x of fa.bones) { const y = mb.get(x.name); if (!y) continue;
        const dp = Math.hypot(x.position[0]-y.position[0], x.position[1]-y.position[1], x.position[2]-y.position[2]);
        const dr = ang(x.quaternion, y.quaternion); const w = worst.get(x.name) || {dp: 0, dr: 0, fp: 0};
        if (dp > w.dp) { w.dp = dp; w.fp = fa.frame; } if (dr > w.dr) w.dr = dr; worst.set(x.name, w); } }
    const rows = [...worst.entries()].sort((p, q) => q[1].dp - p[1].dp);
    console.log("bone\tmax_dpos\tat_frame\tmax_drot_deg");
    for (const [n, w] of rows) console.log(`${n}\t${w.dp.toFixed(5)}\t${w.fp}\t${w.dr.toFixed(3)}`);
  ' "$out/$name.mmdkit.json" "$out/$name.babylon.json" >"$out/$name.per_bone_babylon.tsv"
  echo "== $name: worst bones vs babylon-mmd (max position difference, MMD units; rotation degrees)"
  head -6 "$out/$name.per_bone_babylon.tsv"
done

if [ $fixture = 1 ]; then
  # Small fixture: babylon-mmd (JS runtime, PMD knee fault corrected) on miku_v2 + wavefile_v2 and
  # on the PMX sample model, a few frames, bones that exercise FK, IK and append.
  mkdir -p "$here/tests/anim/data"
  fx=$here/tests/anim/data/peers_babylon.tsv
  # Bones: FK trunk and arms, leg IK chains with the knee limit, toe IK, an IK hair/tie chain, and
  # (PMX) the D bones that append from the leg chain (the mlib_go motions are one-frame poses).
  # Left out: babylon-mmd's known faults (IK tip bones 〜ＩＫ先, PMD eyes type 5, PMD type 9).
  miku_bones=センター,上半身,下半身,首,頭,左腕,左ひじ,左手首,右腕,右ひじ,右手首,左足,左ひざ,左足首,左つま先,右足,右ひざ,右足首,右つま先,ﾈｸﾀｲ４,左髪７,右人指３
  pmx_bones=センター,上半身,上半身2,頭,左腕,左手首,右手首,左足,左ひざ,左足首,左つま先,右ひざ,右足首,左足D,左ひざD,左足首D,右ひざD,左足先EX,左かかと
  node "$peers/eval_babylon.mjs" "$miku" "$wave" --frames 0,60,150,240,300 --fix-pmd-knee --bones "$miku_bones" --out "$out/fx_miku.json" 2>/dev/null
  node "$peers/eval_babylon.mjs" "$sample_pmx" "$squat_vmd" --frames 0 --bones "$pmx_bones" --out "$out/fx_pmx.json" 2>/dev/null
  node "$peers/eval_babylon.mjs" "$base_pmx" "$base_vmd" --frames 0,600,1500,2900,5000 --bones "$pmx_bones" --out "$out/fx_pmx2.json" 2>/dev/null
  node -e '
    const fs = require("fs");
    const rel = (p) => p.replace(process.argv[1] + "/", "");
    console.log("# babylon-mmd 1.3.0 model-space bone positions and rotations; regenerate with tools/compare_peers.sh --fixture");
    console.log("model\tmotion\tframe\tbone\tx\ty\tz\tqx\tqy\tqz\tqw");
    for (const f of process.argv.slice(2)) { const j = JSON.parse(fs.readFileSync(f, "utf8"));
      for (const fr of j.frames) for (const b of fr.bones)
        console.log([rel(j.model), rel(j.motion), fr.frame, b.name, ...b.position, ...b.quaternion].join("\t")); }
  ' "$corpus" "$out/fx_miku.json" "$out/fx_pmx.json" "$out/fx_pmx2.json" >"$fx"
  echo "wrote $fx ($(wc -l <"$fx") lines)"
fi
