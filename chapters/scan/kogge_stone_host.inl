// The host side of stage 1 (included at the end of both tracks' kogge_stone.cu): one block,
// one shared value per thread.
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
