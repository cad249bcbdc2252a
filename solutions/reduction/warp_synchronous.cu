// Stage 2: the two-pass reduction with a warp-synchronous tail (CUDA Handbook §12.2,
// listing 12-2). Stage 1 pays a block-wide __syncthreads() for every step of the tree; the
// last five steps involve fewer than 32 threads, so the book hands them to warp 0, which
// needs no block barrier. Fixed for today's GPUs: see warp_tail_sum (R3, R4).
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

  // The block-wide steps, while more than 64 partials are left (R1: the step is >>= 1).
  for (int active = blockDim.x >> 1; active > 32; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }

  // The last 64 (or 32) partials: warp 0 alone.
  if (tid < 32) warp_tail_sum(partials, tid, static_cast<int>(blockDim.x));

  if (tid == 0) out[blockIdx.x] = partials[0];
}

}  // namespace reduction::WB_TRACK

#include "warp_synchronous_host.inl"  // the host side (two passes), shared by both tracks
