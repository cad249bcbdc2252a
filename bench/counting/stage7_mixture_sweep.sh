#!/usr/bin/env bash
# Stage 7 against CUB sort + run-length encode on mixtures of hot keys and a long tail:
# `--dist mixture` (16 hot keys holding a share of the items, the rest drawn from a tail of
# values or all distinct), shuffled and sorted, at several sizes. At every point one process
# times CUB and stage 7's automatic choice (TUNE=1: every path forced too), so each ratio is
# from one run.
#
#   bench/counting/stage7_mixture_sweep.sh <counting executable> <output folder>
#
# SIZES (default "20 24 26 28": 2^k keys), SHARES ("0.1 0.5 0.9"), TAILS ("distinct 10 16 24":
# every tail item distinct, or 2^k values), ORDERS ("shuffled sorted"), HOT_KEYS (16), REPS
# (20), TUNE (0) narrow or widen it. Writes <folder>/stage7_mixture.csv (n, hot_share,
# hot_keys, tail, order, path, median_ms, cub_ms, vs_cub, verified, note), one CSV per point
# in <folder>/stage7_mixture_points/, and prints the table with the losses marked. About 6
# minutes for the 96 default points on an H100 host (most of it making and checking the 2^28
# inputs on the host).
set -uo pipefail
exe=${1:?usage: stage7_mixture_sweep.sh <counting executable> <output folder>}
out=${2:?usage: stage7_mixture_sweep.sh <counting executable> <output folder>}
sizes=${SIZES:-20 24 26 28}
shares=${SHARES:-0.1 0.5 0.9}
tails=${TAILS:-distinct 10 16 24}
orders=${ORDERS:-shuffled sorted}
mkdir -p "$out/stage7_mixture_points"
sweep=$out/stage7_mixture.csv
echo "n,hot_share,hot_keys,tail,order,path,median_ms,cub_ms,vs_cub,verified,note" >"$sweep"
tune=()
[ "${TUNE:-0}" = 1 ] && tune=(--tune)
rc=0
for e in $sizes; do
  for share in $shares; do
    for tail in $tails; do
      for order in $orders; do
        args=(--type int64 --n "2^$e" --dist mixture --hot-share "$share" --hot-keys "${HOT_KEYS:-16}")
        [ "$tail" = distinct ] || args+=(--tail-values "2^$tail")
        [ "$order" = sorted ] && args+=(--sorted)
        point=$out/stage7_mixture_points/2p${e}_h${share}_t${tail}_${order}.csv
        "$exe" "${args[@]}" --stage 7 "${tune[@]}" --reps "${REPS:-20}" --csv "$point" >"${point%.csv}.log" 2>&1 || rc=1
        python3 - "$point" "2^$e" "$share" "${HOT_KEYS:-16}" "$tail" "$order" >>"$sweep" <<'PY' || rc=1
import csv, sys
point, n, share, hot, tail, order = sys.argv[1:]
try:
    rows = list(csv.DictReader(open(point, newline="")))
except OSError:
    rows = []
cub = next((float(r["median_ms"]) for r in rows if r["is_baseline"] == "yes"), None)  # none on the cpu backend
out = csv.writer(sys.stdout)
key = [n, share, hot, "distinct" if tail == "distinct" else f"2^{tail}", order]
if cub:
    out.writerow(key + ["CUB sort + RLE", f"{cub:.4f}", f"{cub:.4f}", "1.00", "yes", ""])
for r in rows:
    if r["is_baseline"] == "yes" or not r["median_ms"]:
        continue
    path = r["stage"].replace("7 hash table", "").strip() or "auto"
    ms = float(r["median_ms"])
    out.writerow(key + [path, f"{ms:.4f}", f"{cub:.4f}" if cub else "", f"{cub / ms:.2f}" if cub else "",
                        r["verified"], r["note"]])
if not rows:
    out.writerow(key + ["(no result: see the point's .log)", "", "", "", "no", ""])
PY
      done
    done
  done
done
python3 - "$sweep" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["path"] == "auto" or r["path"].startswith("(")]
print(f"{'n':>5} {'hot':>4} {'tail':>8} {'order':>8} {'stage 7 ms':>10} {'CUB ms':>9} {'vs CUB':>7}  choice")
losses = 0
for r in rows:
    vs = float(r["vs_cub"]) if r["vs_cub"] else float("nan")
    mark = "" if r["verified"] == "yes" else "  WRONG"
    if vs < 1.0:
        mark += "  <- slower than CUB"
        losses += 1
    print(f"{r['n']:>5} {r['hot_share']:>4} {r['tail']:>8} {r['order']:>8} {r['median_ms']:>10} {r['cub_ms']:>9} "
          f"{r['vs_cub']:>6}x  {r['note']}{mark}")
print(f"{len(rows)} points, {losses} slower than CUB")
PY
exit $rc
