// Stage 1's host side, shared by both tracks.
// Included by: solutions/scan/kogge_stone.cu and exercises/scan/kogge_stone.cu, at their end.
// Launches: kogge_stone_kernel (the track file's).
// Here: one block, one shared value per thread.
#include "trace_kernels.hpp"

namespace scan::WB_TRACK {

template <class T>
void scan_kogge_stone(const T* in, T* out, std::int64_t n, const workspace&, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  wb::launch({dim3(1), dim3(cfg.block), cfg.block * sizeof(T)}, kogge_stone_kernel<T>, in, out, n, cfg.exclusive);
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_kogge_stone)
SCAN_REGISTER_TRACE_KERNEL(1, scan_kogge_stone)  // --trace runs it too

}  // namespace scan::WB_TRACK
