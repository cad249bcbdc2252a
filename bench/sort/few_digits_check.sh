#!/usr/bin/env bash
# Stage 5's few-digits kernel (keys without values: a pass whose digit takes few values, ranked by
# __match_any_sync) on a GPU machine, in one command: builds sort, sort_tests and
# sort_onesweep_vs_cub (cuda backend); runs stage 5's checks on the GPU; runs
# compute-sanitizer's memcheck and racecheck over the sort executable (int64 and uint32, 16
# distinct keys, stage 5) at 1000003 keys (below the kernel's 2^22 keys: the pass kernel
# alone) and at 2^22 + 3 keys (the few-digits kernel), and over the few-digits checks of
# sort_tests; prints the registers and spills of stage 5's kernels (cuobjdump); then stage 5
# against CUB's radix sort in the same process (bench/sort/experiments/onesweep_vs_cub.cu,
# every output checked against CUB's) for uint32, int32, float and int64 keys (int64 also
# key-value) at 2^20, 2^24 and 2^28 keys on uniform, few, extremes, sorted and narrow keys.
# Keys alone run twice, with the few-digits kernel (the stage's default) and without it
# (--match-digits -1: the pass kernel sorts every pass).
#
#   OUT=/some/dir bench/sort/few_digits_check.sh [--build DIR] [--fresh] [--deps DIR] [--quick]
#
#   --build DIR  the cuda build folder (default: build-cuda/, the cuda preset's); --fresh empties it first
#   --deps DIR   folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
#   --quick      2^24 keys only, no sanitizers
#
# $OUT/few_digits.csv   one line a run (onesweep_dists.sh's columns, match_digits: 16 with the
#                       few-digits kernel, -1 without; few_digit_passes: the passes it sorted)
# $OUT/summary.txt      GPU, build, checks, sanitizers, registers; then CUB / stage 5 by type,
#                       distribution and size (above 1: stage 5 faster), with and without the
#                       few-digits kernel, and the rows below 1.0
# $OUT/logs.tar.gz      every log
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/common/lib.sh
gpu_check_args sort "$@"
gpu_check_no_more_args
gpu_check_start
gpu_check_build sort sort_tests sort_onesweep_vs_cub
sweep_exe="$build/bench/sort/sort_onesweep_vs_cub"

stamp "stage 5 checks"
timeout 900 "$dir/sort_tests" --test-suite="sort/5*" --test-case-exclude="*[large]*" \
  >"$work/logs/stage5_tests.log" 2>&1
note "stage 5 checks (rc $?): $(tail -1 "$work/logs/stage5_tests.log")"
grep -E "ERROR" "$work/logs/stage5_tests.log" | head -20

if [ $quick -eq 0 ]; then
  for tool in memcheck racecheck; do
    extra=()
    [ $tool = racecheck ] && extra=(--racecheck-report hazard)
    for type in int64 uint32; do
      for n in 1000003 4194307; do
        stamp "$tool: sort --type $type --dist few --n $n --stage 5"
        log="$work/logs/${tool}_sort_${type}_$n.log"
        timeout 600 compute-sanitizer --tool $tool "${extra[@]}" --error-exitcode 99 "$dir/sort" --type $type \
          --dist few --n $n --stage 5 --reps 1 >"$log" 2>&1
        note "$tool, sort $type few n=$n stage 5 (rc $?): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$log" | tail -1)"
      done
    done
    stamp "$tool: the few-digits checks"
    timeout 900 compute-sanitizer --tool $tool "${extra[@]}" --error-exitcode 99 "$dir/sort_tests" \
      --test-case="*few-digits*" >"$work/logs/${tool}_tests.log" 2>&1
    note "$tool, sort_tests *few-digits* (rc $?): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_tests.log" | tail -1) $(tail -1 "$work/logs/${tool}_tests.log" | grep -E 'passed')"
  done
fi

stamp registers
object=$(find "$build/chapters/sort" -path "*solutions/sort/onesweep.cu.o" | head -1)
if [ -n "$object" ]; then
  cuobjdump --dump-resource-usage "$object" >"$work/logs/resource_usage.log" 2>&1
  # One line a kernel: its (mangled) name, then REG, STACK, SHARED, LOCAL ...; spills show as
  # a nonzero STACK / LOCAL.
  note "registers of stage 5's kernels (j uint32, i int32, f float, l int64; Lb1: with values):"
  grep -A1 -E "Function .*(few_digits_kernel|pass_kernel)I" "$work/logs/resource_usage.log" |
    grep -vE "^--$" | paste - - | sed -E 's/^ *Function ([^:]*):/\1/' | tee -a "$summary"
else
  note "registers: the object of solutions/sort/onesweep.cu was not found under $build/chapters/sort"
fi

stamp sweep
csv="$out/few_digits.csv"
rm -f "$csv"
sizes=20,24,28
[ $quick -eq 1 ] && sizes=24
dists=uniform,few,extremes,sorted,narrow
status=0
for type in uint32 int32 float int64; do
  "$sweep_exe" --type $type --log2n $sizes --dist $dists --reps 10 --match-digits 0,-1 --csv "$csv" \
    >>"$work/logs/sweep.log" 2>&1 || status=1
done
"$sweep_exe" --type int64 --pairs --log2n $sizes --dist $dists --reps 10 --match-digits 0,-1 --csv "$csv" \
  >>"$work/logs/sweep.log" 2>&1 || status=1
note "sweep: rc $status, $(grep -c WRONG "$work/logs/sweep.log") rows WRONG"

gpu_check_pack
stamp summary
python3 - "$csv" <<'PY' | tee -a "$summary"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if not rows:
    sys.exit("no rows")
sizes = sorted({int(r["n"]) for r in rows})
print("\ncub / stage 5 (above 1: stage 5 faster); [passes the few-digits kernel sorted / passes sorted]")
for kind in dict.fromkeys((r["type"], r["pairs"], r["match_digits"]) for r in rows):
    label = "with the few-digits kernel" if int(kind[2]) > 0 else "pass kernel only (--match-digits -1)"
    if kind[1] == "1":
        label = "key-value: the pass kernel only"
    print(f"\n{kind[0]}{' pairs' if kind[1] == '1' else ''}, {label}")
    print(f"{'dist':10}" + "".join(f"{'2^%d' % (n.bit_length() - 1):>16}" for n in sizes))
    for dist in dict.fromkeys(r["dist"] for r in rows):
        cells = []
        for n in sizes:
            m = [r for r in rows if (r["type"], r["pairs"], r["match_digits"]) == kind and r["dist"] == dist
                 and int(r["n"]) == n]
            cells.append(f"{float(m[0]['cub_over_stage5']):.2f}x [{m[0]['few_digit_passes']}/{m[0]['sorted_passes']}]"
                         if m else "-")
        print(f"{dist:10}" + "".join(f"{c:>16}" for c in cells))
losses = [r for r in rows if float(r["cub_over_stage5"]) < 1.0 and int(r["match_digits"]) > 0]
print(f"\nbelow 1.0 (the stage as shipped): {len(losses)} of {sum(int(r['match_digits']) > 0 for r in rows)} rows")
for r in losses:
    print(f"  {r['type']}{' pairs' if r['pairs'] == '1' else ''} {r['dist']} n={r['n']}: {float(r['cub_over_stage5']):.3f}x "
          f"(stage 5 {float(r['stage5_ms']):.4f} ms, cub {float(r['cub_ms']):.4f} ms)")
bad = [r for r in rows if r["verified"] != "yes"]
print(f"rows not matching CUB's output: {len(bad)}")
PY
