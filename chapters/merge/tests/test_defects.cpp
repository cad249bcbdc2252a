// The defects of the book's merge code (M1-M12): each fix holds, and the defective variant
// (defective_variants.cu) fails on an input that shows it.

#include "defective_variants.hpp"
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// What the basic kernel computes with one output per thread, simulated on the host: thread k
// merges A[i(k), i(k+1)) and B[j(k), j(k+1)) with merge_sequential into C + k, threads in
// order (where non-monotone co-ranks make ranges overlap, the later thread's writes win).
template <class CoRank>
merged<std::int32_t> merge_by_co_ranks(const std::vector<std::int32_t>& A, const std::vector<std::int32_t>& B,
                                       CoRank co_rank) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  const auto A_val = tag_values(m, 0);
  const auto B_val = tag_values(n, 1'000'000'000);
  merged<std::int32_t> out{std::vector<std::int32_t>(A.size() + B.size(), -1), std::vector<value_t>(A.size() + B.size(), -1)};
  for (std::int64_t k = 0; k < m + n; ++k) {
    std::int64_t i = co_rank(k);
    std::int64_t j = k - i;
    const std::int64_t i_end = std::max(i, co_rank(k + 1));  // a negative length merges nothing
    const std::int64_t j_end = std::max(j, k + 1 - co_rank(k + 1));
    for (std::int64_t c = k; (i < i_end || j < j_end) && c < m + n; ++c) {
      const bool take_a = i < i_end && (j >= j_end || A[i] <= B[j]);
      out.C[c] = take_a ? A[i] : B[j];
      out.C_val[c] = take_a ? A_val[i++] : B_val[j++];
    }
  }
  return out;
}

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

// The variant's output; none when the cpu backend's race check stopped it (its report in *race).
std::vector<std::int32_t> run_defective_tiled(defective::tiled_defect d, const std::vector<std::int32_t>& A,
                                              const std::vector<std::int32_t>& B, int grid, int block, int tile,
                                              std::string* race = nullptr) {
  wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(A.size() + B.size());
  d_C.fill_bytes(output_poison);
  const bool raced = wb::testing::race_reported(
      [&] {
        defective::merge_tiled(d, {d_A.data(), static_cast<std::int64_t>(A.size()), d_B.data(),
                                   static_cast<std::int64_t>(B.size()), d_C.data()},
                               grid, block, tile);
        WB_CHECK(cudaDeviceSynchronize());
      },
      race);
  if (raced) return {};
  return d_C.to_host();
}

// A = 0, 2, 4, ...; B = 1, 3, 5, ...: every tile takes half of its outputs from each.
std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>> evens_and_odds(int count) {
  std::vector<std::int32_t> A(count), B(count);
  for (int i = 0; i < count; ++i) {
    A[i] = 2 * i;
    B[i] = 2 * i + 1;
  }
  return {A, B};
}

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

}  // namespace

