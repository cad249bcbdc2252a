// Stage 6's tile shapes and shared-memory plan. Shared by both tracks (the kernel is the
// learner's; the shape is given), host and device.
//
//   block tile   BM x BN outputs, BK = 64 (one 128-byte row of bf16) per k-block
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
  // setmaxnreg: 168 registers per thread at launch (3 warpgroups, 1 block per SM); the
  // producer gives 128 of them back, each consumer thread takes 64: 40 + 2 x 232 = 3 x 168.
  static constexpr int PRODUCER_REGISTERS = 40;
  static constexpr int CONSUMER_REGISTERS = 232;

  static_assert(BM % 64 == 0 && BN % 64 == 0 && BN <= 256, "64-row wgmma blocks, 64-column boxes, N <= 256");
  static_assert(!SPECIALIZED || CONSUMERS == 2, "the register split above is for 2 consumer warpgroups");
  static_assert(SHARED_BYTES <= 227 * 1024, "an H100 block has at most 227 KiB of shared memory");
};

}  // namespace matmul
