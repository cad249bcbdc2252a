// wb::time_gpu (see wb/timing.hpp).
#include "wb/timing.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/runtime.hpp"

namespace wb {
namespace {

// One CUDA event, destroyed on every path (time_gpu may leave through an exception).
class event {
 public:
  event() { WB_CHECK(cudaEventCreate(&event_)); }
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  event(event&& other) noexcept : event_(other.event_) { other.event_ = nullptr; }
  ~event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

timing time_gpu(const std::function<void()>& run, const timing_options& options) {
  if (options.reps < 1) throw std::invalid_argument("wb::time_gpu: reps must be >= 1, got " + std::to_string(options.reps));
  if (options.warmup < 0) throw std::invalid_argument("wb::time_gpu: warmup must be >= 0");

  // The L2 flush: writing a buffer twice the L2 size evicts whatever the previous run left
  // there. It runs before each start event, so it is not timed. The cpu backend has no L2 to
  // speak of and its timings mean nothing for a GPU: no flush there.
  device_buffer<unsigned char> scratch;
  if (options.flush_l2 && backend_is_cuda) {
    int device = 0;
    int l2_bytes = 0;
    WB_CHECK(cudaGetDevice(&device));
    WB_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    if (l2_bytes > 0) scratch = device_buffer<unsigned char>(2 * static_cast<std::size_t>(l2_bytes));
  }
  auto flush = [&] {
    if (!scratch.empty()) WB_CHECK(cudaMemset(scratch.data(), 0, scratch.bytes()));
  };

  for (int i = 0; i < options.warmup; ++i) {
    flush();
    run();
  }
  WB_CHECK(cudaDeviceSynchronize());

  // Events are recorded for every rep first and read afterwards, so the host does not stall
  // the GPU between reps.
  std::vector<event> starts(static_cast<std::size_t>(options.reps));
  std::vector<event> stops(static_cast<std::size_t>(options.reps));
  for (int i = 0; i < options.reps; ++i) {
    flush();
    WB_CHECK(cudaEventRecord(starts[static_cast<std::size_t>(i)].get(), 0));
    run();
    WB_CHECK(cudaEventRecord(stops[static_cast<std::size_t>(i)].get(), 0));
  }
  WB_CHECK(cudaEventSynchronize(stops.back().get()));
  WB_CHECK(cudaGetLastError());  // a fault inside one of the runs

  timing result;
  result.samples_ms.reserve(static_cast<std::size_t>(options.reps));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, starts[i].get(), stops[i].get()));
    result.samples_ms.push_back(static_cast<double>(ms));
  }
  result.median_ms = median_of(result.samples_ms);
  const auto [lo, hi] = std::minmax_element(result.samples_ms.begin(), result.samples_ms.end());
  result.min_ms = *lo;
  result.max_ms = *hi;
  return result;
}

}  // namespace wb
