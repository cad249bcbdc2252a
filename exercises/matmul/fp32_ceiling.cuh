// Stage 4: the fp32 ceiling without tensor cores.
//
// Stage 3's register tile, with each of the costs that remain taken away: 16-byte loads, A
// stored transposed in shared memory, no bank conflicts, warp tiles, double buffering (the
// next slice loads into registers while the block multiplies the current one).
#pragma once
#include "wb/kernel.hpp"

#include "fp32_ceiling_shape.hpp"
#include "fp32_tile_loads.cuh"
#include "fp32_warp_tile.cuh"
#include "matmul.hpp"
#include "tile_grid.hpp"

namespace matmul::WB_TRACK {

template <class S>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    matmul_fp32_ceiling_kernel(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K,
                               std::int64_t tiles_n, bool vector_a, bool vector_b, bool vector_c) {
  // TODO(matmul/4): in shared memory, S::BUFFERS buffers of each slice, 16-byte aligned:
  // A_S[S::BUFFERS][S::BK * S::LDA] and B_S[S::BUFFERS][S::BK * S::BN]; the thread's slice_loader. Load and store
  // slice 0, a barrier; then for
  // every slice: start loading the next one into registers, multiply this one, store the next into the other buffer
  // (with one buffer: after a barrier), a barrier. At the end, store_tile.
}

}  // namespace matmul::WB_TRACK
