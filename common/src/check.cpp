// wb::throw_cuda_error and wb::check_launch (see wb/check.hpp).
#include "wb/check.hpp"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace wb {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  const char* name = cudaGetErrorName(code);
  const char* text = cudaGetErrorString(code);
  throw cuda_error(code, fmt::format("{} failed at {}:{}: {}: {}", call, file, line,
                                     name != nullptr ? name : "unknown error",
                                     text != nullptr ? text : "no description"));
}

namespace {
// WB_SYNC_CHECK=1: synchronise after every launch, so a fault inside a kernel is reported at
// the launch that caused it instead of at some later, unrelated call. Read once.
bool sync_after_launch() {
  static const bool enabled = [] {
    const char* value = std::getenv("WB_SYNC_CHECK");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return enabled;
}
}  // namespace

void check_launch(const char* what, const char* file, int line) {
  // Configuration errors (too many threads, too much shared memory) are reported at once.
  cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) throw_cuda_error(code, what, file, line);
  if (sync_after_launch()) {
    code = cudaDeviceSynchronize();
    if (code != cudaSuccess) {
      throw_cuda_error(code, fmt::format("{} (synchronised: WB_SYNC_CHECK=1)", what).c_str(), file, line);
    }
  }
}

}  // namespace wb

#if defined(WB_BACKEND_CUDA)
#include <mutex>
#include <map>
#include <utility>

namespace wb::detail {

void allow_dynamic_shared(const void* kernel, std::size_t dynamic_bytes, const std::source_location& where) {
  constexpr std::size_t default_limit = 48 * 1024;
  // Per kernel and device (the opt-in is a device's: a process that drives several GPUs opts
  // in on each): its static shared memory, and the dynamic size it has been allowed so far.
  struct allowance {
    std::size_t static_bytes;
    std::size_t dynamic_allowed;
  };
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, allowance> kernels;
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", where.file_name(), static_cast<int>(where.line()));
  std::lock_guard lock(mutex);
  auto it = kernels.find({device, kernel});
  if (it == kernels.end()) {
    cudaFuncAttributes attributes{};
    check(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes", where.file_name(),
          static_cast<int>(where.line()));
    it = kernels.emplace(std::pair{device, kernel}, allowance{attributes.sharedSizeBytes, default_limit - attributes.sharedSizeBytes}).first;
  }
  if (dynamic_bytes <= it->second.dynamic_allowed) return;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic_bytes)),
        "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)", where.file_name(), static_cast<int>(where.line()));
  it->second.dynamic_allowed = dynamic_bytes;
}

bool early_start_supported(const std::source_location& where) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", where.file_name(), static_cast<int>(where.line()));
  int major = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute",
        where.file_name(), static_cast<int>(where.line()));
  return major >= 9;
}

}  // namespace wb::detail
#endif
