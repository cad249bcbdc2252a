#include "defective_variants.hpp"

#include <algorithm>
#include <cmath>

#include "launch_shapes.hpp"
#include "wb/device/block_reduce.cuh"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace attention::defective {

namespace {

// ---- AT1: stage 1's three kernels (three_kernels.cu), the softmax without its max --------------
using three = three_kernels_shape;

__global__ void scores_kernel(const float* Q, const float* K, float* S, dims d, float scale, std::int64_t query_tiles,
                              std::int64_t key_tiles) {
  const std::int64_t tiles = query_tiles * key_tiles;
  const std::int64_t bh = blockIdx.x / tiles, tile = blockIdx.x % tiles;
  const std::int64_t i = (tile / key_tiles) * three::QUERIES + threadIdx.y;
  const std::int64_t j = (tile % key_tiles) * three::KEYS + threadIdx.x;
  if (i >= d.seq || j >= d.kv_seq) return;
  float s = -INFINITY;
  if (j < visible_end(d, i)) {
    float dot = 0.0f;
    for (std::int64_t c = 0; c < d.dim; ++c) dot += Q[(bh * d.seq + i) * d.dim + c] * K[(bh * d.kv_seq + j) * d.dim + c];
    s = dot * scale;
  }
  S[(bh * d.seq + i) * d.kv_seq + j] = s;
}

__global__ void unstable_softmax_kernel(float* S, dims d, std::int64_t rows) {
  constexpr int THREADS = three::SOFTMAX_THREADS;
  __shared__ float warp_results[THREADS / 32];
  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    float* s = S + row * d.kv_seq;
    const std::int64_t end = visible_end(d, row % d.seq);
    float l = 0.0f;
    for (std::int64_t j = threadIdx.x; j < end; j += THREADS) l += expf(s[j]);  // AT1: no max subtracted
    l = wb::device::block_reduce<THREADS>(l, [](float a, float b) { return a + b; }, warp_results);
    for (std::int64_t j = threadIdx.x; j < d.kv_seq; j += THREADS) s[j] = j < end ? expf(s[j]) / l : 0.0f;
  }
}

__global__ void pv_kernel(const float* P, const float* V, float* O, dims d, std::int64_t query_tiles,
                          std::int64_t column_tiles) {
  const std::int64_t tiles = query_tiles * column_tiles;
  const std::int64_t bh = blockIdx.x / tiles, tile = blockIdx.x % tiles;
  const std::int64_t i = (tile / column_tiles) * three::QUERIES + threadIdx.y;
  const std::int64_t c = (tile % column_tiles) * three::COLUMNS + threadIdx.x;
  if (i >= d.seq || c >= d.dim) return;
  float o = 0.0f;
  for (std::int64_t j = 0; j < visible_end(d, i); ++j)
    o += P[(bh * d.seq + i) * d.kv_seq + j] * V[(bh * d.kv_seq + j) * d.dim + c];
  O[(bh * d.seq + i) * d.dim + c] = o;
}

// ---- AT2: stage 2's kernel (online.cu) without the rescale --------------------------------------
template <int DPL>
__global__ void online_no_rescale_kernel(const float* Q, const float* K, const float* V, float* O, dims d, float scale,
                                         std::int64_t rows) {
  const int lane = threadIdx.x % 32;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * online_shape::WARPS + threadIdx.x / 32;
  if (row >= rows) return;
  const std::int64_t bh = row / d.seq;
  float q[DPL], acc[DPL];
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = lane + 32 * t;
    q[t] = c < d.dim ? Q[row * d.dim + c] * scale : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (std::int64_t j = 0; j < visible_end(d, row % d.seq); ++j) {
    const float* k = K + (bh * d.kv_seq + j) * d.dim;
    const float* v = V + (bh * d.kv_seq + j) * d.dim;
    float part = 0.0f;
    for (int t = 0; t < DPL; ++t) {
      const std::int64_t c = lane + 32 * t;
      if (c < d.dim) part += q[t] * k[c];
    }
    const float s = wb::device::warp_sum(part);
    m = fmaxf(m, s);
    const float w = expf(s - m);
    l += w;  // AT2: the terms summed for the old max are not rescaled
    for (int t = 0; t < DPL; ++t) {
      const std::int64_t c = lane + 32 * t;
      if (c < d.dim) acc[t] += w * v[c];
    }
  }
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = lane + 32 * t;
    if (c < d.dim) O[row * d.dim + c] = acc[t] / l;
  }
}

