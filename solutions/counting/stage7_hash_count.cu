// Stage 7: wide keys (int64) on the GPU: a hash table instead of a sort of every item.
//
// The library way to count int64 keys is to sort all N of them (CUB radix sort: 8 passes over
// the data) and run-length encode the runs (the baseline). But only the DISTINCT keys need to
// be in order. The ONE-LEVEL count (cfg.variants 1-4):
//   1. insert: every item finds or claims its key's slot in a global hash table with room for
//      the expected number of distinct keys (hash_table.cuh), and adds one to the slot's
//      count: one pass over the items, one random global atomic each;
//   2. compact: the occupied slots are packed into (key, count) arrays;
//   3. sort only those pairs by key (sort_pairs.hpp), skipping the key bytes where all keys
//      agree, and write the table.
// Variants: 1 one atomic per item, table 3/4 full; 2 warp-aggregated, 3/4 full; 3
// warp-aggregated, half full; 4 one atomic per item, half full. Measured on an H100 (README,
// "Measurements"), the insert of 2^26 keys takes ~1.6 ms whether the table holds 2^12 or 2^20 keys
// (86% L2 hits, 0.7 GB from DRAM: not memory-bound): ~45 G random global atomics a second is
// the ceiling of this design, 2.3x CUB at best.
// The TWO-LEVEL count (cfg.variant 0, the default) does the same twice, so that almost every
// atomic is in shared memory (PMPP §9.4's privatization, made possible by a partition first):
//   1a. bucket_scatter: hash every key once, h = mix(u) (a bijection, so the hash stands for
//       the key), and write h to bucket b = the top bits of h (a counting-sort pass, PMPP ch.
//       13, staged through shared memory so the writes are runs of neighbours). A bucket has
//       a fixed run of places, its fair share plus 1/8, so no count pass has to come first;
//       the keys past a full bucket (a hot key) spill into a one-level table;
//   1b. bucket_table: one block per bucket counts its keys in a hash table in shared memory
//       and appends its (key, count) pairs; the spill table's pairs are appended after them;
//   3.  sort the pairs as above and write the table, adding up a key's two pairs (its
//       bucket's and the spill table's) where keys spilled.
// It moves the keys three times (read; write; read) instead of once, at near bandwidth,
// instead of one random global atomic per key: 1.37-1.48 ms against the one-level 1.99 ms at
// 2^26 keys, 2^20 distinct (H100). With more expected distinct keys than 1024
// buckets hold (all keys distinct), or N >= 2^32, variant 0 counts with the one-level table
// (half full, warp-aggregated, as variant 3).
// The tables' sizes come from cfg.expected_distinct (like reserve() on a std::unordered_map).
// If more distinct keys turn up than fit, the count reports it and the stage starts again
// with a one-level table big enough for N distinct keys: a wrong hint costs time, never a
// wrong count. Between steps 2 and 3 the host reads back a few numbers (distinct keys, the
// side count of INT64_MAX, the overflow flag, the OR and AND of the keys, the keys that
// spilled) to size the sort.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "block_scan.cuh"
#include "counting.hpp"
#include "hash_table.cuh"
#include "sort_pairs.hpp"
#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

namespace ht = hash_table;

struct table_state {
  unsigned long long distinct;        // occupied slots, counted by compact
  unsigned long long sentinel_count;  // items equal to INT64_MAX (see hash_table.cuh)
  unsigned long long overflow;        // set by insert when the table was full
  unsigned long long key_or;          // OR and AND of the flipped keys in the table:
  unsigned long long key_and;         // the bits where they differ are the ones to sort by
  unsigned long long spilled;         // two-level: items past their bucket's capacity
};

constexpr int block = 256;

template <class Count>
__global__ void clear_table_kernel(ht::table_view<Count> t, table_state* state) {
  if (wb::global_thread_index() == 0) *state = table_state{0, 0, 0, 0, ~0ull, 0};
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(t.capacity);
       i += wb::grid_thread_count()) {
    t.keys[i] = ht::empty_key;
    t.counts[i] = 0;
  }
}

