#!/bin/sh
# Records what the file commands make of every corpus file of every format (vmd, vpd, pmd, pmx,
# pmm, x, vac), so that a change to the formats, the model view or the glTF export can be checked
# to keep every output bit for bit: run it with the binary before the change into one folder, with
# the binary after it into another, and compare.
#
#   sh tools/bench/formats_snapshot.sh MMDKIT_BINARY OUT_DIR            # record
#   sh tools/bench/formats_snapshot.sh MMDKIT_BINARY OUT_DIR BEFORE_DIR # record, then cmp with BEFORE_DIR
#
# Per file: `info --json`, `check` (output and exit code), `convert` to JSON and that JSON back to
# the format (the bytes must also equal the input's: the round trip), PMD -> PMX, PMX -> PMD with
# --lossy, and models `export`ed to .glb (the model alone; two with a motion, one as .gltf). The
# messages of every run (stderr, exit code) are kept too, with OUT_DIR written as "OUT".
# Corpus: $MMDKIT_CORPUS (default /work/shared/corpus). Keep OUT_DIR outside the repository.
set -eu
bin=$1 out=$2 before=${3:-} corpus=${MMDKIT_CORPUS:-/work/shared/corpus}
mkdir -p "$out"
log="$out/runs.txt"
: >"$log"

run() {  # name, then mmdkit's arguments: stdout to OUT/name.out, messages and exit code to the log
  name=$1
  shift
  rc=0
  "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  { echo "== $name rc=$rc"; sed "s|$out|OUT|g" "$out/$name.err"; } >>"$log"
  rm -f "$out/$name.err"
}

find "$corpus" -type f \( -iname '*.vmd' -o -iname '*.vpd' -o -iname '*.pmd' -o -iname '*.pmx' \
  -o -iname '*.pmm' -o -iname '*.x' -o -iname '*.vac' \) | LC_ALL=C sort >"$out/files.txt"

n=0
roundtrip_fail=0
while IFS= read -r f; do
  n=$((n + 1))
  ext=$(printf '%s' "${f##*.}" | tr 'A-Z' 'a-z')
  id=$(printf '%04d.%s' "$n" "$ext")
  run "$id.info" info --json "$f"
  run "$id.check" check "$f"
  run "$id.tojson" convert --force "$f" "$out/$id.json"
  if [ -f "$out/$id.json" ]; then
    case $ext in
      x | vac) ;;  # JSON one way only
      *)
        run "$id.fromjson" convert --force "$out/$id.json" "$out/$id.back.$ext"
        if [ -f "$out/$id.back.$ext" ] && ! cmp -s "$f" "$out/$id.back.$ext"; then
          echo "round trip differs: $f" >>"$log"
          roundtrip_fail=$((roundtrip_fail + 1))
        fi
        ;;
    esac
  fi
  case $ext in
    pmd)
      run "$id.topmx" convert --force "$f" "$out/$id.pmx"
      run "$id.glb" export -q "$f" -o "$out/$id.glb"
      ;;
    pmx)
      run "$id.topmd" convert --force --lossy "$f" "$out/$id.pmd"
      run "$id.glb" export -q "$f" -o "$out/$id.glb"
      ;;
  esac
done <"$out/files.txt"

# Two models with a motion (animation channels, morph weights), one as .gltf text.
miku="$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd"
wave="$corpus/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"
pmx="$corpus/miu200521358__mmd_base/test/resources/サンプルモデル.pmx"
pmx_motion="$corpus/miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd"
[ -f "$miku" ] && [ -f "$wave" ] && run miku_wave.glb export -q "$miku" "$wave" --frames 0-300 -o "$out/miku_wave.glb"
[ -f "$pmx" ] && [ -f "$pmx_motion" ] && run pmx_motion.gltf export -q "$pmx" "$pmx_motion" --frames 0-200 -o "$out/pmx_motion.gltf"

echo "$n files recorded in $out ($roundtrip_fail JSON round trips not byte-equal to the input)"
if [ -n "$before" ]; then
  differ=0
  for g in "$before"/*; do
    b=$(basename "$g")
    if ! cmp -s "$g" "$out/$b"; then
      echo "differs: $b"
      differ=$((differ + 1))
    fi
  done
  count=$(ls "$before" | wc -l)
  echo "$count outputs compared with $before: $differ differ"
  [ "$differ" -eq 0 ]
fi
