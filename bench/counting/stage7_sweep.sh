#!/usr/bin/env bash
# Stage 7 against CUB sort + run-length encode across the number of distinct keys: 2^26 int64
# keys with 2^10 to 2^26 distinct values, --dist few (uniform over the values; 2^26 is
# --dist all-distinct) and --dist zipf. At every point one process times CUB, the automatic
# choice and every path forced (--tune), so each ratio is from one run.
#
#   bench/counting/stage7_sweep.sh <counting executable> <output folder> [exponents] [dists]
#
# N=2^20 (say) changes the number of keys. Writes <folder>/stage7_sweep.csv (dist, distinct, path, ms, CUB ms, speedup, verified, note),
# one CSV per point beside it, and prints the table. About 10 s a point on an H100 host (most of
# it generating the input and the reference table on the host).
# python3 bench/counting/plot_stage7.py <folder>/stage7_sweep.csv stage7.svg draws it.
set -uo pipefail
exe=${1:?usage: stage7_sweep.sh <counting executable> <output folder> [exponents] [dists]}
out=${2:?usage: stage7_sweep.sh <counting executable> <output folder> [exponents] [dists]}
exponents=${3:-10 12 14 16 18 20 22 24 26}
dists=${4:-few zipf}
mkdir -p "$out/stage7_points"
sweep=$out/stage7_sweep.csv
echo "dist,distinct,path,median_ms,cub_ms,vs_cub,verified,note" >"$sweep"
rc=0
for dist in $dists; do
  for e in $exponents; do
    args=(--dist "$dist" --distinct "2^$e")
    if [ "$e" -ge 26 ]; then
      [ "$dist" = few ] || continue   # all 2^26 keys distinct: one input, listed under few
      args=(--dist all-distinct)
    fi
    point=$out/stage7_points/${dist}_2p$e.csv
    "$exe" --type int64 --n "${N:-2^26}" "${args[@]}" --stage 7 --tune --reps "${REPS:-5}" --csv "$point" >/dev/null || rc=1
    # path = the row's name after "7 hash table" (empty: the automatic choice)
    python3 - "$point" "$dist" "$e" >>"$sweep" <<'PY' || rc=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
cub = next((float(r["median_ms"]) for r in rows if r["is_baseline"] == "yes"), None)  # none on the cpu backend
out = csv.writer(sys.stdout)
if cub:
    out.writerow([sys.argv[2], 2 ** int(sys.argv[3]), "CUB sort + RLE", f"{cub:.4f}", f"{cub:.4f}", "1.00", "yes", ""])
for r in rows:
    if r["is_baseline"] == "yes" or not r["median_ms"]:
        continue
    path = r["stage"].replace("7 hash table", "").strip() or "auto"
    ms = float(r["median_ms"])
    out.writerow([sys.argv[2], 2 ** int(sys.argv[3]), path, f"{ms:.4f}", f"{cub:.4f}" if cub else "",
                  f"{cub / ms:.2f}" if cub else "", r["verified"], r["note"]])
PY
  done
done
python3 - "$sweep" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
paths = ["auto", "shared-tables", "two-level", "sort", "global-table"]
print("dist  distinct   CUB ms | " + " | ".join(f"{p:>16}" for p in paths) + " | auto's choice")
for (dist, d) in dict.fromkeys((r["dist"], r["distinct"]) for r in rows):
    at = {r["path"]: r for r in rows if r["dist"] == dist and r["distinct"] == d}
    cub = float(at["CUB sort + RLE"]["median_ms"]) if "CUB sort + RLE" in at else float("nan")
    cells = [f"{float(at[p]['median_ms']):7.3f} " + (f"{float(at[p]['vs_cub']):5.2f}x" if at[p]["vs_cub"] else "")
             + ("" if at[p]["verified"] == "yes" else "!") if p in at else "-" for p in paths]
    print(f"{dist:5} 2^{len(bin(int(d))) - 3:<7} {cub:7.3f} | " + " | ".join(f"{c:>16}" for c in cells) + " | " + at.get("auto", {}).get("note", ""))
PY
exit $rc
