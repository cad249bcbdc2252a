// Stage 5, the producer (FlashAttention-3, Shah et al. 2024, §3.1 "warp specialization"): one
// thread of the producer warpgroup walks the block's K/V tiles and keeps two rings of shared
// memory full with TMA copies, while the consumers compute. Nothing here waits for data: the
// copies report their bytes to the `full` barriers themselves, and the thread waits only for a
// stage to be `empty` (released by every consumer warp) before it refills it.
//
// K and V are 3D tensors to the TMA, d x kv_seq x (batch * heads): a tile that runs past
// kv_seq is filled with zeros by the copy engine, never with the next head's keys (a 2D map of
// (batch * heads * kv_seq) rows would read them; the consumers mask those columns anyway, but
// V's rows would be real values then, and 0 * NaN is NaN).
#pragma once

#include <cstdint>

#include <cuda.h>

#include "shape.cuh"
#include "wb/device/mbarrier.cuh"
#include "wb/device/tma.cuh"

namespace attention::WB_TRACK::hopper {

// A ring of STAGES tiles and its barriers: full[s] (the TMA's bytes have landed: one arrival,
// the producer's, plus the bytes), empty[s] (every consumer warp is done with it).
struct tile_ring {
  unsigned char* tiles;
  std::uint64_t* full;
  std::uint64_t* empty;
};

// Tile n of the ring <- keys n * BN .. n * BN + BN - 1 of (batch, head) bh, as S::BOXES boxes of
// BN rows x 64 columns.
template <class S>
__device__ __forceinline__ void load_tile(const tile_ring& ring, std::uint32_t n, const CUtensorMap* map,
                                          std::int64_t bh, std::uint32_t tile) {
  // TODO(attention/5): wait until the stage of tile n (ring_at) is empty (the phase before this
  // pass: parity ^ 1), announce KV_TILE_BYTES on its full barrier (mbarrier_arrive_expect_tx),
  // then one tma_load_3d per 64-column box: coordinates (column 64 b, row tile * BN, plane bh),
  // into the stage's tile, box b KV_BOX_BYTES further.
}

// The producer's loop over one work item (one thread): K before V for every tile, as the
// consumers need them; n0 tiles went through the rings before.
template <class S>
__device__ __forceinline__ void produce(const tile_ring& K, const tile_ring& V, const CUtensorMap* map_K,
                                        const CUtensorMap* map_V, const block_work& w, std::uint32_t n0) {
  for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(w.tiles); ++j) {
    load_tile<S>(K, n0 + j, map_K, w.bh, j);
    load_tile<S>(V, n0 + j, map_V, w.bh, j);
  }
}

}  // namespace attention::WB_TRACK::hopper
