// Stage 4, block level: moving one BK-wide slice of A and of B from global memory into
// shared memory, 16 bytes at a time, with A transposed on the way.
//
// Global -> registers (load_slices): each thread loads A_LOADS float4s of A (4 neighbours in a
// row, along K) and B_LOADS float4s of B (4 neighbours along N); at the edges of the matrices,
// or when their rows are no multiple of 4 floats, element by element, 0 outside (MM1).
// Registers -> shared (store_slices): B as it came; A transposed, A_S[k][m], placed by
// A_S_index so that the transposed stores do not collide in one bank (see a_layout).
#pragma once

#include <cstdint>

#include "fp32_ceiling_shape.hpp"

namespace matmul::WB_TRACK {

// Where A_S[k][m] lives in a buffer of S::BK rows of S::LDA floats.
template <class S>
__device__ __forceinline__ int A_S_index(int k, int m) {
  // TODO(matmul/4): row k, column m; for a_layout::swizzled, the float4 m / 4 moves to
  // (m / 4) ^ swizzle(k), with swizzle(k) chosen so that the lanes storing one column of the
  // transposed slice use different banks (the lanes of a warp hold 32 / (BK / 4) rows and
  // BK / 4 groups of 4 k).
  return 0;
}

template <class S>
struct slice_registers {
  float4 a[S::A_LOADS];
  float4 b[S::B_LOADS];
};

// Loads element (r, c) of a rows x cols row-major matrix, 0 outside it.
__device__ __forceinline__ float load_or_zero(const float* M_, std::int64_t rows, std::int64_t cols, std::int64_t r,
                                              std::int64_t c) {
  return r < rows && c < cols ? M_[r * cols + c] : 0.0f;
}

// Four neighbours along a row: one 16-byte load when `vector` (rows a multiple of 4 floats,
// so the float4 is aligned) and all four lie inside, else element by element.
__device__ __forceinline__ float4 load_four(const float* M_, std::int64_t rows, std::int64_t cols, std::int64_t r,
                                            std::int64_t c, bool vector) {
  // TODO(matmul/4): a float4 load of M_[r][c .. c + 3] when allowed, else four load_or_zero.
  return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

// Thread `tid` loads its float4s of A[row0 : row0 + BM][k0 : k0 + BK] and of
// B[k0 : k0 + BK][col0 : col0 + BN].
template <class S>
__device__ __forceinline__ void load_slices(slice_registers<S>& regs, const float* A, const float* B, std::int64_t M,
                                            std::int64_t N, std::int64_t K, std::int64_t row0, std::int64_t col0,
                                            std::int64_t k0, int tid, bool vector_a, bool vector_b) {
  // TODO(matmul/4): float4 number v = tid + l * THREADS of each slice: A's row v / (BK / 4) and
  // k group v % (BK / 4); B's k row v / (BN / 4) and column group v % (BN / 4).
}

// Stores the loaded float4s into one buffer: A transposed (4 scalar stores), B as 16-byte stores.
template <class S>
__device__ __forceinline__ void store_slices(const slice_registers<S>& regs, float* A_S, float* B_S, int tid) {
  // TODO(matmul/4): A's four values at A_S[A_S_index(k + i, m)]; B's float4 at B_S[k * BN + n].
}

}  // namespace matmul::WB_TRACK
