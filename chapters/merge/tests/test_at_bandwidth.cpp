// Stage 6: the kernel at bandwidth; GPU-only checks: m + n > 2^31, agreement with CUB.
#include <cstring>

#include "baseline_cub.hpp"
#include "test_support.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// An order-independent fingerprint of a multiset of keys: the sum of a 64-bit mix of each.
template <class K>
std::uint64_t multiset_hash(const std::vector<K>& keys) {
  std::uint64_t sum = 0;
  for (const K key : keys) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &key, sizeof(K));
    std::uint64_t z = bits + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    sum += z ^ (z >> 31);
  }
  return sum;
}

// co_ranks[k]: how many of the stable merge's first k outputs come from A, read off std::merge
// (the values tag where each output came from: A's are below 10^9).
std::vector<std::int64_t> reference_co_ranks(const std::vector<std::int32_t>& A, const std::vector<std::int32_t>& B) {
  const auto expected = reference(A, B, true);
  std::vector<std::int64_t> co_ranks(1, 0);
  for (const value_t v : expected.C_val) co_ranks.push_back(co_ranks.back() + (v < 1'000'000'000 ? 1 : 0));
  return co_ranks;
}

}  // namespace

TEST_SUITE("merge/6 at-bandwidth") {
  TEST_CASE("co_rank_lower_bound: the same split as co_rank for every k") {
    wb::gen::rng rng(wb::testing::seed(60));
    for (int round = 0; round < 3000; ++round) {
      std::vector<std::int32_t> A(rng.below(10)), B(rng.below(10));
      const auto distinct = 1 + rng.below(4);
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(distinct));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(distinct));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      const auto m = static_cast<std::int64_t>(A.size());
      const auto n = static_cast<std::int64_t>(B.size());
      const auto expected = reference(A, B, true);
      std::int64_t from_A = 0;  // how many of C[0, k) came from A: the co-rank of k
      for (std::int64_t k = 0; k <= m + n; ++k) {
        INFO("round " << round << ", m=" << m << ", n=" << n << ", k=" << k);
        REQUIRE(track::co_rank_lower_bound_host<std::int32_t>(k, A.data(), m, B.data(), n) == from_A);
        if (k < m + n && expected.C_val[static_cast<std::size_t>(k)] < 1'000'000'000) ++from_A;
      }
    }
    // and every k of larger sorted inputs of every distribution
    for (const distribution d : all_distributions()) {
      const auto A = sorted_keys<float>(5000, d, wb::testing::seed(61), 0);
      const auto B = sorted_keys<float>(3000, d, wb::testing::seed(61), 1);
      const auto expected = reference(A, B, true);
      std::int64_t from_A = 0;
      for (std::int64_t k = 0; k <= 8000; ++k) {
        INFO(to_string(d) << ", k=" << k);
        REQUIRE(track::co_rank_lower_bound_host<float>(k, A.data(), 5000, B.data(), 3000) == from_A);
        if (k < 8000 && expected.C_val[static_cast<std::size_t>(k)] < 1'000'000'000) ++from_A;
      }
    }
  }

  TEST_CASE("the partition pass: the co-rank of every tile boundary, tiles of 1 to 9 outputs") {
    // tile_items = 1 makes the pass co-rank every k, so each group of threads searching
    // together meets every split: empty inputs, ties across A and B, all-equal keys.
    wb::gen::rng rng(wb::testing::seed(64));
    for (int round = 0; round < 300; ++round) {
      const auto m = static_cast<std::int64_t>(rng.below(round < 20 ? 3 : 200));
      const auto n = static_cast<std::int64_t>(rng.below(round % 7 == 0 ? 3 : 200));
      std::vector<std::int32_t> A(static_cast<std::size_t>(m)), B(static_cast<std::size_t>(n));
      const auto distinct = 1 + rng.below(round % 3 == 0 ? 2 : 1000);
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(distinct));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(distinct));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      const std::int64_t tile = 1 + round % 9;
      const std::int64_t count = (m + n + tile - 1) / tile + 1;  // tiles + 1 boundaries
      wb::device_buffer<std::int32_t> d_A(A.empty() ? std::vector<std::int32_t>{0} : A);
      wb::device_buffer<std::int32_t> d_B(B.empty() ? std::vector<std::int32_t>{0} : B);
      wb::device_buffer<std::int64_t> d_parts(static_cast<std::size_t>(count));
      d_parts.fill_bytes(0xA5);
      track::merge_path_partitions<std::int32_t>(d_A.data(), m, d_B.data(), n, tile, d_parts.data());
      WB_CHECK(cudaDeviceSynchronize());
      const auto parts = d_parts.to_host();
      const auto expected = reference_co_ranks(A, B);
      for (std::int64_t t = 0; t < count; ++t) {
        const std::int64_t k = std::min(t * tile, m + n);
        INFO("round " << round << ", m=" << m << ", n=" << n << ", tile=" << tile << ", boundary " << t);
        // an independent reference: how many of std::merge's first k outputs came from A
        REQUIRE(parts[static_cast<std::size_t>(t)] == expected[static_cast<std::size_t>(k)]);
      }
    }
  }

  TEST_CASE("matches std::merge: every distribution, sizes around tile boundaries (default shape)") {
    const std::uint64_t seed = wb::testing::seed(61);
    // default shapes: 512 x 15 (int32 keys), 512 x 11 (int32 key-value), 512 x 7 (int64 keys),
    // 512 x 5 (int64 key-value)
    check_battery<std::int32_t>(6, {}, boundary_sizes({7680, 5632, 2 * 7680}, seed), seed + 1);
    check_battery<std::int64_t>(6, {}, boundary_sizes({3584, 2 * 3584}, seed + 2), seed + 3);
    check_battery<float>(6, {}, boundary_sizes({7680, 3584}, seed + 4), seed + 5);
  }

  TEST_CASE("matches std::merge: the small shape, many tiles") {
    const std::uint64_t seed = wb::testing::seed(62);
    check_battery<std::int32_t>(6, {64, 0, 3, 0}, boundary_sizes({192, 384, 1000}, seed), seed + 1);
    check_battery<std::int64_t>(6, {64, 0, 3, 0}, boundary_sizes({192, 577}, seed + 2), seed + 3);
    check_battery<float>(6, {64, 0, 3, 0}, boundary_sizes({192, 385}, seed + 4), seed + 5);
  }

  TEST_CASE("every compiled shape, keys only and key-value") {
    std::uint64_t case_seed = wb::testing::seed(63);
    for (const auto& [block, items] : at_bandwidth_shapes()) {
      const std::int64_t tile = std::int64_t{block} * items;
      for (const distribution d : {distribution::uniform, distribution::duplicates}) {
        const auto A = sorted_keys<std::int32_t>(tile + 17, d, ++case_seed, 0);
        const auto B = sorted_keys<std::int32_t>(tile - 5, d, case_seed, 1);
        check_case(6, A, B, false, {block, 0, items, 0}, "shape " + std::to_string(block) + "x" + std::to_string(items));
        check_case(6, A, B, true, {block, 0, items, 0}, "shape " + std::to_string(block) + "x" + std::to_string(items));
      }
    }
  }

  TEST_CASE("rejects a shape it was not compiled for, and too little temporary storage (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(6, A, A, false, {512, 0, 8, 0}), std::invalid_argument);
    CHECK_THROWS_AS(run_stage(6, A, A, false, {100, 0, 7, 0}), std::invalid_argument);
    wb::device_buffer<std::int32_t> d_A(A), d_C(6);
    const problem<std::int32_t> p{d_A.data(), 3, d_A.data(), 3, d_C.data()};
    wb::device_buffer<unsigned char> too_small(4);
    CHECK_THROWS_AS(track::merge_at_bandwidth(p, too_small.data(), too_small.size()), std::invalid_argument);
  }

  WB_GPU_TEST_CASE("[large] m + n > 2^31: every kernel stage, int32 keys") {
    // m = n = 1.1 * 2^30: 2.36e9 outputs, 9.4 GB of keys in and 9.4 GB out. Checked by
    // sortedness, count and an order-independent hash of the keys: a sorted permutation of
    // A and B is their merge (keys only).
    const std::int64_t m = (std::int64_t{11} << 30) / 10;
    const std::int64_t n = m + 3;
    const std::uint64_t seed = wb::testing::seed(64);
    const auto A = sorted_keys<std::int32_t>(m, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(n, distribution::uniform, seed, 1);
    const std::uint64_t expected_hash = multiset_hash(A) + multiset_hash(B);
    wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(static_cast<std::size_t>(m + n));
    const problem<std::int32_t> p{d_A.data(), m, d_B.data(), n, d_C.data()};
    wb::device_buffer<unsigned char> temp(track::merge_at_bandwidth_temp_bytes<std::int32_t>(m, n));
    std::vector<std::int32_t> C(static_cast<std::size_t>(m + n));
    for (int stage = 2; stage <= 6; ++stage) {
      INFO("stage " << stage);
      d_C.fill_bytes(output_poison);
      switch (stage) {
        case 2: track::merge_basic(p); break;
        case 3: track::merge_tiled(p); break;
        case 4: track::merge_circular(p); break;
        case 5: track::merge_coarsened(p); break;
        case 6: track::merge_at_bandwidth(p, temp.data(), temp.size()); break;
      }
      WB_CHECK(cudaDeviceSynchronize());
      d_C.copy_to(C);
      CHECK(first_unsorted(C) == -1);
      CHECK(multiset_hash(C) == expected_hash);
      CHECK(C.front() == std::min(A.front(), B.front()));
      CHECK(C.back() == std::max(A.back(), B.back()));
    }
  }

  WB_GPU_TEST_CASE("agrees with cub::DeviceMerge (keys), and with std::merge (key-value)") {
#if defined(WB_HAVE_BASELINE)
    std::uint64_t case_seed = wb::testing::seed(65);
    for (const distribution d : all_distributions()) {
      const std::int64_t m = (std::int64_t{1} << 20) + 77;
      const std::int64_t n = (std::int64_t{1} << 20) - 1000;
      const auto A = sorted_keys<std::int32_t>(m, d, ++case_seed, 0);
      const auto B = sorted_keys<std::int32_t>(n, d, case_seed, 1);
      wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(static_cast<std::size_t>(m + n)),
          d_cub(static_cast<std::size_t>(m + n));
      const problem<std::int32_t> ours{d_A.data(), m, d_B.data(), n, d_C.data()};
      const problem<std::int32_t> theirs{d_A.data(), m, d_B.data(), n, d_cub.data()};
      wb::device_buffer<unsigned char> temp(track::merge_at_bandwidth_temp_bytes<std::int32_t>(m, n));
      wb::device_buffer<unsigned char> cub_temp(baseline::cub_temp_bytes(theirs));
      d_C.fill_bytes(output_poison);
      track::merge_at_bandwidth(ours, temp.data(), temp.size());
      baseline::cub_merge(theirs, cub_temp.data(), cub_temp.size());
      WB_CHECK(cudaDeviceSynchronize());
      INFO("distribution " << to_string(d));
      WB_CHECK_EQUAL_SEQ(d_cub.to_host(), d_C.to_host());
      check_case(6, A, B, true, {}, "key-value, " + to_string(d));
    }
#else
    MESSAGE("built without the CUB baseline (WB_HAVE_BASELINE)");
#endif
  }
}
