// Regression tests for the source defects R1-R5 (The CUDA Handbook §12.2; the chapter
// README's defect table). Each shows that its check FAILS on a deliberately defective
// variant of this chapter's own code (tests/defective_variants.cu) and PASSES on the stage.
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "defective_variants.hpp"
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace reduction;
using namespace reduction::testing;
namespace defective = reduction::defective;

namespace {

// The sum a stage (of this track) gives for int32 data, and the exact answer.
std::int64_t track_sum(int stage, const std::vector<std::int32_t>& data, const config& cfg) {
  return run_device(device_stage<std::int32_t>(stage), data, cfg);
}
std::int64_t exact_sum(const std::vector<std::int32_t>& data) {
  return static_cast<std::int64_t>(reference_sum(data).exact);
}

// Positive items: a defect that drops or repeats partials cannot cancel out by chance.
std::vector<std::int32_t> positive_data(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<std::int32_t>(n, wb::testing::seed(salt), 1, 1000);
}

}  // namespace

TEST_SUITE("reduction/1 two-pass") {
  TEST_CASE("R1: the tree's step is active >>= 1 (as printed, >= 1 never narrows)") {
    const config cfg{256, 4};
    const auto data = positive_data(10007, 101);
    const std::int64_t expected = exact_sum(data);
    const std::int64_t as_printed = defective::two_pass_r1(data, cfg.block, cfg.blocks);
    CHECK_MESSAGE(as_printed != expected, "the R1 variant should give a wrong sum, gave " << as_printed);
    check_stage<std::int32_t>(1, data, cfg);  // the stage: the exact sum
  }

  TEST_CASE("R2: a block size that is not a power of two is refused, not silently wrong") {
    const auto data = positive_data(5003, 102);
    const std::int64_t expected = exact_sum(data);
    // Without the check, 96 threads halve to 48, 24, 12, 6, 3, 1: partials[2] is dropped.
    const std::int64_t unchecked = defective::two_pass_r2(data, 96, 3);
    CHECK_MESSAGE(unchecked != expected, "the R2 variant should give a wrong sum, gave " << unchecked);
    // The power-of-two sizes give the right sum with the same kernel...
    CHECK(defective::two_pass_r2(data, 128, 3) == expected);
    // ...and every stage refuses 96 (the per-stage suites check the other sizes).
    CHECK_THROWS_WITH_AS(track_sum(1, data, config{96, 3}), doctest::Contains("not a power of two"),
                         std::invalid_argument);
  }

  TEST_CASE("R5: INT_MAX repeated needs 64-bit partial sums") {
    const config cfg{64, 3};
    const std::vector<std::int32_t> data(5000, INT_MAX);
    const std::int64_t expected = 5000LL * INT_MAX;
    const std::int64_t int_partials = defective::two_pass_r5(data, cfg.block, cfg.blocks);
    CHECK_MESSAGE(int_partials != expected, "the R5 variant should overflow, gave " << int_partials);
    check_stage<std::int32_t>(1, data, cfg);  // the stage: the exact sum
  }
}

