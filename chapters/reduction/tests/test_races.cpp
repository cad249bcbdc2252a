// The races of the reduction chapter's lessons (common/CPU-BACKEND.md, "The race check"): the
// log-step tree in shared memory needs a barrier between its levels; the warp-synchronous tail
// a __syncwarp() between its steps (R3); the warp totals of stage 4 a barrier before they are
// read; stage 5's last block reads every block's partial after a ticket taken behind a fence.
// Each case runs this track's stage on several blocks' worth of items under the race check;
// against the solution it also runs the racy variants a learner writes, made from the
// solution's code (each barrier left out; atomics as plain read-modify-writes; no fences).
#include <cstdint>
#include <vector>

#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace reduction;
using namespace reduction::testing;

namespace {

std::string sums_right(int stage, const std::vector<std::int32_t>& data, const config& cfg) {
  const auto got = run_device(device_stage<std::int32_t>(stage), data, cfg);
  const std::string error = sum_mismatch(data, got, rounding_depth(static_cast<std::int64_t>(data.size()), cfg));
  return error.empty() ? error : describe("int32", data.size(), cfg) + ": " + error;
}

std::vector<std::int32_t> race_data(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<std::int32_t>(n, wb::testing::seed(salt), 1, 1000);
}

}  // namespace

TEST_SUITE("reduction/1 two-pass") {
  TEST_CASE("race: every level of the tree waits for the level before") {
    const auto data = race_data(3 * 2 * 64 + 7, 501);
    wb::testing::check_race_lesson([&] { return sums_right(1, data, config{64, 3}); }, {});
  }
}

TEST_SUITE("reduction/2 warp-synchronous") {
  TEST_CASE("race: the tree's barriers, and a __syncwarp() between the steps of the warp tail (R3)") {
    const auto data = race_data(3 * 2 * 64 + 7, 502);
    wb::testing::check_race_lesson([&] { return sums_right(2, data, config{64, 3}); }, {});
  }
}

TEST_SUITE("reduction/3 unrolled") {
  TEST_CASE("race: the unrolled tree keeps every barrier and every __syncwarp()") {
    const auto data = race_data(3 * 2 * 128 + 7, 503);
    wb::testing::check_race_lesson([&] { return sums_right(3, data, config{128, 3}); }, {});
  }
}

TEST_SUITE("reduction/4 shuffle") {
  TEST_CASE("race: the warps' totals are read after a barrier") {
    const auto data = race_data(3 * 2 * 128 + 7, 504);
    wb::testing::check_race_lesson([&] { return sums_right(4, data, config{128, 3}); }, {});
  }
}

TEST_SUITE("reduction/5 at-bandwidth") {
  TEST_CASE("race: the last block reads every partial after the ticket, with fences on both sides") {
    const auto data = race_data(5 * 16 * 64 + 77, 505);
    wb::testing::check_race_lesson([&] { return sums_right(5, data, config{64, 4}); }, {true, true, true});
  }
}
