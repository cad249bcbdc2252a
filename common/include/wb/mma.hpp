// The warp-level tensor-core instruction with a documented register layout, on both backends:
//
//   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32   d, a, b, c;   // D = A * B + C
//
// A is 16x16 (m x k), B is 16x8 (k x n), C and D are 16x8 float. Unlike WMMA (wb/wmma.hpp),
// whose fragments are opaque, PTX states which lane holds which element, so a kernel may work
// on the fragments in registers: FlashAttention-2 takes the row maxima and sums of S = Q K^T
// from its accumulators and feeds the probabilities P, still in registers, to P V as the A
// operand (a_from_accumulators below). On the cuda backend this is inline PTX (sm_80 and
// later); on the cpu backend a warp collective of the fiber emulator (wb/cpu/mma.hpp).
//
// The layouts, from the PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"
// (bf16: each .b32 register holds two elements, the lower-indexed one in the low 16 bits):
//
//   groupID = laneid / 4, threadID_in_group = laneid % 4           (g and t below)
//
//   A, 16x16, a0..a7 in registers x[0..3] (x[i/2], half i%2):
//     row = g      for a0, a1, a4, a5        g + 8 for a2, a3, a6, a7
//     col = 2t + (i & 1)  for i < 4          2t + (i & 1) + 8 for i >= 4
//     so x[0] = A[g][2t..2t+1], x[1] = A[g+8][2t..], x[2] = A[g][2t+8..], x[3] = A[g+8][2t+8..]
//   B, 16x8, b0..b3 in registers x[0..1]:
//     row (k) = 2t + (i & 1)  for i < 2      2t + (i & 1) + 8 for i >= 2
//     col (n) = g
//     so x[0] = B[2t..2t+1][g], x[1] = B[2t+8..2t+9][g]: a register holds two k of one column
//   C and D, 16x8 float, c0..c3 in x[0..3]:
//     row = g  for c0, c1                    g + 8 for c2, c3
//     col = 2t + (i & 1)
//
// So a row of C is spread over the four lanes of one group (lanes 4g..4g+3), each holding two
// adjacent columns: a row reduction is two __shfl_xor_sync steps (offsets 1 and 2).
//
// What this header gives, in namespace wb::mma:
//   frag_a, frag_b, frag_c                         the registers of one lane
//   a_row/a_col, b_row/b_col, c_row/c_col          the formulas above, for element i of a lane
//   mma_m16n8k16_bf16(d, a, b, c)                  the instruction; d may be c
//   load_a(a, tile, ld)                            A from a row-major 16x16 tile: A[m][k] at tile[m*ld + k]
//   load_b(b, tile, ld)                            B from B^T row-major (K's rows): B[k][n] at tile[n*ld + k]
//   load_b_from_rows(b, tile, ld)                  B row-major (V's rows): B[k][n] at tile[k*ld + n]
//   load_c(c, tile, ld), store_c(c, tile, ld)      C/D from and to a row-major 16x8 float tile
//   ldmatrix<N>(r, row), ldmatrix_trans<N>(r, row) ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16
//   load_a_ldmatrix, load_b_ldmatrix, load_b_from_rows_ldmatrix   the three loads, from shared memory
//   pack_bf16x2(lo, hi), low_half(x), high_half(x) bf16 pairs in a register (round to nearest even)
//   a_from_accumulators(c_lo, c_hi)                two 16x8 accumulators (columns n0..n0+7 and
//                                                  n0+8..n0+15) as one A fragment, k = those 16 columns
//
// Rules the hardware sets, checked on the cpu backend (a violation is a kernel fault naming the
// line): mma.sync and ldmatrix are reached by all 32 lanes of the warp, at the same instruction
// (.aligned); load_a and load_b read pairs as 32-bit words, so the tile must be 4-byte aligned
// and ld even; every row address of ldmatrix is 16-byte aligned. (On a GPU ldmatrix also needs
// shared memory; the cpu backend cannot tell shared from global memory.) Not checked: the
// arithmetic of the tensor cores themselves. The emulation multiplies the bf16 inputs exactly
// (every product of two bf16 values is a float) and adds the products to c one by one in k
// order, in float; the hardware adds in an order and with a rounding of its own. Results agree
// bit for bit whenever the sums are exact in float (the tests use such inputs); otherwise the
// last bits of a sum may differ.
#pragma once