TEST_SUITE("reduction/2 warp-synchronous") {
#if defined(WB_BACKEND_CPU)
  TEST_CASE("R3: the warp tail needs __syncwarp() (the as-printed volatile tail races)") {
    // The emulator runs each lane of the warp to its next synchronisation point before the
    // next lane starts. The printed tail has none, so one lane does all five steps before
    // its neighbours have done one: exactly what independent thread scheduling allows.
    // The race check reports the as-printed tail whatever the order: lanes read what other
    // lanes write with no __syncwarp() between (volatile does not order them).
    const auto data = positive_data(7 * 256 * 3 + 11, 103);
    const std::int64_t expected = exact_sum(data);
    for (const std::string order : {"reverse", "in-order"}) {
      CAPTURE(order);
      scoped_schedule_order scope(order);
      for (const int block : {64, 256}) {
        CAPTURE(block);
        std::int64_t as_printed = 0;
        if (wb::testing::race_check_active()) {
          std::string race;
          CHECK(wb::testing::race_reported([&] { as_printed = defective::warp_synchronous_r3(data, block, 3); }, &race));
          CHECK(race.find("no __syncwarp() in their warp") != std::string::npos);
        }
        {
          const bool checked = wb::cpu::race_check();
          wb::cpu::set_race_check(false);
          as_printed = defective::warp_synchronous_r3(data, block, 3);
          wb::cpu::set_race_check(checked);
        }
        CHECK_MESSAGE(as_printed != expected, "the as-printed tail should give a wrong sum, gave " << as_printed);
        check_stage<std::int32_t>(2, data, config{block, 3});  // the stage: the exact sum
      }
    }
  }
#else
  TEST_CASE("R3: the warp tail needs __syncwarp() (racecheck shows the as-printed one)") {
    // On a GPU the as-printed tail usually happens to give the right sum: the defect is a
    // race that compute-sanitizer --tool racecheck reports (the skipped case below runs it).
    // Here: the fixed tail on the same input.
    const auto data = positive_data(7 * 256 * 3 + 11, 103);
    for (const int block : {32, 64, 256, 1024}) {
      CAPTURE(block);
      check_stage<std::int32_t>(2, data, config{block, 3});  // the stage: the exact sum
    }
  }
#endif

  // Not run by default (doctest::skip): the as-printed tail is a race, and racecheck over
  // the whole test binary must stay clean. gpu_check.sh runs it under racecheck with
  //   reduction_tests --no-skip --test-case='R3 as printed*'
  TEST_CASE("R3 as printed, for racecheck (skipped unless --no-skip)" * doctest::skip()) {
    const auto data = positive_data(4096, 104);
    const std::int64_t expected = exact_sum(data);
    const std::int64_t as_printed = defective::warp_synchronous_r3_one_block(data, 256);
    MESSAGE("as-printed tail: " << as_printed << " (exact " << expected << ")");
    check_stage<std::int32_t>(2, data, config{256, 1});  // the stage: the exact sum
  }

  TEST_CASE("R4: a 32-thread block's warp tail stays inside its 32 partials") {
    const defective::tail_probe unguarded = defective::warp_tail_r4(32);
    CHECK_MESSAGE(unguarded.accesses_past_end > 0, "the R4 variant should read past the partials");
    for (const int block : {32, 64}) {
      CAPTURE(block);
      const defective::tail_probe fixed = defective::warp_tail_of_track(block);
      CHECK(fixed.accesses_past_end == 0);
      // The tail sums the first min(block, 64) partials 1, 2, ...: 1 + ... + 32 or 1 + ... + 64.
      CHECK(fixed.sum == (block == 32 ? 528 : 2080));
    }
    const auto data = positive_data(1001, 105);
    check_stage<std::int32_t>(2, data, config{32, 3});  // the stage: the exact sum
  }
}

TEST_SUITE("reduction/3 unrolled") {
  TEST_CASE("R4: the unrolled tail stays inside the partials, and fewer than 32 threads are refused") {
    for (const int block : {32, 64, 128}) {
      CAPTURE(block);
      const defective::tail_probe fixed = defective::unrolled_tail_of_track(block);
      CHECK(fixed.accesses_past_end == 0);
      CHECK(fixed.sum == std::int64_t{block} * (block + 1) / 2);
    }
    // Listing 12-4 dispatches 1 to 16 threads too; those are refused with a message.
    const auto data = positive_data(1001, 106);
    for (const int block : {1, 2, 4, 8, 16}) {
      CAPTURE(block);
      CHECK_THROWS_WITH_AS(track_sum(3, data, config{block, 3}), doctest::Contains("from 32 to 1024"),
                           std::invalid_argument);
    }
    check_stage<std::int32_t>(3, data, config{32, 3});  // the stage: the exact sum
  }

  TEST_CASE("R6 (new): the block-size switch has no silent fall-through") {
    // Listing 12-4's switch has no default: a block size without a case launches nothing,
    // returns normally, and the caller reads a sum nobody wrote.
    const auto data = positive_data(3001, 107);
    const std::int64_t expected = exact_sum(data);
    CHECK(defective::unrolled_dispatch_r6(data, 256, 3) == expected);  // the variant works where it has a case
    const std::int64_t unwritten = defective::unrolled_dispatch_r6(data, 96, 3);
    CHECK_MESSAGE(unwritten != expected, "the R6 variant should leave the sum unwritten, gave " << unwritten);
    CHECK_THROWS_WITH_AS(track_sum(3, data, config{96, 3}), doctest::Contains("not a power of two"),
                         std::invalid_argument);
  }
}
