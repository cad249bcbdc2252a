// Stage 4: the circular-buffer kernel; M9 (refill) and M10 (co_rank_circular) regressions.
#include "defective.hpp"
#include "helpers.hpp"
#include "wb/race_check.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// The variant's output; none when the cpu backend's race check stopped it (M9's wrong
// refills make two threads write one output).
std::vector<std::int32_t> run_defective_circular(defective::circular_defect d, const std::vector<std::int32_t>& A,
                                                 const std::vector<std::int32_t>& B, int grid, int block, int tile) {
  wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(A.size() + B.size());
  d_C.fill_bytes(output_poison);
  const bool raced = wb::testing::race_reported([&] {
    defective::merge_circular(d, {d_A.data(), static_cast<std::int64_t>(A.size()), d_B.data(),
                                  static_cast<std::int64_t>(B.size()), d_C.data()},
                              grid, block, tile);
    WB_CHECK(cudaDeviceSynchronize());
  });
  if (raced) return {};
  return d_C.to_host();
}

// Places a sorted sequence into a circular buffer of `tile` slots starting at `start`.
std::vector<std::int32_t> to_circular(const std::vector<std::int32_t>& linear, int start, int tile) {
  std::vector<std::int32_t> buffer(static_cast<std::size_t>(tile), -999);
  for (std::size_t v = 0; v < linear.size(); ++v) buffer[(start + v) % tile] = linear[v];
  return buffer;
}

}  // namespace

TEST_SUITE("merge/4 circular") {
  TEST_CASE("matches std::merge: every distribution, sizes around tile and grid boundaries") {
    const std::uint64_t seed = wb::testing::seed(41);
    check_battery<std::int32_t>(4, {}, boundary_sizes({1024, 2048, 3 * 1024}, seed), seed + 1);
    check_battery<std::int64_t>(4, {4, 8, 0, 3}, boundary_sizes({8, 24, 25, 100}, seed + 2), seed + 3);
    check_battery<float>(4, {4, 10, 0, 5}, boundary_sizes({10, 50, 137}, seed + 4), seed + 5);
    check_battery<std::int32_t>(4, {32, 5, 0, 2}, boundary_sizes({5, 10, 64}, seed + 6), seed + 7);
  }

  TEST_CASE("tile_size 1 and one thread per block") {
    const std::uint64_t seed = wb::testing::seed(42);
    const auto A = sorted_keys<std::int32_t>(40, distribution::duplicates, seed, 0);
    const auto B = sorted_keys<std::int32_t>(33, distribution::duplicates, seed, 1);
    check_case(4, A, B, true, {1, 1, 0, 4}, "tile 1, block 1");
    check_case(4, A, B, true, {3, 1, 0, 1}, "tile 1, block 3");
  }

  TEST_CASE("co_rank_circular on wrapped tiles agrees with co_rank on the unwrapped ones") {
    wb::gen::rng rng(wb::testing::seed(43));
    for (int round = 0; round < 500; ++round) {
      const int tile = 1 + static_cast<int>(rng.below(12));
      const int m = static_cast<int>(rng.below(static_cast<std::uint64_t>(tile) + 1));
      const int n = static_cast<int>(rng.below(static_cast<std::uint64_t>(tile) + 1));
      std::vector<std::int32_t> A(m), B(n);
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(4));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(4));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      const int A_start = static_cast<int>(rng.below(static_cast<std::uint64_t>(tile)));
      const int B_start = static_cast<int>(rng.below(static_cast<std::uint64_t>(tile)));
      const auto A_S = to_circular(A, A_start, tile);
      const auto B_S = to_circular(B, B_start, tile);
      for (int k = 0; k <= m + n; ++k) {
        INFO("round " << round << ", tile " << tile << ", m=" << m << ", n=" << n << ", starts " << A_start << ","
                      << B_start << ", k=" << k);
        REQUIRE(track::co_rank_circular_host<std::int32_t>(k, A_S.data(), m, B_S.data(), n, A_start, B_start, tile) ==
                track::co_rank_host<std::int32_t>(k, A.data(), m, B.data(), n));
      }
    }
  }

  TEST_CASE("M10: B[j-1]'s slot computed from i (defective variant fails)") {
    wb::gen::rng rng(wb::testing::seed(44));
    int defective_wrong = 0;
    for (int round = 0; round < 500; ++round) {
      const int tile = 8;
      std::vector<std::int32_t> A(1 + rng.below(8)), B(1 + rng.below(8));
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(20));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(20));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      const int m = static_cast<int>(A.size());
      const int n = static_cast<int>(B.size());
      const int A_start = static_cast<int>(rng.below(tile));
      const int B_start = static_cast<int>(rng.below(tile));
      const auto A_S = to_circular(A, A_start, tile);
      const auto B_S = to_circular(B, B_start, tile);
      bool wrong = false;
      for (int k = 0; k <= m + n; ++k) {
        const auto expected = static_cast<int>(defective::co_rank(defective::co_rank_defect::none, k, A.data(), m, B.data(), n));
        REQUIRE(defective::co_rank_circular(defective::co_rank_circular_defect::none, k, A_S.data(), m, B_S.data(), n,
                                            A_start, B_start, tile) == expected);
        wrong = wrong || defective::co_rank_circular(defective::co_rank_circular_defect::M10_i_for_j, k, A_S.data(), m,
                                                     B_S.data(), n, A_start, B_start, tile) != expected;
        REQUIRE(track::co_rank_circular_host<std::int32_t>(k, A_S.data(), m, B_S.data(), n, A_start, B_start, tile) ==
                expected);
      }
      defective_wrong += wrong;
    }
    MESSAGE("M10 variant: wrong co-ranks in " << defective_wrong << " of 500 cases");
    CHECK(defective_wrong > 0);
  }

  TEST_CASE("M9: the refill reads, writes and counts the right elements") {
    const std::uint64_t seed = wb::testing::seed(45);
    const auto A = sorted_keys<std::int32_t>(61, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(39, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, false).C;
    check_case(4, A, B, false, {4, 8, 0, 2}, "2 blocks x 4 threads, tile 8");
    // B's refill count from A_length (the translation's note): few A elements, many B elements.
    const auto A_few = sorted_keys<std::int32_t>(3, distribution::uniform, seed + 1, 0);
    const auto B_many = sorted_keys<std::int32_t>(100, distribution::uniform, seed + 1, 1);
    const auto expected_few = reference(A_few, B_many, false).C;
    check_case(4, A_few, B_many, false, {4, 8, 0, 1}, "1 block, m=3, n=100");
    if (!defective_kernels_run) return;
    CHECK(run_defective_circular(defective::circular_defect::none, A, B, 2, 4, 8) == expected);
    CHECK_MESSAGE(run_defective_circular(defective::circular_defect::M9_refill_from_consumed, A, B, 2, 4, 8) != expected,
                  "M9 (translation): refilling from A_consumed loads elements already in the buffer");
    CHECK_MESSAGE(run_defective_circular(defective::circular_defect::M9_overwrite_kept, A, B, 2, 4, 8) != expected,
                  "M9 (3rd ed.): writing at A_S_start + i overwrites the kept elements");
    CHECK(run_defective_circular(defective::circular_defect::none, A_few, B_many, 1, 4, 8) == expected_few);
    CHECK_MESSAGE(run_defective_circular(defective::circular_defect::M9_B_length_typo, A_few, B_many, 1, 4, 8) !=
                      expected_few,
                  "M9 (the translation's fix): B_loaded limited by A_length stops loading B");
  }
}
