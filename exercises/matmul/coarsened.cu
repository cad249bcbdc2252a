// Stage 3: thread coarsening (PMPP §6.3, Fig. 6.13), then the 2-D register tile it leads to.
//
//   coarse-4      each thread computes COARSE_FACTOR outputs along a row of C, so the A element
//                 it loads into A_S serves COARSE_FACTOR tiles of B;
//   register-8x8  each thread owns an 8 x 8 block of C in registers and, at each k, adds the
//                 outer product of 8 values of A's column k and 8 of B's row k.
#include "wb/kernel.hpp"

#include "coarsened_shape.hpp"
#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

// ---- coarse-4: PMPP's coarsened tiled kernel, with the boundary checks of stage 2 (MM1) ----
// A block of 16 x 16 threads computes 16 rows x (16 * COARSE_FACTOR) columns of C.
__global__ void matmul_coarse_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                     std::int64_t K, std::int64_t tiles_n) {
  // TODO(matmul/3): PMPP §6.3 (Fig. 6.13): stage 2 with COARSE_FACTOR outputs per thread, columns
  // COARSE_TILE apart: per phase, A_S once, then for each output its own tile of B in B_S (both
  // __shared__ float [COARSE_TILE][COARSE_TILE]).
}

// ---- register-8x8: a 2-D register tile per thread ------------------------------------------
// (the shapes: coarsened_shape.hpp)
// Thread (ty, tx) owns rows ty + 16 i and columns tx + 16 j (i, j < 8) of the block's tile.
__global__ void matmul_register_tile_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                            std::int64_t K, std::int64_t tiles_n) {
  // TODO(matmul/3): slice by slice of K, the block loads REG_BM x REG_BK of A and REG_BK x REG_BN
  // of B into shared memory (A_S[REG_BM][REG_BK], B_S[REG_BK][REG_BN]; 0 outside the matrices); at each k every thread
  // reads its 8 values of A's column and 8 of B's row into registers and adds their outer product into its 8 x 8
  // accumulators; at the end it stores the accumulators that lie inside C.
}

}  // namespace matmul::WB_TRACK

#include "coarsened_host.inl"  // the host side of stage 3, shared by both tracks
