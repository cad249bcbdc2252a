// Step 1 of stage 7's two-level count (two_level_count.cuh): the scatter, one pass that moves
// every key into its bucket (a counting-sort pass, PMPP ch. 13), counting the sample's hot keys
// on the way instead of moving them.
//
// Every key is hashed once, h = mix(u) (a bijection: the hash stands for the key), and from
// then on the count works on hashes. Bucket b (the top bucket_bits of h, or the key's range,
// key_ranges.cuh) owns a fixed run of `capacity` places in `bucketed`: its fair share of the
// items and some room (the plan's), so no count pass is needed to place the buckets. What does
// not fit (a hot key's bucket) spills into a global table, whose pairs join the buckets' before
// the sort.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/device/block_scan.cuh"
#include "hash_count_state.cuh"
#include "key_ranges.cuh"
#include "shared_hash_table.cuh"

namespace counting::WB_TRACK {

namespace {

constexpr int scatter_threads = 512;
constexpr int scatter_items = 16;                                  // keys a thread, per tile
constexpr int scatter_tile = scatter_threads * scatter_items;      // 8192 keys: 64 KB staged
constexpr int max_bucket_bits = 12;                                // at most 4096 buckets
constexpr int two_blocks_bucket_bits = 10;  // up to 1024 buckets the scatter's arrays let 2 blocks share an SM

// The scatter, per tile of 8192 keys: hash each key and count the tile's keys per bucket (shared
// atomics), scan those counts, reserve each bucket's run of places with one global
// atomicAdd on fill[b], stage the tile in shared memory in bucket order (the order within a
// bucket does not matter to a count), and write it out, so that neighbouring threads write
// neighbouring places (runs of ~16 keys for 512 buckets). A key whose place is past its
// bucket's capacity spills: lanes with equal keys add together (__match_any_sync), into a
// small table in the block's shared memory (a hot key spills again and again: that keeps
// its atomics on the SM), which goes into the global spill table when the block ends, or
// straight into the global spill table when the small one is full.
// The scatter's dynamic shared memory: the staged tile and three words per bucket.
constexpr std::size_t scatter_shared_bytes(int max_bits) {
  return scatter_tile * sizeof(unsigned long long) + (std::size_t{1} << max_bits) * (sizeof(long long) + 2 * sizeof(unsigned));
}

template <class Count>
__device__ void spill_one(ht::table_view<Count> spill, unsigned long long h, unsigned count, table_state* state) {
  // A full spill table would make every later spill probe all its slots: once it has
  // overflowed, the sort counts everything again and the spills need not be kept.
  if (*static_cast<volatile unsigned long long*>(&state->overflow) != 0) return;
  const unsigned long long u = ht::unmix(h);
  if (u == ht::empty_key) {
    atomicAdd(&state->sentinel_count, static_cast<unsigned long long>(count));
  } else if (!ht::insert(spill, u, static_cast<Count>(count))) {
    atomicExch(&state->overflow, 1ull);  // a flag other threads read while it is set: an atomic store
  }
}

constexpr int spill_cache_slots = 512;
constexpr unsigned spill_cache_keys = spill_cache_slots / 2;

// Hot keys: keys the sample saw often enough that their items alone would fill a bucket's
// room (a zipf-like input's first few hundred keys). The scatter counts them in a small
// shared table of its own and never writes them to a bucket (as a sample sort's "equality
// buckets" do, Axtmann et al. 2017, IPS4o), so the buckets keep near their fair share.
constexpr int max_hot = 512;
constexpr int hot_slots = 1024;  // a shared table at most half full

// A block's shared table of the listed hot keys (`set`: their hashes, hashed_empty_key where
// free; `counts`: the block's count of each; `index`: its place in hot_keys), filled by every
// thread of the block (`threads` of them) before a barrier, and added into hot_counts after one.
template <int threads>
__device__ __forceinline__ void fill_hot_set(unsigned long long* set, unsigned short* index,
                                             const unsigned long long* hot_keys, int hot) {
  for (int i = static_cast<int>(threadIdx.x); i < hot; i += threads) {  // distinct keys: CAS claims a slot
    const unsigned long long key = hot_keys[i];
    unsigned slot = static_cast<unsigned>(key) & (hot_slots - 1u);
    while (atomicCAS(&set[slot], ht::hashed_empty_key, key) != ht::hashed_empty_key) slot = (slot + 1u) & (hot_slots - 1u);
    index[slot] = static_cast<unsigned short>(i);
  }
}

// Whether hash h (not hashed_empty_key) is a hot key; its slot in `set` if it is.
__device__ __forceinline__ bool find_hot(const unsigned long long* set, unsigned long long h, unsigned& slot) {
  slot = static_cast<unsigned>(h) & (hot_slots - 1u);
  unsigned long long here;
  while ((here = set[slot]) != h && here != ht::hashed_empty_key) slot = (slot + 1u) & (hot_slots - 1u);
  return here == h;
}

template <int threads>
__device__ __forceinline__ void flush_hot_set(const unsigned* counts, const unsigned short* index,
                                              unsigned long long* hot_counts) {
  for (int s = static_cast<int>(threadIdx.x); s < hot_slots; s += threads)
    if (counts[s] > 0) atomicAdd(&hot_counts[index[s]], static_cast<unsigned long long>(counts[s]));
}

// Lists the sample's keys seen `threshold` times or more (as hashes), up to max_hot of them.
__global__ void collect_hot_kernel(ht::table_view<unsigned> sample_table, unsigned threshold,
                                   unsigned long long* hot_keys, unsigned long long* hot_counts, table_state* state) {
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(sample_table.capacity);
       i += wb::grid_thread_count()) {
    const unsigned long long u = sample_table.keys[i];
    // INT64_MAX (the empty slot's key) is counted on the side wherever it goes.
    if (u == ht::empty_key || sample_table.counts[i] < threshold) continue;
    const unsigned long long at = atomicAdd(&state->hot, 1ull);
    if (at < max_hot) {
      hot_keys[at] = ht::mix(u);
      hot_counts[at] = 0;
    }
  }
}

// Appends the hot keys' (key, count) pairs after the buckets' pairs (buckets by hash; by key
// range they went into their buckets' tables).
__global__ void append_hot_kernel(const unsigned long long* hot_keys, const unsigned long long* hot_counts,
                                  unsigned long long* keys, unsigned long long* counts, table_state* state) {
  if (state->range_mult != 0) return;
  const unsigned long long listed = state->hot < max_hot ? state->hot : max_hot;
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(listed); i += wb::grid_thread_count()) {
    if (hot_counts[i] == 0) continue;
    const unsigned long long at = atomicAdd(&state->distinct, 1ull);
    keys[at] = ht::unmix(hot_keys[i]);
    counts[at] = hot_counts[i];
  }
}

