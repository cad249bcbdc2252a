// Stage 7: wide keys (int64) on the GPU: count by hashing where keys repeat, by sorting where
// they do not, and let a sample of the input choose.
//
// The library way to count int64 keys is to sort all N of them (radix sort: 8 passes over the
// data) and run-length encode the runs (the baseline, CUB). A hash table needs one pass over
// the items, but each item pays an atomic add on a table of D slots (D: the number of
// DISTINCT keys); where that table lives decides the cost. Four paths (cfg.variant forces
// one; 0 chooses):
//   1. shared tables (D up to ~6 thousand): every block counts its share of the items in a
//      hash table in its own SHARED memory (PMPP §9.4's privatisation, as stage 6 does for
//      256 bins) and adds its table into one global table at the end (forced with more keys
//      than a table holds: 2-8 partitions, each a further read of the input);
//   2. two-level (D up to ~19 million): bucket_scatter writes every key to one of 256 to
//      4096 buckets (a counting-sort pass, PMPP ch. 13), then one block per bucket counts it
//      in a shared-memory table. Buckets are ranges of KEYS where the sample shows the keys
//      spread evenly over their range: each block then sorts its bucket's few thousand pairs
//      itself, and the buckets' pairs in bucket order are the table (as a sample sort's
//      buckets are). Else (skewed keys) they are ranges of HASHES, and the keys the sample saw
//      most often (hot keys) are counted in the scatter instead of moved;
//   3. sort (D larger): the sort chapter's onesweep radix sort of all keys, then run-length
//      encoding (distinct_table.hpp): no table helps when almost every key is new;
//   4. one global table (the exercise's design): one pass, one L2 atomic per warp's key, in a
//      table that stays in L2; only forced, since the two-level count beat it on an H100.
// The hash paths (but the two-level count by key range) end by sorting only the DISTINCT
// (key, count) pairs (distinct_table.hpp). Hot keys in the tables: see add_keys.
//
// The choice (cfg.variant 0): a stratified sample of 2^16 items (hash_sample.hpp) is counted
// in a small global table; the keys it saw once and twice give the estimate of D. The paths
// size their tables from the estimate too (cfg.expected_distinct replaces it). An estimate
// can be wrong: a table that fills sets a flag, and the stage counts again by sorting, from
// the start: a wrong estimate costs time, never a count. The host reads back one small
// record after the sample and one after the hash count (how many distinct keys, did a table
// fill, which buckets the two-level count took: the device decides that and its kernels
// read the decision there).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "block_scan.cuh"
#include "counting.hpp"
#include "distinct_table.hpp"
#include "hash_sample.hpp"
#include "hash_table.cuh"
#include "phase_clock.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

namespace ht = hash_table;

struct table_state {
  unsigned long long distinct;        // pairs written by compact / the bucket tables
  unsigned long long sentinel_count;  // items equal to INT64_MAX (see hash_table.cuh)
  unsigned long long overflow;        // set when a table was full: count again by sorting
  unsigned long long spilled;         // two-level: items past their bucket's capacity
  unsigned long long sample_seen;     // the sample: distinct keys in it,
  unsigned long long sample_once;     // those seen once,
  unsigned long long sample_twice;    // and twice
  unsigned long long hot;             // two-level: hot keys listed (may pass max_hot: the first max_hot count)
  unsigned long long sample_min = ~0ull;  // the sample's smallest and largest (flipped) keys
  unsigned long long sample_max;
  unsigned long long range_min;       // the buckets by key range, as the device decided them
  unsigned long long range_mult;      // (0: buckets by hash; see range_most_kernel)
  unsigned long long sample_most;     // the most times the sample saw one key
};

enum class path : int { automatic = 0, shared_tables = 1, two_level = 2, sort = 3, global_table = 4 };

constexpr int block = 256;

unsigned grid_for(std::int64_t work) {
  const std::int64_t fill = static_cast<std::int64_t>(counting::multiprocessor_count()) * (2048 / block);
  const std::int64_t needed = wb::ceil_div(work > 0 ? work : 1, block);
  return static_cast<unsigned>(needed < fill ? needed : fill);
}

template <class Count>
__global__ void clear_table_kernel(ht::table_view<Count> t, table_state* state) {
  if (wb::global_thread_index() == 0) *state = table_state{};
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(t.capacity);
       i += wb::grid_thread_count()) {
    t.keys[i] = ht::empty_key;
    t.counts[i] = 0;
  }
}

// ---- The sample -----------------------------------------------------------------------------
__global__ void sample_insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<unsigned> t) {
  const std::int64_t samples = sample::sample_size(n);
  for (std::int64_t i = wb::global_thread_index(); i < samples; i += wb::grid_thread_count()) {
    const unsigned long long u = ht::flip(in[sample::position(i, n)]);
    if (u != ht::empty_key) ht::insert(t, u, 1u);  // INT64_MAX: one key more or less, no matter
  }
}

// Frequencies of frequencies: how many keys the sample saw at all, once, twice.
constexpr unsigned frequencies_blocks = 32;
__global__ void sample_frequencies_kernel(ht::table_view<unsigned> t, table_state* state) {
  unsigned long long seen = 0, once = 0, twice = 0, smallest = ~0ull, largest = 0, most = 0;
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(t.capacity);
       i += wb::grid_thread_count()) {
    const unsigned long long u = t.keys[i];
    if (u == ht::empty_key) continue;
    ++seen;
    once += t.counts[i] == 1u ? 1 : 0;
    twice += t.counts[i] == 2u ? 1 : 0;
    smallest = u < smallest ? u : smallest;
    largest = u > largest ? u : largest;
    most = t.counts[i] > most ? t.counts[i] : most;
  }
  for (int d = 16; d > 0; d >>= 1) {
    seen += __shfl_xor_sync(0xffffffffu, seen, d);
    once += __shfl_xor_sync(0xffffffffu, once, d);
    twice += __shfl_xor_sync(0xffffffffu, twice, d);
    const unsigned long long s = __shfl_xor_sync(0xffffffffu, smallest, d);
    const unsigned long long l = __shfl_xor_sync(0xffffffffu, largest, d);
    smallest = s < smallest ? s : smallest;
    largest = l > largest ? l : largest;
    const unsigned long long m = __shfl_xor_sync(0xffffffffu, most, d);
    most = m > most ? m : most;
  }
  if ((threadIdx.x & 31) == 0 && seen > 0) {
    atomicAdd(&state->sample_seen, seen);
    atomicAdd(&state->sample_once, once);
    atomicAdd(&state->sample_twice, twice);
    atomicMin(&state->sample_min, smallest);
    atomicMax(&state->sample_max, largest);
    atomicMax(&state->sample_most, most);
  }
}

