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
  // TODO(matmul/6): the stage of the n-th k-block and the parity of its pass over the ring.
  return {0, 0};
}

// Tile t of a tiles_m x tiles_n grid of tiles, in groups of `group` tile rows: within a group
// the tiles go down its rows first, then across. Blocks that run at the same time then share
// the rows of A and the columns of B they read, and those stay in the L2 cache. group = 1 is
// plain row-by-row order.
__host__ __device__ inline tile_coord grouped_tile(std::int64_t t, std::int64_t tiles_m, std::int64_t tiles_n,
                                                   std::int64_t group) {
  // TODO(matmul/6): which group of `group` tile rows t falls in (the last may be shorter), then
  // down that group's rows first and across its columns second.
  return {0, 0};
}

}  // namespace matmul::WB_TRACK::hopper
