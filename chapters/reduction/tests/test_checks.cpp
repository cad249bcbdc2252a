// Checks of every stage against an independent reference (test_support.hpp): seeded random
// data, sizes just off every warp, block and grid boundary, every supported block size,
// INT_MAX and INT_MIN repeated, negative values, exact float sums, misaligned inputs.
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "test_support.hpp"

using namespace reduction;
using namespace reduction::testing;

namespace {

// The stage table, registered for --wb-progress.
const bool registered = [] {
  return wb::testing::register_stages(reduction::stages);
}();

// ---------------------------------------------------------------------------------------
// The checks every device stage gets, stamped into each stage's suite.
// ---------------------------------------------------------------------------------------

template <class T>
void check_empty_and_single(int stage) {
  const config cfg{64, 3};
  check_stage<T>(stage, {}, cfg);
  check_stage<T>(stage, {static_cast<T>(-7)}, cfg);
  check_stage<T>(stage, {std::numeric_limits<T>::lowest()}, cfg);
  check_stage<T>(stage, {std::numeric_limits<T>::max()}, cfg);
  check_stage<T>(stage, {}, config{});
  check_stage<T>(stage, {static_cast<T>(42)}, config{});
}

template <class T>
void check_boundaries(int stage, std::uint64_t salt) {
  // Small blocks and an explicit, small grid: the grid-stride loops wrap many times.
  for (const config cfg : {config{64, 3}, config{32, 5}}) {
    for (const std::size_t n : boundary_sizes(cfg)) {
      check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(salt + n)), cfg);
    }
  }
  // The default configuration: block 256, as many blocks as fill the device.
  for (const std::size_t n : {std::size_t{255}, std::size_t{257}, std::size_t{4099}, std::size_t{100003}}) {
    check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(salt + 7 * n)), config{});
  }
}

template <class T>
void check_every_block_size(int stage, std::uint64_t salt) {
  for (int block = min_block; block <= max_block; block *= 2) {
    // Two blocks: more than one sweep of every stage's grid-stride loop, and a remainder.
    const std::size_t n = 37 * static_cast<std::size_t>(block) + 5;
    check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(salt + block)), config{block, 2});
    // As many blocks as the stage chooses.
    check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(salt + 3 * block)), config{block, 0});
  }
}

// R5: sums past 2^31 need the 64-bit accumulator in every pass, not only in the result.
void check_int_limits(int stage) {
  for (const config cfg : {config{64, 3}, config{}}) {
    for (const std::size_t n : {std::size_t{3}, std::size_t{583}, std::size_t{20011}}) {
      check_stage<std::int32_t>(stage, std::vector<std::int32_t>(n, INT_MAX), cfg);
      check_stage<std::int32_t>(stage, std::vector<std::int32_t>(n, INT_MIN), cfg);
      std::vector<std::int32_t> mixed(n);
      for (std::size_t i = 0; i < n; ++i) mixed[i] = i % 3 == 2 ? INT_MIN : INT_MAX;
      check_stage<std::int32_t>(stage, mixed, cfg);
    }
  }
  check_stage<std::int32_t>(stage, wb::gen::extremes<std::int32_t>(30011, wb::testing::seed(5)), config{});
  // int64: items as large as n of them can be without the sum leaving int64.
  const std::size_t n = 4099;
  const std::int64_t limit = std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(n);
  check_stage<std::int64_t>(stage, wb::gen::uniform<std::int64_t>(n, wb::testing::seed(6), -limit, limit), config{64, 3});
  check_stage<std::int64_t>(stage, std::vector<std::int64_t>(n, -limit), config{});
}

template <class T>
void check_negative(int stage) {
  const std::size_t n = 10007;
  if constexpr (std::is_integral_v<T>) {
    check_stage<T>(stage, wb::gen::uniform<T>(n, wb::testing::seed(11), T{-1000}, T{-1}), config{64, 3});
    check_stage<T>(stage, wb::gen::uniform<T>(n, wb::testing::seed(12), T{-1000}, T{1000}), config{});
  } else {
    check_stage<T>(stage, wb::gen::uniform<T>(n, wb::testing::seed(13), T(-1), T(0)), config{64, 3});
  }
}

