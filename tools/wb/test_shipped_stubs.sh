#!/usr/bin/env bash
# The learner-path test (test_learner_path.sh) starts from the exercises as shipped, whatever
# the learner has written: in a clone with one stage written and committed (on the branch that
# tracks the clone's origin), another written and not committed, and a change to wb not yet
# committed, its scratch copy holds both stubs as shipped, and the change to wb.
#
#   test_shipped_stubs.sh <source dir> <scratch dir>
set -euo pipefail
src=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v git >/dev/null || ! git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout (or no git): nothing to test"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work"
git clone -q "$src" "$work/clone"
cd "$work/clone"
git rev-parse --abbrev-ref '@{upstream}' >/dev/null || fail "the clone's branch tracks no upstream"
# The learner's work: merge/1 committed, merge/2 written, a tool change not committed.
cp solutions/merge/co_rank.cuh exercises/merge/co_rank.cuh
git -c user.name=learner -c user.email=learner@localhost -c commit.gpgsign=false commit -qam "my co_rank"
cp solutions/merge/basic.cu exercises/merge/basic.cu
echo "# a change to the tool, not committed yet" >>tools/wb/CMakeLists.txt

bash "$here/test_learner_path.sh" --prepare-only "$work/clone" "$work/scratch" cmake Ninja
copy="$work/scratch/src"
for f in exercises/merge/co_rank.cuh exercises/merge/basic.cu; do
  if cmp -s "$copy/$f" <(git show "@{upstream}:$f"); then
    echo "ok   $f is the shipped stub"
  else
    fail "$f in the scratch copy is the learner's, not the shipped stub"
  fi
done
if grep -q "a change to the tool, not committed yet" "$copy/tools/wb/CMakeLists.txt"; then
  echo "ok   the uncommitted change to the tool is in the copy"
else
  fail "the uncommitted change to tools/wb/CMakeLists.txt is not in the copy"
fi
if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "the learner-path test starts from the shipped stubs"
