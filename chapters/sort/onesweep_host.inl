// Stage 5's host side, shared by both tracks.
// Included by: solutions/sort/onesweep.cu and exercises/sort/onesweep.cu, at their end.
// Launches: onesweep_histogram_kernel and onesweep_plan_kernel (the track's
// onesweep_histogram.cuh), onesweep_pass_kernel (onesweep_pass.cuh); in the solution also
// onesweep_few_digits_kernel (onesweep_few_digits.cuh).
// Here: one memset, the histogram kernel, the plan kernel, then one pass kernel per 8-bit digit
// (and portion) and, for keys without values in a track that has it (the solution), the
// few-digits kernel beside it (one of the two sorts the pass). It never waits for the device:
// which passes run, and which kernel sorts each, is decided there (the plan).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

#include "wb/device_info.hpp"

namespace sort::WB_TRACK {

namespace onesweep_host {

// Whether this track's stage 5 sorts passes of few digit values of K with the few-digits
// kernel: the solution's, for keys without values (onesweep.hpp, few_digits_kernel_for), from
// few_digits_from(sizeof(K)) keys on (the second launch costs more than it saves on fewer).
template <class K, bool Pairs>
bool few_digits_kernel_runs(std::int64_t n, const config& cfg) {
#if defined(SORT_ONESWEEP_FEW_DIGITS_KERNEL)
  return few_digits_kernel_for(Pairs) && match_digits_for(cfg, sizeof(K)) > 0 &&
         n >= (cfg.onesweep_few_digits_from > 0 ? cfg.onesweep_few_digits_from : few_digits_from(sizeof(K)));
#else
  return false;
#endif
}

// The few-digits kernel's blocks: as many as the SMs hold at once (cfg.onesweep_few_digits_blocks
// when set).
template <class Shape>
std::int64_t few_digits_blocks(const config& cfg, int sm_count) {
  if (cfg.onesweep_few_digits_blocks > 0) return cfg.onesweep_few_digits_blocks;
  return std::int64_t{Shape::min_blocks} * sm_count;
}

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
  auto* in_order = reinterpret_cast<unsigned long long*>(scratch + l.in_order);
  auto* status0 = reinterpret_cast<unsigned*>(scratch + l.status0);
  auto* status1 = reinterpret_cast<unsigned*>(scratch + l.status1);
  auto* base = reinterpret_cast<std::uint64_t*>(scratch + l.base);
  auto* plan = reinterpret_cast<pass_plan*>(scratch + l.plan);

  const int sm_count = wb::multiprocessor_count();  // read once a sort, not once a launch
  // Programmatic dependent launch (Hopper on): the plan kernel and each pass's kernels are
  // scheduled as the blocks of the kernel ahead return, not after it is complete. Each of them
  // waits for the kernel ahead before it reads anything, so none runs before all earlier work
  // is done. Only where the track's kernels wait (the solution's); the exercise's start one
  // after the other.
#if defined(SORT_ONESWEEP_KERNELS_WAIT)
  const bool early_start = cfg.onesweep_early_start;
#else
  const bool early_start = false;
#endif
  if (cfg.onesweep_run != onesweep_part::after_histogram) {
    // Tile counters, histogram, the count of keys in order and the first sorting pass's
    // status words start at zero; each sorting pass clears the other status array for the next.
    WB_CHECK(cudaMemsetAsync(scratch, 0, l.zeroed_end));
    const std::int64_t histogram_blocks = histogram_blocks_for(n, sm_count, cfg.onesweep_histogram_blocks);
    wb::launch({dim3(static_cast<unsigned>(histogram_blocks)), dim3(histogram_block)}, onesweep_histogram_kernel<K>,
               keys_in, n, histogram, in_order);
  }
  if (cfg.onesweep_run == onesweep_part::histogram) return;  // the caller goes on later (sort.hpp)
  wb::launch_config plan_launch{dim3(1), dim3(radix)};
  plan_launch.early_start = early_start;
  wb::launch(plan_launch, onesweep_plan_kernel, static_cast<const unsigned long long*>(histogram),
             static_cast<const unsigned long long*>(in_order), passes, n, base, plan,
             static_cast<const void*>(keys_in), static_cast<void*>(keys_out), static_cast<void*>(other_keys), values_in,
             Pairs ? values_out : nullptr, Pairs ? other_values : nullptr);
  const bool few_digits = few_digits_kernel_runs<K, Pairs>(n, cfg);
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
      args.match_digits = few_digits ? match_digits_for(cfg, sizeof(K)) : -1;
      args.first_match_digits = few_digits ? std::min(first_match_digits_for(cfg), args.match_digits) : -1;
      args.dominant_divisor = few_digits ? std::max(dominant_divisor_for(cfg), 0) : 0;
      args.first_stray_divisor = few_digits ? std::max(first_stray_divisor_for(cfg), 0) : 0;
      args.one_digit_tiles = cfg.onesweep_one_digit_tiles;
#if defined(SORT_ONESWEEP_FEW_DIGITS_KERNEL)
      if constexpr (few_digits_kernel_for(Pairs)) {
        if (few_digits) {  // as many blocks as the SMs hold at once, each sorting tile after tile
          using FewShape = match_any_shape<Shape>;
          const std::int64_t blocks = std::min(few_digits_blocks<FewShape>(cfg, sm_count), args.portion_tiles);
          wb::launch_config few_launch{dim3(static_cast<unsigned>(blocks)), dim3(Shape::block),
                                       FewShape::shared_bytes(sizeof(bits_of<K>), Pairs)};
          few_launch.early_start = early_start;
          wb::launch(few_launch, onesweep_few_digits_kernel<K, Pairs, FewShape>, args);
        }
      }
#endif
      wb::launch_config pass_launch{dim3(static_cast<unsigned>(args.portion_tiles)), dim3(Shape::block),
                                    Shape::shared_bytes(sizeof(bits_of<K>), Pairs)};
      pass_launch.early_start = early_start;
      wb::launch(pass_launch, onesweep_pass_kernel<K, Pairs, Shape>, args);
    }
  }
}

// The stage's shape for K, values or not, short or long tiles (onesweep.hpp's stage_shape).
template <class K, bool Pairs, bool LongTiles>
void run_stage_shape(const K* keys_in, K* keys_out, const std::uint32_t* values_in, std::uint32_t* values_out,
                     std::int64_t n, const workspace& ws, const config& cfg) {
  using namespace sort::onesweep;
  constexpr tile_shape t = stage_shape(sizeof(bits_of<K>), Pairs, LongTiles);
  using stage = shape<t.block, t.items, t.peers, t.min_blocks, t.staged, t.byte_digits, t.bucket_pointers,
                      t.one_digit_tiles>;
  run<K, Pairs, stage>(keys_in, keys_out, values_in, values_out, n, ws, cfg);
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
