// Stage 4's host side, shared by both tracks.
// Included by: solutions/counting/dynamic/stage4_dynamic_parallelism.cu and
// exercises/counting/dynamic/stage4_dynamic_parallelism.cu, at their end.
// Launches: parent_kernel; for the checks, the building blocks count_if_kernel, merge_kernel and
// rank_kernel (all the track file's).
// Here: the workspace, the limits on N and on pending child launches, the host launches, the
// instantiations.
#include <cstdio>
#include <stdexcept>

namespace counting::WB_TRACK {

namespace {

template <class T>
unsigned blocks_for(std::int64_t n) {
  const std::int64_t b = wb::ceil_div(n > 0 ? n : 1, merge_block);
  return static_cast<unsigned>(b < 4096 ? b : 4096);
}

// Workspace: slot values, slot counts, merged counts (n each), the launch error flag.
template <class T>
struct dp_layout {
  T* slot_value;
  std::uint64_t* slot_count;
  std::uint64_t* merged;
  int* launch_error;
  std::size_t bytes;
};

template <class T>
dp_layout<T> dp_place(void* base, std::int64_t n) {
  const auto count = static_cast<std::size_t>(n > 0 ? n : 1);
  auto* p = static_cast<unsigned char*>(base);
  dp_layout<T> l{};
  std::size_t offset = 0;
  l.slot_count = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += count * sizeof(std::uint64_t);
  l.merged = reinterpret_cast<std::uint64_t*>(p + offset);
  offset += count * sizeof(std::uint64_t);
  l.launch_error = reinterpret_cast<int*>(p + offset);
  offset += 16;
  l.slot_value = reinterpret_cast<T*>(p + offset);
  offset += count * sizeof(T);
  l.bytes = offset;
  return l;
}

}  // namespace

template <class T>
std::size_t count_dynamic_parallelism_workspace_bytes(std::int64_t n, const config&) {
  return dp_place<T>(nullptr, n).bytes;
}

template <class T>
void count_dynamic_parallelism(const T* in, std::int64_t n, device_table<T> out, workspace ws, const config& cfg) {
  validate(cfg);
#if !defined(WB_BACKEND_CUDA)
  (void)in, (void)n, (void)out, (void)ws;
  throw stage_refused(
      "GPU-only stage: dynamic parallelism (kernels launching kernels) needs a GPU; the cpu backend does not "
      "emulate device-side launches");
#else
  if (n > max_dynamic_parallelism_items) {
    char text[200];
    std::snprintf(text, sizeof text, "one child grid per (chunk, value): N = %lld is above the limit of %lld items",
                  static_cast<long long>(n), static_cast<long long>(max_dynamic_parallelism_items));
    throw stage_refused(text);
  }
  const dp_layout<T> l = dp_place<T>(ws.bytes, n);
  if (ws.size < l.bytes) throw std::invalid_argument("count_dynamic_parallelism: workspace too small");
  WB_CHECK(cudaMemsetAsync(out.size, 0, sizeof(std::int64_t)));
  WB_CHECK(cudaMemsetAsync(l.launch_error, 0, sizeof(int)));
  if (n == 0) return;
  // Every child launch waits in the device runtime's queue until it can run: one per distinct
  // value of each chunk (at most one per item), plus the two tail launches. The queue's size
  // is set once, before the first launch that uses the device runtime, to pending_launches.
  const std::int64_t chunks = chunk_count(n, cfg.dp_chunk);
  std::int64_t children = n;
  if constexpr (sizeof(T) == 1) children = chunks * 256 < n ? chunks * 256 : n;
  if (children + 16 > pending_launches) {
    char text[200];
    std::snprintf(text, sizeof text, "up to %lld child grids at once: more than the %lld this stage reserves",
                  static_cast<long long>(children), static_cast<long long>(pending_launches - 16));
    throw stage_refused(text);
  }
  static const bool reserved = [] {
    WB_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, static_cast<std::size_t>(pending_launches)));
    return true;
  }();
  (void)reserved;
  wb::launch({static_cast<unsigned>(chunks), static_cast<unsigned>(cfg.block)}, parent_kernel<T>, in, n, cfg.dp_chunk,
             l.slot_value, l.slot_count, l.merged, out, l.launch_error, blocks_for<T>(n));
#endif
}

template <class T>
void count_if_value(const T* in, std::int64_t n, T value, std::uint64_t* count, const config& cfg) {
  validate(cfg);
  if (n <= 0) return;
  const std::int64_t blocks = wb::ceil_div(n, child_block);
  wb::launch({static_cast<unsigned>(blocks < child_max_blocks ? blocks : child_max_blocks), child_block},
             count_if_kernel<T>, in, n, value, count);
}

template <class T>
void merge_chunk_tables(const T* slot_value, const std::uint64_t* slot_count, std::int64_t n, std::int64_t chunk,
                        std::uint64_t* merged, device_table<T> out) {
  if (chunk < 1) throw std::invalid_argument("merge_chunk_tables: chunk must be >= 1");
  WB_CHECK(cudaMemsetAsync(out.size, 0, sizeof(std::int64_t)));
  if (n <= 0) return;
  wb::launch({blocks_for<T>(n), merge_block}, merge_kernel<T, false>, slot_value, slot_count, n, chunk, merged, out,
             static_cast<const int*>(nullptr));
  wb::launch({blocks_for<T>(n), merge_block}, rank_kernel<T>, slot_value, static_cast<const std::uint64_t*>(merged),
             n, out, static_cast<const int*>(nullptr));
}

#define COUNTING_STAGE4(T)                                                                                       \
  template std::size_t count_dynamic_parallelism_workspace_bytes<T>(std::int64_t, const config&);               \
  template void count_dynamic_parallelism(const T*, std::int64_t, device_table<T>, workspace, const config&);    \
  template void count_if_value(const T*, std::int64_t, T, std::uint64_t*, const config&);                        \
  template void merge_chunk_tables(const T*, const std::uint64_t*, std::int64_t, std::int64_t, std::uint64_t*, \
                                   device_table<T>);
COUNTING_STAGE4(std::int8_t)
COUNTING_STAGE4(std::int64_t)
#undef COUNTING_STAGE4

}  // namespace counting::WB_TRACK
