// Stage 7's shared tables (PMPP §9.4's privatisation, as stage 6 does for 256 bins): every
// block counts its share of the items in a hash table in its own SHARED memory, then adds its
// table into one global table (global_table.cuh), whose pairs are sorted as the global table
// path's are. A key costs a read and a shared-memory add; a hot key costs shared-memory adds
// on its SM, never a global atomic per item (the block's table is the pre-aggregation). The
// plan takes this path while one block's table holds the planned keys (12288 of them).
//
// Partitions (only when the path is forced with more keys than one table holds): with 2^b of
// them, a block counts only the keys whose hash's top b bits are its partition's, and the
// blocks of each partition read all the items: each table holds a share of the keys, for one
// more read of the input per partition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "global_table.cuh"
#include "shared_hash_table.cuh"
#include "warp_combine.cuh"

namespace counting::WB_TRACK {

namespace {

// Per tile, every thread loads its tile_items keys first, then adds them. When the table is
// full (more keys than the estimate promised) the block stops, and the host counts again by
// sorting.
template <int slots, int threads, int aggregate, bool partitioned>
__global__ void __launch_bounds__(threads)
    shared_tables_kernel(const std::int64_t* in, std::int64_t n, int partition_bits_given,
                         ht::table_view<unsigned> merged, table_state* state) {
  // (unpartitioned: a constant 0, so the partition filter below compiles away)
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
    if (threadIdx.x == 0) state->overflow = 1;
    return;
  }
  // The block's table into the global one: a few thousand atomics per block, not one per item.
  for (int s = static_cast<int>(threadIdx.x); s < slots; s += threads) {
    const unsigned long long h = keys[s];
    if (h != ht::hashed_empty_key && !ht::insert(merged, ht::unmix(h), counts[s])) state->overflow = 1;
  }
  if (threadIdx.x == 0 && sentinel > 0) atomicAdd(&state->sentinel_count, sentinel);
}

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

// The table a block keeps: 16384 slots in 192 KB, one block of 1024 threads an SM; or 8192
// slots and 512 threads, two blocks an SM (`small`; always on the cpu backend, which runs
// every thread as a fiber: the smaller blocks keep its checks quick). `aggregate`: add_keys.
shared_shape shared_tables_shape(const hash_count_config& cfg) {
  const bool small = cfg.small_shared_tables || !wb::backend_is_cuda;
  const int aggregate = cfg.aggregate < 0 ? 0 : cfg.aggregate;
  return small ? shape_of<8192, 512>(aggregate) : shape_of<16384, 1024>(aggregate);
}

// Partitions of the shared tables: at most 2^max_partition_bits (each one more read of the
// input).
constexpr int max_partition_bits = 3;

// The fewest partitions whose tables hold `planned` keys (max_partition_bits + 1: none do).
int partition_bits_for(const shared_shape& s, double planned) {
  int bits = 0;
  while (bits <= max_partition_bits && planned > static_cast<double>(s.max_keys() << bits)) ++bits;
  return bits;
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

// The shared tables path: the blocks' tables, their global table and, unless a table filled,
// its pairs sorted into `out`.
path_outcome count_with_shared_tables(const std::int64_t* in, std::int64_t n, const hash_plan& plan, arena& a,
                                      device_table<std::int64_t> out, table_state* state,
                                      const hash_count_config& cfg, phase_clock& clock) {
  const shared_shape shape = shared_tables_shape(cfg);
  const std::int64_t capacity = merged_capacity(shape, plan.partition_bits);
  const table_layout l = place_table(a, capacity);
  const table_state st = run_shared_tables(in, n, shape, plan.partition_bits, l, capacity, state, clock);
  path_outcome r;
  r.what = plan.partition_bits == 0 ? "shared tables"
                                    : "shared tables, " + std::to_string(1 << plan.partition_bits) + " partitions";
  if (st.overflow != 0) return r;
  detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct), st.sentinel_count,
                               false, out, l.scratch, l.scratch_bytes, true, cfg.phases);
  r.counted = true;
  return r;
}

// The bytes the path takes at the most (the most partitions).
std::size_t shared_tables_bytes(const hash_count_config& cfg) {
  arena a(nullptr);
  place_table(a, merged_capacity(shared_tables_shape(cfg), max_partition_bits));
  return a.used();
}

}  // namespace

}  // namespace counting::WB_TRACK