#include <cstdint>
#include <cstring>

#include "wb/bf16.hpp"

#if !defined(WB_BACKEND_CUDA)
#include <source_location>

#include "wb/cpu/emulation.hpp"
#endif

namespace wb::mma {

// The call's source line, for the cpu backend's fault messages; nothing on the cuda backend.
#if defined(WB_BACKEND_CUDA)
struct call_site {
  __host__ __device__ static constexpr call_site current() { return {}; }
};
#else
using call_site = std::source_location;
#endif

// --- Fragments: one lane's registers --------------------------------------------------------

struct frag_a {
  std::uint32_t x[4];  // 8 bf16 of A (16x16), two per register
};
struct frag_b {
  std::uint32_t x[2];  // 4 bf16 of B (16x8), two per register
};
struct frag_c {
  float x[4];  // 4 floats of C or D (16x8)
};

// --- The layouts: element i of lane `lane` (formulas of the PTX ISA, see above) -------------

__host__ __device__ constexpr int group_id(int lane) { return lane >> 2; }
__host__ __device__ constexpr int thread_in_group(int lane) { return lane & 3; }

// A: i = 0..7, in register i / 2, half i % 2.
__host__ __device__ constexpr int a_row(int lane, int i) { return group_id(lane) + 8 * ((i >> 1) & 1); }
__host__ __device__ constexpr int a_col(int lane, int i) { return 2 * thread_in_group(lane) + (i & 1) + 8 * (i >> 2); }
// B: i = 0..3, in register i / 2, half i % 2; row is k, column is n.
__host__ __device__ constexpr int b_row(int lane, int i) { return 2 * thread_in_group(lane) + (i & 1) + 8 * (i >> 1); }
__host__ __device__ constexpr int b_col(int lane, int /*i*/) { return group_id(lane); }
// C and D: i = 0..3.
__host__ __device__ constexpr int c_row(int lane, int i) { return group_id(lane) + 8 * (i >> 1); }
__host__ __device__ constexpr int c_col(int lane, int i) { return 2 * thread_in_group(lane) + (i & 1); }

// --- bf16 pairs in a 32-bit register ---------------------------------------------------------

__host__ __device__ inline std::uint16_t bits_of(bf16 value) {
  std::uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
__host__ __device__ inline std::uint32_t pack(bf16 lo, bf16 hi) {
  return static_cast<std::uint32_t>(bits_of(lo)) | (static_cast<std::uint32_t>(bits_of(hi)) << 16);
}
// Two floats rounded to bf16 (to nearest, ties to even), `lo` in the low 16 bits: the element
// with the smaller index, as the hardware reads a .bf16x2 register.
__host__ __device__ inline std::uint32_t pack_bf16x2(float lo, float hi) { return pack(to_bf16(lo), to_bf16(hi)); }
__host__ __device__ inline float low_half(std::uint32_t pair) {
  const std::uint32_t bits = pair << 16;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
__host__ __device__ inline float high_half(std::uint32_t pair) {
  const std::uint32_t bits = pair & 0xFFFF0000u;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

// The register reuse of FlashAttention-2: the accumulators of S[:, n0..n0+7] (`cols_lo`) and
// S[:, n0+8..n0+15] (`cols_hi`), rounded to bf16, become the A operand of the next product,
// whose k runs over those 16 columns. No data moves between lanes, because the layouts line
// up: lane (g, t) holds
//   in an accumulator:  c0, c1 = C[g][2t], C[g][2t+1]        c2, c3 = C[g+8][2t], C[g+8][2t+1]
//   in an A fragment:   x[0] = A[g][2t..2t+1]    x[1] = A[g+8][2t..2t+1]     (k = 0..7)
//                       x[2] = A[g][2t+8..2t+9]  x[3] = A[g+8][2t+8..2t+9]   (k = 8..15)
// With A[m][k] = S[m][n0 + k], the k = 0..7 half of A is the first accumulator's tile and the
// k = 8..15 half the second's, and in both the lane holds the same rows and the same two
// adjacent columns. So x[0] = (c0, c1) and x[1] = (c2, c3) of cols_lo, x[2] and x[3] the same of
// cols_hi. (The B operand has another layout, a column of k per register: only A can be fed
// this way, which is why FlashAttention-2 computes P V with P as A.)
__host__ __device__ inline frag_a a_from_accumulators(const frag_c& cols_lo, const frag_c& cols_hi) {
  frag_a a;
  a.x[0] = pack_bf16x2(cols_lo.x[0], cols_lo.x[1]);
  a.x[1] = pack_bf16x2(cols_lo.x[2], cols_lo.x[3]);
  a.x[2] = pack_bf16x2(cols_hi.x[0], cols_hi.x[1]);
  a.x[3] = pack_bf16x2(cols_hi.x[2], cols_hi.x[3]);
  return a;
}

// The calling thread's lane in its warp.
__device__ inline int lane_id() {
#if defined(WB_BACKEND_CUDA)
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return static_cast<int>(lane);
#else
  return static_cast<int>((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32);
#endif
}

}  // namespace wb::mma

#if !defined(WB_BACKEND_CUDA)
#include "wb/cpu/mma.hpp"  // the emulated collectives, on the types above
#endif

namespace wb::mma {

namespace detail {

// Two adjacent bf16 (p[0] in the low half) as one 32-bit load, as a GPU kernel would.
__device__ inline std::uint32_t load_pair(const bf16* p) {
#if defined(WB_BACKEND_CUDA)
  return *reinterpret_cast<const std::uint32_t*>(p);
#else
  return pack(p[0], p[1]);
#endif
}

}  // namespace detail

// --- The instruction -----------------------------------------------------------------------

// d = a * b + c for the warp's 16x8 tile; d may be c. All 32 lanes, converged.
__device__ inline void mma_m16n8k16_bf16(frag_c& d, const frag_a& a, const frag_b& b, const frag_c& c,
                                         call_site site = call_site::current()) {
#if defined(WB_BACKEND_CUDA)
  (void)site;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
      : "=f"(d.x[0]), "=f"(d.x[1]), "=f"(d.x[2]), "=f"(d.x[3])
      : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]), "f"(c.x[0]), "f"(c.x[1]),
        "f"(c.x[2]), "f"(c.x[3]));
#elif defined(__CUDA_ARCH__)
  __trap();  // bf16 mma.sync needs sm_80 or later
#endif
#else
  emulation::mma_m16n8k16(d.x, a.x, b.x, c.x, site);
#endif
}

// --- ldmatrix: 1, 2 or 4 8x8 matrices of b16 from shared memory -----------------------------
//
// Lane l gives the start of one row (8 consecutive bf16, 16 bytes, 16-byte aligned): lanes
// 0-7 the rows of matrix 0, lanes 8-15 those of matrix 1, and so on (for Count < 4 the other
// lanes' addresses are not used). Register r[m] of lane l receives, of matrix m,
//   ldmatrix:        row l/4, columns 2*(l%4) and 2*(l%4)+1   (the layout of C, of A's quarters)
//   ldmatrix_trans:  column l/4, rows 2*(l%4) and 2*(l%4)+1   (of B's halves from B's rows)
// the lower-indexed element in the low half.
template <int Count>
__device__ inline void ldmatrix(std::uint32_t (&r)[Count], const bf16* row, call_site site = call_site::current()) {
  static_assert(Count == 1 || Count == 2 || Count == 4, "ldmatrix loads 1, 2 or 4 matrices");
#if defined(WB_BACKEND_CUDA)
  (void)site;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  if constexpr (Count == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(address) : "memory");
  } else if constexpr (Count == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(address) : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address) : "memory");
  }
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
#else
  emulation::ldmatrix<Count>(r, row, false, site);
