// Stage 1 (exercise): the two-pass reduction (CUDA Handbook §12.2, listing 12-1).
//
// Pass 1: `blocks` blocks each reduce a grid-stride share of the input to one partial sum.
// Pass 2: the same kernel, one block, reduces the partial sums to the answer.
// The host code is written; the kernel is yours.
#include <cstdint>

#include "reduction.hpp"
#include "wb/exercise.hpp"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// TODO(stage 1): write the kernel, then set this to true.
constexpr bool kImplemented = false;

// Reads n items of type T, writes one sum of type S per block to out[blockIdx.x].
// Has blockDim.x * sizeof(S) bytes of dynamic shared memory; blockDim.x is a power of two.
template <class T, class S>
__global__ void two_pass_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();  // the Handbook's sPartials
  const int tid = threadIdx.x;
  // TODO(stage 1):
  //  1. sum = 0 (of type S: 64 bits for int32 input, R5); add in[i] for
  //     i = wb::global_thread_index(), then i += wb::grid_thread_count() while i < n
  //     (64-bit indices: n may pass 2^31);
  //  2. partials[tid] = sum; __syncthreads();
  //  3. the log-step tree: for active = blockDim.x / 2 down to 1, halving each step
  //     (active >>= 1; the book prints `>= 1`, defect R1): threads below `active` add
  //     partials[tid + active] to partials[tid]; __syncthreads() after every step;
  //  4. thread 0 writes partials[0] to out[blockIdx.x].
  (void)partials;
  (void)tid;
  (void)out;
  (void)in;
  (void)n;
}

template <class T>
void sum_two_pass(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                  const config& cfg) {
  using S = sum_t<T>;
  validate(cfg);  // R2, R4: a power of two from 32 to 1024
  if (!kImplemented) wb::not_implemented("reduction/1 two-pass");
  const std::int64_t blocks = grid_blocks(n, cfg, cfg.block);
  require_partials(ws.capacity, blocks, "sum_two_pass");
  const std::size_t shared = static_cast<std::size_t>(cfg.block) * sizeof(S);

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block), shared},
             two_pass_kernel<T, S>, ws.partials, in, n);
  wb::launch({dim3(1), dim3(cfg.block), shared}, two_pass_kernel<S, S>, out,
             static_cast<const S*>(ws.partials), blocks);
}

REDUCTION_INSTANTIATE_DEVICE_STAGE(sum_two_pass)

}  // namespace reduction::WB_TRACK
