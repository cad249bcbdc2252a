// Stage 4's tile shapes: the block tile, the warp tile, the thread tile, and how the A tile is
// laid out in shared memory. Shared by both tracks (the kernel is the learner's; the shape is
// given), host and device.
//
//   block tile   BM x BN outputs, one BK-wide slice of K at a time
//   warp tile    WM x WN = (4 TM) x (8 TN): a warp's 32 lanes as 4 rows x 8 columns of lanes
//   thread tile  TM x TN outputs, as (TM/4) x (TN/4) sub-tiles of 4 x 4: a lane's sub-tiles sit
//                16 rows and 32 columns apart, so that at each k it reads its A values and its
//                B values as float4s, and the 8 lanes of a quarter-warp (which share one
//                shared-memory access for 16-byte loads) read one float4 of A (a broadcast)
//                and 8 neighbouring float4s of B (128 bytes, every bank once)
//   A in shared memory: transposed (A_S[k][m]), so a thread's TM values at one k are
//                neighbours; the layout of a row is what the variants compare (below)
#pragma once

namespace matmul {

enum class a_layout {
  swizzled,  // float4 m/4 of row k stored at (m/4) ^ swizzle(k): conflict-free transposed stores
  padded,  // rows BM + 4 floats long: the same, for 4 floats of padding per row
  plain,  // rows BM floats long: the transposed stores of two lanes hit one bank
};

// MIN_BLOCKS: blocks per SM the compiler must leave room for (__launch_bounds__): 2 caps a
// thread at 128 registers, so that two blocks of 256 threads share an SM; 1 leaves it 255.
template <int BM_, int BN_, int BK_, int TM_, int TN_, a_layout LAYOUT_, bool DOUBLE_BUFFER_, int MIN_BLOCKS_ = 2>
struct fp32_shape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr a_layout LAYOUT = LAYOUT_;
  static constexpr bool DOUBLE_BUFFER = DOUBLE_BUFFER_;
  static constexpr int LANES_M = 4, LANES_N = 8;  // a warp's lanes: lane = lane_m * 8 + lane_n
  static constexpr int WM = LANES_M * TM, WN = LANES_N * TN;  // warp tile
  static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
  static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
  static constexpr int SUB_M = LANES_M * 4;  // 16: rows between a lane's 4 x 4 sub-tiles
  static constexpr int SUB_N = LANES_N * 4;  // 32: columns between them
  static constexpr int LDA = BM + (LAYOUT == a_layout::padded ? 4 : 0);  // floats per row of A_S
  static constexpr int A_VECTORS = BM * BK / 4;  // float4s of one A slice, one B slice
  static constexpr int B_VECTORS = BK * BN / 4;
  static constexpr int A_LOADS = A_VECTORS / THREADS;  // per thread
  static constexpr int B_LOADS = B_VECTORS / THREADS;
  static constexpr int BUFFERS = DOUBLE_BUFFER ? 2 : 1;

  static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0, "4 x 4 sub-tiles, float4 slices of K");
  static_assert(BM % WM == 0 && BN % WN == 0, "whole warp tiles");
  static_assert(A_VECTORS % THREADS == 0 && B_VECTORS % THREADS == 0, "every thread loads the same number of float4s");
  static_assert((BM / 4) % 8 == 0, "the swizzle permutes float4s within groups of 8");
  static_assert(BK == 8 || BK == 16, "the swizzle is worked out for 2 or 4 float4s per row of the A slice");
};

// The stage's tile (the fastest measured: 8 x 16 outputs a thread, 128 FMAs per 6 shared loads
// per k, 237 registers, one block per SM) and the 128 x 128 one it is measured beside (8 x 8 a
// thread, two blocks per SM within 128 registers).
using fp32_128x256 = fp32_shape<128, 256, 8, 8, 16, a_layout::swizzled, true, 1>;
using fp32_128x128 = fp32_shape<128, 128, 8, 8, 8, a_layout::swizzled, true>;

}  // namespace matmul
