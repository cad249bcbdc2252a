// Checks of every stage against an independent reference (test_support.hpp): seeded random
// data, n = 0, 1, 31, 32, 33, sizes one off every section, tile and level boundary, every
// block size, all zeros, alternating signs, extreme integers (wrapping), exact floats, both
// the inclusive and the exclusive scan.
#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"

using namespace scan;
using namespace scan::testing;

namespace {

const bool registered = wb::testing::register_stages(std::span<const wb::stage>(scan::stages));

// The items one block covers at once in each stage, with cfg.
template <class T>
std::int64_t unit_of(int stage, const config& cfg) {
  switch (stage) {
    case 0: return 64;
    case 1: return cfg.block;
    case 2: return 2 * cfg.block;
    default: return static_cast<std::int64_t>(cfg.block) * items_for(stage, cfg, sizeof(T));
  }
}

template <class T>
std::vector<std::int64_t> boundary_sizes(int stage, const config& cfg) {
  const std::int64_t u = unit_of<T>(stage, cfg);
  std::vector<std::int64_t> sizes = {0, 1, 2, 31, 32, 33, u - 1, u, u + 1, 2 * u - 1, 2 * u + 1, 7 * u + 3};
  if (stage >= 4) {
    sizes.push_back(33 * u + 1);   // a look-back past one window of 32 tiles; two hierarchy levels
    sizes.push_back(u * u + 1);    // three hierarchy levels (small units only)
  }
  return sizes;
}

template <class T>
void check_sizes(int stage, std::uint64_t salt) {
  // Small blocks and few items a thread: many sections, tiles and levels for a small n.
  const int small_items = static_cast<int>(16 / sizeof(T));
  for (const bool exclusive : {false, true}) {
    for (const config cfg : {config{32, small_items, exclusive}, config{64, 0, exclusive}}) {
      for (const std::int64_t n : boundary_sizes<T>(stage, cfg)) {
        if (n > 300000) continue;
        check_stage<T>(stage, seeded_data<T>(static_cast<std::size_t>(n), wb::testing::seed(salt + n)), cfg);
      }
    }
    // The default configuration.
    for (const std::size_t n : {std::size_t{255}, std::size_t{4097}, std::size_t{100003}}) {
      check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(salt + 7 * n)), config{256, 0, exclusive});
    }
  }
}

template <class T>
void check_every_block_size(int stage, std::uint64_t salt) {
  for (int block = min_block; block <= max_block; block *= 2) {
    const config cfg{block, 0, block == 128};
    const std::int64_t n = 3 * unit_of<T>(stage, cfg) + 5;
    check_stage<T>(stage, seeded_data<T>(static_cast<std::size_t>(n), wb::testing::seed(salt + block)), cfg);
  }
}

void check_every_items_per_thread(int stage, std::uint64_t salt) {
  if (stage < 3) return;
  for (int items = 4; items <= max_items_per_thread; items *= 2) {
    const config cfg{64, items, items == 8};
    const std::size_t n = static_cast<std::size_t>(5 * 64 * items + 3);
    check_stage<std::int32_t>(stage, seeded_data<std::int32_t>(n, wb::testing::seed(salt + items)), cfg);
    check_stage<std::int64_t>(stage, seeded_data<std::int64_t>(n, wb::testing::seed(salt + 2 * items)), cfg);
  }
}

template <class T>
void check_patterns(int stage) {
  for (const bool exclusive : {false, true}) {
    const config cfg{64, 0, exclusive};
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{20011}}) {
      check_stage<T>(stage, std::vector<T>(n, T{}), cfg);  // all zeros
      std::vector<T> alternating(n);
      for (std::size_t i = 0; i < n; ++i) alternating[i] = i % 2 == 0 ? T(5) : T(-5);
      check_stage<T>(stage, alternating, cfg);
      if constexpr (std::is_integral_v<T>) {
        // Extremes: every sum wraps, modulo 2^32 or 2^64.
        check_stage<T>(stage, std::vector<T>(n, std::numeric_limits<T>::max()), cfg);
        check_stage<T>(stage, std::vector<T>(n, std::numeric_limits<T>::min()), cfg);
        check_stage<T>(stage, wb::gen::extremes<T>(n, wb::testing::seed(n)), cfg);
      }
    }
  }
}

