// Stage 5: tensor cores through WMMA (bf16 in, fp32 sums), fed by a cp.async pipeline.
//
// A tensor core multiplies tiles, not numbers: with WMMA a warp loads a 16 x 16 fragment of A
// and one of B from shared memory (load_matrix_sync), multiplies them and adds the product to
// a 16 x 16 float fragment it keeps in registers (mma_sync: 4096 multiply-adds in one
// operation), and at the end stores the fragment (store_matrix_sync). How a fragment's
// elements spread over the lanes is unspecified: code reads and writes them only through these
// functions (or element-wise, where the position does not matter).
//
// Each warp owns a WM x WN tile of the block's BM x BN tile: FRAGS_M x FRAGS_N accumulators.
// Per 16-wide k step it loads FRAGS_M fragments of A and FRAGS_N of B and does FRAGS_M x
// FRAGS_N mma_syncs, reusing each loaded fragment several times (register blocking again).
//
// The tensor cores consume a slice quickly, so loading must run ahead: STAGES slices live in
// shared memory; while the warps multiply slice s, the copies of slices s + 1 ... s + STAGES
// - 1 are in flight (async_tile_loads.cuh). One group of copies per slice; waiting until at
// most STAGES - 2 groups are pending means slice s has landed.
#pragma once
#include "wb/async_copy.hpp"
#include "wb/kernel.hpp"
#include "wb/wmma.hpp"

#include "async_tile_loads.cuh"
#include "matmul.hpp"
#include "tile_grid.hpp"
#include "wmma_shape.hpp"

namespace matmul::WB_TRACK {

namespace wmma = nvcuda::wmma;

template <class S>
__global__ void __launch_bounds__(S::THREADS)
    matmul_wmma_kernel(const wb::bf16* A, const wb::bf16* B, wb::bf16* C, std::int64_t M, std::int64_t N,
                       std::int64_t K, std::int64_t tiles_n, bool async_a, bool async_b) {
  // The dynamic shared memory, from a 128-byte boundary: STAGES slices of A, of B, then staging.
  unsigned char* base = wb::dynamic_shared<unsigned char>();
  base += (S::ALIGN - reinterpret_cast<std::uintptr_t>(base) % S::ALIGN) % S::ALIGN;
  wb::bf16* A_S = reinterpret_cast<wb::bf16*>(base);
  wb::bf16* B_S = A_S + S::STAGES * S::A_SLICE;
  float* staging = reinterpret_cast<float*>(B_S + S::STAGES * S::B_SLICE);

  const tile_coord tile = tile_of_block(blockIdx.x, tiles_n);
  const std::int64_t row0 = tile.row * S::BM, col0 = tile.col * S::BN;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32, lane = tid % 32;
  const int warp_row = (warp / S::WARPS_N) * S::WM;  // the warp's tile within the block's
  const int warp_col = (warp % S::WARPS_N) * S::WN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[S::FRAGS_M][S::FRAGS_N];
  for (auto& row : acc)
    for (auto& f : row) wmma::fill_fragment(f, 0.0f);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wb::bf16, wmma::row_major> a[S::FRAGS_M];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, wb::bf16, wmma::row_major> b[S::FRAGS_N];

  const std::int64_t slices = wb::ceil_div(K, S::BK);
  // Prologue: the first STAGES - 1 slices start loading, one commit group each (empty groups
  // past the last slice keep the count uniform).
  for (int s = 0; s < S::STAGES - 1; ++s) {
    if (s < slices) {
      load_slice<S>(A_S + s * S::A_SLICE, B_S + s * S::B_SLICE, A, B, M, N, K, row0, col0, s * S::BK, tid, async_a,
                    async_b);
    }
    wb::cp_async_commit();
  }
  for (std::int64_t s = 0; s < slices; ++s) {
    wb::cp_async_wait<S::STAGES - 2>();  // this thread's copies of slice s have landed ...
    __syncthreads();  // ... and everyone's; and everyone is done with slice s - 1
    const std::int64_t next = s + S::STAGES - 1;
    if (next < slices) {
      const int buffer = static_cast<int>(next % S::STAGES);  // the buffer slice s - 1 used
      load_slice<S>(A_S + buffer * S::A_SLICE, B_S + buffer * S::B_SLICE, A, B, M, N, K, row0, col0, next * S::BK, tid,
                    async_a, async_b);
    }
    wb::cp_async_commit();

    const wb::bf16* A_slice = A_S + (s % S::STAGES) * S::A_SLICE;
    const wb::bf16* B_slice = B_S + (s % S::STAGES) * S::B_SLICE;
#pragma unroll
    for (int kk = 0; kk < S::BK; kk += 16) {
#pragma unroll
      for (int i = 0; i < S::FRAGS_M; ++i) {
        wmma::load_matrix_sync(a[i], A_slice + (warp_row + 16 * i) * S::LDA_S + kk, S::LDA_S);
      }
#pragma unroll
      for (int j = 0; j < S::FRAGS_N; ++j) {
        wmma::load_matrix_sync(b[j], B_slice + kk * S::LDB_S + warp_col + 16 * j, S::LDB_S);
      }
#pragma unroll
      for (int i = 0; i < S::FRAGS_M; ++i)
#pragma unroll
        for (int j = 0; j < S::FRAGS_N; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  wb::cp_async_wait<0>();  // nothing may be in flight when the block ends

  // Epilogue: each accumulator through the warp's staging tile, rounded to bf16 once, into C.
  float* mine = staging + warp * 16 * 16;
  for (int i = 0; i < S::FRAGS_M; ++i) {
    for (int j = 0; j < S::FRAGS_N; ++j) {
      wmma::store_matrix_sync(mine, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();  // the whole fragment is in staging
      for (int e = lane; e < 16 * 16; e += 32) {
        const std::int64_t row = row0 + warp_row + 16 * i + e / 16;
        const std::int64_t col = col0 + warp_col + 16 * j + e % 16;
        if (row < M && col < N) C[row * N + col] = wb::to_bf16(mine[e]);
      }
      __syncwarp();  // everyone has read staging before the next fragment overwrites it
    }
  }
}

}  // namespace matmul::WB_TRACK