// One pass over the items. The input is read with evict-first loads (__ldcs): it is read once,
// and must not push the table out of the L2 cache. The threads of a warp whose items have the
// same key first agree on one of them (__match_any_sync) to add them all at once: on skewed
// input (zipf-like, one hot key) that turns up to 32 atomics on one count into one. The loop
// runs the same number of rounds in every lane (lanes past the end take part, then drop out
// of the match), because the match needs the whole warp. With `aggregate` off (cfg.variant 1,
// for comparison) every item does its own atomic.
template <bool aggregate, class Count>
__global__ void insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<Count> t, table_state* state) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  const std::int64_t stride = wb::grid_thread_count();
  for (std::int64_t base = wb::global_thread_index() - lane; base < n; base += stride) {
    const std::int64_t i = base + lane;
    const bool valid = i < n;
    const unsigned long long u = valid ? ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + i)) : 0;
    const unsigned valid_lanes = __ballot_sync(0xffffffffu, valid);
    const unsigned peers = aggregate ? __match_any_sync(0xffffffffu, u) & valid_lanes : (valid ? 1u << lane : 0u);
    if (!valid || (peers & lanes_below) != 0) continue;  // the lowest lane of each key adds for all
    const auto count = static_cast<unsigned>(__popc(peers));
    if (u == ht::empty_key) {
      atomicAdd(&state->sentinel_count, static_cast<unsigned long long>(count));
    } else if (!ht::insert(t, u, static_cast<Count>(count))) {
      state->overflow = 1;
    }
  }
}

// Packs the occupied slots into keys/counts (in no particular order: the sort comes next).
// One atomicAdd per block reserves the block's places; a ballot and popc per warp and a
// small scan over the warps give each thread its place within them.
template <class Count>
__global__ void compact_kernel(ht::table_view<Count> t, unsigned long long* keys, unsigned long long* counts,
                               table_state* state) {
  __shared__ unsigned warp_counts[block / 32];
  __shared__ unsigned long long block_base;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  unsigned long long key_or = 0, key_and = ~0ull;
  const auto capacity = static_cast<std::int64_t>(t.capacity);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * block;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * block; base < capacity; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    const unsigned long long key = i < capacity ? t.keys[i] : ht::empty_key;
    const bool occupied = key != ht::empty_key;
    if (occupied) {
      key_or |= key;
      key_and &= key;
    }
    const unsigned ballot = __ballot_sync(0xffffffffu, occupied);
    if (lane == 0) warp_counts[warp] = static_cast<unsigned>(__popc(ballot));
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned total = 0;
      for (int w = 0; w < block / 32; ++w) total += warp_counts[w];
      block_base = atomicAdd(&state->distinct, static_cast<unsigned long long>(total));
    }
    __syncthreads();
    if (occupied) {
      unsigned long long place = block_base + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
      for (int w = 0; w < warp; ++w) place += warp_counts[w];
      keys[place] = key;
      counts[place] = t.counts[i];
    }
    __syncthreads();  // warp_counts and block_base are reused next round
  }
  // One OR and one AND per warp.
  for (int d = 16; d > 0; d >>= 1) {
    key_or |= __shfl_xor_sync(0xffffffffu, key_or, d);
    key_and &= __shfl_xor_sync(0xffffffffu, key_and, d);
  }
  if (lane == 0) {
    atomicOr(&state->key_or, key_or);
    atomicAnd(&state->key_and, key_and);
  }
}

// The table's size, once `size` entries are written: INT64_MAX (counted on the side), the
// largest key, goes last.
__device__ void finish_table(device_table<std::int64_t> out, std::int64_t size, unsigned long long sentinel_count) {
  if (sentinel_count > 0) {
    out.values[size] = ht::unflip(ht::empty_key);
    out.counts[size] = sentinel_count;
    ++size;
  }
  *out.size = size;
}

__global__ void write_table_kernel(const unsigned long long* keys, const unsigned long long* counts,
                                   std::int64_t distinct, unsigned long long sentinel_count,
                                   device_table<std::int64_t> out) {
  for (std::int64_t i = wb::global_thread_index(); i < distinct; i += wb::grid_thread_count()) {
    out.values[i] = ht::unflip(keys[i]);
    out.counts[i] = counts[i];
  }
  if (wb::global_thread_index() == 0) finish_table(out, distinct, sentinel_count);
}


// ---- The two-level count (variant 0) -----------------------------------------------------------
// Every key is hashed once, h = mix(u) (a bijection: the hash stands for the key), and from
// then on the count works on hashes. Bucket b = the top bucket_bits of h owns a fixed run of
// `capacity` places in `bucketed`: its fair share of the items plus 1/8, so no count pass
// is needed to place the buckets. What does not fit (a hot key's bucket) spills into the
// one-level global table of variants 1-4, whose pairs join the buckets' before the sort.
constexpr int scatter_threads = 512;
constexpr int scatter_items = 16;                                  // keys a thread, per tile
constexpr int scatter_tile = scatter_threads * scatter_items;      // 8192 keys: 64 KB staged
constexpr int max_bucket_bits = 10;                                // at most 1024 buckets
constexpr int bucket_slots = 8192;                                 // 64 KB of keys, 32 KB of counts
constexpr unsigned bucket_max_keys = bucket_slots * 3 / 4;         // more distinct keys: overflow
constexpr std::int64_t bucket_planned_keys = bucket_slots / 4;     // buckets are planned 1/4 full
constexpr int table_threads = 512;

