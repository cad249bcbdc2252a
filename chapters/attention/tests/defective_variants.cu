#include "defective_variants.hpp"

#include <algorithm>
#include <cmath>

#include "launch_shapes.hpp"
#include "wb/device/block_reduce.cuh"
#include "wb/async_copy.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"
#include "wb/mma.hpp"

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

// ---- AT4 and the missing cp.async wait: stage 4's kernel (tensor_core.cu) -----------------------
using tc = tensor_core_shape;
namespace mma = wb::mma;

template <int D>
__device__ __forceinline__ void tc_start_tile_copy(bf16* Ks, bf16* Vs, const bf16* Kb, const bf16* Vb, std::int64_t j0,
                                                   std::int64_t kv_seq) {
  constexpr int CHUNKS_PER_ROW = D / 8, LD = tc::ld(D);
  for (int c = threadIdx.x; c < tc::BC * CHUNKS_PER_ROW; c += tc::THREADS) {
    const int r = c / CHUNKS_PER_ROW, col = 8 * (c % CHUNKS_PER_ROW);
    const bool inside = j0 + r < kv_seq;
    const std::int64_t from = inside ? (j0 + r) * D + col : 0;
    wb::cp_async_16(Ks + r * LD + col, Kb + from, inside ? 16 : 0);
    wb::cp_async_16(Vs + r * LD + col, Vb + from, inside ? 16 : 0);
  }
  wb::cp_async_commit();
}

