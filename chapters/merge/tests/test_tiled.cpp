// Stage 3: the tiled kernel; M5, M6, M7, M8, M11 regressions.
#include <functional>

#include "defective.hpp"
#include "helpers.hpp"
#include "wb/race_check.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

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

// A race shows up on the cpu backend under a fixed scheduling order: run `f` under
// in-order and reverse, then restore the order this run was started with.
void under_fixed_orders(const std::function<void(const char*)>& f) {
#if defined(WB_BACKEND_CPU)
  const std::string saved = wb::cpu::schedule_order_name();
  for (const char* order : {"in-order", "reverse"}) {
    wb::cpu::set_schedule_order(order);
    f(order);
  }
  wb::cpu::set_schedule_order(saved);
#else
  (void)f;
#endif
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

}  // namespace

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
    check_case(3, A, B, true, {1, 1, 0, 4}, "tile 1, block 1");
    check_case(3, A, B, true, {3, 1, 0, 1}, "tile 1, block 3");
  }

  TEST_CASE("rejects what it cannot run (M11)") {
    const std::vector<std::int32_t> A = {1, 2, 3};
    CHECK_THROWS_AS(run_stage(3, A, A, false, {2000, 8, 0, 1}), std::invalid_argument);  // block > 1024
    CHECK_THROWS_AS(run_stage(3, A, A, false, {128, 1 << 20, 0, 1}), std::invalid_argument);  // 8 MiB of shared memory
    CHECK_THROWS_AS(run_stage(3, A, A, false, {128, -4, 0, 1}), std::invalid_argument);
  }

  TEST_CASE("M5: a block's range and its tile count rounded down") {
    const std::uint64_t seed = wb::testing::seed(33);
    const auto A = sorted_keys<std::int32_t>(500, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(500, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, false).C;
    // 3 blocks for 1000 outputs: 333 each covers 999; 334 per block in tiles of 64 is 5.2 tiles.
    check_case(3, A, B, false, {16, 64, 0, 3}, "3 blocks, tile 64");
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
    check_case(3, A, B, false, {2, 4, 0, 2}, "2 blocks x 2 threads, tile_size 4");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 2, 4) == expected);
    const auto got = run_defective_tiled(defective::tiled_defect::M6_full_tile_lengths, A, B, 2, 2, 4);
    INFO("the cpu backend fills shared memory with 0xA5 bytes: A_S[3] reads as -1515870811");
    CHECK_MESSAGE(got != expected, "the M6 variant should count 4 consumed A elements instead of 1");
  }

  TEST_CASE("M7: B's offset from the running total, and the missing end-of-tile barrier") {
    const auto [A, B] = evens_and_odds(24);  // 2 blocks x 3 tiles of 8
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 8, 0, 2}, "2 blocks x 4 threads, tile 8");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 8) == expected);
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M7_running_offset, A, B, 2, 4, 8) != expected,
                  "M7: the third tile loads B from the wrong place");
    under_fixed_orders([&](const char* order) {
      INFO("scheduling order " << order);
      CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 8) == expected);
      std::string race;
      CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M7_no_end_barrier, A, B, 2, 4, 8, &race) != expected,
                    "M7: without the barrier the next tile's load overwrites what other threads still merge");
      // The cpu backend's race check names it, whatever the order: a shared-memory write and
      // another thread's read with no barrier between.
      if (wb::testing::race_check_active()) CHECK(race.find("data race on shared memory") != std::string::npos);
    });
  }

  TEST_CASE("M8: block co-ranks passed through the tile buffer race with the first load") {
    const auto [A, B] = evens_and_odds(32);  // 4 blocks of 16 outputs
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 8, 0, 4}, "4 blocks x 4 threads, tile 8");
    if (!defective_kernels_run) return;
    under_fixed_orders([&](const char* order) {
      INFO("scheduling order " << order);
      CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 4, 4, 8) == expected);
      std::string race;
      CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M8_co_ranks_in_tile, A, B, 4, 4, 8, &race) != expected,
                    "M8: a thread reads a tile element as its block's co-rank");
      if (wb::testing::race_check_active()) CHECK(race.find("data race on shared memory") != std::string::npos);
    });
  }

  TEST_CASE("M11: tile_size not a multiple of blockDim.x") {
    const std::uint64_t seed = wb::testing::seed(34);
    const auto A = sorted_keys<std::int32_t>(47, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(53, distribution::uniform, seed, 1);
    const auto expected = reference(A, B, false).C;
    check_case(3, A, B, false, {4, 10, 0, 2}, "tile 10 over 4 threads");
    if (!defective_kernels_run) return;
    CHECK(run_defective_tiled(defective::tiled_defect::none, A, B, 2, 4, 10) == expected);
    CHECK_MESSAGE(run_defective_tiled(defective::tiled_defect::M11_floor_share, A, B, 2, 4, 10) != expected,
                  "M11: 10/4 = 2 outputs per thread leaves 2 of every 10 unwritten");
  }
}
