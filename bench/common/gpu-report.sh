#!/usr/bin/env bash
# One command for a GPU machine: build the cuda backend, run every test on the GPU, run
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over every chapter's test
# binary, run each chapter's benchmarks, and write one report (markdown + CSV).
#
#   bench/common/gpu-report.sh [--deps DIR] [--out DIR] [--build DIR] [--phases LIST]
#
#   --deps DIR    folder whose include/ holds doctest/, CLI/ and fmt/ headers, for a machine
#                 with CUDA and CMake but no package manager (default: system packages)
#   --out DIR     where the report goes (default: gpu-report/)
#   --build DIR   the cuda build folder (default: build-cuda/, the cuda preset's)
#   --phases L    comma list of build,test,sanitize,bench (default: all four, in that order)
#
# Environment: CMAKE_CUDA_ARCHITECTURES (default: the GPU found), WB_CHAPTER_LIST (chapters),
# SANITIZE_TIMEOUT (seconds per compute-sanitizer run, default 600).
#
# Writes OUT/report.md (device, test summaries, sanitizer table, benchmark tables),
# OUT/benchmarks.csv (every chapter's rows) and OUT/logs.tar.gz (every log). Exits non-zero
# if a phase failed; the report says which.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
source bench/common/lib.sh

deps=""
out="$root/gpu-report"
build="$root/build-cuda"
phases="build,test,sanitize,bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$(cd "$2" && pwd); shift 2 ;;
    --out) mkdir -p "$2"; out=$(cd "$2" && pwd); shift 2 ;;
    --build) build=$(realpath -m "${2:?--build needs a folder}"); shift 2 ;;
    --phases) phases="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "gpu-report: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out/logs"
report="$out/report.md"
failed=()
has_phase() { [[ ",$phases," == *",$1,"* ]]; }

# The chapters: WB_CHAPTER_LIST (a ;-list) or the build's default list (chapters/CMakeLists.txt).
if [ -n "${WB_CHAPTER_LIST:-}" ]; then
  IFS=';' read -r -a chapters <<<"$WB_CHAPTER_LIST"
