// Stage 4: the fp32 ceiling without tensor cores.
//
// Stage 3's register tile, with each of the costs that remain taken away (the variants in
// variants.hpp put each step back to measure it):
//   - 16-byte loads from global and shared memory (fp32_tile_loads.cuh, fp32_warp_tile.cuh);
//   - A stored transposed in shared memory, so a thread's column of A is a float4 read;
//   - no bank conflicts on the transposed stores (a swizzled or padded A_S);
//   - warp tiles: the lanes of a warp arranged so that every shared-memory load is one
//     access (fp32_ceiling_shape.hpp);
//   - double buffering: the next slice is loaded from global memory into registers while the
//     block multiplies the current one, and stored into the other shared buffer after it, so
//     one barrier per slice suffices and the loads' latency hides behind the arithmetic.
// What is left is the multiply-adds: 64 of them per 4 shared-memory loads per thread and k.
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
  __align__(16) __shared__ float A_S[S::BUFFERS][S::BK * S::LDA];
  __align__(16) __shared__ float B_S[S::BUFFERS][S::BK * S::BN];
  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const std::int64_t row0 = tile.row * S::BM;
  const std::int64_t col0 = tile.col * S::BN;
  const int tid = static_cast<int>(threadIdx.x);
  const thread_tile<S> mine(tid);

  float acc[S::TM][S::TN] = {};
  slice_loader<S> from(A, B, M, N, K, row0, col0, tid, vector_a, vector_b);
  slice_registers<S> regs;
  const std::int64_t slices = wb::ceil_div(K, S::BK);
  if (slices > 0) {
    load_slices<S>(regs, from, K);
    store_slices<S>(regs, A_S[0], B_S[0], tid);
  }
  __syncthreads();
  for (std::int64_t s = 0; s < slices; ++s) {
    const int current = S::DOUBLE_BUFFER ? static_cast<int>(s & 1) : 0;
    const bool more = s + 1 < slices;
    // The next slice's loads are in flight while the block multiplies this one.
    if (more) load_slices<S>(regs, from, K - (s + 1) * S::BK);
    multiply_slice<S>(acc, A_S[current], B_S[current], mine);
    if (more) {
      // One buffer: everyone must be done reading it before it is overwritten. Two: the other
      // buffer was last read before the previous barrier, so it is free.
      if (!S::DOUBLE_BUFFER) __syncthreads();
      store_slices<S>(regs, A_S[S::DOUBLE_BUFFER ? current ^ 1 : 0], B_S[S::DOUBLE_BUFFER ? current ^ 1 : 0], tid);
    }
    __syncthreads();  // the stored slice is complete before the next multiply reads it
  }
  store_tile<S>(acc, C, M, N, row0, col0, mine, vector_c);
}

}  // namespace matmul::WB_TRACK
