// Stage 1: attention as three kernels, the way it is written on paper. S is materialised in
// global memory: batch * heads * seq * kv_seq floats (4 GiB at 4 x 16 x 4096 x 4096), written
// once, read twice and written again by the softmax, read once more by P V. That traffic, not
// the arithmetic, is what FlashAttention removes (Dao et al. 2022, §2.2 and Algorithm 0).
//
//   1. S = Q K^T / sqrt(d), the masked scores -inf         one thread per score
//   2. P = softmax(S) per row: max, sum of exp(s - max),   one block per row
//      then divide (AT1: without the max, exp overflows
//      fp32 from s = 88.7 on, and inf / inf is NaN)
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
  const std::int64_t tiles = query_tiles * key_tiles;
  const std::int64_t bh = blockIdx.x / tiles;
  const std::int64_t tile = blockIdx.x % tiles;
  const std::int64_t i = (tile / key_tiles) * shape::QUERIES + threadIdx.y;
  const std::int64_t j = (tile % key_tiles) * shape::KEYS + threadIdx.x;
  if (i >= d.seq || j >= d.kv_seq) return;
  float s = -INFINITY;  // a masked score: exp(-inf) = 0 in the softmax
  if (j < visible_end(d, i)) {
    const float* q = Q + (bh * d.seq + i) * d.dim;
    const float* k = K + (bh * d.kv_seq + j) * d.dim;
    float dot = 0.0f;
    for (std::int64_t c = 0; c < d.dim; ++c) dot += q[c] * k[c];
    s = dot * scale;
  }
  S[(bh * d.seq + i) * d.kv_seq + j] = s;
}

// A block per row of S (a grid-stride loop past 2^20 rows): the row's max, then the sum of
// exp(s - max), each a block-wide reduction, then P = exp(s - max) / sum in place.
__global__ void softmax_kernel(float* S, dims d, std::int64_t rows) {
  constexpr int THREADS = shape::SOFTMAX_THREADS;
  __shared__ float warp_results[THREADS / 32];
  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    float* s = S + row * d.kv_seq;
    const std::int64_t end = visible_end(d, row % d.seq);
    float m = -INFINITY;
    for (std::int64_t j = threadIdx.x; j < end; j += THREADS) m = fmaxf(m, s[j]);
    m = wb::device::block_reduce<THREADS>(m, [](float a, float b) { return fmaxf(a, b); }, warp_results);
    float l = 0.0f;
    // AT1: exp(s - m) <= 1 for every s; exp(s) alone overflows past s = 88.7.
    for (std::int64_t j = threadIdx.x; j < end; j += THREADS) l += expf(s[j] - m);
    l = wb::device::block_reduce<THREADS>(l, [](float a, float b) { return a + b; }, warp_results);
    for (std::int64_t j = threadIdx.x; j < d.kv_seq; j += THREADS) s[j] = j < end ? expf(s[j] - m) / l : 0.0f;
  }
}

// A block is 32 columns of O (threadIdx.x: a warp reads 32 neighbouring values of a row of V)
// by 8 queries. Each thread adds P[i][j] V[j][c] over the keys row i sees, and only those: a
// masked key's P is 0, but 0 * NaN is NaN, and a NaN in V must not reach rows that never see it.
__global__ void pv_kernel(const float* P, const float* V, float* O, dims d, std::int64_t query_tiles,
                          std::int64_t column_tiles) {
  const std::int64_t tiles = query_tiles * column_tiles;
  const std::int64_t bh = blockIdx.x / tiles;
  const std::int64_t tile = blockIdx.x % tiles;
  const std::int64_t i = (tile / column_tiles) * shape::QUERIES + threadIdx.y;
  const std::int64_t c = (tile % column_tiles) * shape::COLUMNS + threadIdx.x;
  if (i >= d.seq || c >= d.dim) return;
  const float* p = P + (bh * d.seq + i) * d.kv_seq;
  const float* v = V + bh * d.kv_seq * d.dim + c;
  const std::int64_t end = visible_end(d, i);
  float o = 0.0f;
  for (std::int64_t j = 0; j < end; ++j) o += p[j] * v[j * d.dim];
  O[(bh * d.seq + i) * d.dim + c] = o;
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
