// Timing GPU work with CUDA events (host clocks on the cpu backend, where the numbers are
// labelled emulated).
#pragma once

#include <functional>
#include <vector>

namespace wb {

struct timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::vector<double> samples_ms;  // in run order
};

struct timing_options {
  int warmup = 3;        // untimed runs first: module load, first-touch, clocks ramping up
  int reps = 20;         // timed runs; the median is reported
  bool flush_l2 = true;  // write a buffer twice the L2 size between runs (outside the timed
                         // region) so inputs smaller than L2 are not served from cache
};

// Times `run` (which enqueues GPU work on the default stream) with events around each run.
timing time_gpu(const std::function<void()>& run, const timing_options& options = {});

// Times `run` (host work: a chapter's sequential specification, a CPU library) with the host's
// steady clock around each run: the same warm-up, reps, median, minimum and maximum as
// time_gpu (options.flush_l2 is ignored: the host's caches are left as they are).
timing time_host(const std::function<void()>& run, const timing_options& options = {});

// The median, minimum and maximum of samples (in run order); at least one sample.
timing summarize(std::vector<double> samples_ms);

}  // namespace wb
