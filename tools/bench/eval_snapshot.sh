#!/bin/sh
# Records the evaluated bones of corpus model + motion pairs (every frame, all bones, IK on) with
# `mmdkit sample`, so that a speed change to the evaluation (src/anim/) can be checked to keep the
# results bit for bit: run it before the change into one folder, after it into another, and compare
# (the binary format holds every float32 of every model matrix; the JSON runs hold the shortest
# round-trip text of every position and quaternion, i.e. their exact bits).
#
#   sh tools/bench/eval_snapshot.sh MMDKIT_BINARY OUT_DIR            # record
#   sh tools/bench/eval_snapshot.sh MMDKIT_BINARY OUT_DIR BEFORE_DIR # record, then cmp with BEFORE_DIR
#
# Corpus: $MMDKIT_CORPUS (default /work/shared/corpus). Keep OUT_DIR outside the repository.
set -eu
. "$(dirname "$0")/snapshot_common.sh"

run() {  # name, then sample's arguments
  name=$1
  shift
  "$bin" sample -q --force "$@" -o "$out/$name"
}

# Every frame in turn (what `sample` does by default), binary.
run miku_wavefile.bin "$miku" "$wave" --format binary --morphs
run mei_greeting.bin "$mei" "$greet" --format binary --morphs
run pmx_motion2.bin "$pmx" "$pmx_motion" --format binary --morphs
# Fractional frames, frames out of order (the sampling cursors jump back), JSON (quaternions too).
run miku_wavefile_frac.json "$miku" "$wave" --frames 0-120:0.25,2809,17.5,3,1500-1510:0.5,0
run pmx_motion2_frac.json "$pmx" "$pmx_motion" --frames 0-7400:37.5,12,7000.75,1
# IK off (the FK path alone).
run miku_wavefile_noik.bin "$miku" "$wave" --format binary --no-ik

if [ -n "$before" ]; then
  status=0
  for f in "$before"/*; do
    b=$(basename "$f")
    if cmp -s "$f" "$out/$b"; then
      echo "same      $b"
    else
      echo "DIFFERENT $b"
      status=1
    fi
  done
  exit $status
fi