// ---- AT3: stage 3's kernel (tiled.cu) with its mask mutated ------------------------------------
__device__ inline std::int64_t defective_end(const dims& d, std::int64_t i, mask_defect defect) {
  if (!d.causal) return d.kv_seq;
  std::int64_t end = visible_end(d, i);
  if (defect == mask_defect::off_by_one) end += 1;  // AT3: j <= i + kv_seq - seq + 1
  if (defect == mask_defect::top_left) end = i + 1;  // AT3: j <= i, the top-left alignment
  return end < d.kv_seq ? end : d.kv_seq;
}

template <int DPL>
__global__ void tiled_mask_kernel(const float* Q, const float* K, const float* V, float* O, dims d, float scale,
                                  std::int64_t query_tiles, mask_defect defect) {
  using shape = tiled_shape;
  constexpr int BR = shape::BR, BC = shape::BC, RPW = shape::ROWS_PER_WARP, THREADS = shape::THREADS;
  const int dim = static_cast<int>(d.dim), ldk = dim + 1;
  float* Qs = wb::dynamic_shared<float>();
  float* Ks = Qs + BR * dim;
  float* Vs = Ks + BC * ldk;
  const std::int64_t bh = blockIdx.x / query_tiles, i0 = (blockIdx.x % query_tiles) * BR;
  const int lane = threadIdx.x % 32, row0 = (threadIdx.x / 32) * RPW;
  for (int e = threadIdx.x; e < BR * dim; e += THREADS)
    Qs[e] = i0 + e / dim < d.seq ? Q[(bh * d.seq + i0) * dim + e] * scale : 0.0f;
  float m[RPW], l[RPW], acc[RPW][DPL];
  std::int64_t end[RPW];
  std::int64_t block_end = 0;
  for (int r = 0; r < RPW; ++r) {
    const std::int64_t i = i0 + row0 + r;
    end[r] = i < d.seq ? defective_end(d, i, defect) : 0;
    m[r] = -INFINITY;
    l[r] = 0.0f;
    for (int t = 0; t < DPL; ++t) acc[r][t] = 0.0f;
  }
  for (std::int64_t i = i0; i < i0 + BR && i < d.seq; ++i) block_end = std::max(block_end, defective_end(d, i, defect));
  for (std::int64_t j0 = 0; j0 < block_end; j0 += BC) {
    for (int e = threadIdx.x; e < BC * dim; e += THREADS) {
      const int r = e / dim, c = e % dim;
      const bool inside = j0 + r < d.kv_seq;
      Ks[r * ldk + c] = inside ? K[(bh * d.kv_seq + j0) * dim + e] : 0.0f;
      Vs[e] = inside ? V[(bh * d.kv_seq + j0) * dim + e] : 0.0f;
    }
    __syncthreads();
    float s[RPW] = {};
    for (int c = 0; c < dim; ++c)
      for (int r = 0; r < RPW; ++r) s[r] += Qs[(row0 + r) * dim + c] * Ks[lane * ldk + c];
    float p[RPW];
    int n[RPW];
    int n_most = 0;
    for (int r = 0; r < RPW; ++r) {
      const std::int64_t left = end[r] - j0;
      n[r] = left <= 0 ? 0 : left >= BC ? BC : static_cast<int>(left);
      n_most = std::max(n_most, n[r]);
      p[r] = 0.0f;
      if (n[r] == 0) continue;
      const float score = lane < n[r] ? s[r] : -INFINITY;
      const float m_new = fmaxf(m[r], wb::device::warp_reduce(score, [](float a, float b) { return fmaxf(a, b); }));
      p[r] = lane < n[r] ? expf(score - m_new) : 0.0f;
      const float alpha = expf(m[r] - m_new);
      l[r] = l[r] * alpha + wb::device::warp_sum(p[r]);
      for (int t = 0; t < DPL; ++t) acc[r][t] *= alpha;
      m[r] = m_new;
    }
    for (int j = 0; j < n_most; ++j) {
      float pj[RPW];
      for (int r = 0; r < RPW; ++r) pj[r] = __shfl_sync(0xffffffffu, p[r], j);
      for (int t = 0; t < DPL; ++t) {
        const int c = lane + 32 * t;
        if (c >= dim) break;
        for (int r = 0; r < RPW; ++r)
          if (j < n[r]) acc[r][t] += pj[r] * Vs[j * dim + c];
      }
    }
    __syncthreads();
  }
  for (int r = 0; r < RPW; ++r) {
    const std::int64_t i = i0 + row0 + r;
    if (i >= d.seq) continue;
    for (int t = 0; t < DPL; ++t) {
      const int c = lane + 32 * t;
      if (c < dim) O[(bh * d.seq + i) * dim + c] = acc[r][t] / l[r];
    }
  }
}

}  // namespace

