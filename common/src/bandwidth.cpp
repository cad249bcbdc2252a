// wb::copy_bandwidth_gbs (see wb/bandwidth.hpp).
#include "wb/bandwidth.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/runtime.hpp"
#include "wb/timing.hpp"

namespace wb {

double copy_bandwidth_gbs(std::size_t bytes) {
  static std::mutex mutex;
  static std::map<std::size_t, double> cache;  // requested bytes -> GB/s
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(bytes); it != cache.end()) return it->second;

  // Two buffers of `bytes`: keep them to a quarter of the free memory each, and on the cpu
  // backend to 64 MiB (a host memcpy; the number only fills the column there).
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  WB_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::size_t size = std::min(bytes, free_bytes / 4);
  if (!backend_is_cuda) size = std::min<std::size_t>(size, std::size_t{64} << 20);
  size &= ~std::size_t{255};
  if (size == 0) throw std::runtime_error("wb::copy_bandwidth_gbs: not enough free device memory to measure");

  device_buffer<unsigned char> src(size);
  device_buffer<unsigned char> dst(size);
  src.fill_bytes(0x5A);
  timing_options options;
  options.warmup = 2;
  options.reps = 10;
  options.flush_l2 = false;  // far larger than any L2
  const timing t = time_gpu([&] { WB_CHECK(cudaMemcpy(dst.data(), src.data(), size, cudaMemcpyDeviceToDevice)); },
                            options);
  // Read + write: a copy moves every byte twice.
  const double gbs = t.median_ms > 0 ? 2.0 * static_cast<double>(size) / (t.median_ms * 1e-3) / 1e9 : 0.0;
  cache.emplace(bytes, gbs);
  return gbs;
}

}  // namespace wb