template <class Count, int MaxBucketBits>
__global__ void __launch_bounds__(scatter_threads, MaxBucketBits <= two_blocks_bucket_bits ? 2 : 1)
    bucket_scatter_kernel(const std::int64_t* in, std::int64_t n, int bucket_bits, std::int64_t capacity,
                          unsigned long long* bucketed, unsigned long long* fill, ht::table_view<Count> spill,
                          const unsigned long long* hot_keys, unsigned long long* hot_counts, table_state* state) {
  // Dynamic shared memory (scatter_shared_bytes): the staged tile, then per bucket
  unsigned long long* staged = wb::dynamic_shared<unsigned long long>();
  auto* to_bucketed = reinterpret_cast<long long*>(staged + scatter_tile);  // ...and then goes to bucketed[j + to_bucketed[b]]
  auto* cursor = reinterpret_cast<unsigned*>(to_bucketed + (1 << MaxBucketBits));  // the tile's keys, then the next place in staged
  unsigned* fits_below = cursor + (1 << MaxBucketBits);  // staged[j] of bucket b fits if j < fits_below[b]...
  __shared__ unsigned long long cache_keys[spill_cache_slots];  // the block's spilled keys (hashes)
  __shared__ unsigned cache_counts[spill_cache_slots];
  __shared__ unsigned cache_used;
  __shared__ unsigned long long spilled;
  __shared__ unsigned long long hot_set[hot_slots];  // hashes of the hot keys (hashed_empty_key: free)
  __shared__ unsigned hot_set_counts[hot_slots];
  __shared__ unsigned short hot_set_index[hot_slots];  // where the key is in hot_keys
  const int buckets = 1 << bucket_bits;
  const int per_thread = (buckets + scatter_threads - 1) / scatter_threads;  // 1 or 2
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  ht::shared_clear_hashed<spill_cache_slots>(cache_keys, cache_counts);
  ht::shared_clear_hashed<hot_slots>(hot_set, hot_set_counts);
  if (threadIdx.x == 0) {
    cache_used = 0;
    spilled = 0;
  }
  const int hot = static_cast<int>(state->hot < max_hot ? state->hot : max_hot);
  const range_map by_range = range_decided(state);  // mult 0: buckets by hash
  __syncthreads();
  fill_hot_set<scatter_threads>(hot_set, hot_set_index, hot_keys, hot);
  __syncthreads();
  // Two latencies are hidden behind work that does not need their results: the next tile's
  // loads are issued before this tile is written out (its keys are in shared memory by then,
  // so their registers are free), and the atomics that reserve the buckets' places are in
  // flight while the tile is staged (staging needs only the places inside the tile).
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * scatter_tile;
  unsigned long long h[scatter_items];
  auto load_tile = [&](std::int64_t tile) {  // all loads first: 16 in flight per thread
    const std::int64_t items = n - tile < scatter_tile ? n - tile : scatter_tile;
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      h[k] = j < items ? ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + tile + j)) : 0;
    }
  };
  if (static_cast<std::int64_t>(blockIdx.x) * scatter_tile < n) load_tile(static_cast<std::int64_t>(blockIdx.x) * scatter_tile);
  constexpr int most_per_thread = ((1 << MaxBucketBits) + scatter_threads - 1) / scatter_threads;
  for (std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * scatter_tile; tile < n; tile += stride) {
    const int items = static_cast<int>(n - tile < scatter_tile ? n - tile : scatter_tile);
    for (int b = static_cast<int>(threadIdx.x); b < buckets; b += scatter_threads) cursor[b] = 0;
    __syncthreads();
    unsigned bucket[scatter_items];
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      bucket[k] = by_range.mult != 0 ? range_bucket(h[k], by_range, static_cast<unsigned>(buckets)) : 0u;
      h[k] = ht::mix(h[k]);
      if (by_range.mult == 0) bucket[k] = ht::bucket_of_hash(h[k], bucket_bits);
    }
    unsigned bucketed_keys = 0;  // bit k: key k goes to a bucket (it is in the tile and not hot)
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      if (j < items) bucketed_keys |= 1u << k;
    }
    if (hot > 0) {
#pragma unroll
      for (int k = 0; k < scatter_items; ++k) {
        if (((bucketed_keys >> k) & 1u) == 0 || h[k] == ht::hashed_empty_key) continue;  // INT64_MAX: never hot
        unsigned slot;
        if (find_hot(hot_set, h[k], slot)) {
          atomicAdd(&hot_set_counts[slot], 1u);
          bucketed_keys &= ~(1u << k);
        }
      }
    }
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      if ((bucketed_keys >> k) & 1u) atomicAdd(&cursor[bucket[k]], 1u);
    }
    __syncthreads();
    // Thread t owns buckets [t * per_thread, (t + 1) * per_thread): scan, then reserve.
    unsigned mine = 0;
    for (int q = 0; q < per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (b < buckets) mine += cursor[b];
    }
    __shared__ unsigned warp_totals[scatter_threads / 32];
    unsigned tile_total = 0;
    const unsigned first = wb::device::block_exclusive_sum<scatter_threads>(mine, warp_totals, tile_total);
    unsigned long long reserved[most_per_thread];  // where the tile's run of each of my buckets starts
    unsigned counted[most_per_thread];
    unsigned running = first;
