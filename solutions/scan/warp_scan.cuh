// Warp-level pieces of stage 6: scans and sums across the 32 lanes of a warp with shuffles,
// no shared memory and no barrier (CUB's WarpScan layer). Every lane of the warp calls them.
//
// The solution is the workbook's shared warp scan, which the later chapters use too: read it
// in common/include/wb/device/warp_scan.cuh. Your exercises/scan/warp_scan.cuh writes the
// same three functions.
#pragma once

#include "scan.hpp"
#include "wb/device/warp_scan.cuh"

namespace scan::WB_TRACK {

using wb::device::full_warp;
using wb::device::warp_exclusive_from_inclusive;  // lane l: x_0 + ... + x_{l-1}
using wb::device::warp_inclusive_scan;            // lane l: x_0 + ... + x_l
using wb::device::warp_sum;                       // every lane: the sum of the 32

}  // namespace scan::WB_TRACK
