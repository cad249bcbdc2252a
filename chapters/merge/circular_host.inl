// Stage 4's host side, shared by both tracks.
// Included by: solutions/merge/circular.cu and exercises/merge/circular.cu, at their end.
// Launches: merge_circular_kernel (the track file's).
// Here: the launch configuration, and co_rank_circular called on the host for the M10 check.
namespace merge::WB_TRACK {

template <class K>
void merge_circular(const problem<K>& p, const config& requested) {
  const config cfg = resolve(4, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(4, cfg, sizeof(K), false)},
             merge_circular_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.tile);
}

template <class K>
int co_rank_circular_host(int k, const K* A_S, int m, const K* B_S, int n, int A_S_start, int B_S_start,
                          int tile_size) {
  return co_rank_circular(k, A_S, m, B_S, n, A_S_start, B_S_start, tile_size);
}

#define MERGE_INSTANTIATE(K)                                                                   \
  template void merge_circular<K>(const problem<K>&, const config&);                          \
  template int co_rank_circular_host<K>(int, const K*, int, const K*, int, int, int, int);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
