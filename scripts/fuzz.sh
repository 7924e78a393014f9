#!/bin/sh
# Builds the libFuzzer targets (preset `sanitize`: clang 16, ASan + UBSan; the same build CI runs
# the tests in) and runs each for N seconds on a temporary corpus
# seeded by mmdkit_fuzz_seeds (generated files + small corpus files + their JSON forms).
#
#   sh scripts/fuzz.sh [TARGET...] [--seconds N] [--jobs J] [--keep DIR]
#
# TARGET: a fuzz/fuzz_*.cpp name (fuzz_vmd, fuzz_pmx_json, fuzz_physics, ...; the "fuzz_" prefix
# is optional); none = all of them. --seconds: per target (default 60). --jobs: targets run at once (default 1; the machine may be shared).
# --keep DIR: keep the grown corpora in DIR/<target>/ (default: a temp folder, deleted).
# Crashing, leaking, timing-out or out-of-memory inputs are copied to
# tests/regress/inputs/<target>/ (tests/regress replays them) and the script exits 1.
# Each run prints one line: target, seconds, executions, exec/s, corpus size, result.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=60
jobs=1
keep=""
targets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#--jobs=}; shift ;;
    --keep) keep=$2; shift 2 ;;
    --keep=*) keep=${1#--keep=}; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    fuzz_*) targets="$targets $1"; shift ;;
    *) targets="$targets fuzz_$1"; shift ;;
  esac
done

build=build/sanitize
cmake --preset sanitize >/dev/null  # configures, or refreshes the globs (new targets)
all=$(cd fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
if [ -z "$targets" ]; then targets=$all; fi
for t in $targets; do
  case " $(echo $all) " in *" $t "*) ;; *) echo "fuzz.sh: unknown target $t (have: $(echo $all))" >&2; exit 2 ;; esac
done
cmake --build --preset sanitize -j2 --target mmdkit_fuzz_seeds $targets

work=$(mktemp -d "${TMPDIR:-/tmp}/mmdkit-fuzz.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT INT TERM
corpus_dir=${MMDKIT_CORPUS:-$root/../shared/corpus}
"$build/fuzz/mmdkit_fuzz_seeds" "$work/seeds" "$corpus_dir" 65536

run_one() {  # target -> writes $work/result.<target>
  t=$1
  bin="$build/fuzz/$t"
  corpus="$work/corpus/$t"
  if [ -n "$keep" ]; then corpus="$keep/$t"; fi
  mkdir -p "$corpus" "$work/art/$t" "$work/seeds/$t"
  # JSON documents grow with what they describe: allow larger inputs there.
  case "$t" in *_json) max_len=262144 ;; *) max_len=65536 ;; esac
  set +e
  # intercept_tls_get_addr=0: see tests/lsan-suppressions.txt (a sanitizer-runtime bug, not ours).
  ASAN_OPTIONS=${ASAN_OPTIONS:-intercept_tls_get_addr=0} \
  "$bin" -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$work/art/$t/" "$corpus" "$work/seeds/$t" \
    >"$work/log.$t" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.$t" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log.$t" | tail -1)
  ncorpus=$(ls "$corpus" | wc -l)
  found=$(ls "$work/art/$t" | wc -l)
  if [ "$rc" = 0 ] && [ "$found" = 0 ]; then
    res=ok
  else
    res="FINDING(rc=$rc)"
    mkdir -p "tests/regress/inputs/$t"
    for f in "$work/art/$t"/*; do
      [ -e "$f" ] || continue
      cp "$f" "tests/regress/inputs/$t/"
      echo "fuzz.sh: $t: kept $(basename "$f") in tests/regress/inputs/$t/" >&2
    done
    echo "---- $t log (last 60 lines) ----" >&2
    tail -60 "$work/log.$t" >&2
  fi
  echo "$t seconds=$seconds execs=${execs:-?} exec_per_sec=${speed:-?} corpus=$ncorpus result=$res" \
    >"$work/result.$t"
}

set -- $targets
while [ $# -gt 0 ]; do
  pids=""
  i=0
  while [ $i -lt "$jobs" ] && [ $# -gt 0 ]; do
    run_one "$1" &
    pids="$pids $!"
    shift
    i=$((i + 1))
  done
  for p in $pids; do wait "$p"; done
done

status=0
for t in $targets; do
  cat "$work/result.$t"
  case "$(cat "$work/result.$t")" in *result=ok) ;; *) status=1 ;; esac
done
if [ "$status" != 0 ]; then echo "fuzz.sh: findings: see above; inputs in tests/regress/inputs/" >&2; fi
exit $status