// ---- Buckets by key range ------------------------------------------------------------------------
// Where the sample says the keys spread evenly over [min, max] (their buckets by VALUE hold
// about as many sampled keys each), the two-level count's buckets are ranges of keys instead
// of ranges of hashes: bucket b holds the keys of [min + b (max - min + 1) / B, ...). Then
// each bucket's (key, count) pairs, sorted inside its block, are a slice of the finished
// table, and no sort of all the pairs is needed (as a sample sort's buckets are, PMPP ch. 13;
// keys below the sample's min go to bucket 0, above its max to the last). mult == 0: buckets
// by hash.
struct range_map {
  unsigned long long min = 0;
  unsigned long long mult = 0;  // floor(2^64 B / (max - min + 1)), or B when that is 2^64
};

__host__ __device__ __forceinline__ unsigned range_bucket(unsigned long long u, range_map m, unsigned buckets) {
  if (u <= m.min) return 0;
#if defined(__CUDA_ARCH__)
  const unsigned long long b = __umul64hi(u - m.min, m.mult);
#else
  const auto b = static_cast<unsigned long long>((static_cast<unsigned __int128>(u - m.min) * m.mult) >> 64);
#endif
  return b < buckets ? static_cast<unsigned>(b) : buckets - 1u;
}

// The sampled items per range bucket, from the sample's table, less those of hot keys (seen
// `hot_from` times or more, 0: none; the scatter counts them, they fill no bucket): `sampled`
// (zero before) gets every block's counts, then one block finds the most in one bucket and
// the total, and decides: buckets by key range (the map in
// state->range_min, range_mult) where no bucket has more than the average plus 6 standard
// deviations (and 8 items), else by hash (range_mult 0). The decision stays on the device:
// the kernels after it read it there, so the host waits for nothing before the scatter.
constexpr int range_check_threads = 1024;
constexpr int range_check_blocks = 32;
__global__ void __launch_bounds__(range_check_threads)
    range_check_kernel(ht::table_view<unsigned> sample_table, unsigned hot_from, range_map m, unsigned buckets,
                       unsigned long long* sampled) {
  __shared__ unsigned here[1 << 12];
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads) here[b] = 0;
  __syncthreads();
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(sample_table.capacity);
       i += wb::grid_thread_count()) {
    const unsigned long long u = sample_table.keys[i];
    const unsigned c = sample_table.counts[i];
    if (u != ht::empty_key && (hot_from == 0 || c < hot_from)) atomicAdd(&here[range_bucket(u, m, buckets)], c);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads)
    if (here[b] > 0) atomicAdd(&sampled[b], static_cast<unsigned long long>(here[b]));
}

__global__ void __launch_bounds__(range_check_threads)
    range_most_kernel(const unsigned long long* sampled, unsigned buckets, range_map candidate, table_state* state) {
  __shared__ unsigned long long most, total;
  if (threadIdx.x == 0) most = total = 0;
  __syncthreads();
  unsigned long long mine = 0, sum = 0;
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads) {
    mine = sampled[b] > mine ? sampled[b] : mine;
    sum += sampled[b];
  }
  for (int d = 16; d > 0; d >>= 1) {  // each warp first, so that 32 lanes do not queue on one shared word
    const unsigned long long m = __shfl_xor_sync(0xffffffffu, mine, d);
    mine = m > mine ? m : mine;
    sum += __shfl_xor_sync(0xffffffffu, sum, d);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&most, mine);
    atomicAdd(&total, sum);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const double average = static_cast<double>(total) / static_cast<double>(buckets);
    const bool even = static_cast<double>(most) <= average + 6 * sqrt(average) + 8;
    state->range_min = candidate.min;
    state->range_mult = even ? candidate.mult : 0;
  }
}

__device__ __forceinline__ range_map range_decided(const table_state* state) {
  return {state->range_min, state->range_mult};
}

// ---- Adding a warp's keys, hot keys combined first -------------------------------------------
// How a thread's `items` keys (hashes or flipped keys; bit k of `valid`: key k is one) reach
// `add(key, count)` (`aggregate`):
//   0  one add per key. In shared memory this is the fastest here, hot keys included: the
//      table is per block, so a hot key costs shared-memory adds on its SM (the block's
//      table is the pre-aggregation), and lanes adding to one shared address were measured
//      no slower than lanes adding to different ones;
//   1  the lanes of a warp with the same key find each other (__match_any_sync, 64-bit) and
//      the lowest adds for all: for the global table, where 32 lanes adding to one L2 address
//      wait for each other (3.2x faster on zipf-like keys, measured);
//   2  the same on the low 32 bits (cheaper), then each lane checks its whole key against its
//      group's leader's, and the rare lane whose low word alone matched adds on its own.
// Every lane of the warp must call it (1 and 2 use warp-wide votes).
template <int aggregate, int items, class Add>
__device__ __forceinline__ void add_keys(const unsigned long long (&key)[items], unsigned valid, const Add& add) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const bool mine = (valid >> k) & 1u;
    if constexpr (aggregate == 0) {
      if (mine) add(key[k], 1u);
    } else if constexpr (aggregate == 1) {
      const unsigned peers = __match_any_sync(0xffffffffu, key[k]) & __ballot_sync(0xffffffffu, mine);
      if (mine && (peers & lanes_below) == 0) add(key[k], static_cast<unsigned>(__popc(peers)));
    } else {
      const unsigned peers =
          __match_any_sync(0xffffffffu, static_cast<unsigned>(key[k])) & __ballot_sync(0xffffffffu, mine);
      const int leader = mine ? __ffs(static_cast<int>(peers)) - 1 : lane;
      const bool same = __shfl_sync(0xffffffffu, key[k], leader) == key[k];
      const unsigned strangers = __ballot_sync(0xffffffffu, mine && !same);
      if (mine && !same) {
        add(key[k], 1u);
      } else if (mine && lane == leader) {
        add(key[k], static_cast<unsigned>(__popc(peers & ~strangers)));
      }
    }
  }
}

// ---- Shared tables (path 1) -------------------------------------------------------------------
// Every block counts its tiles' keys in its own table in shared memory (per-block
// pre-aggregation: a hot key costs shared-memory adds on its SM, never a global atomic per
// item), then adds the table into one global table. Per tile, every thread loads its 8 keys
// first (8 loads in flight), then adds them. When the table is full (more keys than the
// estimate promised) the block stops, and the host counts again by sorting.
constexpr int tile_items = 8;

