#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting chapter (cuda backend), run
# stage 7's checks (WB_LARGE=1: the 2^22-key ones too), the headline rows against CUB sort +
# run-length encode (2^26 keys with 2^10, 2^14, 2^20, 2^24 distinct and all distinct, evenly
# spread and zipf-like; every path forced beside the automatic choice: stage7_sweep.sh) and
# their figure, the sweep over mixtures of hot keys and a long tail (stage7_mixture_sweep.sh),
# and compute-sanitizer on small inputs of every path; all of it to $OUT (default gpu-out/):
# summary.txt, log.txt, stage7_sweep.csv and .svg, stage7_mixture.csv, sanitizers.txt.
#   OUT=<folder> bench/counting/stage7_gpu.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties
#                it first (on a machine that keeps build outputs between runs: no stale objects)
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      the mixture sweep at 2^24 and 2^26 keys only
# SANITIZE=1: racecheck, synccheck and initcheck besides memcheck. About 13 minutes on an H100
# (build 3, checks 1, headline rows 2, mixtures 6, memcheck 1); --quick about 8.
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args counting "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build counting counting_tests
exe="$dir/counting"
rc=0
{
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"
  WB_LARGE=1 "$dir/counting_tests" -ts="counting/7*" 2>&1 | tail -3
  echo "### headline rows: stage7_sweep.sh (2^26 keys, every path forced)"
  bench/counting/stage7_sweep.sh "$exe" "$out" "10 14 20 24 26" "few zipf"
  python3 bench/counting/plot_stage7.py "$out/stage7_sweep.csv" "$out/stage7_sweep.svg"
  echo "### mixtures: stage7_mixture_sweep.sh"
  if [ "$quick" = 1 ]; then
    SIZES="24 26" bench/counting/stage7_mixture_sweep.sh "$exe" "$out"
  else
    bench/counting/stage7_mixture_sweep.sh "$exe" "$out"
  fi
} 2>&1 | tee -a "$out/log.txt"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
# compute-sanitizer on each path forced, and the automatic choice on mixtures, shuffled and sorted
tools=(memcheck)
[ "${SANITIZE:-0}" = 1 ] && tools=(memcheck racecheck synccheck initcheck)
inputs=("--dist few --distinct 1024 --path shared-tables" "--dist few --distinct 16384 --path two-level"
        "--dist zipf --distinct 16384 --path two-level" "--dist all-distinct --path sort"
        "--dist few --distinct 4096 --path global-table" "--dist mixture --hot-share 0.5"
        "--dist mixture --hot-share 0.9 --tail-values 2^14 --sorted" "--dist mixture --hot-share 0.9 --sorted")
: >"$out/sanitizers.txt"
if command -v compute-sanitizer >/dev/null; then
  for tool in "${tools[@]}"; do
    for input in "${inputs[@]}"; do
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
      # shellcheck disable=SC2086
      line=$(compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 "$exe" --type int64 --n 100003 $input \
               --stage 7 --reps 1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" | tail -1)
      echo "$tool | $input | ${line:-no summary}" | tee -a "$out/sanitizers.txt"
    done
  done
else
  echo "compute-sanitizer not found" | tee -a "$out/sanitizers.txt"
fi
gpu_check_pack
exit $rc
