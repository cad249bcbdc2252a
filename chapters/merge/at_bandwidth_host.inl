// Stage 6's host side, shared by both tracks.
// Included by: solutions/merge/at_bandwidth.cu and exercises/merge/at_bandwidth.cu, at their end.
// Launches: merge_tile_kernel (the track's block_merge.cuh), one instantiation per compiled
// shape; merge_path_partition_kernel (the track's partition.cuh) for the plain partition pass.
// Here: the plain partition pass's launch, the tiles' launch and the stage's entry point. The
// track file provides the partition pass it runs (partition_pass, partition_pass_temp_bytes).
#include <stdexcept>
#include <string>

namespace merge::WB_TRACK {

template <class K>
void merge_path_partitions(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile_items,
                           std::int64_t* partitions) {
  if (tile_items < 1) throw std::invalid_argument("merge_path_partitions: tile_items must be positive");
  const std::int64_t num_partitions = ceil_div(m + n, tile_items) + 1;
  const int block = 256;
  wb::launch({static_cast<unsigned>(ceil_div(num_partitions, block)), block}, merge_path_partition_kernel<K>, A, m, B,
             n, tile_items, num_partitions, partitions);
}

template <class K>
std::int64_t co_rank_lower_bound_host(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n) {
  return co_rank_lower_bound(k, A, m, B, n);
}

template <class K>
std::size_t merge_at_bandwidth_temp_bytes(std::int64_t m, std::int64_t n, const config& requested, bool with_values) {
  return partition_pass_temp_bytes<K>(m, n, resolve(6, requested, m + n, sizeof(K), with_values));
}

namespace {

// The tile kernel is compiled for each shape of MERGE_AT_BANDWIDTH_SHAPES (config.hpp): its
// block size and items per thread are template parameters, so the merge stays in registers.
// Programmatic dependent launch (Hopper on): where the track's tile kernel waits for the
// partition pass before it reads the partitions (the solution's), its blocks are scheduled as
// the pass's blocks return instead of after the pass is complete; the exercise's starts after.
template <class K, bool VALUES>
void launch_tiles(const problem<K>& p, const config& cfg, const std::int64_t* partitions) {
  const std::size_t shared = shared_bytes(6, cfg, sizeof(K), VALUES);
#if defined(MERGE_TILE_KERNEL_WAITS)
  constexpr bool early_start = true;
#else
  constexpr bool early_start = false;
#endif
#define MERGE_LAUNCH_SHAPE(BLOCK, ITEMS)                                                                       \
  if (cfg.block == (BLOCK) && cfg.items_per_thread == (ITEMS)) {                                             \
    wb::launch_config tiles{static_cast<unsigned>(cfg.grid), (BLOCK), shared};                               \
    tiles.early_start = early_start;                                                                         \
    wb::launch(tiles, merge_tile_kernel<K, (BLOCK), (ITEMS), VALUES>, p.A, p.m, p.B, p.n, p.C, p.A_val,     \
               p.B_val, p.C_val, partitions);                                                                \
    return;                                                                                                  \
  }
  MERGE_AT_BANDWIDTH_SHAPES(MERGE_LAUNCH_SHAPE)
#undef MERGE_LAUNCH_SHAPE
  throw std::logic_error("stage 6: shape resolved but not compiled");  // resolve() prevents this
}

}  // namespace

template <class K>
void merge_at_bandwidth(const problem<K>& p, void* temp, std::size_t temp_bytes, const config& requested) {
  const config cfg = resolve(6, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  const std::size_t needed = partition_pass_temp_bytes<K>(p.m, p.n, cfg);
  if (temp == nullptr || temp_bytes < needed) {
    throw std::invalid_argument("stage 6: temporary storage of " + std::to_string(needed) + " bytes needed, got " +
                                std::to_string(temp_bytes));
  }
  auto* partitions = static_cast<std::int64_t*>(temp);  // the workspace starts with the partitions
  partition_pass(p, cfg, temp, partitions);
  if (p.has_values()) {
    launch_tiles<K, true>(p, cfg, partitions);
  } else {
    launch_tiles<K, false>(p, cfg, partitions);
  }
}

#define MERGE_INSTANTIATE(K)                                                                                  \
  template std::int64_t co_rank_lower_bound_host<K>(std::int64_t, const K*, std::int64_t, const K*, std::int64_t); \
  template void merge_path_partitions<K>(const K*, std::int64_t, const K*, std::int64_t, std::int64_t,        \
                                         std::int64_t*);                                                      \
  template std::size_t merge_at_bandwidth_temp_bytes<K>(std::int64_t, std::int64_t, const config&, bool);     \
  template void merge_at_bandwidth<K>(const problem<K>&, void*, std::size_t, const config&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
