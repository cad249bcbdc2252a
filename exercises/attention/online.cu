// Stage 2: one fused kernel with the online softmax (Milakov & Gimelshein 2018, "Online
// normalizer calculation for softmax", Algorithm 3, carried on to the weighted sum of V).
//
// One warp computes one query row, reading each key and value row once, and never writes a
// score: it keeps the running max m, the running sum l of exp(s - m) and the running,
// unnormalised output acc. At the end O = acc / l.
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
  // TODO(attention/2): warp `blockIdx.x * online_shape::WARPS + threadIdx.x / 32` computes that
  // row of O (lane l keeps dims l, l + 32, ... of q and of acc: DPL registers). For each key the
  // row sees: the score (the warp's sum of the lanes' partial dot products, wb::device::warp_sum),
  // the new max, the old terms rescaled by exp(m_old - m_new) (AT2), the new term added.
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
