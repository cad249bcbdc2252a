// wb/timing.hpp and wb/bandwidth.hpp: sane numbers, the right number of runs.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "wb/bandwidth.hpp"
#include "wb/timing.hpp"
#include "wb/testing.hpp"

TEST_CASE("time_gpu runs warm-up plus reps and reports median, min and max of the samples") {
  int calls = 0;
  wb::timing_options options;
  options.warmup = 2;
  options.reps = 5;
  // A host-side pause between the two events: ~3 ms of elapsed time on either backend.
  const wb::timing t = wb::time_gpu(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      },
      options);
  CHECK(calls == 7);
  REQUIRE(t.samples_ms.size() == 5);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
  CHECK(t.min_ms == *std::min_element(t.samples_ms.begin(), t.samples_ms.end()));
  CHECK(t.max_ms == *std::max_element(t.samples_ms.begin(), t.samples_ms.end()));
  CHECK(t.median_ms >= 2.5);
  CHECK(t.median_ms < 1000.0);
}

TEST_CASE("time_gpu refuses zero reps and passes exceptions from the run through") {
  wb::timing_options options;
  options.reps = 0;
  CHECK_THROWS_AS(wb::time_gpu([] {}, options), std::invalid_argument);
  options.reps = 3;
  CHECK_THROWS_WITH(wb::time_gpu([] { throw std::runtime_error("stage failed"); }, options), "stage failed");
}

TEST_CASE("copy bandwidth is positive and measured once") {
  const double first = wb::copy_bandwidth_gbs(std::size_t{8} << 20);
  CHECK(first > 0);
  CHECK(wb::copy_bandwidth_gbs(std::size_t{8} << 20) == first);
}

TEST_CASE("time_host runs warm-up plus reps on the host clock") {
  int calls = 0;
  wb::timing_options options;
  options.warmup = 1;
  options.reps = 3;
  const wb::timing t = wb::time_host(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      },
      options);
  CHECK(calls == 4);
  REQUIRE(t.samples_ms.size() == 3);
  CHECK(t.median_ms >= 1.5);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
  options.reps = 0;
  CHECK_THROWS_AS(wb::time_host([] {}, options), std::invalid_argument);
  const wb::timing s = wb::summarize({4.0, 1.0, 3.0, 2.0});
  CHECK(s.median_ms == 2.5);
  CHECK(s.min_ms == 1.0);
  CHECK(s.max_ms == 4.0);
  CHECK(s.samples_ms == std::vector<double>{4.0, 1.0, 3.0, 2.0});
}
