// --trace: the per-thread picture the book draws (PMPP Figs. 12.4-12.8 for the basic kernel,
// Figs. 12.10-12.14 for the tiled one), printed for a tiny input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wb/svg_pictures.hpp"

#include "config.hpp"

namespace merge {

template <class K>
using co_rank_fn = std::int64_t (*)(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n);

// Prints, with the co-ranks from `co_rank` (the chosen track's co_rank_host):
//   the basic kernel's threads: output range, co-ranks, input slices, and the binary search
//   steps of each co_rank call;
//   the tiled kernel's blocks: output and input ranges, then per tile the shared-memory
//   contents, each thread's share and co-ranks, and how much of A and B the tile consumed.
// basic: threads = grid * block; tiled: grid blocks of `block` threads, tile_size `tile`.
// Returns the co-rank splits it printed, for the picture: each basic-kernel thread's first
// output (k, i) and each tiled-kernel block's.
struct trace_splits {
  std::vector<wb::svg::co_rank_split> threads;  // stage 2: thread t starts at output k, A[i]
  std::vector<wb::svg::co_rank_split> blocks;   // stage 3: block b starts at output k, A[i]
};
template <class K>
trace_splits print_trace(const std::vector<K>& A, const std::vector<K>& B, const config& basic, const config& tiled,
                         co_rank_fn<K> co_rank, const char* track);

// --svg: the largest input the merge-path picture draws (one grid column per element of A, one
// row per element of B).
inline constexpr std::int64_t max_svg_side = 32;

// Writes the merge path of A and B (PMPP Figs. 12.4-12.10, wb::svg::merge_path_svg) with the
// traced splits marked to `file`; a split a wrong co_rank put outside the grid cannot be drawn
// and is named on stdout instead. Integer keys only (the picture's keys are int64): K = float
// throws std::logic_error. Throws std::runtime_error when the file cannot be written.
template <class K>
void write_merge_path_svg(const std::vector<K>& A, const std::vector<K>& B, const trace_splits& splits,
                          const config& basic, const config& tiled, const char* track, const std::string& file);

// --trace [--svg FILE]: checks the input is small enough to trace (and to draw), prints the
// trace of the basic kernel (--block threads, 4 by default, in --grid blocks, 1 by default) and
// of the tiled kernel (--block 2, --tile 4, --grid 2 by default) with the co-ranks of `co_rank`,
// and draws the merge path to `svg` unless it is empty. Bad input is a wb::usage_error.
inline constexpr std::int64_t max_trace = 64;  // elements in A and B together: the trace prints each
template <class K>
void trace_merge(const std::vector<K>& A, const std::vector<K>& B, const config& requested, co_rank_fn<K> co_rank,
                 const char* track, const std::string& svg);

}  // namespace merge