template <int slots, int threads, int aggregate, bool partitioned>
__global__ void __launch_bounds__(threads)
    shared_tables_kernel(const std::int64_t* in, std::int64_t n, int partition_bits_given,
                         ht::table_view<unsigned> merged, table_state* state) {
  // (unpartitioned: a constant 0, so the filter below compiles away; it cost 12% at 2^10 keys)
  const int partition_bits = partitioned ? partition_bits_given : 0;
  constexpr unsigned max_keys = slots / 4 * 3;
  constexpr int tile = threads * tile_items;
  unsigned long long* keys = wb::dynamic_shared<unsigned long long>();
  auto* counts = reinterpret_cast<unsigned*>(keys + slots);
  __shared__ unsigned used;
  __shared__ int overflow;
  __shared__ unsigned long long sentinel;
  // Partitions: with 2^partition_bits of them, block b counts only the keys whose hash has
  // top bits b mod 2^partition_bits, and the blocks of one partition (a group) read all the
  // items between them: each table holds a share of the distinct keys, for one more read of
  // the input per partition.
  const unsigned partition = blockIdx.x & ((1u << partition_bits) - 1u);
  const std::int64_t group = blockIdx.x >> partition_bits;
  const std::int64_t groups = gridDim.x >> partition_bits;
  ht::shared_clear_hashed<slots>(keys, counts);
  if (threadIdx.x == 0) {
    used = 0;
    overflow = 0;
    sentinel = 0;
  }
  __syncthreads();
  auto add = [&](unsigned long long h, unsigned count) {
    if (h == ht::hashed_empty_key) {
      atomicAdd(&sentinel, static_cast<unsigned long long>(count));
    } else if (!ht::shared_add_hashed<slots>(keys, counts, &used, max_keys, h, count)) {
      atomicExch(&overflow, 1);
    }
  };
  for (std::int64_t base = group * tile; base < n; base += groups * tile) {
    unsigned long long h[tile_items];
    unsigned valid = 0;
#pragma unroll
    for (int k = 0; k < tile_items; ++k) {
      const std::int64_t j = base + k * threads + static_cast<int>(threadIdx.x);
      h[k] = j < n ? ht::mix(ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + j))) : 0;
      if (j < n && (!partitioned || ht::bucket_of_hash(h[k], partition_bits) == partition)) valid |= 1u << k;
    }
    add_keys<aggregate>(h, valid, add);
    if (__syncthreads_or(*static_cast<volatile int*>(&overflow)) != 0) break;
  }
  __syncthreads();
  if (overflow != 0) {
    if (threadIdx.x == 0) atomicExch(&state->overflow, 1ull);  // a flag other threads may set and read at once
    return;
  }
  // The block's table into the global one: a few thousand atomics per block, not one per item.
  for (int s = static_cast<int>(threadIdx.x); s < slots; s += threads) {
    const unsigned long long h = keys[s];
    if (h != ht::hashed_empty_key && !ht::insert(merged, ht::unmix(h), counts[s])) {
      atomicExch(&state->overflow, 1ull);  // a flag other threads may set and read at once
    }
  }
  if (threadIdx.x == 0 && sentinel > 0) atomicAdd(&state->sentinel_count, sentinel);
}

// ---- One global table (path 4; the merge target of path 1) ------------------------------------
// One pass over the items, one global atomic per key a thread adds, in a table that stays in
// L2. The input is read with evict-first loads (__ldcs): it is read once and must not push
// the table out of L2.
template <int aggregate, class Count>
__global__ void insert_kernel(const std::int64_t* in, std::int64_t n, ht::table_view<Count> t, table_state* state) {
  const std::int64_t tile = static_cast<std::int64_t>(blockDim.x) * tile_items;
  auto add = [&](unsigned long long u, unsigned count) {
    if (u == ht::empty_key) {
      atomicAdd(&state->sentinel_count, static_cast<unsigned long long>(count));
    } else if (!ht::insert(t, u, static_cast<Count>(count))) {
      atomicExch(&state->overflow, 1ull);  // a flag other threads may set and read at once
    }
  };
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * tile; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * tile) {
    unsigned long long u[tile_items];
    unsigned valid = 0;
#pragma unroll
    for (int k = 0; k < tile_items; ++k) {
      const std::int64_t j = base + k * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
      u[k] = j < n ? ht::flip(__ldcs(reinterpret_cast<const long long*>(in) + j)) : 0;
      if (j < n) valid |= 1u << k;
    }
    add_keys<aggregate>(u, valid, add);
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
  const auto capacity = static_cast<std::int64_t>(t.capacity);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * block;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * block; base < capacity; base += stride) {
    const std::int64_t i = base + threadIdx.x;
    const unsigned long long key = i < capacity ? t.keys[i] : ht::empty_key;
    const bool occupied = key != ht::empty_key;
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
}

// ---- The two-level count (path 2) -------------------------------------------------------------
// Every key is hashed once, h = mix(u) (a bijection: the hash stands for the key), and from
// then on the count works on hashes. Bucket b = the top bucket_bits of h owns a fixed run of
// `capacity` places in `bucketed`: its fair share of the items plus 1/8, so no count pass
// is needed to place the buckets. What does not fit (a hot key's bucket) spills into a
// global table, whose pairs join the buckets' before the sort.
constexpr int scatter_threads = 512;
constexpr int scatter_items = 16;                                  // keys a thread, per tile
constexpr int scatter_tile = scatter_threads * scatter_items;      // 8192 keys: 64 KB staged
constexpr int max_bucket_bits = 12;                                // at most 4096 buckets
constexpr int wide_bucket_bits = 10;  // up to 1024 buckets the scatter's arrays let 2 blocks share an SM
constexpr int bucket_slots = 8192;                                 // 64 KB of keys, 32 KB of counts
constexpr unsigned bucket_max_keys = bucket_slots * 3 / 4;         // more distinct keys: overflow
constexpr std::int64_t bucket_planned_keys = bucket_slots * 9 / 16;  // buckets are planned up to 9/16 (3/4 of their limit)
constexpr std::int64_t min_spill_keys = std::int64_t{1} << 19;       // the spill table holds N/16 keys, up to 2^19
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
    atomicExch(&state->overflow, 1ull);  // a flag other threads may set and read at once
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
__global__ void __launch_bounds__(scatter_threads, MaxBucketBits <= wide_bucket_bits ? 2 : 1)
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
  for (int i = static_cast<int>(threadIdx.x); i < hot; i += scatter_threads) {  // distinct keys: CAS claims a slot
    const unsigned long long key = hot_keys[i];
    unsigned slot = static_cast<unsigned>(key) & (hot_slots - 1u);
    while (atomicCAS(&hot_set[slot], ht::hashed_empty_key, key) != ht::hashed_empty_key) slot = (slot + 1u) & (hot_slots - 1u);
    hot_set_index[slot] = static_cast<unsigned short>(i);
  }
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
        unsigned slot = static_cast<unsigned>(h[k]) & (hot_slots - 1u);
        unsigned long long here;
        while ((here = hot_set[slot]) != h[k] && here != ht::hashed_empty_key) slot = (slot + 1u) & (hot_slots - 1u);
        if (here == h[k]) {
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
    unsigned tile_total = 0;
    const unsigned first = detail::block_exclusive_scan<scatter_threads>(mine, tile_total);
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
  for (int s = static_cast<int>(threadIdx.x); s < hot_slots; s += scatter_threads)
    if (hot_set_counts[s] > 0) atomicAdd(&hot_counts[hot_set_index[s]], static_cast<unsigned long long>(hot_set_counts[s]));
  if (threadIdx.x == 0 && spilled > 0) atomicAdd(&state->spilled, spilled);
}

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

