#!/usr/bin/env bash
# The counting chapter's benchmark runs on a GPU: each of the chapter's goals measured in one
# run with its baseline (CUB), for bench/common/gpu-report.sh. --targets prints each goal
# against the run's times after the report.
#
#   bench/counting/benchmarks.sh <counting executable> <output folder>
#
# Writes <folder>/<run>.csv and .json for each run. About 2 minutes on an H100.
# (bench/counting/gpu_check.sh adds the tuning sweeps and the scaling table.)
set -uo pipefail
exe=${1:?usage: benchmarks.sh <counting executable> <output folder>}
out=${2:?usage: benchmarks.sh <counting executable> <output folder>}
source "$(dirname "$0")/../common/lib.sh"
bench_init counting "$exe" "$out" --targets
bench_run int8_1e9                                           # every stage, 10^9 int8 in device memory
bench_run int8_2p30_uniform --stage 5,6 --n 2^30             # stage 6 vs cub::DeviceHistogram::HistogramEven
bench_run int8_2p30_onehot --stage 5,6 --n 2^30 --dist one-hot --reps 5
bench_run int64_2p26_few --type int64 --n 2^26 --dist few --distinct 2^20 --stage 2,7 --tune   # vs CUB sort + RLE
bench_run int64_2p26_distinct --type int64 --n 2^26 --dist all-distinct --distinct 2^26 --stage 7 --reps 5
bench_run int64_2p26_zipf --type int64 --n 2^26 --dist zipf --distinct 2^20 --stage 7 --reps 5
exit $bench_status