// 1a. Per tile of 8192 keys: hash each key and count the tile's keys per bucket (shared
// atomics), scan those counts, reserve each bucket's run of places with one global
// atomicAdd on fill[b], stage the tile in shared memory in bucket order (the order within a
// bucket does not matter to a count), and write it out, so that neighbouring threads write
// neighbouring places (runs of ~16 keys for 512 buckets). A key whose place is past its
// bucket's capacity spills: lanes with equal keys add together (__match_any_sync), into a
// small table in the block's shared memory (a hot key spills again and again: that keeps
// its atomics on the SM), which goes into the global spill table when the block ends, or
// straight into the global spill table when the small one is full.
template <class Count>
__device__ void spill_one(ht::table_view<Count> spill, unsigned long long h, unsigned count, table_state* state) {
  const unsigned long long u = ht::unmix(h);
  if (u == ht::empty_key) {
    atomicAdd(&state->sentinel_count, static_cast<unsigned long long>(count));
  } else if (!ht::insert(spill, u, static_cast<Count>(count))) {
    state->overflow = 1;
  }
}

constexpr int spill_cache_slots = 512;
constexpr unsigned spill_cache_keys = spill_cache_slots / 2;

template <class Count>
__global__ void __launch_bounds__(scatter_threads, 2)
    bucket_scatter_kernel(const std::int64_t* in, std::int64_t n, int bucket_bits, std::int64_t capacity,
                          unsigned long long* bucketed, unsigned long long* fill, ht::table_view<Count> spill,
                          table_state* state) {
  unsigned long long* staged = wb::dynamic_shared<unsigned long long>();
  __shared__ unsigned cursor[1 << max_bucket_bits];       // the tile's keys per bucket, then the next place in staged
  __shared__ unsigned fits_below[1 << max_bucket_bits];   // staged[j] of bucket b fits if j < fits_below[b]...
  __shared__ long long to_bucketed[1 << max_bucket_bits];  // ...and then goes to bucketed[j + to_bucketed[b]]
  __shared__ unsigned long long cache_keys[spill_cache_slots];  // the block's spilled keys (hashes)
  __shared__ unsigned cache_counts[spill_cache_slots];
  __shared__ unsigned cache_used;
  __shared__ unsigned long long spilled;
  const int buckets = 1 << bucket_bits;
  const int per_thread = (buckets + scatter_threads - 1) / scatter_threads;  // 1 or 2
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  ht::shared_clear_hashed<spill_cache_slots>(cache_keys, cache_counts);
  if (threadIdx.x == 0) {
    cache_used = 0;
    spilled = 0;
  }
  __syncthreads();
  for (std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * scatter_tile; tile < n;
       tile += static_cast<std::int64_t>(gridDim.x) * scatter_tile) {
    const int items = static_cast<int>(n - tile < scatter_tile ? n - tile : scatter_tile);
    for (int b = static_cast<int>(threadIdx.x); b < buckets; b += scatter_threads) cursor[b] = 0;
    __syncthreads();
    unsigned long long h[scatter_items];
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {  // all loads first: 16 in flight per thread
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      h[k] = j < items ? ht::mix(ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + tile + j))) : 0;
    }
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      if (j < items) atomicAdd(&cursor[ht::bucket_of_hash(h[k], bucket_bits)], 1u);
    }
    __syncthreads();
    // Thread t owns buckets [t * per_thread, (t + 1) * per_thread): scan, then reserve.
    unsigned mine = 0;
    for (int q = 0; q < per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (b < buckets) mine += cursor[b];
    }
    unsigned tile_total = 0;
    unsigned running = detail::block_exclusive_scan<scatter_threads>(mine, tile_total);
    for (int q = 0; q < per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (b >= buckets) continue;
      const unsigned c = cursor[b];
      if (c > 0) {
        const auto p = static_cast<std::int64_t>(atomicAdd(&fill[b], static_cast<unsigned long long>(c)));
        const std::int64_t room = p < capacity ? capacity - p : 0;
        fits_below[b] = running + static_cast<unsigned>(room < c ? room : c);
        to_bucketed[b] = static_cast<long long>(b) * capacity + p - running;
      }
      cursor[b] = running;
      running += c;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      if (j < items) staged[atomicAdd(&cursor[ht::bucket_of_hash(h[k], bucket_bits)], 1u)] = h[k];
    }
    __syncthreads();
    unsigned spills = 0;  // bit k: this thread's key of round k spills
