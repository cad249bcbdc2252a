#!/usr/bin/env bash
# Stage 6 against CUB's merge across sizes: at every point one process times stage 6, CUB and
# a device-to-device copy of the same bytes, so each ratio is from one run, and checks stage
# 6's output against stage 0.
#
#   bench/merge/size_sweep.sh <merge executable> <output folder>
#
# SIZES (default "15 17 19 21 23 25 27": m = n = 2^k, so 2^16 to 2^28 outputs), RUNS (default
# "int32 int64 float key-value duplicates disjoint interleaved": the key type, --key-value, or
# the int32 input distribution) and REPS (20) narrow or widen it. Writes
# <folder>/size_sweep.csv (run, m, n, stage6_ms, cub_ms, vs_cub, stage6_pct_of_copy,
# cub_pct_of_copy, verified), one CSV per point in <folder>/points/, and prints the table with
# the points where CUB is faster marked. About 2 minutes on an H100 host (most of it making and
# checking the 2^27-element inputs on the host).
set -uo pipefail
exe=${1:?usage: size_sweep.sh <merge executable> <output folder>}
out=${2:?usage: size_sweep.sh <merge executable> <output folder>}
sizes=${SIZES:-15 17 19 21 23 25 27}
runs=${RUNS:-int32 int64 float key-value duplicates disjoint interleaved}
mkdir -p "$out/points"
rc=0
for run in $runs; do
  case $run in
    int32 | int64 | float) args=(--type "$run") ;;
    key-value) args=(--key-value) ;;
    duplicates | interleaved) args=(--dist "$run") ;;
    disjoint) args=(--dist a-below-b) ;;
    *) echo "size_sweep.sh: unknown run '$run'" >&2; exit 2 ;;
  esac
  for e in $sizes; do
    "$exe" "${args[@]}" --m "2^$e" --n "2^$e" --stage 6 --reps "${REPS:-20}" --csv "$out/points/${run}_2p$e.csv" \
      >"$out/points/${run}_2p$e.log" 2>&1 || rc=1
  done
done
python3 - "$out" "$sizes" $runs <<'PY' || rc=1
import csv, pathlib, sys
out, sizes, runs = pathlib.Path(sys.argv[1]), [int(e) for e in sys.argv[2].split()], sys.argv[3:]
rows = []
for run in runs:
    for side in sizes:
        point = out / "points" / f"{run}_2p{side}.csv"
        if not point.exists():
            print(f"{point.name}: no result (see its .log)")
            continue
        table = list(csv.DictReader(open(point, newline="")))
        stage = next((r for r in table if r["stage"].startswith("6")), None)
        cub = next((r for r in table if r["is_baseline"] == "yes"), None)  # none on the cpu backend
        if stage is None:
            print(f"{point.name}: no stage 6 row (see its .log)")
            continue
        s = float(stage["median_ms"])
        c = float(cub["median_ms"]) if cub else None
        pct = lambda r: f"{float(r['pct_of_copy']):.1f}" if r and r["pct_of_copy"] else ""
        rows.append([run, 2**side, 2**side, f"{s:.4f}", f"{c:.4f}" if c else "", f"{c / s:.3f}" if c else "",
                     pct(stage), pct(cub), stage["verified"]])
with open(out / "size_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["run", "m", "n", "stage6_ms", "cub_ms", "vs_cub", "stage6_pct_of_copy", "cub_pct_of_copy", "verified"])
    w.writerows(rows)
print(f"{'run':<12} {'m + n':>10} {'stage 6 ms':>11} {'CUB ms':>9} {'vs CUB':>7} {'% copy':>7}")
for run, m, n, s, c, ratio, pct, _, ok in rows:
    mark = "  <- CUB faster" if ratio and float(ratio) < 1 else ""
    mark += "" if ok == "yes" else "  WRONG"
    print(f"{run:<12} {f'2^{(m + n).bit_length() - 1}':>10} {s:>11} {c:>9} {(ratio + 'x') if ratio else '-':>7} {pct:>7}{mark}")
wrong = sum(r[-1] != "yes" for r in rows)
print(f"{len(rows)} points, {sum(r[5] != '' and float(r[5]) < 1 for r in rows)} where CUB is faster, {wrong} not verified")
sys.exit(1 if wrong or not rows else 0)
PY
exit $rc