// Small integers stored as float or double: every partial sum is an integer below 2^24, so
// any order gives the exact sum. Here a lost or doubled item cannot hide in the tolerance.
template <class T>
void check_exact_floats(int stage) {
  for (const config cfg : {config{64, 3}, config{}}) {
    for (const std::size_t n : {std::size_t{1023}, std::size_t{50021}}) {
      const auto data = wb::gen::few_distinct<T>(n, wb::testing::seed(17 + n), 201);  // -100..100
      const sum_t<T> got = run_device(device_stage<T>(stage), data, cfg);
      const reference ref = reference_sum(data);
      CHECK_MESSAGE(static_cast<long double>(got) == ref.value,
                    "stage " << stage << ", " << describe(type_name<T>(), n, cfg) << ": expected exactly "
                             << static_cast<double>(ref.value) << ", got " << got);
    }
  }
}

// Inputs that start 1, 2 or 3 items past a 16-byte boundary (stage 5 then needs a scalar
// head before its vector loads).
template <class T>
void check_misaligned(int stage) {
  for (const std::size_t offset : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5},
                                std::size_t{3 * 64 * 16 + 1}, std::size_t{9001}}) {
      check_stage<T>(stage, seeded_data<T>(n, wb::testing::seed(23 + n + offset)), config{64, 3}, offset);
    }
  }
}

// R2 and R4: a block size the stage cannot use is refused with a message saying why,
// before anything is launched.
template <class T>
void check_rejects_bad_config(int stage) {
  const std::vector<T> data(100, T(1));
  wb::device_buffer<T> d_in(data);
  wb::device_buffer<sum_t<T>> d_out(1);
  workspace_buffer<T> ws(static_cast<std::int64_t>(data.size()), config{32, 0});  // a valid, roomy one
  auto run = [&](const config& cfg) { device_stage<T>(stage)(d_in.data(), 100, d_out.data(), ws.view(), cfg); };
  for (const int block : {96, 48, 100, 1000}) {
    CAPTURE(block);
    CHECK_THROWS_WITH_AS(run(config{block, 1}), doctest::Contains("not a power of two"), std::invalid_argument);
  }
  for (const int block : {0, -32, 1, 16, 2048}) {
    CAPTURE(block);
    CHECK_THROWS_WITH_AS(run(config{block, 1}), doctest::Contains("from 32 to 1024"), std::invalid_argument);
  }
  for (const std::int64_t blocks : {std::int64_t{-1}, max_blocks + 1}) {
    CAPTURE(blocks);
    CHECK_THROWS_WITH_AS(run(config{256, blocks}), doctest::Contains("block count"), std::invalid_argument);
  }
}

}  // namespace

#define REDUCTION_DEVICE_STAGE_CHECKS(number, suite_name)                                          \
  TEST_SUITE(suite_name) {                                                                         \
    TEST_CASE_TEMPLATE("empty input and a single item", T, std::int32_t, std::int64_t, float,      \
                       double) {                                                                   \
      check_empty_and_single<T>(number);                                                           \
    }                                                                                              \
    TEST_CASE_TEMPLATE("seeded random data at every warp, block and grid boundary", T,             \
                       std::int32_t, std::int64_t, float, double) {                                \
      check_boundaries<T>(number, 1000 * (number));                                                \
    }                                                                                              \
    TEST_CASE_TEMPLATE("every supported block size, 32 to 1024", T, std::int32_t, double) {       \
      check_every_block_size<T>(number, 2000 * (number));                                          \
    }                                                                                              \
    TEST_CASE("INT_MAX and INT_MIN repeated need 64-bit partial sums (R5)") {                     \
      check_int_limits(number);                                                                    \
    }                                                                                              \
    TEST_CASE_TEMPLATE("negative values", T, std::int32_t, std::int64_t, float, double) {         \
      check_negative<T>(number);                                                                   \
    }                                                                                              \
    TEST_CASE_TEMPLATE("integer-valued floats sum exactly", T, float, double) {                    \
      check_exact_floats<T>(number);                                                               \
    }                                                                                              \
    TEST_CASE_TEMPLATE("input not aligned to 16 bytes", T, std::int32_t, std::int64_t, float,      \
                       double) {                                                                   \
      check_misaligned<T>(number);                                                                 \
    }                                                                                              \
    TEST_CASE_TEMPLATE("block sizes that are not a power of two from 32 to 1024 are refused (R2, " \
                       "R4)",                                                                      \
                       T, std::int32_t, double) {                                                  \
      check_rejects_bad_config<T>(number);                                                         \
    }                                                                                              \
  }

