// Stage 4: two passes again, but the block's sum comes from warp shuffles (block_sum in
// warp_reduce_shuffle.cuh) instead of a tree in shared memory: log2(32) = 5 register-to-
// register steps inside each warp, one __syncthreads() per block instead of log2(block),
// and no dynamic shared memory at all.
#include <cstdint>

#include "reduction.hpp"
#include "warp_reduce_shuffle.cuh"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

template <class T, class S>
__global__ void shuffle_kernel(S* out, const T* in, std::int64_t n) {
  S sum = 0;  // R5: 64 bits for int32 input
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    sum += in[i];
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <class T>
void sum_shuffle(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                 const config& cfg) {
  using S = sum_t<T>;
  validate(cfg);  // a whole number of warps (R4), up to 1024
  const std::int64_t blocks = grid_blocks(n, cfg, cfg.block);
  require_partials(ws.capacity, blocks, "sum_shuffle");

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block)}, shuffle_kernel<T, S>,
             ws.partials, in, n);
  wb::launch({dim3(1), dim3(cfg.block)}, shuffle_kernel<S, S>, out,
             static_cast<const S*>(ws.partials), blocks);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_shuffle)

}  // namespace reduction::WB_TRACK