else
  IFS=';' read -r -a chapters <<<"$(sed -nE 's/^set\(WB_CHAPTER_LIST "([^"]*)".*/\1/p' chapters/CMakeLists.txt)"
fi
test_binaries() {
  find "$build" -maxdepth 3 -type f -perm -u+x \( -name 'common_tests' -o -name '*_tests' \) ! -name '*_exercise_tests' | sort
}

if has_phase build; then
  stamp "configure and build (cuda backend)"
  args=()
  [ -n "${CMAKE_CUDA_ARCHITECTURES:-}" ] && args+=(-DCMAKE_CUDA_ARCHITECTURES="$CMAKE_CUDA_ARCHITECTURES")
  [ -n "${WB_CHAPTER_LIST+set}" ] && args+=("-DWB_CHAPTER_LIST=$WB_CHAPTER_LIST")
  if ! { cuda_configure "$build" "${args[@]}" && cmake --build "$build" -j "$(nproc)"; } >"$out/logs/build.log" 2>&1; then
    failed+=(build)
    tail -40 "$out/logs/build.log"
  fi
fi

{
  echo "# GPU report"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit: $(git rev-parse --short HEAD 2>/dev/null || echo "${WB_COMMIT:-unknown}")$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi unavailable')"
  echo "- nvcc: $(nvcc --version 2>/dev/null | tail -1)"
  echo
} >"$report"

if has_phase test && [[ " ${failed[*]} " != *" build "* ]]; then
  stamp "tests on the GPU"
  echo "## Tests (ctest, every label but exercises and selfcheck)" >>"$report"
  # -V keeps every binary's output in the log (each ends with its "N passed, N failed" line).
  if ctest --test-dir "$build" -LE 'exercises|selfcheck' -V >"$out/logs/ctest.log" 2>&1; then
    status=pass
  else
    status=FAIL
    failed+=(test)
  fi
  {
    echo
    echo "ctest: **$status** — $(grep -E 'tests passed|tests failed' "$out/logs/ctest.log" | tail -1)"
    echo
    grep -E '^[0-9]+: Test command: .*_tests$|^[0-9]+: [0-9]+ passed, [0-9]+ failed' "$out/logs/ctest.log" |
      sed -E 's|^[0-9]+: Test command: .*/([^/ ]+)$|- `\1`:|; s|^[0-9]+: ([0-9]+ passed.*)$|  \1|'
    echo
  } >>"$report"
fi

if has_phase sanitize && [[ " ${failed[*]} " != *" build "* ]]; then
  stamp "compute-sanitizer"
  {
    echo "## compute-sanitizer"
    echo
    echo "Every test binary under each tool (test cases named \`[large]\` are left out: past 2^31"
    echo "elements they take minutes under instrumentation). Counts are the tools' own error summaries."
    echo
    echo "| binary | memcheck | racecheck | synccheck | initcheck |"
    echo "| --- | --- | --- | --- | --- |"
  } >>"$report"
  for bin in $(test_binaries); do
    name=$(basename "$bin")
    row="| \`$name\` |"
    for tool in memcheck racecheck synccheck initcheck; do
      log="$out/logs/sanitize-$tool-$name.log"
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
      timeout "${SANITIZE_TIMEOUT:-600}" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        "$bin" --test-case-exclude='*[large]*' >"$log" 2>&1
      rc=$?
      summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1 | sed 's/=========//')
      if [ $rc -eq 0 ]; then cell="clean"; elif [ $rc -eq 124 ]; then cell="TIMEOUT"; failed+=("$tool:$name"); else
        cell="**rc $rc**"; failed+=("$tool:$name"); fi
      row="$row $cell${summary:+ ($summary)} |"
    done
    echo "$row" >>"$report"
  done
  echo >>"$report"
fi

if has_phase bench && [[ " ${failed[*]} " != *" build "* ]]; then
  stamp "benchmarks"
  echo "## Benchmarks" >>"$report"
  : >"$out/benchmarks.csv"
  for chapter in "${chapters[@]}"; do
    exe="$build/chapters/$chapter/$chapter"
    [ -x "$exe" ] || continue
    mkdir -p "$out/logs/$chapter"
    # A chapter lists its benchmark runs in bench/<chapter>/benchmarks.sh (exe, output folder); else one default run.
    if [ -x "bench/$chapter/benchmarks.sh" ]; then
      "bench/$chapter/benchmarks.sh" "$exe" "$out/logs/$chapter" >"$out/logs/bench-$chapter.log" 2>&1 || failed+=("bench:$chapter")
    else
      "$exe" --csv "$out/logs/$chapter/default.csv" --json "$out/logs/$chapter/default.json" \
        >"$out/logs/bench-$chapter.log" 2>&1 || failed+=("bench:$chapter")
    fi
    {
      echo
      echo "### $chapter"
      echo
      echo '```'
      cat "$out/logs/bench-$chapter.log"
      echo '```'
    } >>"$report"
    for csv in "$out/logs/$chapter"/*.csv; do
      [ -f "$csv" ] || continue
      if [ ! -s "$out/benchmarks.csv" ]; then
        { printf 'chapter,run,'; head -1 "$csv"; } >>"$out/benchmarks.csv"
      fi
      tail -n +2 "$csv" | sed "s|^|$chapter,$(basename "$csv" .csv),|" >>"$out/benchmarks.csv"
    done
  done
fi

{
  echo
  echo "## Result"
  echo
  if [ ${#failed[@]} -eq 0 ]; then echo "Every phase passed ($phases)."; else echo "Failed: ${failed[*]}"; fi
} >>"$report"
tar -czf "$out/logs.tar.gz" -C "$out" logs 2>/dev/null
stamp "report: $report"
tail -25 "$report"
[ ${#failed[@]} -eq 0 ]
