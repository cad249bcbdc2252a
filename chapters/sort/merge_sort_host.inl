// Stage 6's host side, shared by both tracks.
// Included by: solutions/sort/merge_sort.cu and exercises/sort/merge_sort.cu, at their end.
// Launches: block_sort_kernel (the track's tile_sort.cuh); merge_partition_kernel and
// merge_pass_kernel (the track's merge_pass.cuh).
// Here: the compiled shapes, level 0 (sort the tiles), then one partition and one merge launch
// per level, ping-ponging so that the last level lands in the output.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace sort::WB_TRACK {

// A stage-6 shape: SORT_BLOCK threads sort tiles of SORT_BLOCK * ITEMS keys; the merge passes
// use blocks of MERGE_BLOCK threads and output tiles of MERGE_BLOCK * ITEMS. SORT_BLOCK is a
// multiple of MERGE_BLOCK, so every run width is a multiple of the output tile.
template <int SORT_BLOCK, int MERGE_BLOCK, int ITEMS>
struct merge_shape {
  static_assert(SORT_BLOCK % MERGE_BLOCK == 0, "a run must be a whole number of output tiles");
  static_assert(ITEMS % 2 == 1, "odd ITEMS: the blocked shared-memory accesses are free of bank conflicts");
  static constexpr int sort_block = SORT_BLOCK;
  static constexpr int merge_block = MERGE_BLOCK;
  static constexpr int items = ITEMS;
  static constexpr std::int64_t sort_tile = std::int64_t{SORT_BLOCK} * ITEMS;
  static constexpr std::int64_t merge_tile = std::int64_t{MERGE_BLOCK} * ITEMS;
};

// Called after each launch of stage 6 with what was launched and its level (0: the tile sort);
// the default does nothing. The stage-6 experiment times each level with it.
struct no_hook {
  void operator()(const char*, int, std::int64_t) const {}
};

// Merge passes after tiles of sort_tile keys: log2(n / sort_tile) rounded up.
inline int merge_levels(std::int64_t n, std::int64_t sort_tile) {
  int levels = 0;
  for (std::int64_t width = sort_tile; width < n; width *= 2) ++levels;
  return levels;
}

template <class K, class Shape, bool VALUES, class Hook = no_hook>
void merge_sort_shaped(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                       std::int64_t n, const workspace& ws, Hook hook = {}) {
  using U = bits_of<K>;
  if (n == 0) return;
  constexpr int SB = Shape::sort_block, MB = Shape::merge_block, ITEMS = Shape::items;
  carver pieces(ws, "sort_merge");
  U* other_keys = pieces.take<U>(n);
  std::uint32_t* other_values = pieces.take<std::uint32_t>(VALUES ? n : 0);
  const std::int64_t tiles = (n + Shape::merge_tile - 1) / Shape::merge_tile;
  std::int64_t* partitions = pieces.take<std::int64_t>(tiles);
  const int levels = merge_levels(n, Shape::sort_tile);
  // Level l writes to the output when levels - l is even, so the last one does.
  U* out_bits = reinterpret_cast<U*>(keys_out);
  auto keys_at = [&](int level) { return (levels - level) % 2 == 0 ? out_bits : other_keys; };
  auto values_at = [&](int level) { return (levels - level) % 2 == 0 ? values_out : other_values; };

  const std::int64_t sort_blocks = (n + Shape::sort_tile - 1) / Shape::sort_tile;
  const std::size_t sort_shared = static_cast<std::size_t>(Shape::sort_tile) * (sizeof(U) + (VALUES ? 4 : 0));
  const wb::launch_config sort_launch{dim3(static_cast<unsigned>(sort_blocks)), dim3(SB), sort_shared};
  if (levels == 0) {
    wb::launch(sort_launch, block_sort_kernel<K, SB, ITEMS, VALUES, true>, keys_in, values_in, nullptr, keys_out,
               values_out, n);
  } else {
    wb::launch(sort_launch, block_sort_kernel<K, SB, ITEMS, VALUES, false>, keys_in, values_in, keys_at(0), nullptr,
               values_at(0), n);
  }
  hook("tile sort", 0, Shape::sort_tile);

  const std::size_t merge_shared = static_cast<std::size_t>(Shape::merge_tile) * sizeof(U);
  const wb::launch_config merge_launch{dim3(static_cast<unsigned>(tiles)), dim3(MB), merge_shared};
  std::int64_t width = Shape::sort_tile;
  for (int level = 1; level <= levels; ++level, width *= 2) {
    const U* src = keys_at(level - 1);
    const std::uint32_t* src_values = VALUES ? values_at(level - 1) : nullptr;
    wb::launch({dim3(static_cast<unsigned>((tiles + 255) / 256)), dim3(256)}, merge_partition_kernel<U>, src, n, width,
               Shape::merge_tile, tiles, partitions);
    hook("partition", level, width);
    std::uint32_t* dst_values = VALUES ? values_at(level) : nullptr;
    if (level == levels) {
      wb::launch(merge_launch, merge_pass_kernel<K, MB, ITEMS, VALUES, true>, src, src_values, nullptr, keys_out,
                 dst_values, n, width, static_cast<const std::int64_t*>(partitions));
    } else {
      wb::launch(merge_launch, merge_pass_kernel<K, MB, ITEMS, VALUES, false>, src, src_values, keys_at(level), nullptr,
                 dst_values, n, width, static_cast<const std::int64_t*>(partitions));
    }
    hook("merge", level, width);
  }
}

template <class K>
void sort_merge(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  const bool with_values = values_in != nullptr;
  constexpr bool wide = sizeof(K) == 8;
#define SORT_MERGE_DISPATCH(BLOCK, SORT_BLOCK, MB4, I4, MB4V, I4V, MB8, I8, MB8V, I8V)                     \
  if (cfg.block == (BLOCK)) {                                                                           \
    if (with_values) {                                                                                  \
      using shape = merge_shape<SORT_BLOCK, wide ? (MB8V) : (MB4V), wide ? (I8V) : (I4V)>;              \
      merge_sort_shaped<K, shape, true>(keys_in, keys_out, values_in, values_out, n, ws);               \
    } else {                                                                                            \
      using shape = merge_shape<SORT_BLOCK, wide ? (MB8) : (MB4), wide ? (I8) : (I4)>;                  \
      merge_sort_shaped<K, shape, false>(keys_in, keys_out, nullptr, nullptr, n, ws);                   \
    }                                                                                                   \
    return;                                                                                             \
  }
  SORT_MERGE_SHAPES(SORT_MERGE_DISPATCH)
#undef SORT_MERGE_DISPATCH
  throw std::invalid_argument("sort_merge: block " + std::to_string(cfg.block) + " has no compiled shape");
}

#if !defined(SORT_MERGE_EXPERIMENT)  // the stage-6 experiment instantiates only what it times
SORT_INSTANTIATE_DEVICE_STAGE(sort_merge)
#endif

}  // namespace sort::WB_TRACK
