#!/usr/bin/env bash
# The merge chapter's benchmark runs on a GPU: the tables of the README and of NOTES.md.
#
#   bench/merge/benchmarks.sh <merge executable> <output folder> [--large]
#
# Writes <folder>/<run>.csv and .json (wb::report rows) for each run and the coarsening sweep
# as <folder>/sweep/sweep.csv (other columns). --large adds a run past 2^31 elements (about
# 19 GB of device memory and 40 GB of host memory, a minute or two). Used by
# bench/common/gpu-report.sh and bench/merge/gpu_check.sh.
set -uo pipefail
exe=${1:?usage: benchmarks.sh <merge executable> <output folder> [--large]}
out=${2:?usage: benchmarks.sh <merge executable> <output folder> [--large]}
large=${3:-}
mkdir -p "$out/sweep"
source "$(dirname "$0")/../common/lib.sh"
bench_init merge "$exe" "$out"
bench_run default                                  # m = n = 2^27 int32, uniform
bench_run int64 --type int64
bench_run key-value --key-value
bench_run float --type float
bench_run duplicates --dist duplicates
echo "### merge --sweep"
"$exe" --sweep --csv "$out/sweep/sweep.csv" || bench_status=1
if [ "$large" = "--large" ]; then
  # m + n = 2.36e9 > 2^31: the kernels' 64-bit indexing at full size
  bench_run large --m 1181116006 --n 1181116006 --stage 2,3,4,5,6 --reps 5
fi
exit $bench_status
