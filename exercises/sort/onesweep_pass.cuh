// Stage 5, one pass: one block per tile counts, ranks and scatters its keys by one 8-bit
// digit, finding where its buckets go by a decoupled look-back over earlier tiles' counts.
// See onesweep.cu for the whole stage.
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/device/block_scan.cuh"
#include "wb/device/decoupled_lookback.cuh"
#include "wb/kernel.hpp"

namespace sort::WB_TRACK {

using namespace sort::onesweep;

// 3. One pass over one portion (a.portion_tiles tiles of Shape::tile keys). Dynamic shared
// memory: Shape::counter_words unsigned (each warp's digit counters), then the staging area
// of the tile (Shape::staging_slots keys, at least Shape::tile) beside them
// (Shape::direct_staging) or over them; with values, room for the tile's values after that
// (Shape::shared_bytes), which the solution fills while the keys are ranked. Shape's other
// choices (onesweep.hpp: Shape::peers, byte_digits, bucket_pointers, spread) are the
// solution's tuning; any correct ranking passes the checks.
template <class K, bool Pairs, class Shape>
__global__ void onesweep_pass_kernel(const pass_args a) {
  // TODO(sort/5): read *a.plan (skip: return; copy: copy this block's tile). Take a tile
  // number from a.tile_counter; load Shape::items keys a thread (warp w: keys w * 32 * items
  // + 32 s + lane); count the tile's digits and publish them (partial, tile 0 inclusive) in
  // a.status[plan.status_array]; rank each key within its warp (peers with the same digit:
  // __match_any_sync); per digit (one thread each) look back over earlier tiles' counts
  // (wb::device::tile_counter_exclusive_prefix, the look-back the scan chapter's stage 6
  // teaches); stage the keys in shared memory in digit order and write the key in slot j
  // with digit d to a.base_in[d] + (keys of d in earlier tiles) + j - (where d starts in
  // the tile). The last tile writes a.base_out; clear this tile's row of
  // the other status array for the next pass.
}

}  // namespace sort::WB_TRACK