#pragma unroll
    for (int k = 0; k < scatter_items; ++k) {
      const int j = k * scatter_threads + static_cast<int>(threadIdx.x);
      if (j < items) {
        const unsigned long long v = staged[j];
        const unsigned b = ht::bucket_of_hash(v, bucket_bits);
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
      const unsigned long long v = staged[k * scatter_threads + static_cast<int>(threadIdx.x) < items
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
  // The block's spilled keys go to the global spill table.
  for (int s = static_cast<int>(threadIdx.x); s < spill_cache_slots; s += scatter_threads)
    if (cache_counts[s] > 0) spill_one(spill, cache_keys[s], cache_counts[s], state);
  if (threadIdx.x == 0 && spilled > 0) atomicAdd(&state->spilled, spilled);
}

// 1b. Block b counts bucket b's keys (the first `capacity`; the rest spilled) in a hash table
// in shared memory and appends its (key, count) pairs to keys/counts (one global atomicAdd
// reserves the block's places; the order is the sort's business). Neighbouring threads read
// neighbouring keys, each thread two rounds ahead of its insert, so that enough loads are in
// flight. A bucket that spilled holds a hot key: there the lanes of a warp with equal keys
// add together (__match_any_sync), as in insert_kernel, instead of 32 atomics on one counter.
__global__ void __launch_bounds__(table_threads)
    bucket_table_kernel(const unsigned long long* bucketed, std::int64_t capacity, const unsigned long long* fill,
                        unsigned long long* keys, unsigned long long* counts, table_state* state) {
  unsigned long long* table_keys = wb::dynamic_shared<unsigned long long>();
  auto* table_counts = reinterpret_cast<unsigned*>(table_keys + bucket_slots);
  __shared__ unsigned used, written;
  __shared__ int overflow;
  __shared__ unsigned long long sentinel, key_or, key_and, base;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  ht::shared_clear_hashed<bucket_slots>(table_keys, table_counts);
  if (threadIdx.x == 0) {
    used = 0;
    written = 0;
    overflow = 0;
    sentinel = 0;
    key_or = 0;
    key_and = ~0ull;
  }
  __syncthreads();
  const auto sent = static_cast<std::int64_t>(fill[blockIdx.x]);
  const bool hot = sent > capacity;  // the same in the whole block
  const std::int64_t items = hot ? capacity : sent;
  const unsigned long long* bucket = bucketed + static_cast<std::int64_t>(blockIdx.x) * capacity;
  auto load = [&](std::int64_t i) { return i < items ? bucket[i] : ht::hashed_empty_key; };
  auto add = [&](unsigned long long h, unsigned count) {
    if (h == ht::hashed_empty_key) {
      atomicAdd(&sentinel, static_cast<unsigned long long>(count));
    } else {
      if (!ht::shared_add_hashed<bucket_slots>(table_keys, table_counts, &used, bucket_max_keys, h, count))
        atomicExch(&overflow, 1);
    }
  };
  // Every thread runs the same rounds (the match needs whole warps); i = round + thread.
  std::int64_t i = threadIdx.x;
  unsigned long long ahead1 = load(i), ahead2 = load(i + table_threads);
  for (; i - static_cast<std::int64_t>(threadIdx.x) < items; i += table_threads) {
    const unsigned long long h = ahead1;
    ahead1 = ahead2;
    ahead2 = load(i + 2 * table_threads);
    // Another thread's overflow ends the count (everything is counted again with a global
    // table); without this a full table would make every later insert probe all its slots.
    if (__any_sync(0xffffffffu, *static_cast<volatile int*>(&overflow) != 0)) break;
    const bool valid = i < items;
    if (!hot) {
      if (valid) add(h, 1u);
      continue;
    }
    const unsigned peers = __match_any_sync(0xffffffffu, h) & __ballot_sync(0xffffffffu, valid);
    if (valid && (peers & lanes_below) == 0) add(h, static_cast<unsigned>(__popc(peers)));
  }
  __syncthreads();
  if (overflow != 0) {
    if (threadIdx.x == 0) state->overflow = 1;
    return;
  }
  if (threadIdx.x == 0) {
    if (sentinel > 0) atomicAdd(&state->sentinel_count, sentinel);
    base = used > 0 ? atomicAdd(&state->distinct, static_cast<unsigned long long>(used)) : 0;
  }
  __syncthreads();
  unsigned long long my_or = 0, my_and = ~0ull;
  for (int s0 = 0; s0 < bucket_slots; s0 += table_threads) {
    const int s = s0 + static_cast<int>(threadIdx.x);
    const unsigned long long h = table_keys[s];
    const bool occupied = h != ht::hashed_empty_key;
    const unsigned ballot = __ballot_sync(0xffffffffu, occupied);
    unsigned warp_base = 0;
    if (lane == 0 && ballot != 0) warp_base = atomicAdd(&written, static_cast<unsigned>(__popc(ballot)));
    warp_base = __shfl_sync(0xffffffffu, warp_base, 0);
    if (occupied) {
      const unsigned long long u = ht::unmix(h);
      const unsigned long long at = base + warp_base + static_cast<unsigned>(__popc(ballot & lanes_below));
      keys[at] = u;
      counts[at] = table_counts[s];
      my_or |= u;
      my_and &= u;
    }
  }
  for (int d = 16; d > 0; d >>= 1) {
    my_or |= __shfl_xor_sync(0xffffffffu, my_or, d);
    my_and &= __shfl_xor_sync(0xffffffffu, my_and, d);
  }
  if (lane == 0) {
    atomicOr(&key_or, my_or);
    atomicAnd(&key_and, my_and);
  }
  __syncthreads();
  if (threadIdx.x == 0 && used > 0) {
    atomicOr(&state->key_or, key_or);
    atomicAnd(&state->key_and, key_and);
  }
}

// After the sort, a key that spilled can be in two pairs (its bucket's and the spill
// table's), side by side. heads[i] = 1 where a run of equal keys starts; their exclusive scan
// is then each run's place in the table.
__global__ void run_heads_kernel(const unsigned long long* keys, std::int64_t count, unsigned* heads) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count())
    heads[i] = i == 0 || keys[i] != keys[i - 1] ? 1u : 0u;
}

