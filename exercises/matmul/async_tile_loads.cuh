// Stage 5, block level: one BK-wide slice of A and of B copied from global into shared memory
// with cp.async, 16 bytes (8 bf16) per copy, without passing through registers (CUDA C++
// Programming Guide, "Asynchronous Data Copies"; wb/async_copy.hpp).
//
// A copy is whole or nothing: a chunk inside the matrix is copied, a chunk outside it is
// zero-filled (source bytes 0; the source address must still be valid). That needs rows whose
// length is a multiple of 8 bf16: for other K or N the slice is loaded element by element.
#pragma once

#include <cstdint>

#include "wb/async_copy.hpp"
#include "wb/bf16.hpp"
#include "wmma_shape.hpp"

namespace matmul::WB_TRACK {

// Chunk `c` of the slice rows x 8 * chunks_per_row, starting at (row0, col0) of a rows_total x
// cols_total row-major matrix, into dst (row-major, ld bf16 per row).
__device__ __forceinline__ void copy_chunk(wb::bf16* dst, int ld, const wb::bf16* src, std::int64_t rows_total,
                                           std::int64_t cols_total, std::int64_t row0, std::int64_t col0, int c,
                                           int chunks_per_row, bool async) {
  // TODO(matmul/5): chunk c is row c / chunks_per_row, columns 8 (c % chunks_per_row) + 0..7 of
  // the slice: one cp_async_16 (16 source bytes inside the matrix, 0 outside) when `async`, else
  // eight element copies with 0 outside.
}

// The block starts copying slice k0 of A (rows row0..) and of B (columns col0..).
template <class S>
__device__ __forceinline__ void load_slice(wb::bf16* A_S, wb::bf16* B_S, const wb::bf16* A, const wb::bf16* B,
                                           std::int64_t M, std::int64_t N, std::int64_t K, std::int64_t row0,
                                           std::int64_t col0, std::int64_t k0, int tid, bool async_a, bool async_b) {
  // TODO(matmul/5): thread tid copies chunks tid, tid + THREADS, ... of the A slice (BM x BK)
  // and of the B slice (BK x BN).
}

}  // namespace matmul::WB_TRACK
