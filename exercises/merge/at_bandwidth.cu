// Stage 6: a merge at memory bandwidth - the step after the book.
//
// What stages 2-5 still pay for, and what this stage does instead:
//   - co-rank searches in global memory on the merge's critical path (every block of stages
//     3-5 waits for its thread 0)  ->  a separate partition pass co-ranks every tile boundary
//     once, all in parallel (partition.cuh), with a search whose steps do not depend on the
//     data (co_rank_lower_bound.cuh);
//   - one block walking over many tiles, with barriers between loads and merges  ->  one
//     block per tile, its inputs known from the partitions, loaded in one coalesced sweep
//     with ITEMS loads in flight per thread (block_merge.cuh);
//   - sequential merges writing straight to global memory, each thread far from its
//     neighbours (uncoalesced)  ->  the merge runs in registers (thread_merge.cuh) and the
//     outputs leave through shared memory, coalesced.
// Every element is read once and written once: the floor is the device's copy bandwidth.
#include <stdexcept>
#include <string>

#include "wb/kernel.hpp"

#include "block_merge.cuh"
#include "co_rank_lower_bound.cuh"
#include "merge.hpp"
#include "partition.cuh"
#include "thread_merge.cuh"

namespace merge::WB_TRACK {

// One block merges tile blockIdx.x: C[C_curr, C_curr + BLOCK * ITEMS).
template <class K, int BLOCK, int ITEMS, bool VALUES>
__global__ void __launch_bounds__(BLOCK)
    merge_tile_kernel(const K* __restrict__ A, std::int64_t m, const K* __restrict__ B, std::int64_t n,
                      K* __restrict__ C, const value_t* __restrict__ A_val, const value_t* __restrict__ B_val,
                      value_t* __restrict__ C_val, const std::int64_t* __restrict__ partitions) {
  constexpr int tile_items = BLOCK * ITEMS;
  K* AB_S = wb::dynamic_shared<K>();  // the tile's A part, then its B part; later the output
  // TODO (stage 6): one block per tile.
  //   0. C_curr = blockIdx.x * tile_items (64-bit), C_next = min(C_curr + tile_items, m + n);
  //      A_curr = partitions[blockIdx.x], A_next = partitions[blockIdx.x + 1]; B_curr = C_curr
  //      - A_curr; the lengths A_length, B_length, C_length fit in int.
  //   1. load_tile_striped<BLOCK, ITEMS>(A + A_curr, A_length, B + B_curr, B_length, AB_S);
  //      __syncthreads().
  //   2. c_curr = min(threadIdx.x * ITEMS, C_length); a_curr = co_rank_lower_bound<K, int> in shared memory
  //      (A_S = AB_S, B_S = AB_S + A_length); thread_merge<ITEMS>(...) into K keys[ITEMS] and
  //      int from[ITEMS].
  //   3. store_tile_blocked<BLOCK, ITEMS>(keys, C + C_curr, C_length, AB_S).
  //   4. if constexpr (VALUES): load the values like the keys into shared memory (as value_t),
  //      vals[x] = AB_val_S[from[x]] for outputs that exist, store them like the keys.
  // Delete the next line when you write the kernel.
  (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_val, (void)B_val, (void)C_val, (void)partitions, (void)AB_S, (void)tile_items;
}

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
  const config cfg = resolve(6, requested, m + n, sizeof(K), with_values);
  return static_cast<std::size_t>(cfg.grid + 1) * sizeof(std::int64_t);  // one partition per tile boundary
}

namespace {

template <class K, bool VALUES>
void launch_tiles(const problem<K>& p, const config& cfg, const std::int64_t* partitions) {
  const std::size_t shared = shared_bytes(6, cfg, sizeof(K), VALUES);
#define MERGE_LAUNCH_SHAPE(BLOCK, ITEMS)                                                                       \
  if (cfg.block == (BLOCK) && cfg.items_per_thread == (ITEMS)) {                                             \
    wb::launch({static_cast<unsigned>(cfg.grid), (BLOCK), shared}, merge_tile_kernel<K, (BLOCK), (ITEMS), VALUES>, \
               p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, partitions);                              \
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
  const std::size_t needed = static_cast<std::size_t>(cfg.grid + 1) * sizeof(std::int64_t);
  if (temp == nullptr || temp_bytes < needed) {
    throw std::invalid_argument("stage 6: temporary storage of " + std::to_string(needed) + " bytes needed, got " +
                                std::to_string(temp_bytes));
  }
  auto* partitions = static_cast<std::int64_t*>(temp);
  merge_path_partitions(p.A, p.m, p.B, p.n, std::int64_t{cfg.block} * cfg.items_per_thread, partitions);
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
