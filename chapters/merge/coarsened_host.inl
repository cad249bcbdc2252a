// Stage 5's host side, shared by both tracks.
// Included by: solutions/merge/coarsened.cu and exercises/merge/coarsened.cu, at their end.
// Launches: merge_coarsened_kernel (the track file's); tile_boundary_co_rank_kernel (defined here).
// Here: the launch (one block per tile, exact shared memory), and the block-level searches alone
// for the sweep.
namespace merge::WB_TRACK {

// Stage 5's block-level searches alone, for the sweep: one thread per tile boundary runs the
// co_rank that threads 0 and 1 of each block run before the block can load anything.
template <class K>
__global__ void tile_boundary_co_rank_kernel(const K* A, std::int64_t m, const K* B, std::int64_t n,
                                             std::int64_t tile_items, std::int64_t count, std::int64_t* out) {
  const std::int64_t t = wb::global_thread_index();
  if (t < count) out[t] = co_rank(min_of(t * tile_items, m + n), A, m, B, n);
}

template <class K>
void merge_coarsened_searches(const K* A, std::int64_t m, const K* B, std::int64_t n, std::int64_t tile_items,
                              std::int64_t* out) {
  const std::int64_t count = ceil_div(m + n, tile_items) + 1;
  wb::launch({static_cast<unsigned>(ceil_div(count, 256)), 256}, tile_boundary_co_rank_kernel<K>, A, m, B, n, tile_items,
             count, out);
}

template <class K>
void merge_coarsened(const problem<K>& p, const config& requested) {
  const config cfg = resolve(5, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(5, cfg, sizeof(K), false)},
             merge_coarsened_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.items_per_thread);
}

#define MERGE_INSTANTIATE(K)                                                \
  template void merge_coarsened<K>(const problem<K>&, const config&);       \
  template void merge_coarsened_searches<K>(const K*, std::int64_t, const K*, std::int64_t, std::int64_t, std::int64_t*);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
