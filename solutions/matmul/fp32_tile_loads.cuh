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

// Loads element (r, c) of a rows x cols row-major matrix, 0 outside it.
__device__ __forceinline__ float load_or_zero(const float* M_, std::int64_t rows, std::int64_t cols, std::int64_t r,
                                              std::int64_t c) {
  return r < rows && c < cols ? M_[r * cols + c] : 0.0f;
}

// Four neighbours along a row: one 16-byte load when `vector` (rows a multiple of 4 floats,
// so the float4 is aligned) and all four lie inside, else element by element.
__device__ __forceinline__ float4 load_four(const float* M_, std::int64_t rows, std::int64_t cols, std::int64_t r,
                                            std::int64_t c, bool vector) {
  if (vector && r < rows && c + 3 < cols) return *reinterpret_cast<const float4*>(M_ + r * cols + c);
  return make_float4(load_or_zero(M_, rows, cols, r, c), load_or_zero(M_, rows, cols, r, c + 1),
                     load_or_zero(M_, rows, cols, r, c + 2), load_or_zero(M_, rows, cols, r, c + 3));
}

// Thread `tid` loads its float4s of A[row0 : row0 + BM][k0 : k0 + BK] and of
// B[k0 : k0 + BK][col0 : col0 + BN].
template <class S>
__device__ __forceinline__ void load_slices(slice_registers<S>& regs, const float* A, const float* B, std::int64_t M,
                                            std::int64_t N, std::int64_t K, std::int64_t row0, std::int64_t col0,
                                            std::int64_t k0, int tid, bool vector_a, bool vector_b) {
#pragma unroll
  for (int l = 0; l < S::A_LOADS; ++l) {
    const int v = tid + l * S::THREADS;
    const int r = v / (S::BK / 4), kq = v % (S::BK / 4);
    regs.a[l] = load_four(A, M, K, row0 + r, k0 + 4 * kq, vector_a);
  }
#pragma unroll
  for (int l = 0; l < S::B_LOADS; ++l) {
    const int v = tid + l * S::THREADS;
    const int k = v / (S::BN / 4), nq = v % (S::BN / 4);
    regs.b[l] = load_four(B, K, N, k0 + k, col0 + 4 * nq, vector_b);
  }
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
