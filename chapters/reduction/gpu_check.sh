#!/usr/bin/env bash
# One command for a GPU machine: build the reduction chapter (cuda backend), run its checks,
# show racecheck's report on the as-printed warp tail (R3) and a clean racecheck on the fixed
# stages, run the benchmarks; logs go to gpu-work/, and a few files to $OUT (default gpu-out/):
# summary.txt, logs.tar.gz (every log, CSV and JSON), reduction.svg, int32_2p28.csv,
# block_sweep.csv.
#
#   OUT=/some/dir chapters/reduction/gpu_check.sh [--deps DIR] [--quick]
#
#   --deps DIR  folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick     tests and the default benchmark only (no sweep, no 2^31+ run, no sanitizers)
# Took 3.5 minutes on an H100 (build 0.5, tests 0.3, benchmarks 1, sanitizers 1.5).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out=${OUT:-$root/gpu-out}
deps=""
[ -d "$root/.carry/include" ] && deps="$root/.carry"
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$(cd "$2" && pwd); shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "gpu_check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
work="$root/gpu-work"
rm -rf "$work"
mkdir -p "$out" "$work/logs"
build="$root/build-gpu"
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }

note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
note "nvcc: $(nvcc --version | tail -1); cmake: $(cmake --version | head -1)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"

stamp build
args=(-S "$root" -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
      -DWB_CHAPTER_LIST=reduction)
[ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
if ! { cmake "${args[@]}" && cmake --build "$build" -j "$(nproc)" --target reduction reduction_tests; } \
    >"$work/logs/build.log" 2>&1; then
  tail -30 "$work/logs/build.log"
  note "build: FAILED"
  tar -czf "$out/logs.tar.gz" -C "$work" logs
  exit 1
fi
note "build: ok"
dir="$build/chapters/reduction"

stamp tests
"$dir/reduction_tests" >"$work/logs/tests.log" 2>&1
note "tests: $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|skipped" "$work/logs/tests.log" | head -20

stamp benchmarks
if [ $quick -eq 0 ]; then
  chapters/reduction/benchmarks.sh "$dir/reduction" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  # Stage 5's grid: one wave by occupancy (default) against fixed block counts.
  for blocks in 132 264 528 1056 2112 4224 8448; do
    "$dir/reduction" --stage 5 --blocks $blocks --reps 50 2>&1 | grep -E "^5 at" | sed "s/^/blocks $blocks: /"
  done >"$work/logs/stage5_blocks.log"
  cp "$work/bench/reduction.svg" "$work/bench/int32_2p28.csv" "$work/bench/sweep/block_sweep.csv" "$out/" 2>/dev/null
  tar -czf "$out/logs.tar.gz" -C "$work" logs bench
else
  "$dir/reduction" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

if [ $quick -eq 0 ]; then
  stamp "racecheck: listing 12-2 as printed (R3)"
  timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard \
    "$dir/reduction_tests" --no-skip --test-case='R3 as printed*' >"$work/logs/racecheck_as_printed.log" 2>&1
  note "racecheck, as-printed tail: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/racecheck_as_printed.log" | tail -1)"
  grep -m 6 -E "Error|Race|hazard|Write|Read" "$work/logs/racecheck_as_printed.log"

  # The fixed stages under every tool (the lead's full run repeats this; [large] left out).
  for spec in racecheck:70 memcheck:70 synccheck:45 initcheck:45; do
    tool=${spec%%:*}
    limit=${spec##*:}
    stamp "$tool: every test but [large]"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    timeout "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$dir/reduction_tests" --test-case-exclude='*[large]*' >"$work/logs/${tool}_fixed.log" 2>&1
    rc=$?
    note "$tool, every test but [large] (rc $rc$([ $rc -eq 124 ] && echo ', timed out')): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_fixed.log" | tail -1) $(tail -1 "$work/logs/${tool}_fixed.log" | grep -E 'passed')"
  done
fi


tar -czf "$out/logs.tar.gz" -C "$work" logs $( [ -d "$work/bench" ] && echo bench )
stamp summary
cat "$summary"
echo
for title in "268435456 int32" "268435456 float" "268435456 int64" "1048576 int32" "2415919104 int32"; do
  grep -A11 "^reduction: sum of $title" "$work/logs/bench.log" | grep -E "^(reduction|[0-9] |cub)"
done
grep -A8 "^block-size sweep" "$work/logs/bench.log"
cat "$work/logs/stage5_blocks.log" 2>/dev/null
