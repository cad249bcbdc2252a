// Stage 2: tiles in shared memory (PMPP §5.4, Fig. 5.9), with the boundary checks of §5.5
// (Fig. 5.13) for any M, N, K.
//
// A block of TILE_WIDTH x TILE_WIDTH threads computes one tile of C, walking K one phase at a
// time through shared tiles of A and B. MM1: the book's listing assumes the width is a
// multiple of TILE_WIDTH.
#include "wb/kernel.hpp"

#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

template <int TILE_WIDTH>
__global__ void matmul_tiled_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N,
                                    std::int64_t K, std::int64_t tiles_n) {
  // TODO(matmul/2): the tiled kernel of PMPP §5.4 (Fig. 5.9) with the boundary checks of §5.5
  // (Fig. 5.13): phase by phase, each thread loads one element of A and one of B into shared
  // tiles A_S and B_S (__shared__ float [TILE_WIDTH][TILE_WIDTH]; 0 outside the matrices), the block waits, each thread
  // adds its TILE_WIDTH products, the block waits again; the thread stores its output if it lies inside C.
}

}  // namespace matmul::WB_TRACK

#include "tiled_host.inl"  // the host side of stage 2, shared by both tracks