// The place of this lane's item among those its warp claims at once from `counter` (a
// shared word): lane 0 adds the warp's claims with one atomic, each claiming lane takes the
// next place after the claiming lanes below it. Every lane of the warp calls it; the result
// means something only where `claims`.
__device__ __forceinline__ unsigned warp_claim(bool claims, unsigned* counter) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned ballot = __ballot_sync(0xffffffffu, claims);
  unsigned base = 0;
  if (lane == 0 && ballot != 0) base = atomicAdd(counter, static_cast<unsigned>(__popc(ballot)));
  base = __shfl_sync(0xffffffffu, base, 0);
  return base + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
}

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

// 1b. Block b counts bucket b's keys (the first `capacity`; the rest spilled) in a hash table
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
    if (threadIdx.x == 0) atomicExch(&state->overflow, 1ull);  // a flag other threads may set and read at once
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

// Slots for `expected` distinct keys at no more than 3/4 load, or 1/2 with `half_load` (a
// multiple of 32, at least 1024).
std::int64_t capacity_for(std::int64_t expected, bool half_load = false) {
  const std::int64_t e = expected > 0 ? expected : 1;
  const std::int64_t wanted = half_load ? 2 * e : e / 3 * 4 + 4;
  const std::int64_t slots = wanted < 1024 ? 1024 : wanted;
  return (slots + 31) / 32 * 32;
}

// 32-bit counts are enough unless N itself does not fit in 32 bits.
constexpr std::int64_t max_narrow_count = 0xFFFFFFFFll;

// Hands out 256-byte aligned pieces of the workspace in order; with a null base it only adds
// up the bytes (the *_workspace_bytes function).
class arena {
 public:
  explicit arena(void* base) : base_(static_cast<unsigned char*>(base)) {}
  template <class T>
  T* take(std::int64_t count) {
    unsigned char* at = base_ == nullptr ? nullptr : base_ + offset_;
    offset_ += (static_cast<std::size_t>(count > 0 ? count : 0) * sizeof(T) + 255) / 256 * 256;
    return reinterpret_cast<T*>(at);
  }
  void* rest() const { return base_ == nullptr ? nullptr : base_ + offset_; }
  std::size_t used() const { return offset_; }

 private:
  unsigned char* base_;
  std::size_t offset_ = 0;
};

table_state read_state(const table_state* state) {
  table_state host{};
  WB_CHECK(cudaMemcpy(&host, state, sizeof host, cudaMemcpyDeviceToHost));
  return host;
}

// ---- The estimate -----------------------------------------------------------------------------
// The sample's table: half full at most.
std::int64_t sample_slots(std::int64_t n) { return capacity_for(sample::sample_size(n), true); }

struct estimate_result {
  double distinct = 0;
  std::int64_t seen = 0;
  std::int64_t once = 0;
  ht::table_view<unsigned> sample_table{};  // the sample's keys and how often it saw each (capacity 0: none)
  unsigned long long min = 0, max = 0;       // the sample's smallest and largest flipped keys
  unsigned long long most = 0;               // the most times it saw one key
};

estimate_result estimate_distinct(const std::int64_t* in, std::int64_t n, table_state* state, arena& a) {
  const std::int64_t slots = sample_slots(n);
  const ht::table_view<unsigned> t{a.take<unsigned long long>(slots), a.take<unsigned>(slots),
                                   static_cast<unsigned long long>(slots)};
  wb::launch({grid_for(slots), block}, clear_table_kernel<unsigned>, t, state);
  wb::launch({grid_for(sample::sample_size(n)), block}, sample_insert_kernel, in, n, t);
  // (few blocks: each warp adds its sums to the state with six global atomics, and many
  // warps queueing on six words cost more than the few slots each thread reads)
  wb::launch({frequencies_blocks, block}, sample_frequencies_kernel, t, state);
  const table_state st = read_state(state);
  estimate_result r;
  r.seen = static_cast<std::int64_t>(st.sample_seen);
  r.once = static_cast<std::int64_t>(st.sample_once);
  r.sample_table = t;
  r.min = st.sample_min;
  r.most = st.sample_most;
  r.max = st.sample_max;
  r.distinct = sample::estimate(n, sample::sample_size(n), static_cast<double>(st.sample_seen),
                                static_cast<double>(st.sample_once), static_cast<double>(st.sample_twice));
  return r;
}

// Tables are planned for twice the estimate: Chao's estimate is a lower bound, low on skewed
// keys (a zipf-like tail is mostly keys seen once or never). Where the sample saw at most a
// quarter of its keys only once, it caught nearly every key, and the estimate is close
// (evenly spread keys, a few thousand of them): a quarter more is enough.
constexpr double plan_margin = 2.0;
constexpr double close_plan_margin = 1.25;
double margin_for(const estimate_result& e) {
  return e.seen > 0 && e.once * 4 <= e.seen ? close_plan_margin : plan_margin;
}

// The automatic choice: shared tables while the planned keys fit one block's table; the
// two-level count while it plans the keys in 4096 buckets; else the sort. (The one global
// table lost to the two-level count wherever the shared tables do not fit, on an H100.)

// ---- Path 1's plan and memory ----
struct shared_shape {
  int slots;
  int threads;
  int aggregate;
  using kernel_type = void (*)(const std::int64_t*, std::int64_t, int, ht::table_view<unsigned>, table_state*);
  kernel_type kernel;              // one table's worth of keys
  kernel_type partitioned_kernel;  // partitions
  std::int64_t max_keys() const { return slots / 4 * 3; }
  std::size_t shared_bytes() const {
    return static_cast<std::size_t>(slots) * (sizeof(unsigned long long) + sizeof(unsigned));
  }
};

template <int slots, int threads>
shared_shape shape_of(int aggregate) {
  switch (aggregate) {
    case 1: return {slots, threads, 1, shared_tables_kernel<slots, threads, 1, false>, shared_tables_kernel<slots, threads, 1, true>};
    case 2: return {slots, threads, 2, shared_tables_kernel<slots, threads, 2, false>, shared_tables_kernel<slots, threads, 2, true>};
    default: return {slots, threads, 0, shared_tables_kernel<slots, threads, 0, false>, shared_tables_kernel<slots, threads, 0, true>};
  }
}