// The table from sorted pairs (count > 0) whose runs of equal keys are added up; `places` is
// the scan of heads.
__global__ void write_runs_kernel(const unsigned long long* keys, const unsigned long long* counts,
                                  std::int64_t count, const unsigned* places, unsigned long long sentinel_count,
                                  device_table<std::int64_t> out) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count()) {
    const bool head = i == 0 || keys[i] != keys[i - 1];
    if (head) {
      unsigned long long total = counts[i];
      for (std::int64_t j = i + 1; j < count && keys[j] == keys[i]; ++j) total += counts[j];
      out.values[places[i]] = ht::unflip(keys[i]);
      out.counts[places[i]] = total;
    }
    if (i == count - 1) finish_table(out, static_cast<std::int64_t>(places[i]) + (head ? 1 : 0), sentinel_count);
  }
}

// Slots for `expected` distinct keys at no more than 3/4 load, or 1/2 with `half_load` (a
// multiple of 32, at least 1024).
std::int64_t capacity_for(std::int64_t expected, bool half_load = false) {
  const std::int64_t e = expected > 0 ? expected : 1;
  const std::int64_t wanted = half_load ? 2 * e : e / 3 * 4 + 4;
  const std::int64_t slots = wanted < 1024 ? 1024 : wanted;
  return (slots + 31) / 32 * 32;
}

// The one-level table's capacity for this call: from the hint, but never more than N
// distinct keys need.
std::int64_t planned_capacity(std::int64_t n, const config& cfg) {
  const bool half = cfg.variant == 0 || cfg.variant == 3 || cfg.variant == 4;
  const std::int64_t most = capacity_for(n, half);
  const std::int64_t hinted = cfg.expected_distinct > 0 ? capacity_for(cfg.expected_distinct, half) : most;
  return hinted < most ? hinted : most;
}

// 32-bit counts are enough unless N itself does not fit in 32 bits.
bool wide_counts(std::int64_t n) { return n > 0xFFFFFFFFll; }

std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// Where everything lives for a one-level table of `capacity` slots: the state; the table
// (keys, then counts), whose memory is the sort's second pair buffer once compact has run;
// the compacted pairs; the sort's scratch.
struct layout {
  table_state* state;
  unsigned long long* table_keys;
  void* table_counts;
  std::uint64_t* keys[2];
  std::uint64_t* values[2];
  void* sort_scratch;
  std::size_t bytes;
};

layout place(void* base, std::int64_t capacity) {
  auto* p = static_cast<unsigned char*>(base);
  layout l{};
  const auto cap = static_cast<std::size_t>(capacity);
  std::size_t offset = 0;
  l.state = reinterpret_cast<table_state*>(p + offset);
  offset += 256;
  l.table_keys = reinterpret_cast<unsigned long long*>(p + offset);
  l.keys[1] = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += cap * sizeof(std::uint64_t);
  l.table_counts = p + offset;  // 4 or 8 bytes a slot; 8 reserved
  l.values[1] = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += cap * sizeof(std::uint64_t);
  l.keys[0] = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += cap * sizeof(std::uint64_t);
  l.values[0] = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += cap * sizeof(std::uint64_t);
  l.sort_scratch = p + offset;
  offset += detail::sort_pairs_scratch_bytes(capacity);
  l.bytes = offset;
  return l;
}

unsigned grid_for(std::int64_t work) {
  const std::int64_t fill = static_cast<std::int64_t>(counting::multiprocessor_count()) * (2048 / block);
  const std::int64_t needed = wb::ceil_div(work > 0 ? work : 1, block);
  return static_cast<unsigned>(needed < fill ? needed : fill);
}

