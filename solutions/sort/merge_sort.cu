// Stage 6: merge sort (PMPP §13.7): each block sorts a tile, then merge passes double the
// sorted runs until one run holds every key.
//
//   level 0   block_sort_kernel: a tile of SORT_BLOCK * ITEMS keys per block. Each thread
//             sorts its ITEMS keys in registers (odd-even transposition: stable), then the
//             block merges runs of ITEMS, 2 ITEMS, ... in shared memory with the merge
//             chapter's pieces (co_rank_lower_bound, thread_merge): one read and one write of
//             every key in global memory, the rest on chip.
//   level l   one merge pass over runs of width = tile << (l-1): a partition kernel co-ranks
//             every output tile within its pair of runs (merge path, PMPP §12.3 and the merge
//             chapter's stage 6), then one block per output tile merges it through shared
//             memory (merge::solution::merge_tile). Every pair of runs of the level is merged
//             in the same two launches (a segmented merge): run widths are multiples of the
//             output tile, so no tile straddles two pairs.
//
// Keys travel as key_bits patterns (unsigned order = the chapter's order, floats included):
// level 0 converts them on load, the last level converts them back on store. Values follow
// their keys; ties keep the left run first at every level, so the sort is stable.
#include <cstdint>

#include "merge_pieces.cuh"
#include "sort.hpp"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

namespace merge_lib = merge::solution;

// ---------------------------------------------------------------------------------------
// Level 0: sort a tile in a block
// ---------------------------------------------------------------------------------------

// A thread's ITEMS keys (and values) sorted in registers. Odd-even transposition: rounds of
// compare-exchanges of neighbours, alternately (0,1)(2,3)... and (1,2)(3,4)...; ITEMS rounds
// sort any input. With values, neighbours are exchanged only when strictly out of order, so
// equal keys keep their order (stable). Keys alone need no stability (equal bit patterns are
// the same key): a min and a max, no branch. Fully unrolled: every index is a constant.
template <int ITEMS, bool VALUES, class U>
__device__ __forceinline__ void thread_sort(U (&keys)[ITEMS], std::uint32_t (&values)[ITEMS]) {
#pragma unroll
  for (int round = 0; round < ITEMS; ++round) {
#pragma unroll
    for (int x = round & 1; x + 1 < ITEMS; x += 2) {
      if constexpr (VALUES) {
        const bool swap = keys[x + 1] < keys[x];
        const U k = keys[x];
        const std::uint32_t v = values[x];
        keys[x] = swap ? keys[x + 1] : k;
        keys[x + 1] = swap ? k : keys[x + 1];
        values[x] = swap ? values[x + 1] : v;
        values[x + 1] = swap ? v : values[x + 1];
      } else {
        const U low = keys[x + 1] < keys[x] ? keys[x + 1] : keys[x];
        const U high = keys[x + 1] < keys[x] ? keys[x] : keys[x + 1];
        keys[x] = low;
        keys[x + 1] = high;
      }
    }
  }
}

// Block b sorts keys [b * tile, (b+1) * tile), tile = BLOCK * ITEMS (the last tile may be
// shorter), and writes them as bit patterns (dst_bits) or, when no merge pass follows
// (LAST), as keys (dst_keys).
template <class K, int BLOCK, int ITEMS, bool VALUES, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    block_sort_kernel(const K* __restrict__ keys_in, const std::uint32_t* __restrict__ values_in,
                      bits_of<K>* __restrict__ dst_bits, K* __restrict__ dst_keys,
                      std::uint32_t* __restrict__ dst_values, std::int64_t n) {
  using U = bits_of<K>;
  constexpr int tile = BLOCK * ITEMS;
  U* keys_S = wb::dynamic_shared<U>();
  auto* values_S = reinterpret_cast<std::uint32_t*>(keys_S + tile);  // VALUES only
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const int m = static_cast<int>(n - base < tile ? n - base : tile);
  const int t = static_cast<int>(threadIdx.x);

  // 1. Load striped (coalesced) as bit patterns. Slots past the end get the largest pattern:
  // they sort after every key (after equal ones too: they come last and the sort is stable)
  // and are never stored.
  U keys[ITEMS];
  std::uint32_t values[ITEMS];
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    const int i = x * BLOCK + t;
    keys[x] = i < m ? key_bits<K>::to_bits(keys_in[base + i]) : ~U{0};
    if constexpr (VALUES) values[x] = i < m ? values_in[base + i] : 0u;
  }
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    keys_S[x * BLOCK + t] = keys[x];
    if constexpr (VALUES) values_S[x * BLOCK + t] = values[x];
  }
  __syncthreads();

  // 2. Each thread takes ITEMS consecutive keys (blocked: ITEMS odd, so no bank conflicts)
  // and sorts them in registers: runs of ITEMS.
