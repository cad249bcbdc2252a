// Who computes what, stage by stage: each stage's block tile of C and which thread of the
// block owns each element of it, from the stage's own parameters (its shape structs and the
// wgmma accumulator layout). --trace prints it, --svg draws it (trace.cpp), and the checks
// hold it against the kernels' own index arithmetic (tests/test_checks.cpp, tests/test_hopper_layout.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace matmul {

inline constexpr std::int64_t h100_sms = 132;  // the SMs of an H100 SXM: where --trace draws stage 6's choice

struct tiling {
  std::string name;  // "4 fp32-ceiling"
  std::int64_t block_rows = 0;  // the tile of C one block computes (stage 6: one tile of a persistent block)
  std::int64_t block_cols = 0;
  int threads = 0;  // per block
  int k_step = 0;  // K per step of the block's loop (0: the whole dot product at once)
  bool thread_known = true;  // false: a warp's elements spread over its lanes unspecified (WMMA)
  std::string levels;  // the hierarchy in words: "block 128 x 128 -> warp 32 x 64 -> thread 8 x 8"
  std::string loads;  // what a block reads per k step, and who loads what
  int stage = 0;
  int variant = 0;
};

// Stage `stage`'s tiling in variant `variant`; stage 6's default takes its tile by the shape of
// C (M x N), as on an H100 (h100_sms).
tiling tiling_of(int stage, int variant, std::int64_t M = 0, std::int64_t N = 0);
// The thread (0 .. threads - 1) of a block that computes element (r, c) of the block's tile.
int owner_thread(const tiling& t, std::int64_t r, std::int64_t c);
// What --trace prints of t's tiling of C (M x N; K for the steps): each block tile of C, its
// warps' outputs and (per_thread, where threads own known outputs) each thread's. `wrong`
// (empty, or one flag per element of C, row-major, 1 = wrong) marks with "!!" at the start of
// the line (in its indentation) every tile, warp and thread line that holds a wrong output, and
// names the wrong outputs there.
std::string tiling_text(const tiling& t, std::int64_t M, std::int64_t N, std::int64_t K, bool per_thread,
                        const std::vector<char>& wrong = {});

}  // namespace matmul
