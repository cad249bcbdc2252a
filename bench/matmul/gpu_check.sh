#!/usr/bin/env bash
# One command for an H100 (any sm_90 GPU): build the matmul chapter (cuda backend, only its
# targets), check it, then measure it against cuBLAS. Steps, most important first, each with a
# time limit; the whole run stays under 9 minutes (about 3 of them the build):
#   1 build      matmul, matmul_tests, matmul_tile_configs (-j$(nproc))
#   2 smoke      every stage and variant once at a small odd size (1000 x 904 x 520)
#   3 checks     matmul_tests (every stage, stage 6's kernels on the GPU), the command-line tests
#   4 SASS       stage 6's kernel issues HGMMA, stage 5's HMMA (cuobjdump)
#   5 tables     the stage tables at 4096^3 (every variant) and 8192^3 beside cuBLAS
#   6 configs    experiments/tile_configs.cu: stage 4, 5, 6 tile shapes and depths at 4096, 8192
#   7 sanitizer  memcheck, racecheck, synccheck, initcheck on every stage and variant at a
#                small size; racecheck on the missing-barrier variant (hazards expected)
#   8 sweep      stage 6 on squares 512-8192, M = 16 and 128 with N = K = 8192, K = 16384
#   9 profile    Nsight Compute rows of every stage at 2048^3 and the tensor pipes' share for
#                stages 5 and 6 (when time is left)
# Results under $OUT (default gpu-out/), eight files: summary.txt (what passed, the tables, the
# best configurations, read this first), logs.tar.gz (every log, CSV, JSON, the profile),
# table-4096-fp32.csv, table-4096-bf16.csv, table-8192-fp32.csv, table-8192-bf16.csv,
# tile_configs.csv, sweep.csv.
#
#   OUT=/some/dir chapters/matmul/gpu_check.sh [--deps DIR]
#
#   --deps DIR  folder whose include/ holds doctest/, CLI/ and fmt/ (default: .carry if present)
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out=${OUT:-$root/gpu-out}
deps=""
[ -d "$root/.carry/include" ] && deps="$root/.carry"
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    *) echo "gpu_check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
work="$root/gpu-work/matmul"
rm -rf "$work"
mkdir -p "$out" "$work/logs" "$work/csv"
build="$root/build-gpu"
summary="$work/summary.txt"
: >"$summary"
start=$(date +%s)
budget=${MATMUL_GPU_BUDGET:-520}  # seconds: optional steps start only while this much time has not passed
note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "== [$(date +%H:%M:%S), $(($(date +%s) - start)) s] $*"; }
time_left() { [ $(($(date +%s) - start)) -lt "$1" ]; }
finish() {
  cp "$work"/csv/table-*.csv "$work/csv/tile_configs.csv" "$work/csv/sweep.csv" "$out/" 2>/dev/null
  note "total: $(($(date +%s) - start)) s"
  cp "$summary" "$out/summary.txt"
  tar -czf "$out/logs.tar.gz" -C "$work" logs csv summary.txt 2>/dev/null
  echo
  echo "==== summary ===="
  cat "$summary"
}
trap finish EXIT

note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
note "nvcc: $(nvcc --version | tail -1); cmake: $(cmake --version | head -1)"
note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"

# ---- 1 build
stamp build
args=(-S "$root" -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
      -DWB_CHAPTER_LIST=matmul)
[ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
if ! { cmake "${args[@]}" && timeout 400 cmake --build "$build" -j "$(nproc)" --target matmul matmul_tests matmul_tile_configs; } \
    >"$work/logs/build.log" 2>&1; then
  tail -30 "$work/logs/build.log"
  note "build: FAILED (logs/build.log)"
  exit 1
fi
note "build: ok ($(($(date +%s) - start)) s)"
dir="$build/chapters/matmul"
bin="$dir/matmul"

# run NAME LIMIT ARGS...: the executable, its output to logs/NAME.log; the rows to the summary
run() {
  local name=$1 limit=$2
  shift 2
  stamp "$name: matmul $*"
  timeout "$limit" "$bin" "$@" >"$work/logs/$name.log" 2>&1
  local rc=$?
  note ""
  note "---- $name (matmul $*): exit $rc$([ $rc -eq 124 ] && echo ', TIMED OUT')"
  grep -E "^(matmul:|[0-6] |cublas|target:|error)|WRONG|refused" "$work/logs/$name.log" | grep -v "^matmul: C = A B" | tee -a "$summary"
  grep -E "^matmul: C = A B" "$work/logs/$name.log" | head -2 >>"$summary"
}

# ---- 2 smoke: every stage and variant once, small and odd (N and K multiples of 8 go through
# the TMA directly; K = 520 is 8 k-blocks and a partial one)
run smoke 90 --m 1000 --n 904 --k 520 --all-variants --reps 3
run smoke-odd 60 --m 333 --n 301 --k 77 --stage 4,5,6 --all-variants --reps 2  # padded copies for the TMA
run exact-4096 150 --m 4096 --n 4096 --k 4096 --fill small-integers --reps 1  # every sum exact: C must be exact

# ---- 3 checks
stamp checks
timeout 240 "$dir/matmul_tests" >"$work/logs/tests.log" 2>&1
rc=$?
note ""
note "matmul_tests: exit $rc — $(tail -1 "$work/logs/tests.log")"
grep -E "ERROR|FAILED|failed|skipped|MESSAGE|sm_90" "$work/logs/tests.log" | head -20 | tee -a "$summary"
(cd "$build" && timeout 120 ctest -L matmul -LE "selfcheck|exercises" -E "^matmul_tests$") >"$work/logs/ctest.log" 2>&1
note "command-line tests: $(grep -E 'tests passed|tests failed' "$work/logs/ctest.log" | tail -1)"

# ---- 4 SASS: the instructions each tensor-core stage issues
stamp SASS
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$bin" >"$work/logs/matmul.sass" 2>&1
  # instructions per kernel: count within each "Function : <name>" block
  awk '/Function :/ { name = $3 } /HGMMA/ { hg[name]++ } /HMMA/ { hm[name]++ }
       END { for (n in hg) printf "HGMMA %6d  %s\n", hg[n], n; for (n in hm) printf "HMMA  %6d  %s\n", hm[n], n }' \
    "$work/logs/matmul.sass" | sort >"$work/logs/sass-counts.txt"
  note ""
  note "SASS: stage 6 (hopper) kernels with HGMMA: $(grep -c 'HGMMA.*solution.*hopper' "$work/logs/sass-counts.txt"); stage 5 (wmma) kernels with HMMA: $(grep -c 'HMMA .*solution.*wmma' "$work/logs/sass-counts.txt")"
  grep -E "solution" "$work/logs/sass-counts.txt" | c++filt | cut -c1-150 | tee -a "$summary"
else
  note "SASS: cuobjdump not found"
fi

# ---- 5 the stage tables beside cuBLAS
run table-4096 150 --m 4096 --n 4096 --k 4096 --all-variants --csv "$work/csv/table-4096.csv" --json "$work/csv/table-4096.json"
run table-8192 200 --m 8192 --n 8192 --k 8192 --csv "$work/csv/table-8192.csv" --json "$work/csv/table-8192.json"

# ---- 6 the tuning experiment
if time_left $((budget - 120)); then
  stamp "tile configs"
  timeout 150 "$dir/matmul_tile_configs" --csv "$work/csv/tile_configs.csv" configs 4096 8192 >"$work/logs/tile_configs.log" 2>&1
  rc=$?
  note ""
  note "---- tile configs (exit $rc): the best three of each stage and size, M,N,K,stage,configuration,ms,TFLOP/s,vs library,verified"
  for s in 4 5 6; do
    for size in 4096 8192; do
      grep -E "^$size,$size,$size,$s," "$work/logs/tile_configs.log" | sort -t, -k7 -g -r | head -3 | tee -a "$summary"
    done
  done
  grep -E "NO|failed" "$work/logs/tile_configs.log" | head -5 | tee -a "$summary"
fi

# ---- 7 compute-sanitizer on every stage and variant, small (no cuBLAS rows: not ours)
if command -v compute-sanitizer >/dev/null; then
  note ""
  note "---- compute-sanitizer (every stage and variant at 256 x 200 x 136)"
  for tool in memcheck racecheck synccheck initcheck; do
    time_left $((budget - 60)) || { note "$tool: skipped (time)"; continue; }
    stamp "compute-sanitizer $tool"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    timeout 100 compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$bin" --m 256 --n 200 --k 136 --all-variants --reps 1 --no-library >"$work/logs/sanitize-$tool.log" 2>&1
    rc=$?
    note "$tool: exit $rc$([ $rc -eq 124 ] && echo ' (timed out)') — $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/logs/sanitize-$tool.log" | tail -1)"
  done
  if time_left $((budget - 40)); then
    timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard "$dir/matmul_tests" \
      -tc="*missing barrier*" >"$work/logs/sanitize-racecheck-defect.log" 2>&1
    note "racecheck on the missing-barrier variant (hazards expected): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/sanitize-racecheck-defect.log" | tail -1)"
  fi
