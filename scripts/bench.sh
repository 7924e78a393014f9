#!/bin/sh
# One-command benchmarks of mmdkit against its peers (mmd-parser, babylon-mmd, three.js), same
# machine, same run. Builds the Google Benchmark targets, generates the synthetic inputs with
# `mmdkit generate`, runs our benches (medians of --repeat repetitions) and the same workloads in the
# peers (Node, ../shared/peers), measures peak RSS of each side with /usr/bin/time -v (or a getrusage
# fallback, tools/bench/peakrss.py), then prints the ratio table (peer time / mmdkit time) and writes
# it into README.md (between <!-- bench:begin --> and <!-- bench:end -->, when present) and
# docs/BENCHMARKS.md (with absolute figures). Helper: tools/bench/report.py.
#
# Usage: sh scripts/bench.sh [--repeat N] [--quick] [--build-dir DIR] [--out DIR] [--no-write]
#   --repeat N   repetitions of every measurement (default 3; --quick: 1)
#   --quick      short run (< 2 min): corpus files only for the peers' parsers, fewer frames,
#                --benchmark_min_time 0.05
#   --build-dir  CMake build folder (default build/bench; configured RelWithDebInfo -O2 if absent)
#   --out        folder for the raw results (default /tmp/mmdkit-bench)
#   --no-build   use the bench_* / mmdkit executables already under --build-dir (any layout)
#   --no-write   print the table only; leave README.md and docs/BENCHMARKS.md alone
#   --only mmdkit|peers  run one side only, keeping the other side's results already in --out
#                (e.g. the two halves at once on an idle machine; the table uses both)
# Environment: MMDKIT_CORPUS (default ../shared/corpus), MMD_PEERS_DIR (default /tmp/mmd-peers;
# installed with ../shared/peers/setup.sh when missing).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
repeat=3
quick=0
build=$here/build/bench
out=/tmp/mmdkit-bench
write=1
only=
nobuild=0
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) repeat=$2; shift ;;
    --quick) quick=1 ;;
    --build-dir) build=$2; shift ;;
    --out) out=$2; shift ;;
    --no-write) write=0 ;;
    --only) only=$2; shift ;;
    --no-build) nobuild=1 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$quick" = 1 ] && [ "$repeat" = 3 ] && repeat=1
