// --trace: for a small problem, which block and warp of stages 2, 3 and 6 owns which queries,
// which K/V tiles (or splits) each streams, whether a tile is whole, masked or skipped, and the
// online softmax's running max m and sum l step by step (computed on the host in the stage's
// own order, fp32), then each stage's O on the device checked against the reference (a wrong
// one marked "!!"). With --svg FILE, the same data as a picture: (a) stage 3's tiling of the
// first (batch, head), a row of K/V tiles per block (whole, masked or skipped, the warps' rows),
// (b) query 0's running max and sum key by key (stage 2), with stage 3's steps, one per tile.
#pragma once

#include <cstdint>

#include "options.hpp"

namespace attention {

inline constexpr std::int64_t max_trace_seq = 128;   // seq and kv_seq for --trace
inline constexpr std::int64_t max_trace_heads = 2;   // batch * heads for --trace

// Refuses (wb::usage_error, before any work) a problem too large to trace.
void check_trace_size(const dims& d);
// Prints the trace (and writes --svg's picture); returns 0, or 1 when a stage's O is wrong.
int trace(const options& opt, const problem_input& in);

}  // namespace attention
