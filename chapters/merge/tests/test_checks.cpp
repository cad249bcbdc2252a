// Every stage of the merge chapter against the specification (std::merge): every distribution,
// sizes around the thread, tile and grid boundaries, every key type, keys only and key-value;
// the co-ranks of every k; the configurations each stage refuses (M11).
#include <climits>

#include "test_support.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// The co-ranks of the stable merge, from std::merge: i(k) = how many of C[0, k) came from A.
template <class K>
std::vector<std::int64_t> reference_co_ranks(const std::vector<K>& A, const std::vector<K>& B) {
  const auto ref = reference(A, B, true);
  std::vector<std::int64_t> i_of_k = {0};
  for (const value_t v : ref.C_val) i_of_k.push_back(i_of_k.back() + (v < 1'000'000'000 ? 1 : 0));
  return i_of_k;
}

// "1,3,5": an array as the chapter executable's --a and --b take it.
std::string comma_list(const std::vector<std::int32_t>& v) {
  std::string out;
  for (std::size_t x = 0; x < v.size(); ++x) {
    if (x > 0) out += ',';
    out += std::to_string(v[x]);
  }
  return out;
}

}  // namespace

TEST_SUITE("merge/0 sequential") {
  TEST_CASE("matches std::merge on every distribution and degenerate size") {
    const auto sizes = boundary_sizes({2, 3, 64, 257, 1000}, wb::testing::seed(1));
    check_battery<std::int32_t>(0, {}, sizes, wb::testing::seed(2));
    check_battery<std::int64_t>(0, {}, sizes, wb::testing::seed(3));
    check_battery<float>(0, {}, sizes, wb::testing::seed(4));
  }

  TEST_CASE("is stable: equal keys keep A first and their input order") {
    // 1-4 distinct keys shared by A and B: every output position is a tie somewhere.
    wb::gen::rng rng(wb::testing::seed(5));
    for (int round = 0; round < 200; ++round) {
      const auto m = static_cast<std::int64_t>(rng.below(12));
      const auto n = static_cast<std::int64_t>(rng.below(12));
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      std::vector<std::int32_t> A(m), B(n);
      for (auto& a : A) a = static_cast<std::int32_t>(rng.below(distinct));
      for (auto& b : B) b = static_cast<std::int32_t>(rng.below(distinct));
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      check_case(0, A, B, true, {}, "round " + std::to_string(round));
    }
  }

  TEST_CASE("the book's example (Fig. 12.1) and INT_MIN/INT_MAX") {
    check_case<std::int32_t>(0, {1, 7, 8, 9, 10}, {7, 10, 10, 12}, true, {}, "Fig. 12.1");
    check_case<std::int32_t>(0, {INT_MIN, INT_MIN, 0, INT_MAX}, {INT_MIN, -1, INT_MAX, INT_MAX}, true, {}, "extremes");
    check_case<std::int64_t>(0, {LLONG_MIN, LLONG_MAX}, {LLONG_MIN, 0, LLONG_MAX}, true, {}, "int64 extremes");
    check_case<float>(0, {-0.0f, 0.0f, 1.5f}, {0.0f, -0.0f}, true, {}, "signed zeros are equal keys");
  }
}

TEST_SUITE("merge/1 co-rank") {
  TEST_CASE("the book's example (Figs. 12.4-12.8)") {
    const std::vector<std::int32_t> A = {1, 7, 8, 9, 10};
    const std::vector<std::int32_t> B = {7, 10, 10, 12};
    // thread 1 of Fig. 12.6 (k = 3) gets i = 2, j = 1; Fig. 12.4's k = 4 gets i = 3, j = 1;
    // k = 9 (one past the end) gets i = 5, j = 4.
    for (const auto& [k, expected_i] : {std::pair{3, 2}, std::pair{4, 3}, std::pair{6, 5}, std::pair{9, 5}}) {
      INFO("A = {1, 7, 8, 9, 10} (m=5), B = {7, 10, 10, 12} (n=4): co_rank(k=" << k << ") should be i=" << expected_i
           << " (j=" << k - expected_i << ")");
      CHECK(track::co_rank_host<std::int32_t>(k, A.data(), 5, B.data(), 4) == expected_i);
    }
  }

  TEST_CASE("every k of many small arrays: the stable split, monotone in k") {
    wb::gen::rng rng(wb::testing::seed(11));
    // Smallest inputs first: the first failure is the smallest input that fails.
    std::vector<std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>>> inputs;
    for (int round = 0; round < 3000; ++round) {
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      auto A = small_sorted(rng, static_cast<std::int64_t>(rng.below(10)), distinct);
      auto B = small_sorted(rng, static_cast<std::int64_t>(rng.below(10)), distinct);
      inputs.emplace_back(std::move(A), std::move(B));
    }
    std::stable_sort(inputs.begin(), inputs.end(),
                     [](const auto& x, const auto& y) { return x.first.size() + x.second.size() < y.first.size() + y.second.size(); });
    for (const auto& [A, B] : inputs) {
      const auto m = static_cast<std::int64_t>(A.size());
      const auto n = static_cast<std::int64_t>(B.size());
      const auto expected = reference_co_ranks(A, B);
      std::int64_t previous = 0;
      for (std::int64_t k = 0; k <= m + n; ++k) {
        const std::int64_t i = track::co_rank_host<std::int32_t>(k, A.data(), m, B.data(), n);
        const std::int64_t j = k - i;
        INFO("A = " << wb::testing::values_text(A) << " (m=" << m << "), B = " << wb::testing::values_text(B) << " (n=" << n
                    << "): co_rank(k=" << k << ") returned i=" << i << ", the stable split is i="
                    << expected[static_cast<std::size_t>(k)]
                    << (A.empty() || B.empty() ? std::string()
                                               : " (watch it search: " + wb::testing::wb_command() +
                                                     " trace merge --a " + comma_list(A) + " --b " + comma_list(B) +
                                                     ")"));
        REQUIRE(i == expected[static_cast<std::size_t>(k)]);
        REQUIRE((i == previous || i == previous + 1));  // monotone: each output from A or from B
        // the stable split: A[i-1] <= B[j] and B[j-1] < A[i]
        if (i > 0 && j < n) REQUIRE(A[i - 1] <= B[j]);
        if (j > 0 && i < m) REQUIRE(B[j - 1] < A[i]);
        previous = i;
      }
    }
  }

  TEST_CASE("every k on the device agrees with the host (all key types, all distributions)") {
    std::uint64_t case_seed = wb::testing::seed(12);
    const auto check = [&](auto key) {
      using K = decltype(key);
      for (const distribution d : all_distributions()) {
        for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 0}, {0, 5}, {7, 0}, {300, 211}, {1000, 24}}) {
          const auto A = sorted_keys<K>(m, d, ++case_seed, 0);
          const auto B = sorted_keys<K>(n, d, case_seed, 1);
          wb::device_buffer<K> d_A(A), d_B(B);
          wb::device_buffer<std::int64_t> d_i(static_cast<std::size_t>(m + n + 1));
          d_i.fill_bytes(output_poison);
          track::co_rank_device<K>(d_A.data(), m, d_B.data(), n, d_i.data());
          WB_CHECK(cudaDeviceSynchronize());
          INFO(std::string(key_name<K>()) << ", " << to_string(d) << ", m=" << m << ", n=" << n);
          WB_CHECK_EQUAL_SEQ(reference_co_ranks(A, B), d_i.to_host());
        }
      }
    };
    check(std::int32_t{});
    check(std::int64_t{});
    check(float{});
  }
}

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
}

