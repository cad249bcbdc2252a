#!/usr/bin/env bash
# Stage 7's measurement run (one GPU call): build the counting chapter (cuda backend), run
# stage 7's checks (WB_LARGE=1: the 2^22-key ones too), then the sweep over the number of
# distinct keys against CUB sort + run-length encode (stage7_sweep.sh) and its figure; all of
# it to $OUT (default gpu-out/): summary.txt, log.txt, stage7_sweep.csv and .svg.
#   OUT=<folder> bench/counting/stage7_gpu.sh [--build DIR] [--fresh] [--deps DIR]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties
#                it first (on a machine that keeps build outputs between runs: no stale objects)
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args counting "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build counting counting_tests
{
  echo "### WB_LARGE=1 counting_tests -ts=counting/7*"
  WB_LARGE=1 "$dir/counting_tests" -ts="counting/7*" 2>&1 | tail -3
  echo "### stage7_sweep.sh"
  bench/counting/stage7_sweep.sh "$dir/counting" "$out"
  python3 bench/counting/plot_stage7.py "$out/stage7_sweep.csv" "$out/stage7_sweep.svg"
} 2>&1 | tee -a "$out/log.txt"
gpu_check_pack