TEST_SUITE("merge/0 sequential") {
  TEST_CASE("M1: the tail copy after the loop, ties to A (defective variants fail)") {
    // A = {1, 2, 2}, B = {2, 3}: after the first step (1 from A) the M1 loop copies A's
    // tail at once and B is never reached; the strict comparison takes B's 2 before A's.
    const std::vector<std::int32_t> A = {1, 2, 2};
    const std::vector<std::int32_t> B = {2, 3};
    const auto expected = reference(A, B, true);
    const auto A_val = tag_values(3, 0);
    const auto B_val = tag_values(2, 1'000'000'000);
    const auto run_defective = [&](defective::sequential_defect d) {
      merged<std::int32_t> out{std::vector<std::int32_t>(5, -1), std::vector<value_t>(5, -1)};
      defective::merge_sequential(d, A.data(), 3, B.data(), 2, out.C.data(), A_val.data(), B_val.data(), out.C_val.data());
      return out;
    };
    const auto copy = run_defective(defective::sequential_defect::none);
    CHECK(copy.C == expected.C);  // the unmutated copy is right: the mutation is the difference
    CHECK(copy.C_val == expected.C_val);
    const auto tail = run_defective(defective::sequential_defect::M1_tail_in_loop);
    CHECK_MESSAGE(tail.C != expected.C, "the M1 tail-in-loop variant should lose B's elements");
    const auto unstable = run_defective(defective::sequential_defect::M1_unstable);
    CHECK(unstable.C == expected.C);  // the keys are sorted either way...
    CHECK_MESSAGE(unstable.C_val != expected.C_val, "...but the M1 strict variant puts B's 2 before A's");
    // The fix: this track's merge_sequential.
    check_case(0, A, B, true, {}, "M1 example");
  }
}

TEST_SUITE("merge/1 co-rank") {
  TEST_CASE("M2: returning inside the search loop (defective variant fails)") {
    const std::vector<std::int32_t> A = {1, 7, 8, 9, 10};
    const std::vector<std::int32_t> B = {7, 10, 10, 12};
    // k = 3 needs three steps (Figs. 12.6-12.8); the M2 variant stops after the first.
    CHECK(defective::co_rank(defective::co_rank_defect::none, 3, A.data(), 5, B.data(), 4) == 2);
    CHECK(defective::co_rank(defective::co_rank_defect::M2_return_in_loop, 3, A.data(), 5, B.data(), 4) != 2);
    CHECK(track::co_rank_host<std::int32_t>(3, A.data(), 5, B.data(), 4) == 2);
  }

  TEST_CASE("M3: the strict tie test breaks the stable split on duplicates across A and B") {
    // Random small cases with 1-4 distinct keys, merged with one output per thread as the
    // basic kernel does. The strict test lets B[j-1] go before an equal A[i]: neighbouring
    // co-ranks stop being monotone (ranges overlap: on a GPU two threads write the same
    // outputs) and the key-value merge is no longer stable.
    wb::gen::rng rng(wb::testing::seed(13));
    int defective_wrong = 0;
    int defective_keys_wrong = 0;
    int defective_non_monotone = 0;
    int fixed_wrong = 0;
    std::string smallest_wrong;  // this track's smallest failing input, in full
    std::size_t smallest_size = 0;
    const int rounds = 2000;
    for (int round = 0; round < rounds; ++round) {
      const auto distinct = static_cast<std::int32_t>(1 + rng.below(4));
      const auto A = small_sorted(rng, static_cast<std::int64_t>(1 + rng.below(8)), distinct);
      const auto B = small_sorted(rng, static_cast<std::int64_t>(1 + rng.below(8)), distinct);
      const auto m = static_cast<std::int64_t>(A.size());
      const auto n = static_cast<std::int64_t>(B.size());
      const auto expected = reference(A, B, true);
      const auto strict = [&](std::int64_t k) {
        return defective::co_rank(defective::co_rank_defect::M3_strict_tie, k, A.data(), m, B.data(), n);
      };
      const auto fixed = [&](std::int64_t k) { return track::co_rank_host<std::int32_t>(k, A.data(), m, B.data(), n); };
      const auto by_strict = merge_by_co_ranks(A, B, strict);
      const auto by_fixed = merge_by_co_ranks(A, B, fixed);
      defective_wrong += by_strict.C != expected.C || by_strict.C_val != expected.C_val;
      defective_keys_wrong += by_strict.C != expected.C;
      if (by_fixed.C != expected.C || by_fixed.C_val != expected.C_val) {
        ++fixed_wrong;
        if (smallest_wrong.empty() || A.size() + B.size() < smallest_size) {
          smallest_size = A.size() + B.size();
          std::string co_ranks;
          for (std::int64_t k = 0; k <= m + n; ++k) co_ranks += (k > 0 ? " " : "") + std::to_string(fixed(k));
          std::string right;
          for (std::int64_t k = 0; k <= m + n; ++k) {
            right += (k > 0 ? " " : "") + std::to_string(defective::co_rank(defective::co_rank_defect::none, k, A.data(), m,
                                                                            B.data(), n));
          }
          smallest_wrong = "A = " + wb::testing::values_text(A) + ", B = " + wb::testing::values_text(B) +
                           ": your co_rank(k) for k = 0.." + std::to_string(m + n) + " is " + co_ranks +
                           ", the stable split is " + right;
        }
      }
      for (std::int64_t k = 0; k < m + n; ++k) {
        const std::int64_t step = strict(k + 1) - strict(k);
        if (step != 0 && step != 1) {
          ++defective_non_monotone;
          break;
        }
      }
    }
    MESSAGE("M3 variant, " << rounds << " cases: non-monotone co-ranks in " << defective_non_monotone
                           << ", wrong key-value merges in " << defective_wrong << " (wrong keys in "
                           << defective_keys_wrong << ")");
    CHECK(defective_non_monotone > 0);
    CHECK(defective_wrong > 0);
    INFO("the smallest input your co_rank merges wrong: " << smallest_wrong);
    CHECK(fixed_wrong == 0);
  }
}

TEST_SUITE("merge/2 basic") {
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
      MESSAGE("defective kernels run on the cpu backend only (see tests/defective_variants.hpp)");
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

TEST_SUITE("merge/3 tiled") {
  TEST_CASE("M5: a block's range and its tile count rounded down") {
    const std::uint64_t seed = wb::testing::seed(33);
    const auto A = sorted_keys<std::int32_t>(500, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(500, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, false).C;
    // 3 blocks for 1000 outputs: 333 each covers 999; 334 per block in tiles of 64 is 5.2 tiles.
    check_case(3, A, B, false, {16, 64, 0, 3}, "a block's range not a whole number of tiles");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 3, 16, 64) == expected);
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M5_block_range, A, B, 3, 16, 64) != expected,
                  "M5 block range: C[999] is never written");
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M5_iterations, A, B, 3, 16, 64) != expected,
                  "M5 iterations: each block's last 14 outputs are never written");
  }

  TEST_CASE("M6: the consumed count over full tiles reads beyond the filled part (PMPP-cn 12.6 example)") {
    // The translator's example: block 1 gets A_S = [7, 8, 9, -], B_S = [6, 6, 7, 9]; the
    // co-rank of its 4 outputs is 1, the full-tile co-rank reads the unwritten A_S[3].
    const std::vector<std::int32_t> A = {0, 1, 4, 5, 5, 7, 8, 9};
    const std::vector<std::int32_t> B = {1, 1, 3, 6, 6, 7, 9};
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {2, 4, 0, 2}, "the translator's example");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 2, 4) == expected);
    const auto got = run_defective_tiled(defective::tiled_defect::M6_full_tile_lengths, A, B, 2, 2, 4);
    INFO("the cpu backend fills shared memory with 0xA5 bytes: A_S[3] reads as -1515870811");
    CHECK_MESSAGE(got != expected, "the M6 variant should count 4 consumed A elements instead of 1");
  }

  TEST_CASE("M7: B's offset from the running total, and the missing end-of-tile barrier") {
    const auto [A, B] = evens_and_odds(24);  // 2 blocks x 3 tiles of 8
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 8, 0, 2}, "evens and odds, three tiles a block");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 8) == expected);
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M7_running_offset, A, B, 2, 4, 8) != expected,
                  "M7: the third tile loads B from the wrong place");
    wb::testing::under_fixed_orders([&](const char* order) {
      INFO("scheduling order " << order);
      CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 8) == expected);
