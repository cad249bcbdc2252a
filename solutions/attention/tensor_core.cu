// Stage 4: stage 3's loop on the tensor cores (FlashAttention-2, Dao 2023, §3; the PTX ISA's
// mma.m16n8k16, ldmatrix and cp.async), bf16 in, fp32 accumulated.
//
// Both products are mma.sync m16n8k16 (wb/mma.hpp): each warp owns 16 query rows, the M of one
// instruction. S = Q K^T: Q's 16 x d rows are A (loaded once, from fp32 rounded to bf16), K's
// rows read by ldmatrix are B (B[k][n] = K[n][k]: ldmatrix without .trans), 8 accumulators of
// 16 x 8 scores per tile of 64 keys. The online softmax runs on those accumulators in place: a
// lane holds two columns of rows g and g + 8 (g = lane / 4) in each, so a row's max and sum are
// the four lanes of a quad (two shuffles, xor 1 and 2). The probabilities never leave the
// registers: rounded to bf16, the accumulators of 16 keys ARE the A fragment of O += P V
// (a_from_accumulators: the C and A layouts line up), with V's rows as B through ldmatrix.trans.
// K and V arrive by cp.async into two shared-memory stages: the next tile's copy is in flight
// while this one is computed. The causal mask as stage 3: tiles above the diagonal are never
// loaded, only those past the first row's last key are masked.
#include <cmath>
#include <cstdint>

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "wb/async_copy.hpp"
#include "wb/kernel.hpp"
#include "wb/mma.hpp"

namespace attention::WB_TRACK {

using shape = tensor_core_shape;
namespace mma = wb::mma;

// Starts the copy of keys j0 .. j0 + 63 of K and V into one stage, 16 bytes (8 bf16) a
// cp.async, and closes the group. Rows past kv_seq are zero-filled (0 bytes read, from an
// address that is still valid): their scores are masked, and a zero V row adds 0 * 0.
template <int D>
__device__ __forceinline__ void start_tile_copy(bf16* Ks, bf16* Vs, const bf16* Kb, const bf16* Vb, std::int64_t j0,
                                                std::int64_t kv_seq) {
  constexpr int CHUNKS_PER_ROW = D / 8, LD = shape::ld(D);
  for (int c = threadIdx.x; c < shape::BC * CHUNKS_PER_ROW; c += shape::THREADS) {
    const int r = c / CHUNKS_PER_ROW, col = 8 * (c % CHUNKS_PER_ROW);
    const bool inside = j0 + r < kv_seq;
    const std::int64_t from = inside ? (j0 + r) * D + col : 0;
    wb::cp_async_16(Ks + r * LD + col, Kb + from, inside ? 16 : 0);
    wb::cp_async_16(Vs + r * LD + col, Vb + from, inside ? 16 : 0);
  }
  wb::cp_async_commit();
}

// The warp's 16 query rows as A fragments, one per 16 columns of d, read from global memory in
// the layout of mma.hpp (two adjacent floats a register) and rounded to bf16; rows past the
// last query are 0.
template <int D>
__device__ __forceinline__ void load_q(mma::frag_a (&q)[D / 16], const float* Qw, std::int64_t rows, int lane) {
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int row = mma::a_row(lane, 2 * r), col = 16 * kk + mma::a_col(lane, 2 * r);
      const bool inside = row < rows;
      q[kk].x[r] = mma::pack_bf16x2(inside ? Qw[row * D + col] : 0.0f, inside ? Qw[row * D + col + 1] : 0.0f);
    }
  }
}

