// --trace: for a small problem, which block, warp and thread of each selected stage computes
// which outputs of C and which tiles of A and B it loads (tiling.hpp), as text; each stage of
// the chosen track (--track, or both with --compare) runs on the problem, and every tile, warp,
// thread and element of C its result gets wrong is marked "!!" (with a map of C when it is
// small). With --svg, a picture of the first selected stage's tiling: the grid of block tiles
// over C, one block's outputs coloured by warp, one thread's outputs marked.
#pragma once

#include <cstdint>

#include "options.hpp"

namespace matmul {

inline constexpr std::int64_t max_trace_side = 256;  // M and N for --trace (threads listed one by one up to 32 x 32)
inline constexpr std::int64_t max_svg_side = 512;  // M and N for --svg
// The problem --trace takes when --m, --n or --k is not given: a few tiles of stage 2, off
// every tile boundary, K in two phases of 16 (one partial) and three k-slices of 8.
inline constexpr std::int64_t trace_default_m = 20, trace_default_n = 20, trace_default_k = 24;
// C of at most this many rows and columns is also printed as a map of right and wrong elements.
inline constexpr std::int64_t max_trace_map_rows = 64, max_trace_map_cols = 128;

// Refuses (wb::usage_error, before any work) --svg without --trace, a file that cannot be
// written, and problems too large to trace or draw.
void check_trace_options(const options& opt, bool svg_given);
// Prints the trace of every selected stage, runs each on the problem and marks what is wrong;
// writes the picture when --svg. Returns 0, or 1 when a traced track's C is wrong (or it failed).
int trace(const options& opt, const problem_input& in, const stage_selection& selected);

}  // namespace matmul