#endif
}

template <int Count>
__device__ inline void ldmatrix_trans(std::uint32_t (&r)[Count], const bf16* row,
                                      call_site site = call_site::current()) {
  static_assert(Count == 1 || Count == 2 || Count == 4, "ldmatrix loads 1, 2 or 4 matrices");
#if defined(WB_BACKEND_CUDA)
  (void)site;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  if constexpr (Count == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(address) : "memory");
  } else if constexpr (Count == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(address) : "memory");
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address) : "memory");
  }
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
#else
  emulation::ldmatrix<Count>(r, row, true, site);
#endif
}

// --- Loads and stores in the documented layouts (plain per-lane loads) ----------------------

// A from a row-major 16x16 tile: A[m][k] at tile[m * ld + k]. Pairs are read as 32-bit words:
// tile 4-byte aligned, ld even.
__device__ inline void load_a(frag_a& a, const bf16* tile, int ld, call_site site = call_site::current()) {
#if !defined(WB_BACKEND_CUDA)
  emulation::check_pairs("load_a", tile, ld, site);
#else
  (void)site;
#endif
  const int lane = lane_id();
  for (int r = 0; r < 4; ++r) {  // register r holds elements 2r, 2r+1: one row, two adjacent columns
    a.x[r] = detail::load_pair(tile + a_row(lane, 2 * r) * ld + a_col(lane, 2 * r));
  }
}

