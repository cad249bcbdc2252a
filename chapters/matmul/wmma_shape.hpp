// Stage 5's tile shapes: block tile, warps, the pipeline depth, and the shared-memory layout.
// Shared by both tracks (the kernel is the learner's; the shape is given), host and device.
//
//   block tile   BM x BN outputs, BK-wide slices of K; STAGES slices in flight (cp.async)
//   warps        WARPS_M x WARPS_N, each a WM x WN tile = FRAGS_M x FRAGS_N fragments of 16 x 16
//   A_S, B_S     one slice per stage: A_S row-major BM x BK, B_S row-major BK x BN, each row
//                padded by 8 bf16 (16 bytes): rows start in different banks, 16-byte chunks
//                stay aligned for cp.async, and fragments (16 rows apart) stay 32-byte aligned
//                as load_matrix_sync requires
//   staging      per warp, a 16 x 16 float tile: an accumulator goes through it to C as bf16
#pragma once

#include <cstddef>

#include "wb/bf16.hpp"

namespace matmul {

template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_>
struct wmma_shape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, STAGES = STAGES_;
  static constexpr int WARPS = WARPS_M * WARPS_N;
  static constexpr int THREADS = 32 * WARPS;
  static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
  static constexpr int FRAGS_M = WM / 16, FRAGS_N = WN / 16;
  static constexpr int LDA_S = BK + 8;  // bf16 per row of A_S
  static constexpr int LDB_S = BN + 8;  // bf16 per row of B_S
  static constexpr int A_SLICE = BM * LDA_S;  // bf16 per stage
  static constexpr int B_SLICE = BK * LDB_S;
  static constexpr int A_CHUNKS = BM * BK / 8;  // 16-byte chunks (8 bf16) per slice
  static constexpr int B_CHUNKS = BK * BN / 8;
  static constexpr int A_CHUNKS_PER_THREAD = A_CHUNKS / THREADS;
  static constexpr int B_CHUNKS_PER_THREAD = B_CHUNKS / THREADS;
  static constexpr std::size_t ALIGN = 128;  // the start of the dynamic shared memory we use
  static constexpr std::size_t PIPELINE_BYTES = sizeof(wb::bf16) * STAGES * (A_SLICE + B_SLICE);
  static constexpr std::size_t STAGING_BYTES = sizeof(float) * WARPS * 16 * 16;
  static constexpr std::size_t SHARED_BYTES = ALIGN + PIPELINE_BYTES + STAGING_BYTES;

  static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0, "whole 16 x 16 x 16 fragments");
  static_assert(A_CHUNKS % THREADS == 0 && B_CHUNKS % THREADS == 0, "every thread copies the same number of chunks");
  static_assert((A_SLICE * 2) % 128 == 0 && (B_SLICE * 2) % 128 == 0, "slices keep the 128-byte alignment");
  static_assert(STAGES >= 2, "a pipeline needs two stages at least");
};

// The stage's tile (the fastest measured) and the one it is measured beside.
using wmma_256x128 = wmma_shape<256, 128, 32, 4, 2, 3>;
using wmma_128x128 = wmma_shape<128, 128, 32, 2, 4, 4>;

}  // namespace matmul
