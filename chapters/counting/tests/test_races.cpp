// The races of the counting chapter's lessons (common/CPU-BACKEND.md, "The race check"): every
// item adds one to a counter other threads add to (an atomic, or a counter of one's own);
// privatized counters are flushed after a barrier and the last block reads every block's
// counts after a ticket taken behind a fence; the hash table claims a slot with atomicCAS.
// Each case runs this track's stage on an input with many items per value under the race
// check: a plain `bins[v] += 1` fails here, with both threads and the line named. Against the
// solution it also runs the racy variants a learner writes, made from the solution's code
// (atomics as plain read-modify-writes; each barrier left out; no fences). Each must be caught.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace counting;
using namespace counting::testing;
using i8 = std::int8_t;
using i64 = std::int64_t;

namespace {

template <class T>
std::string counts_right(int stage, const std::vector<T>& data, const config& cfg = {}) {
  const auto mismatch = table_mismatch(reference_table<T>(data), run_stage<T>(stage, data, cfg));
  return mismatch ? std::to_string(data.size()) + " items: wrong table: " + *mismatch : std::string();
}

}  // namespace

TEST_SUITE("counting/3 direct port") {
  TEST_CASE("race: every thread loads its part of each tile, and all wait before and after reading it (D12)") {
    const auto data = wb::gen::few_distinct<i8>(3 * 64 + 9, wb::testing::seed(701), 5);
    config cfg;
    cfg.block = 64;
    wb::testing::check_race_lesson([&] { return counts_right(3, data, cfg); }, {true, true, false});
  }
}

TEST_SUITE("counting/5 global atomics") {
  TEST_CASE("race: two threads adding one to the same counter need an atomicAdd (a plain += loses counts)") {
    const auto data = wb::gen::few_distinct<i8>(4000, wb::testing::seed(702), 7);
    config cfg;
    cfg.block = 64;
    wb::testing::check_race_lesson([&] { return counts_right(5, data, cfg); }, {false, true, false});
  }
}

TEST_SUITE("counting/6 privatized") {
  TEST_CASE("race: shared counters, the flush after a barrier, the last block's ticket behind a fence") {
    // The first items hold a value no other item has: only the first block counts it, so the
    // last block reads that bin only through the ticket (and its fences).
    auto data = wb::gen::few_distinct<i8>(30'001, wb::testing::seed(703), 11);
    std::vector<bool> used(256, false);
    for (const i8 v : data) used[static_cast<std::uint8_t>(v)] = true;
    const auto lone = static_cast<i8>(static_cast<std::uint8_t>(std::find(used.begin(), used.end(), false) - used.begin()));
    std::fill(data.begin(), data.begin() + 64, lone);
    for (int variant = 0; variant <= 3; ++variant) {
      INFO("input: counter layout " << variant << " (--variant)");
      config cfg;
      cfg.variant = variant;
      cfg.blocks = 2;
      wb::testing::check_race_lesson([&] { return counts_right(6, data, cfg); }, {true, true, true});
    }
  }
}

TEST_SUITE("counting/7 hash table") {
  TEST_CASE("race: a slot is claimed with atomicCAS and counted with atomicAdd") {
    const auto data = wb::gen::few_distinct<i64>(6000, wb::testing::seed(704), 300);
    for (const hash_path path : {hash_path::shared_tables, hash_path::two_level, hash_path::global_table}) {
      INFO("input: path " << (path == hash_path::shared_tables ? "shared tables"
                               : path == hash_path::two_level   ? "two-level"
                                                                 : "global table"));
      config cfg;
      cfg.hash.path = path;
      wb::testing::check_race_lesson([&] { return counts_right(7, data, cfg); }, {false, true, false});
    }
  }
}

TEST_SUITE("counting/8 pipeline") {
  TEST_CASE("race: every chunk counts into the same bins: atomics") {
    // Two blocks count each chunk (one block alone would need no atomics for its flush).
    const auto data = wb::gen::few_distinct<i8>(60'000, wb::testing::seed(705), 9);
    config cfg;
    cfg.chunk_items = 20'000;
    cfg.streams = 3;
    cfg.blocks = 2;
    wb::testing::check_race_lesson([&] { return counts_right(8, data, cfg); }, {false, true, false});
  }
}
