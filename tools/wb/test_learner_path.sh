#!/usr/bin/env bash
# The learner's path, end to end, on a scratch copy of the source tree (cpu backend, the merge
# chapter only): wb list, hint, check (a stub fails, a written stage passes, a compile error is
# shown, a race and a named pitfall are reported first, the input and the kernel's output are
# shown with a command that reruns the case), list, check and watch starting from the stage
# changed last, watch noticing an edit (and an earlier stage it breaks), reset (with the
# stages sharing a file named, the learner's version kept), the ./wb of the repository root,
# and bad input.
#
#   test_learner_path.sh [--prepare-only] <source dir> <scratch dir> <cmake> <generator> [cmake -D options]
#
# The copy holds the files git tracks plus the untracked ones it does not ignore (so tool work
# not yet committed is tested), except exercises/: that comes from git as shipped (where the
# branch meets its upstream, or HEAD), whatever the learner has written there. It is committed
# in a fresh repository: the "shipped" version. --prepare-only makes the copy and stops.
set -euo pipefail
prepare_only=0
if [ "${1:-}" = "--prepare-only" ]; then
  prepare_only=1
  shift
fi
src=$1 work=$2 cmake=$3 generator=$4
shift 4

if ! command -v git >/dev/null; then
  echo "git is not installed: the learner's path needs it (wb reset, not started)"
  exit 77
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
step() { echo; echo "== $*"; }
# expect <expected status> <command...>: runs it, keeps its output in $out, checks the status.
expect() {
  local expected=$1
  shift
  set +e
  out=$("$@" 2>&1)
  local rc=$?
  set -e
  echo "\$ $*  (exit $rc)"
  echo "$out" | sed 's/^/    /'
  [ "$rc" = "$expected" ] || fail "'$*' exited with $rc, expected $expected"
}
has() { grep -qE -- "$1" <<<"$out" || fail "the output lacks /$1/"; }
lacks() { ! grep -qE -- "$1" <<<"$out" || fail "the output has /$1/"; }

step "scratch copy of $src"
rm -rf "$work"
mkdir -p "$work/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$src" ls-files -z --cached --others --exclude-standard >"$work/files"
  tar -C "$src" --null --ignore-failed-read -T "$work/files" -cf - 2>/dev/null | tar -C "$work/src" -xf -
  # The exercises as shipped, not as the learner has them: the stages this test writes must
  # start from the stubs, whatever stages are solved in the source tree.
  shipped=$(git -C "$src" merge-base HEAD '@{upstream}' 2>/dev/null || git -C "$src" rev-parse HEAD)
  rm -rf "$work/src/exercises"
  git -C "$src" archive "$shipped" exercises | tar -C "$work/src" -xf -
  echo "exercises/ as shipped: commit $shipped"
else
  tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
fi
cd "$work/src"
git init -q
git add -A
git -c user.name=wb-test -c user.email=wb-test@localhost -c commit.gpgsign=false commit -qm "the shipped workbook"
if [ "$prepare_only" = 1 ]; then
  echo "prepared: $work/src"
  exit 0
fi

step "configure and build wb (cpu backend, merge only)"
"$cmake" -S . -B build -G "$generator" -DWB_BACKEND=cpu -DWB_CHAPTER_LIST=merge -DCMAKE_BUILD_TYPE=Release "$@" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; exit 1; }
"$cmake" --build build --target wb >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; exit 1; }
wb=build/wb

step "wb list: every stage not started, merge/0 next"
expect 0 $wb list
has '^  not started +merge/0 +'
has '^  not started +merge/6 +'
has '^0 of 7 stages done'
has '^Next: merge/0'

step "wb hint"
expect 0 $wb hint merge/2
has '^hint 1 of 3, a nudge:'
has 'wb hint merge/2 --level 2'
expect 0 $wb hint merge/2 --level 3
has '^hint 3 of 3, the recipe:'
expect 2 $wb hint merge/2 --level 4
has 'error: --level must be 1, 2 or 3'

