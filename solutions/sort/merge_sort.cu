// Stage 6: merge sort (PMPP §13.7): each block sorts a tile, then merge passes double the
// sorted runs until one run holds every key.
//
//   level 0   block_sort_kernel: a tile of SORT_BLOCK * ITEMS keys per block. Each thread
//             sorts its ITEMS keys in registers (odd-even transposition: stable), then the
//             block merges runs of ITEMS, 2 ITEMS, ... in shared memory with the merge
//             chapter's pieces (co_rank_lower_bound, thread_merge): one read and one write of
//             every key in global memory, the rest on chip.
//   level l   one merge pass over runs of width = tile << (l-1): a partition kernel co-ranks
//             every output tile within its pair of runs (merge path, PMPP §12.3 and the merge
//             chapter's stage 6), then one block per output tile merges it through shared
//             memory (wb::device::merge_tile, the merge chapter's stage 6). Every pair of runs
//             of the level is merged in the same two launches (a segmented merge): run widths
//             are multiples of the output tile, so no tile straddles two pairs.
//
// Keys travel as key_bits patterns (unsigned order = the chapter's order, floats included):
// level 0 converts them on load, the last level converts them back on store. Values follow
// their keys; ties keep the left run first at every level, so the sort is stable.
//
//   tile_sort.cuh         level 0: thread_sort, block_sort_kernel
//   merge_pass.cuh        levels 1, 2, ...: merge_partition_kernel, merge_pass_kernel
//   merge_sort_host.inl   the launches (shared by both tracks)
#include "tile_sort.cuh"
#include "merge_pass.cuh"

#include "merge_sort_host.inl"  // the host side of stage 6, shared by both tracks
