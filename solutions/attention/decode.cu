// Stage 6: decoding, the Flash-Decoding way (Dao, Haziza, Massa, Sizov 2023, "Flash-Decoding
// for long-context inference").
//
// A decoding step has one new query per sequence (here up to 16) against the whole KV cache.
// Stages 2 and 3 parallelise over queries: with b = 1 and h = 16 that is 16 warps or blocks on
// a GPU of 132 multiprocessors. So the keys are split instead: the cache of a (batch, head) is
// cut into `splits` chunks, and one warp per (batch, head, split, query) runs stage 2's online
// softmax over its chunk alone. It writes a partial: its max m_s, its sum l_s of exp(s - m_s)
// and its unnormalised output o_s = sum exp(s - m_s) v. A second kernel combines the splits of
// each query exactly as the online softmax combines tiles:
//
//     M = max_s m_s,   L = sum_s l_s exp(m_s - M),   O = sum_s o_s exp(m_s - M) / L.
//
// The stage reads every K and V element once: it is bound by memory bandwidth, and reported in
// GB/s of K and V read. K and V may be fp32 or bf16 (half the bytes); the arithmetic is fp32.
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "vector_load.cuh"
#include "wb/device/warp_scan.cuh"
#include "wb/kernel.hpp"

namespace attention::WB_TRACK {

// Warp w handles query w % seq of split (w / seq) % splits of (batch, head) w / (seq splits):
// the warps of a block are the queries of one split, which read the same keys (cache hits).
// Lane l keeps dims (l + 32 g) VEC .. + VEC - 1 of a row (g < DPL / VEC), so it loads each row's
// share with DPL / VEC loads of VEC elements (vector_load.cuh): a bf16 row of d = 128 is one
// 8-byte load per lane instead of four 2-byte ones.
template <class T, int DPL, int VEC>
__global__ void decode_split_kernel(const float* Q, const T* K, const T* V, float* part_ml, float* part_o, dims d,
                                    float scale, std::int64_t chunk, std::int64_t splits, std::int64_t warps) {
  constexpr int KEYS = decode_shape::keys_per_step(DPL);
  constexpr int GROUPS = DPL / VEC;
  const int lane = threadIdx.x % 32;
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * decode_shape::WARPS + threadIdx.x / 32;
  if (w >= warps) return;  // the whole warp
  const std::int64_t i = w % d.seq;
  const std::int64_t split = (w / d.seq) % splits;
  const std::int64_t bh = w / (d.seq * splits);
  const std::int64_t begin = split * chunk;
  const std::int64_t visible = visible_end(d, i);
  const std::int64_t end = begin + chunk < visible ? begin + chunk : visible;  // may be <= begin: no keys
  const T* Kb = K + bh * d.kv_seq * d.dim;
  const T* Vb = V + bh * d.kv_seq * d.dim;
  const auto dim_of = [&](int t) { return static_cast<std::int64_t>(lane + 32 * (t / VEC)) * VEC + t % VEC; };

  float q[DPL], acc[DPL];
#pragma unroll
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = dim_of(t);
    q[t] = c < d.dim ? Q[(bh * d.seq + i) * d.dim + c] * scale : 0.0f;
    acc[t] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (std::int64_t j0 = begin; j0 < end; j0 += KEYS) {
    // KEYS rows of K and V loaded before any of them is used: their loads are in flight
    // together, which is what a memory-bound loop needs.
    float k[KEYS][DPL], v[KEYS][DPL];
#pragma unroll
    for (int key = 0; key < KEYS; ++key) {
#pragma unroll
      for (int g = 0; g < GROUPS; ++g) {
        const std::int64_t c = dim_of(g * VEC);  // d is a multiple of VEC: the whole vector is inside or outside
        if (j0 + key < end && c < d.dim) {
          load_floats<VEC>(Kb + (j0 + key) * d.dim + c, &k[key][g * VEC]);
          load_floats<VEC>(Vb + (j0 + key) * d.dim + c, &v[key][g * VEC]);
        } else {
#pragma unroll
          for (int e = 0; e < VEC; ++e) k[key][g * VEC + e] = v[key][g * VEC + e] = 0.0f;
        }
      }
    }
    float s[KEYS];
    float m_new = m;
#pragma unroll
    for (int key = 0; key < KEYS; ++key) {
      float part = 0.0f;
#pragma unroll
      for (int t = 0; t < DPL; ++t) part += q[t] * k[key][t];
      s[key] = wb::device::warp_sum(part);  // the KEYS sums are independent: their shuffles overlap
      if (j0 + key < end) m_new = fmaxf(m_new, s[key]);
    }
    const float alpha = expf(m - m_new);  // one rescale per KEYS keys (AT2)
    l *= alpha;
#pragma unroll
    for (int t = 0; t < DPL; ++t) acc[t] *= alpha;
#pragma unroll
    for (int key = 0; key < KEYS; ++key) {
      if (j0 + key >= end) break;  // only keys the query sees (0 * NaN is NaN)
      const float p = expf(s[key] - m_new);
      l += p;
#pragma unroll
      for (int t = 0; t < DPL; ++t) acc[t] += p * v[key][t];
    }
    m = m_new;
  }
  // A split the query sees none of (causal, near the end of the cache) writes m = -inf, l = 0,
  // o = 0: the combine weighs it exp(-inf) = 0.
  const std::int64_t slot = (bh * splits + split) * d.seq + i;
  if (lane == 0) {
    part_ml[2 * slot] = m;
    part_ml[2 * slot + 1] = l;
  }
#pragma unroll
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = dim_of(t);
    if (c < d.dim) part_o[slot * d.dim + c] = acc[t];
  }
}

// One warp per (batch, head, query): the splits' partials rescaled to the largest max and added.
template <int DPL>
__global__ void decode_combine_kernel(const float* part_ml, const float* part_o, float* O, dims d,
                                      std::int64_t splits, std::int64_t rows) {
  const int lane = threadIdx.x % 32;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * decode_shape::WARPS + threadIdx.x / 32;
  if (row >= rows) return;
  const std::int64_t bh = row / d.seq, i = row % d.seq;
  const std::int64_t first = bh * splits * d.seq + i;  // slot of split s: first + s * seq
  float M = -INFINITY;
  for (std::int64_t s = lane; s < splits; s += 32) M = fmaxf(M, part_ml[2 * (first + s * d.seq)]);
  M = wb::device::warp_reduce(M, [](float a, float b) { return fmaxf(a, b); });
  float L = 0.0f;
  for (std::int64_t s = lane; s < splits; s += 32) {
    const std::int64_t slot = first + s * d.seq;
    L += part_ml[2 * slot + 1] * expf(part_ml[2 * slot] - M);
  }
  L = wb::device::warp_sum(L);
  float acc[DPL] = {};
  for (std::int64_t s = 0; s < splits; ++s) {
    const std::int64_t slot = first + s * d.seq;
    const float f = expf(part_ml[2 * slot] - M);
#pragma unroll
    for (int t = 0; t < DPL; ++t) {
      const std::int64_t c = lane + 32 * t;
      if (c < d.dim) acc[t] += f * part_o[slot * d.dim + c];
    }
  }
#pragma unroll
  for (int t = 0; t < DPL; ++t) {
    const std::int64_t c = lane + 32 * t;
    if (c < d.dim) O[row * d.dim + c] = acc[t] / L;
  }
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
