#!/usr/bin/env bash
# The scan chapter's benchmark runs (called by gpu_check.sh or bench/common/gpu-report.sh):
#
#   bench/scan/benchmarks.sh BUILD/chapters/scan/scan OUT_DIR
#
# Writes OUT_DIR/<run>.csv and .json (the report rows), OUT_DIR/sweep/size_sweep.csv (stage 6
# and CUB from 2^16 to 2^30 int32) and OUT_DIR/scan.svg (the figure).
set -uo pipefail
exe=${1:?usage: benchmarks.sh SCAN_EXE OUT_DIR}
out=${2:?usage: benchmarks.sh SCAN_EXE OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/sweep"
source "$(dirname "$0")/../common/lib.sh"
bench_init scan "$exe" "$out"
# The progression table: 2^28 int32 (the default), every stage, CUB, the copy ceiling.
bench_run int32_2p28
bench_run int64_2p28 --type int64
bench_run float_2p28 --type float
bench_run int32_2p28_exclusive --exclusive
# Stage 6 against CUB from 2^16 to 2^30 items (the one-block stages would take minutes).
for p in 16 18 20 22 24 26 28 30; do
  bench_run "sweep/int32_2p$p" --n $((1 << p)) --stage 0,4,5,6 --reps 50
done
python3 - "$out/sweep" <<'PY' || bench_status=1
import csv, glob, os, sys
d = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(d, "int32_2p*.csv"))):
    for r in csv.DictReader(open(f)):
        rows.append({"n": r["items"], "stage": r["stage"], "median_ms": r["median_ms"], "gb_per_s": r["gb_per_s"],
                     "pct_of_copy": r["pct_of_copy"], "verified": r["verified"]})
with open(os.path.join(d, "size_sweep.csv"), "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=["n", "stage", "median_ms", "gb_per_s", "pct_of_copy", "verified"])
    w.writeheader()
    w.writerows(rows)
PY
python3 "$here/plot_svg.py" "$out/int32_2p28.csv" "$out/sweep/size_sweep.csv" -o "$out/scan.svg" || bench_status=1
exit $bench_status
