// Stage 0: the specification. For every batch, head and query row i:
//
//     s_j = (q_i . k_j) / sqrt(d)            for the keys j the row sees (visible_end)
//     p_j = exp(s_j - max_j s_j)             subtracting the max changes nothing in exact
//                                            arithmetic (it cancels in p / sum p) and keeps
//                                            exp from overflowing (AT1)
//     o_i = sum_j p_j v_j / sum_j p_j
//
// Everything in double, O rounded once to fp32. Masked keys are not visited at all, so a NaN
// in a value row no query sees reaches no output (0 * NaN would be NaN).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attention.hpp"

namespace attention::WB_TRACK {

void attention_sequential(const problem<float>& p) {
  const dims& d = p.d;
  validate(d, "stage 0");
  const double scale = 1.0 / std::sqrt(static_cast<double>(d.dim));
  std::vector<double> s(static_cast<std::size_t>(d.kv_seq));
  std::vector<double> o(static_cast<std::size_t>(d.dim));
  for (std::int64_t bh = 0; bh < d.batch * d.heads; ++bh) {
    const float* K = p.K + bh * d.kv_seq * d.dim;
    const float* V = p.V + bh * d.kv_seq * d.dim;
    for (std::int64_t i = 0; i < d.seq; ++i) {
      const float* q = p.Q + (bh * d.seq + i) * d.dim;
      const std::int64_t end = visible_end(d, i);
      double m = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < end; ++j) {
        double dot = 0;
        for (std::int64_t c = 0; c < d.dim; ++c) dot += static_cast<double>(q[c]) * K[j * d.dim + c];
        s[static_cast<std::size_t>(j)] = dot * scale;
        m = std::max(m, s[static_cast<std::size_t>(j)]);
      }
      double l = 0;
      std::fill(o.begin(), o.end(), 0.0);
      for (std::int64_t j = 0; j < end; ++j) {
        const double w = std::exp(s[static_cast<std::size_t>(j)] - m);
        l += w;
        for (std::int64_t c = 0; c < d.dim; ++c) o[static_cast<std::size_t>(c)] += w * V[j * d.dim + c];
      }
      float* out = p.O + (bh * d.seq + i) * d.dim;
      for (std::int64_t c = 0; c < d.dim; ++c) out[c] = static_cast<float>(o[static_cast<std::size_t>(c)] / l);
    }
  }
}

}  // namespace attention::WB_TRACK
