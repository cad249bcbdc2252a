// wb::emulate_devices and friends (see wb/multi_gpu.hpp).
#include "wb/multi_gpu.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace wb {

void emulate_devices([[maybe_unused]] int count) {
#if defined(WB_BACKEND_CPU)
  cpu::set_device_count(count);
  cpu::set_stream_model(cpu::stream_model::queued);
#endif
}

int visible_devices() {
  int count = 0;
  WB_CHECK(cudaGetDeviceCount(&count));
  return count;
}

void for_each_concurrently(int n, const std::function<void(int)>& fn) {
  if (!backend_is_cuda || n <= 1) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  std::exception_ptr first;
  std::mutex mutex;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!first) first = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

std::string emulated_devices_note() {
#if defined(WB_BACKEND_CPU)
  return fmt::format("cpu emulator: {} device{}, {} streams", cpu::device_count(), cpu::device_count() == 1 ? "" : "s",
                     cpu::stream_model_name());
#else
  return "";
#endif
}

}  // namespace wb
