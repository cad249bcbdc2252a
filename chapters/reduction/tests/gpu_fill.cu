#include "gpu_fill.hpp"

#include "wb/kernel.hpp"

namespace reduction::testing {

namespace {
__global__ void fill_mod_2003_kernel(std::int32_t* data, std::int64_t n) {
  for (std::int64_t i = wb::global_thread_index(); i < n; i += wb::grid_thread_count()) {
    data[i] = static_cast<std::int32_t>(i % 2003);
  }
}
}  // namespace

void fill_mod_2003(std::int32_t* data, std::int64_t n) {
  wb::launch({dim3(1024), dim3(256)}, fill_mod_2003_kernel, data, n);
  WB_CHECK(cudaDeviceSynchronize());
}

std::int64_t sum_mod_2003(std::int64_t n) {
  const std::int64_t cycles = n / 2003;
  const std::int64_t rest = n % 2003;
  return cycles * (2002 * 2003 / 2) + rest * (rest - 1) / 2;
}

}  // namespace reduction::testing
