// Stage 3: FlashAttention tiling in shared memory, with FlashAttention-2's loop order (Dao
// 2023, Algorithm 1 and §3.3), in fp32 on the CUDA cores.
//
// A block owns a tile of BR = 32 query rows (8 warps, 4 rows each) and streams K and V through
// shared memory in tiles of BC = 32 rows; for each tile every row does one step of stage 2's
// online softmax on 32 scores at once. With the causal mask, tiles above the diagonal are
// skipped and only the tile crossing it is masked.
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK {

using shape = tiled_shape;

template <int DPL>
__global__ void tiled_kernel(const float* Q, const float* K, const float* V, float* O, dims d, float scale,
                             std::int64_t query_tiles) {
  // TODO(attention/3): FlashAttention-2, Algorithm 1, for the BR query rows of tile
  // blockIdx.x % query_tiles of (batch, head) blockIdx.x / query_tiles. Dynamic shared memory
  // (wb::dynamic_shared<float>()) holds the scaled Q tile [BR][d], a K tile [BC][d + 1] and a V
  // tile [BC][d] (tiled_shape::shared_bytes). Per K/V tile: load it (zeros past kv_seq), a
  // barrier, the scores of the warp's 4 rows (lane j: key j), one online-softmax step per row
  // over the keys it sees, acc += P V, and a barrier before the next tile overwrites this one.
  // Causal: stop after the last tile the block's last row sees. At the end O = acc / l.
}

void attention_tiled(const problem<float>& p) {
  const dims& d = p.d;
  validate(d, "stage 3");
  if (query_rows(d) == 0) return;
  const std::int64_t query_tiles = wb::ceil_div(d.seq, shape::BR);
  const unsigned blocks = grid_of(d.batch * d.heads * query_tiles, "stage 3");
  with_dims_per_lane(d.dim, [&](auto dpl) {
    wb::launch({dim3(blocks), dim3(shape::THREADS), shape::shared_bytes(d.dim)}, tiled_kernel<decltype(dpl)::value>,
               p.Q, p.K, p.V, p.O, d, softmax_scale(d.dim), query_tiles);
  });
}

}  // namespace attention::WB_TRACK
