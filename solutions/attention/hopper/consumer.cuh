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
// The GEMMs are issued one tile apart (§3.2, "intra-warpgroup overlapping"): with
// S_j the warpgroup issues O += P_{j-1} V_{j-1}, waits for S_j only, and computes softmax_j
// while P_{j-1} V_{j-1} still runs on the tensor cores. With PINGPONG the two consumers also
// take turns (two named barriers, §3.1 "pingpong scheduling"): one issues its GEMMs while the
// other is in its softmax, so the tensor cores are fed by one while the SFU serves the other.
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
  return wgmma_descriptor(q + (kk / 4) * S::Q_BOX_BYTES + (kk % 4) * 32, 16, 1024);
}
template <class S>
__device__ __forceinline__ std::uint64_t k_descriptor(std::uint32_t k, int kk) {
  return wgmma_descriptor(k + (kk / 4) * S::KV_BOX_BYTES + (kk % 4) * 32, 16, 1024);
}
template <class S>
__device__ __forceinline__ std::uint64_t v_descriptor(std::uint32_t v, int kk) {
  return wgmma_descriptor(v + kk * 16 * 128, S::KV_BOX_BYTES, 1024);
}

// The warpgroup's 64 queries q0.. of head bh, rounded to bf16, into `q` (S::BOXES boxes of 64
// rows x 128 bytes, 128-byte swizzle); rows past seq are zeros. Then the fence that orders these
// ordinary stores before wgmma's reads (the async proxy), and the warpgroup's barrier.
template <class S>
__device__ __forceinline__ void load_q(unsigned char* q, const float* Q, std::int64_t bh, std::int64_t q0,
                                       std::int64_t seq, int t, int consumer, bool vector) {
  constexpr int CHUNKS = S::BM * S::D / 8;  // 8 floats -> one 16-byte chunk of bf16
  for (int c = t; c < CHUNKS; c += 128) {
    const int row = c / (S::D / 8), col = (c % (S::D / 8)) * 8;
    float x[8] = {};
    if (q0 + row < seq) {
      const float* src = Q + ((bh * seq + q0 + row) * S::D + col);
      if (vector) {
        const float4 a = reinterpret_cast<const float4*>(src)[0], b = reinterpret_cast<const float4*>(src)[1];
        x[0] = a.x, x[1] = a.y, x[2] = a.z, x[3] = a.w, x[4] = b.x, x[5] = b.y, x[6] = b.z, x[7] = b.w;
      } else {
#pragma unroll
        for (int e = 0; e < 8; ++e) x[e] = src[e];
      }
    }
    uint4 packed;
    std::uint32_t* words = &packed.x;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const __nv_bfloat162 two = __floats2bfloat162_rn(x[2 * e], x[2 * e + 1]);
      words[e] = *reinterpret_cast<const std::uint32_t*>(&two);
    }
    const std::uint32_t offset =
        (col / 64) * S::Q_BOX_BYTES + wb::device::swizzled_byte_offset(row * 128 + (col % 64) * 2, 128);
    *reinterpret_cast<uint4*>(q + offset) = packed;
  }
  wb::device::fence_proxy_async_shared();
  named_sync(1 + consumer, 128);
}