step "wb check on a stub: fails, says where and how"
expect 1 $wb check merge/2
has '^merge/2 '
has '^  FAIL: '
has '^  test case: '
has '^  your files: +exercises/merge/'
has 'wb hint merge/2'
lacks 'PASS'

step "bad input: exit status 2 and a message"
expect 2 $wb check merge/99
has 'error: chapter merge has no stage .99.'
expect 2 $wb check nosuch/1
has "error: no chapter 'nosuch'"
expect 2 $wb check merge
has 'error: .merge. is not a stage'
expect 2 $wb frobnicate
has "error: unknown command 'frobnicate'"

step "write stage 0 (the solution's files over the stub's), wb check passes"
expect 0 $wb files merge/0
stage0_files=$out
[ -n "$stage0_files" ] || fail "wb files merge/0 names no file"
for f in $stage0_files; do cp "solutions/${f#exercises/}" "$f"; done
expect 0 $wb check merge/0
has '^  PASS: all [0-9]+ test cases? of the stage pass'
expect 0 $wb list
has '^  done +merge/0 '
has '^1 of 7 stages done'
has '^Next: merge/1'

step "a compile error: the build fails, the compiler's error is shown briefly"
first_file=$($wb files merge/2 | head -1)
cp "$first_file" "$work/saved-stub"
echo 'this line is not C++;' >>"$first_file"
expect 1 $wb check merge/2
has '^the build failed; the compiler says:'
has 'error'
has 'your files:'
cp "$work/saved-stub" "$first_file"

step "wb reset asks first; --yes restores the shipped stub"
expect 1 bash -c "echo n | $wb reset merge/0"
has 'Reset them\? \[y/N\]'
has 'not reset'
git diff --quiet -- exercises/ && fail "declining the reset restored the files"
expect 0 $wb reset merge/0 --yes
has 'merge/0 is back to the shipped stub'
git diff --quiet -- exercises/ || fail "wb reset merge/0 --yes left changes: $(git diff --stat)"
expect 0 $wb reset merge/0 --yes
has 'as shipped already'
expect 0 $wb list
has '^  not started +merge/0 '

step "wb watch notices an edit, re-checks, and moves on when the stage passes"
$wb watch merge/0 --max-checks 2 >"$work/watch.log" 2>&1 &
watch_pid=$!
for _ in $(seq 1 600); do
  grep -q 'watching exercises/' "$work/watch.log" && break
  kill -0 $watch_pid 2>/dev/null || break
  sleep 0.2
done
grep -q 'watching exercises/' "$work/watch.log" || fail "wb watch did not start watching"
for f in $stage0_files; do cp "solutions/${f#exercises/}" "$f"; done
for _ in $(seq 1 900); do
  kill -0 $watch_pid 2>/dev/null || break
  sleep 0.2
done
if kill -0 $watch_pid 2>/dev/null; then
  kill $watch_pid
  fail "wb watch did not finish its second check"
fi
set +e
wait $watch_pid
watch_rc=$?
set -e
out=$(cat "$work/watch.log")
echo "\$ wb watch merge/0 --max-checks 2  (exit $watch_rc)"
echo "$out" | sed 's/^/    /'
[ "$watch_rc" = 0 ] || fail "wb watch exited with $watch_rc"
has '^  FAIL: '
has "^changed: exercises/merge/"
has '^  PASS: '
has '^on to the next stage, merge/1:'

step "./wb at the repository root: the commands wb prints start the way it was started"
expect 0 ./wb list
has '^Next: merge/1'
has '^  \./wb check merge/1 +\./wb hint merge/1 +\./wb watch'
expect 0 $wb list
has '^  build/wb check merge/1 '
expect 0 ./wb hint merge/2
has '^edit: exercises/merge/output_ranges\.cuh +exercises/merge/basic\.cu'
has '^more: \./wb hint merge/2 --level 2'
expect 0 ./wb watch --help
has 'Start with `\./wb list`, then `\./wb check <stage>`'

step "wb check with no stage checks the next one"
expect 1 $wb check
has '^merge/1 '
has '^  FAIL: '

