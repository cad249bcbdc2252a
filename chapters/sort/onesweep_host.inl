// The host side of stage 5 (included at the end of both tracks' onesweep.cu): one memset,
// the histogram kernel, the plan kernel, then one pass kernel per 8-bit digit (and portion).
// It never waits for the device: which passes run is decided there (the plan).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

namespace sort::WB_TRACK {

namespace onesweep_host {

template <class K, bool Pairs, class Shape>
void run(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out, std::int64_t n,
         const workspace& ws, const config& cfg) {
  using namespace sort::onesweep;
  constexpr int passes = static_cast<int>(sizeof(bits_of<K>));
  const std::int64_t tile = Shape::tile;
  const workspace_pieces w = carve(ws, n, sizeof(K), tile, cfg);
  const std::int64_t tiles = w.tiles;
  const std::int64_t portion_tiles = w.portion_tiles;
  const std::int64_t portions = w.portions;
  K* other_keys = static_cast<K*>(w.other_keys);
  std::uint32_t* other_values = w.other_values;
  const layout& l = w.offsets;
  unsigned char* scratch = w.scratch;
  auto* counters = reinterpret_cast<unsigned*>(scratch + l.counters);
  auto* histogram = reinterpret_cast<unsigned long long*>(scratch + l.histogram);
  auto* status0 = reinterpret_cast<unsigned*>(scratch + l.status0);
  auto* status1 = reinterpret_cast<unsigned*>(scratch + l.status1);
  auto* base = reinterpret_cast<std::uint64_t*>(scratch + l.base);
  auto* plan = reinterpret_cast<pass_plan*>(scratch + l.plan);

  // Tile counters, histogram and the first sorting pass's status words start at zero; each
  // sorting pass clears the other status array for the next one.
  WB_CHECK(cudaMemsetAsync(scratch, 0, l.zeroed_end));
  constexpr std::int64_t histogram_chunk = histogram_block * histogram_items;
  const std::int64_t histogram_blocks = std::min<std::int64_t>(
      (n + histogram_chunk - 1) / histogram_chunk, std::int64_t{histogram_blocks_per_sm} * device_sm_count());
  wb::launch({dim3(static_cast<unsigned>(histogram_blocks)), dim3(histogram_block)}, onesweep_histogram_kernel<K>,
             keys_in, n, histogram);
  wb::launch({dim3(1), dim3(radix)}, onesweep_plan_kernel, static_cast<const unsigned long long*>(histogram), passes,
             n, base, plan, static_cast<const void*>(keys_in), static_cast<void*>(keys_out),
             static_cast<void*>(other_keys), values_in, Pairs ? values_out : nullptr,
             Pairs ? other_values : nullptr);
  const std::size_t counters_bytes = sizeof(unsigned) * Shape::counter_words;
  const std::size_t staging_bytes = sizeof(bits_of<K>) * static_cast<std::size_t>(tile);
  const std::size_t shared =
      Shape::direct_staging ? counters_bytes + staging_bytes : std::max(staging_bytes, counters_bytes);
  for (int p = 0; p < passes; ++p) {
    for (std::int64_t q = 0; q < portions; ++q) {
      pass_args args{};
      args.plan = plan + p;
      args.n = n;
      args.first_tile = q * portion_tiles;
      args.portion_begin = args.first_tile * tile;
      args.portion_tiles = std::min(portion_tiles, tiles - args.first_tile);
      args.shift = p * onesweep_bits;
      args.base_in = base + (p * 2 + q % 2) * radix;
      args.base_out = base + (p * 2 + (q + 1) % 2) * radix;
      args.status[0] = status0;
      args.status[1] = status1;
      args.tile_counter = counters + p * portions + q;
      wb::launch({dim3(static_cast<unsigned>(args.portion_tiles)), dim3(Shape::block), shared},
                 onesweep_pass_kernel<K, Pairs, Shape>, args);
    }
  }
}

// The stage's shape for K, values or not, short or long tiles (onesweep.hpp's stage_shape).
template <class K, bool Pairs, bool LongTiles>
void run_stage_shape(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                     std::int64_t n, const workspace& ws, const config& cfg) {
  using namespace sort::onesweep;
  constexpr tile_shape t = stage_shape(sizeof(bits_of<K>), !std::is_same_v<K, bits_of<K>>, Pairs, LongTiles);
  run<K, Pairs, shape<t.block, t.items, t.peers, t.min_blocks, t.staged, t.byte_digits, t.bucket_pointers>>(
      keys_in, keys_out, values_in, values_out, n, ws, cfg);
}

template <class K, bool Pairs>
void dispatch(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
              std::int64_t n, const workspace& ws, const config& cfg) {
  if (sort::onesweep::long_tiles_for(n, cfg)) {
    run_stage_shape<K, Pairs, true>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
  } else {
    run_stage_shape<K, Pairs, false>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
  }
}

}  // namespace onesweep_host

template <class K>
void sort_onesweep(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                   std::int64_t n, const workspace& ws, const config& cfg) {
  validate(cfg);
  if (n == 0) return;
  if (values_in != nullptr) {
    onesweep_host::dispatch<K, true>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
  } else {
    onesweep_host::dispatch<K, false>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
  }
}

SORT_INSTANTIATE_DEVICE_STAGE(sort_onesweep)

}  // namespace sort::WB_TRACK