TEST_SUITE("merge/3 tiled") {
  TEST_CASE("matches std::merge: every distribution, sizes around tile and grid boundaries") {
    const std::uint64_t seed = wb::testing::seed(31);
    // the default shape (128 threads, tile_size 1024, grid from the size)
    check_battery<std::int32_t>(3, {}, boundary_sizes({1024, 2048, 3 * 1024}, seed), seed + 1);
    // tile_size 8 over 4 threads, 3 blocks: many tiles per block, partial last tiles
    check_battery<std::int64_t>(3, {4, 8, 0, 3}, boundary_sizes({8, 24, 25, 100}, seed + 2), seed + 3);
    // M11 shapes: tile_size 10 over 4 threads; tile_size 5 over 32 threads (idle threads)
    check_battery<float>(3, {4, 10, 0, 5}, boundary_sizes({10, 50, 137}, seed + 4), seed + 5);
    check_battery<std::int32_t>(3, {32, 5, 0, 2}, boundary_sizes({5, 10, 64}, seed + 6), seed + 7);
  }

  TEST_CASE("tile_size 1 and one thread per block") {
    const std::uint64_t seed = wb::testing::seed(32);
    const auto A = sorted_keys<std::int32_t>(40, distribution::duplicates, seed, 0);
    const auto B = sorted_keys<std::int32_t>(33, distribution::duplicates, seed, 1);
    check_case(3, A, B, true, {1, 1, 0, 4}, "a tile of one element");
    check_case(3, A, B, true, {3, 1, 0, 1}, "a tile of one element, more threads than it");
  }

  TEST_CASE("rejects what it cannot run (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(3, A, A, false, {2000, 8, 0, 1}), std::invalid_argument);  // block > 1024
    CHECK_THROWS_AS(run_stage(3, A, A, false, {128, 1 << 20, 0, 1}), std::invalid_argument);  // 8 MiB of shared memory
    CHECK_THROWS_AS(run_stage(3, A, A, false, {128, -4, 0, 1}), std::invalid_argument);
  }
}

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
    check_case(4, A, B, true, {1, 1, 0, 4}, "a tile of one element");
    check_case(4, A, B, true, {3, 1, 0, 1}, "a tile of one element, more threads than it");
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
}

