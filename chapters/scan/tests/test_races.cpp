// The races of the scan chapter's lessons (common/CPU-BACKEND.md, "The race check"): the
// in-block scans read what other threads wrote a step before (a barrier between every read
// and the write that follows it: S1, S3), and the single-pass scans hand a running total from
// block to block through flags (a __threadfence() before a flag is set and after it is seen).
// Each case runs this track's stage on an input of several sections or tiles under the race
// check; against the solution it also runs the racy variants a learner writes, made from the
// solution's code: each barrier left out, the fences left out. Each must be caught.
#include <cstdint>
#include <vector>

#include "lookback_chain.hpp"
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace scan;
using namespace scan::testing;

namespace {

template <class T>
std::string scans_right(int stage, const std::vector<T>& in, const config& cfg) {
  const std::string error = scan_error(in, run_stage<T>(stage, in, cfg), cfg.exclusive);
  return error.empty() ? error : describe(stage, in.size(), cfg) + ": " + error;
}

template <class T>
std::vector<T> small_items(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<T>(n, wb::testing::seed(salt), T(1), T(9));
}

}  // namespace

TEST_SUITE("scan/1 kogge-stone") {
  TEST_CASE("race: each step reads, waits, then writes, and waits again (S1)") {
    const auto in = small_items<std::int32_t>(3 * 64 + 5, 401);
    wb::testing::check_race_lesson([&] { return scans_right(1, in, config{64, 0, false}); }, {});
  }
}

TEST_SUITE("scan/2 brent-kung") {
  TEST_CASE("race: every level of the up-sweep and of the down-sweep waits for the one before") {
    const auto in = small_items<std::int32_t>(3 * 128 + 5, 402);
    wb::testing::check_race_lesson([&] { return scans_right(2, in, config{64, 0, false}); }, {});
  }
}

TEST_SUITE("scan/3 coarsened") {
  TEST_CASE("race: the three phases each wait for the one before (S3)") {
    const auto in = small_items<std::int32_t>(3 * 64 * 4 + 5, 403);
    wb::testing::check_race_lesson([&] { return scans_right(3, in, config{64, 4, false}); }, {});
  }
}

TEST_SUITE("scan/4 hierarchical") {
  TEST_CASE("race: each section's block scan, before its sum is written and added back") {
    const auto in = small_items<std::int32_t>(40 * 64 * 4 + 9, 404);
    wb::testing::check_race_lesson([&] { return scans_right(4, in, config{64, 4, false}); }, {});
  }
}

TEST_SUITE("scan/5 domino") {
  TEST_CASE("race: a tile's carry is read after the flag that announces it, with fences on both sides") {
    const auto in = small_items<std::int32_t>(12 * 64 * 4 + 9, 405);
    wb::testing::check_race_lesson([&] { return scans_right(5, in, config{64, 4, false}); }, {true, false, true});
  }
}

TEST_SUITE("scan/6 single-pass") {
  TEST_CASE("race: the tile's warps share their sums and the ring of stages behind barriers") {
    const auto in32 = small_items<std::int32_t>(20 * 128 * 4 + 9, 406);
    wb::testing::check_race_lesson([&] { return scans_right(6, in32, config{128, 4, false}); }, {});
    const auto in64 = small_items<std::int64_t>(20 * 128 * 2 + 9, 407);
    wb::testing::check_race_lesson([&] { return scans_right(6, in64, config{128, 2, false}); }, {});
  }
  TEST_CASE("race: the look-back reads a tile's status, and its value behind a fence (64-bit values)") {
    // One tile per block, each looking back over the blocks before it with this track's
    // tile_look_back (the stage's persistent kernel scans every tile in one block on the cpu
    // backend). int32 values share one 64-bit word with their status: no fence to leave
    // out; int64 values are published beside their status, behind a fence.
    const auto v32 = small_items<std::int32_t>(70, 408);
    const auto v64 = small_items<std::int64_t>(70, 409);
    const auto chain_right = [](const auto& values) {
      auto expected = values;
      for (std::size_t i = 1; i < expected.size(); ++i) expected[i] = plus(expected[i - 1], values[i]);
      const auto mismatch = wb::testing::first_mismatch(expected, lookback_chain(values));
      return mismatch ? "tile prefixes over " + std::to_string(values.size()) + " blocks: " + *mismatch : std::string();
    };
    wb::testing::check_race_lesson([&] { return chain_right(v32); }, {false, false, false});
    wb::testing::check_race_lesson([&] { return chain_right(v64); }, {false, false, true});
  }
}
