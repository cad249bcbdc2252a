// Stage 3: FlashAttention tiling in shared memory, with FlashAttention-2's loop order (Dao
// 2023, Algorithm 1 and §3.3), in fp32 on the CUDA cores.
//
// A block owns a tile of BR = 32 query rows; the loop over the keys is inside it. The block
// streams K and V through shared memory in tiles of BC = 32 rows, and for each tile every row
// does one step of the online softmax of stage 2 on 32 scores at once: the tile's max, one
// rescale of l and acc by exp(m - m'), 32 terms added. K and V are read from global memory once
// per block of 32 queries instead of once per query (stage 2); S never leaves the registers.
//
// FlashAttention-2's choices: the query loop is outside (blocks over (batch, head, query
// tile): no block writes what another reads), O stays unnormalised until the last tile (one
// division per output, not one per tile as in FlashAttention-1), and the warps of a block
// split the queries, not the keys (each warp owns 4 rows start to end, so no warp waits for
// another's partial sums). With the causal mask, the tiles above the diagonal are skipped
// (none of the block's rows sees their keys), and only the tile crossing the diagonal is
// masked, row by row; every other tile is whole (but the last, cut at kv_seq).
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
  constexpr int BR = shape::BR, BC = shape::BC, RPW = shape::ROWS_PER_WARP, THREADS = shape::THREADS;
  const int dim = static_cast<int>(d.dim);
  const int ldk = dim + 1;  // K's rows padded: lane j reads row j, 32 rows in 32 banks
  float* Qs = wb::dynamic_shared<float>();  // [BR][dim], scaled
  float* Ks = Qs + BR * dim;                 // [BC][dim + 1]
  float* Vs = Ks + BC * ldk;                 // [BC][dim]

  const std::int64_t bh = blockIdx.x / query_tiles;
  const std::int64_t i0 = (blockIdx.x % query_tiles) * BR;
  const int lane = threadIdx.x % 32;
  const int row0 = (threadIdx.x / 32) * RPW;  // this warp's rows: row0 .. row0 + 3 of the tile
  const float* Qb = Q + (bh * d.seq + i0) * dim;
  const float* Kb = K + bh * d.kv_seq * dim;
  const float* Vb = V + bh * d.kv_seq * dim;

  for (int e = threadIdx.x; e < BR * dim; e += THREADS) {
    Qs[e] = i0 + e / dim < d.seq ? Qb[e] * scale : 0.0f;
  }
  float m[RPW], l[RPW], acc[RPW][DPL];
  std::int64_t end[RPW];  // row r sees keys below end[r]; 0 for rows past seq
#pragma unroll
  for (int r = 0; r < RPW; ++r) {
    const std::int64_t i = i0 + row0 + r;
    end[r] = i < d.seq ? visible_end(d, i) : 0;
    m[r] = -INFINITY;
    l[r] = 0.0f;
#pragma unroll
    for (int t = 0; t < DPL; ++t) acc[r][t] = 0.0f;
  }
  // The keys any row of the block sees: with the causal mask, tiles from here on lie wholly
  // above the diagonal and are skipped.
  const std::int64_t last = (i0 + BR < d.seq ? i0 + BR : d.seq) - 1;
  const std::int64_t block_end = visible_end(d, last);

  for (std::int64_t j0 = 0; j0 < block_end; j0 += BC) {
    for (int e = threadIdx.x; e < BC * dim; e += THREADS) {
      const int r = e / dim, c = e % dim;
      const bool inside = j0 + r < d.kv_seq;
      Ks[r * ldk + c] = inside ? Kb[j0 * dim + e] : 0.0f;
      Vs[e] = inside ? Vb[j0 * dim + e] : 0.0f;
    }
    __syncthreads();  // the tiles (and, the first time, Qs) are whole before anyone reads them

    // Scores of the warp's 4 rows for key j0 + lane: each K element read once for 4 rows.
    float s[RPW] = {};
    for (int c = 0; c < dim; ++c) {
      const float k = Ks[lane * ldk + c];
#pragma unroll
      for (int r = 0; r < RPW; ++r) s[r] += Qs[(row0 + r) * dim + c] * k;
    }
    // One online-softmax step per row for this tile. n[r] keys of the tile are visible to row
    // r: all BC except in the tile crossing the diagonal (causal) or past kv_seq. The same for
    // every lane of the warp, so the shuffles below are taken by all 32 lanes.
    float p[RPW];
    int n[RPW];
    int n_most = 0;
#pragma unroll
    for (int r = 0; r < RPW; ++r) {
      const std::int64_t left = end[r] - j0;
      n[r] = left <= 0 ? 0 : left >= BC ? BC : static_cast<int>(left);
      n_most = n[r] > n_most ? n[r] : n_most;
      p[r] = 0.0f;
      if (n[r] == 0) continue;  // the row sees none of this tile: its state stays
      const float score = lane < n[r] ? s[r] : -INFINITY;
      const float m_new = fmaxf(m[r], wb::device::warp_reduce(score, [](float a, float b) { return fmaxf(a, b); }));
      p[r] = lane < n[r] ? expf(score - m_new) : 0.0f;
      const float alpha = expf(m[r] - m_new);  // AT2, as in stage 2: once per tile here
      l[r] = l[r] * alpha + wb::device::warp_sum(p[r]);
#pragma unroll
      for (int t = 0; t < DPL; ++t) acc[r][t] *= alpha;
      m[r] = m_new;
    }
    // acc += P V: key j's weight for row r is lane j's p[r]; only keys the row sees are
    // multiplied in (0 * NaN is NaN).
    for (int j = 0; j < n_most; ++j) {
      float pj[RPW];
#pragma unroll
      for (int r = 0; r < RPW; ++r) pj[r] = __shfl_sync(0xffffffffu, p[r], j);
#pragma unroll
      for (int t = 0; t < DPL; ++t) {
        const int c = lane + 32 * t;
        if (c >= dim) break;
        const float v = Vs[j * dim + c];
#pragma unroll
        for (int r = 0; r < RPW; ++r) {
          if (j < n[r]) acc[r][t] += pj[r] * v;
        }
      }
    }
    __syncthreads();  // everyone is done with this tile before the next one overwrites it
  }
#pragma unroll
  for (int r = 0; r < RPW; ++r) {
    const std::int64_t i = i0 + row0 + r;
    if (i >= d.seq) continue;
#pragma unroll
    for (int t = 0; t < DPL; ++t) {
      const int c = lane + 32 * t;
      if (c < dim) O[(bh * d.seq + i) * dim + c] = acc[r][t] / l[r];  // FlashAttention-2: divide once, at the end
    }
  }
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
