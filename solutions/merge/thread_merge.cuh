// Stage 6, thread-level piece: a register-blocked sequential merge.
//
// merge_sequential (stage 0) with the output count fixed at compile time: the loop is fully
// unrolled, so the ITEMS outputs (and, for a key-value merge, where each came from) live in
// registers instead of being written one by one to global memory.
//
// The solution is the workbook's shared one, which the sort chapter's merge sort uses too:
// read it in common/include/wb/device/thread_merge.cuh.
#pragma once

#include "wb/device/thread_merge.cuh"

namespace merge::WB_TRACK {

using wb::device::thread_merge;

}  // namespace merge::WB_TRACK
