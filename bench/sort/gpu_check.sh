#!/usr/bin/env bash
# One command for a GPU machine: build the sort chapter (cuda backend, with the scan chapter
# it scans its counts with), run its checks on the GPU, run compute-sanitizer (memcheck,
# racecheck, synccheck, initcheck) over the fixed stages' checks, run the benchmarks; logs go
# to gpu-work/, results to $OUT (default gpu-out/): summary.txt (last lines: the tables),
# logs.tar.gz (every log, CSV and JSON), sort.svg, uint32_2p28.csv, pairs_2p26.csv,
# bits_sweep.csv.
#
#   OUT=/some/dir bench/sort/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      tests and the default benchmark only (no sanitizers, no sweep)
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args sort "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build sort sort_tests
gpu_check_tests

stamp benchmarks
if [ $quick -eq 0 ]; then
  bench/sort/benchmarks.sh "$dir/sort" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  cp "$work/bench/sort.svg" "$work/bench/uint32_2p28.csv" "$work/bench/pairs_2p26.csv" "$work/bench/bits/bits_sweep.csv" "$out/" 2>/dev/null
else
  "$dir/sort" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

if [ $quick -eq 0 ]; then
  # The fixed stages under every tool ([large] and the defect tests left out).
  gpu_check_sanitize '*[large]*,SO1*,SO2*,SO3*' memcheck:300 racecheck:400 synccheck:300 initcheck:300
fi

gpu_check_pack
stamp summary
{
  echo
  for title in "268435456 uint32 keys (" "67108864 uint32 keys with" "268435456 int32" "268435456 float" "134217728 int64"; do
    grep -F -A16 "sort: $title" "$work/logs/bench.log" | grep -E "^(sort:|copy|[0-9] |cub)"
    echo
  done
  grep -E "^6 merge against" "$work/logs/bench.log"
  echo "stage 3 and 4 by digit width (uint32, 2^28):"
  cat "$work/bench/bits/bits_sweep.csv" 2>/dev/null
} | tee -a "$summary"
