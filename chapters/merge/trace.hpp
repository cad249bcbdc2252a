// --trace: the per-thread picture the book draws (PMPP Figs. 12.4-12.8 for the basic kernel,
// Figs. 12.10-12.14 for the tiled one), printed for a tiny input.
#pragma once

#include <cstdint>
#include <vector>

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
template <class K>
void print_trace(const std::vector<K>& A, const std::vector<K>& B, const config& basic, const config& tiled,
                 co_rank_fn<K> co_rank, const char* track);

}  // namespace merge