// Floats holding small integers: every partial sum is exact in any order, so every stage
// must match the double reference to the last bit.
void check_exact_floats(int stage) {
  for (const bool exclusive : {false, true}) {
    const std::size_t n = 30011;
    const auto ints = wb::gen::uniform<std::int32_t>(n, wb::testing::seed(stage), -8, 8);
    const std::vector<float> in(ints.begin(), ints.end());
    const auto out = run_stage<float>(stage, in, config{64, 0, exclusive});
    const auto expected_ints = reference_integer(ints, exclusive);
    const std::vector<float> expected(expected_ints.begin(), expected_ints.end());
    WB_CHECK_EQUAL_SEQ(expected, out);
  }
}

void check_all(int stage) {
  check_sizes<std::int32_t>(stage, 100);
  check_sizes<std::int64_t>(stage, 200);
  check_sizes<float>(stage, 300);
  check_patterns<std::int32_t>(stage);
  check_patterns<std::int64_t>(stage);
  check_patterns<float>(stage);
  check_exact_floats(stage);
  if (stage > 0) {
    check_every_block_size<std::int32_t>(stage, 400);
    check_every_block_size<std::int64_t>(stage, 500);
    check_every_items_per_thread(stage, 600);
  }
}

}  // namespace

TEST_SUITE("scan/0 sequential") {
  TEST_CASE("sequential scan: sizes, patterns, exclusive") { check_all(0); }
  TEST_CASE("sequential scan: a hand-made example") {
    const std::vector<std::int32_t> in = {3, 1, 4, 1, 5, 9, 2, 6};
    CHECK(run_stage<std::int32_t>(0, in, config{}) == std::vector<std::int32_t>{3, 4, 8, 9, 14, 23, 25, 31});
    CHECK(run_stage<std::int32_t>(0, in, config{256, 0, true}) == std::vector<std::int32_t>{0, 3, 4, 8, 9, 14, 23, 25});
    // int32 wraps modulo 2^32: INT_MAX + 1 is INT_MIN.
    CHECK(run_stage<std::int32_t>(0, {INT_MAX, 1}, config{}) == std::vector<std::int32_t>{INT_MAX, INT_MIN});
  }
}
TEST_SUITE("scan/1 kogge-stone") {
  TEST_CASE("Kogge-Stone: sizes, block sizes, patterns, exclusive") { check_all(1); }
}
TEST_SUITE("scan/2 brent-kung") {
  TEST_CASE("Brent-Kung: sizes, block sizes, patterns, exclusive") { check_all(2); }
}
TEST_SUITE("scan/3 coarsened") {
  TEST_CASE("coarsened: sizes, block sizes, items per thread, patterns, exclusive") { check_all(3); }
}
TEST_SUITE("scan/4 hierarchical") {
  TEST_CASE("hierarchical: sizes, levels, block sizes, items per thread, patterns, exclusive") { check_all(4); }
}
TEST_SUITE("scan/5 domino") {
  TEST_CASE("domino: sizes, block sizes, items per thread, patterns, exclusive") { check_all(5); }
}
TEST_SUITE("scan/6 single-pass") {
  TEST_CASE("single pass: sizes, look-back windows, block sizes, items per thread, patterns, exclusive") {
    check_all(6);
  }
  TEST_CASE("single pass: an input of fewer than 128 tiles goes in smaller tiles") {
    // The rule (single_pass_items): the default 128 bytes a thread, halved while there would
    // be fewer than 128 tiles, down to 32 bytes; items per thread given by the user stay.
    const config cfg{256, 0, false};
    CHECK(single_pass_items(std::int64_t{1} << 28, cfg, 4) == 32);
    CHECK(single_pass_items(128 * 8192, cfg, 4) == 32);      // 128 tiles of 8192 int32
    CHECK(single_pass_items(127 * 8192 + 1, cfg, 4) == 32);  // 128 tiles, the last of one item
    CHECK(single_pass_items(127 * 8192, cfg, 4) == 16);      // 127 tiles: 254 of 4096
    CHECK(single_pass_items(127 * 4096 + 1, cfg, 4) == 16);  // 128 tiles of 4096
    CHECK(single_pass_items(127 * 4096, cfg, 4) == 8);       // 254 of 2048
    CHECK(single_pass_items(1000, cfg, 4) == 8);             // never below two 16-byte vectors
    CHECK(single_pass_items(0, cfg, 4) == 8);
    CHECK(single_pass_items(128 * 4096, cfg, 8) == 16);      // int64: 128 tiles of 4096
    CHECK(single_pass_items(127 * 4096, cfg, 8) == 8);
    CHECK(single_pass_items(1000, cfg, 8) == 4);
    CHECK(single_pass_items(1000, config{512, 0, false}, 4) == 8);  // 64 KiB tiles down to 16 KiB
    CHECK(single_pass_items(1000, config{256, 32, false}, 4) == 32);
    CHECK(single_pass_items(1000, config{256, 16, false}, 4) == 16);
    // Sizes one off each switch and off the smallest tiles' boundaries, scanned with the
    // tiles they get.
    for (const bool exclusive : {false, true}) {
      for (const std::int64_t n : {2047, 2049, 127 * 4096, 127 * 4096 + 1, 127 * 8192, 127 * 8192 + 1}) {
        CAPTURE(n);
        check_stage<std::int32_t>(6, seeded_data<std::int32_t>(static_cast<std::size_t>(n), wb::testing::seed(n)),
                                  config{256, 0, exclusive});
      }
      for (const std::int64_t n : {1023, 1025, 127 * 2048, 127 * 2048 + 1, 127 * 4096 + 1}) {
        CAPTURE(n);
        check_stage<std::int64_t>(6, seeded_data<std::int64_t>(static_cast<std::size_t>(n), wb::testing::seed(n)),
                                  config{256, 0, exclusive});
      }
    }
  }
  TEST_CASE("single pass: one to three rounds of tiles for the persistent grid are uneven") {
    // 396 blocks (3 a SM on 132 SMs) and 512 tiles: 116 blocks take a second tile while the
    // rest of the GPU waits; the stage halves the tiles there.
    CHECK(single_pass_rounds_uneven(512, 396));
    CHECK(single_pass_rounds_uneven(397, 396));
    CHECK(single_pass_rounds_uneven(1187, 396));
    CHECK_FALSE(single_pass_rounds_uneven(396, 396));   // one whole round
    CHECK_FALSE(single_pass_rounds_uneven(256, 396));   // less than one round: no block waits
    CHECK_FALSE(single_pass_rounds_uneven(1188, 396));  // three rounds and more
    CHECK_FALSE(single_pass_rounds_uneven(32768, 396));
  }
  TEST_CASE("single pass: a misaligned input and output go item by item") {
    const std::size_t n = 20011;
    const auto in = seeded_data<std::int32_t>(n + 1, wb::testing::seed(77));
    wb::device_buffer<std::int32_t> d_in(in);
    wb::device_buffer<std::int32_t> d_out(n + 1);
    // The scan writes d_out[1..n]; d_out[0] is poisoned, so copying the whole buffer back
    // reads only written memory (compute-sanitizer's initcheck).
    WB_CHECK(cudaMemset(d_out.data(), 0xA5, (n + 1) * sizeof(std::int32_t)));
    workspace_buffer<std::int32_t> ws(static_cast<std::int64_t>(n), config{});
    scan::WB_TRACK::scan_single_pass<std::int32_t>(d_in.data() + 1, d_out.data() + 1, static_cast<std::int64_t>(n),
                                                   ws.view(), config{});
    WB_CHECK(cudaDeviceSynchronize());
    const auto all = d_out.to_host();
    const std::vector<std::int32_t> got(all.begin() + 1, all.end());
    const std::vector<std::int32_t> input(in.begin() + 1, in.end());
    WB_CHECK_EQUAL_SEQ(reference_integer(input, false), got);
  }
}
