// cub::DeviceScan::InclusiveSum / ExclusiveSum, the library a user would pick instead.
#include "baseline_cub.hpp"

#if defined(WB_BACKEND_CUDA)

#include <cub/device/device_scan.cuh>

#include "wb/check.hpp"

namespace scan::baseline {

template <class T>
std::size_t cub_scan_temp_bytes(std::int64_t n, bool exclusive) {
  std::size_t bytes = 0;
  if (exclusive) {
    WB_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n));
  } else {
    WB_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n));
  }
  return bytes;
}

template <class T>
void cub_scan(const T* in, T* out, std::int64_t n, bool exclusive, void* temp, std::size_t temp_bytes) {
  // int32 sums wrap in CUB too (two's complement addition on the GPU).
  if (exclusive) WB_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n));
  else WB_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n));
}

#define SCAN_INSTANTIATE_BASELINE(T)                                   \
  template std::size_t cub_scan_temp_bytes<T>(std::int64_t, bool);    \
  template void cub_scan<T>(const T*, T*, std::int64_t, bool, void*, std::size_t);
SCAN_INSTANTIATE_BASELINE(std::int32_t)
SCAN_INSTANTIATE_BASELINE(std::int64_t)
SCAN_INSTANTIATE_BASELINE(float)

}  // namespace scan::baseline

#endif