// B (16x8) stored column by column, i.e. B^T row-major: B[k][n] at tile[n * ld + k]. This is
// K's rows for S = Q K^T (B = K^T): n indexes K's rows, k the head dimension. Pairs are read
// as 32-bit words: tile 4-byte aligned, ld even.
__device__ inline void load_b(frag_b& b, const bf16* tile, int ld, call_site site = call_site::current()) {
#if !defined(WB_BACKEND_CUDA)
  emulation::check_pairs("load_b", tile, ld, site);
#else
  (void)site;
#endif
  const int lane = lane_id();
  for (int r = 0; r < 2; ++r) {  // register r: two adjacent k of column n
    b.x[r] = detail::load_pair(tile + b_col(lane, 2 * r) * ld + b_row(lane, 2 * r));
  }
}

// B (16x8) stored row-major: B[k][n] at tile[k * ld + n], as V is for O = P V. A register's
// two elements lie in two rows, so they are two 16-bit loads (ldmatrix_trans does it in one).
__device__ inline void load_b_from_rows(frag_b& b, const bf16* tile, int ld) {
  const int lane = lane_id();
  for (int r = 0; r < 2; ++r) {
    const int k = b_row(lane, 2 * r), n = b_col(lane, 2 * r);
    b.x[r] = pack(tile[k * ld + n], tile[(k + 1) * ld + n]);
  }
}

// C/D from and to a row-major 16x8 float tile: C[m][n] at tile[m * ld + n].
__device__ inline void load_c(frag_c& c, const float* tile, int ld) {
  const int lane = lane_id();
  for (int i = 0; i < 4; ++i) c.x[i] = tile[c_row(lane, i) * ld + c_col(lane, i)];
}
__device__ inline void store_c(const frag_c& c, float* tile, int ld) {
  const int lane = lane_id();
  for (int i = 0; i < 4; ++i) tile[c_row(lane, i) * ld + c_col(lane, i)] = c.x[i];
}

__host__ __device__ inline frag_c zero_c() { return frag_c{{0.0f, 0.0f, 0.0f, 0.0f}}; }

// --- The same loads with ldmatrix (tiles in shared memory; rows 16-byte aligned) ------------

// A's four registers are four 8x8 quarters: x[0] rows 0-7 / k 0-7, x[1] rows 8-15 / k 0-7,
// x[2] rows 0-7 / k 8-15, x[3] rows 8-15 / k 8-15. Lane l names row l % 8 of quarter l / 8.
__device__ inline void load_a_ldmatrix(frag_a& a, const bf16* tile, int ld, call_site site = call_site::current()) {
  const int lane = lane_id(), quarter = lane / 8;
  ldmatrix<4>(a.x, tile + (lane % 8 + 8 * (quarter & 1)) * ld + 8 * (quarter >> 1), site);
}
// B from B^T's rows (K's rows, B[k][n] at tile[n * ld + k]): x[0] is k 0-7, x[1] k 8-15, each
// an 8x8 matrix whose rows are n. Lanes 0-15 name the rows.
__device__ inline void load_b_ldmatrix(frag_b& b, const bf16* tile, int ld, call_site site = call_site::current()) {
  const int lane = lane_id() % 16;
  ldmatrix<2>(b.x, tile + (lane % 8) * ld + 8 * (lane / 8), site);
}
// B from its own rows (V's rows, B[k][n] at tile[k * ld + n]), transposed on the way: lane l
// (0-15) names row k = l.
__device__ inline void load_b_from_rows_ldmatrix(frag_b& b, const bf16* tile, int ld,
                                                 call_site site = call_site::current()) {
  const int lane = lane_id() % 16;
  ldmatrix_trans<2>(b.x, tile + lane * ld, site);
}

}  // namespace wb::mma
