// Stage 3's host side, shared by both tracks.
// Included by: solutions/scan/coarsened.cu and exercises/scan/coarsened.cu, at their end.
// Launches: coarsened_kernel (the track file's).
// Here: one block, a section of block x items in shared memory.
namespace scan::WB_TRACK {

template <class T>
void scan_coarsened(const T* in, T* out, std::int64_t n, const workspace&, const config& cfg) {
  validate(cfg, sizeof(T));
  if (n == 0) return;
  const int items = items_for(3, cfg, sizeof(T));
  wb::launch({dim3(1), dim3(cfg.block), static_cast<std::size_t>(cfg.block) * items * sizeof(T)}, coarsened_kernel<T>,
             in, out, n, items, cfg.exclusive);
}

SCAN_INSTANTIATE_DEVICE_STAGE(scan_coarsened)

}  // namespace scan::WB_TRACK
