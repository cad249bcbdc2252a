// Deliberately defective variants of the chapter's kernels, written as small mutations of the
// solutions: each test in test_defects.cpp and test_races.cpp shows its variant failing where
// the fix passes.
//   MM1              stage 2 as printed: Width / TILE_WIDTH blocks and phases, no bounds checks
//   missing barrier  stage 2 without one of its two __syncthreads()
//   k off by one     stage 1 with `k <= K`: one term too many, read past the row
#pragma once

#include <cstdint>

namespace matmul::defective {

enum class tiled_defect {
  assumes_multiple_of_tile,  // MM1
  no_barrier_after_load,  // reads the tiles before every thread has stored its element
  no_barrier_after_compute,  // the next phase's stores overwrite tiles others still read
};

// C = A B (device pointers, row-major) with the defective 16 x 16 tiled kernel.
void matmul_tiled(tiled_defect defect, const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                  std::int64_t K);
// C = A B with stage 1's kernel (x-column) whose k loop runs one step too far.
void matmul_naive_k_off_by_one(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                               std::int64_t K);

}  // namespace matmul::defective