// Optional phase timing (COUNTING_STAGE7_PHASES=1 in the environment): events between the
// steps, printed as one line per call. Off, it does nothing.
class phase_clock {
 public:
  phase_clock() : on_(std::getenv("COUNTING_STAGE7_PHASES") != nullptr) {}
  phase_clock(const phase_clock&) = delete;
  phase_clock& operator=(const phase_clock&) = delete;
  ~phase_clock() {
    for (auto& m : marks_) cudaEventDestroy(m.second);
  }
  bool on() const { return on_; }
  void mark(const char* name) {
    if (!on_) return;
    cudaEvent_t e{};
    WB_CHECK(cudaEventCreate(&e));
    WB_CHECK(cudaEventRecord(e, 0));
    marks_.emplace_back(name, e);
  }
  void print(const char* path) {
    if (!on_ || marks_.size() < 2) return;
    WB_CHECK(cudaEventSynchronize(marks_.back().second));
    std::string line = std::string("stage 7 phases (") + path + "):";
    float total = 0;
    for (std::size_t i = 1; i < marks_.size(); ++i) {
      float ms = 0;
      WB_CHECK(cudaEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
      total += ms;
      line += ' ';
      line += marks_[i].first;
      line += ' ';
      line += std::to_string(ms);
    }
    std::fprintf(stderr, "%s total %f ms\n", line.c_str(), total);
  }

 private:
  bool on_;
  std::vector<std::pair<const char*, cudaEvent_t>> marks_;
};

// Steps 1 and 2 on a table of `capacity` slots; returns the state read back from the device.
template <class Count>
table_state build_table(const std::int64_t* in, std::int64_t n, const layout& l, std::int64_t capacity,
                        bool aggregate, phase_clock& clock) {
  const ht::table_view<Count> t{l.table_keys, static_cast<Count*>(l.table_counts),
                                static_cast<unsigned long long>(capacity)};
  wb::launch({grid_for(capacity), block}, clear_table_kernel<Count>, t, l.state);
  clock.mark("clear");
  if (n > 0) {
    wb::launch({grid_for(n), block}, aggregate ? insert_kernel<true, Count> : insert_kernel<false, Count>, in, n, t,
               l.state);
  }
  clock.mark("insert");
  wb::launch({grid_for(capacity), block}, compact_kernel<Count>, t,
             reinterpret_cast<unsigned long long*>(l.keys[0]), reinterpret_cast<unsigned long long*>(l.values[0]),
             l.state);
  clock.mark("compact");
  table_state host{};
  WB_CHECK(cudaMemcpy(&host, l.state, sizeof host, cudaMemcpyDeviceToHost));
  clock.mark("readback");
  return host;
}

table_state build(const std::int64_t* in, std::int64_t n, const layout& l, std::int64_t capacity, const config& cfg,
                  phase_clock& clock) {
  const bool aggregate = cfg.variant != 1 && cfg.variant != 4;
  return wide_counts(n) ? build_table<unsigned long long>(in, n, l, capacity, aggregate, clock)
                        : build_table<unsigned>(in, n, l, capacity, aggregate, clock);
}

// ---- the two-level plan and its memory ----
struct two_level_plan {
  bool use = false;
  int bucket_bits = 0;
  std::int64_t capacity = 0;        // places of each bucket
  std::int64_t spill_capacity = 0;  // slots of the spill table
  std::int64_t max_pairs = 0;       // pairs the bucket tables and the spill table can give
};

// Two-level when asked for (variant 0), N below 2^32 (the tables' counts are 32-bit) and the
// expected distinct keys (the hint, or N) fit in 1024 buckets planned 1/4 full (shorter
// probes: the lanes of a warp wait for the longest; measured 0.33-0.46 ms for the tables
// against 0.53 ms half full, on an H100). A bucket has room for its fair share of N
// plus 1/8 (for uniform hashes of 2^26 keys into 512 buckets that is 45 standard
// deviations) plus 1024.
two_level_plan plan_two_level(std::int64_t n, const config& cfg) {
  two_level_plan p;
  const std::int64_t expected = cfg.expected_distinct > 0 && cfg.expected_distinct < n ? cfg.expected_distinct : n;
  if (cfg.variant != 0 || n <= 0 || n > 0xFFFFFFFFll || expected > (bucket_planned_keys << max_bucket_bits))
    return p;
  p.use = true;
  while ((bucket_planned_keys << p.bucket_bits) < expected) ++p.bucket_bits;
  const std::int64_t buckets = std::int64_t{1} << p.bucket_bits;
  const std::int64_t fair = wb::ceil_div(n, buckets);
  p.capacity = (fair + fair / 8 + 1024 + 31) / 32 * 32;
  p.spill_capacity = capacity_for(expected, true);
  p.max_pairs = buckets * bucket_max_keys + p.spill_capacity;
  return p;
}

struct two_level_layout {
  table_state* state;
  unsigned long long* fill;       // keys sent to each bucket (past its capacity too)
  unsigned long long* bucketed;   // bucket b's hashes at [b * capacity, (b + 1) * capacity)
  unsigned long long* spill_keys;
  unsigned* spill_counts;
  unsigned* heads;                // run heads of the sorted pairs, then their places
  void* scan_scratch;
  std::uint64_t* keys[2];
  std::uint64_t* values[2];
  void* sort_scratch;
  std::size_t bytes;
};

two_level_layout place_two_level(void* base, const two_level_plan& p) {
  auto* b = static_cast<unsigned char*>(base);
  two_level_layout l{};
  std::size_t offset = 0;
  auto take = [&](std::size_t bytes) {
    unsigned char* at = b + offset;
    offset += round_up(bytes);
    return at;
  };
  const auto buckets = std::size_t{1} << p.bucket_bits;
  const auto pairs = static_cast<std::size_t>(p.max_pairs);
  const auto spill = static_cast<std::size_t>(p.spill_capacity);
  l.state = reinterpret_cast<table_state*>(take(256));
  l.fill = reinterpret_cast<unsigned long long*>(take(buckets * sizeof(unsigned long long)));
  l.bucketed = reinterpret_cast<unsigned long long*>(
      take(buckets * static_cast<std::size_t>(p.capacity) * sizeof(unsigned long long)));
  l.spill_keys = reinterpret_cast<unsigned long long*>(take(spill * sizeof(unsigned long long)));
  l.spill_counts = reinterpret_cast<unsigned*>(take(spill * sizeof(unsigned)));
  l.heads = reinterpret_cast<unsigned*>(take(pairs * sizeof(unsigned)));
  l.scan_scratch = take(detail::exclusive_scan_scratch_bytes(p.max_pairs));
  for (int i = 0; i < 2; ++i) {
    l.keys[i] = reinterpret_cast<std::uint64_t*>(take(pairs * sizeof(std::uint64_t)));
    l.values[i] = reinterpret_cast<std::uint64_t*>(take(pairs * sizeof(std::uint64_t)));
  }
  l.sort_scratch = take(detail::sort_pairs_scratch_bytes(p.max_pairs));
  l.bytes = offset;
  return l;
}

// Steps 1a, 1b and 2 of the two-level count; returns the state read back from the device.
table_state build_two_level(const std::int64_t* in, std::int64_t n, const two_level_layout& l,
                            const two_level_plan& p, phase_clock& clock) {
  const int buckets = 1 << p.bucket_bits;
  const ht::table_view<unsigned> spill{l.spill_keys, l.spill_counts, static_cast<unsigned long long>(p.spill_capacity)};
  wb::launch({grid_for(p.spill_capacity), block}, clear_table_kernel<unsigned>, spill, l.state);
  WB_CHECK(cudaMemsetAsync(l.fill, 0, static_cast<std::size_t>(buckets) * sizeof(unsigned long long)));
  clock.mark("clear");
  const std::int64_t tiles = wb::ceil_div(n, static_cast<std::int64_t>(scatter_tile));
  const std::int64_t resident = static_cast<std::int64_t>(counting::multiprocessor_count()) * 2;
  wb::launch({static_cast<unsigned>(tiles < resident ? tiles : resident), scatter_threads,
              scatter_tile * sizeof(unsigned long long)},
             bucket_scatter_kernel<unsigned>, in, n, p.bucket_bits, p.capacity, l.bucketed, l.fill, spill, l.state);
  clock.mark("scatter");
  const std::size_t table_shared = bucket_slots * (sizeof(unsigned long long) + sizeof(unsigned));
  wb::launch({static_cast<unsigned>(buckets), table_threads, table_shared},
             bucket_table_kernel, static_cast<const unsigned long long*>(l.bucketed), p.capacity,
             static_cast<const unsigned long long*>(l.fill), reinterpret_cast<unsigned long long*>(l.keys[0]),
             reinterpret_cast<unsigned long long*>(l.values[0]), l.state);
  clock.mark("bucket_tables");
  table_state host{};
  WB_CHECK(cudaMemcpy(&host, l.state, sizeof host, cudaMemcpyDeviceToHost));
  clock.mark("readback");
  if (host.overflow == 0 && host.spilled > 0) {  // the spill table's pairs go after the buckets'
    wb::launch({grid_for(p.spill_capacity), block}, compact_kernel<unsigned>, spill,
               reinterpret_cast<unsigned long long*>(l.keys[0]), reinterpret_cast<unsigned long long*>(l.values[0]),
               l.state);
    WB_CHECK(cudaMemcpy(&host, l.state, sizeof host, cudaMemcpyDeviceToHost));
    clock.mark("spill_compact");
  }
  if (clock.on()) {  // after the timed steps, so that these host calls are in none of them
    int scatter_per_sm = 0, table_per_sm = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&scatter_per_sm, bucket_scatter_kernel<unsigned>, scatter_threads,
                                                           scatter_tile * sizeof(unsigned long long)));
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&table_per_sm, bucket_table_kernel, table_threads, table_shared));
    std::fprintf(stderr, "two-level: %d buckets of %lld places; blocks per SM: scatter %d, tables %d\n", buckets,
                 static_cast<long long>(p.capacity), scatter_per_sm, table_per_sm);
  }
  return host;
}

