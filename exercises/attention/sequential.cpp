// Stage 0: the specification. For every batch, head and query row i:
//
//     s_j = (q_i . k_j) / sqrt(d)            for the keys j the row sees (visible_end)
//     p_j = exp(s_j - max_j s_j)
//     o_i = sum_j p_j v_j / sum_j p_j
//
// Everything in double, O rounded once to fp32.
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
  // TODO(attention/0): the definition of attention, row by row, in double: the scores of the
  // keys the row sees (visible_end: the causal mask is aligned to the bottom right), their
  // softmax with the row's max subtracted first, and the weighted sum of the value rows.
}

}  // namespace attention::WB_TRACK