template <int D>
__global__ void tensor_core_kernel(const float* Q, const bf16* K, const bf16* V, float* O, dims d, float scale,
                                   std::int64_t query_tiles) {
  constexpr int BC = shape::BC, LD = shape::ld(D);
  constexpr int KEY_TILES = BC / 8;  // the score accumulators of a tile: 8 keys each
  constexpr int OUT_TILES = D / 8;   // the output accumulators: 8 columns of d each
  bf16* stage_base = wb::dynamic_shared<bf16>();  // [2 stages][K, V][BC][LD]

  const std::int64_t bh = blockIdx.x / query_tiles;
  const std::int64_t i0 = (blockIdx.x % query_tiles) * shape::BR;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int t = mma::thread_in_group(lane);
  const std::int64_t iw = i0 + shape::ROWS_PER_WARP * warp;  // the warp's first row
  const bf16* Kb = K + bh * d.kv_seq * D;
  const bf16* Vb = V + bh * d.kv_seq * D;

  mma::frag_a q[D / 16];
  load_q<D>(q, Q + (bh * d.seq + iw) * D, d.seq - iw, lane);

  // This lane's two rows, g and g + 8 of the warp's 16: their running max, their part of the
  // running sum (the quad's four parts are added at the end), the keys they see.
  float m[2], l[2];
  std::int64_t end[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const std::int64_t i = iw + mma::c_row(lane, 2 * r);
    end[r] = visible_end(d, i < d.seq ? i : d.seq - 1);  // a row past seq computes, is never stored
    if (end[r] > d.kv_seq) end[r] = d.kv_seq;
    m[r] = -INFINITY;
    l[r] = 0.0f;
  }
  mma::frag_c o[OUT_TILES];
#pragma unroll
  for (int ot = 0; ot < OUT_TILES; ++ot) o[ot] = mma::zero_c();

  // Causal: the block's last row sees keys below block_end (later tiles are skipped); every
  // row sees those below whole_end (those tiles need no mask).
  const std::int64_t last = (i0 + shape::BR < d.seq ? i0 + shape::BR : d.seq) - 1;
  const std::int64_t block_end = visible_end(d, last) < d.kv_seq ? visible_end(d, last) : d.kv_seq;
  const std::int64_t whole_end = visible_end(d, i0) < d.kv_seq ? visible_end(d, i0) : d.kv_seq;
  const std::int64_t tiles = (block_end + BC - 1) / BC;

  start_tile_copy<D>(stage_base, stage_base + BC * LD, Kb, Vb, 0, d.kv_seq);
  for (std::int64_t tile = 0; tile < tiles; ++tile) {
    const std::int64_t j0 = tile * BC;
    const bf16* Ks = stage_base + (tile & 1) * 2 * BC * LD;
    const bf16* Vs = Ks + BC * LD;
    if (tile + 1 < tiles) {
      bf16* next = stage_base + ((tile + 1) & 1) * 2 * BC * LD;
      start_tile_copy<D>(next, next + BC * LD, Kb, Vb, j0 + BC, d.kv_seq);
      wb::cp_async_wait<1>();  // this thread's copies of this tile have landed; the next tile's fly on
    } else {
      wb::cp_async_wait<0>();
    }
    __syncthreads();  // ... and every thread's: the tile is whole

    // S = Q K^T for the warp's 16 rows and the tile's 64 keys: B[k][n] = K[n][k], K's rows as
    // they lie in shared memory (ldmatrix without .trans).
    mma::frag_c s[KEY_TILES];
#pragma unroll
    for (int nt = 0; nt < KEY_TILES; ++nt) s[nt] = mma::zero_c();
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {
#pragma unroll
      for (int nt = 0; nt < KEY_TILES; ++nt) {
        mma::frag_b b;
        mma::load_b_ldmatrix(b, Ks + 8 * nt * LD + 16 * kk, LD);
        mma::mma_m16n8k16_bf16(s[nt], q[kk], b, s[nt]);
      }
    }
    // Scale, and mask the keys a row does not see (only in tiles past whole_end).
    const bool masked = j0 + BC > whole_end;
#pragma unroll
    for (int nt = 0; nt < KEY_TILES; ++nt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        s[nt].x[e] *= scale;
        if (masked && j0 + 8 * nt + 2 * t + (e & 1) >= end[e >> 1]) s[nt].x[e] = -INFINITY;
      }
    }
    // One online-softmax step per row, on the accumulators: element e of s[nt] is row e / 2.
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      float tile_max = -INFINITY;
#pragma unroll
      for (int nt = 0; nt < KEY_TILES; ++nt) tile_max = fmaxf(tile_max, fmaxf(s[nt].x[2 * r], s[nt].x[2 * r + 1]));
      // AT4: the row's 64 scores lie in the 4 lanes of the quad; each lane's max is not the row's.
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 1));
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, 2));
      const float m_new = fmaxf(m[r], tile_max);
      const float base = m_new == -INFINITY ? 0.0f : m_new;  // a row that has seen no key yet
      const float alpha = expf(m[r] - base);                   // AT2, as in stages 2 and 3
      float sum = 0.0f;
#pragma unroll
      for (int nt = 0; nt < KEY_TILES; ++nt) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const float p = expf(s[nt].x[2 * r + h] - base);
          s[nt].x[2 * r + h] = p;
          sum += p;
        }
      }
      l[r] = l[r] * alpha + sum;
#pragma unroll
      for (int ot = 0; ot < OUT_TILES; ++ot) {
        o[ot].x[2 * r] *= alpha;
        o[ot].x[2 * r + 1] *= alpha;
      }
      m[r] = m_new;
    }
    // O += P V: the accumulators of keys 16 kc .. 16 kc + 15, rounded to bf16, are the A
    // fragment (no trip through shared memory); B[k][n] = V[k][n], V's rows transposed on the
    // way by ldmatrix.trans.
#pragma unroll
    for (int kc = 0; kc < BC / 16; ++kc) {
      const mma::frag_a p = mma::a_from_accumulators(s[2 * kc], s[2 * kc + 1]);
#pragma unroll
      for (int ot = 0; ot < OUT_TILES; ++ot) {
        mma::frag_b b;
        mma::load_b_from_rows_ldmatrix(b, Vs + 16 * kc * LD + 8 * ot, LD);
        mma::mma_m16n8k16_bf16(o[ot], p, b, o[ot]);
      }
    }
    __syncthreads();  // every warp is done with this stage before the copy of tile + 2 overwrites it
  }

  // The row's sum is the quad's four parts; O = acc / l, once (FlashAttention-2).
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
    l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    const std::int64_t i = iw + mma::c_row(lane, 2 * r);
    if (i >= d.seq) continue;
    float* out = O + (bh * d.seq + i) * D;
#pragma unroll
    for (int ot = 0; ot < OUT_TILES; ++ot) {
      out[8 * ot + 2 * t] = o[ot].x[2 * r] / l[r];
      out[8 * ot + 2 * t + 1] = o[ot].x[2 * r + 1] / l[r];
    }
  }
}

void attention_tensor_core(const problem<bf16>& p) {
  validate_tensor_core(p);
  const dims& d = p.d;
  if (query_rows(d) == 0) return;
  const std::int64_t query_tiles = wb::ceil_div(d.seq, shape::BR);
  const unsigned blocks = grid_of(d.batch * d.heads * query_tiles, "stage 4");
  with_tensor_core_dim(d.dim, [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    wb::launch({dim3(blocks), dim3(shape::THREADS), shape::shared_bytes(D)}, tensor_core_kernel<D>, p.Q, p.K, p.V,
               p.O, d, softmax_scale(d.dim), query_tiles);
  });
}

}  // namespace attention::WB_TRACK
