// Stage 2: the two-pass reduction with a warp-synchronous tail (CUDA Handbook §12.2,
// listing 12-2). Stage 1 pays a block-wide __syncthreads() for every step of the tree; the
// last steps involve fewer than 32 threads, so the book hands them to warp 0.
#include <cstdint>

#include "reduction.hpp"
#include "warp_reduce_sync.cuh"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

template <class T, class S>
__global__ void warp_synchronous_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;

  S sum = 0;  // R5: 64 bits for int32 input
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  // TODO(reduction/2): listing 12-2. Stage 1's tree while more than a warp's work is left,
  // then warp 0 alone finishes the last partials with warp_tail_sum (warp_reduce_sync.cuh).

  if (tid == 0) out[blockIdx.x] = partials[0];
}

}  // namespace reduction::WB_TRACK

#include "warp_synchronous_host.inl"  // the host side (two passes), shared by both tracks