#pragma unroll
    for (int q = 0; q < most_per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      counted[q] = q < per_thread && b < buckets ? cursor[b] : 0u;
      reserved[q] = counted[q] > 0 ? atomicAdd(&fill[b], static_cast<unsigned long long>(counted[q])) : 0;
      if (counted[q] > 0) cursor[b] = running;  // (only my buckets: no other thread reads them before the barrier)
      running += counted[q];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      if ((bucketed_keys >> k) & 1u) staged[atomicAdd(&cursor[bucket[k]], 1u)] = h[k];
    }
    running = first;  // the reservations are back by now, or soon: staged[j] of bucket b goes to bucketed
#pragma unroll
    for (int q = 0; q < most_per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (counted[q] > 0) {
        const auto p = static_cast<std::int64_t>(reserved[q]);
        const std::int64_t room = p < capacity ? capacity - p : 0;
        fits_below[b] = running + static_cast<unsigned>(room < counted[q] ? room : counted[q]);
        to_bucketed[b] = static_cast<long long>(b) * capacity + p - running;
      }
      running += counted[q];
    }
    __syncthreads();
    if (tile + stride < n) load_tile(tile + stride);
    const int staged_items = static_cast<int>(tile_total);  // the tile's keys less its hot ones
    unsigned spills = 0;  // bit k: this thread's key of round k spills
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      if (j < staged_items) {
        const unsigned long long v = staged[j];
        const unsigned b = by_range.mult != 0 ? range_bucket(ht::unmix(v), by_range, static_cast<unsigned>(buckets))
                                              : ht::bucket_of_hash(v, bucket_bits);
        if (static_cast<unsigned>(j) < fits_below[b]) {
          bucketed[j + to_bucketed[b]] = v;
        } else {
          spills |= 1u << k;
        }
      }
    }
    // Rare (a full bucket): every lane of a warp with a spill takes part in the match.
    for (unsigned warp_spills = __reduce_or_sync(0xffffffffu, spills); warp_spills != 0;
         warp_spills &= warp_spills - 1) {
      const int k = __ffs(static_cast<int>(warp_spills)) - 1;
      const bool mine_spills = (spills >> k) & 1u;
      const unsigned long long v = staged[k * scatter_threads + static_cast<int>(threadIdx.x) < staged_items
                                             ? k * scatter_threads + static_cast<int>(threadIdx.x) : 0];
      const unsigned peers = __match_any_sync(0xffffffffu, v) & __ballot_sync(0xffffffffu, mine_spills);
      if (!mine_spills || (peers & lanes_below) != 0) continue;  // the lowest lane of each key adds for all
      const auto count = static_cast<unsigned>(__popc(peers));
      atomicAdd(&spilled, static_cast<unsigned long long>(count));
      if (v == ht::hashed_empty_key ||  // INT64_MAX: the cache's empty slot, counted on the side
          !ht::shared_add_hashed<spill_cache_slots>(cache_keys, cache_counts, &cache_used, spill_cache_keys, v, count))
        spill_one(spill, v, count, state);
    }
    __syncthreads();  // cursor, fits_below, to_bucketed and staged are reused by the next tile
  }
  // The block's spilled keys go to the global spill table, its hot keys' counts to theirs.
  for (int s = static_cast<int>(threadIdx.x); s < spill_cache_slots; s += scatter_threads)
    if (cache_counts[s] > 0) spill_one(spill, cache_keys[s], cache_counts[s], state);
  flush_hot_set<scatter_threads>(hot_set_counts, hot_set_index, hot_counts);
  if (threadIdx.x == 0 && spilled > 0) atomicAdd(&state->spilled, spilled);
}

}  // namespace

}  // namespace counting::WB_TRACK
