// Stage 7: wide keys (int64) on the GPU: a hash table instead of a sort of every item.
//
// The library way to count int64 keys is to sort all N of them (CUB radix sort: 8 passes over
// the data) and run-length encode the runs (the baseline). But only the DISTINCT keys need to
// be in order. So:
//   1. insert: every item finds or claims its key's slot in a hash table with room for the
//      expected number of distinct keys, at most half full (hash_table.cuh), and adds one to
//      the slot's count: one pass over the items, one atomic each (2^20 keys: 16 MB of keys
//      and 8 MB of counts, which the H100's 50 MB L2 should hold; measured, see the README);
//   2. compact: the occupied slots are packed into (key, count) arrays;
//   3. sort only those pairs by key (sort_pairs.hpp), skipping the key bytes where all keys
//      agree, and write the table.
// That is the one-level count: cfg.variant 0 (the default: warp-aggregated, table at most half
// full), 1 (one atomic per item, 3/4 full), 2 (warp-aggregated, 3/4 full), 4 (one atomic per
// item, half full). Its insert is a random atomic in a table of many MB. Measured on an H100
// (README, run 5), the insert of 2^26 keys takes ~1.6 ms whether the table holds 2^12 or 2^20
// keys (86% L2 hits, 0.7 GB from DRAM: not memory-bound): ~45 G random global atomics a
// second is the ceiling of this design. Variant 4 is 2% faster than 0 on uniform keys, but
// 2.9x slower on zipf-like keys, where the warp aggregation merges the hot key's atomics.
// cfg.variant 3 is TWO-LEVEL, the same idea twice, so that every atomic is in shared memory:
//   1a. bucket_count: split the keys into P = 2^bucket_bits buckets by hash (P sized so a
//       bucket holds ~2048 distinct keys); each block counts its slice's keys per bucket;
//   1b. a scan turns those counts into places; bucket_scatter writes every key to its bucket
//       (a counting-sort pass, PMPP ch. 13, staged through shared memory so the writes are
//       runs of neighbours);
//   1c. bucket_table: one block per bucket counts its keys in a hash table in shared memory
//       and appends its (key, count) pairs: steps 1 and 2 in one kernel;
//   3.  sort the distinct pairs, as above.
// It moves the keys three times (read, read + write, read) instead of once, but at full
// bandwidth, instead of one random global atomic per key. A bucket with more distinct keys
// than its shared table holds (wrong hint, all keys distinct) sends the count back to the
// one-level table, sized for N keys. Measured on an H100 (README, run 3), the two-level count
// was SLOWER than the half-full one-level table (3.36 vs 2.38 ms at 2^26 keys, 2^20 distinct;
// 13.5 vs 3.4 ms on zipf-like keys, where one block gets the hot key's whole bucket), so it is
// a variant, not the default.
// The table's size comes from cfg.expected_distinct (like reserve() on a std::unordered_map).
// If more distinct keys turn up than fit, the insert reports it and the stage starts again
// with a table big enough for N distinct keys: a wrong hint costs time, never a wrong count.
// Between steps 2 and 3 the host reads back five numbers (distinct keys, the side count of
// INT64_MAX, the overflow flag, the OR and AND of the keys) to size the sort.
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
};

constexpr int block = 256;

