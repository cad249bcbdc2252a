// Stage 5: a reduction at the memory ceiling. A sum does one add per item loaded, so once the
// block's reduction is cheap (stage 4) the question is how fast the input comes in. Three
// changes from stage 4:
//   1. 16-byte loads (vector16<T> and lanes_sum in vector16.cuh);
//   2. several independent loads issued before the first add (bytes in flight = bandwidth x
//      latency: Little's law), the block's loads together covering one contiguous tile;
//   3. one pass: each block leaves its partial in global memory and the block that finishes
//      last sums the partials (last-block-done, as in the CUDA samples' threadFenceReduction).
// Uses block_sum from stage 4 (warp_reduce_shuffle.cuh).
#include <cstdint>

#include "reduction.hpp"
#include "vector16.cuh"
#include "warp_reduce_shuffle.cuh"
#include "wb/kernel.hpp"

namespace reduction::WB_TRACK {

inline constexpr int kLoadsInFlight = 4;  // vector loads a thread issues before its first add

// Writes the sum of in[0, n) to *out. `partials` holds a sum per block; *ticket is 0 at the
// start of every launch and must be 0 again at its end.
template <class T, class S>
__global__ void at_bandwidth_kernel(S* out, S* partials, unsigned int* ticket,
                                    const T* __restrict__ in, std::int64_t n) {
  // TODO(reduction/5): read the input as 16-byte vectors, kLoadsInFlight of them in flight
  // per thread, with scalar loads for a misaligned start and a ragged end; sum the block
  // with block_sum; then the last block to finish (an atomic ticket, after a fence) sums
  // the blocks' partials.
}

}  // namespace reduction::WB_TRACK

#include "at_bandwidth_host.inl"  // the host side (one wave, one launch), shared by both tracks
