// Stage 4, block level: moving one BK-wide slice of A and of B from global memory into
// shared memory, 16 bytes at a time, with A transposed on the way.
//
// Global -> registers (load_slices): each thread loads A_LOADS float4s of A (4 neighbours in a
// row, along K) and B_LOADS float4s of B (4 neighbours along N); at the edges of the matrices,
// or when their rows are no multiple of 4 floats, element by element, 0 outside (MM1). Where
// each float4 comes from is worked out once, before the k loop (slice_loader): the loop only
// moves pointers on, and inside the matrices checks nothing.
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

// Thread tid's float4s of the block's slices: float4 v = tid + l * THREADS of a slice is A's
// row v / (BK / 4), k group v % (BK / 4), and B's k row v / (BN / 4), column group v % (BN / 4).
// The pointers start at slice 0 and move on by a slice after each load (advance).
template <class S>
struct slice_loader {
  const float* a[S::A_LOADS];
  const float* b[S::B_LOADS];
  std::int64_t b_step;  // BK * N: from a slice of B to the next
  int a_k[S::A_LOADS];  // the float4's first k within the slice (A), its k row (B)
  int b_k[S::B_LOADS];
  bool a_row_inside[S::A_LOADS];  // the float4's row is a row of A
  int b_cols_inside[S::B_LOADS];  // of the float4's 4 columns, how many are columns of B
  bool vector_a, vector_b;  // 16-byte loads allowed (rows a multiple of 4 floats, aligned matrix)
  bool interior;  // every float4 of the thread is a whole 16-byte load of rows and columns inside

  __device__ slice_loader(const float* A, const float* B, std::int64_t M, std::int64_t N, std::int64_t K,
                          std::int64_t row0, std::int64_t col0, int tid, bool vector_a_, bool vector_b_)
      : b_step(S::BK * N), vector_a(vector_a_), vector_b(vector_b_), interior(false) {
    // TODO(matmul/4): for each of the thread's float4s, where slice 0's starts (a row outside A
    // or a column outside B may point anywhere inside the matrix: it is never read) and how much
    // of it lies inside the matrix; interior when all of them are whole and 16-byte loads allowed.
  }

  __device__ void advance() {
    // TODO(matmul/4): every pointer one slice on: BK along A's rows, BK rows down B.
  }
};

// Thread `tid` loads its float4s of the next slice (where `from` points) and moves `from` on;
// k_left is how much of K remains from the slice's start. Inside the matrices (most blocks,
// most slices) these are plain 16-byte loads; at their edges each element is checked.
template <class S>
__device__ __forceinline__ void load_slices(slice_registers<S>& regs, slice_loader<S>& from, std::int64_t k_left) {
  // TODO(matmul/4): float4 loads when from.interior and the slice is whole (k_left >= BK); else
  // each float4 element by element, 0 for a k at or past k_left, a row outside A, a column
  // outside B (a float4 load where it is allowed and whole); then from.advance().
}

// Stores the loaded float4s into one buffer: A transposed (4 scalar stores), B as 16-byte stores.
template <class S>
__device__ __forceinline__ void store_slices(const slice_registers<S>& regs, float* A_S, float* B_S, int tid) {
  // TODO(matmul/4): A's four values at A_S[A_S_index(k + i, m)]; B's float4 at B_S[k * BN + n].
}

}  // namespace matmul::WB_TRACK
