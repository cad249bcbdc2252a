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
  __shared__ unsigned count[8 * 256];
  for (int i = threadIdx.x; i < passes * 256; i += blockDim.x) count[i] = 0;
  __syncthreads();
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    const auto bits = key_bits<K>::to_bits(keys[i]);
    for (int p = 0; p < passes; ++p) atomicAdd(&count[p * 256 + digit_of(bits, p * onesweep_bits, onesweep_bits)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * 256; i += blockDim.x) {
    if (count[i] != 0) atomicAdd(&histogram[i], static_cast<unsigned long long>(count[i]));
  }
}

// Exclusive scan of each pass's 256 counts: where each bucket starts. One thread per pass.
__global__ void onesweep_bucket_starts_kernel(const unsigned long long* histogram, unsigned long long* starts,
                                              int passes) {
  const int p = threadIdx.x;
  if (p >= passes) return;
  unsigned long long running = 0;
  for (int d = 0; d < 256; ++d) {
    starts[p * 256 + d] = running;
    running += histogram[p * 256 + d];
  }
}

// One pass: tiles of blockDim.x * items keys, the tile index from tile_counter (zero
// before), status[tile * 256 + digit] zero before. Shared memory: local_sort's layout.
template <class K>
__global__ void onesweep_pass_kernel(const K* src_keys, const std::uint32_t* src_values, K* dst_keys,
                                     std::uint32_t* dst_values, std::int64_t n, int shift, int items,
                                     const unsigned long long* bucket_starts, unsigned* tile_counter,
                                     unsigned long long* status) {
  using U = bits_of<K>;
  __shared__ unsigned tile_shared;
  __shared__ int digit_count[256];
  __shared__ long long keys_before[256];
  const int tile_items = static_cast<int>(blockDim.x) * items;
  U* keys = wb::dynamic_shared<U>();
  U* keys_other = keys + tile_items;
  auto* values = reinterpret_cast<std::uint32_t*>(keys_other + tile_items);
  std::uint32_t* values_other = values + tile_items;
  int* scratch = reinterpret_cast<int*>(values_other + tile_items);
  int* bucket_start = scratch + blockDim.x;
  const bool with_values = dst_values != nullptr;

  // A dynamic tile index: the tiles a block looks back at belong to blocks already running.
  if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1u);
  for (int d = threadIdx.x; d < 256; d += blockDim.x) digit_count[d] = 0;
  __syncthreads();
  const std::int64_t tile = tile_shared;
  const std::int64_t base = tile * tile_items;
  const int m = static_cast<int>(n - base < tile_items ? n - base : tile_items);
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    keys[i] = key_bits<K>::to_bits(src_keys[base + i]);
    if (with_values) values[i] = src_values[base + i];
    atomicAdd(&digit_count[digit_of(keys[i], shift, onesweep_bits)], 1);
  }
  __syncthreads();
  auto* words = static_cast<volatile unsigned long long*>(status);
  for (int d = threadIdx.x; d < 256; d += blockDim.x) {
    words[tile * 256 + d] = (tile == 0 ? status_inclusive : status_partial) | static_cast<unsigned long long>(digit_count[d]);
  }
  // Sort the tile by the digit while predecessors publish.
  for (int b = 0; b < onesweep_bits; ++b) {
    block_split_by_bit<U>(keys, values, keys_other, with_values ? values_other : nullptr, m, items, shift + b, scratch);
    U* k = keys; keys = keys_other; keys_other = k;
    std::uint32_t* v = values; values = values_other; values_other = v;
  }
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const unsigned d = digit_of(keys[i], shift, onesweep_bits);
    if (i == 0 || digit_of(keys[i - 1], shift, onesweep_bits) != d) bucket_start[d] = i;
  }
  // The decoupled look-back, one bucket per thread: add predecessors' counts until one has
  // published its inclusive count, then publish this tile's.
  for (int d = threadIdx.x; d < 256; d += blockDim.x) {
    unsigned long long before = 0;
    for (std::int64_t j = tile - 1; j >= 0; --j) {
      unsigned long long w;
      do {
        w = words[j * 256 + d];
      } while (w == 0);
      before += w & status_count_mask;
      if ((w & ~status_count_mask) == status_inclusive) break;
    }
    if (tile > 0) words[tile * 256 + d] = status_inclusive | (before + static_cast<unsigned long long>(digit_count[d]));
    keys_before[d] = static_cast<long long>(before);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const unsigned d = digit_of(keys[i], shift, onesweep_bits);
    const std::int64_t dst = static_cast<std::int64_t>(bucket_starts[d]) + keys_before[d] + (i - bucket_start[d]);
    dst_keys[dst] = key_bits<K>::from_bits(keys[i]);
    if (with_values) dst_values[dst] = values[i];
  }
}

}  // namespace sort::WB_TRACK

#include "onesweep_host.inl"  // the host side of stage 5, shared by both tracks