// Step 3 and the table: sort the distinct pairs, write them out (INT64_MAX last). With
// `heads` (two-level, when keys spilled) a key may have two pairs, which are added up.
void sort_and_write(std::uint64_t* keys[2], std::uint64_t* values[2], void* sort_scratch, const table_state& st,
                    device_table<std::int64_t> out, phase_clock& clock, unsigned* heads = nullptr,
                    void* scan_scratch = nullptr) {
  const auto distinct = static_cast<std::int64_t>(st.distinct);
  const int result = detail::sort_pairs(keys, values, distinct, st.key_or ^ st.key_and, sort_scratch);
  clock.mark("sort");
  const auto* sorted_keys = reinterpret_cast<const unsigned long long*>(keys[result]);
  const auto* sorted_counts = reinterpret_cast<const unsigned long long*>(values[result]);
  if (heads == nullptr || distinct == 0) {
    wb::launch({grid_for(distinct), block}, write_table_kernel, sorted_keys, sorted_counts, distinct,
               st.sentinel_count, out);
  } else {
    wb::launch({grid_for(distinct), block}, run_heads_kernel, sorted_keys, distinct, heads);
    detail::exclusive_scan(heads, distinct, scan_scratch);
    wb::launch({grid_for(distinct), block}, write_runs_kernel, sorted_keys, sorted_counts, distinct,
               static_cast<const unsigned*>(heads), st.sentinel_count, out);
  }
  clock.mark("write");
}

}  // namespace

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  const two_level_plan p = plan_two_level(n, cfg);
  if (p.use) return place_two_level(nullptr, p).bytes;
  return place(nullptr, planned_capacity(n, cfg)).bytes;
}

