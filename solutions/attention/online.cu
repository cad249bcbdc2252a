// Stage 2: one fused kernel with the online softmax (Milakov & Gimelshein 2018, "Online
// normalizer calculation for softmax", Algorithm 3, carried on to the weighted sum of V).
//
// One warp computes one query row, reading each key and value row once, and never writes a
// score: it keeps the running max m, the running sum l of exp(s - m) and the running,
// unnormalised output acc = sum_j exp(s_j - m) v_j. When a new score raises the max from m to
// m', every term summed so far was weighted for the old max: l and acc are multiplied by
// exp(m - m') before the new term is added (AT2). At the end O = acc / l.
//
// Lanes over d: lane l keeps dims l, l + 32, ... of q and acc in registers; a score is the
// warp's sum of the lanes' partial dot products (five shuffles).
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK {

template <int DPL>
__global__ void online_kernel(const float* Q, const float* K, const float* V, float* O, dims d, float scale,
                              std::int64_t rows) {
  const int lane = threadIdx.x % 32;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * online_shape::WARPS + threadIdx.x / 32;
  if (row >= rows) return;  // the whole warp: its shuffles name only its own lanes
  const std::int64_t bh = row / d.seq;
  const std::int64_t i = row % d.seq;
  const float* Kb = K + bh * d.kv_seq * d.dim;
  const float* Vb = V + bh * d.kv_seq * d.dim;

  float q[DPL], acc[DPL];
#pragma unroll
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = lane + 32 * t;
    q[t] = c < d.dim ? Q[row * d.dim + c] * scale : 0.0f;  // scaled once, not every score
    acc[t] = 0.0f;
  }
  float m = -INFINITY;  // the max so far: the first key's exp(m - m') is exp(-inf) = 0
  float l = 0.0f;
  const std::int64_t end = visible_end(d, i);
  for (std::int64_t j = 0; j < end; ++j) {
    const float* k = Kb + j * d.dim;
    const float* v = Vb + j * d.dim;
    float part = 0.0f;
#pragma unroll
    for (int t = 0; t < DPL; ++t) {
      const std::int64_t c = lane + 32 * t;
      if (c < d.dim) part += q[t] * k[c];
    }
    const float s = wb::device::warp_sum(part);
    const float m_new = fmaxf(m, s);
    const float alpha = expf(m - m_new);  // AT2: rescale what was summed for the old max
    const float w = expf(s - m_new);
    l = l * alpha + w;
#pragma unroll
    for (int t = 0; t < DPL; ++t) {
      const std::int64_t c = lane + 32 * t;
      if (c < d.dim) acc[t] = acc[t] * alpha + w * v[c];
    }
    m = m_new;
  }
#pragma unroll
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = lane + 32 * t;
    if (c < d.dim) O[row * d.dim + c] = acc[t] / l;
  }
}

void attention_online(const problem<float>& p) {
  const dims& d = p.d;
  validate(d, "stage 2");
  const std::int64_t rows = query_rows(d);
  if (rows == 0) return;
  const unsigned blocks = grid_of(wb::ceil_div(rows, online_shape::WARPS), "stage 2");
  with_dims_per_lane(d.dim, [&](auto dpl) {
    wb::launch({dim3(blocks), dim3(32 * online_shape::WARPS)}, online_kernel<decltype(dpl)::value>, p.Q, p.K, p.V,
               p.O, d, softmax_scale(d.dim), rows);
  });
}

}  // namespace attention::WB_TRACK