// How hot keys are combined (add_keys): `fallback` (0 for shared-memory tables, 1 for the
// global one), unless COUNTING_STAGE7_AGGREGATE says 0, 1 or 2 (for the measurements in the
// README).
int aggregate_mode(int fallback) {
  const char* agg = std::getenv("COUNTING_STAGE7_AGGREGATE");
  const int mode = agg == nullptr ? fallback : std::atoi(agg);
  return mode >= 0 && mode <= 2 ? mode : fallback;
}

// The table a block keeps: 16384 slots in 192 KB, one block of 1024 threads per SM
// (COUNTING_STAGE7_SHARED=8k: 8192 slots and 512 threads, two blocks per SM, for the
// measurements in the README).
shared_shape shared_tables_shape() {
  const char* size = std::getenv("COUNTING_STAGE7_SHARED");
  // The cpu backend runs every thread as a fiber: the smaller blocks keep its checks quick.
  const bool small = (size != nullptr && std::string(size) == "8k") || !wb::backend_is_cuda;
  return small ? shape_of<8192, 512>(aggregate_mode(0)) : shape_of<16384, 1024>(aggregate_mode(0));
}

struct table_layout {
  unsigned long long* table_keys;
  unsigned* table_counts;
  unsigned long long* pair_keys;
  unsigned long long* pair_counts;
  void* scratch;
  std::size_t scratch_bytes;
};

// A global table of `capacity` slots (32-bit counts), its compacted pairs, the sort's scratch.
table_layout place_table(arena& a, std::int64_t capacity, std::size_t count_bytes = sizeof(unsigned)) {
  table_layout l{};
  l.table_keys = a.take<unsigned long long>(capacity);
  l.table_counts = reinterpret_cast<unsigned*>(a.take<unsigned char>(capacity * static_cast<std::int64_t>(count_bytes)));
  l.pair_keys = a.take<unsigned long long>(capacity);
  l.pair_counts = a.take<unsigned long long>(capacity);
  l.scratch_bytes = detail::distinct_table_scratch_bytes(capacity);
  l.scratch = a.rest();
  a.take<unsigned char>(static_cast<std::int64_t>(l.scratch_bytes));
  return l;
}

// Partitions of the shared tables: at most 2^max_partition_bits (each one more read of the
// input).
constexpr int max_partition_bits = 3;

// The fewest partitions whose tables hold `planned` keys (max_partition_bits + 1: none do);
// COUNTING_STAGE7_PARTITION_BITS=b forces 2^b (for the measurements in the README).
int partition_bits_for(const shared_shape& s, double planned) {
  if (const char* forced = std::getenv("COUNTING_STAGE7_PARTITION_BITS")) {
    const int b = std::atoi(forced);
    if (b >= 0 && b <= max_partition_bits) return b;
  }
  int bits = 0;
  while (bits <= max_partition_bits && planned > static_cast<double>(s.max_keys() << bits)) ++bits;
  return bits;
}

// The automatic choice takes the shared tables up to 2^auto_partition_bits() partitions: none,
// since every partition reads the input once more (on an H100, 2^14 distinct keys among
// 2^26: 1.56 ms with 2 partitions, 1.42 with 4, 2.07 with 8, the two-level count 1.2-1.3).
// COUNTING_STAGE7_AUTO_PARTITION_BITS overrides it, for measurements.
int auto_partition_bits() {
  if (const char* v = std::getenv("COUNTING_STAGE7_AUTO_PARTITION_BITS")) {
    const int b = std::atoi(v);
    if (b >= 0 && b <= max_partition_bits) return b;
  }
  return 0;
}

// The global table the blocks' tables are added into: every key the partitions' tables can
// hold, half full.
std::int64_t merged_capacity(const shared_shape& s, int partition_bits) {
  return capacity_for(s.max_keys() << partition_bits, true);
}

// Path 1; returns the state read back (overflow set: count again).
table_state run_shared_tables(const std::int64_t* in, std::int64_t n, const shared_shape& s, int partition_bits,
                              const table_layout& l, std::int64_t capacity, table_state* state, phase_clock& clock) {
  const ht::table_view<unsigned> merged{l.table_keys, l.table_counts, static_cast<unsigned long long>(capacity)};
  wb::launch({grid_for(capacity), block}, clear_table_kernel<unsigned>, merged, state);
  clock.mark("clear");
  int per_sm = 1;
  const shared_shape::kernel_type kernel = partition_bits > 0 ? s.partitioned_kernel : s.kernel;
#if defined(WB_BACKEND_CUDA)
  WB_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(s.shared_bytes())));
  WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, s.threads, s.shared_bytes()));
  if (per_sm < 1) per_sm = 1;
#endif
  const std::int64_t tile = static_cast<std::int64_t>(s.threads) * tile_items;
  const std::int64_t resident = static_cast<std::int64_t>(counting::multiprocessor_count()) * per_sm;
  // Every partition gets the same number of blocks (a group), which read all the items.
  const std::int64_t groups =
      std::min(std::max<std::int64_t>(1, resident >> partition_bits), std::max<std::int64_t>(1, wb::ceil_div(n, tile)));
  const std::int64_t blocks = groups << partition_bits;
  if (n > 0)
    wb::launch({static_cast<unsigned>(blocks), static_cast<unsigned>(s.threads), s.shared_bytes()}, kernel, in, n,
               partition_bits, merged, state);
  clock.mark("shared_tables");
  wb::launch({grid_for(capacity), block}, compact_kernel<unsigned>, merged, l.pair_keys, l.pair_counts, state);
  clock.mark("compact");
  const table_state st = read_state(state);
  clock.mark("readback");
  return st;
}

// ---- Path 4: one global table ----
std::int64_t global_capacity(std::int64_t n, double planned) {
  const double most = static_cast<double>(std::min<std::int64_t>(n, std::int64_t{1} << 24));
  return capacity_for(static_cast<std::int64_t>(std::min(planned, most)), true);
}

template <class Count>
table_state run_global_table(const std::int64_t* in, std::int64_t n, const table_layout& l, std::int64_t capacity,
                             table_state* state, phase_clock& clock) {
  const ht::table_view<Count> t{l.table_keys, reinterpret_cast<Count*>(l.table_counts),
                                static_cast<unsigned long long>(capacity)};
  wb::launch({grid_for(capacity), block}, clear_table_kernel<Count>, t, state);
  clock.mark("clear");
  if (n > 0) {
    const unsigned grid = grid_for(wb::ceil_div(n, tile_items));
    switch (aggregate_mode(1)) {
      case 0: wb::launch({grid, block}, insert_kernel<0, Count>, in, n, t, state); break;
      case 2: wb::launch({grid, block}, insert_kernel<2, Count>, in, n, t, state); break;
      default: wb::launch({grid, block}, insert_kernel<1, Count>, in, n, t, state); break;
    }
  }
  clock.mark("insert");
  wb::launch({grid_for(capacity), block}, compact_kernel<Count>, t, l.pair_keys, l.pair_counts, state);
  clock.mark("compact");
  const table_state st = read_state(state);
  clock.mark("readback");
  return st;
}