REDUCTION_DEVICE_STAGE_CHECKS(1, "reduction/1 two-pass")
REDUCTION_DEVICE_STAGE_CHECKS(2, "reduction/2 warp-synchronous")
REDUCTION_DEVICE_STAGE_CHECKS(3, "reduction/3 unrolled")
REDUCTION_DEVICE_STAGE_CHECKS(4, "reduction/4 shuffle")
REDUCTION_DEVICE_STAGE_CHECKS(5, "reduction/5 at-bandwidth")

// ---------------------------------------------------------------------------------------
// Stage-specific checks
// ---------------------------------------------------------------------------------------

TEST_SUITE("reduction/1 two-pass") {
  TEST_CASE("a workspace too small for the grid is refused") {
    const std::vector<std::int32_t> data(1000, 1);
    wb::device_buffer<std::int32_t> d_in(data);
    wb::device_buffer<std::int64_t> d_out(1);
    workspace_buffer<std::int32_t> small(1, config{64, 1});  // one partial
    CHECK_THROWS_AS(track::sum_two_pass<std::int32_t>(d_in.data(), 1000, d_out.data(), small.view(), config{64, 3}),
                    std::invalid_argument);
  }
}

TEST_SUITE("reduction/5 at-bandwidth") {
  TEST_CASE_TEMPLATE("one workspace, many launches: the last block resets the ticket", T, std::int32_t, float) {
    const config cfg{64, 7};
    const auto data = seeded_data<T>(5000, wb::testing::seed(31));
    wb::device_buffer<T> d_in(data);
    wb::device_buffer<sum_t<T>> d_out(1);
    workspace_buffer<T> ws(static_cast<std::int64_t>(data.size()), cfg);
    for (int launch = 0; launch < 4; ++launch) {
      d_out.fill_bytes(0xA5);
      track::sum_at_bandwidth<T>(d_in.data(), static_cast<std::int64_t>(data.size()), d_out.data(), ws.view(), cfg);
      WB_CHECK(cudaDeviceSynchronize());
      const std::string mismatch =
          sum_mismatch(data, d_out.to_host()[0], rounding_depth(static_cast<std::int64_t>(data.size()), cfg));
      CHECK_MESSAGE(mismatch.empty(), "launch " << launch << ": " << mismatch);
    }
  }

  TEST_CASE("many more blocks than fit on the device at once") {
    // Last-block-done must not assume all blocks are resident (no block waits for another).
    const config cfg{32, 5000};
    check_stage<std::int32_t>(5, seeded_data<std::int32_t>(200003, wb::testing::seed(37)), cfg);
  }
}

#if defined(WB_BACKEND_CPU)
// The emulator runs a block's threads one after another between synchronisation points; a
// missing barrier or a lock-step assumption gives a different sum under another order.
TEST_SUITE("reduction/2 warp-synchronous") {
  TEST_CASE("the same sum under every scheduling order") {
    for (const std::string order : {"in-order", "reverse", "shuffle:3", "shuffle:11"}) {
      CAPTURE(order);
      scoped_schedule_order scope(order);
      for (const int block : {32, 64, 256}) {
        check_stage<std::int32_t>(2, seeded_data<std::int32_t>(7 * 64 * 3 + 5, wb::testing::seed(41)), config{block, 3});
        check_stage<double>(2, seeded_data<double>(7 * 64 * 3 + 5, wb::testing::seed(43)), config{block, 3});
      }
    }
  }
}
TEST_SUITE("reduction/3 unrolled") {
  TEST_CASE("the same sum under every scheduling order") {
    for (const std::string order : {"in-order", "reverse", "shuffle:5"}) {
      CAPTURE(order);
      scoped_schedule_order scope(order);
      for (const int block : {32, 64, 1024}) {
        check_stage<std::int32_t>(3, seeded_data<std::int32_t>(9001, wb::testing::seed(47)), config{block, 3});
      }
    }
  }
}
TEST_SUITE("reduction/4 shuffle") {
  TEST_CASE("the same sum under every scheduling order") {
    for (const std::string order : {"in-order", "reverse", "shuffle:5"}) {
      CAPTURE(order);
      scoped_schedule_order scope(order);
      for (const int block : {32, 128, 1024}) {
        check_stage<std::int64_t>(4, seeded_data<std::int64_t>(9001, wb::testing::seed(53)), config{block, 3});
        check_stage<float>(4, seeded_data<float>(9001, wb::testing::seed(59)), config{block, 3});
      }
    }
  }
}
TEST_SUITE("reduction/5 at-bandwidth") {
  TEST_CASE("the same sum under every scheduling order") {
    for (const std::string order : {"in-order", "reverse", "shuffle:5"}) {
      CAPTURE(order);
      scoped_schedule_order scope(order);
      for (const int block : {32, 256}) {
        check_stage<std::int32_t>(5, seeded_data<std::int32_t>(9001, wb::testing::seed(61)), config{block, 3});
        check_stage<double>(5, seeded_data<double>(9001, wb::testing::seed(67)), config{block, 3});
      }
    }
  }
}
#endif

