// Stage 6's host side, shared by both tracks.
// Included by: solutions/scan/single_pass.cu and exercises/scan/single_pass.cu, at their end.
// Launches: single_pass_kernel (the track file's), one instantiation per vector width; in the
// solution also zero_words_kernel (defined here).
// Here: the tile size (scan_common.cpp's rules); the tile states carved from the workspace (each
// track's tile_status says how) and zeroed with the tile counter in one memset (the solution: one
// kernel, behind which the scan kernel starts early); the persistent grid (as many blocks as fit
// on the GPU at once, no more than there are tiles) and its shared-memory ring; the kernel
// picked by vectors per thread.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace scan::WB_TRACK {

namespace {
// Shared-memory stages a block keeps: the tile it scans and the next one (whose aggregate it
// publishes early, and whose copy is on its way meanwhile).
inline constexpr int single_pass_stages = 2;

// The persistent grid and the ring for V vectors a thread: they depend on the device, the
// block and the tile only, so they are worked out once for each (block, tile), outside later
// timed runs.
struct single_pass_shape {
  int block = 0, stages = 0, resident_blocks = 0;
};

template <class T, int V>
const single_pass_shape& shape_of(int block) {
  thread_local single_pass_shape last;
  if (last.block != block) {
    const std::size_t tile_bytes = static_cast<std::size_t>(block) * V * 16;
    int device = 0;
    int shared_limit = 0;  // per block, with the opt-in
    int sms = 0;
    WB_CHECK(cudaGetDevice(&device));
    WB_CHECK(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // The static shared memory (barriers, warp totals) needs a little room beside the ring.
    const int stages = static_cast<int>(
        std::min<std::size_t>(single_pass_stages, (static_cast<std::size_t>(shared_limit) - 1024) / tile_bytes));
    if (stages < 2) {
      throw std::invalid_argument("scan_single_pass: two tiles of " + std::to_string(tile_bytes) +
                                  " bytes do not fit in a block's shared memory; use a smaller block or fewer "
                                  "items per thread");
    }
    WB_CHECK(cudaFuncSetAttribute(single_pass_kernel<T, V>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(stages * tile_bytes)));
    int blocks_per_sm = 0;
    WB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, single_pass_kernel<T, V>, block,
                                                           stages * tile_bytes));
    last = {block, stages, std::max(1, blocks_per_sm * sms)};
  }
  return last;
}

#if defined(SCAN_SINGLE_PASS_WAITS)
// Zeroes words[0, count): the tile counter and states, where the scan kernel starts early
// behind it (a kernel ahead, not a memset, lets the scan kernel's blocks be scheduled as this
// one's return).
__global__ void zero_words_kernel(unsigned* words, std::int64_t count) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count()) words[i] = 0;
}
#endif

template <class T, int V>
void launch_single_pass(const T* in, T* out, std::int64_t n, const config& cfg, unsigned* counter,
                        const tile_status<T>& status, std::int64_t tiles, bool early_start) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const single_pass_shape& shape = shape_of<T, V>(cfg.block);
  const std::size_t shared_bytes = static_cast<std::size_t>(shape.stages) * cfg.block * V * 16;
  const std::int64_t grid = std::min<std::int64_t>(shape.resident_blocks, tiles);
  wb::launch_config launch{dim3(static_cast<unsigned>(grid)), dim3(cfg.block), shared_bytes};
  launch.early_start = early_start;
  wb::launch(launch, single_pass_kernel<T, V>, in, out, n, tiles, cfg.exclusive, aligned, shape.stages, counter,
             status);
}

// f(std::integral_constant<int, V>{}) for V = vectors, the kernel's template argument: 1 to 8
// vectors a thread, or 16 for 8-byte items.
template <class T, class F>
decltype(auto) with_vectors(int vectors, F&& f) {
  switch (vectors) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
  }
  if constexpr (sizeof(T) == 8) {
    if (vectors == 16) return f(std::integral_constant<int, 16>{});
  }
  throw std::invalid_argument("scan_single_pass: " + std::to_string(vectors * 16 / sizeof(T)) +
                              " items per thread is not a multiple of the 16-byte vector (" +
                              std::to_string(16 / sizeof(T)) + " items) from 1 to 16 vectors");
}
}  // namespace

template <class T>
void scan_single_pass(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  constexpr int VEC = 16 / sizeof(T);
  auto tiles_of = [&](int items) { return wb::ceil_div(n, static_cast<std::int64_t>(cfg.block) * items); };
  int items = single_pass_items(n, cfg, sizeof(T));  // smaller tiles for a small input
  if (cfg.items_per_thread == 0 && items * sizeof(T) > min_single_pass_thread_bytes) {
    // One to three rounds of tiles for the persistent grid: tiles of half the size even out
    // the last round (single_pass_rounds_uneven in scan_common.cpp).
    const int resident = with_vectors<T>(items / VEC, [&](auto v) {
      return shape_of<T, decltype(v)::value>(cfg.block).resident_blocks;
    });
    if (single_pass_rounds_uneven(tiles_of(items), resident)) items /= 2;
  }
  const std::int64_t tiles = tiles_of(items);
  if (tiles > 2147483647) throw std::invalid_argument("scan_single_pass: more than 2^31 - 1 tiles");
  carver pieces(ws, "scan_single_pass");
  auto* counter = pieces.take<unsigned>(4);
  const auto status = tile_status<T>::carve(pieces, tiles);  // the layout is the track's (tile_lookback.cuh)
  const std::size_t zeroed = pieces.used();
#if defined(SCAN_SINGLE_PASS_WAITS)
  // Programmatic dependent launch (Hopper on): the scan kernel is scheduled as the zeroing
  // kernel's blocks return, and waits for it to be complete before it reads anything.
  const auto words = static_cast<std::int64_t>(zeroed / sizeof(unsigned));
  wb::launch({dim3(static_cast<unsigned>(std::min<std::int64_t>(wb::ceil_div(words, 1024), 1024))), dim3(256)},
             zero_words_kernel, counter, words);
  constexpr bool early_start = true;
#else
  WB_CHECK(cudaMemsetAsync(counter, 0, zeroed));
  constexpr bool early_start = false;  // the exercise's kernel does not wait for the kernel ahead
#endif
  with_vectors<T>(items / VEC, [&](auto v) {
    launch_single_pass<T, decltype(v)::value>(in, out, n, cfg, counter, status, tiles, early_start);
  });
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_single_pass)

}  // namespace scan::WB_TRACK