// ---- Path 2: the two-level plan and its memory ----
struct two_level_plan {
  bool use = false;
  int bucket_bits = 0;
  std::int64_t capacity = 0;        // places of each bucket
  std::int64_t spill_capacity = 0;  // slots of the spill table
  std::int64_t max_pairs = 0;       // pairs the bucket tables and the spill table can give
  std::int64_t room = 0;            // buckets by key range: places for a bucket's sorted pairs
};

// Two-level for N below 2^32 (the tables' counts are 32-bit) and `planned` keys that 4096
// buckets hold at 9/16 of their slots (a bucket refuses keys past 3/4): as few buckets as
// hold them so, but at least one per 2^14 items (up to 256) where keys spread evenly, so that
// the bucket tables fill the GPU (256 blocks: an H100 runs 264 at once), and one per 2^16
// (up to 1024) for skewed keys, so that an estimate that is low (zipf-like keys: the sample
// barely sees the tail) still finds room (zipf-like over 2^24 values: 1024 buckets 1.69 ms,
// 512 filled). Fewer buckets make the scatter's runs longer: on an H100, 2^26 keys over 2^14
// values took 0.94 ms with 256 buckets (scatter 0.54 ms) and 1.08 ms with 512 (0.65 ms). The spill table
// (the keys of buckets that a hot key filled) holds N/16 keys, up to 2^19, half full.
two_level_plan plan_two_level(std::int64_t n, double planned, double seen = 0, bool skewed = true) {
  two_level_plan p;
  if (n <= 0 || n > max_narrow_count || planned > static_cast<double>(bucket_planned_keys << max_bucket_bits))
    return p;
  p.use = true;
  const int least_bits = skewed ? 10 : 8;       // at least 1024 buckets (skewed keys) or 256,
  const int items_bits = skewed ? 16 : 14;       // one per 2^16 (or 2^14) items
  while (p.bucket_bits < least_bits && (std::int64_t{1} << (p.bucket_bits + items_bits)) < n) ++p.bucket_bits;
  while (p.bucket_bits < max_bucket_bits && static_cast<double>(bucket_planned_keys << p.bucket_bits) < planned)
    ++p.bucket_bits;
  if (const char* forced = std::getenv("COUNTING_STAGE7_BUCKET_BITS")) {  // for measurements
    const int bits = std::atoi(forced);
    if (bits >= 0 && bits <= max_bucket_bits) p.bucket_bits = bits;
  }
  const std::int64_t buckets = std::int64_t{1} << p.bucket_bits;
  const std::int64_t fair = wb::ceil_div(n, buckets);
  // Where every key has about as many items, a bucket's items vary as its number of keys
  // does: by 1/sqrt(keys a bucket) (2^14 keys in 512 buckets: 18%, and 1/8 of room made
  // buckets spill). The sample saw `seen` keys (fewer than there are): room for 4 standard
  // deviations of that, at least 1/8, at most the fair share again.
  const double keys_per_bucket = seen > 0 ? std::max(1.0, seen / static_cast<double>(buckets)) : 0;
  const double slack = keys_per_bucket > 0 ? std::clamp(4 / std::sqrt(keys_per_bucket), 0.125, 1.0) : 0.125;
  p.capacity = (fair + static_cast<std::int64_t>(std::ceil(slack * static_cast<double>(fair))) + 1024 + 31) / 32 * 32;
  const double spill_keys = static_cast<double>(std::min(n / 16, min_spill_keys));
  p.spill_capacity = capacity_for(static_cast<std::int64_t>(spill_keys), true);
  // A key has a pair in its bucket's table and, if it spilled, one in the spill table.
  // (and a hot key its one pair).
  // Buckets by key range give bucket b the places [b room, (b + 1) room) for its pairs.
  p.room = std::min(p.capacity, static_cast<std::int64_t>(bucket_max_keys));
  p.max_pairs = buckets * p.room + std::min(p.spill_capacity, n) + max_hot;
  return p;
}

struct two_level_layout {
  unsigned long long* fill;      // keys sent to each bucket (past its capacity too)
  unsigned long long* bucketed;  // bucket b's hashes at [b * capacity, (b + 1) * capacity)
  unsigned long long* spill_keys;
  unsigned* spill_counts;
  unsigned long long* hot_keys;    // hashes of the hot keys
  unsigned long long* hot_counts;  // and their counts
  unsigned long long* slice_used;    // buckets by key range: pairs of each bucket
  unsigned long long* slice_places;  // and their places in the table
  unsigned long long* pair_keys;
  unsigned long long* pair_counts;
  void* scratch;
  std::size_t scratch_bytes;
};

two_level_layout place_two_level(arena& a, const two_level_plan& p) {
  two_level_layout l{};
  const std::int64_t buckets = std::int64_t{1} << p.bucket_bits;
  l.fill = a.take<unsigned long long>(buckets);
  l.bucketed = a.take<unsigned long long>(buckets * p.capacity);
  l.spill_keys = a.take<unsigned long long>(p.spill_capacity);
  l.spill_counts = a.take<unsigned>(p.spill_capacity);
  l.hot_keys = a.take<unsigned long long>(max_hot);
  l.hot_counts = a.take<unsigned long long>(max_hot);
  l.slice_used = a.take<unsigned long long>(buckets);
  l.slice_places = a.take<unsigned long long>(buckets);
  l.pair_keys = a.take<unsigned long long>(p.max_pairs);
  l.pair_counts = a.take<unsigned long long>(p.max_pairs);
  l.scratch_bytes = detail::distinct_table_scratch_bytes(p.max_pairs);
  l.scratch = a.rest();
  a.take<unsigned char>(static_cast<std::int64_t>(l.scratch_bytes));
  return l;
}

// Buckets by key range for the two-level count, where the sample says they get about as many
// items each (decided on the device: range_most_kernel). A skewed input (zipf-like keys: most
// of them in the first buckets) gets buckets by hash, which spread any keys evenly. Returns
// the map to check, or mult == 0 where there is none to check (no sample, fewer values than
// buckets, or COUNTING_STAGE7_RANGE=0, which turns key ranges off for the measurements in the
// README).
range_map range_candidate(const estimate_result& e, int bucket_bits) {
  const char* off = std::getenv("COUNTING_STAGE7_RANGE");
  if (e.sample_table.capacity == 0 || e.seen < 2 || (off != nullptr && std::string(off) == "0")) return {};
  const auto buckets = static_cast<unsigned long long>(1) << bucket_bits;
  const unsigned long long span = e.max - e.min;  // max - min + 1 values
  if (span < buckets) return {};                  // (fewer values than buckets)
  range_map m;
  m.min = e.min;
  m.mult = span == ~0ull ? buckets
                         : static_cast<unsigned long long>((static_cast<unsigned __int128>(buckets) << 64) / (span + 1));
  return m;
}

