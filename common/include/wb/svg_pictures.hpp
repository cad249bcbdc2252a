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
  std::vector<co_rank_split> out_of_range;   // splits a wrong co_rank put outside the grid
  std::string caption;                       // e.g. "merge/2 basic: 4 threads, 2 blocks"
};

// The merge path of PMPP §12.3-12.4 (Figs. 12.4-12.8): a grid with A along the columns and B
// along the rows; the path from the top-left corner takes one step right for each element of A
// and one step down for each element of B, in the order the stable merge (ties to A) outputs
// them, m + n steps in all; output rank k lies on the k-th anti-diagonal i + j = k. Each split
// (k, i) is drawn at grid point (i, k - i): a circle per thread, a square per block; a split
// that is not on the path (a wrong co_rank) is drawn red with class "off-path".
// Splits in out_of_range (outside the grid: a wrong co_rank) are drawn as red crosses (class
// "out-of-range", data-k, data-i) where their anti-diagonal i + j = k meets the edge of the grid.
// Machine-readable for tests: <polyline class="merge-path" data-steps="m+n">, and each mark has
// class "thread-split" or "block-split" with data-k, data-i, data-j.
// Throws std::invalid_argument when A or B is not sorted or a thread or block split is outside
// the grid (k < 0, k > m + n, i < 0, i > m, k - i < 0 or k - i > n), or an out_of_range split's
// k is outside [0, m + n].
std::string merge_path_svg(const merge_path_input& input);

// Values in the pictures below: integers add with wraparound (as the GPU's integer adds do),
// floating point in the type's own precision, in the order the kernels add them. Each drawn
// value is a <text class="value"> with data-row (the row's label, as the chapters' --trace
// prints it), data-col (the thread or index) and data-value (the number in full); pictures
// are meant for tiny inputs (every thread is drawn).

// One block's log-step tree (CUDA Handbook §12.2, listings 12-1 and 12-2). Thread t first adds
// items t, t + block, t + 2 block, ... (the grid-stride loop of a one-block grid), one row of
// items per sweep; row "load" holds each thread's partial; then for offset = block/2, ..., 1,
// row "offset <s>": each thread t < s adds partials[t + s] onto partials[t], drawn as a line
// (class "add", data-step, data-thread, data-from) from the partial it reads to the one it
// writes. Steps whose offset is at most warp_tail_offset (32: listing 12-2's tail) are marked
// as run by warp 0 alone with __syncwarp() (a line of class "warp-tail", data-offset).
// S is the sum type (int64_t for int32 input). Throws std::invalid_argument unless block is a
// power of two from 1 to 1024.
template <class S>
struct reduction_tree_input {
  std::vector<S> items;
  int block = 32;
  int warp_tail_offset = 32;  // 0: no warp-synchronous tail drawn
  std::string caption;
};
template <class S>
std::string reduction_tree_svg(const reduction_tree_input<S>& input);

// The two scans of PMPP §11.2 and §11.4, one thread per item, inclusive.
// Kogge-Stone: rows "load", then "stride <s>" for s = 1, 2, 4, ... < n: every i >= s adds
// the value at i - s from the row above (class "read", data-stride, data-to, data-from).
// Brent-Kung: the items padded with zeros to a power of two; rows "load", "up-sweep stride
// <s>" (index (t+1)*2s - 1 adds the one s below it) and "down-sweep stride <s>" (index
// (t+1)*2s - 1 + s adds the one s below it), each drawn with class "read" as well. Values a
// step changed have class "value changed". T: int32_t, int64_t or float.
enum class scan_picture { kogge_stone, brent_kung, both };
template <class T>
struct scan_steps_input {
  std::vector<T> items;
  std::string caption;
};
template <class T>
std::string scan_steps_svg(const scan_steps_input<T>& input, scan_picture which = scan_picture::both);

}  // namespace wb::svg