// ---------------------------------------------------------------------------------------
// Stage 0: the host specification
// ---------------------------------------------------------------------------------------

namespace {

template <class T>
void check_sequential(const std::vector<T>& data, const std::string& what) {
  const sum_t<T> got = track::sum_sequential<T>(std::span<const T>(data));
  const reference ref = reference_sum(data);
  if constexpr (std::is_integral_v<T>) {
    CHECK_MESSAGE(static_cast<__int128>(got) == ref.exact,
                  what << " (" << type_name<T>() << ", n = " << data.size() << "): expected " << to_string(ref.exact)
                       << ", got " << got);
  } else {
    // Stage 0 must be as good as a correctly rounded sum, up to a second-order term: a
    // float sum in double, or a compensated double sum, is off by at most about one unit
    // in the last place of the result plus n * eps^2 * sum|x|.
    const long double eps = std::numeric_limits<T>::epsilon();
    const long double tol = eps * std::fabs(ref.value) + 4 * static_cast<long double>(data.size()) * eps * eps * ref.sum_abs;
    CHECK_MESSAGE(std::fabs(static_cast<long double>(got) - ref.value) <= tol,
                  what << " (" << type_name<T>() << ", n = " << data.size() << "): expected "
                       << static_cast<double>(ref.value) << ", got " << got);
  }
}

}  // namespace

TEST_SUITE("reduction/0 sequential") {
  TEST_CASE_TEMPLATE("seeded random data and the empty input", T, std::int32_t, std::int64_t, float, double) {
    check_sequential<T>({}, "empty");
    check_sequential<T>({static_cast<T>(5)}, "one item");
    for (const std::size_t n : {std::size_t{2}, std::size_t{1000}, std::size_t{100003}}) {
      check_sequential<T>(seeded_data<T>(n, wb::testing::seed(71 + n)), "random");
    }
  }

  TEST_CASE("int32: INT_MAX and INT_MIN repeated sum in 64 bits (R5)") {
    check_sequential<std::int32_t>(std::vector<std::int32_t>(100000, INT_MAX), "INT_MAX repeated");
    check_sequential<std::int32_t>(std::vector<std::int32_t>(100000, INT_MIN), "INT_MIN repeated");
    check_sequential<std::int32_t>(wb::gen::extremes<std::int32_t>(100000, wb::testing::seed(73)), "extremes");
  }

  TEST_CASE("float: small items next to a large one are not lost (wider accumulator)") {
    // 1 + 10^6 * 1e-8: each 1e-8 is below half an ulp of 1.0f, so a float accumulator
    // returns 1.0 and loses 0.01.
    std::vector<float> data(1000001, 1e-8f);
    data[0] = 1.0f;
    check_sequential<float>(data, "1 + 10^6 x 1e-8");
  }

  TEST_CASE("double: compensated summation keeps what plain addition rounds away") {
    std::vector<double> small(1000001, 1e-17);
    small[0] = 1.0;
    check_sequential<double>(small, "1 + 10^6 x 1e-17");
    // Neumaier's variant also survives an item larger than the running sum: 2 exactly
    // (Kahan's original returns 0, plain addition 0; no wide reference can hold 1e100 + 1).
    const std::vector<double> huge = {1.0, 1e100, 1.0, -1e100};
    CHECK(track::sum_sequential<double>(std::span<const double>(huge)) == 2.0);
    check_sequential<double>(wb::gen::uniform<double>(100003, wb::testing::seed(79), -1e6, 1e6), "random");
  }
}
