// The decoupled look-back of stage 6 (Merrill & Garland 2016, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back", §4), the piece CUB calls ScanTileState and
// TilePrefixCallbackOp: every tile publishes its aggregate (status partial) as soon as it has
// it and its inclusive prefix (status inclusive) once it knows it; a tile finds its exclusive
// prefix by adding its predecessors' values back to the nearest inclusive one.
//
// The solution is the workbook's shared look-back, which the sort chapter's onesweep uses
// too: read it in common/include/wb/device/decoupled_lookback.cuh (tile_status and
// tile_look_back; the counters further down are the sort chapter's). Your
// exercises/scan/tile_lookback.cuh writes the same status and look-back.
#pragma once

#include "scan.hpp"
#include "warp_scan.cuh"
#include "wb/device/decoupled_lookback.cuh"

namespace scan::WB_TRACK {

using wb::device::tile_inclusive;
using wb::device::tile_invalid;
using wb::device::tile_look_back;
using wb::device::tile_partial;
using wb::device::tile_state;
using wb::device::tile_status;

}  // namespace scan::WB_TRACK
