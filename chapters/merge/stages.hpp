// The merge chapter's stages: test suite id, title, book section, hint.
// Used by the tests (progress report), the executable (--stage, report rows) and the README.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace merge {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0, "merge/0 sequential", "sequential merge: the specification",
     "PMPP §12.2, Fig. 12.2",
     "sequential.cuh",
     {"Walk i over A and j over B; take A[i] when A[i] <= B[j] (ties: A first, that is what "
       "makes the merge stable); after the loop copy whichever tail is left (M1).",
      "", ""}},
    {1, "merge/1 co-rank", "co_rank: binary search for the split",
     "PMPP §12.3-12.4, Figs. 12.4-12.8",
     "co_rank.cuh",
     {"Keep i + j == k. If A[i-1] > B[j], i is too big; if B[j-1] >= A[i] (>=: ties go to A, "
       "M3), j is too big; move by half the distance to i_low or j_low; return only when neither "
       "test fires (M2).",
      "", ""}},
    {2, "merge/2 basic", "basic kernel: one output slice per thread",
     "PMPP §12.5, Fig. 12.9",
     "basic.cu output_ranges.cuh",
     {"part_begin(p): ceil(total / parts) computed in 64-bit integers (M4, M12), clamped to "
       "total. Each thread co-ranks k_curr and k_next and merge_sequential()s the two input "
       "slices into C + k_curr.",
      "", ""}},
    {3, "merge/3 tiled", "tiled kernel: coalesced tiles in shared memory",
     "PMPP §12.6, Figs. 12.10-12.14",
     "tiled.cu",
     {"Block co-ranks in their own __shared__ int64 (M8). Per tile: load min(tile_size, left) of "
       "A and B, __syncthreads, co-rank over the FILLED lengths (M6), merge, A_consumed += "
       "co-rank of the tile's outputs, B_consumed = C_completed - A_consumed (M7), __syncthreads "
       "before the next load (M7).",
      "", ""}},
    {4, "merge/4 circular", "circular-buffer kernel: load each input once",
     "PMPP §12.7, Figs. 12.15-12.21",
     "circular.cu circular_buffer.cuh",
     {"Track A_loaded beside A_consumed (M9): the buffer holds A_loaded - A_consumed elements "
       "from A_S_start; load min(tile_size - kept, A_length - A_loaded) new ones after them, from "
       "A_curr + A_loaded. Read every slot through circular_slot (M10).",
      "", ""}},
    {5, "merge/5 coarsened", "thread coarsening: exact tiles, items per thread as the knob",
     "PMPP §12.8",
     "coarsened.cu",
     {"One tile of blockDim.x * items_per_thread outputs per block: co-rank both ends in global "
       "memory, load exactly A[A_curr, A_next) and B[B_curr, B_next) into shared memory, then "
       "each thread co-ranks and merges its items_per_thread outputs.",
      "", ""}},
    {6, "merge/6 at-bandwidth", "at bandwidth: partition pass + register-blocked tiles",
     "after the book: merge path",
     "at_bandwidth.cu partition.cuh co_rank_lower_bound.cuh block_merge.cuh thread_merge.cuh",
     {"Partition pass: partitions[t] = co_rank(t * tile). Tile kernel: load the A and B parts "
       "striped into shared memory, co-rank each thread's first output, merge ITEMS outputs in "
       "registers, store them blocked -> striped through shared memory.",
      "", ""}},
}};

}  // namespace merge
