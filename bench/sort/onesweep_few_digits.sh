#!/usr/bin/env bash
# Stage 5's threshold for its few-digits kernel, for a GPU machine: which passes of int64 keys
# should it sort (config::onesweep_match_digits: a pass whose digit takes at most that many
# values over the whole input is sorted by the few-digits kernel, ranking with
# __match_any_sync; -1: none, the pass kernel sorts every pass; 256: every sorting pass).
# Builds the sort chapter (cuda backend), runs stage 5's checks on the GPU, then
# bench/sort/experiments/onesweep_vs_cub.cu on uniform, few, extremes, topbyte and sorted
# int64 keys (keys only and key-value) at 2^24 and 2^26 keys, stage 5 once per threshold
# beside CUB in the same process, every output checked against CUB's. (Key-value sorts never
# take the few-digits kernel: onesweep.hpp, few_digits_kernel_for; few_digits_check.sh sweeps
# every key type.)
#
#   OUT=/some/dir bench/sort/onesweep_few_digits.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      2^24 keys only, keys only
#
# $OUT/few_digits.csv   one line a run (onesweep_dists.sh's columns, match_digits, few_digit_passes)
# $OUT/summary.txt      GPU, build, checks, then CUB / stage 5 by threshold (above 1: stage 5
#                       faster), and the best threshold of each row
# $OUT/logs.tar.gz      every log
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args sort "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build sort_tests sort_onesweep_vs_cub
sweep_exe="$build/bench/sort/sort_onesweep_vs_cub"

stamp "stage 5 checks"
"$dir/sort_tests" --test-suite="sort/5*" --test-case-exclude="*[large]*" >"$work/logs/stage5_tests.log" 2>&1
note "stage 5 checks: $(tail -1 "$work/logs/stage5_tests.log")"

stamp sweep
csv="$out/few_digits.csv"
rm -f "$csv"
sizes=24,26
[ $quick -eq 1 ] && sizes=24
status=0
pairs=("" --pairs)
[ $quick -eq 1 ] && pairs=("")
for p in "${pairs[@]}"; do
  "$sweep_exe" --type int64 $p --log2n $sizes --dist uniform,few,extremes,topbyte,sorted --reps 10 \
    --match-digits -1,8,16,32,256 --csv "$csv" >>"$work/logs/sweep.log" 2>&1 || status=1
done
note "sweep: rc $status, $(grep -c WRONG "$work/logs/sweep.log") rows WRONG"

gpu_check_pack
stamp summary
python3 - "$csv" <<'PY' | tee -a "$summary"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit("no rows")
matches = sorted({int(r["match_digits"]) for r in rows})
print("\ncub / stage 5 by match_digits (above 1: stage 5 faster; -1: the pass kernel on every pass)")
print(f"{'type':12}{'dist':10}{'n':>6}" + "".join(f"{m:>8}" for m in matches) + "   best")
worst = {m: 9.0 for m in matches}
for key in dict.fromkeys((r["type"], r["pairs"], r["dist"], r["n"]) for r in rows):
    cells = {int(r["match_digits"]): float(r["cub_over_stage5"]) for r in rows
             if (r["type"], r["pairs"], r["dist"], r["n"]) == key}
    for m, v in cells.items():
        worst[m] = min(worst[m], v)
    best = max(cells, key=cells.get)
    n = int(key[3])
    print(f"{key[0] + (' pairs' if key[1] == '1' else ''):12}{key[2]:10}{'2^%d' % (n.bit_length() - 1):>6}" +
          "".join(f"{cells[m]:8.3f}" if m in cells else f"{'-':>8}" for m in matches) + f"   {best}")
print("\nworst row by match_digits: " + ", ".join(f"{m}: {worst[m]:.3f}x" for m in matches))
bad = [r for r in rows if r["verified"] != "yes"]
print(f"rows not matching CUB's output: {len(bad)}")
PY
