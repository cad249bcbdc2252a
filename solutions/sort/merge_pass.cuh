// Stage 6, levels 1, 2, ...: one merge pass (a partition kernel, then one block per output
// tile). See merge_sort.cu for the whole stage.
#pragma once

#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

// ---------------------------------------------------------------------------------------
// Levels 1, 2, ...: merge passes
// ---------------------------------------------------------------------------------------

// The pair of runs that output position `c` of a merge pass over runs of `width` belongs to:
// A = [begin, begin + A_length), B = [begin + A_length, begin + A_length + B_length). The
// last pair may be short, or have no B at all (its A is then copied).
struct run_pair {
  std::int64_t begin;
  std::int64_t A_length;
  std::int64_t B_length;
};

__host__ __device__ inline run_pair pair_of(std::int64_t c, std::int64_t n, std::int64_t width) {
  run_pair p;
  p.begin = c / (2 * width) * (2 * width);
  p.A_length = n - p.begin < width ? n - p.begin : width;
  const std::int64_t rest = n - p.begin - p.A_length;
  p.B_length = rest < width ? rest : width;
  return p;
}

// The partition pass of one level: for each output tile t, how many of its pair's A keys come
// before the tile's first output (the merge path's co-rank within the pair; B's share
// follows). One thread per tile, a lower-bound search of log2(width) steps.
template <class U>
__global__ void merge_partition_kernel(const U* __restrict__ src, std::int64_t n, std::int64_t width,
                                       std::int64_t tile, std::int64_t tiles, std::int64_t* __restrict__ partitions) {
  const std::int64_t t = wb::global_thread_index();
  if (t >= tiles) return;
  const std::int64_t c = t * tile;
  const run_pair p = pair_of(c, n, width);
  const U* A = src + p.begin;
  partitions[t] = wb::device::co_rank_lower_bound<U, std::int64_t>(c - p.begin, A, p.A_length, A + p.A_length,
                                                                   p.B_length);
}

// Converts a bit pattern back to a key: what the last pass stores.
template <class K>
struct bits_to_key {
  __device__ __forceinline__ K operator()(bits_of<K> bits) const { return key_bits<K>::from_bits(bits); }
};

// One merge pass: block t merges output tile t (BLOCK * ITEMS outputs) of its pair of runs
// from src into dst_bits, or (LAST) into dst_keys as keys.
template <class K, int BLOCK, int ITEMS, bool VALUES, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    merge_pass_kernel(const bits_of<K>* __restrict__ src, const std::uint32_t* __restrict__ src_values,
                      bits_of<K>* __restrict__ dst_bits, K* __restrict__ dst_keys,
                      std::uint32_t* __restrict__ dst_values, std::int64_t n, std::int64_t width,
                      const std::int64_t* __restrict__ partitions) {
  using U = bits_of<K>;
  constexpr int tile = BLOCK * ITEMS;
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * tile;
  const run_pair p = pair_of(c, n, width);
  const std::int64_t pair_length = p.A_length + p.B_length;
  const std::int64_t k = c - p.begin;  // the tile's outputs within the pair: [k, k_end)
  const std::int64_t k_end = k + tile < pair_length ? k + tile : pair_length;
  const std::int64_t a_curr = partitions[blockIdx.x];
  // The next tile's partition, unless this tile ends its pair (then all of A is used).
  const std::int64_t a_next = k_end == pair_length ? p.A_length : partitions[blockIdx.x + 1];
  const std::int64_t b_curr = k - a_curr;
  const int A_length = static_cast<int>(a_next - a_curr);
  const int B_length = static_cast<int>(k_end - k) - A_length;
  const U* A = src + p.begin + a_curr;
  const U* B = src + p.begin + p.A_length + b_curr;
  const std::uint32_t* A_val = VALUES ? src_values + p.begin + a_curr : nullptr;
  const std::uint32_t* B_val = VALUES ? src_values + p.begin + p.A_length + b_curr : nullptr;
  std::uint32_t* C_val = VALUES ? dst_values + c : nullptr;
  U* staging = wb::dynamic_shared<U>();
  if constexpr (LAST) {
    wb::device::merge_tile<BLOCK, ITEMS, VALUES>(A, A_length, B, B_length, dst_keys + c, A_val, B_val, C_val, staging,
                                                bits_to_key<K>{});
  } else {
    wb::device::merge_tile<BLOCK, ITEMS, VALUES>(A, A_length, B, B_length, dst_bits + c, A_val, B_val, C_val, staging);
  }
}

}  // namespace sort::WB_TRACK
