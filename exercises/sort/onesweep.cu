// Stage 5: onesweep radix sort (Adinets & Merrill 2022, the design of CUB's
// DeviceRadixSort), 8-bit digits.
//
// Stages 1-4 read the keys twice per pass (count, then scatter) and scan a count per block
// and bucket. Onesweep reads them once per pass:
//   - one histogram kernel counts every digit of every key in a single read of the input:
//     the bucket starts of every pass are known before the first pass;
//   - each pass is one kernel: a tile (index from an atomic counter) counts its digits,
//     publishes them per bucket at once (partial), and finds how many keys of each bucket
//     all earlier tiles hold by a decoupled look-back over their published counts (the scan
//     chapter's stage 6, one look-back per bucket); then it sorts itself locally
//     (local_sort.cuh's split) and writes each bucket's run.
#include <cstdint>

#include "local_sort.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// Look-back status word per (tile, bucket): 2 bits of state above 62 bits of count, written
// and read as one 64-bit access, so a reader never sees a state without its count.
inline constexpr unsigned long long status_partial = 1ull << 62;
inline constexpr unsigned long long status_inclusive = 2ull << 62;
inline constexpr unsigned long long status_count_mask = (1ull << 62) - 1;

// Every pass's digit histogram in one read: histogram[pass * 256 + digit] (zero before).
template <class K>
__global__ void onesweep_histogram_kernel(const K* keys, std::int64_t n, int passes,
                                          unsigned long long* histogram) {
  // TODO(sort/5): count every pass's digit of every key into histogram (one read of the keys).
}

// Exclusive scan of each pass's 256 counts: where each bucket starts. One thread per pass.
__global__ void onesweep_bucket_starts_kernel(const unsigned long long* histogram, unsigned long long* starts,
                                              int passes) {
  // TODO(sort/5): where each bucket of each pass starts: an exclusive scan of its 256 counts.
}

// One pass: tiles of blockDim.x * items keys, the tile index from tile_counter (zero
// before), status[tile * 256 + digit] zero before. Shared memory: local_sort's layout.
template <class K>
__global__ void onesweep_pass_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                     std::uint32_t* dst_values, std::int64_t n, int shift, int items,
                                     const unsigned long long* bucket_starts, unsigned* tile_counter,
                                     unsigned long long* status) {
  // TODO(sort/5): take a tile index from tile_counter, count the tile's digits and publish
  // them per bucket, sort the tile locally by the digit, look back over earlier tiles' counts
  // per bucket (decoupled look-back, as in the scan chapter's stage 6) and scatter each
  // bucket's run to its start + the keys of earlier tiles.
}

}  // namespace sort::WB_TRACK

#include "onesweep_host.inl"  // the host side of stage 5, shared by both tracks
