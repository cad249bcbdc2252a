// Step 2 of stage 7's two-level count (two_level_count.cuh): one block per bucket counts the
// bucket's keys in a hash table in its shared memory (shared_hash_table.cuh) and writes its
// (key, count) pairs: appended anywhere for the sort of all pairs (buckets by hash), or sorted
// inside the block into the bucket's slice of the finished table (buckets by key range).
#pragma once

#include <cstdint>
#include <limits>

#include "block_scan.cuh"
#include "bucket_scatter.cuh"
#include "warp_combine.cuh"

namespace counting::WB_TRACK {

namespace {

constexpr int bucket_slots = 8192;                                 // 64 KB of keys, 32 KB of counts
constexpr unsigned bucket_max_keys = bucket_slots * 3 / 4;         // more distinct keys: overflow
constexpr std::int64_t bucket_planned_keys = bucket_slots * 9 / 16;  // buckets are planned up to 9/16 (3/4 of their limit)
constexpr int table_threads = 512;

// Buckets by key range (if the device decided so): where bucket b's sorted pairs go (keys +
// b * room, counts + b * room) and how many there are (used[b]). The hot keys (counted by
// the scatter, in no bucket) go into their buckets' tables here.
struct sorted_slices {
  unsigned long long* used = nullptr;
  std::int64_t room = 0;
  unsigned buckets = 0;
  const unsigned long long* hot_keys = nullptr;  // hashes
  const unsigned long long* hot_counts = nullptr;
};

// A bucket table's pairs in key order: the occupied slots become (flipped key, count) pairs
// packed at the front of the table (every thread reads its slots before any writes), padded
// with the largest key (~0: INT64_MAX is never in a table) to a power of two, and a bitonic
// sorting network orders them in shared memory (Batcher 1968; PMPP §13.7); the first `used`
// are written. `packed` is a shared counter, zero before.
__device__ void write_sorted_slice(unsigned long long* table_keys, unsigned* table_counts, unsigned used,
                                   unsigned* packed, unsigned long long* keys, unsigned long long* counts) {
  constexpr int per_thread = bucket_slots / table_threads;
  unsigned long long key[per_thread];
  unsigned count[per_thread];
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int s = q * table_threads + static_cast<int>(threadIdx.x);
    const unsigned long long h = table_keys[s];
    key[q] = h == ht::hashed_empty_key ? ~0ull : ht::unmix(h);
    count[q] = table_counts[s];
  }
  __syncthreads();
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const bool occupied = key[q] != ~0ull;
    const unsigned at = warp_claim(occupied, packed);
    if (occupied) {
      table_keys[at] = key[q];
      table_counts[at] = count[q];
    }
  }
  int size = 2;
  while (size < static_cast<int>(used)) size *= 2;
  __syncthreads();
  for (int i = static_cast<int>(used) + static_cast<int>(threadIdx.x); i < size; i += table_threads) table_keys[i] = ~0ull;
  __syncthreads();
  for (int k = 2; k <= size; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      for (int pair = static_cast<int>(threadIdx.x); pair < size / 2; pair += table_threads) {
        const int i = ((pair & ~(j - 1)) << 1) | (pair & (j - 1));  // the pair's lower place; its partner is i + j
        const unsigned long long a = table_keys[i], b = table_keys[i + j];
        if ((a > b) == ((i & k) == 0)) {
          table_keys[i] = b;
          table_keys[i + j] = a;
          const unsigned c = table_counts[i];
          table_counts[i] = table_counts[i + j];
          table_counts[i + j] = c;
        }
      }
      __syncthreads();
    }
  }
  for (unsigned i = threadIdx.x; i < used; i += table_threads) {
    keys[i] = table_keys[i];
    counts[i] = table_counts[i];
  }
}

// Buckets by key range, after the tables: slice b's place in the table (an exclusive scan of
// the slices' sizes, one block), the table's size and INT64_MAX's entry.
constexpr int slice_scan_threads = 1024;
__global__ void __launch_bounds__(slice_scan_threads)
    slice_places_kernel(const unsigned long long* used, int buckets, unsigned long long* places, const table_state* state,
                        device_table<std::int64_t> out) {
  if (state->range_mult == 0) return;  // buckets by hash: the pairs are sorted instead
  constexpr int per_thread = (1 << max_bucket_bits) / slice_scan_threads;
  unsigned long long mine[per_thread];
  unsigned long long sum = 0;
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int b = static_cast<int>(threadIdx.x) * per_thread + q;
    mine[q] = b < buckets ? used[b] : 0;
    sum += mine[q];
  }
  unsigned total = 0;  // at most 4096 slices of 6144 pairs: 32 bits hold it
  unsigned long long place = detail::block_exclusive_scan<slice_scan_threads>(static_cast<unsigned>(sum), total);
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int b = static_cast<int>(threadIdx.x) * per_thread + q;
    if (b < buckets) places[b] = place;
    place += mine[q];
  }
  if (threadIdx.x == 0) {
    std::int64_t size = total;
    if (state->sentinel_count > 0) {
      out.values[size] = std::numeric_limits<std::int64_t>::max();
      out.counts[size] = state->sentinel_count;
      ++size;
    }
    *out.size = size;
  }
}

// Block b copies slice b to its place in the table.
__global__ void copy_slices_kernel(const unsigned long long* keys, const unsigned long long* counts, std::int64_t room,
                                   const unsigned long long* used, const unsigned long long* places,
                                   device_table<std::int64_t> out, const table_state* state) {
  if (state->range_mult == 0) return;
  const std::int64_t from = static_cast<std::int64_t>(blockIdx.x) * room;
  const auto to = static_cast<std::int64_t>(places[blockIdx.x]);
  for (std::int64_t i = threadIdx.x; i < static_cast<std::int64_t>(used[blockIdx.x]); i += blockDim.x) {
    out.values[to + i] = ht::unflip(keys[from + i]);
    out.counts[to + i] = counts[from + i];
  }
}

