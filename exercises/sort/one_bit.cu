// Stage 1: radix sort, one bit per pass (PMPP §13.3).
//
// Each pass splits the keys by one bit: every key whose bit is 0 goes before every key whose
// bit is 1, each group in input order (stable: the order earlier passes established). The
// count and the scan are the shared steps (radix_passes.hpp); this file is the scatter: each
// thread finds its key's place from the scanned bucket offsets and the number of keys before
// it in its block that share its bit.
#include <cstdint>

#include "block_helpers.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// One key per thread; block b covers keys [b * blockDim.x, (b + 1) * blockDim.x).
// offsets[d * blocks + b]: where block b's keys with bit d start in dst. Shared memory:
// blockDim.x ints.
template <class K>
__global__ void one_bit_scatter_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                       std::uint32_t* dst_values, const std::int64_t* offsets, std::int64_t n,
                                       int shift, std::int64_t blocks) {
  // TODO(sort/1): place this thread's key (and value) in dst: the start of its block's keys
  // with the same bit (offsets, digit-major) plus the keys before it in the block that share
  // its bit (PMPP §13.3), so that each pass is stable.
}

}  // namespace sort::WB_TRACK

#include "one_bit_host.inl"  // the host side of stage 1, shared by both tracks