template <int D, tensor_core_defect DEFECT>
__global__ void tensor_core_defect_kernel(const float* Q, const bf16* K, const bf16* V, float* O, dims d, float scale,
                                          std::int64_t query_tiles) {
  constexpr int BC = tc::BC, LD = tc::ld(D), KEY_TILES = BC / 8, OUT_TILES = D / 8;
  bf16* stage_base = wb::dynamic_shared<bf16>();
  const std::int64_t bh = blockIdx.x / query_tiles;
  const std::int64_t i0 = (blockIdx.x % query_tiles) * tc::BR;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int t = mma::thread_in_group(lane);
  const std::int64_t iw = i0 + tc::ROWS_PER_WARP * warp;
  const bf16* Kb = K + bh * d.kv_seq * D;
  const bf16* Vb = V + bh * d.kv_seq * D;
  const float* Qw = Q + (bh * d.seq + iw) * D;
  mma::frag_a q[D / 16];
  for (int kk = 0; kk < D / 16; ++kk) {
    for (int r = 0; r < 4; ++r) {
      const int row = mma::a_row(lane, 2 * r), col = 16 * kk + mma::a_col(lane, 2 * r);
      const bool inside = row < d.seq - iw;
      q[kk].x[r] = mma::pack_bf16x2(inside ? Qw[row * D + col] : 0.0f, inside ? Qw[row * D + col + 1] : 0.0f);
    }
  }
  float m[2], l[2];
  std::int64_t end[2];
  for (int r = 0; r < 2; ++r) {
    const std::int64_t i = iw + mma::c_row(lane, 2 * r);
    end[r] = std::min(visible_end(d, i < d.seq ? i : d.seq - 1), d.kv_seq);
    m[r] = -INFINITY;
    l[r] = 0.0f;
  }
  mma::frag_c o[OUT_TILES];
  for (int ot = 0; ot < OUT_TILES; ++ot) o[ot] = mma::zero_c();
  const std::int64_t last = std::min(i0 + tc::BR, d.seq) - 1;
  const std::int64_t block_end = std::min(visible_end(d, last), d.kv_seq);
  const std::int64_t whole_end = std::min(visible_end(d, i0), d.kv_seq);
  const std::int64_t tiles = (block_end + BC - 1) / BC;

  tc_start_tile_copy<D>(stage_base, stage_base + BC * LD, Kb, Vb, 0, d.kv_seq);
  for (std::int64_t tile = 0; tile < tiles; ++tile) {
    const std::int64_t j0 = tile * BC;
    const bf16* Ks = stage_base + (tile & 1) * 2 * BC * LD;
    const bf16* Vs = Ks + BC * LD;
    if (tile + 1 < tiles) {
      bf16* next = stage_base + ((tile + 1) & 1) * 2 * BC * LD;
      tc_start_tile_copy<D>(next, next + BC * LD, Kb, Vb, j0 + BC, d.kv_seq);
      if constexpr (DEFECT != tensor_core_defect::no_async_wait) wb::cp_async_wait<1>();
    } else {
      if constexpr (DEFECT != tensor_core_defect::no_async_wait) wb::cp_async_wait<0>();
    }
    __syncthreads();
    mma::frag_c s[KEY_TILES];
    for (int nt = 0; nt < KEY_TILES; ++nt) s[nt] = mma::zero_c();
    for (int kk = 0; kk < D / 16; ++kk) {
      for (int nt = 0; nt < KEY_TILES; ++nt) {
        mma::frag_b b;
        mma::load_b_ldmatrix(b, Ks + 8 * nt * LD + 16 * kk, LD);
        mma::mma_m16n8k16_bf16(s[nt], q[kk], b, s[nt]);
      }
    }
    const bool masked = j0 + BC > whole_end;
    for (int nt = 0; nt < KEY_TILES; ++nt) {
      for (int e = 0; e < 4; ++e) {
        s[nt].x[e] *= scale;
        if (masked && j0 + 8 * nt + 2 * t + (e & 1) >= end[e >> 1]) s[nt].x[e] = -INFINITY;
      }
    }
    for (int r = 0; r < 2; ++r) {
      float tile_max = -INFINITY;
      for (int nt = 0; nt < KEY_TILES; ++nt) tile_max = fmaxf(tile_max, fmaxf(s[nt].x[2 * r], s[nt].x[2 * r + 1]));
      if constexpr (DEFECT != tensor_core_defect::per_lane_max) {
        tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));
        tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
      }  // AT4: without them each lane rescales and exponentiates with its own max
      const float m_new = fmaxf(m[r], tile_max);
      const float base = m_new == -INFINITY ? 0.0f : m_new;
      const float alpha = expf(m[r] - base);
      float sum = 0.0f;
      for (int nt = 0; nt < KEY_TILES; ++nt) {
        for (int h = 0; h < 2; ++h) {
          const float p = expf(s[nt].x[2 * r + h] - base);
          s[nt].x[2 * r + h] = p;
          sum += p;
        }
      }
      l[r] = l[r] * alpha + sum;
      for (int ot = 0; ot < OUT_TILES; ++ot) {
        o[ot].x[2 * r] *= alpha;
        o[ot].x[2 * r + 1] *= alpha;
      }
      m[r] = m_new;
    }
    for (int kc = 0; kc < BC / 16; ++kc) {
      const mma::frag_a p = mma::a_from_accumulators(s[2 * kc], s[2 * kc + 1]);
      for (int ot = 0; ot < OUT_TILES; ++ot) {
        mma::frag_b b;
        mma::load_b_from_rows_ldmatrix(b, Vs + 16 * kc * LD + 8 * ot, LD);
        mma::mma_m16n8k16_bf16(o[ot], p, b, o[ot]);
      }
    }
    __syncthreads();
  }
  for (int r = 0; r < 2; ++r) {
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    const std::int64_t i = iw + mma::c_row(lane, 2 * r);
    if (i >= d.seq) continue;
    float* out = O + (bh * d.seq + i) * D;
    for (int ot = 0; ot < OUT_TILES; ++ot) {
      out[8 * ot + 2 * t] = o[ot].x[2 * r] / l[r];
      out[8 * ot + 2 * t + 1] = o[ot].x[2 * r + 1] / l[r];
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

void tensor_core(const problem<bf16>& p, tensor_core_defect defect) {
  validate_tensor_core(p);
  if (query_rows(p.d) == 0) return;
  const std::int64_t query_tiles = wb::ceil_div(p.d.seq, tc::BR);
  const dim3 grid(grid_of(p.d.batch * p.d.heads * query_tiles, "AT4"));
  with_tensor_core_dim(p.d.dim, [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    const wb::launch_config config{grid, dim3(tc::THREADS), tc::shared_bytes(D)};
    const float scale = softmax_scale(p.d.dim);
    switch (defect) {
      case tensor_core_defect::none:
        wb::launch(config, tensor_core_defect_kernel<D, tensor_core_defect::none>, p.Q, p.K, p.V, p.O, p.d, scale,
                   query_tiles);
        break;
      case tensor_core_defect::per_lane_max:
        wb::launch(config, tensor_core_defect_kernel<D, tensor_core_defect::per_lane_max>, p.Q, p.K, p.V, p.O, p.d,
                   scale, query_tiles);
        break;
      case tensor_core_defect::no_async_wait:
        wb::launch(config, tensor_core_defect_kernel<D, tensor_core_defect::no_async_wait>, p.Q, p.K, p.V, p.O, p.d,
                   scale, query_tiles);
        break;
    }
  });
}

}  // namespace attention::defective
