// Stage 5: tensor cores through WMMA (bf16 in, fp32 sums), fed by a cp.async pipeline.
//
// With WMMA a warp loads a 16 x 16 fragment of A and one of B from shared memory
// (load_matrix_sync), multiplies them and adds the product to a 16 x 16 float fragment it keeps
// in registers (mma_sync), and at the end stores the fragment (store_matrix_sync). How a
// fragment's elements spread over the lanes is unspecified. Each warp owns a WM x WN tile:
// FRAGS_M x FRAGS_N accumulators. STAGES slices live in shared memory; while the warps
// multiply slice s, the copies of the next STAGES - 1 slices are in flight.
#pragma once
#include "wb/async_copy.hpp"
#include "wb/kernel.hpp"
#include "wb/wmma.hpp"

#include "async_tile_loads.cuh"
#include "matmul.hpp"
#include "tile_grid.hpp"
#include "wmma_shape.hpp"

namespace matmul::WB_TRACK {

namespace wmma = nvcuda::wmma;

template <class S>
__global__ void __launch_bounds__(S::THREADS)
    matmul_wmma_kernel(const wb::bf16* A, const wb::bf16* B, wb::bf16* C, std::int64_t M, std::int64_t N,
                       std::int64_t K, std::int64_t tiles_n, bool async_a, bool async_b) {
  // TODO(matmul/5): the dynamic shared memory (wb::dynamic_shared), from its first 128-byte
  // boundary, holds STAGES slices of A (S::A_SLICE bf16 each), STAGES of B, then the warps'
  // 16 x 16 float staging tiles (S::SHARED_BYTES in all). Start the first STAGES - 1 slices (one cp_async_commit each);
  // for every slice: wait until it has landed (cp_async_wait<STAGES - 2>, __syncthreads), start slice s + STAGES - 1
  // into the buffer slice s - 1 used, commit, and let each warp load its fragments of A and B and mma_sync them into
  // its accumulators. Then cp_async_wait<0>, and each accumulator through the warp's 16 x 16 staging tile into C as
  // bf16 (inside C only).
}

}  // namespace matmul::WB_TRACK