// The sample count from which a key is hot: 8 times the sample's average per key seen (so
// that evenly spread keys are never hot), at least 4. A hot key's items are counted where
// they are read, never moved: the more items the list covers, the fewer the scatter writes.
// COUNTING_STAGE7_HOT=0 turns hot keys off (for the measurements in the README).
unsigned hot_threshold(std::int64_t n, const estimate_result& e) {
  const char* off = std::getenv("COUNTING_STAGE7_HOT");
  if (e.sample_table.capacity == 0 || e.seen == 0 || (off != nullptr && std::string(off) == "0")) return 0;
  const double samples = static_cast<double>(sample::sample_size(n));
  return static_cast<unsigned>(std::ceil(std::max(4.0, 8.0 * samples / static_cast<double>(e.seen))));
}

// Steps 1a, 1b and the spill table's pairs; returns the state read back from the device, the
// one wait for it. hot_from: the sample's table, whose keys seen `threshold` times or more are
// hot (0: none). candidate.mult != 0: buckets by key range if the device's check accepts them
// (state.range_mult != 0), and then the table is written to `out` here (unless the state says
// overflow or spilled: then the sort counts).
table_state run_two_level(const std::int64_t* in, std::int64_t n, const two_level_layout& l, const two_level_plan& p,
                          ht::table_view<unsigned> hot_from, unsigned threshold, range_map candidate,
                          device_table<std::int64_t> out, table_state* state, phase_clock& clock) {
  const int buckets = 1 << p.bucket_bits;
  const ht::table_view<unsigned> spill{l.spill_keys, l.spill_counts, static_cast<unsigned long long>(p.spill_capacity)};
  wb::launch({grid_for(p.spill_capacity), block}, clear_table_kernel<unsigned>, spill, state);
  WB_CHECK(cudaMemsetAsync(l.fill, 0, static_cast<std::size_t>(buckets) * sizeof(unsigned long long)));
  if (threshold > 0)
    wb::launch({grid_for(static_cast<std::int64_t>(hot_from.capacity)), block}, collect_hot_kernel, hot_from, threshold,
               l.hot_keys, l.hot_counts, state);
  clock.mark("clear");
  if (candidate.mult != 0) {  // (after the clear, which zeroes the state: by hash unless the check says so)
    WB_CHECK(cudaMemsetAsync(l.slice_used, 0, static_cast<std::size_t>(buckets) * sizeof(unsigned long long)));
    wb::launch({range_check_blocks, range_check_threads}, range_check_kernel, hot_from, threshold, candidate,
               static_cast<unsigned>(buckets), l.slice_used);
    wb::launch({1, range_check_threads}, range_most_kernel, static_cast<const unsigned long long*>(l.slice_used),
               static_cast<unsigned>(buckets), candidate, state);
  }
  clock.mark("range_check");
  const std::int64_t tiles = wb::ceil_div(n, static_cast<std::int64_t>(scatter_tile));
  // More than 1024 buckets: the scatter's per-bucket arrays (64 KB) leave room for one block an SM.
  const bool wide = p.bucket_bits <= wide_bucket_bits;
  const std::int64_t resident = static_cast<std::int64_t>(counting::multiprocessor_count()) * (wide ? 2 : 1);
  wb::launch({static_cast<unsigned>(tiles < resident ? tiles : resident), scatter_threads,
              scatter_shared_bytes(wide ? wide_bucket_bits : max_bucket_bits)},
             wide ? bucket_scatter_kernel<unsigned, wide_bucket_bits> : bucket_scatter_kernel<unsigned, max_bucket_bits>,
             in, n, p.bucket_bits, p.capacity, l.bucketed, l.fill, spill, static_cast<const unsigned long long*>(l.hot_keys),
             l.hot_counts, state);
  clock.mark("scatter");
  const std::size_t table_shared = bucket_slots * (sizeof(unsigned long long) + sizeof(unsigned));
  auto* table_kernel = bucket_table_kernel<0>;
  switch (aggregate_mode(0)) {
    case 1: table_kernel = bucket_table_kernel<1>; break;
    case 2: table_kernel = bucket_table_kernel<2>; break;
    default: break;
  }
  wb::launch({static_cast<unsigned>(buckets), table_threads, table_shared}, table_kernel,
             static_cast<const unsigned long long*>(l.bucketed), p.capacity,
             static_cast<const unsigned long long*>(l.fill), l.pair_keys, l.pair_counts,
             candidate.mult != 0 ? sorted_slices{l.slice_used, p.room, static_cast<unsigned>(buckets), l.hot_keys,
                                                 l.hot_counts}
                                 : sorted_slices{},
             state);
  if (candidate.mult != 0) {  // (they return at once where the check chose buckets by hash)
    wb::launch({1, slice_scan_threads}, slice_places_kernel, static_cast<const unsigned long long*>(l.slice_used),
               buckets, l.slice_places, static_cast<const table_state*>(state), out);
    wb::launch({static_cast<unsigned>(buckets), block}, copy_slices_kernel,
               static_cast<const unsigned long long*>(l.pair_keys), static_cast<const unsigned long long*>(l.pair_counts),
               p.room, static_cast<const unsigned long long*>(l.slice_used),
               static_cast<const unsigned long long*>(l.slice_places), out, static_cast<const table_state*>(state));
  }
  if (threshold > 0)  // (it returns at once by key range: they went into their buckets' tables)
    wb::launch({grid_for(max_hot), block}, append_hot_kernel, static_cast<const unsigned long long*>(l.hot_keys),
               static_cast<const unsigned long long*>(l.hot_counts), l.pair_keys, l.pair_counts, state);
  clock.mark("bucket_tables");
  table_state host = read_state(state);
  clock.mark("readback");
  if (host.range_mult != 0 && host.spilled > 0) host.overflow = 1;  // spilled pairs would need a merge: sort instead
  if (host.overflow == 0 && host.spilled > 0) {  // the spill table's pairs go after the buckets'
    wb::launch({grid_for(p.spill_capacity), block}, compact_kernel<unsigned>, spill, l.pair_keys, l.pair_counts,
               state);
    host = read_state(state);
    clock.mark("spill_compact");
  }
  return host;
}

// The bytes of every path for n items (the workspace holds the largest, after the state and
// the sample's table).
struct sizes {
  std::size_t front, shared, two_level, global, sort;
};