corpus=${MMDKIT_CORPUS:-$(cd "$here/.." && pwd)/shared/corpus}
export MMDKIT_CORPUS=$corpus
peers=${MMD_PEERS_DIR:-/tmp/mmd-peers}
mkdir -p "$out"
case $only in
  mmdkit) rm -f "$out"/bench_*.json "$out"/mmdkit_*.time "$out"/whole_mmdkit.jsonl; [ -f "$out/mem.tsv" ] && sed -i '/^mmdkit_/d' "$out/mem.tsv" ;;
  peers) rm -f "$out"/eval_*.json "$out"/saba.json "$out"/peers_parse.jsonl "$out"/peer_*.time "$out"/whole_peers.jsonl; [ -f "$out/mem.tsv" ] && sed -i '/^peer_/d' "$out/mem.tsv" ;;
  '') rm -f "$out"/*.json "$out"/*.jsonl "$out"/mem.tsv "$out"/*.time ;;
  *) echo "bench.sh: --only mmdkit or peers" >&2; exit 2 ;;
esac
log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# --- build -------------------------------------------------------------------------------------
targets="mmdkit bench_vmd bench_pmd bench_pmx bench_pmm bench_eval bench_skin"
if [ "$nobuild" = 0 ] && { [ "$only" != peers ] || [ ! -f "$out/gen_1m_keys.vmd" ] || [ ! -f "$out/gen_1m_vertices.pmx" ]; }; then
if [ ! -f "$build/CMakeCache.txt" ]; then
  log "configuring $build"
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG" -DMMDKIT_BUILD_BENCH=ON >/dev/null
fi
log "building $targets"
# shellcheck disable=SC2086
cmake --build "$build" --target $targets -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; exit 1; }
fi
mmdkit=$(find -L "$build" -type f -name mmdkit -perm -u+x 2>/dev/null | head -1)
bin() { find -L "$build" -type f -name "$1" -perm -u+x | head -1; }

# --- peak memory wrapper -----------------------------------------------------------------------
# measure NAME CMD...: runs CMD with stdout kept, records peak RSS (KB) in mem.tsv.
if /usr/bin/time -v true >/dev/null 2>&1; then
  timer=gnu
else
  timer=py
  log "/usr/bin/time missing (Debian package 'time'); using tools/bench/peakrss.py (getrusage)"
fi
measure() {
  name=$1; shift
  if [ "$timer" = gnu ]; then
    /usr/bin/time -v -o "$out/$name.time" "$@"
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$out/$name.time")
  else
    python3 "$here/tools/bench/peakrss.py" "$out/$name.time" "$@"
    kb=$(cat "$out/$name.time")
  fi
  printf '%s\t%s\n' "$name" "$kb" >>"$out/mem.tsv"
}

# --- inputs ------------------------------------------------------------------------------------
miku=$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd
wave=$corpus/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd
# the largest corpus PMX, as bench_pmx.cpp picks it
bigpmx=$(find "$corpus" -type f \( -name '*.pmx' -o -name '*.PMX' \) -printf '%s\t%p\n' | sort -n | tail -1 | cut -f2)
genvmd=$out/gen_1m_keys.vmd
genpmx=$out/gen_1m_vertices.pmx
# the same options as generated() in bench_vmd.cpp and generated_1m() in bench_pmx.cpp
[ -f "$genvmd" ] || "$mmdkit" generate vmd --bone-keys 1000000 --morph-keys 0 --frames 30000 -o "$genvmd" >/dev/null
[ -f "$genpmx" ] || "$mmdkit" generate pmx --vertices 1000000 --bones 200 --morphs 50 -o "$genpmx" >/dev/null
# a real-shaped large VMD: wavefile_v2's keys x66 (105 MB), for whole-process `info`
bigvmd=$out/wavefile_x66.vmd
[ -f "$bigvmd" ] || python3 "$here/tools/bench/repeat_vmd.py" "$wave" 66 "$bigvmd"
for f in "$miku" "$wave" "$bigpmx" "$genvmd" "$genpmx" "$bigvmd"; do
  [ -f "$f" ] || { echo "bench.sh: missing input $f" >&2; exit 1; }
done

# --- mmdkit ------------------------------------------------------------------------------------
gb="--benchmark_format=json --benchmark_repetitions=$repeat --benchmark_report_aggregates_only=false"
[ "$quick" = 1 ] && gb="$gb --benchmark_min_time=0.05"
[ "$only" = peers ] || for b in bench_vmd bench_pmd bench_pmx bench_pmm bench_eval bench_skin; do
  log "mmdkit $b (x$repeat)"
  filter=.
  [ "$quick" = 1 ] && [ "$b" = bench_pmx ] && filter='BM_Parse/|BM_Memcpy|BM_Write'
  # shellcheck disable=SC2086
  measure "mmdkit_$b" "$(bin "$b")" $gb --benchmark_filter="$filter" --benchmark_out="$out/$b.json" \
    --benchmark_out_format=json >/dev/null 2>"$out/$b.err" || { cat "$out/$b.err" >&2; exit 1; }
done

# whole processes (tools/bench/wholeproc.py: median wall of N runs after a warm-up, user/sys CPU,
# peak RSS, load average): `info` of the 105 MB VMD (mapped input), `sample --format binary` of
# every frame of miku_v2 + wavefile_v2, and `sample --each` of 8 motions on the model in one process.
nw=$((repeat * 5)); [ $nw -lt 5 ] && nw=5
[ "$only" = peers ] || {
  log "mmdkit whole-process info / sample (n=$nw)"
  wp() { python3 "$here/tools/bench/wholeproc.py" "$out/whole_mmdkit.jsonl" "$@"; }
  wp info_big "$nw" "$mmdkit" info "$bigvmd"
  wp sample_all "$nw" "$mmdkit" sample -q "$miku" "$wave" --format binary -o /dev/null
  mkdir -p "$out/each_in" "$out/each_out"
  for k in 1 2 3 4 5 6 7 8; do ln -sf "$wave" "$out/each_in/wave$k.vmd"; done
  wp sample_each8 "$nw" "$mmdkit" sample -q "$miku" "$out"/each_in/wave?.vmd --each --format binary --force -o "$out/each_out"
  # the process's own memory at its peak (heap, valgrind massif), beside the peak RSS that counts
  # the mapped file's pages
  if command -v valgrind >/dev/null 2>&1; then
    valgrind --tool=massif --massif-out-file="$out/massif_info.out" "$mmdkit" info "$bigvmd" >/dev/null 2>"$out/massif_info.err" &&
      printf '{"name": "info_big_heap", "peak_heap_bytes": %s, "file_bytes": %s}\n' \
        "$(sed -n 's/^mem_heap_B=//p' "$out/massif_info.out" | sort -n | tail -1)" "$(wc -c <"$bigvmd")" >>"$out/whole_mmdkit.jsonl"
  else
    log "valgrind missing (deps/debian-packages-dev.txt): no peak-heap figure for info"
  fi
}

frames=0-600; [ "$quick" = 1 ] && frames=0-150
# --- peers -------------------------------------------------------------------------------------
[ "$only" = mmdkit ] || {
if [ ! -f "$peers/bench_parse.mjs" ]; then
  log "installing peers"
  peers=$(bash "$here/../shared/peers/setup.sh")  # a bash script (set -o pipefail)
fi
n=$((repeat * 3)); [ $n -lt 3 ] && n=3
for lib in mmd-parser babylon-mmd; do
  log "$lib parse, corpus files (n=$n)"
  measure "peer_${lib}_parse_corpus" node "$peers/bench_parse.mjs" --lib "$lib" -n $n --warmup 2 --json \
    "$wave" "$miku" "$bigpmx" >>"$out/peers_parse.jsonl" 2>"$out/peers_parse.err" ||
    log "$lib failed on a corpus file (see $out/peers_parse.err)"
  if [ "$quick" = 0 ]; then
    # one timed parse each: mmd-parser takes ~20 s per 100 MB file, babylon-mmd's VMD run also
    # builds the animation (vmd-anim, ~20 s); repetitions would blow the 10-minute budget
    log "$lib parse, generated 1M files (n=1)"
    measure "peer_${lib}_parse_1m" node --max-old-space-size=8192 "$peers/bench_parse.mjs" --lib "$lib" \
      -n 1 --warmup 0 --json "$genvmd" "$genpmx" >>"$out/peers_parse.jsonl" 2>>"$out/peers_parse.err" ||
      log "$lib failed on the generated files (see $out/peers_parse.err)"
  fi
done
log "babylon-mmd parse of the 105 MB VMD in memory (n=3)"
node --max-old-space-size=8192 "$peers/bench_parse.mjs" --lib babylon-mmd -n 3 --warmup 1 --json "$bigvmd" \
  >>"$out/peers_parse.jsonl" 2>>"$out/peers_parse.err" || log "babylon-mmd failed on $bigvmd"
log "babylon-mmd WASM whole process, every frame of miku_v2 + wavefile_v2"
python3 "$here/tools/bench/wholeproc.py" "$out/whole_peers.jsonl" babylon_wasm_all 3 \
  node "$peers/eval_babylon.mjs" "$miku" "$wave" --frames 0-2809 --timing-only --wasm ||
  log "babylon-mmd WASM whole-process run failed"
i=1
while [ $i -le "$repeat" ]; do
  for p in babylon_js babylon_wasm three; do
    log "$p evaluation, frames $frames (run $i/$repeat)"
    case $p in
      babylon_js) set -- node "$peers/eval_babylon.mjs" "$miku" "$wave" --frames $frames --timing-only ;;
      babylon_wasm) set -- node "$peers/eval_babylon.mjs" "$miku" "$wave" --frames $frames --timing-only --wasm ;;
      three) set -- node "$peers/eval_three.mjs" "$miku" "$wave" --frames $frames --timing-only ;;
    esac
    measure "peer_eval_$p" "$@" >"$out/eval_${p}_$i.json" 2>"$out/eval_${p}_$i.err" ||
      log "$p failed (see $out/eval_${p}_$i.err)"
  done
  i=$((i + 1))
done
# saba (C++; not an npm package, so not in ../shared/peers): when MMDKIT_SABA_BENCH names a local
# driver built against saba (`DRIVER MODEL MOTION DATADIR` printing {"us_per_frame_median": ...}:
# VMDAnimation::Evaluate + UpdateMorphAnimation + UpdateNodeAnimation(false/true) every frame),
# its figure of this run replaces the issue's 0.10 ms in the table. Nothing of saba is committed.
if [ -n "${MMDKIT_SABA_BENCH:-}" ]; then
  log "saba evaluation (local driver $MMDKIT_SABA_BENCH)"
  "$MMDKIT_SABA_BENCH" "$miku" "$wave" "$out" >"$out/saba.json" 2>"$out/saba.err" || { log "saba driver failed"; rm -f "$out/saba.json"; }
fi
}

# --- report ------------------------------------------------------------------------------------
set -- --out "$out" --repeat "$repeat" --frames "$frames" --bigpmx "$bigpmx" --bigvmd "$bigvmd"
[ "$quick" = 1 ] && set -- "$@" --quick
[ "$write" = 1 ] && set -- "$@" --readme "$here/README.md" --doc "$here/docs/BENCHMARKS.md"
python3 "$here/tools/bench/report.py" "$@"