step "no stage named: wb starts from the stage whose files you changed last"
# merge/3's file saved last (begun: it differs from the stub) while merge/1 is not started:
# wb list, check and watch start at merge/3, not at the first stage not done.
for f in $stage0_files; do touch -d '-2 minutes' "$f"; done
cp exercises/merge/tiled.cu "$work/saved-tiled"
echo '// merge/3: begun' >>exercises/merge/tiled.cu
expect 0 $wb list
has '^  not started +merge/1 '
has '^  failing +merge/3 '
has '^Next: merge/3'
expect 1 $wb check
has '^merge/3 '
expect 0 $wb watch --max-checks 1
has '^merge/3 '
lacks '^merge/1 '
# merge/0's files saved last, and merge/0 done: the first stage after it not done.
touch -d '-3 minutes' exercises/merge/tiled.cu
for f in $stage0_files; do touch "$f"; done
expect 0 $wb list
has '^Next: merge/1'
cp "$work/saved-tiled" exercises/merge/tiled.cu
git diff --quiet -- exercises/merge/tiled.cu || fail "tiled.cu is not back to the stub"

step "a named pitfall first: co_rank with the strict tie test (M3), its smallest input, a command that reruns it"
cp solutions/merge/co_rank.cuh exercises/merge/co_rank.cuh
sed -i 's/B\[j - 1\] >= A\[i\]/B[j - 1] > A[i]/' exercises/merge/co_rank.cuh
grep -q 'B\[j - 1\] > A\[i\]' exercises/merge/co_rank.cuh || fail "the M3 mutation did not apply to co_rank.cuh"
expect 1 $wb check merge/1
first_case=$(grep -m1 '^    - ' <<<"$out" || true)
[[ "$first_case" == "    - M3: "* ]] || fail "the first failing case listed is not the named pitfall M3: '$first_case'"
has '^    - every k of many small arrays'
has 'the smallest input your co_rank merges wrong: A = \['
has '^  rerun it: +WB_TEST_SEED=[0-9]+ build/chapters/merge/merge_exercise_tests -tc='
rerun=$(sed -n 's/^  rerun it: *//p' <<<"$out")
expect 1 bash -c "$rerun"
has 'M3: the strict tie test'
cp solutions/merge/co_rank.cuh exercises/merge/co_rank.cuh
expect 0 $wb check merge/1

step "a race: merge/3 without its end-of-tile barrier is reported, by name, every time"
for f in output_ranges.cuh basic.cu tiled.cu; do cp "solutions/merge/$f" "exercises/merge/$f"; done
sed -i '/M7: every thread is done reading A_S and B_S/{n;d}' exercises/merge/tiled.cu
expect 1 $wb check merge/3
first_case=$(grep -m1 '^    - ' <<<"$out" || true)
[[ "$first_case" == "    - race: "* || "$first_case" == "    - M7: "* ]] || fail "the first failing case is not a named pitfall: '$first_case'"
has 'data race on shared memory'
has 'exercises/merge/tiled\.cu:[0-9]+'
has 'the race fails every launch of the kernel, so the cases after it fail with it'
cp solutions/merge/tiled.cu exercises/merge/tiled.cu
expect 0 $wb check merge/3

step "what the kernel printed is shown with the failure"
cp exercises/merge/circular.cu "$work/saved-circular"
sed -i 's|^  // TODO(merge/4)|  printf("kernel says: block %u\\n", blockIdx.x);\n&|' exercises/merge/circular.cu
sed -i '1i #include <cstdio>' exercises/merge/circular.cu
grep -q 'kernel says' exercises/merge/circular.cu || fail "the printf did not go into circular.cu"
expect 1 $wb check merge/4
has '^  your code printed \(the last [0-9]+ lines?\):'
has '^    \| kernel says: block 0'
cp "$work/saved-circular" exercises/merge/circular.cu

