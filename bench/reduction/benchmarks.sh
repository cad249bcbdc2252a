#!/usr/bin/env bash
# The reduction chapter's benchmark runs (called by bench/common/gpu-report.sh, or by hand):
#
#   bench/reduction/benchmarks.sh BUILD/chapters/reduction/reduction OUT_DIR
#
# Writes OUT_DIR/<run>.csv (the report rows; gpu-report.sh merges every *.csv of this folder),
# OUT_DIR/<run>.json, OUT_DIR/sweep/block_sweep.csv (other columns, so kept apart) and
# OUT_DIR/reduction.svg (the figure). The README's "Measurements" section lists the same.
set -uo pipefail
exe=${1:?usage: benchmarks.sh REDUCTION_EXE OUT_DIR}
out=${2:?usage: benchmarks.sh REDUCTION_EXE OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/sweep"
source "$(dirname "$0")/../common/lib.sh"
bench_init reduction "$exe" "$out"
# The progression table: 2^28 int32 (the default), then the other types.
bench_run int32_2p28
bench_run float_2p28 --type float
bench_run int64_2p28 --type int64
bench_run double_2p28 --type double
# A small input: launch and epilogue costs show (the regime of Harris' progression).
bench_run int32_2p20 --n 1048576 --reps 100
# Past 2^31 items (64-bit indices), the fastest stages.
bench_run int32_2p31plus --n 2415919104 --stage 0,1,4,5 --reps 10
# The Handbook's block-size sweep.
echo "== reduction --sweep-block"
"$exe" --sweep-block --csv "$out/sweep/block_sweep.csv" || bench_status=1
echo
python3 "$here/plot_svg.py" "$out/int32_2p28.csv" "$out/sweep/block_sweep.csv" -o "$out/reduction.svg" || bench_status=1
exit $bench_status
