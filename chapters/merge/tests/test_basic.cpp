// Stage 2: the basic kernel; M4 and M12 (output ranges), M3 on the kernel.
#include "defective.hpp"
#include "helpers.hpp"
#include "wb/race_check.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// The exact begin of part p: floor(p * ceil(total / parts)) clamped, in 128-bit arithmetic.
std::int64_t exact_part_begin(std::int64_t p, std::int64_t parts, std::int64_t total) {
  const __int128 per = (static_cast<__int128>(total) + parts - 1) / parts;
  const __int128 begin = per * p;
  return begin < total ? static_cast<std::int64_t>(begin) : total;
}

// Runs a defective basic-kernel variant on the device (cpu backend), poisoned output.
merged<std::int32_t> run_defective_basic(defective::basic_defect d, const std::vector<std::int32_t>& A,
                                         const std::vector<std::int32_t>& B, int grid, int block) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(A.size() + B.size());
  wb::device_buffer<value_t> d_A_val(tag_values(m, 0)), d_B_val(tag_values(n, 1'000'000'000)), d_C_val(A.size() + B.size());
  d_C.fill_bytes(output_poison);
  d_C_val.fill_bytes(output_poison);
  // A strict co-rank (M3) makes neighbouring threads write the same outputs: the cpu backend's
  // race check stops such a launch, and there is no output.
  const bool raced = wb::testing::race_reported([&] {
    defective::merge_basic(d, {d_A.data(), m, d_B.data(), n, d_C.data(), d_A_val.data(), d_B_val.data(), d_C_val.data()},
                           grid, block);
    WB_CHECK(cudaDeviceSynchronize());
  });
  if (raced) return {};
  return {d_C.to_host(), d_C_val.to_host()};
}

}  // namespace

TEST_SUITE("merge/2 basic") {
  TEST_CASE("matches std::merge: every distribution, sizes around the thread-count boundaries") {
    const std::uint64_t seed = wb::testing::seed(21);
    // default: 256 threads x 8 items per block
    check_battery<std::int32_t>(2, {}, boundary_sizes({2048, 4096}, seed), seed + 1);
    // small odd shapes: 33 threads x 3 items, and 1 thread per block over 7 blocks
    check_battery<std::int64_t>(2, {33, 0, 3, 0}, boundary_sizes({99, 198, 301}, seed + 2), seed + 3);
    check_battery<float>(2, {1, 0, 0, 7}, boundary_sizes({7, 14, 50}, seed + 4), seed + 5);
  }

  TEST_CASE("one output per thread, and more threads than outputs") {
    const std::uint64_t seed = wb::testing::seed(22);
    const auto A = sorted_keys<std::int32_t>(300, distribution::duplicates, seed, 0);
    const auto B = sorted_keys<std::int32_t>(333, distribution::duplicates, seed, 1);
    check_case(2, A, B, true, {64, 0, 1, 0}, "1 item per thread");
    check_case(2, A, B, true, {128, 0, 0, 40}, "5120 threads for 633 outputs");
  }

  TEST_CASE("rejects a block size it cannot launch (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(2, A, A, false, {1025, 0, 0, 0}), std::invalid_argument);
    CHECK_THROWS_AS(run_stage(2, A, A, false, {-3, 0, 0, 0}), std::invalid_argument);
  }

  TEST_CASE("M4: elements per thread rounded down leave the last outputs unwritten") {
    const std::uint64_t seed = wb::testing::seed(23);
    const auto A = sorted_keys<std::int32_t>(517, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(483, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, true);
    // 4 blocks x 32 threads for 1000 outputs: 1000/128 = 7.8 -> 7 each covers only 896.
    CHECK(defective::part_begin(defective::part_defect::M4_truncating_ceil, 128, 128, 1000) == 896);
    INFO("1000 outputs in 128 parts: part_begin(128) must be 1000, the end of C (M4)");
    CHECK(track::part_begin_host(128, 128, 1000) == 1000);
    check_case(2, A, B, false, {32, 0, 0, 4}, "4 x 32 threads");
    if (defective_kernels_run) {
      CHECK(run_defective_basic(defective::basic_defect::none, A, B, 4, 32).C == expected.C);
      const auto got = run_defective_basic(defective::basic_defect::M4_truncating_ceil, A, B, 4, 32);
      CHECK_MESSAGE(got.C != expected.C, "the M4 variant should leave C[896..999] unwritten");
    }
  }

  TEST_CASE("M12: output ranges in 64-bit arithmetic past 2^31") {
    // The index arithmetic of the kernels, checked where int overflows: m+n up to 2^40.
    for (const std::int64_t total : {std::int64_t{3} << 30, (std::int64_t{1} << 31) + 5, std::int64_t{1} << 40}) {
      for (const std::int64_t parts : {std::int64_t{7}, std::int64_t{132 * 2048}, std::int64_t{1} << 31}) {
        INFO("total " << total << ", parts " << parts);
        for (const std::int64_t p : {std::int64_t{0}, std::int64_t{1}, parts / 2, parts - 1, parts}) {
          CHECK(track::part_begin_host(p, parts, total) == exact_part_begin(p, parts, total));
        }
        CHECK(track::part_begin_host(parts, parts, total) == total);
      }
    }
    // The 32-bit variant of the same arithmetic goes wrong there.
    const std::int64_t total = std::int64_t{3} << 30;
    CHECK(defective::part_begin(defective::part_defect::none, 6, 7, total) == exact_part_begin(6, 7, total));
    CHECK(defective::part_begin(defective::part_defect::M12_int32, 6, 7, total) != exact_part_begin(6, 7, total));
  }

  TEST_CASE("M3: the basic kernel with the strict co-rank is unstable on duplicates") {
    if (!defective_kernels_run) {
      MESSAGE("defective kernels run on the cpu backend only (see tests/defective.hpp)");
      return;
    }
    wb::gen::rng rng(wb::testing::seed(24));
    int wrong = 0;
    for (int round = 0; round < 200; ++round) {
      std::vector<std::int32_t> A(1 + rng.below(20)), B(1 + rng.below(20));
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(3));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(3));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      const auto expected = reference(A, B, true);
      const int total = static_cast<int>(A.size() + B.size());
      // one output per thread
      const auto copy = run_defective_basic(defective::basic_defect::none, A, B, total, 1);
      REQUIRE((copy.C == expected.C && copy.C_val == expected.C_val));
      const auto strict = run_defective_basic(defective::basic_defect::M3_strict_tie, A, B, total, 1);
      wrong += strict.C != expected.C || strict.C_val != expected.C_val;
      check_case(2, A, B, true, {1, 0, 1, 0}, "one output per thread, round " + std::to_string(round));
    }
    MESSAGE("M3 kernel variant: wrong key-value merge in " << wrong << " of 200 cases");
    CHECK(wrong > 0);
  }
}