step "a compile error: gcc's notes come with it"
cp exercises/merge/basic.cu "$work/saved-basic"
printf '\nnamespace merge {\ninline int wb_pair(int a, int b) { return a + b; }\ninline int wb_pair(int a, int b, int c) { return a + b + c; }\ninline int wb_call = wb_pair(1);\n}\n' >>exercises/merge/basic.cu
expect 1 $wb check merge/2
has 'error'
has 'note: +candidate expects 2 arguments, 1 provided'
cp "$work/saved-basic" exercises/merge/basic.cu

step "wb watch on merge/4: breaking merge/2's file checks merge/2 again, and watches it"
$wb watch merge/4 --max-checks 2 >"$work/watch2.log" 2>&1 &
watch_pid=$!
for _ in $(seq 1 600); do
  grep -q 'watching exercises/' "$work/watch2.log" && break
  kill -0 $watch_pid 2>/dev/null || break
  sleep 0.2
done
grep -q 'watching exercises/' "$work/watch2.log" || fail "wb watch merge/4 did not start watching"
echo 'this line is not C++;' >>exercises/merge/basic.cu
for _ in $(seq 1 900); do
  kill -0 $watch_pid 2>/dev/null || break
  sleep 0.2
done
if kill -0 $watch_pid 2>/dev/null; then
  kill $watch_pid
  fail "wb watch merge/4 did not finish its second check"
fi
set +e
wait $watch_pid
watch_rc=$?
set -e
out=$(cat "$work/watch2.log")
echo "\$ wb watch merge/4 --max-checks 2  (exit $watch_rc)"
echo "$out" | sed 's/^/    /'
[ "$watch_rc" = 0 ] || fail "wb watch exited with $watch_rc"
has '^changed: exercises/merge/basic\.cu'
has '^\(merge/2 uses the changed file: checked first\)'
has '^merge/2 '
has '^merge/2 fails now: watching it until it passes'
cp "$work/saved-basic" exercises/merge/basic.cu
cp solutions/merge/basic.cu exercises/merge/basic.cu

step "wb reset names the stages that share a file and keeps your version"
expect 0 $wb reset merge/2 --yes
has 'exercises/merge/output_ranges\.cuh +\(also used by merge/3, merge/4'
has 'your version is in \.wb/backups/[0-9-]+-merge-2/'
backup=$(sed -n 's|.*your version is in \(\.wb/backups/[^/]*\)/.*|\1|p' <<<"$out")
[ -n "$backup" ] && cmp -s "$backup/exercises/merge/basic.cu" solutions/merge/basic.cu ||
  fail "the backup does not hold the written basic.cu"
git diff --quiet -- exercises/merge/basic.cu || fail "wb reset merge/2 left basic.cu changed"
has "to get it back: +cp -r $backup/exercises \."
cp -r "$backup/exercises" .
cmp -s exercises/merge/basic.cu solutions/merge/basic.cu || fail "copying the backup back did not restore basic.cu"

step "wb trace merge runs your co_rank: a wrong one is marked, out of range included"
git checkout -q -- exercises/merge/co_rank.cuh
expect 1 $wb trace merge --a 1,3,5 --b 2,3 --stage 1
has "!! the exercise track's co_rank\\(5\\): i = 0 is out of range"
cp solutions/merge/co_rank.cuh exercises/merge/co_rank.cuh
expect 0 $wb trace merge --a 1,3,5 --b 2,3 --stage 1
lacks '!!'

for f in co_rank.cuh output_ranges.cuh basic.cu tiled.cu; do git checkout -q -- "exercises/merge/$f"; done

step "outside a git checkout: unknown, said so, every stage checked"
mv .git "$work/git-away"
expect 0 $wb list
has 'not a git checkout'
has '^  done +merge/0 '
has '^  failing +merge/1 '
expect 2 $wb reset merge/0 --yes
has 'error: cannot reset merge/0'
mv "$work/git-away" .git

step "the progress target runs wb progress"
expect 0 "$cmake" --build build --target progress
has '^  done +merge/0 '
has '^Next: merge/1'

expect 0 $wb reset merge/0 --yes
git diff --quiet -- exercises/ || fail "the stub of merge/0 is not back"

echo
if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) of the learner's path failed"
  exit 1
fi
echo "the learner's path works: list, hint, check, watch, reset"
