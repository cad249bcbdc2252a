// The races of the merge chapter's lessons (common/CPU-BACKEND.md, "The race check"): the
// shared-memory tiles of stages 3-6 are filled by every thread and read by every thread, so a
// barrier must stand between each fill and its reads, and between the reads and the next fill.
// Each case runs this track's stage on an input of several blocks and tiles under the race
// check: a learner's version with a barrier missing fails here with the race named. Against
// the solution it also leaves out each of the stage's barriers in turn: each must be caught.
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// What is wrong with `stage`'s merge of A and B (with values) with the launch shape `cfg`; "" when right.
std::string merge_error(int stage, const std::vector<std::int32_t>& A, const std::vector<std::int32_t>& B,
                        const config& cfg) {
  const merged<std::int32_t> expected = reference(A, B, true);
  const merged<std::int32_t> got = run_stage(stage, A, B, true, cfg);
  const std::string what = "m=" + std::to_string(A.size()) + ", n=" + std::to_string(B.size()) + ", " + describe(stage, cfg);
  if (auto keys = wb::testing::first_mismatch(expected.C, got.C)) return what + ": keys " + *keys;
  if (auto values = wb::testing::first_mismatch(expected.C_val, got.C_val)) return what + ": values " + *values;
  return {};
}

// Inputs whose merge takes from both sides in every tile, duplicates across them.
std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>> race_inputs(std::int64_t m, std::int64_t n,
                                                                            std::uint64_t salt) {
  const std::uint64_t seed = wb::testing::seed(salt);
  return {sorted_keys<std::int32_t>(m, distribution::duplicates, seed, 0),
          sorted_keys<std::int32_t>(n, distribution::duplicates, seed, 1)};
}

}  // namespace

TEST_SUITE("merge/3 tiled") {
  TEST_CASE("race: every tile is loaded, then merged, then overwritten: a barrier between each (M7, M8)") {
    const auto inputs = race_inputs(70, 61, 301);
    const auto& A = inputs.first;
    const auto& B = inputs.second;
    wb::testing::check_race_lesson([&] { return merge_error(3, A, B, {4, 8, 0, 3}); }, {});
  }
}

TEST_SUITE("merge/4 circular") {
  TEST_CASE("race: the circular buffers are refilled only after every thread has merged the tile") {
    const auto inputs = race_inputs(70, 61, 302);
    const auto& A = inputs.first;
    const auto& B = inputs.second;
    wb::testing::check_race_lesson([&] { return merge_error(4, A, B, {4, 8, 0, 3}); }, {});
  }
}

TEST_SUITE("merge/5 coarsened") {
  TEST_CASE("race: the block's co-ranks and its tile are shared: a barrier after each") {
    const auto inputs = race_inputs(90, 77, 303);
    const auto& A = inputs.first;
    const auto& B = inputs.second;
    wb::testing::check_race_lesson([&] { return merge_error(5, A, B, {8, 0, 4, 0}); }, {});
  }
}

TEST_SUITE("merge/6 at-bandwidth") {
  TEST_CASE("race: striped loads, blocked merges and the staged stores share the tile: barriers between") {
    const auto inputs = race_inputs(500, 433, 304);
    const auto& A = inputs.first;
    const auto& B = inputs.second;
    wb::testing::check_race_lesson([&] { return merge_error(6, A, B, {}); }, {});
  }
}
