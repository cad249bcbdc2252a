// Stage 2's host side, shared by both tracks.
// Included by: solutions/merge/basic.cu and exercises/merge/basic.cu, at their end.
// Launches: merge_basic_kernel (the track file's).
// Here: the launch configuration, checked by resolve() (config.hpp), and the instantiations.
namespace merge::WB_TRACK {

template <class K>
void merge_basic(const problem<K>& p, const config& requested) {
  const config cfg = resolve(2, requested, p.m + p.n, sizeof(K), p.has_values());
  if (p.m + p.n == 0) return;
  wb::launch({static_cast<unsigned>(cfg.grid), static_cast<unsigned>(cfg.block)}, merge_basic_kernel<K>, p.A, p.m, p.B,
             p.n, p.C, p.A_val, p.B_val, p.C_val);
}

#define MERGE_INSTANTIATE(K) template void merge_basic<K>(const problem<K>&, const config&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge::WB_TRACK
