// Stage 1: the two-pass reduction (CUDA Handbook §12.2, listing 12-1).
//
// Pass 1: `blocks` blocks each reduce a grid-stride share of the input to one partial sum.
// Pass 2: the same kernel, one block, reduces the partial sums to the answer.
#include <cstdint>

#include "reduction.hpp"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

// Reads n items of type T, writes one sum of type S per block to out[blockIdx.x].
// Has blockDim.x * sizeof(S) bytes of dynamic shared memory (wb::dynamic_shared<S>(), the
// Handbook's sPartials); blockDim.x is a power of two.
template <class T, class S>
__global__ void two_pass_kernel(S* out, const T* in, std::int64_t n) {
  // TODO(reduction/1): listing 12-1. Each thread adds up its grid-stride share of the input
  // (n may pass 2^31; an int32 sum needs 64 bits: R5), then the block combines its threads'
  // sums with the log-step tree in shared memory (R1, R2), and one thread writes the
  // block's sum.
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
  // TODO(reduction/1): the second pass: the same kernel reduces the `blocks` partial sums
  // to *out.
}

}  // namespace reduction::WB_TRACK

#include "two_pass_host.inl"  // the explicit instantiations, shared by both tracks
