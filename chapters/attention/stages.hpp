// The attention chapter's stages, in order: the one table the checks, the executable (--stage,
// report rows), the README and the `wb` program read. Plain C++ (no kernel headers), so a
// host-only program can include it.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace attention {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0,
     "attention/0 sequential",
     "sequential attention in double: the specification",
     "Vaswani et al. 2017, §3.2.1 (scaled dot-product attention)",
     "sequential.cpp",
     {"Write the definition down: for each query row, a score per key, a softmax over the scores, the weighted "
      "sum of the value rows. Which keys does query i see under the causal mask when kv_seq > seq?",
      "Per (batch, head) and query row i: scores s_j = (q_i . k_j) / sqrt(d) in double for j < visible_end(d, i); "
      "their max m; weights exp(s_j - m) (subtracting m changes nothing exactly, and keeps exp finite); o = "
      "sum of weight * v_j divided by the sum of the weights, rounded to float once. Rows are [batch][head][pos][dim].",
      "bh over batch * heads; K, V at bh * kv_seq * dim; q at (bh * seq + i) * dim; end = visible_end(d, i); "
      "s[j] = scale * sum_c q[c] * K[j * dim + c] (double), m = max s[j]; l = sum exp(s[j] - m); o[c] = sum "
      "exp(s[j] - m) * V[j * dim + c]. The last step, yours: what goes into O[(bh * seq + i) * dim + c], rounded "
      "once?"}},
    {1,
     "attention/1 three-kernels",
     "three kernels: scores, a row softmax, P V (S in memory; AT1)",
     "Dao et al. 2022 (FlashAttention), Algorithm 0: the standard implementation",
     "three_kernels.cu",
     {"Attention as written: a kernel for S = Q K^T, one for the softmax of each row of S, one for P V. S has "
      "seq x kv_seq scores per head and lives in global memory. Why must the softmax subtract the row's max "
      "before exp (AT1: try scores past 88)?",
      "Scores: each thread one (query, key) of a 32 x 8 tile, a dot product of length d times the scale, or "
      "-INFINITY for a key the query does not see. Softmax: a block per row; a block-wide max, a block-wide sum of "
      "exp(s - max), then each entry exp(s - max) / sum. P V: each thread one output (query, column), the sum of "
      "P V over the keys the row sees only (a NaN in V must not reach rows that never see it).",
      "scores: bh = blockIdx.x / (query_tiles * key_tiles), tile = the rest; i = (tile / key_tiles) * 8 + "
      "threadIdx.y, j = (tile % key_tiles) * 32 + threadIdx.x; skip past seq / kv_seq; S[(bh * seq + i) * kv_seq + "
      "j] = j < visible_end(d, i) ? dot * scale : -INFINITY. softmax: for row = blockIdx.x; row < rows; row += "
      "gridDim.x: m = block_reduce(max over j < end), l = block_reduce(sum expf(s - m)), s[j] = j < end ? expf(s[j] "
      "- m) / l : 0. pv: o = sum over j < end of P[row][j] * V[(bh * kv_seq + j) * dim + c]."}},
    {2,
     "attention/2 online",
     "one fused kernel, the online softmax, a warp per query row (AT2)",
     "Milakov & Gimelshein 2018, Online normalizer calculation for softmax, Algorithm 3",
     "online.cu",
     {"The softmax needs the row's max before its first exp, and the sum before its first division; the online "
      "softmax needs neither: keep a running max and a running sum, and fix up what was summed whenever the max "
      "grows. Carry the weighted sum of V along the same way, and S is never stored.",
      "A warp per query row, lanes over d (lane l keeps dims l, l + 32, ...). For each key the row sees: the score "
      "is the warp's sum of the lanes' partial dot products; the new max m' = max(m, s); the running sum and the "
      "running output are multiplied by exp(m - m') (AT2), then exp(s - m') and exp(s - m') v are added. At the "
      "end, O = output / sum.",
      "row = blockIdx.x * WARPS + threadIdx.x / 32 (return if >= rows); q[t] = Q[row * dim + lane + 32 t] * scale "
      "(0 past d); m = -INFINITY, l = 0, acc = 0; for j < visible_end(d, row % seq): s = warp_sum(sum_t q[t] * "
      "k[lane + 32 t]); m_new = fmaxf(m, s); alpha = expf(m - m_new); w = expf(s - m_new); then the update of l "
      "and acc[t] with alpha and w (AT2: which of them does alpha multiply?), m = m_new. Store acc[t] / l."}},
    {3,
     "attention/3 tiled",
     "FlashAttention tiling in shared memory, FlashAttention-2's loop order (fp32, CUDA cores)",
     "Dao et al. 2022, Algorithm 1; Dao 2023 (FlashAttention-2), Algorithm 1 and §3.3",
     "tiled.cu",
     {"Stage 2 reads every K and V row once per query. Let a block of 32 queries share them: stream K and V "
      "through shared memory one tile of 32 keys at a time, and do stage 2's online step once per tile, on 32 "
      "scores at once. With the causal mask, which tiles can a block skip, and which must it mask?",
      "Shared memory: Q tile (scaled), K tile (rows padded to d + 1: lane j reads row j), V tile. Each of 8 warps "
      "owns 4 query rows. Per K/V tile: all threads load it (zeros past kv_seq), barrier; lane j scores key j for "
      "the warp's 4 rows; per row: n = the tile's keys it sees, the tile's max over them (warp_reduce), one rescale "
      "by exp(m - m'), l += sum of p; acc += P V with p_j from lane j (__shfl_sync), only j < n; barrier before the "
      "next tile. The loop ends after the last tile the block's last row sees.",
      "Qs[e] = (i0 + e / d < seq) ? Q[...] * scale : 0; end[r] = visible_end(d, i0 + row0 + r) (0 past seq); "
      "block_end = visible_end(d, min(i0 + 32, seq) - 1); for j0 = 0; j0 < block_end; j0 += 32: load Ks[r * (d + 1) "
      "+ c], Vs[r * d + c] for j0 + r < kv_seq; __syncthreads(); s[r] = sum_c Qs[(row0 + r) * d + c] * Ks[lane * (d "
      "+ 1) + c]; n[r] = clamp(end[r] - j0, 0, 32); if n[r] > 0: m' = max(m, warp max of (lane < n ? s : -inf)); p "
      "= lane < n ? expf(s - m') : 0; alpha = expf(m - m'); l = l * alpha + warp_sum(p); acc *= alpha. Then for j "
      "< max n: pj = __shfl_sync(~0u, p[r], j); acc[r][t] += pj * Vs[j * d + lane + 32 t] if j < n[r]. "
      "__syncthreads(). Store acc / l."}},
    {4,
     "attention/4 tensor-cores",
     "stage 3 on the tensor cores: mma.sync (bf16 in, fp32 accumulate), P kept in registers, K and V by cp.async "
     "double buffering (AT4)",
     "Dao 2023 (FlashAttention-2), §3; PTX ISA: mma.m16n8k16, ldmatrix, cp.async",
     "tensor_core.cu",
     {"Both products of attention are matrix products: give them to the tensor cores (mma.sync m16n8k16, "
      "wb/mma.hpp). A warp owns 16 query rows; its scores come out in accumulator registers whose layout PTX "
      "documents. Keep the online softmax on those registers, and feed the probabilities to P V without storing "
      "them: which operand of an mma has the same layout as an accumulator?",
      "Block: 4 warps x 16 rows; K/V tiles of 64 keys in two shared-memory stages, the next tile's cp.async in "
      "flight while this one is computed (wait for this tile's group, barrier; barrier again before the stage is "
      "refilled). Q: A fragments loaded once, rounded to bf16. S: 8 accumulators (8 keys each), B from K's rows by "
      "ldmatrix (load_b_ldmatrix). A lane holds 2 columns of rows g and g + 8 (g = lane / 4): a row's max is the "
      "max over the quad, two __shfl_xor_sync (1, 2) (AT4). P: a_from_accumulators of two score accumulators is "
      "the A fragment of 16 keys; V's rows are B through ldmatrix.trans (load_b_from_rows_ldmatrix).",
      "start_tile_copy(stage 0, keys 0..63); for tile < tiles: if there is a next, start its copy into the other "
      "stage and cp_async_wait<1>(), else cp_async_wait<0>(); __syncthreads(); s[nt] = sum over kk of "
      "mma(q[kk], load_b_ldmatrix(Ks + 8 nt LD + 16 kk)); s *= scale; -INFINITY where key >= end[row] (masked "
      "tiles only); per row r (elements 2r, 2r + 1): tile max over the lane's 16 scores, then over the quad; m' = "
      "max(m, that); alpha = expf(m - m'); p = expf(s - m'); l = l alpha + the lane's sum; o *= alpha; then for kc "
      "< 4, ot < d / 8: o[ot] = mma(a_from_accumulators(s[2 kc], s[2 kc + 1]), load_b_from_rows_ldmatrix(Vs + 16 "
      "kc LD + 8 ot), o[ot]); __syncthreads(). At the end: l summed over the quad (xor 1, 2); what goes into O?"}},
    {5,
     "attention/5 hopper",
     "FlashAttention-3 on Hopper: a TMA producer, wgmma consumers, the online softmax on the accumulators "
     "(bf16 K, V and P; AT5)",
     "Shah et al. 2024 (FlashAttention-3), §3.1-3.2; PTX ISA: cp.async.bulk.tensor, mbarrier, wgmma",
     "hopper/producer.cuh hopper/softmax.cuh hopper/consumer.cuh hopper/hopper.cu",
     {"Hopper's tensor cores are fed by a warpgroup (wgmma) straight from shared memory, and the copy engine (TMA) "
      "fills shared memory on its own. Split the block by role: one thread loads K and V tiles into rings, the other "
      "warpgroups compute 64 queries each. The scores come out in wgmma's accumulator registers: which operand of "
      "the next wgmma has the same layout, so that P never leaves the registers?",
      "Producer (producer.cuh): per tile, wait until the ring's stage is empty, announce the tile's bytes on its full "
      "barrier, one TMA copy per 64-column box (the 3D map d x kv_seq x heads: rows past kv_seq come back zero). "
      "Consumer (consumer.cuh): Q's 64 x d tile rounded to bf16 into shared memory in the 128-byte-swizzled layout, "
      "fenced for the async proxy; per tile: wait for K, S = Q K^T (D / 16 wgmmas, A and B K-major), wait, free K's "
      "stage; mask the keys a row does not see (diagonal tile, and past kv_seq: a zero key scores 0, not -inf, AT5a); "
      "the online step on the registers (a row lives in the 4 lanes of a quad: two xor shuffles); O *= alpha; P = "
      "bf16(S) as register A; wait for V, O += P V (B = V is MN-major: the transpose bit, AT5b); wait, free V's stage. "
      "At the end O / l, rows below seq only.",
      "load_tile: p = ring_at(n, STAGES); mbarrier_wait(&empty[p.stage], p.parity ^ 1); "
      "mbarrier_arrive_expect_tx(&full[p.stage], KV_TILE_BYTES); tma_load_3d(tile + b * KV_BOX_BYTES, map, full, 64 "
      "b, tile * BN, bh) per box. Descriptors: Q, K: wgmma_descriptor(base + (kk / 4) * box_bytes + (kk % 4) * 32, "
      "16, 1024); V: wgmma_descriptor(base + kk * 2048, KV_BOX_BYTES, 1024). load_q: chunk (row, col) of 8 floats to "
      "(col / 64) * Q_BOX_BYTES + swizzled_byte_offset(row * 128 + (col % 64) * 2, 128), then "
      "fence_proxy_async_shared() and named_sync(1 + consumer, 128) (AT5c). softmax_step per row h = (i / 2) % 2: "
      "m' = max(m, quad max); alpha = exp2(scale_log2 (m - m')); s = exp2(fmaf(s, scale_log2, -m' scale_log2)); l = l "
      "alpha + sum. to_bf16_operand: p[kk][j] = bf16x2(s[8 kk + 2 j], s[8 kk + 2 j + 1]). Release a stage only after "
      "wgmma_wait says the GEMM that reads it is done (AT5d). The last step, yours: store_o's index and value."}},
    {6,
     "attention/6 decode",
     "decoding: the KV cache split over warps, partials combined (Flash-Decoding; fp32 or bf16 K and V)",
     "Dao, Haziza, Massa, Sizov 2023, Flash-Decoding for long-context inference",
     "decode.cu",
     {"One new query per sequence against a cache of 32K keys: stages 2 and 3 would give the GPU 16 warps of "
      "work. Split the keys instead, run the online softmax on each split, and combine the splits' partials the "
      "way the online softmax combines tiles.",
      "Split kernel: warp w takes query w % seq, split (w / seq) % splits, (batch, head) w / (seq * splits); it "
      "runs stage 2's loop over the keys of [split * chunk, (split + 1) * chunk) that the query sees and writes m, "
      "l and the unnormalised acc. Lane l keeps dims (l + 32 g) * VEC + e (e < VEC) and loads them with "
      "load_floats<VEC> (vector_load.cuh: floats from fp32 or bf16); several keys per step, loaded before any "
      "is used, so their loads overlap. Combine kernel: a warp per query, M = the largest m_s, L = sum l_s exp(m_s - M), O = sum "
      "acc_s exp(m_s - M) / L.",
      "split: begin = split * chunk; end = min(begin + chunk, visible_end(d, i)); per step of KEYS keys: load "
      "k[key][DPL], v[key][DPL] (0 past end), s[key] = warp_sum(q . k[key]), m_new = max over the keys < end, one "
      "rescale by expf(m - m_new), then add each key's p = expf(s - m_new); slot = (bh * splits + split) * seq + i; lane 0: part_ml[2 slot] = m, "
      "part_ml[2 slot + 1] = l; part_o[slot * d + c] = acc. combine: first = bh * splits * seq + i, slot of s = "
      "first + s * seq; M = warp max over s of part_ml[2 slot]; L = warp sum of part_ml[2 slot + 1] * expf(part_ml[2 "
      "slot] - M); acc[t] = sum_s expf(m_s - M) * part_o[slot * d + lane + 32 t]; O = acc / L."}},
}};

}  // namespace attention
