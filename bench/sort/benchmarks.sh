#!/usr/bin/env bash
# The sort chapter's benchmark runs (called by gpu_check.sh):
#
#   bench/sort/benchmarks.sh BUILD/chapters/sort/sort OUT_DIR
#
# Writes OUT_DIR/<run>.csv and .json (the report rows: every stage, CUB's radix sort and
# merge sort, the copy ceiling), OUT_DIR/bits/bits_sweep.csv (stage 3 at 1, 2, 4 and 8 bits
# per pass, and stage 4 at the same widths) and OUT_DIR/sort.svg (the figure).
set -uo pipefail
exe=${1:?usage: benchmarks.sh SORT_EXE OUT_DIR}
out=${2:?usage: benchmarks.sh SORT_EXE OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/../common/lib.sh"
bench_init sort "$exe" "$out"
# The progression tables: 2^28 uint32 keys (the default) and 2^26 key-value pairs.
bench_run uint32_2p28
bench_run pairs_2p26 --pairs --n $((1 << 26))
bench_run int32_2p28 --type int32 --stage 0,4,5,6
bench_run float_2p28 --type float --stage 0,4,5,6
bench_run int64_2p27 --type int64 --n $((1 << 27)) --stage 0,4,5,6
# Stage 3's radix width (PMPP §13.5): passes against buckets, at 2^26 keys (past the L2; the
# four runs take about a minute with their checks).
for b in 1 2 4 8; do
  bench_run "bits/uint32_2p26_bits$b" --n $((1 << 26)) --stage 3,4 --bits $b --reps 3
done
python3 - "$out/bits" <<'PY' || bench_status=1
import csv, glob, os, sys
d = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(d, "uint32_2p26_bits*.csv"))):
    bits = f.rsplit("bits", 1)[1].split(".")[0]
    for r in csv.DictReader(open(f)):
        rows.append({"bits": bits, "items": r["items"], "stage": r["stage"], "median_ms": r["median_ms"], "gb_per_s": r["gb_per_s"],
                     "pct_of_copy": r["pct_of_copy"], "verified": r["verified"]})
with open(os.path.join(d, "bits_sweep.csv"), "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=["bits", "items", "stage", "median_ms", "gb_per_s", "pct_of_copy", "verified"])
    w.writeheader()
    w.writerows(rows)
PY
python3 "$here/plot_svg.py" "$out/uint32_2p28.csv" "$out/pairs_2p26.csv" "$out/bits/bits_sweep.csv" -o "$out/sort.svg" || bench_status=1
exit $bench_status