sizes path_bytes(std::int64_t n) {
  sizes s{};
  arena front(nullptr);
  front.take<table_state>(1);
  front.take<unsigned long long>(sample_slots(n));
  front.take<unsigned>(sample_slots(n));
  s.front = front.used();
  {
    arena a(nullptr);
    const shared_shape shape = shared_tables_shape();
    place_table(a, merged_capacity(shape, max_partition_bits));
    s.shared = a.used();
  }
  {
    arena a(nullptr);
    // the most buckets, each with the most room
    const two_level_plan p = plan_two_level(n, static_cast<double>(std::min(n, bucket_planned_keys << max_bucket_bits)), 1);
    if (p.use) place_two_level(a, p);
    s.two_level = a.used();
  }
  {
    arena a(nullptr);
    place_table(a, global_capacity(n, static_cast<double>(n)), sizeof(unsigned long long));
    s.global = a.used();
  }
  s.sort = detail::sort_count_scratch_bytes(n) + 256;
  return s;
}

std::string short_number(double x) {
  char buf[32];
  if (x < 10000)
    std::snprintf(buf, sizeof buf, "%.0f", x);
  else
    std::snprintf(buf, sizeof buf, "2^%.1f", std::log2(x));
  return buf;
}

}  // namespace

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  (void)cfg;
  const sizes s = path_bytes(n);
  return s.front + std::max({s.shared, s.two_level, s.global, s.sort});
}

// cfg.variant: 0 chooses from the sample's estimate; 1 shared tables; 2 two-level; 3 sort and
// run-length encode; 4 one global table. A table that fills ends in the sort.
void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg) {
  validate(cfg);
  if (ws.bytes < count_hash_table_workspace_bytes(n, cfg))
    throw std::invalid_argument("count_hash_table: workspace too small");
  phase_clock clock;
  clock.mark("start");
  arena front(ws.data);
  auto* state = front.take<table_state>(1);
  const auto forced = static_cast<path>(cfg.variant);
  std::string note;
  double expected = static_cast<double>(n);  // distinct keys: the estimate (or what cfg says)
  double planned = expected;                 // what the shared and global tables plan for
  path chosen = forced;
  estimate_result e;
  if (forced != path::sort && n > 0) {
    if (cfg.expected_distinct > 0) {
      e.distinct = static_cast<double>(cfg.expected_distinct);
      note = "told " + short_number(e.distinct) + " distinct";
      front.take<unsigned long long>(sample_slots(n));
      front.take<unsigned>(sample_slots(n));
    } else {
      e = estimate_distinct(in, n, state, front);
      note = "est. " + short_number(e.distinct) + " distinct";
    }
    clock.mark("estimate");
    expected = std::min(e.distinct, static_cast<double>(n));
    planned = std::min(e.distinct * (cfg.expected_distinct > 0 ? plan_margin : margin_for(e)), static_cast<double>(n));
  } else {
    front.take<unsigned long long>(sample_slots(n));
    front.take<unsigned>(sample_slots(n));
  }
  const shared_shape shape = shared_tables_shape();
  const int needed_partition_bits = partition_bits_for(shape, planned);  // (max_partition_bits + 1: none hold them)
  const int partition_bits = std::min(needed_partition_bits, max_partition_bits);
  // Skewed keys (the sample saw some key as often as a hot one; or no sample): the estimate is
  // likely low, and the two-level count takes more buckets.
  const unsigned hot_sample_count = hot_threshold(n, e);
  const bool skewed = e.sample_table.capacity == 0 || (hot_sample_count > 0 && e.most >= hot_sample_count);
  two_level_plan two_level = plan_two_level(n, expected, static_cast<double>(e.seen), skewed);
  if (forced == path::automatic) {
    if (n == 0 || n > max_narrow_count) {
      chosen = path::sort;
    } else if (needed_partition_bits <= auto_partition_bits()) {
      chosen = path::shared_tables;
    } else if (two_level.use) {
      chosen = path::two_level;
    } else {
      chosen = path::sort;
    }
  }
  if (chosen == path::shared_tables && n > max_narrow_count) chosen = path::global_table;
  arena a(front.rest());
  table_state st{};
  bool counted = false;  // false: the sort counts
  std::string what;
  if (chosen == path::shared_tables) {
    const std::int64_t capacity = merged_capacity(shape, partition_bits);
    const table_layout l = place_table(a, capacity);
    st = run_shared_tables(in, n, shape, partition_bits, l, capacity, state, clock);
    what = partition_bits == 0 ? "shared tables" : "shared tables, " + std::to_string(1 << partition_bits) + " partitions";
    if (st.overflow == 0) {
      detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct),
                                   st.sentinel_count, false, out, l.scratch, l.scratch_bytes, true);
      counted = true;
    }
  } else if (chosen == path::two_level) {
    if (!two_level.use)  // forced
      two_level = plan_two_level(n, static_cast<double>(std::min(n, bucket_planned_keys << max_bucket_bits)), static_cast<double>(e.seen));
    if (two_level.use) {
      const two_level_layout l = place_two_level(a, two_level);
      st = run_two_level(in, n, l, two_level, e.sample_table, hot_sample_count, range_candidate(e, two_level.bucket_bits),
                         out, state, clock);
      const bool by_range = st.range_mult != 0;
      what = "two-level, " + std::to_string(1 << two_level.bucket_bits) + " buckets";
      if (by_range) what += " by key range";
      if (st.hot > 0) what += ", " + std::to_string(std::min<unsigned long long>(st.hot, max_hot)) + " hot keys";
      if (st.overflow == 0 && by_range) {
        counted = true;  // the slices are the table
      } else if (st.overflow == 0) {
        detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct),
                                     st.sentinel_count, st.spilled > 0, out, l.scratch, l.scratch_bytes, true);
        counted = true;
      }
    } else {
      what = "two-level refused (N >= 2^32)";
      st.overflow = 1;
    }
  } else if (chosen == path::global_table) {
    const std::int64_t capacity = global_capacity(n, planned);
    const bool wide = n > max_narrow_count;
    const table_layout l = place_table(a, capacity, wide ? sizeof(unsigned long long) : sizeof(unsigned));
    st = wide ? run_global_table<unsigned long long>(in, n, l, capacity, state, clock)
              : run_global_table<unsigned>(in, n, l, capacity, state, clock);
    what = "global table";
    if (st.overflow == 0) {
      detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct),
                                   st.sentinel_count, false, out, l.scratch, l.scratch_bytes, !wide);
      counted = true;
    }
  }
  if (counted) {
    clock.mark("sorted_pairs");
  } else {
    if (chosen != path::sort) what += " full -> sort";
    else what = "sort";
    arena s(front.rest());
    const std::size_t bytes = detail::sort_count_scratch_bytes(n);
    detail::sort_run_length_encode(in, n, out, s.rest(), bytes);
    clock.mark("sort");
  }
  const std::string label = (forced == path::automatic ? "auto: " : "forced: ") + (note.empty() ? "" : note + " -> ") + what;
  clock.print("stage 7 phases (" + label + ")");
  set_stage_note(label);
}

}  // namespace counting::WB_TRACK