#pragma unroll
  for (int x = 0; x < ITEMS; ++x) {
    keys[x] = keys_S[t * ITEMS + x];
    if constexpr (VALUES) values[x] = values_S[t * ITEMS + x];
  }
  thread_sort<ITEMS, VALUES>(keys, values);

  // 3. Merge levels in shared memory: runs of ITEMS * threads_per_run keys, pairs of them
  // merged by 2 * threads_per_run threads, each producing its ITEMS outputs in registers with
  // the merge chapter's co-rank and thread merge. One buffer: the outputs wait in registers
  // until every thread of the pair has read its inputs.
  int last_pair = 1;  // threads that shared the keys read last (step 2: each its own)
  for (int threads_per_run = 1; threads_per_run < BLOCK; threads_per_run *= 2) {
    const int threads_per_pair = 2 * threads_per_run;
    level_barrier(last_pair);  // the previous reads are done
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) {
      keys_S[t * ITEMS + x] = keys[x];
      if constexpr (VALUES) values_S[t * ITEMS + x] = values[x];
    }
    level_barrier(threads_per_pair);
    const int width = threads_per_run * ITEMS;
    const int pair_begin = (t & ~(threads_per_pair - 1)) * ITEMS;
    const U* A_S = keys_S + pair_begin;
    const U* B_S = A_S + width;
    const int k = t * ITEMS - pair_begin;  // this thread's first output within the pair
    const int i = merge_lib::co_rank_lower_bound<U, int>(k, A_S, width, B_S, width);
    int from[ITEMS];
    merge_lib::thread_merge<ITEMS>(A_S, width, B_S, width, i, k - i, keys, from);
    if constexpr (VALUES) {
#pragma unroll
      for (int x = 0; x < ITEMS; ++x) values[x] = values_S[pair_begin + from[x]];
    }
    last_pair = threads_per_pair;
  }

  // 4. Store through shared memory, coalesced (the merge chapter's store_tile_blocked starts
  // with a barrier: every thread is done reading keys_S).
  if constexpr (LAST) {
    K out[ITEMS];
#pragma unroll
    for (int x = 0; x < ITEMS; ++x) out[x] = key_bits<K>::from_bits(keys[x]);
    merge_lib::store_tile_blocked<BLOCK, ITEMS>(out, dst_keys + base, m, reinterpret_cast<K*>(keys_S));
  } else {
    merge_lib::store_tile_blocked<BLOCK, ITEMS>(keys, dst_bits + base, m, keys_S);
  }
  if constexpr (VALUES) merge_lib::store_tile_blocked<BLOCK, ITEMS>(values, dst_values + base, m, values_S);
}

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
  partitions[t] = merge_lib::co_rank_lower_bound<U, std::int64_t>(c - p.begin, A, p.A_length, A + p.A_length,
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
    merge_lib::merge_tile<BLOCK, ITEMS, VALUES>(A, A_length, B, B_length, dst_keys + c, A_val, B_val, C_val, staging,
                                                bits_to_key<K>{});
  } else {
    merge_lib::merge_tile<BLOCK, ITEMS, VALUES>(A, A_length, B, B_length, dst_bits + c, A_val, B_val, C_val, staging);
  }
}

}  // namespace sort::WB_TRACK

#include "merge_sort_host.inl"  // the host side of stage 6, shared by both tracks
