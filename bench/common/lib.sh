# The shared steps of the chapters' gpu_check.sh scripts (sourced, not run): arguments, the
# header of the summary, the cuda build, the checks, compute-sanitizer over the checks, and
# the log archive. A chapter script sources this file, calls the steps in order and adds
# its own benchmarks and summary.
#
#   gpu_check_start NAME "$@"     parses --deps DIR and --quick; sets root, out, work, build,
#                                 summary, quick, deps; prints the GPU, nvcc and commit
#   gpu_check_build LIST TARGET...  configures the cuda backend with WB_CHAPTER_LIST=LIST and
#                                 builds the targets; on failure prints the log's tail, exits 1;
#                                 sets dir (the chapter's build folder)
#   gpu_check_tests               the chapter's doctest binary, then its command-line ctests
#   gpu_check_sanitize EXCLUDE TOOL:SECONDS...  each tool over the doctest binary with the
#                                 test cases matching EXCLUDE left out (doctest's
#                                 --test-case-exclude), each bounded by its seconds
#   gpu_check_pack                $out/logs.tar.gz: every log (and gpu-work/bench if present)
# note TEXT prints TEXT and appends it to the summary; stamp TEXT prints a timestamped step.

note() { echo "$*" | tee -a "$summary"; }
stamp() { echo "== [$(date +%H:%M:%S)] $*"; }

gpu_check_start() {
  chapter=$1
  shift
  root=$(pwd)
  out=${OUT:-$root/gpu-out}
  deps=""
  [ -d "$root/.carry/include" ] && deps="$root/.carry"
  quick=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --deps) deps=$(cd "$2" && pwd) || exit 2; shift 2 ;;
      --quick) quick=1; shift ;;
      *) echo "gpu_check: unknown argument '$1'" >&2; exit 2 ;;
    esac
  done
  work="$root/gpu-work"
  rm -rf "$work"
  mkdir -p "$out" "$work/logs"
  build="$root/build-gpu"
  summary="$out/summary.txt"
  : >"$summary"
  note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>/dev/null)"
  note "nvcc: $(nvcc --version | tail -1); cmake: $(cmake --version | head -1)"
  note "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"
}

gpu_check_build() {
  local list=$1
  shift
  stamp build
  local args=(-S "$root" -B "$build" -G Ninja -DWB_BACKEND=cuda -DCMAKE_BUILD_TYPE=Release
              -DCMAKE_CUDA_ARCHITECTURES=90 "-DWB_CHAPTER_LIST=$list")
  [ -n "$deps" ] && args+=(-DWB_DEPS_DIR="$deps")
  if ! { cmake "${args[@]}" && cmake --build "$build" -j "$(nproc)" --target "$@"; } >"$work/logs/build.log" 2>&1; then
    tail -30 "$work/logs/build.log"
    note "build: FAILED"
    tar -czf "$out/logs.tar.gz" -C "$work" logs
    exit 1
  fi
  note "build: ok"
  dir="$build/chapters/$chapter"
}

gpu_check_tests() {
  stamp tests
  "$dir/${chapter}_tests" >"$work/logs/tests.log" 2>&1
  note "tests: $(tail -1 "$work/logs/tests.log")"
  grep -E "ERROR|skipped" "$work/logs/tests.log" | head -20
  (cd "$build" && ctest -L "$chapter" -LE "selfcheck|exercises" -E "${chapter}_tests" >"$work/logs/cli_tests.log" 2>&1)
  note "command-line tests: $(grep -E 'tests passed' "$work/logs/cli_tests.log")"
}

gpu_check_sanitize() {
  local exclude=$1 spec tool limit rc extra
  shift
  for spec in "$@"; do
    tool=${spec%%:*}
    limit=${spec##*:}
    stamp "$tool: the fixed stages"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
    timeout "$limit" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      "$dir/${chapter}_tests" --test-case-exclude="$exclude" >"$work/logs/${tool}_fixed.log" 2>&1
    rc=$?
    note "$tool, fixed stages (rc $rc$([ $rc -eq 124 ] && echo ', timed out')): $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/logs/${tool}_fixed.log" | tail -1) $(tail -1 "$work/logs/${tool}_fixed.log" | grep -E 'passed')"
  done
}

gpu_check_pack() {
  tar -czf "$out/logs.tar.gz" -C "$work" logs $([ -d "$work/bench" ] && echo bench)
}
