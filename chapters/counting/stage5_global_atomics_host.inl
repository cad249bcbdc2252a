// Stage 5's host side, shared by both tracks.
// Included by: solutions/counting/stage5_global_atomics.cu and
// exercises/counting/stage5_global_atomics.cu, at their end.
// Launches: histogram_global_atomics_kernel (the track file's).
// Here: zero the bins, launch, write the table.
#include <stdexcept>

namespace counting::WB_TRACK {

std::size_t histogram_global_atomics_workspace_bytes() { return detail::histogram_bins * sizeof(std::uint64_t); }

void histogram_global_atomics(const std::int8_t* in, std::int64_t n, device_table<std::int8_t> out, workspace ws,
                              const config& cfg) {
  validate(cfg);
  if (ws.size < histogram_global_atomics_workspace_bytes())
    throw std::invalid_argument("histogram_global_atomics: workspace too small");
  auto* bins = reinterpret_cast<std::uint64_t*>(ws.bytes);
  WB_CHECK(cudaMemsetAsync(bins, 0, histogram_global_atomics_workspace_bytes()));
  if (n > 0) {
    const int sms = wb::multiprocessor_count();
    // Enough blocks to fill the GPU a few times over; the grid-stride loop covers the rest.
    const std::int64_t fill = static_cast<std::int64_t>(sms) * (2048 / cfg.block) * 4;
    const std::int64_t needed = wb::ceil_div(n, cfg.block);
    const auto grid = static_cast<unsigned>(needed < fill ? needed : fill);
    wb::launch({grid, static_cast<unsigned>(cfg.block)}, histogram_global_atomics_kernel, in, n, bins);
  }
  detail::write_histogram_table(bins, out);
}

}  // namespace counting::WB_TRACK
