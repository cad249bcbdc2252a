// The host side of stage 6 (included at the end of both tracks' merge_sort.cu): sort the
// tiles, then one merge pass per doubling of the run width, ping-ponging so that the last
// pass lands in the output.
#include <cstddef>

namespace sort::WB_TRACK {

template <class K>
void sort_merge(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  if (n == 0) return;
  const int items = items_for(6, cfg);
  const std::int64_t tile = static_cast<std::int64_t>(cfg.block) * items;
  carver pieces(ws, "sort_merge");
  K* other_keys = pieces.take<K>(n);
  std::uint32_t* other_values = pieces.take<std::uint32_t>(n);
  int levels = 0;
  for (std::int64_t width = tile; width < n; width *= 2) ++levels;
  const bool with_values = values_in != nullptr;
  // Level l writes to the output when levels - l is even, so the last one does.
  auto keys_at = [&](int level) { return (levels - level) % 2 == 0 ? keys_out : other_keys; };
  auto values_at = [&](int level) {
    return with_values ? ((levels - level) % 2 == 0 ? values_out : other_values) : nullptr;
  };
  const std::int64_t blocks = (n + tile - 1) / tile;
  const std::size_t shared = 2 * static_cast<std::size_t>(tile) * (sizeof(bits_of<K>) + 4);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(cfg.block), shared}, block_merge_sort_kernel<K>, keys_in,
             values_in, keys_at(0), values_at(0), n, items);
  int level = 0;
  for (std::int64_t width = tile; width < n; width *= 2) {
    const std::int64_t grid = (n + cfg.block - 1) / cfg.block;
    wb::launch({dim3(static_cast<unsigned>(grid)), dim3(cfg.block)}, merge_pass_kernel<K>,
               static_cast<const K*>(keys_at(level)), static_cast<const std::uint32_t*>(values_at(level)),
               keys_at(level + 1), values_at(level + 1), n, width);
    ++level;
  }
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_merge)

}  // namespace sort::WB_TRACK
