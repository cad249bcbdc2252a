// Stage 6, the bookkeeping: where in the ring of shared-memory stages the n-th k-block goes,
// which phase of its barriers to wait for, and in which order a persistent block takes its
// tiles. Plain arithmetic, host and device: the cpu backend checks it.
#pragma once

#include <cstdint>

#include "tile_grid.hpp"
#include "wb/runtime.hpp"

namespace matmul::WB_TRACK::hopper {

// The n-th k-block a block moves through the ring (counting on across its tiles) uses stage
// n % stages. Each pass over the ring completes one phase of every stage's barriers, so the
// k-block waits for the phase whose parity is (n / stages) % 2 of its stage's `full` barrier;
// the producer, before refilling the stage, waits for the `empty` barrier's previous phase
// (parity ^ 1), which a fresh barrier counts as complete: the first pass does not wait.
struct ring_position {
  int stage;
  std::uint32_t parity;
};
__host__ __device__ constexpr ring_position ring_at(std::uint32_t n, int stages) {
  return {static_cast<int>(n % static_cast<std::uint32_t>(stages)), (n / static_cast<std::uint32_t>(stages)) & 1u};
}

// Tile t of a tiles_m x tiles_n grid of tiles, in groups of `group` tile rows: within a group
// the tiles go down its rows first, then across. Blocks that run at the same time then share
// the rows of A and the columns of B they read, and those stay in the L2 cache. group = 1 is
// plain row-by-row order.
__host__ __device__ inline tile_coord grouped_tile(std::int64_t t, std::int64_t tiles_m, std::int64_t tiles_n,
                                                   std::int64_t group) {
  const std::int64_t per_group = group * tiles_n;
  const std::int64_t first_row = (t / per_group) * group;
  const std::int64_t rows = tiles_m - first_row < group ? tiles_m - first_row : group;
  const std::int64_t in_group = t % per_group;
  return {first_row + in_group % rows, in_group / rows};
}

}  // namespace matmul::WB_TRACK::hopper