template <class Count>
__global__ void clear_table_kernel(ht::table_view<Count> t, table_state* state) {
  if (wb::global_thread_index() == 0) *state = table_state{0, 0, 0, 0, ~0ull};
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

__global__ void write_table_kernel(const unsigned long long* keys, const unsigned long long* counts,
                                   std::int64_t distinct, unsigned long long sentinel_count,
                                   device_table<std::int64_t> out) {
  for (std::int64_t i = wb::global_thread_index(); i < distinct; i += wb::grid_thread_count()) {
    out.values[i] = ht::unflip(keys[i]);
    out.counts[i] = counts[i];
  }
  if (wb::global_thread_index() == 0) {
    std::int64_t size = distinct;
    if (sentinel_count > 0) {  // INT64_MAX, the largest key: last
      out.values[size] = ht::unflip(ht::empty_key);
      out.counts[size] = sentinel_count;
      ++size;
    }
    *out.size = size;
  }
}


// ---- The two-level count (variant 3) -----------------------------------------------------------
constexpr int part_threads = 512;                   // bucket_count and bucket_scatter
constexpr int part_items = 8;                       // keys a thread, per tile
constexpr int part_tile = part_threads * part_items;  // 4096 keys staged per tile (32 KB)
constexpr int max_bucket_bits = 10;                 // at most 1024 buckets
constexpr int bucket_slots = 4096;                  // a bucket's table: 32 KB keys + 16 KB counts
constexpr unsigned bucket_max_keys = bucket_slots * 3 / 4;  // more distinct keys: overflow
constexpr std::int64_t bucket_planned_keys = 2048;  // buckets are planned for this many (load 1/2)
constexpr int table_threads = 512;                  // bucket_table

// 1a. counts[b * blocks + g] = keys in block g's slice [g * slice, (g + 1) * slice) whose
// bucket is b (bucket-major, so one exclusive scan gives every (bucket, block) its place).
__global__ void bucket_count_kernel(const std::int64_t* in, std::int64_t n, std::int64_t slice, int bucket_bits,
                                    unsigned* counts) {
  __shared__ unsigned histogram[1 << max_bucket_bits];
  const int buckets = 1 << bucket_bits;
  for (int b = static_cast<int>(threadIdx.x); b < buckets; b += part_threads) histogram[b] = 0;
  __syncthreads();
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * slice;
  const std::int64_t end = begin + slice < n ? begin + slice : n;
  for (std::int64_t i = begin + threadIdx.x; i < end; i += part_threads) {
    atomicAdd(&histogram[ht::bucket_of(ht::flip(in[i]), bucket_bits)], 1u);
  }
  __syncthreads();
  for (int b = static_cast<int>(threadIdx.x); b < buckets; b += part_threads)
    counts[static_cast<std::int64_t>(b) * gridDim.x + blockIdx.x] = histogram[b];
}

// 1b. Block g moves its slice's keys (flipped) to their buckets: places[b * blocks + g] is
// where its first key of bucket b goes. Per tile of 4096 keys: rank each key among the
// tile's keys of its bucket (a shared atomicAdd), scan the tile's bucket counts, stage the
// keys in shared memory grouped by bucket, then write the staged keys in order, so that
// neighbouring threads write neighbouring places.
__global__ void bucket_scatter_kernel(const std::int64_t* in, std::int64_t n, std::int64_t slice, int bucket_bits,
                                      const unsigned* places, unsigned long long* out) {
  __shared__ unsigned long long staged[part_tile];
  __shared__ unsigned cursor[1 << max_bucket_bits];      // the next place of each bucket
  __shared__ unsigned tile_start[1 << max_bucket_bits];  // the tile's counts, then their scan
  const int buckets = 1 << bucket_bits;
  const int per_thread = (buckets + part_threads - 1) / part_threads;  // 1 or 2
  for (int b = static_cast<int>(threadIdx.x); b < buckets; b += part_threads)
    cursor[b] = places[static_cast<std::int64_t>(b) * gridDim.x + blockIdx.x];
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * slice;
  const std::int64_t end = begin + slice < n ? begin + slice : n;
  for (std::int64_t tile = begin; tile < end; tile += part_tile) {
    const int items = static_cast<int>(end - tile < part_tile ? end - tile : part_tile);
    for (int b = static_cast<int>(threadIdx.x); b < buckets; b += part_threads) tile_start[b] = 0;
    __syncthreads();
    unsigned long long key[part_items] = {};
    unsigned bucket[part_items] = {}, rank[part_items] = {};
#pragma unroll
    for (int k = 0; k < part_items; ++k) {
      const int j = k * part_threads + static_cast<int>(threadIdx.x);
      if (j < items) {
        key[k] = ht::flip(in[tile + j]);
        bucket[k] = ht::bucket_of(key[k], bucket_bits);
        rank[k] = atomicAdd(&tile_start[bucket[k]], 1u);
      }
    }
    __syncthreads();
    // Thread t owns buckets [t * per_thread, (t + 1) * per_thread).
    unsigned mine = 0;
    for (int q = 0; q < per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (b < buckets) mine += tile_start[b];
    }
    // (the scan's barriers also end the reads above)
    unsigned tile_total = 0;
    unsigned running = detail::block_exclusive_scan<part_threads>(mine, tile_total);
    for (int q = 0; q < per_thread; ++q) {
      const int b = static_cast<int>(threadIdx.x) * per_thread + q;
      if (b < buckets) {
        const unsigned c = tile_start[b];
        tile_start[b] = running;
        running += c;
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < part_items; ++k) {
      const int j = k * part_threads + static_cast<int>(threadIdx.x);
      if (j < items) staged[tile_start[bucket[k]] + rank[k]] = key[k];
    }
    __syncthreads();
    for (int j = static_cast<int>(threadIdx.x); j < items; j += part_threads) {
      const unsigned long long u = staged[j];
      const unsigned b = ht::bucket_of(u, bucket_bits);
      out[cursor[b] + static_cast<unsigned>(j) - tile_start[b]] = u;
    }
    __syncthreads();
    for (int b = static_cast<int>(threadIdx.x); b < buckets; b += part_threads) {
      const unsigned next = b + 1 < buckets ? tile_start[b + 1] : static_cast<unsigned>(items);
      cursor[b] += next - tile_start[b];
    }
    __syncthreads();
  }
}

// 1c. Block b counts bucket b (keys [places[b * blocks], places[(b + 1) * blocks]) of the
// scattered array) in a shared-memory hash table, then appends its occupied slots to
// keys/counts (one global atomicAdd per block reserves its places; the order is the sort's
// business). Lanes with equal keys add together (__match_any_sync), as in insert_kernel:
// a hot key costs one shared atomic per warp.
__global__ void bucket_table_kernel(const unsigned long long* scattered, std::int64_t n, const unsigned* places,
                                    unsigned part_blocks, unsigned long long* keys, unsigned long long* counts,
                                    table_state* state) {
  unsigned long long* table_keys = wb::dynamic_shared<unsigned long long>();
  auto* table_counts = reinterpret_cast<unsigned*>(table_keys + bucket_slots);
  __shared__ unsigned used, written;
  __shared__ int overflow;
  __shared__ unsigned long long sentinel, key_or, key_and, base;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const unsigned lanes_below = (1u << lane) - 1u;
  for (int s = static_cast<int>(threadIdx.x); s < bucket_slots; s += table_threads) {
    table_keys[s] = ht::empty_key;
    table_counts[s] = 0;
  }
  if (threadIdx.x == 0) {
    used = 0;
    written = 0;
    overflow = 0;
    sentinel = 0;
    key_or = 0;
    key_and = ~0ull;
  }
  __syncthreads();
  const std::int64_t begin = places[static_cast<std::int64_t>(blockIdx.x) * part_blocks];
  const std::int64_t end =
      blockIdx.x + 1 < gridDim.x ? static_cast<std::int64_t>(places[static_cast<std::int64_t>(blockIdx.x + 1) * part_blocks]) : n;
  // Every lane of a warp runs the same rounds (the match needs the whole warp).
  for (std::int64_t base_i = begin + (threadIdx.x - lane); base_i < end; base_i += table_threads) {
    // Another warp's overflow ends this one too (everything is counted again with a global
    // table); an atomic read, because other warps write the flag while this one runs.
    const int seen = lane == 0 ? atomicOr(&overflow, 0) : 0;
    if (__any_sync(0xffffffffu, seen != 0)) break;
    const std::int64_t i = base_i + lane;
    const bool valid = i < end;
    const unsigned long long u = valid ? scattered[i] : 0;
    const unsigned valid_lanes = __ballot_sync(0xffffffffu, valid);
    const unsigned peers = __match_any_sync(0xffffffffu, u) & valid_lanes;
    if (!valid || (peers & lanes_below) != 0) continue;
    const auto count = static_cast<unsigned>(__popc(peers));
    if (u == ht::empty_key) {
      atomicAdd(&sentinel, static_cast<unsigned long long>(count));
    } else {
      ht::shared_insert<bucket_slots>(table_keys, table_counts, &used, &overflow, bucket_max_keys, u, count);
    }
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
    const unsigned long long u = table_keys[s];
    const bool occupied = u != ht::empty_key;
    const unsigned ballot = __ballot_sync(0xffffffffu, occupied);
    unsigned warp_base = 0;
    if (lane == 0 && ballot != 0) warp_base = atomicAdd(&written, static_cast<unsigned>(__popc(ballot)));
    warp_base = __shfl_sync(0xffffffffu, warp_base, 0);
    if (occupied) {
      const unsigned long long place = base + warp_base + static_cast<unsigned>(__popc(ballot & lanes_below));
      keys[place] = u;
      counts[place] = table_counts[s];
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

__global__ void clear_state_kernel(table_state* state) {
  if (wb::global_thread_index() == 0) *state = table_state{0, 0, 0, 0, ~0ull};
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
  const bool half = cfg.variant == 0 || cfg.variant == 4;
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
  unsigned part_blocks = 1;   // blocks of bucket_count/bucket_scatter
  std::int64_t slice = 0;     // keys per such block
  std::int64_t max_pairs = 0; // distinct keys the buckets can hold
};

// Two-level when asked for (variant 3) and the expected distinct keys (the hint, or N) fit in
// 1024 buckets of ~2048 planned keys; N below 2^32 (the places are 32-bit).
two_level_plan plan_two_level(std::int64_t n, const config& cfg) {
  two_level_plan p;
  const std::int64_t expected = cfg.expected_distinct > 0 && cfg.expected_distinct < n ? cfg.expected_distinct : n;
  if (cfg.variant != 3 || n <= 0 || n > 0xFFFFFFFFll || expected > (bucket_planned_keys << max_bucket_bits))
    return p;
  p.use = true;
  while ((bucket_planned_keys << p.bucket_bits) < expected) ++p.bucket_bits;
  const std::int64_t most_blocks = static_cast<std::int64_t>(counting::multiprocessor_count()) * 4;
  const std::int64_t tiles = wb::ceil_div(n, static_cast<std::int64_t>(part_tile));
  p.part_blocks = static_cast<unsigned>(tiles < most_blocks ? tiles : most_blocks);
  p.slice = wb::ceil_div(tiles, static_cast<std::int64_t>(p.part_blocks)) * part_tile;
  p.part_blocks = static_cast<unsigned>(wb::ceil_div(n, p.slice));
  p.max_pairs = (std::int64_t{1} << p.bucket_bits) * bucket_max_keys;
  return p;
}

struct two_level_layout {
  table_state* state;
  unsigned long long* scattered;  // the keys, flipped, grouped by bucket
  unsigned* places;               // (bucket, block) counts, then their exclusive scan
  void* scan_scratch;
  std::uint64_t* keys[2];
  std::uint64_t* values[2];
  void* sort_scratch;
  std::size_t bytes;
};

two_level_layout place_two_level(void* base, std::int64_t n, const two_level_plan& p) {
  auto* b = static_cast<unsigned char*>(base);
  two_level_layout l{};
  std::size_t offset = 0;
  auto take = [&](std::size_t bytes) {
    unsigned char* at = b + offset;
    offset += round_up(bytes);
    return at;
  };
  const std::int64_t entries = (std::int64_t{1} << p.bucket_bits) * p.part_blocks;
  const auto pairs = static_cast<std::size_t>(p.max_pairs) * sizeof(std::uint64_t);
  l.state = reinterpret_cast<table_state*>(take(256));
  l.scattered = reinterpret_cast<unsigned long long*>(take(static_cast<std::size_t>(n) * sizeof(std::uint64_t)));
  l.places = reinterpret_cast<unsigned*>(take(static_cast<std::size_t>(entries) * sizeof(unsigned)));
  l.scan_scratch = take(detail::exclusive_scan_scratch_bytes(entries));
  for (int i = 0; i < 2; ++i) {
    l.keys[i] = reinterpret_cast<std::uint64_t*>(take(pairs));
    l.values[i] = reinterpret_cast<std::uint64_t*>(take(pairs));
  }
  l.sort_scratch = take(detail::sort_pairs_scratch_bytes(p.max_pairs));
  l.bytes = offset;
  return l;
}

table_state build_two_level(const std::int64_t* in, std::int64_t n, const two_level_layout& l,
                            const two_level_plan& p, phase_clock& clock) {
  const int buckets = 1 << p.bucket_bits;
  wb::launch({1, 32}, clear_state_kernel, l.state);
  wb::launch({p.part_blocks, part_threads}, bucket_count_kernel, in, n, p.slice, p.bucket_bits, l.places);
  clock.mark("bucket_count");
  detail::exclusive_scan(l.places, static_cast<std::int64_t>(buckets) * p.part_blocks, l.scan_scratch);
  clock.mark("scan");
  wb::launch({p.part_blocks, part_threads}, bucket_scatter_kernel, in, n, p.slice, p.bucket_bits,
             static_cast<const unsigned*>(l.places), l.scattered);
  clock.mark("bucket_scatter");
  const std::size_t shared = bucket_slots * (sizeof(unsigned long long) + sizeof(unsigned));
  // 48 KiB of dynamic shared memory plus the kernel's few static bytes is past the default
  // limit, which wb::launch raises only for dynamic sizes above 48 KiB: raise it here.
  WB_CHECK(cudaFuncSetAttribute(bucket_table_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(shared)));
  wb::launch({static_cast<unsigned>(buckets), table_threads, shared}, bucket_table_kernel,
             static_cast<const unsigned long long*>(l.scattered), n, static_cast<const unsigned*>(l.places),
             p.part_blocks, reinterpret_cast<unsigned long long*>(l.keys[0]),
             reinterpret_cast<unsigned long long*>(l.values[0]), l.state);
  clock.mark("bucket_table");
  table_state host{};
  WB_CHECK(cudaMemcpy(&host, l.state, sizeof host, cudaMemcpyDeviceToHost));
  clock.mark("readback");
  return host;
}

// Step 3 and the table: sort the distinct pairs, write them out (INT64_MAX last).
void sort_and_write(std::uint64_t* keys[2], std::uint64_t* values[2], void* sort_scratch, const table_state& st,
                    device_table<std::int64_t> out, phase_clock& clock) {
  const auto distinct = static_cast<std::int64_t>(st.distinct);
  const int result = detail::sort_pairs(keys, values, distinct, st.key_or ^ st.key_and, sort_scratch);
  clock.mark("sort");
  wb::launch({grid_for(distinct), block}, write_table_kernel,
             static_cast<const unsigned long long*>(reinterpret_cast<unsigned long long*>(keys[result])),
             static_cast<const unsigned long long*>(reinterpret_cast<unsigned long long*>(values[result])),
             distinct, st.sentinel_count, out);
  clock.mark("write");
}

}  // namespace

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  const two_level_plan p = plan_two_level(n, cfg);
  if (p.use) return place_two_level(nullptr, n, p).bytes;
  return place(nullptr, planned_capacity(n, cfg)).bytes;
}

// cfg.variant: 0 one-level, warp-aggregated, table at most half full (the default, fastest in
// run 3); 1 one-level, one atomic per item; 2 one-level, warp-aggregated; 3 two-level.
void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg) {
  validate(cfg);
  phase_clock clock;
  clock.mark("start");
  const two_level_plan p = plan_two_level(n, cfg);
  if (p.use) {
    two_level_layout l = place_two_level(ws.data, n, p);
    if (ws.bytes < l.bytes) throw std::invalid_argument("count_hash_table: workspace too small");
    const table_state st = build_two_level(in, n, l, p, clock);
    if (st.overflow == 0) {
      sort_and_write(l.keys, l.values, l.sort_scratch, st, out, clock);
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
