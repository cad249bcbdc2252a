// How the stages' grids cover C: one block per tile of C, blocks numbered row by row, so any
// M and N fit a one-dimensional grid (gridDim.x < 2^31) instead of the 65535 limit of
// gridDim.y. Host and device code; both tracks include it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "wb/launch.hpp"  // wb::ceil_div (host code includes this header too)
#include "wb/runtime.hpp"

namespace matmul {

struct tile_coord {
  std::int64_t row;  // tile row: rows [row * tile_rows, (row + 1) * tile_rows) of C
  std::int64_t col;  // tile column
};

// Block `block` of a row-by-row numbering of tiles_n tiles per row.
__host__ __device__ inline tile_coord tile_of_block(std::int64_t block, std::int64_t tiles_n) {
  return {block / tiles_n, block % tiles_n};
}

// Blocks for one block per tile_rows x tile_cols tile of an M x N output (0 when C is empty);
// std::invalid_argument past the 2^31 - 1 blocks of a grid.
inline unsigned tile_blocks(std::int64_t M, std::int64_t N, std::int64_t tile_rows, std::int64_t tile_cols,
                            const char* stage) {
  const std::int64_t blocks = wb::ceil_div(M, tile_rows) * wb::ceil_div(N, tile_cols);
  if (blocks > 0x7FFFFFFF) {
    throw std::invalid_argument(std::string(stage) + ": " + std::to_string(blocks) +
                                " tiles do not fit one grid (at most 2^31 - 1 blocks)");
  }
  return static_cast<unsigned>(blocks);
}

// The variant index of a stage's config, checked against the number of variants it has.
inline int checked_variant(int variant, int count, const char* stage) {
  if (variant < 0 || variant >= count) {
    throw std::invalid_argument(std::string(stage) + ": no variant " + std::to_string(variant) + " (it has " +
                                std::to_string(count) + ", see variants.hpp)");
  }
  return variant;
}

}  // namespace matmul
