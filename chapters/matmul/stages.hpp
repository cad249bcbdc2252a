// The matmul chapter's stages, in order: the one table the checks, the executable (--stage,
// report rows), the README and the `wb` program read. Plain C++ (no kernel headers), so a
// host-only program can include it.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace matmul {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0,
     "matmul/0 sequential",
     "sequential C = A B: the specification",
     "PMPP §3.4, Fig. 3.11",
     "sequential.cpp",
     {"C[i][j] is the dot product of row i of A and column j of B. All three matrices are row-major: where in "
      "memory is A[i][k]? And B[k][j]?",
      "Three nested loops: i over the rows of C, j over its columns, and innermost k, adding A[i][k] * B[k][j] "
      "into a float that starts at 0 and is stored into C[i][j] when k is done. Use 64-bit indices.",
      "for (i = 0; i < M; ++i) for (j = 0; j < N; ++j) { float sum = 0; for (k = 0; k < K; ++k) sum += "
      "A[i * K + k] * B[k * N + j]; C[i * N + j] = sum; } (p.A, p.B, p.C, p.M, p.N, p.K of the problem)."}},
    {1,
     "matmul/1 naive",
     "one thread per output, and the coalescing pitfall",
     "PMPP §3.4, Fig. 3.11; §6.1",
     "naive.cu",
     {"Give every thread one output C[row][col] and let it compute the whole dot product from global memory. "
      "Which thread index should walk the columns of C so that a warp's 32 loads of B fall in one 128-byte line?",
      "The block is 32 x 8 threads over a tile of C; tile_of_block(blockIdx.x, tiles_n) says which tile. With "
      "threadIdx.x along the columns (x-column), row = tile.row * blockDim.y + threadIdx.y and col = tile.col * "
      "blockDim.x + threadIdx.x; the x-row variant swaps the roles. Threads outside C do nothing; the others "
      "loop over k.",
      "tile = tile_of_block(blockIdx.x, tiles_n); row = column_in_x ? tile.row * blockDim.y + threadIdx.y : "
      "tile.row * blockDim.x + threadIdx.x; col = column_in_x ? tile.col * blockDim.x + threadIdx.x : tile.col * "
      "blockDim.y + threadIdx.y (all std::int64_t); if (row >= M || col >= N) return; float sum = 0; for (k = 0; k "
      "< K; ++k) sum += A[row * K + k] * B[k * N + col]; C[row * N + col] = sum."}},
    {2,
     "matmul/2 tiled",
     "tiles in shared memory, with boundary checks (MM1)",
     "PMPP §5.4-5.5, Figs. 5.9, 5.13",
     "tiled.cu",
     {"Threads of a block reuse each other's loads: bring a TILE_WIDTH x TILE_WIDTH tile of A and one of B into "
      "shared memory, then let every thread take its TILE_WIDTH products from there. The book's listing assumes "
      "the width is a multiple of TILE_WIDTH (MM1): what goes wrong at 33?",
      "Per phase ph (ceil(K / TILE_WIDTH) of them): each thread loads A[row][ph * TILE_WIDTH + tx] into "
      "A_S[ty][tx] and B[ph * TILE_WIDTH + ty][col] into B_S[ty][tx], 0 when outside the matrix; a barrier; the "
      "inner product over the tile; a barrier again before the next phase overwrites the tiles. Store only inside C.",
      "row = tile.row * TILE_WIDTH + ty, col = tile.col * TILE_WIDTH + tx; for (ph = 0; ph < wb::ceil_div(K, "
      "TILE_WIDTH); ++ph) { A_S[ty][tx] = row < M && ph * TILE_WIDTH + tx < K ? A[row * K + ph * TILE_WIDTH + tx] "
      ": 0; B_S[ty][tx] = ph * TILE_WIDTH + ty < K && col < N ? B[(ph * TILE_WIDTH + ty) * N + col] : 0; "
      "__syncthreads(); for (k = 0; k < TILE_WIDTH; ++k) Cvalue += A_S[ty][k] * B_S[k][tx]; __syncthreads(); } "
      "if (row < M && col < N) C[row * N + col] = Cvalue."}},
    {3,
     "matmul/3 coarsened",
     "thread coarsening, then a 2-D register tile",
     "PMPP §6.3, Fig. 6.13",
     "coarsened.cu",
     {"A thread of stage 2 does one multiply-add per two shared-memory loads. Give it several outputs that share "
      "inputs: the book's coarsening shares the A element over COARSE_FACTOR outputs in a row; an 8 x 8 block of "
      "outputs shares 8 A values and 8 B values over 64 multiply-adds.",
      "coarse-4: stage 2 with COARSE_FACTOR accumulators; A_S is loaded once per phase, B_S once per output "
      "column, each followed by its barriers. register-8x8: the block loads a 128 x 8 slice of A and an 8 x 128 "
      "slice of B; at each k a thread reads its 8 values of A's column and of B's row into registers and adds "
      "their outer product into an 8 x 8 array.",
      "register-8x8: ty = tid / 16, tx = tid % 16; rows ty + 16 i, columns tx + 16 j (i, j < 8). Per slice k0: "
      "A_S[e / 8][e % 8] = A[(row0 + e / 8) * K + k0 + e % 8] (0 outside) for e = tid, tid + 256, ...; B_S[e / "
      "128][e % 128] likewise; __syncthreads(); for k < 8: a[i] = A_S[ty + 16 i][k], b[j] = B_S[k][tx + 16 j], "
      "acc[i][j] += a[i] * b[j]; __syncthreads(). coarse-4: as stage 2 with Cvalue[c] and B's column col_start + "
      "c * 16."}},
    {4,
     "matmul/4 fp32-ceiling",
     "the fp32 ceiling: 16-byte loads, transposed A, warp tiles, double buffering",
     "after the book: register tiling as in CUTLASS's SIMT GEMM",
     "fp32_tile_loads.cuh fp32_warp_tile.cuh fp32_ceiling.cuh",
     {"What still costs in stage 3: 4-byte loads, a column of A read element by element, shared-memory bank "
      "conflicts, and a block that waits for its global loads. Each has a standard fix; the shape of the tiles "
      "(fp32_ceiling_shape.hpp) is given.",
      "slice_loader: where each of a thread's float4s of slice 0 starts, worked out once; load_slices loads the "
      "next A and B slices into registers (16-byte loads inside the matrices, element by element at their edges) "
      "and moves the pointers on. store_slices: B as float4s, A transposed through "
      "A_S_index (the swizzle). multiply_slice: per k, TM/4 float4s of A_S and TN/4 of B_S, then the outer "
      "product. The kernel: load slice s+1 while multiplying slice s, store it into the other buffer, one barrier.",
      "A_S_index: swizzle = (k / 4) * (8 / (BK / 4)); return k * LDA + (((m / 4) ^ swizzle) * 4) + m % 4 (plain "
      "k * LDA + m for the other layouts). slice_loader: v = tid + l * THREADS; A: row = row0 + v / (BK / 4), "
      "a_k = 4 (v % (BK / 4)), a[l] = A + row * K + a_k; B: b_k = v / (BN / 4), col = col0 + 4 (v % (BN / 4)), "
      "b[l] = B + b_k * N + col; advance: a += BK, b += BK * N. load_slices: if interior and k_left >= BK, float4 "
      "loads; else element e of A's float4 only if its row is inside and a_k + e < k_left. multiply_slice: "
      "a[4i..] = float4 at A_S_index(k, row + 16 i), b[4j..] = float4 at B_S[k * BN + col + 32 j]. Kernel: load "
      "and store slice 0 (k_left = K), barrier; per slice s: load slice s + 1 (k_left = K - (s + 1) BK), multiply "
      "slice s, store s + 1 into the other buffer, barrier; store_tile."}},
    {5,
     "matmul/5 wmma",
     "tensor cores with WMMA (bf16 in, fp32 sums), cp.async stages",
     "CUDA C++ Programming Guide: warp matrix functions; asynchronous data copies",
     "async_tile_loads.cuh wmma.cuh",
     {"A tensor core multiplies small tiles in one instruction: with WMMA a warp loads 16 x 16 fragments of A and "
      "B from shared memory (load_matrix_sync), multiplies and adds them into a float fragment (mma_sync), and "
      "stores the result (store_matrix_sync). Feed it with cp.async: copies that land in shared memory while "
      "the warps compute on earlier tiles.",
      "The block keeps STAGES slices of A and B in shared memory. Before the loop it starts STAGES - 1 slices "
      "(one cp.async group each). In the loop: wait until slice s has landed (cp_async_wait<STAGES - 2>), a "
      "barrier, start slice s + STAGES - 1 into the buffer slice s - 1 used, then each warp does its mma_syncs on "
      "slice s. At the end, each accumulator fragment goes through shared memory to C as bf16.",
      "load_slice: 16-byte chunks (8 bf16): A chunk c -> row c / (BK / 8), k (c % (BK / 8)) * 8; cp_async_16(dst, "
      "src, inside ? 16 : 0) with src clamped to A when outside. Main loop over slices s: cp_async_wait<STAGES - "
      "2>(); __syncthreads(); load_slice(s + STAGES - 1); cp_async_commit(); for kk < BK / 16: load_matrix_sync "
      "a[i] from A_S + (warp_row + 16 i) * LDA_S + kk * 16, b[j] from B_S + kk * 16 * LDB_S + warp_col + 16 j; "
      "mma_sync(acc[i][j], a[i], b[j], acc[i][j])."}},
    {6,
     "matmul/6 hopper",
     "Hopper: TMA, an mbarrier ring, wgmma, warp specialisation, persistent tiles (sm_90)",
     "CUDA C++ Programming Guide: tensor memory accelerator; PTX ISA: wgmma, cp.async.bulk.tensor, mbarrier",
     "hopper/wgmma_layout.cuh hopper/pipeline.cuh hopper/hopper.cuh",
     {"On Hopper, one instruction (wgmma) multiplies a 64 x N tile for a warpgroup of 128 threads, reading A and "
      "B straight from shared memory through descriptors; the tensor memory accelerator copies whole tiles "
      "into shared memory on its own and signals an mbarrier. The pieces you write first run on the cpu "
      "backend: the shared-memory layout (128-byte swizzle), the descriptors, the accumulator's fragment layout, "
      "the ring's stage and phase, the tile order.",
      "wgmma_layout.cuh: where the TMA puts element (row, 16-byte chunk) of a 128-byte-wide box (the chunk index "
      "XOR row % 8), the 64-bit descriptor (address / 16 in bits 0-13, leading and stride byte offsets / 16 in "
      "16-29 and 32-45, swizzle mode 1 in bits 62-63), and which output row and column accumulator register i of "
      "thread t holds. pipeline.cuh: the ring position of k-block n (stage n % STAGES, parity (n / STAGES) % 2) "
      "and the grouped tile order. hopper.cuh: a producer thread waits for an empty slot, arms the full barrier "
      "with the bytes to expect and starts the TMA copies; consumers wait for the full barrier, issue wgmma, "
      "release the slot.",
      "swizzled_offset(row, byte) = row * 128 + (((byte / 16) ^ (row % 8)) * 16) + byte % 16. make_descriptor(address, lbo, sbo): "
      "((address & 0x3FFFF) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (1ull << 62). A (K-major): sbo = "
      "1024, advance 32 bytes per k16. B (N-major): lbo = 8192 (the next 64 columns), sbo = 1024, advance 2048 "
      "bytes per k16. accumulator_row(t, i) = (t / 32) * 16 + (t % 32) / 4 + 8 * ((i / 2) % 2), "
      "accumulator_col(t, i) = (i / 4) * 8 + (t % 4) * 2 + i % 2. ring: stage = n % STAGES, parity = (n / STAGES) "
      "& 1; the producer waits for parity ^ 1 on the empty barrier."}},
}};

}  // namespace matmul
