// Stage 6, thread-level piece: co_rank (stage 1) as a lower-bound binary search.
//
// The same answer as co_rank - the i of the stable split of output rank k - found another
// way: for i in [max(0, k-n), min(k, m)] the test "B[k-1-i] < A[i]" is false up to the answer
// and true from it on, and a plain lower bound finds the first i where it holds in a fixed
// number of steps.
//
// Why stage 6 uses this instead of the book's search: the book's search moves i first to
// min(k, m) and then by halves, with two different tests of up to four dependent loads; it
// ends early when a probe lands on the answer (two steps for evenly interleaved inputs) but
// needs ~log2(k) steps otherwise, and how many depends on the data. A pass whose time is its
// slowest search (the partition pass is one wave of threads) wants the fixed, cheap steps.
//
// The solution is the workbook's shared one, which the sort chapter's merge sort uses too:
// read it in common/include/wb/device/co_rank_lower_bound.cuh.
#pragma once

#include "wb/device/co_rank_lower_bound.cuh"

namespace merge::WB_TRACK {

using wb::device::co_rank_lower_bound;
using wb::device::co_rank_lower_bound_within;  // within a range known to hold the answer (partition.cuh)

}  // namespace merge::WB_TRACK
