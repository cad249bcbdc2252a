// Stage 6's tile shapes and shared-memory plan, and which tile the stage takes for a problem.
// Shared by both tracks (the kernel is the learner's; the shape is given), host and device.
//
//   block tile   BM x BN outputs (BM 64 or 128, BN 64, 128 or 256), BK = 64 (one 128-byte row of
//                bf16) per k-block
//   ring         STAGES k-blocks of A (BM x 64) and B (64 x BN) in shared memory, each stage
//                with a `full` barrier (the TMA's bytes have landed) and an `empty` one (the
//                consumers are done with it)
//   A in shared  BM rows of 128 bytes, 128-byte swizzle (what the TMA writes and wgmma reads)
//   B in shared  BN / 64 boxes of 64 rows (k) x 128 bytes (64 columns), 8192 bytes apart
//   specialized  1 producer warpgroup (one thread issues the TMA copies) + BM / 64 consumer
//                warpgroups, each multiplying 64 rows of the tile by all BN columns;
//                persistent: one block per SM walks the tiles in grouped order
//   simple       one warpgroup does everything, one block per tile: the pieces without the
//                specialisation, to compare with (and to fall back on)
#pragma once

#include <cstddef>
#include <cstdint>

namespace matmul {

template <int BM_, int BN_, int STAGES_, int GROUP_, bool SPECIALIZED_>
struct hopper_shape {
  static constexpr int BM = BM_, BN = BN_, BK = 64, STAGES = STAGES_, GROUP = GROUP_;
  static constexpr bool SPECIALIZED = SPECIALIZED_;
  static constexpr int M_BLOCKS = BM / 64;  // 64-row wgmma blocks per tile
  static constexpr int CONSUMERS = SPECIALIZED ? M_BLOCKS : 1;
  static constexpr int THREADS = SPECIALIZED ? 128 * (1 + CONSUMERS) : 128;
  static constexpr int B_BOXES = BN / 64;
  static constexpr int A_TILE_BYTES = BM * BK * 2;
  static constexpr int B_BOX_BYTES = 64 * BK * 2;  // 8192
  static constexpr int B_TILE_BYTES = BK * BN * 2;
  static constexpr int STAGE_BYTES = A_TILE_BYTES + B_TILE_BYTES;  // what one full barrier waits for
  static constexpr std::size_t ALIGN = 1024;  // the 128-byte swizzle repeats every 1024 bytes
  static constexpr std::size_t SHARED_BYTES = ALIGN + std::size_t{STAGES} * STAGE_BYTES + 2 * 8 * STAGES;
  // setmaxnreg, with two consumer warpgroups: 168 registers per thread at launch (3 warpgroups,
  // 1 block per SM); the producer gives 128 of them back, each consumer thread takes 64:
  // 40 + 2 x 232 = 3 x 168. With one consumer (256 threads) every thread has enough already.
  static constexpr bool MOVES_REGISTERS = SPECIALIZED && CONSUMERS == 2;
  static constexpr int PRODUCER_REGISTERS = 40;
  static constexpr int CONSUMER_REGISTERS = 232;

  static_assert(BM == 64 || BM == 128, "one or two 64-row wgmma blocks per tile");
  static_assert(BN == 64 || BN == 128 || BN == 256, "wgmma m64nNk16 with N = 64, 128 or 256");
  static_assert(SHARED_BYTES <= 227 * 1024, "an H100 block has at most 227 KiB of shared memory");
};

// The specialized kernel's tiles, largest first: the stage takes the largest whose tiles give
// every SM about one (fewer tiles than SMs leave SMs idle; a small problem has too few large
// tiles, a skinny one, M = 16 or 128, too few rows of them). Each ring holds about 192 KiB:
// the smaller the stage, the more stages.
using hopper_128x256 = hopper_shape<128, 256, 4, 8, true>;
using hopper_128x128 = hopper_shape<128, 128, 6, 8, true>;
using hopper_64x128 = hopper_shape<64, 128, 8, 8, true>;
using hopper_64x64 = hopper_shape<64, 64, 8, 8, true>;
using hopper_simple = hopper_shape<128, 128, 3, 1, false>;

enum class hopper_tile { t128x256, t128x128, t64x128, t64x64 };

constexpr const char* tile_name(hopper_tile tile) {
  switch (tile) {
    case hopper_tile::t128x256:
      return "128x256";
    case hopper_tile::t128x128:
      return "128x128";
    case hopper_tile::t64x128:
      return "64x128";
    default:
      return "64x64";
  }
}

// Tiles of bm x bn over an M x N product.
constexpr std::int64_t hopper_tiles(std::int64_t M, std::int64_t N, std::int64_t bm, std::int64_t bn) {
  return ((M + bm - 1) / bm) * ((N + bn - 1) / bn);
}

// The tile the stage takes for an M x N product on a GPU of `sms` SMs: the largest of which there
// are at least 9/10 as many as SMs (one wave that leaves at most a tenth of the SMs idle, or more
// waves), else the smallest.
constexpr hopper_tile hopper_tile_for(std::int64_t M, std::int64_t N, std::int64_t sms) {
  const auto enough = [&](std::int64_t bm, std::int64_t bn) { return 10 * hopper_tiles(M, N, bm, bn) >= 9 * sms; };
  if (enough(128, 256)) return hopper_tile::t128x256;
  if (enough(128, 128)) return hopper_tile::t128x128;
  if (enough(64, 128)) return hopper_tile::t64x128;
  return hopper_tile::t64x64;
}

}  // namespace matmul