fi

# ---- 8 the stage-6 sweep (and stage 4 at the LLM shapes)
if time_left $((budget - 60)); then
  stamp sweep
  timeout 120 "$dir/matmul_tile_configs" --csv "$work/csv/sweep.csv" sweep \
    512,512,512 1024,1024,1024 2048,2048,2048 4096,4096,4096 8192,8192,8192 \
    16,8192,8192 128,8192,8192 4096,4096,16384 8192,8192,16384 >"$work/logs/sweep.log" 2>&1
  rc=$?
  note ""
  note "---- stage 6 sweep (exit $rc): M,N,K,stage,configuration,median_ms,TFLOP/s,vs library,verified"
  grep -E "^[0-9]" "$work/logs/sweep.log" | tee -a "$summary"
fi

# ---- 9 Nsight Compute, when time is left
if command -v ncu >/dev/null && time_left $((budget - 90)); then
  stamp profile
  timeout 120 common/scripts/profile.sh --build "$build" --out "$work/logs/profile" --chapters matmul \
    >"$work/logs/profile.log" 2>&1
  rc=$?
  note ""
  note "---- profile (exit $rc, 2048^3): $(ls "$work/logs/profile" 2>/dev/null | tr '\n' ' ')"
  [ -f "$work/logs/profile/matmul-profile.md" ] && grep -E "^\|" "$work/logs/profile/matmul-profile.md" | tee -a "$summary"
  if time_left $((budget - 30)); then
    # the tensor pipes' busy share: the metric names this ncu knows (hmma: mma.sync, gmma: wgmma)
    pipes=$(ncu --query-metrics --chip gh100 2>/dev/null | grep -oE "sm__pipe_tensor_op_(hmma|gmma)_cycles_active" | sort -u |
            sed 's/$/.avg.pct_of_peak_sustained_active/' | paste -sd, -)
    for s in 5 6; do
      [ -n "$pipes" ] || { note "tensor pipes: ncu lists no sm__pipe_tensor_op metric"; break; }
      timeout 40 ncu --kernel-name-base demangled --kernel-name "regex:^(void )?matmul::" --launch-count 1 --metrics "$pipes" \
        "$bin" --stage "$s" --m 2048 --n 2048 --k 2048 --reps 1 --no-library >"$work/logs/tensor-pipe-$s.log" 2>&1
      note "stage $s, tensor pipes busy (% of peak): $(grep -E "pipe_tensor" "$work/logs/tensor-pipe-$s.log" | awk '{print $1, $NF}' | tr '\n' ';')"
    done
  fi
fi
exit 0
