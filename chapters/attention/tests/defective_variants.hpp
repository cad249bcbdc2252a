// Deliberately defective variants of the chapter's kernels, each a copy of the solution's
// kernel with one mutation: each test in test_defects.cpp shows its variant failing where the
// stage passes.
//   AT1  stage 1's softmax without the row's max subtracted: exp(s) overflows fp32 past 88.7
//   AT2  stage 2's online softmax without the rescale by exp(m_old - m_new)
//   AT3  stage 3's causal mask one key too far (j <= i + kv_seq - seq + 1), or aligned to the top
//        left (j <= i) instead of the bottom right
//   AT4  stage 4's row max taken per lane, without the shuffles over the quad of lanes that hold
//        the row; and (a race, test_races.cpp) stage 4 without its cp.async waits
#pragma once

#include "attention.hpp"

namespace attention::defective {

// Stage 1 with the unstable softmax (AT1); `scores` as stage 1's.
void three_kernels_unstable(const problem<float>& p, wb::workspace scores);
// Stage 2 without the rescale (AT2).
void online_no_rescale(const problem<float>& p);

enum class mask_defect {
  none,          // the stage's own mask (the control)
  off_by_one,    // one key too many
  top_left,      // query i sees keys j <= i
};
// Stage 3 with the mask `defect` (AT3).
void tiled_mask(const problem<float>& p, mask_defect defect);

enum class tensor_core_defect {
  none,           // the stage's own kernel (the control)
  per_lane_max,   // AT4: each lane's max of its own scores, not the row's
  no_async_wait,  // no cp.async.wait_group before the barrier that publishes a tile
};
// Stage 4 (bf16 K and V) with `defect`.
void tensor_core(const problem<bf16>& p, tensor_core_defect defect);

}  // namespace attention::defective