// The consumer's loop over one work item's tiles, the n0-th tile through the rings first;
// returns with o (unnormalised) and st.
template <class S>
__device__ __forceinline__ void consume(float (&o)[S::D / 2], row_state& st, std::uint32_t q, const tile_ring& K,
                                        const tile_ring& V, const block_work& w, std::uint32_t n0, std::int64_t row0,
                                        const dims& d, float scale_log2, int t, int consumer) {
  const int lane = t % 32;
  const bool releases = lane == 0;  // one arrival per consumer warp on `empty`
  // The keys this thread's two rows see: visible_end, at most kv_seq.
  std::int64_t end[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const std::int64_t i = row0 + wb::device::wgmma_accumulator_row(t, 2 * h);
    const std::int64_t e = d.causal ? i + d.kv_seq - d.seq + 1 : d.kv_seq;
    end[h] = e < d.kv_seq ? e : d.kv_seq;
  }
  const std::int64_t end_min = end[0] < end[1] ? end[0] : end[1];
  const std::uint32_t K_base = wb::device::shared_address(K.tiles), V_base = wb::device::shared_address(V.tiles);
  const int me = 5 + consumer, other = 5 + (1 - consumer);
  // Ping-pong: each consumer waits for its turn (named_sync(me)) before it issues a tile's
  // GEMMs and gives the turn away (named_arrive(other)) once they are issued: tiles + 1 turns
  // each. Consumer 1 opens with an arrive so that consumer 0 goes first, and skips its very
  // last one, so that every arrive meets a sync and no barrier is left half-arrived.
  if constexpr (S::PINGPONG) {
    if (consumer == 1) named_arrive(5, 256);
  }

#pragma unroll
  for (int i = 0; i < S::D / 2; ++i) o[i] = 0.0f;
  float s[S::BN / 2];
  std::uint32_t p[S::BN / 16][4];
  float alpha[2];
  const auto tiles = static_cast<std::uint32_t>(w.tiles);

  // The GEMMs of one turn, issued without a branch between them (a wgmma under a condition the
  // compiler cannot see through makes it serialise them all): S_j = Q K_j^T, then
  // O += P_{j-1} V_{j-1}, each its own commit group.
  const auto issue_s = [&](std::uint32_t j) {
    const ring_position pk = ring_at(n0 + j, S::STAGES);
    wb::device::mbarrier_wait(&K.full[pk.stage], pk.parity);
    const std::uint32_t k_tile = K_base + pk.stage * S::KV_TILE_BYTES;
#pragma unroll
    for (int kk = 0; kk < S::D / 16; ++kk) {
      wb::device::wgmma_bf16<wgmma_major::k, wgmma_major::k>(s, q_descriptor<S>(q, kk), k_descriptor<S>(k_tile, kk),
                                                             kk > 0);
    }
    wb::device::wgmma_commit();
  };
  const auto issue_pv = [&](std::uint32_t j) {
    const std::uint32_t v_tile = V_base + ring_at(n0 + j, S::STAGES).stage * S::KV_TILE_BYTES;
#pragma unroll
    for (int kk = 0; kk < S::BN / 16; ++kk) {
      wb::device::wgmma_rs_bf16<wgmma_major::mn>(o, p[kk], v_descriptor<S>(v_tile, kk));
    }
    wb::device::wgmma_commit();
  };
  const auto wait_v = [&](std::uint32_t j) {
    const ring_position pv = ring_at(n0 + j, S::STAGES);
    wb::device::mbarrier_wait(&V.full[pv.stage], pv.parity);
  };
  // After S_j is done: K's stage is free, the scores masked (only on the diagonal's tiles and
  // kv_seq's last one) and turned into p by one online-softmax step.
  const auto softmax_of = [&](std::uint32_t j) {
    wb::device::accumulators_settle(s);
    if (releases) wb::device::mbarrier_arrive(&K.empty[ring_at(n0 + j, S::STAGES).stage]);
    const std::int64_t first_key = static_cast<std::int64_t>(j) * S::BN;
    if (first_key + S::BN > end_min) mask_scores(s, lane, first_key, end);
    softmax_step(s, st, scale_log2, alpha);
  };
  // After P_{j-1} V_{j-1} is done: o is whole again, p and V's stage are free.
  const auto pv_done = [&](std::uint32_t j) {
    wb::device::accumulators_settle(o);
#pragma unroll
    for (int kk = 0; kk < S::BN / 16; ++kk)
#pragma unroll
      for (int e = 0; e < 4; ++e) asm volatile("" : "+r"(p[kk][e])::"memory");  // p is read until here
    if (releases) wb::device::mbarrier_arrive(&V.empty[ring_at(n0 + j, S::STAGES).stage]);
  };
  const auto my_turn = [&] {
    if constexpr (S::PINGPONG) named_sync(me, 256);
  };
  const auto your_turn = [&] {
    if constexpr (S::PINGPONG) named_arrive(other, 256);
  };

  // Tile 0: S_0 alone.
  my_turn();
  wb::device::wgmma_fence();
  issue_s(0);
  your_turn();
  wb::device::wgmma_wait<0>();
  softmax_of(0);  // alpha = 0: o is still 0
  to_bf16_operand(s, p);
  // Tiles 1 ..: S_j with P_{j-1} V_{j-1}; softmax_j while the second still runs.
  for (std::uint32_t j = 1; j < tiles; ++j) {
    wait_v(j - 1);
    my_turn();
    wb::device::wgmma_fence();  // o and p were written by ordinary instructions since
    issue_s(j);
    issue_pv(j - 1);
    your_turn();
    wb::device::wgmma_wait<1>();  // S_j is done
    softmax_of(j);
    wb::device::wgmma_wait<0>();  // P_{j-1} V_{j-1} is done
    pv_done(j - 1);
    rescale(o, alpha);
    to_bf16_operand(s, p);
  }
  // The last P V. Consumer 1 does not give the turn away after it: every arrive then meets a sync.
  wait_v(tiles - 1);
  my_turn();
  wb::device::wgmma_fence();
  issue_pv(tiles - 1);
  if (consumer == 0) your_turn();
  wb::device::wgmma_wait<0>();
  pv_done(tiles - 1);
}

// O = o / l for the warpgroup's rows below seq, fp32, two neighbouring columns per store when
// O allows 8-byte stores.
template <class S>
__device__ __forceinline__ void store_o(const float (&o)[S::D / 2], const row_state& st, float* O, std::int64_t bh,
                                        std::int64_t row0, std::int64_t seq, int t, bool pairs) {
  const float inv[2] = {1.0f / st.l[0], 1.0f / st.l[1]};
#pragma unroll
  for (int i = 0; i < S::D / 2; i += 2) {
    const std::int64_t row = row0 + wb::device::wgmma_accumulator_row(t, i);
    if (row >= seq) continue;
    const int col = wb::device::wgmma_accumulator_col(t, i);
    const float a = o[i] * inv[(i / 2) % 2], b = o[i + 1] * inv[(i / 2) % 2];
    float* out = O + (bh * seq + row) * S::D + col;
    if (pairs) {
      *reinterpret_cast<float2*>(out) = make_float2(a, b);
    } else {
      out[0] = a;
      out[1] = b;
    }
  }
}

}  // namespace attention::WB_TRACK::hopper