#if defined(WB_BACKEND_CPU)  // a GPU may or may not show the race on one run: racecheck does
      std::string race;
      CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M7_no_end_barrier, A, B, 2, 4, 8, &race) != expected,
                    "M7: without the barrier the next tile's load overwrites what other threads still merge");
      // The cpu backend's race check names it, whatever the order: a shared-memory write and
      // another thread's read with no barrier between.
      if (wb::testing::race_check_active()) CHECK(race.find("data race on shared memory") != std::string::npos);
#endif
    });
  }

  TEST_CASE("M8: block co-ranks passed through the tile buffer race with the first load") {
    const auto [A, B] = evens_and_odds(32);  // 4 blocks of 16 outputs
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 8, 0, 4}, "evens and odds, two tiles a block");
    if (!defective_kernels_run) return;
    wb::testing::under_fixed_orders([&](const char* order) {
      INFO("scheduling order " << order);
      CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 4, 4, 8) == expected);
#if defined(WB_BACKEND_CPU)  // a GPU may or may not show the race on one run: racecheck does
      std::string race;
      CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M8_co_ranks_in_tile, A, B, 4, 4, 8, &race) != expected,
                    "M8: a thread reads a tile element as its block's co-rank");
      if (wb::testing::race_check_active()) CHECK(race.find("data race on shared memory") != std::string::npos);
#endif
    });
  }

  TEST_CASE("M11: tile_size not a multiple of blockDim.x") {
    const std::uint64_t seed = wb::testing::seed(34);
    const auto A = sorted_keys<std::int32_t>(47, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(53, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 10, 0, 2}, "a tile that 4 threads do not divide");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 10) == expected);
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M11_floor_share, A, B, 2, 4, 10) != expected,
                  "M11: 10/4 = 2 outputs per thread leaves 2 of every 10 unwritten");
  }
}

TEST_SUITE("merge/4 circular") {
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
    check_case(4, A, B, false, {4, 8, 0, 2}, "uneven inputs, several tiles a block");
    // B's refill count from A_length (the translation's note): few A elements, many B elements.
    const auto A_few = sorted_keys<std::int32_t>(3, distribution::uniform, seed + 1, 0);
    const auto B_many = sorted_keys<std::int32_t>(100, distribution::uniform, seed + 1, 1);
    const auto expected_few = reference(A_few, B_many, false).C;
    check_case(4, A_few, B_many, false, {4, 8, 0, 1}, "few A elements, many B elements");
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
