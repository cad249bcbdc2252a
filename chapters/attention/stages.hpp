// The attention chapter's stages, in order: the one table the checks, the executable (--stage,
// report rows), the README and the `wb` program read. Plain C++ (no kernel headers), so a
// host-only program can include it. Stages 4 and 5 (tensor cores: mma.sync, then Hopper's
// wgmma and TMA) are to come; their numbers are kept free.
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace attention {

inline constexpr std::array<wb::stage, 5> stages = {{
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
