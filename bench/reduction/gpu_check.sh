#!/usr/bin/env bash
# One command for a GPU machine: build the reduction chapter (cuda backend), run its checks,
# show racecheck's report on the as-printed warp tail (R3) and a clean racecheck on the fixed
# stages, run the benchmarks; logs go to gpu-work/, and a few files to $OUT (default gpu-out/):
# summary.txt, logs.tar.gz (every log, CSV and JSON), reduction.svg, int32_2p28.csv,
# block_sweep.csv.
#
#   OUT=/some/dir bench/reduction/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      tests and the default benchmark only (no sweep, no 2^31+ run, no sanitizers)
# Took 3.5 minutes on an H100 (build 0.5, tests 0.3, benchmarks 1, sanitizers 1.5).
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args reduction "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build reduction reduction_tests
gpu_check_tests

stamp benchmarks
if [ $quick -eq 0 ]; then
  bench/reduction/benchmarks.sh "$dir/reduction" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  # Stage 5's grid: one wave by occupancy (default) against fixed block counts.
  for blocks in 132 264 528 1056 2112 4224 8448; do
    "$dir/reduction" --stage 5 --blocks $blocks --reps 50 2>&1 | grep -E "^5 at" | sed "s/^/blocks $blocks: /"
  done >"$work/logs/stage5_blocks.log"
  cp "$work/bench/reduction.svg" "$work/bench/int32_2p28.csv" "$work/bench/sweep/block_sweep.csv" "$out/" 2>/dev/null
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

  # Every test but [large] under every tool.
  gpu_check_sanitize '*[large]*' racecheck:70 memcheck:70 synccheck:45 initcheck:45
fi

gpu_check_pack
stamp summary
cat "$summary"
echo
for title in "268435456 int32" "268435456 float" "268435456 int64" "1048576 int32" "2415919104 int32"; do
  grep -A11 "^reduction: sum of $title" "$work/logs/bench.log" | grep -E "^(reduction|[0-9] |cub)"
done
grep -A8 "^block-size sweep" "$work/logs/bench.log"
cat "$work/logs/stage5_blocks.log" 2>/dev/null
