// Stage 3's host side, shared by both tracks.
// Included by: solutions/counting/stage3_direct_port.cu and
// exercises/counting/stage3_direct_port.cu, at their end.
// Launches: count_duplicates_kernel, rank_and_write_kernel (the track file's).
// Here: the O(N^2) guard (D1), the workspace, the two launches, the instantiations.
#include <cstdio>
#include <stdexcept>

namespace counting::WB_TRACK {

template <class T>
std::size_t count_direct_port_workspace_bytes(std::int64_t n) {
  return static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(std::uint64_t);
}

template <class T>
void count_direct_port(const T* in, std::int64_t n, device_table<T> out, workspace ws, const config& cfg) {
  validate(cfg);
  if (n > max_quadratic_device_items) {
    char text[200];
    std::snprintf(text, sizeof text, "D1: O(N^2) on the GPU: N = %lld is above the limit of %lld items",
                  static_cast<long long>(n), static_cast<long long>(max_quadratic_device_items));
    throw stage_refused(text);
  }
  if (ws.size < count_direct_port_workspace_bytes<T>(n)) throw std::invalid_argument("count_direct_port: workspace too small");
  WB_CHECK(cudaMemsetAsync(out.size, 0, sizeof(std::int64_t)));
  if (n == 0) return;
  auto* counts = reinterpret_cast<std::uint64_t*>(ws.bytes);
  const int block = cfg.block;
  const auto grid = static_cast<unsigned>(wb::ceil_div(n, block));
  wb::launch({grid, static_cast<unsigned>(block)}, count_duplicates_kernel<T>, in, n, counts);
  wb::launch({grid, static_cast<unsigned>(block)}, rank_and_write_kernel<T>, in, n,
             static_cast<const std::uint64_t*>(counts), out);
}

template std::size_t count_direct_port_workspace_bytes<std::int8_t>(std::int64_t);
template std::size_t count_direct_port_workspace_bytes<std::int64_t>(std::int64_t);
template void count_direct_port(const std::int8_t*, std::int64_t, device_table<std::int8_t>, workspace, const config&);
template void count_direct_port(const std::int64_t*, std::int64_t, device_table<std::int64_t>, workspace, const config&);

}  // namespace counting::WB_TRACK
