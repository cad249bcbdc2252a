// The races of the sort chapter's lessons (common/CPU-BACKEND.md, "The race check"): a block
// ranks its keys with scans in shared memory and stages them there before it writes them out,
// with a barrier between every step that reads what another thread wrote; onesweep counts
// digits with atomics and passes its counts from tile to tile with a look-back; the merge sort
// merges tiles in shared memory. Each case runs this track's stage on several tiles under the
// race check; against the solution it also runs the racy variants a learner writes, made from
// the solution's code (each barrier left out; atomics as plain read-modify-writes). Each must
// be caught.
#include <cstdint>
#include <vector>

#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace sort;
using namespace sort::testing;

namespace {

std::string sorts_right(int stage, const std::vector<std::uint32_t>& keys, const config& cfg) {
  const auto values = positions(keys.size());
  const std::string error = sort_error(keys, values, run_stage<std::uint32_t>(stage, keys, values, cfg));
  return error.empty() ? error : "uint32 keys with values, n " + std::to_string(keys.size()) + ": " + error;
}

// ... int64 keys alone (the few-digits kernel sorts keys without values).
std::string int64_sorts_right(const std::vector<std::int64_t>& keys, const config& cfg) {
  const std::string error = sort_error(keys, {}, run_stage<std::int64_t>(5, keys, {}, cfg));
  return error.empty() ? error : "int64 keys, n " + std::to_string(keys.size()) + ": " + error;
}

std::vector<std::uint32_t> race_keys(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<std::uint32_t>(n, wb::testing::seed(salt), 0u, 4095u);
}

config shape(int block, int items = 0, int bits = 0) {
  config cfg;
  cfg.block = block;
  cfg.items_per_thread = items;
  cfg.bits = bits;
  return cfg;
}

}  // namespace

TEST_SUITE("sort/1 one-bit") {
  TEST_CASE("race: the block's scan of its bits, then the scatter, each after a barrier") {
    const auto keys = race_keys(3 * 64 + 11, 601);
    wb::testing::check_race_lesson([&] { return sorts_right(1, keys, shape(64)); }, {});
  }
}

TEST_SUITE("sort/2 coalesced") {
  TEST_CASE("race: the local sort and the staged writes share the tile: a barrier between each step") {
    const auto keys = race_keys(3 * 64 + 11, 602);
    wb::testing::check_race_lesson([&] { return sorts_right(2, keys, shape(64)); }, {});
  }
}

TEST_SUITE("sort/3 larger-radix") {
  TEST_CASE("race: a digit's counts and ranks in shared memory, each step after a barrier") {
    const auto keys = race_keys(3 * 64 + 11, 603);
    wb::testing::check_race_lesson([&] { return sorts_right(3, keys, shape(64, 0, 4)); }, {});
  }
}

TEST_SUITE("sort/4 coarsened") {
  TEST_CASE("race: several keys a thread, the same barriers") {
    const auto keys = race_keys(3 * 64 * 4 + 11, 604);
    wb::testing::check_race_lesson([&] { return sorts_right(4, keys, shape(64, 4, 4)); }, {});
  }
}

TEST_SUITE("sort/5 onesweep") {
  TEST_CASE("race: digit counts by atomics, the look-back's counts, the tile staged in shared memory") {
    const auto keys = race_keys(20000, 605);
    wb::testing::check_race_lesson([&] { return sorts_right(5, keys, shape(256)); }, {true, true, false});
  }
  TEST_CASE("race: the few-digits kernel's block sorts tile after tile, each after a barrier") {
    // int64 keys whose two sorting passes take 16 digit values each: the solution sorts them
    // with its few-digits kernel (an exercise's stage 5 with its pass kernel), here one block
    // taking every tile in turn, so a tile that starts before the last one is written out
    // overwrites its shared memory.
    auto keys = wb::gen::few_distinct<std::int64_t>(static_cast<std::size_t>(2 * onesweep_tile(8, false) + 37),
                                                    wb::testing::seed(607), 16);
    for (auto& k : keys) k &= 0xFFFF;  // the high six bytes zero: those passes skipped
    config cfg = shape(256);
    cfg.onesweep_few_digits_from = 1;
    cfg.onesweep_few_digits_blocks = 1;
    cfg.onesweep_first_match_digits = 16;  // the first sorting pass too (the stage's: at most 4 digit values)
    wb::testing::check_race_lesson([&] { return int64_sorts_right(keys, cfg); }, {true, true, false});
  }
}

TEST_SUITE("sort/6 merge") {
  TEST_CASE("race: every merge level of a tile waits for the one before") {
    const auto keys = race_keys(3 * 256 * 4 + 11, 606);
    wb::testing::check_race_lesson([&] { return sorts_right(6, keys, shape(256)); }, {});
  }
}
