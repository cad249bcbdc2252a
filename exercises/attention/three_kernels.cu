// Stage 1: attention as three kernels, the way it is written on paper. S is materialised in
// global memory: batch * heads * seq * kv_seq floats, written by the first kernel, normalised in
// place by the second, read by the third.
//
//   1. S = Q K^T / sqrt(d), the masked scores -inf         one thread per score
//   2. P = softmax(S) per row: max, sum of exp(s - max),   one block per row
//      then divide (AT1)
//   3. O = P V over the keys each row sees                 one thread per output
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "wb/device/block_reduce.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK {

using shape = three_kernels_shape;

// A block is 32 keys (threadIdx.x) by 8 queries (threadIdx.y) of one (batch, head): its 32
// threads of a warp write 32 neighbouring scores. blockIdx.x counts (batch, head, query tile,
// key tile).
__global__ void scores_kernel(const float* Q, const float* K, float* S, dims d, float scale,
                              std::int64_t query_tiles, std::int64_t key_tiles) {
  // TODO(attention/1): one score per thread: find this thread's (batch, head), query i and key j
  // from the block's tile; S[row i][j] = (q_i . k_j) * scale for a key the row sees
  // (visible_end), -INFINITY for a masked one. Positions past seq or kv_seq write nothing.
}

// A block per row of S (a grid-stride loop past 2^20 rows): the row's max, then the sum of
// exp(s - max), each a block-wide reduction, then P = exp(s - max) / sum in place.
__global__ void softmax_kernel(float* S, dims d, std::int64_t rows) {
  // TODO(attention/1): the numerically stable softmax of each row (AT1): a block-wide max of
  // the scores the row sees (wb::device::block_reduce<shape::SOFTMAX_THREADS>), a block-wide sum
  // of exp(s - max), then every visible s becomes exp(s - max) / sum, every masked one 0.
}

// A block is 32 columns of O (threadIdx.x: a warp reads 32 neighbouring values of a row of V)
// by 8 queries. Each thread adds P[i][j] V[j][c] over the keys row i sees, and only those.
__global__ void pv_kernel(const float* P, const float* V, float* O, dims d, std::int64_t query_tiles,
                          std::int64_t column_tiles) {
  // TODO(attention/1): one output O[i][c] per thread: the sum of P[i][j] V[j][c] over the keys
  // row i sees, and no others (a masked P is 0, but 0 * NaN is NaN).
}

void attention_three_kernels(const problem<float>& p, wb::workspace scores) {
  const dims& d = p.d;
  validate(d, "stage 1");
  const std::int64_t rows = query_rows(d);
  if (rows == 0) return;
  float* S = wb::carver(scores, "stage 1").take<float>(static_cast<std::int64_t>(score_count(d)));
  const std::int64_t bh = d.batch * d.heads;
  const std::int64_t query_tiles = wb::ceil_div(d.seq, shape::QUERIES);
  const std::int64_t key_tiles = wb::ceil_div(d.kv_seq, shape::KEYS);
  const std::int64_t column_tiles = wb::ceil_div(d.dim, shape::COLUMNS);
  wb::launch({dim3(grid_of(bh * query_tiles * key_tiles, "stage 1")), dim3(shape::KEYS, shape::QUERIES)},
             scores_kernel, p.Q, p.K, S, d, softmax_scale(d.dim), query_tiles, key_tiles);
  wb::launch({dim3(static_cast<unsigned>(std::min(rows, shape::MAX_SOFTMAX_BLOCKS))), dim3(shape::SOFTMAX_THREADS)},
             softmax_kernel, S, d, rows);
  wb::launch({dim3(grid_of(bh * query_tiles * column_tiles, "stage 1")), dim3(shape::COLUMNS, shape::QUERIES)},
             pv_kernel, S, p.V, p.O, d, query_tiles, column_tiles);
}

}  // namespace attention::WB_TRACK
