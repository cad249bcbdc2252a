// The host side of stage 7's one global table, shared by both tracks.
// Included by: solutions/counting/global_table.cuh and exercises/counting/global_table.cuh, at
// their end.
// Launches: insert_kernel and compact_kernel (the track's global_table.cuh); clear_table_kernel
// (chapters/counting/hash_count_state.cuh).
// Here: the table's size, its place in the workspace, the three launches (clear, insert,
// compact) and the sort of its distinct pairs.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "distinct_table.hpp"
#include "hash_count_plan.hpp"
#include "phase_clock.hpp"

namespace counting::WB_TRACK {

namespace {

// A table for the planned keys, half full, but never for more than 2^24 keys (a table past
// the L2 cache sends every probe to DRAM; more keys fill it, and the stage counts by sorting).
std::int64_t global_capacity(std::int64_t n, double planned) {
  const double most = static_cast<double>(std::min<std::int64_t>(n, std::int64_t{1} << 24));
  return capacity_for(static_cast<std::int64_t>(std::min(planned, most)), true);
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

// Clear, insert, compact; returns the state read back (overflow set: count again).
template <class Count>
table_state run_global_table(const std::int64_t* in, std::int64_t n, const table_layout& l, std::int64_t capacity,
                             int aggregate, table_state* state, phase_clock& clock) {
  const ht::table_view<Count> t{l.table_keys, reinterpret_cast<Count*>(l.table_counts),
                                static_cast<unsigned long long>(capacity)};
  wb::launch({grid_for(capacity), block}, clear_table_kernel<Count>, t, state);
  clock.mark("clear");
  if (n > 0) {
    const unsigned grid = grid_for(wb::ceil_div(n, tile_items));
    switch (aggregate) {
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

// The global table path: the table (64-bit counts where N passes 2^32) and, unless it filled,
// its pairs sorted into `out`.
path_outcome count_with_global_table(const std::int64_t* in, std::int64_t n, const hash_plan& plan, arena& a,
                                     device_table<std::int64_t> out, table_state* state,
                                     const hash_count_config& cfg, phase_clock& clock) {
  const std::int64_t capacity = global_capacity(n, plan.planned);
  const bool wide_counts = n > max_narrow_count;
  const table_layout l = place_table(a, capacity, wide_counts ? sizeof(unsigned long long) : sizeof(unsigned));
  const int aggregate = cfg.aggregate < 0 ? 1 : cfg.aggregate;  // lanes with one key add once: L2 atomics queue
  const table_state st = wide_counts ? run_global_table<unsigned long long>(in, n, l, capacity, aggregate, state, clock)
                                     : run_global_table<unsigned>(in, n, l, capacity, aggregate, state, clock);
  if (st.overflow != 0) return {false, "global table"};
  detail::write_distinct_table(l.pair_keys, l.pair_counts, static_cast<std::int64_t>(st.distinct), st.sentinel_count,
                               false, out, l.scratch, l.scratch_bytes, !wide_counts, cfg.phases);
  return {true, "global table"};
}

// The bytes the global table path takes for n items, planned for at most n keys.
std::size_t global_table_bytes(std::int64_t n) {
  arena a(nullptr);
  place_table(a, global_capacity(n, static_cast<double>(n)), sizeof(unsigned long long));
  return a.used();
}

}  // namespace

}  // namespace counting::WB_TRACK
