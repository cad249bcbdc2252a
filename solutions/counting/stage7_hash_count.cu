// Stage 7: wide keys (int64) on the GPU: a hash table instead of a sort of every item.
//
// The library way to count int64 keys is to sort all N of them (CUB radix sort: 8 passes over
// the data) and run-length encode the runs (the baseline). But only the DISTINCT keys need to
// be in order. So:
//   1. insert: every item finds or claims its key's slot in a hash table with room for the
//      expected number of distinct keys at 3/4 load (hash_table.cuh) and adds one to the
//      slot's count: one pass over the items, one atomic each, on a table small enough to
//      stay in the L2 cache;
//   2. compact: the occupied slots are packed into (key, count) arrays;
//   3. sort only those pairs by key (sort_pairs.hpp), skipping the key bytes where all keys
//      agree, and write the table.
// The table's size comes from cfg.expected_distinct (like reserve() on a std::unordered_map).
// If more distinct keys turn up than fit, the insert reports it and the stage starts again
// with a table big enough for N distinct keys: a wrong hint costs time, never a wrong count.
// Between steps 2 and 3 the host reads back five numbers (distinct keys, the side count of
// INT64_MAX, the overflow flag, the OR and AND of the keys) to size the sort.
#include <stdexcept>

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

// Slots for `expected` distinct keys at no more than 3/4 load (a multiple of 32, at least 1024).
std::int64_t capacity_for(std::int64_t expected) {
  const std::int64_t wanted = (expected > 0 ? expected : 1) / 3 * 4 + 4;
  const std::int64_t slots = wanted < 1024 ? 1024 : wanted;
  return (slots + 31) / 32 * 32;
}

// The table's capacity for this call: from the hint, but never more than N distinct keys need.
std::int64_t planned_capacity(std::int64_t n, const config& cfg) {
  const std::int64_t most = capacity_for(n);
  const std::int64_t hinted = cfg.expected_distinct > 0 ? capacity_for(cfg.expected_distinct) : most;
  return hinted < most ? hinted : most;
}

// 32-bit counts are enough unless N itself does not fit in 32 bits.
bool wide_counts(std::int64_t n) { return n > 0xFFFFFFFFll; }

// Where everything lives for a table of `capacity` slots: the state; the table (keys, then
// counts), whose memory is the sort's second pair buffer once compact has run; the compacted
// pairs; the sort's scratch.
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
  int sms = 0;
  WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::int64_t fill = static_cast<std::int64_t>(sms) * (2048 / block);
  const std::int64_t needed = wb::ceil_div(work > 0 ? work : 1, block);
  return static_cast<unsigned>(needed < fill ? needed : fill);
}

// Steps 1 and 2 on a table of `capacity` slots; returns the state read back from the device.
template <class Count>
table_state build_table(const std::int64_t* in, std::int64_t n, const layout& l, std::int64_t capacity,
                        bool aggregate) {
  const ht::table_view<Count> t{l.table_keys, static_cast<Count*>(l.table_counts),
                                static_cast<unsigned long long>(capacity)};
  wb::launch({grid_for(capacity), block}, clear_table_kernel<Count>, t, l.state);
  if (n > 0) {
    wb::launch({grid_for(n), block}, aggregate ? insert_kernel<true, Count> : insert_kernel<false, Count>, in, n, t,
               l.state);
  }
  wb::launch({grid_for(capacity), block}, compact_kernel<Count>, t,
             reinterpret_cast<unsigned long long*>(l.keys[0]), reinterpret_cast<unsigned long long*>(l.values[0]),
             l.state);
  table_state host{};
  WB_CHECK(cudaMemcpy(&host, l.state, sizeof host, cudaMemcpyDeviceToHost));
  return host;
}

table_state build(const std::int64_t* in, std::int64_t n, const layout& l, std::int64_t capacity, const config& cfg) {
  const bool aggregate = cfg.variant != 1;
  return wide_counts(n) ? build_table<unsigned long long>(in, n, l, capacity, aggregate)
                        : build_table<unsigned>(in, n, l, capacity, aggregate);
}

}  // namespace

std::size_t count_hash_table_workspace_bytes(std::int64_t n, const config& cfg) {
  return place(nullptr, planned_capacity(n, cfg)).bytes;
}

void count_hash_table(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, workspace ws,
                      const config& cfg) {
  validate(cfg);
  std::int64_t capacity = planned_capacity(n, cfg);
  layout l = place(ws.data, capacity);
  if (ws.bytes < l.bytes) throw std::invalid_argument("count_hash_table: workspace too small");
  table_state st = build(in, n, l, capacity, cfg);
  wb::device_buffer<unsigned char> bigger;  // only if the hint was too small
  if (st.overflow != 0) {
    capacity = capacity_for(n);
    bigger = wb::device_buffer<unsigned char>(place(nullptr, capacity).bytes);
    l = place(bigger.data(), capacity);
    st = build(in, n, l, capacity, cfg);
    if (st.overflow != 0) throw std::logic_error("count_hash_table: a table for N distinct keys overflowed");
  }
  const auto distinct = static_cast<std::int64_t>(st.distinct);
  const int result = detail::sort_pairs(l.keys, l.values, distinct, st.key_or ^ st.key_and, l.sort_scratch);
  wb::launch({grid_for(distinct), block}, write_table_kernel,
             static_cast<const unsigned long long*>(reinterpret_cast<unsigned long long*>(l.keys[result])),
             static_cast<const unsigned long long*>(reinterpret_cast<unsigned long long*>(l.values[result])),
             distinct, st.sentinel_count, out);
  if (bigger.data() != nullptr) WB_CHECK(cudaStreamSynchronize(0));  // before `bigger` is freed
}

}  // namespace counting::WB_TRACK
