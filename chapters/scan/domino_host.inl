// Stage 5's host side, shared by both tracks.
// Included by: solutions/scan/domino.cu and exercises/scan/domino.cu, at their end.
// Launches: domino_kernel (the track file's).
// Here: the tile counter and the flags are zeroed before every launch (one memset: they are
// carved side by side).
namespace scan::WB_TRACK {

template <class T>
void scan_domino(const T* in, T* out, std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  const int items = items_for(5, cfg, sizeof(T));
  const std::int64_t section = static_cast<std::int64_t>(cfg.block) * items;
  const std::int64_t tiles = (n + section - 1) / section;
  carver pieces(ws, "scan_domino");
  auto* counter = pieces.take<unsigned>(4);
  auto* flags = pieces.take<unsigned>(tiles);
  T* carries = pieces.take<T>(tiles);
  WB_CHECK(cudaMemsetAsync(counter, 0, reinterpret_cast<unsigned char*>(carries) - reinterpret_cast<unsigned char*>(counter)));
  wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(cfg.block), static_cast<std::size_t>(section) * sizeof(T)},
             domino_kernel<T>, in, out, n, items, cfg.exclusive, counter, flags, carries);
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_domino)

}  // namespace scan::WB_TRACK
