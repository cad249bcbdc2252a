// Stage 5, a pass of few digit values (keys without values; the solution's own step
// past the exercise): the pass kernel's tiles, ranked by __match_any_sync. See onesweep.cu for the
// whole stage, onesweep.hpp (few_digits_kernel_for, match_digits) for when it runs.
//
// The idea is CUB's: its onesweep ranks a warp's keys with match_any, which costs less the
// fewer distinct digits the warp's lanes hold, where the pass kernel's ballots cost the same
// on any keys. The pass kernel keeps its ranking (faster on random digits); a pass whose digit
// takes at most a.match_digits values over the whole input (the plan counted them from the
// histogram; a pass whose keys arrive mixed, the first sorting pass or one after a pass of many
// digit values: a.first_match_digits), or a
// later one in which one digit holds n / a.dominant_divisor keys or more, is sorted here
// instead, and the pass kernel's blocks return at once on it (few_digits_pass, onesweep.hpp).
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "onesweep_pass.cuh"
#include "sort.hpp"
#include "wb/device/grid_dependency.cuh"
#include "wb/kernel.hpp"

// onesweep_host.inl launches this kernel beside the pass kernel where the track has it (the
// solution); a track without it (the exercise) runs the pass kernel alone on every pass.
#define SORT_ONESWEEP_FEW_DIGITS_KERNEL 1

namespace sort::WB_TRACK {

// 3b. Launched beside onesweep_pass_kernel for every pass (which of the two sorts it is decided
// on the device, by the plan; the other returns at once). Few blocks, as many as the SMs hold
// at once, each sorting tile after tile: on the passes it leaves to the pass kernel it costs
// one short wave, not a block per tile. The tiles still start in order (the tile counter), so
// the look-back only ever waits for running blocks. Shape ranks by match_any (match_any_shape).
template <class K, bool Pairs, class Shape>
__global__ void __launch_bounds__(Shape::block, Shape::min_blocks) onesweep_few_digits_kernel(const pass_args a) {
  static_assert(Shape::peers == peer_method::match_any, "a pass of few digit values ranks by match_any");
  wb::device::wait_for_previous_grid();  // launched early, while the previous pass ends
  if (!few_digits_pass(*a.plan, a)) return;
  __shared__ pass_shared sh;
  // The arguments too, read anew for each tile: what the tiles share would otherwise be
  // computed once, before the loop, and held in registers the ranking needs (it spills).
  __shared__ pass_args args;
  unsigned* warp_slot = wb::dynamic_shared<unsigned>();
  const int tid = static_cast<int>(threadIdx.x);
  for (;;) {
    if (tid == 0) {
      args = a;
      sh.tile_number = atomicAdd(a.tile_counter, 1u);
      sh.plan = *a.plan;
    }
    for (int i = tid; i < Shape::counter_words; i += Shape::block) warp_slot[i] = 0;
    __syncthreads();
    const std::int64_t tile = sh.tile_number;
    if (tile >= args.portion_tiles) return;  // every block takes one number past the last tile
    const std::int64_t left = args.n - (args.portion_begin + tile * Shape::tile);
    if (left >= Shape::tile) {
      sort_tile<K, Pairs, Shape, true>(args, sh, tile, Shape::tile);
    } else {
      sort_tile<K, Pairs, Shape, false>(args, sh, tile, static_cast<int>(left));
    }
    __syncthreads();  // the tile is written out before the next one takes the shared memory
  }
}

}  // namespace sort::WB_TRACK
