// Stage 5, a consumer warpgroup: 64 queries of the block, start to end (FlashAttention-3, Shah
// et al. 2024, §3.1-3.2).
//
//   Q    its 64 x d tile, fp32 in memory, rounded to bf16 into shared memory in the layout wgmma
//        reads (the 128-byte swizzle a TMA copy would have made), once
//   tile j  S_j = Q K_j^T      wgmma, A = Q and B = K both K-major in shared memory
//           softmax_j          on the accumulators (softmax.cuh), P_j = bf16(S_j) in registers
//           O += P_j V_j       wgmma with A = P_j from registers, B = V (MN-major: the transpose bit)
//   O    divided by the row sums once, stored fp32 (rows past seq are not stored)
//
// Step 1 issues each GEMM and waits for it. The solution then issues them one tile apart
// (§3.2, "intra-warpgroup overlapping"), and lets two consumers take turns (§3.1, "pingpong
// scheduling"): the notes say what each was worth.
#pragma once

#include <cstdint>

#include "producer.cuh"
#include "shape.cuh"
#include "softmax.cuh"
#include "wb/device/wgmma.cuh"
#include "wb/device/wgmma_layout.hpp"

namespace attention::WB_TRACK::hopper {

using wb::device::wgmma_descriptor;
using wb::device::wgmma_major;

// Named barriers (bar.sync id, count; id 0 is __syncthreads'): a consumer's own Q is written
// (1 + c, 128 threads), and a consumer's turn on the tensor cores (5 + c, both consumers).
__device__ __forceinline__ void named_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void named_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Descriptors of k16 step kk. Q and K are K-major (d along a 128-byte row, boxes of 64 columns
// one after the other): the step is 32 bytes into a row, the next box after 4 steps; 8 rows
// (1024 bytes) from one atom to the next along M / N. V is MN-major (d along the row, keys down
// the box): a step is 16 keys (2048 bytes) down; the next 64 columns are the next box.
template <class S>
__device__ __forceinline__ std::uint64_t q_descriptor(std::uint32_t q, int kk) {
  // TODO(attention/5): K-major, 128-byte swizzle: box kk / 4 (Q_BOX_BYTES each), 32 bytes per k16
  // step within the row, leading byte offset 16 (unused), stride byte offset 1024 (8 rows).
  return 0;
}
template <class S>
__device__ __forceinline__ std::uint64_t k_descriptor(std::uint32_t k, int kk) {
  // TODO(attention/5): as Q's, with the K tile's boxes (KV_BOX_BYTES each).
  return 0;
}
template <class S>
__device__ __forceinline__ std::uint64_t v_descriptor(std::uint32_t v, int kk) {
  // TODO(attention/5): MN-major: a k16 step is 16 keys (16 rows of 128 bytes) down the box; the
  // leading byte offset is the distance to the next 64 columns (the next box), the stride byte
  // offset 1024 (8 rows of keys).
  return 0;
}

// The warpgroup's 64 queries q0.. of head bh, rounded to bf16, into `q` (S::BOXES boxes of 64
// rows x 128 bytes, 128-byte swizzle); rows past seq are zeros. Then the fence that orders these
// ordinary stores before wgmma's reads (the async proxy), and the warpgroup's barrier.
template <class S>
__device__ __forceinline__ void load_q(unsigned char* q, const float* Q, std::int64_t bh, std::int64_t q0,
                                       std::int64_t seq, int t, int consumer, bool vector) {
  // TODO(attention/5): 64 rows x D floats of Q from row q0 of head bh (zeros past seq), 8 floats
  // at a time (two float4 when `vector`), rounded to bf16 (__floats2bfloat162_rn) and stored as
  // one 16-byte chunk at (col / 64) * Q_BOX_BYTES + swizzled_byte_offset(row * 128 + (col % 64) * 2,
  // 128). Then fence_proxy_async_shared() (wgmma reads through the async proxy) and
  // named_sync(1 + consumer, 128) (the whole tile is written before anyone multiplies).
}

// The consumer's loop over one work item's tiles, the n0-th tile through the rings first;
// returns with o (unnormalised) and st.
template <class S>
__device__ __forceinline__ void consume(float (&o)[S::D / 2], row_state& st, std::uint32_t q, const tile_ring& K,
                                        const tile_ring& V, const block_work& w, std::uint32_t n0, std::int64_t row0,
                                        const dims& d, float scale_log2, int t, int consumer) {
  // TODO(attention/5): FlashAttention-3's consumer, step 1 (no overlap yet). Zero o. For each
  // tile j < w.tiles (ring position ring_at(n0 + j, STAGES)):
  //   wait for K's full barrier; wgmma_fence; S = Q K_j^T: D / 16 wgmma_bf16<k, k>(s, q_descriptor,
  //   k_descriptor, accumulate = kk > 0); commit; wait<0>; accumulators_settle(s); lane 0 of each
  //   warp arrives on K's empty barrier;
  //   mask the keys the thread's rows do not see (end[h] = visible_end of its row, at most
  //   kv_seq; only where the tile reaches past the smaller end); softmax_step; rescale(o, alpha);
  //   to_bf16_operand(s, p);
  //   wait for V's full barrier; wgmma_fence; BN / 16 wgmma_rs_bf16<mn>(o, p[kk], v_descriptor);
  //   commit; wait<0>; accumulators_settle(o); lane 0 of each warp arrives on V's empty barrier.
  // Then: why does S_{j+1} not have to wait for P_j V_j (FA3 §3.2)?
}

// O = o / l for the warpgroup's rows below seq, fp32, two neighbouring columns per store when
// O allows 8-byte stores.
template <class S>
__device__ __forceinline__ void store_o(const float (&o)[S::D / 2], const row_state& st, float* O, std::int64_t bh,
                                        std::int64_t row0, std::int64_t seq, int t, bool pairs) {
  // TODO(attention/5): O = o / l (st.l[(i / 2) % 2]) at row row0 + wgmma_accumulator_row(t, i),
  // column wgmma_accumulator_col(t, i) of head bh, rows below seq only; registers i and i + 1 are
  // neighbours (one float2 store when `pairs`).
}

}  // namespace attention::WB_TRACK::hopper
