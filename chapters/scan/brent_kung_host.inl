// Stage 2's host side, shared by both tracks.
// Included by: solutions/scan/brent_kung.cu and exercises/scan/brent_kung.cu, at their end.
// Launches: brent_kung_kernel (the track file's).
// Here: one block, two shared values per thread.
#include "trace_kernels.hpp"

namespace scan::WB_TRACK {

template <class T>
void scan_brent_kung(const T* in, T* out, std::int64_t n, const workspace&, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  wb::launch({dim3(1), dim3(cfg.block), 2 * cfg.block * sizeof(T)}, brent_kung_kernel<T>, in, out, n, cfg.exclusive);
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_brent_kung)
SCAN_REGISTER_TRACE_KERNEL(2, scan_brent_kung)  // --trace runs it too

}  // namespace scan::WB_TRACK
