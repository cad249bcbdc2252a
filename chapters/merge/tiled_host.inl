// Stage 3's host side, shared by both tracks.
// Included by: solutions/merge/tiled.cu and exercises/merge/tiled.cu, at their end.
// Launches: merge_tiled_kernel (the track file's).
// Here: the launch configuration and shared memory (2 * tile_size keys), checked by resolve()
// (config.hpp).
namespace merge::WB_TRACK {

template <class K>
void merge_tiled(const problem<K>& p, const config& requested) {
  const config cfg = resolve(3, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block), shared_bytes(3, cfg, sizeof(K), false)},
             merge_tiled_kernel<K>, p.A, p.m, p.B, p.n, p.C, p.A_val, p.B_val, p.C_val, cfg.tile);
}

#define MERGE_INSTANTIATE(K) template void merge_tiled<K>(const problem<K>&, const config&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
