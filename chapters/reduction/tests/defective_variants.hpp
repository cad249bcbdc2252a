// Deliberately defective variants of this chapter's own kernels, one per source defect
// (R1-R5, The CUDA Handbook §12.2; the chapter README's defect table). Each is a small mutation
// of a stage in solutions/reduction/, kept here so that the regression tests can show that
// their check fails on the defect and passes on the fix.
#pragma once

#include <cstdint>
#include <vector>

namespace reduction::defective {

// Each runs both passes of a defective two-pass variant on `data` (int32) with the given
// block size and block count, and returns the sum it wrote.

// R1: the tree loop steps with `active >= 1` (listings 12-1, 12-2), so it never narrows. A
// watchdog stops it after 2 x log2(block) + 2 rounds so that the test ends.
std::int64_t two_pass_r1(const std::vector<std::int32_t>& data, int block, std::int64_t blocks);
// R2: stage 1 without validate(): any block size is launched, the tree drops partials when it
// is not a power of two.
std::int64_t two_pass_r2(const std::vector<std::int32_t>& data, int block, std::int64_t blocks);
// R3: stage 2 with the warp tail as printed in listing 12-2: `volatile`, every lane adds at
// every step, no __syncwarp().
std::int64_t warp_synchronous_r3(const std::vector<std::int32_t>& data, int block, std::int64_t blocks);
// R5: stage 1 with 32-bit partial sums (listing 12-1's `int sum`), wrapping on overflow as
// the hardware's int adds do.
std::int64_t two_pass_r5(const std::vector<std::int32_t>& data, int block, std::int64_t blocks);

// R6: stage 3's host dispatch (listing 12-4) without validate() and without a `default:`:
// a block size that has no case launches nothing and leaves the sum unwritten (this
// returns whatever the poisoned output holds).
std::int64_t unrolled_dispatch_r6(const std::vector<std::int32_t>& data, int block, std::int64_t blocks);

// R4: a warp tail run alone on one block whose `block` partials are 1, 2, ..., block, with
// every access to partials[block] or beyond counted. `sum` is partials[0] afterwards.
struct tail_probe {
  std::int64_t sum = 0;
  unsigned accesses_past_end = 0;
};
// The mutation: the fixed tail without its lane guard (every lane reads partials[lane +
// offset], as printed), so a 32-thread block reads partials[32..47].
tail_probe warp_tail_r4(int block);
// The track's own pieces, probed the same way: warp_tail_sum (stage 2) and
// block_sum_unrolled<block> (stage 3; block 32, 64 or 128).
tail_probe warp_tail_of_track(int block);
tail_probe unrolled_tail_of_track(int block);

// Listing 12-2 as printed (the R3 variant above) on one block, for compute-sanitizer's
// racecheck on a GPU: see the test case "R3 as printed, for racecheck".
std::int64_t warp_synchronous_r3_one_block(const std::vector<std::int32_t>& data, int block);

}  // namespace reduction::defective
