// Stage 5, the online softmax on the wgmma accumulators (FlashAttention-3, Shah et al. 2024,
// §3; the online softmax of stage 2 and FlashAttention-2's single division at the end).
//
// S = Q K^T of a 64 x BN tile sits in the warpgroup's registers, BN / 2 floats per thread: thread t
// holds rows 16 (t / 32) + (t % 32) / 4 and that + 8 ("upper" and "lower", h = 0, 1), and in
// each group of 8 columns the two columns 2 (t % 4), 2 (t % 4) + 1 (wb/device/wgmma_layout.hpp).
// So a row's BN scores are spread over the 4 lanes of a quad, BN / 4 each: a row max or sum is
// a thread's own values, then two shuffles (xor 1, xor 2) across the quad.
//
// exp is exp2 with the scale folded in: p = 2^(s * scale * log2 e - m * scale * log2 e), one
// FFMA and one MUFU.EX2 per score (§3.1: the exponentials run on the multi-function units, 16
// per clock per SM against the tensor cores' 2048 multiply-adds, so each costs a lot: add
// nothing else per score).
#pragma once

#include <cmath>
#include <cstdint>

#include "shape.cuh"
#include "wb/bf16.hpp"
#include "wb/device/wgmma_layout.hpp"

namespace attention::WB_TRACK::hopper {

// 2^x by the multi-function unit (on the cpu backend, which runs these functions in the checks
// of test_hopper_softmax.cu: std::exp2).
__device__ __forceinline__ float fast_exp2(float x) {
#if defined(__CUDA_ARCH__)
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return std::exp2(x);
#endif
}

// A row's state: its running max m (of the unscaled scores), and this thread's part of the
// running sum l (the quad's four parts are added once, at the end: every rescale multiplies
// them by the same alpha, so the sum can wait).
struct row_state {
  float m[2] = {-INFINITY, -INFINITY};
  float l[2] = {0.0f, 0.0f};
};

// -inf for the scores of keys a row does not see: key >= end[h] (end = visible_end of the row,
// at most kv_seq: also the zero rows the TMA filled past kv_seq). `first_key` is the tile's.
template <int R>
__device__ __forceinline__ void mask_scores(float (&s)[R], int lane, std::int64_t first_key, const std::int64_t (&end)[2]) {
  // TODO(attention/5): accumulator i of this thread is key first_key + wgmma_accumulator_col(lane,
  // i) of its row h = (i / 2) % 2; a key at or past end[h] gets -INFINITY.
}

// One online-softmax step on the tile's scores s (unscaled, masked): s becomes p =
// exp(scale (s - m')), l becomes alpha l + sum p, and alpha = exp(scale (m - m')) is returned
// per row for the caller to rescale O with (AT2). m' is never -inf (every row sees key 0 in the
// first tile), but a -inf guard costs one select and keeps a fully masked row at p = 0.
template <int R>
__device__ __forceinline__ void softmax_step(float (&s)[R], row_state& st, float scale_log2, float (&alpha)[2]) {
  // TODO(attention/5): per row h: the tile's max over the thread's scores, then over the quad
  // (__shfl_xor_sync 1 and 2); m' = max(m, that); alpha[h] = exp2(scale_log2 (m - m')), 0 for
  // the first tile (m = -inf). Then every score becomes exp2(scale_log2 (s - m')) (fast_exp2, one
  // fmaf), the thread's part of l becomes l alpha + the sum of its new p, and m = m'.
  alpha[0] = alpha[1] = 1.0f;
}

// O's rows times alpha (the same two rows as S's: the accumulator layout depends on N only
// through the number of column groups).
template <int R>
__device__ __forceinline__ void rescale(float (&o)[R], const float (&alpha)[2]) {
  // TODO(attention/5): register i of O belongs to row (i / 2) % 2, as in S.
}

// P as the A operand of O += P V, straight from the registers: the accumulators of a 64 x 16
// block of S (8 floats, columns 16 kk ..) are where the register-A wgmma wants the 8 bf16 of
// its A (PTX ISA, the A and D fragment figures of wgmma .m64nNk16), so the conversion is all
// there is: p[kk][j] holds accumulators 8 kk + 2 j and + 1, the first in the lower half.
template <int R>
__device__ __forceinline__ void to_bf16_operand(const float (&s)[R], std::uint32_t (&p)[R / 8][4]) {
  // TODO(attention/5): p[kk][j] = the two bf16 of s[8 kk + 2 j] (lower half) and s[8 kk + 2 j + 1]
  // (__floats2bfloat162_rn), as one 32-bit register.
}

// The finished rows' sums: the quad's four parts added (two shuffles per row).
__device__ __forceinline__ void finish_sums(row_state& st) {
  // TODO(attention/5): each row's l is spread over the 4 lanes of a quad: add them up.
}

}  // namespace attention::WB_TRACK::hopper
