// wb::time_gpu (see wb/timing.hpp).
#include "wb/timing.hpp"

#include <algorithm>
#include <chrono>
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

void require_valid(const timing_options& options, const char* who) {
  if (options.reps < 1) {
    throw std::invalid_argument(std::string(who) + ": reps must be >= 1, got " + std::to_string(options.reps));
  }
  if (options.warmup < 0) throw std::invalid_argument(std::string(who) + ": warmup must be >= 0");
}

}  // namespace

timing summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("wb::summarize: no samples");
  timing result;
  result.samples_ms = samples_ms;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  result.median_ms = n % 2 == 1 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  result.min_ms = samples_ms.front();
  result.max_ms = samples_ms.back();
  return result;
}

timing time_host(const std::function<void()>& run, const timing_options& options) {
  require_valid(options, "wb::time_host");
  for (int i = 0; i < options.warmup; ++i) run();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  for (int i = 0; i < options.reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(std::move(samples));
}

timing time_gpu(const std::function<void()>& run, const timing_options& options) {
  require_valid(options, "wb::time_gpu");

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

  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(options.reps));
  for (std::size_t i = 0; i < starts.size(); ++i) {
    float ms = 0;
    WB_CHECK(cudaEventElapsedTime(&ms, starts[i].get(), stops[i].get()));
    samples.push_back(static_cast<double>(ms));
  }
  return summarize(std::move(samples));
}

}  // namespace wb