// The bucket tables: block b counts bucket b's keys (the first `capacity`; the rest spilled) in a hash table
// in shared memory and appends its (key, count) pairs to keys/counts (one global atomicAdd
// reserves the block's places; the order is the sort's business). Neighbouring threads read
// neighbouring keys, 8 loads in flight per thread (add_keys: one add per key, in shared
// memory, hot keys included).
template <int aggregate>
__global__ void __launch_bounds__(table_threads)
    bucket_table_kernel(const unsigned long long* bucketed, std::int64_t capacity, const unsigned long long* fill,
                        unsigned long long* keys, unsigned long long* counts, sorted_slices slices,
                        table_state* state) {
  unsigned long long* table_keys = wb::dynamic_shared<unsigned long long>();
  auto* table_counts = reinterpret_cast<unsigned*>(table_keys + bucket_slots);
  __shared__ unsigned used, written;
  __shared__ int overflow;
  __shared__ unsigned long long sentinel, base;
  ht::shared_clear_hashed<bucket_slots>(table_keys, table_counts);
  if (threadIdx.x == 0) {
    used = 0;
    written = 0;
    overflow = 0;
    sentinel = 0;
  }
  __syncthreads();
  const auto sent = static_cast<std::int64_t>(fill[blockIdx.x]);
  const std::int64_t items = sent > capacity ? capacity : sent;  // the rest spilled
  const unsigned long long* bucket = bucketed + static_cast<std::int64_t>(blockIdx.x) * capacity;
  auto add = [&](unsigned long long h, unsigned count) {
    if (h == ht::hashed_empty_key) {
      atomicAdd(&sentinel, static_cast<unsigned long long>(count));
    } else {
      if (!ht::shared_add_hashed<bucket_slots>(table_keys, table_counts, &used, bucket_max_keys, h, count))
        atomicExch(&overflow, 1);
    }
  };
  // Half a tile at a time, two halves in registers: the next half's loads are in flight while
  // this half is added (the adds wait on shared memory, the loads on DRAM; one hides the other).
  constexpr int half = tile_items / 2;
  constexpr int step = table_threads * half;
  unsigned long long next[half];
  auto load_half = [&](std::int64_t start) {
    unsigned valid = 0;
#pragma unroll
    for (int k = 0; k < half; ++k) {
      const std::int64_t j = start + k * table_threads + static_cast<int>(threadIdx.x);
      next[k] = j < items ? bucket[j] : 0;
      if (j < items) valid |= 1u << k;
    }
    return valid;
  };
  unsigned next_valid = load_half(0);
  for (std::int64_t start = 0; start < items; start += step) {
    unsigned long long h[half];
#pragma unroll
    for (int k = 0; k < half; ++k) h[k] = next[k];
    const unsigned valid = next_valid;
    if (start + step < items) next_valid = load_half(start + step);
    add_keys<aggregate>(h, valid, add);
    // Another thread's overflow ends the count (the sort counts again); without this a full
    // table would make every later insert probe all its slots. Whole warps stop (add_keys
    // votes across the warp), each on its own: no barrier per step.
    if (__any_sync(0xffffffffu, *static_cast<volatile int*>(&overflow) != 0)) break;
  }
  const range_map by_range = range_decided(state);
  if (by_range.mult != 0) {  // buckets by key range: the hot keys of this bucket's range, with their counts
    const unsigned long long listed = state->hot < max_hot ? state->hot : max_hot;
    for (unsigned i = threadIdx.x; i < listed; i += table_threads) {
      const unsigned long long h = slices.hot_keys[i];
      if (slices.hot_counts[i] > 0 && range_bucket(ht::unmix(h), by_range, slices.buckets) == blockIdx.x)
        add(h, static_cast<unsigned>(slices.hot_counts[i]));
    }
  }
  __syncthreads();
  if (overflow != 0) {
    if (threadIdx.x == 0) state->overflow = 1;
    return;
  }
  if (by_range.mult != 0) {  // buckets by key range: the bucket's pairs, sorted, are its slice
    if (threadIdx.x == 0) {
      if (sentinel > 0) atomicAdd(&state->sentinel_count, sentinel);
      if (used > 0) atomicAdd(&state->distinct, static_cast<unsigned long long>(used));
      slices.used[blockIdx.x] = used;
    }
    write_sorted_slice(table_keys, table_counts, used, &written, keys + static_cast<std::int64_t>(blockIdx.x) * slices.room,
                       counts + static_cast<std::int64_t>(blockIdx.x) * slices.room);
    return;
  }
  if (threadIdx.x == 0) {
    if (sentinel > 0) atomicAdd(&state->sentinel_count, sentinel);
    base = used > 0 ? atomicAdd(&state->distinct, static_cast<unsigned long long>(used)) : 0;
  }
  __syncthreads();
  for (int s0 = 0; s0 < bucket_slots; s0 += table_threads) {
    const int s = s0 + static_cast<int>(threadIdx.x);
    const unsigned long long h = table_keys[s];
    const bool occupied = h != ht::hashed_empty_key;
    const unsigned in_block = warp_claim(occupied, &written);
    if (occupied) {
      const unsigned long long u = ht::unmix(h);
      const unsigned long long at = base + in_block;
      keys[at] = u;
      counts[at] = table_counts[s];
    }
  }
}

}  // namespace

}  // namespace counting::WB_TRACK
