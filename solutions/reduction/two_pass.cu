// Stage 1: the two-pass reduction (CUDA Handbook §12.2, listing 12-1).
//
// Pass 1: `blocks` blocks each reduce a grid-stride share of the input to one partial sum.
// Pass 2: the same kernel, one block, reduces the partial sums to the answer.
// Inside a block: every thread adds up its items, stores that in shared memory, and a
// log-step tree halves the number of active threads until partials[0] holds the block's sum.
#include <cstdint>

#include "reduction.hpp"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Reads n items of type T, writes one sum of type S per block to out[blockIdx.x].
// Needs blockDim.x * sizeof(S) bytes of dynamic shared memory; blockDim.x a power of two.
template <class T, class S>
__global__ void two_pass_kernel(S* out, const T* in, std::int64_t n) {
  S* partials = wb::dynamic_shared<S>();  // the Handbook's sPartials
  const int tid = threadIdx.x;

  // Grid-stride loop: in one sweep the threads of the grid read neighbouring items, so
  // each warp's loads are coalesced. Indices are 64-bit: n may pass 2^31. The accumulator
  // is S, 64 bits for int32 input (R5: the printed `int sum` overflows).
  S sum = 0;
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    sum += in[i];
  }
  partials[tid] = sum;
  __syncthreads();

  // Log-step tree: the upper half of the active partials is added onto the lower half.
  // R1: the printed loop steps with `activeThreads >= 1`, a comparison whose value is
  // thrown away, so it never narrows; the step is a shift.
  // R2: halving only meets every partial when blockDim.x is a power of two (validate()).
  for (int active = blockDim.x >> 1; active > 0; active >>= 1) {
    if (tid < active) partials[tid] += partials[tid + active];
    __syncthreads();
  }

  if (tid == 0) out[blockIdx.x] = partials[0];
}

template <class T>
void sum_two_pass(const T* in, std::int64_t n, sum_t<T>* out, const workspace<T>& ws,
                  const config& cfg) {
  using S = sum_t<T>;
  // R2, R4: a power of two from 32 to 1024; a grid that covers n, partials for every block.
  const std::int64_t blocks = two_pass_blocks(n, cfg, ws.capacity, "sum_two_pass");
  const std::size_t shared = static_cast<std::size_t>(cfg.block) * sizeof(S);

  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block), shared},
             two_pass_kernel<T, S>, ws.partials, in, n);
  wb::launch({dim3(1), dim3(cfg.block), shared}, two_pass_kernel<S, S>, out,
             static_cast<const S*>(ws.partials), blocks);
}

}  // namespace reduction::WB_TRACK

#include "two_pass_host.inl"  // the explicit instantiations, shared by both tracks
