// The host side of stage 6 (included at the end of both tracks' single_pass.cu): the tile
// states carved from the workspace (each track's tile_status says how) and zeroed with the
// tile counter in one memset, and the kernel picked by vectors per thread.
#include <stdexcept>
#include <string>

namespace scan::WB_TRACK {

namespace {
template <class T, int V>
void launch_single_pass(const T* in, T* out, std::int64_t n, const config& cfg, unsigned* counter,
                        const tile_status<T>& status, std::int64_t tiles) {
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(cfg.block)}, single_pass_kernel<T, V>, in, out, n,
             cfg.exclusive, aligned, counter, status);
}
}  // namespace

template <class T>
void scan_single_pass(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  constexpr int VEC = 16 / sizeof(T);
  const int items = items_for(6, cfg, sizeof(T));
  const int vectors = items / VEC;
  const std::int64_t tile_items = static_cast<std::int64_t>(cfg.block) * items;
  const std::int64_t tiles = (n + tile_items - 1) / tile_items;
  if (tiles > 2147483647) throw std::invalid_argument("scan_single_pass: more than 2^31 - 1 tiles");
  carver pieces(ws, "scan_single_pass");
  auto* counter = pieces.take<unsigned>(4);
  const auto status = tile_status<T>::carve(pieces, tiles);  // the layout is the track's (tile_lookback.cuh)
  const std::size_t zeroed = pieces.used();
  WB_CHECK(cudaMemsetAsync(counter, 0, zeroed));
  switch (vectors) {
    case 1: return launch_single_pass<T, 1>(in, out, n, cfg, counter, status, tiles);
    case 2: return launch_single_pass<T, 2>(in, out, n, cfg, counter, status, tiles);
    case 4: return launch_single_pass<T, 4>(in, out, n, cfg, counter, status, tiles);
    case 8: return launch_single_pass<T, 8>(in, out, n, cfg, counter, status, tiles);
  }
  if constexpr (sizeof(T) == 8) {
    if (vectors == 16) return launch_single_pass<T, 16>(in, out, n, cfg, counter, status, tiles);
  }
  throw std::invalid_argument("scan_single_pass: " + std::to_string(items) + " items per thread is not a multiple "
                              "of the 16-byte vector (" + std::to_string(VEC) + " items) from 1 to 16 vectors");
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_single_pass)

}  // namespace scan::WB_TRACK
