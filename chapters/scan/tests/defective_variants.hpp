// Deliberately defective scans, one per pitfall of the chapter (S1-S4), each beside the fix
// in the stage it belongs to. int32, one launch; the result comes back to the host.
#pragma once

#include <cstdint>
#include <vector>

namespace scan::defective {

// S1: Kogge-Stone in place, without the barrier between the read and the write (one block
// of in.size() threads, a power of two).
std::vector<std::int32_t> kogge_stone_in_place(const std::vector<std::int32_t>& in);

// S2: Brent-Kung whose up-sweep updates index (t+1)*2s instead of (t+1)*2s - 1 (one block of
// in.size() / 2 threads, in.size() a power of two).
std::vector<std::int32_t> brent_kung_index_off_by_one(const std::vector<std::int32_t>& in);

// S3: the three-phase coarsened scan without the barrier between phase 1 and phase 2 (one
// block of `block` threads, in.size() == block * items).
std::vector<std::int32_t> coarsened_missing_barrier(const std::vector<std::int32_t>& in, int block, int items);

// S4: the domino scan with tile = blockIdx.x. A waiting block gives up after `max_polls`
// polls of its predecessor's flag (the real code would spin for ever) and counts itself in
// *gave_up; the output of a run where a block gave up is wrong.
struct domino_result {
  std::vector<std::int32_t> out;
  unsigned gave_up = 0;  // blocks that would have waited for ever
};
domino_result domino_static_index(const std::vector<std::int32_t>& in, int block, long long max_polls);

}  // namespace scan::defective
