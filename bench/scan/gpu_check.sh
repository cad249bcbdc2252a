#!/usr/bin/env bash
# One command for a GPU machine: build the scan chapter (cuda backend), run its checks on the
# GPU, run compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over the fixed
# stages' checks, run the benchmarks; logs go to gpu-work/, results to $OUT (default gpu-out/):
# summary.txt (last lines: the tables), logs.tar.gz (every log, CSV and JSON), scan.svg,
# int32_2p28.csv, size_sweep.csv.
#
#   OUT=/some/dir bench/scan/gpu_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      tests and the default benchmark only (no sanitizers, no sweep)
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args scan "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build scan scan_tests
gpu_check_tests

stamp benchmarks
if [ $quick -eq 0 ]; then
  bench/scan/benchmarks.sh "$dir/scan" "$work/bench" >"$work/logs/bench.log" 2>&1
  note "benchmarks: rc $?"
  cp "$work/bench/scan.svg" "$work/bench/int32_2p28.csv" "$work/bench/sweep/size_sweep.csv" "$out/" 2>/dev/null
else
  "$dir/scan" >"$work/logs/bench.log" 2>&1
  note "benchmark: rc $?"
fi

if [ $quick -eq 0 ]; then
  # racecheck on the in-place Kogge-Stone (S1) and the missing phase barrier (S3): hazards expected.
  stamp "racecheck: the defective variants S1, S3"
  timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard \
    "$dir/scan_tests" --test-case='S1*,S3*' >"$work/logs/racecheck_defects.log" 2>&1
  note "racecheck, defective variants S1 and S3 (hazards expected): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/racecheck_defects.log" | tail -1)"
  # The fixed stages under every tool ([large] and the defect tests left out).
  gpu_check_sanitize '*[large]*,S1*,S2*,S3*,S4*' memcheck:300 racecheck:400 synccheck:300 initcheck:300
fi

gpu_check_pack
stamp summary
{
  echo
  for title in "inclusive scan of 268435456 int32" "inclusive scan of 268435456 int64" "inclusive scan of 268435456 float" "exclusive scan of 268435456 int32"; do
    grep -A14 "^scan: $title" "$work/logs/bench.log" | grep -E "^(scan:|copy|[0-9] |cub)"
    echo
  done
  echo "stage 6 and CUB by size (int32, GB/s):"
  grep -E "^scan: inclusive scan of|^6 single|^cub" "$work/logs/bench.log" | grep -A2 -E "of (65536|262144|1048576|4194304|16777216|67108864|268435456|1073741824) int32 \(uniform, seed 42\), block 256, items per thread stage default" | grep -vE "^--"
} | tee -a "$summary"
