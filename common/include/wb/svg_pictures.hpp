// Pictures of the chapters' ideas, drawn with wb/svg.hpp from the learner's own input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb::svg {

// One co-rank split: output rank k and the i = co_rank(k) that was computed for it
// (j = k - i elements of B come before output k).
struct co_rank_split {
  std::int64_t k;
  std::int64_t i;
};

struct merge_path_input {
  std::vector<std::int64_t> A;             // sorted
  std::vector<std::int64_t> B;             // sorted
  std::vector<co_rank_split> thread_splits;  // each thread's first output (PMPP Fig. 12.9)
  std::vector<co_rank_split> block_splits;   // each block's first output (Fig. 12.10)
  std::string caption;                       // e.g. "merge/2 basic: 4 threads, 2 blocks"
};

// The merge path of PMPP §12.3-12.4 (Figs. 12.4-12.8): a grid with A along the columns and B
// along the rows; the path from the top-left corner takes one step right for each element of A
// and one step down for each element of B, in the order the stable merge (ties to A) outputs
// them, m + n steps in all; output rank k lies on the k-th anti-diagonal i + j = k. Each split
// (k, i) is drawn at grid point (i, k - i): a circle per thread, a square per block; a split
// that is not on the path (a wrong co_rank) is drawn red with class "off-path".
// Machine-readable for tests: <polyline class="merge-path" data-steps="m+n">, and each mark has
// class "thread-split" or "block-split" with data-k, data-i, data-j.
// Throws std::invalid_argument when A or B is not sorted or a split is outside the grid
// (k < 0, k > m + n, i < 0, i > m, k - i < 0 or k - i > n).
std::string merge_path_svg(const merge_path_input& input);

}  // namespace wb::svg