void three_kernels_unstable(const problem<float>& p, wb::workspace scores) {
  const dims& d = p.d;
  const std::int64_t rows = query_rows(d);
  float* S = wb::carver(scores, "AT1").take<float>(static_cast<std::int64_t>(score_count(d)));
  const std::int64_t bh = d.batch * d.heads, qt = wb::ceil_div(d.seq, three::QUERIES);
  const std::int64_t kt = wb::ceil_div(d.kv_seq, three::KEYS), ct = wb::ceil_div(d.dim, three::COLUMNS);
  wb::launch({dim3(grid_of(bh * qt * kt, "AT1")), dim3(three::KEYS, three::QUERIES)}, scores_kernel, p.Q, p.K, S, d,
             softmax_scale(d.dim), qt, kt);
  wb::launch({dim3(static_cast<unsigned>(std::min(rows, three::MAX_SOFTMAX_BLOCKS))), dim3(three::SOFTMAX_THREADS)},
             unstable_softmax_kernel, S, d, rows);
  wb::launch({dim3(grid_of(bh * qt * ct, "AT1")), dim3(three::COLUMNS, three::QUERIES)}, pv_kernel, S, p.V, p.O, d, qt,
             ct);
}

void online_no_rescale(const problem<float>& p) {
  const std::int64_t rows = query_rows(p.d);
  with_dims_per_lane(p.d.dim, [&](auto dpl) {
    wb::launch({dim3(grid_of(wb::ceil_div(rows, online_shape::WARPS), "AT2")), dim3(32 * online_shape::WARPS)},
               online_no_rescale_kernel<decltype(dpl)::value>, p.Q, p.K, p.V, p.O, p.d, softmax_scale(p.d.dim), rows);
  });
}

void tiled_mask(const problem<float>& p, mask_defect defect) {
  const std::int64_t query_tiles = wb::ceil_div(p.d.seq, tiled_shape::BR);
  with_dims_per_lane(p.d.dim, [&](auto dpl) {
    wb::launch({dim3(grid_of(p.d.batch * p.d.heads * query_tiles, "AT3")), dim3(tiled_shape::THREADS),
                tiled_shape::shared_bytes(p.d.dim)},
               tiled_mask_kernel<decltype(dpl)::value>, p.Q, p.K, p.V, p.O, p.d, softmax_scale(p.d.dim), query_tiles,
               defect);
  });
}

}  // namespace attention::defective