// cfg.variant: 0 two-level (the default); one-level: 1 one atomic per item, 3/4 full; 2
// warp-aggregated, 3/4 full; 3 warp-aggregated, half full; 4 one atomic per item, half full.
void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg) {
  validate(cfg);
  phase_clock clock;
  clock.mark("start");
  const two_level_plan p = plan_two_level(n, cfg);
  if (p.use) {
    two_level_layout l = place_two_level(ws.data, p);
    if (ws.bytes < l.bytes) throw std::invalid_argument("count_hash_table: workspace too small");
    const table_state st = build_two_level(in, n, l, p, clock);
    if (st.overflow == 0) {
      sort_and_write(l.keys, l.values, l.sort_scratch, st, out, clock, st.spilled > 0 ? l.heads : nullptr,
                     l.scan_scratch);
      clock.print("two-level");
      return;
    }
  }
  // One level: the table from the hint; if the two-level count or the hinted table overflowed,
  // a table for N distinct keys.
  std::int64_t capacity = planned_capacity(n, cfg);
  wb::device_buffer<unsigned char> bigger;  // only if the hint was too small
  layout l = place(ws.data, capacity);
  table_state st{};
  if (!p.use) {
    if (ws.bytes < l.bytes) throw std::invalid_argument("count_hash_table: workspace too small");
    st = build(in, n, l, capacity, cfg, clock);
  }
  if (p.use || st.overflow != 0) {
    capacity = capacity_for(n);
    bigger = wb::device_buffer<unsigned char>(place(nullptr, capacity).bytes);
    l = place(bigger.data(), capacity);
    config one_level = cfg;
    one_level.variant = 2;  // the table for N keys: 3/4 full, warp-aggregated
    st = build(in, n, l, capacity, one_level, clock);
    if (st.overflow != 0) throw std::logic_error("count_hash_table: a table for N distinct keys overflowed");
  }
  sort_and_write(l.keys, l.values, l.sort_scratch, st, out, clock);
  clock.print(p.use ? "two-level overflowed, one-level" : "one-level");
  if (bigger.data() != nullptr) WB_CHECK(cudaStreamSynchronize(0));  // before `bigger` is freed
}

}  // namespace counting::WB_TRACK
