// Stage 4, block level: moving one BK-wide slice of A and of B from global memory into
// shared memory, 16 bytes at a time, with A transposed on the way.
//
// Global -> registers (load_slices): each thread loads A_LOADS float4s of A (4 neighbours in a
// row, along K) and B_LOADS float4s of B (4 neighbours along N). A float4 is one 16-byte load
// instead of four 4-byte ones, when the matrix's rows allow it (K, N multiples of 4); at the
// edges of the matrices, or when they do not, the float4 is gathered element by element, 0
// outside (MM1). The loads are issued before the block computes on the previous slice, so
// their latency hides behind the arithmetic (double buffering).
//
// Where each of a thread's float4s comes from is worked out once, before the k loop
// (slice_loader): a pointer per float4 that moves on by one slice each time, and whether the
// matrix reaches past it. The loop then does no 64-bit index arithmetic and, inside the
// matrices, no checks: with 8 k per slice, every instruction besides the 512 multiply-adds of
// a slice costs (one scheduler issues one instruction a cycle, a multiply-add or another).
//
// Registers -> shared (store_slices): B as it came; A transposed, A_S[k][m], so that a thread
// later reads its TM values of column k as float4s. Transposing makes 4 scalar stores per
// float4; in a plain layout, the two lanes that loaded the two halves of one row of A store to
// the same bank (a 2-way conflict). A_S_index places them apart (see a_layout).
#pragma once

#include <cstdint>

#include "fp32_ceiling_shape.hpp"

namespace matmul::WB_TRACK {

// Where A_S[k][m] lives in a buffer of S::BK rows of S::LDA floats.
template <class S>
__device__ __forceinline__ int A_S_index(int k, int m) {
  if constexpr (S::LAYOUT == a_layout::swizzled) {
    // The lanes of a warp that store one column k of the transposed slice hold 32 / (BK / 4)
    // neighbouring rows m and BK / 4 different k groups; XOR-ing the float4 index m / 4 with a
    // multiple of 8 / (BK / 4) per k group sends each k group to its own 8 / (BK / 4) banks
    // groups, and leaves every float4 whole (reads stay 16-byte loads).
    const int swizzle = (k / 4) * (8 / (S::BK / 4));
    return k * S::LDA + (((m / 4) ^ swizzle) * 4) + m % 4;
  } else {
    return k * S::LDA + m;
  }
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
      : b_step(S::BK * N), vector_a(vector_a_), vector_b(vector_b_), interior(vector_a_ && vector_b_) {
#pragma unroll
    for (int l = 0; l < S::A_LOADS; ++l) {
      const int v = tid + l * S::THREADS;
      const std::int64_t row = row0 + v / (S::BK / 4);
      a_k[l] = 4 * (v % (S::BK / 4));
      a_row_inside[l] = row < M;
      interior = interior && a_row_inside[l];
      a[l] = A + (row < M ? row : 0) * K + a_k[l];
    }
#pragma unroll
    for (int l = 0; l < S::B_LOADS; ++l) {
      const int v = tid + l * S::THREADS;
      const std::int64_t col = col0 + 4 * (v % (S::BN / 4));
      b_k[l] = v / (S::BN / 4);
      b_cols_inside[l] = static_cast<int>(col < N ? (N - col < 4 ? N - col : 4) : 0);
      interior = interior && b_cols_inside[l] == 4;
      b[l] = B + b_k[l] * N + (col < N ? col : 0);
    }
  }

  __device__ void advance() {
#pragma unroll
    for (int l = 0; l < S::A_LOADS; ++l) a[l] += S::BK;
#pragma unroll
    for (int l = 0; l < S::B_LOADS; ++l) b[l] += b_step;
  }
};

// Thread `tid` loads its float4s of the next slice (where `from` points) and moves `from` on;
// k_left is how much of K remains from the slice's start. Inside the matrices (most blocks,
// most slices) these are plain 16-byte loads; at their edges each element is checked.
template <class S>
__device__ __forceinline__ void load_slices(slice_registers<S>& regs, slice_loader<S>& from, std::int64_t k_left) {
  if (from.interior && k_left >= S::BK) {
#pragma unroll
    for (int l = 0; l < S::A_LOADS; ++l) regs.a[l] = *reinterpret_cast<const float4*>(from.a[l]);
#pragma unroll
    for (int l = 0; l < S::B_LOADS; ++l) regs.b[l] = *reinterpret_cast<const float4*>(from.b[l]);
  } else {
    const int k_in = static_cast<int>(k_left < S::BK ? k_left : S::BK);  // k of this slice inside A and B
#pragma unroll
    for (int l = 0; l < S::A_LOADS; ++l) {
      const float* p = from.a[l];
      const int k = from.a_k[l];
      const bool row = from.a_row_inside[l];
      if (from.vector_a && row && k + 4 <= k_in) {
        regs.a[l] = *reinterpret_cast<const float4*>(p);
      } else {  // the edge of A, or rows no multiple of 4 floats: element by element, 0 outside
        regs.a[l] = make_float4(row && k < k_in ? p[0] : 0.0f, row && k + 1 < k_in ? p[1] : 0.0f,
                                row && k + 2 < k_in ? p[2] : 0.0f, row && k + 3 < k_in ? p[3] : 0.0f);
      }
    }
#pragma unroll
    for (int l = 0; l < S::B_LOADS; ++l) {
      const float* p = from.b[l];
      const int cols = from.b_k[l] < k_in ? from.b_cols_inside[l] : 0;
      if (from.vector_b && cols == 4) {
        regs.b[l] = *reinterpret_cast<const float4*>(p);
      } else {
        regs.b[l] = make_float4(cols > 0 ? p[0] : 0.0f, cols > 1 ? p[1] : 0.0f, cols > 2 ? p[2] : 0.0f,
                                cols > 3 ? p[3] : 0.0f);
      }
    }
  }
  from.advance();
}

// Stores the loaded float4s into one buffer: A transposed (4 scalar stores), B as 16-byte stores.
template <class S>
__device__ __forceinline__ void store_slices(const slice_registers<S>& regs, float* A_S, float* B_S, int tid) {
#pragma unroll
  for (int l = 0; l < S::A_LOADS; ++l) {
    const int v = tid + l * S::THREADS;
    const int m = v / (S::BK / 4), k = 4 * (v % (S::BK / 4));
    A_S[A_S_index<S>(k + 0, m)] = regs.a[l].x;
    A_S[A_S_index<S>(k + 1, m)] = regs.a[l].y;
    A_S[A_S_index<S>(k + 2, m)] = regs.a[l].z;
    A_S[A_S_index<S>(k + 3, m)] = regs.a[l].w;
  }
#pragma unroll
  for (int l = 0; l < S::B_LOADS; ++l) {
    const int v = tid + l * S::THREADS;
    const int k = v / (S::BN / 4), n = 4 * (v % (S::BN / 4));
    *reinterpret_cast<float4*>(B_S + k * S::BN + n) = regs.b[l];
  }
}

}  // namespace matmul::WB_TRACK
