#!/usr/bin/env bash
# Stage 5 against CUB's radix sort (SortKeys / SortPairs) on every distribution, for a GPU
# machine: builds the sort chapter (cuda backend), runs stage 5's checks on the GPU (with
# compute-sanitizer's memcheck over the skipped-pass check), then the sweep of
# bench/sort/experiments/onesweep_vs_cub.cu: every key type, 2^20, 2^24 and 2^28 keys, every
# distribution of device_input.cuh (uniform, few, equal, sorted, low31, topbyte, reversed,
# extremes, narrow), keys only, and key-value for uint32 and int64. Each row says how many
# passes stage 5 sorted (the plan it wrote) and is checked against CUB's output.
#
#   OUT=/some/dir bench/sort/onesweep_dists.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      2^24 keys only, keys only (a minute)
#
# $OUT/onesweep_dists.csv   one line a run (type, dist, n, pairs, passes, sorted_passes,
#                           stage5_ms, stage5_min_ms, cub_ms, cub_over_stage5, verified,
#                           match_digits, few_digit_passes: the passes the few-digits
#                           kernel sorted)
# $OUT/summary.txt          GPU, build, checks, then cub_over_stage5 by distribution and size
#                           (above 1: stage 5 is faster), the rows below 1.0 listed last
# $OUT/logs.tar.gz          every log
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args sort "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build sort_tests sort_onesweep_vs_cub
sweep_exe="$build/bench/sort/sort_onesweep_vs_cub"

stamp "stage 5 checks"
"$dir/sort_tests" --test-suite="sort/5*" >"$work/logs/stage5_tests.log" 2>&1
note "stage 5 checks: $(tail -1 "$work/logs/stage5_tests.log")"
timeout 600 compute-sanitizer --tool memcheck --error-exitcode 99 "$dir/sort_tests" \
  --test-case="*plan skips*" >"$work/logs/memcheck_skips.log" 2>&1
note "memcheck, skipped passes (rc $?): $(grep -E 'ERROR SUMMARY' "$work/logs/memcheck_skips.log" | tail -1)"

stamp sweep
csv="$out/onesweep_dists.csv"
rm -f "$csv"
sizes=20,24,28
[ $quick -eq 1 ] && sizes=24
status=0
for type in uint32 int32 float int64; do
  "$sweep_exe" --type $type --log2n $sizes --dist all --reps 10 --csv "$csv" \
    >>"$work/logs/sweep.log" 2>&1 || status=1
  if [ $quick -eq 0 ] && { [ $type = uint32 ] || [ $type = int64 ]; }; then
    "$sweep_exe" --type $type --log2n $sizes --dist all --reps 10 --pairs --csv "$csv" \
      >>"$work/logs/sweep.log" 2>&1 || status=1
  fi
done
note "sweep: rc $status, $(grep -c WRONG "$work/logs/sweep.log") rows WRONG"

gpu_check_pack
stamp summary
python3 - "$csv" <<'PY' | tee -a "$summary"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit("no rows")
sizes = sorted({int(r["n"]) for r in rows})
print("\ncub / stage 5 (above 1: stage 5 faster); [sorted passes of all]")
for kind in sorted({(r["type"], r["pairs"]) for r in rows}):
    print(f"\n{kind[0]}{' pairs' if kind[1] == '1' else ''}")
    print(f"{'dist':10}" + "".join(f"{'2^%d' % (n.bit_length() - 1):>16}" for n in sizes))
    for dist in dict.fromkeys(r["dist"] for r in rows):
        cells = []
        for n in sizes:
            m = [r for r in rows if (r["type"], r["pairs"]) == kind and r["dist"] == dist and int(r["n"]) == n]
            cells.append(f"{float(m[0]['cub_over_stage5']):.2f}x [{m[0]['sorted_passes']}/{m[0]['passes']}]" if m else "-")
        print(f"{dist:10}" + "".join(f"{c:>16}" for c in cells))
losses = [r for r in rows if float(r["cub_over_stage5"]) < 1.0]
print(f"\nbelow 1.0: {len(losses)} of {len(rows)} rows")
for r in losses:
    print(f"  {r['type']}{' pairs' if r['pairs'] == '1' else ''} {r['dist']} n={r['n']}: {float(r['cub_over_stage5']):.3f}x "
          f"(stage 5 {float(r['stage5_ms']):.4f} ms, cub {float(r['cub_ms']):.4f} ms)")
bad = [r for r in rows if r["verified"] != "yes"]
print(f"rows not matching CUB's output: {len(bad)}")
PY