TEST_SUITE("merge/5 coarsened") {
  TEST_CASE("matches std::merge: every distribution, sizes around tile boundaries") {
    const std::uint64_t seed = wb::testing::seed(51);
    check_battery<std::int32_t>(5, {}, boundary_sizes({1024, 2048, 4096}, seed), seed + 1);  // 128 x 8
    check_battery<std::int64_t>(5, {33, 0, 3, 0}, boundary_sizes({99, 198, 500}, seed + 2), seed + 3);
    check_battery<float>(5, {7, 0, 16, 0}, boundary_sizes({112, 224, 300}, seed + 4), seed + 5);
  }

  TEST_CASE("one item per thread, one thread per block, long per-thread merges") {
    const std::uint64_t seed = wb::testing::seed(52);
    const auto A = sorted_keys<std::int32_t>(333, distribution::duplicates, seed, 0);
    const auto B = sorted_keys<std::int32_t>(300, distribution::duplicates, seed, 1);
    check_case(5, A, B, true, {64, 0, 1, 0}, "one output a thread");
    check_case(5, A, B, true, {1, 0, 1, 0}, "a block per output");
    check_case(5, A, B, true, {1, 0, 5, 0}, "one thread a block");
    check_case(5, A, B, true, {8, 0, 100, 0}, "one tile for every output");
  }

  TEST_CASE("rejects what it cannot run (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(5, A, A, false, {1025, 0, 1, 0}), std::invalid_argument);
    CHECK_THROWS_AS(run_stage(5, A, A, false, {1024, 0, 4096, 0}), std::invalid_argument);  // 16 MiB of shared memory
    CHECK_THROWS_AS(run_stage(5, A, A, false, {128, 0, 5000, 0}), std::invalid_argument);
  }
}

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
        check_case(6, A, B, false, {block, 0, items, 0}, "two tiles and 12 outputs more");
        check_case(6, A, B, true, {block, 0, items, 0}, "two tiles and 12 outputs more");
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
}
