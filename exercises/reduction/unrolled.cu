// Stage 3: the fully unrolled two-pass reduction (CUDA Handbook §12.2, listings 12-3 and
// 12-4). The block size becomes a template parameter, so the tree (block_sum_unrolled) and
// the grid-stride stride are compile-time constants; the host picks the instantiation with
// a switch over the block sizes.
#include <cstdint>
#include <stdexcept>

#include "block_reduce_unrolled.cuh"
#include "reduction.hpp"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

template <int kThreads, class T, class S>
__global__ void __launch_bounds__(kThreads) unrolled_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();
  const int tid = threadIdx.x;

  S sum = 0;  // R5: 64 bits for int32 input
  const std::int64_t stride = static_cast<std::int64_t>(kThreads) * gridDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + tid; i < n; i += stride) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  block_sum_unrolled<kThreads>(partials, tid);

  if (tid == 0) out[blockIdx.x] = partials[0];
}

// Listing 12-4's Reduction3_template: both passes with one block size.
template <int kThreads, class T, class S>
void sum_unrolled_with(const T* in, std::int64_t n, S* out, S* partials, std::int64_t blocks) {
  const std::size_t shared = kThreads * sizeof(S);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(kThreads), shared},
             unrolled_kernel<kThreads, T, S>, partials, in, n);
  wb::launch({dim3(1), dim3(kThreads), shared}, unrolled_kernel<kThreads, S, S>, out,
             static_cast<const S*>(partials), blocks);
}

template <class T>
void sum_unrolled(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                  const config& cfg) {
  const std::int64_t blocks = two_pass_blocks(n, cfg, ws.capacity, "sum_unrolled");  // R2, R4
  sum_t<T>* partials = ws.partials;

  // TODO(reduction/3): listing 12-4's switch: one case for every block size this stage
  // accepts, and nothing may pass silently (the book's switch: R4, R6).
  switch (cfg.block) {
    case 256: return sum_unrolled_with<256>(in, n, out, partials, blocks);
  }
}

}  // namespace reduction::WB_TRACK

#include "unrolled_host.inl"  // the explicit instantiations, shared by both tracks
