// --trace: for a small problem, which block, warp and thread of each selected stage computes
// which outputs of C and which tiles of A and B it loads (tiling.hpp), as text; with --svg,
// a picture of the first selected stage's tiling: the grid of block tiles over C, one block's
// outputs coloured by warp, one thread's outputs marked.
#pragma once

#include <cstdint>

#include "options.hpp"

namespace matmul {

inline constexpr std::int64_t max_trace_side = 256;  // M and N for --trace (threads listed one by one up to 32 x 32)
inline constexpr std::int64_t max_svg_side = 512;  // M and N for --svg

// Refuses (wb::usage_error, before any work) --svg without --trace, a file that cannot be
// written, and problems too large to trace or draw.
void check_trace_options(const options& opt, bool svg_given);
// Prints the trace of every selected stage; writes the picture when --svg. Returns 0.
int trace(const options& opt, const problem_input& in, const stage_selection& selected);

}  // namespace matmul
