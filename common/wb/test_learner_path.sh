#!/usr/bin/env bash
# The learner's path, end to end, on a scratch copy of the source tree (cpu backend, the merge
# chapter only): wb list, hint, check (a stub fails, a written stage passes, a compile error is
# shown), watch noticing an edit, reset, and bad input.
#
#   test_learner_path.sh <source dir> <scratch dir> <cmake> <generator> [extra cmake -D options]
#
# The copy holds the files git tracks plus the untracked ones it does not ignore (so work not
# yet committed is tested), committed in a fresh repository: the "shipped" version.
set -euo pipefail
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
else
  tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
fi
cd "$work/src"
git init -q
git add -A
git -c user.name=wb-test -c user.email=wb-test@localhost -c commit.gpgsign=false commit -qm "the shipped workbook"

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
