// Stage 5 (exercise): the histogram with global-memory atomics (int8), PMPP §9.2-9.3.
//
// Grid-stride loop over the items; for each, atomicAdd 1 to bins[(uint8_t)in[i]] (a 64-bit
// counter: cast to unsigned long long*). The host code zeroes the bins before and turns them
// into the table after (histogram_table.cuh explains the raw-byte index).
#include "counting.hpp"
#include "histogram_table.hpp"
#include "wb/exercise.hpp"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

__global__ void histogram_global_atomics_kernel(const std::int8_t* in, std::int64_t n, std::uint64_t* bins) {
  // TODO(counting/5): the grid-stride loop (wb::global_thread_index(), wb::grid_thread_count()).
  (void)in, (void)n, (void)bins;
}

}  // namespace

std::size_t histogram_global_atomics_workspace_bytes() { return detail::histogram_bins * sizeof(std::uint64_t); }

void histogram_global_atomics(const std::int8_t* in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                              const config& cfg) {
  validate(cfg);
  wb::not_implemented("counting/5 global atomics");  // TODO(counting/5): delete once the kernel is written
  if (ws.bytes < histogram_global_atomics_workspace_bytes())
    throw std::invalid_argument("histogram_global_atomics: workspace too small");
  auto* bins = static_cast<std::uint64_t*>(ws.data);
  WB_CHECK(cudaMemsetAsync(bins, 0, histogram_global_atomics_workspace_bytes()));
  if (n > 0) {
    const int sms = multiprocessor_count();
    const std::int64_t fill = static_cast<std::int64_t>(sms) * (2048 / cfg.block) * 4;
    const std::int64_t needed = wb::ceil_div(n, cfg.block);
    const auto grid = static_cast<unsigned>(needed < fill ? needed : fill);
    wb::launch({grid, static_cast<unsigned>(cfg.block)}, histogram_global_atomics_kernel, in, n, bins);
  }
  detail::write_histogram_table(bins, out);
}

}  // namespace counting::WB_TRACK
