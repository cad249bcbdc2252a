// Stage 6: decoding, the Flash-Decoding way (Dao, Haziza, Massa, Sizov 2023, "Flash-Decoding
// for long-context inference").
//
// A decoding step has a few new queries per sequence against the whole KV cache: too few to
// fill the GPU. So the keys are split: one warp per (batch, head, split, query) runs stage 2's
// online softmax over its chunk of keys and writes a partial (max m_s, sum l_s, unnormalised
// output o_s); a second kernel combines the splits of each query:
//
//     M = max_s m_s,   L = sum_s l_s exp(m_s - M),   O = sum_s o_s exp(m_s - M) / L.
//
// K and V may be fp32 or bf16; the arithmetic is fp32.
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "vector_load.cuh"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK {

// Warp w handles query w % seq of split (w / seq) % splits of (batch, head) w / (seq splits).
// Lane l keeps dims (l + 32 g) VEC .. + VEC - 1 of a row (g < DPL / VEC), and loads them with
// load_floats<VEC> (vector_load.cuh).
template <class T, int DPL, int VEC>
__global__ void decode_split_kernel(const float* Q, const T* K, const T* V, float* part_ml, float* part_o, dims d,
                                    float scale, std::int64_t chunk, std::int64_t splits, std::int64_t warps) {
  // TODO(attention/6): stage 2's online softmax for one query over the keys of one split
  // (several keys per step, loaded before they are used, so that their loads overlap),
  // [split * chunk, (split + 1) * chunk) cut at what the query sees; then the partial: m and l at
  // part_ml[2 slot], [2 slot + 1], the unnormalised output at part_o[slot * d], with slot =
  // (bh * splits + split) * seq + i. A split the query sees none of writes m = -inf, l = 0, o = 0.
}

// One warp per (batch, head, query): the splits' partials rescaled to the largest max and added.
template <int DPL>
__global__ void decode_combine_kernel(const float* part_ml, const float* part_o, float* O, dims d,
                                      std::int64_t splits, std::int64_t rows) {
  // TODO(attention/6): for row = (bh, i): M, the largest m_s of its splits; L = sum l_s
  // exp(m_s - M); O = sum o_s exp(m_s - M) / L.
}

template <class T>
void decode(const problem<T>& p, wb::workspace partials, const decode_config& cfg) {
  const dims& d = p.d;
  validate(d, "stage 6");
  if (d.seq > max_decode_queries) {
    throw std::invalid_argument("stage 6 decodes at most 16 queries per sequence (seq = " + std::to_string(d.seq) +
                                "): longer ones are prefill, stages 1-3");
  }
  const std::int64_t rows = query_rows(d);
  if (rows == 0) return;
  const decode_plan plan = plan_decode(d, cfg);
  wb::carver carve(partials, "stage 6");
  float* part_ml = carve.take<float>(rows * plan.splits * 2);
  float* part_o = carve.take<float>(rows * plan.splits * d.dim);
  const std::int64_t warps = rows * plan.splits;
  const dim3 block(32 * decode_shape::WARPS);
  const int vec = decode_shape::vector_width(d.dim, p.K, p.V, sizeof(T));
  with_dims_per_lane(d.dim, [&](auto dpl) {
    constexpr int DPL = decltype(dpl)::value;
    const auto split_kernel = [&](auto width) {
      wb::launch({dim3(grid_of(wb::ceil_div(warps, decode_shape::WARPS), "stage 6")), block},
                 decode_split_kernel<T, DPL, decltype(width)::value>, p.Q, p.K, p.V, part_ml, part_o, d,
                 softmax_scale(d.dim), plan.chunk, plan.splits, warps);
    };
    if constexpr (DPL >= 4) {
      if (vec == 4) split_kernel(std::integral_constant<int, 4>{});
    }
    if constexpr (DPL >= 2) {
      if (vec == 2) split_kernel(std::integral_constant<int, 2>{});
    }
    if (vec == 1) split_kernel(std::integral_constant<int, 1>{});
    wb::launch({dim3(grid_of(wb::ceil_div(rows, decode_shape::WARPS), "stage 6")), block}, decode_combine_kernel<DPL>,
               part_ml, part_o, p.O, d, plan.splits, rows);
  });
}

void attention_decode(const problem<float>& p, wb::workspace partials, const decode_config& cfg) {
  decode(p, partials, cfg);
}
void attention_decode(const problem<bf16>& p, wb::workspace partials, const decode_config& cfg) {
  decode(p, partials, cfg);
}

}  // namespace attention::WB_TRACK
