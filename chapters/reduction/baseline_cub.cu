// cub::DeviceReduce::Sum, the library a user would pick instead of our kernels.
#include "baseline_cub.hpp"

#if defined(WB_BACKEND_CUDA)

#include <cub/device/device_reduce.cuh>

#include "wb/check.hpp"

namespace reduction::baseline {

template <class T>
std::size_t cub_sum_temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  WB_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr),
                                  static_cast<sum_t<T>*>(nullptr), n));
  return bytes;
}

template <class T>
void cub_sum(const T* in, std::int64_t n, sum_t<T>* out, void* temp, std::size_t temp_bytes) {
  // The output type sets CUB's accumulator: int64 for int32 input, as in our stages (R5).
  WB_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n));
}

#define REDUCTION_INSTANTIATE_BASELINE(T)                      \
  template std::size_t cub_sum_temp_bytes<T>(std::int64_t);   \
  template void cub_sum<T>(const T*, std::int64_t, sum_t<T>*, void*, std::size_t);
REDUCTION_INSTANTIATE_BASELINE(std::int32_t)
REDUCTION_INSTANTIATE_BASELINE(std::int64_t)
REDUCTION_INSTANTIATE_BASELINE(float)
REDUCTION_INSTANTIATE_BASELINE(double)

}  // namespace reduction::baseline

#endif
