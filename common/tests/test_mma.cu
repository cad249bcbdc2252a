// Checks of wb/mma.hpp: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 with the fragment
// layouts of the PTX ISA ("Matrix Fragments for mma.m16n8k16 with floating point type"), the
// loads (plain and ldmatrix), and the register reuse of FlashAttention-2 (accumulators of one
// product as the A operand of the next). The expected layouts are written out below from the
// PTX ISA, not taken from the header; the same cases run on both backends (a GPU confirms them,
// the cpu backend checks the emulation against them). The inputs are multiples of 1/8 or 1/64
// with few bits, so every product and every sum is exact in float and the results are compared
// exactly with a reference in double. The emulator's fault reports are checked on the cpu
// backend only.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "wb/bf16.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/mma.hpp"
#include "wb/testing.hpp"

namespace {

namespace mma = wb::mma;

// --- Kernels (one warp unless said otherwise) ---------------------------------------------

// How a kernel spoils a correct fragment, to show that a wrong layout gives a wrong product.
enum spoil : int {
  spoil_none = 0,
  spoil_a_k_halves = 1,    // A's registers for k 0-7 and k 8-15 exchanged
  spoil_a_row_halves = 2,  // A's registers for rows 0-7 and rows 8-15 exchanged
};

// D = A * B + C for one 16x8x16 tile. A: 16x16 row-major (ld 16). B: with b_rows false,
// stored as B^T row-major (8 rows of 16, ld 16: K's rows); with b_rows true, row-major 16x8
// (ld 8: V's rows). C, D: 16x8 row-major.
__global__ void one_product(const wb::bf16* A, const wb::bf16* B, bool b_rows, const float* C, float* D, int how) {
  mma::frag_a a;
  mma::load_a(a, A, 16);
  if (how == spoil_a_k_halves) {
    std::swap(a.x[0], a.x[2]);
    std::swap(a.x[1], a.x[3]);
  } else if (how == spoil_a_row_halves) {
    std::swap(a.x[0], a.x[1]);
    std::swap(a.x[2], a.x[3]);
  }
  mma::frag_b b;
  if (b_rows) {
    mma::load_b_from_rows(b, B, 8);
  } else {
    mma::load_b(b, B, 16);
  }
  mma::frag_c c;
  mma::load_c(c, C, 8);
  mma::mma_m16n8k16_bf16(c, a, b, c);  // d = c: in place
  mma::store_c(c, D, 8);
}

// FlashAttention-2's two products: S = Q K^T as two 16x8 tiles (K's rows 0-7 and 8-15), S's
// accumulators turned into the A operand P (rounded to bf16) without leaving the registers,
// then O = P V with V row-major 16x8. Q: 16x16, K: 16x16 (row n of K is column n of B), both
// ld 16; V ld 8. S_out: 16x16, O: 16x8. With swap_halves the two accumulators are given in the
// wrong order.
__global__ void attention_chain(const wb::bf16* Q, const wb::bf16* K, const wb::bf16* V, float* S_out, float* O,
                                bool swap_halves) {
  mma::frag_a q;
  mma::load_a(q, Q, 16);
  mma::frag_b k_lo, k_hi;
  mma::load_b(k_lo, K, 16);           // n = 0..7
  mma::load_b(k_hi, K + 8 * 16, 16);  // n = 8..15
  mma::frag_c s_lo = mma::zero_c(), s_hi = mma::zero_c();
  mma::mma_m16n8k16_bf16(s_lo, q, k_lo, s_lo);
  mma::mma_m16n8k16_bf16(s_hi, q, k_hi, s_hi);
  mma::store_c(s_lo, S_out, 16);
  mma::store_c(s_hi, S_out + 8, 16);
  const mma::frag_a p = swap_halves ? mma::a_from_accumulators(s_hi, s_lo) : mma::a_from_accumulators(s_lo, s_hi);
  mma::frag_b v;
  mma::load_b_from_rows(v, V, 8);
  mma::frag_c o = mma::zero_c();
  mma::mma_m16n8k16_bf16(o, p, v, o);
  mma::store_c(o, O, 8);
}

// A K loop, one warp per 8 columns: D[:, 8w..8w+7] = C0[:, 8w..] + A (16 x K) * B, where B^T is
// stored row-major as Bt (16 x K: rows 8w..8w+7 for warp w). C0, D: 16x16 row-major.
__global__ void k_loop(const wb::bf16* A, const wb::bf16* Bt, const float* C0, float* D, int K) {
  const int warp = static_cast<int>(threadIdx.x / 32);
  mma::frag_c acc;
  mma::load_c(acc, C0 + 8 * warp, 16);
  for (int k0 = 0; k0 < K; k0 += 16) {
    mma::frag_a a;
    mma::frag_b b;
    mma::load_a(a, A + k0, K);
    mma::load_b(b, Bt + 8 * warp * K + k0, K);
    mma::mma_m16n8k16_bf16(acc, a, b, acc);
  }
  mma::store_c(acc, D + 8 * warp, 16);
}

// Every lane's registers after each load: words[lane * 24 + j], j = 0-3 load_a, 4-5 load_b,
// 6-7 load_b_from_rows, 8-11 load_a_ldmatrix, 12-13 load_b_ldmatrix, 14-15
// load_b_from_rows_ldmatrix, 16 ldmatrix<1> of A's rows 0-7 / columns 0-7, 17-20
// ldmatrix_trans<4> of A's four quarters (addresses as load_a_ldmatrix's). The tiles are staged in shared memory (ldmatrix reads only
// shared memory): A 16x16 (ld 16), Bt 8x16 (ld 16), B 16x8 (ld 8).
__global__ void fragment_words(const wb::bf16* A, const wb::bf16* Bt, const wb::bf16* B, std::uint32_t* words) {
  wb::bf16* staged = wb::dynamic_shared<wb::bf16>();
  wb::bf16* A_s = staged;
  wb::bf16* Bt_s = staged + 256;
  wb::bf16* B_s = staged + 384;
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) A_s[i] = A[i];
  for (unsigned i = threadIdx.x; i < 128; i += blockDim.x) {
    Bt_s[i] = Bt[i];
    B_s[i] = B[i];
  }
  __syncthreads();
  mma::frag_a a, a_ld;
  mma::frag_b b, b_rows, b_ld, b_rows_ld;
  mma::load_a(a, A_s, 16);
  mma::load_b(b, Bt_s, 16);
  mma::load_b_from_rows(b_rows, B_s, 8);
  mma::load_a_ldmatrix(a_ld, A_s, 16);
  mma::load_b_ldmatrix(b_ld, Bt_s, 16);
  mma::load_b_from_rows_ldmatrix(b_rows_ld, B_s, 8);
  std::uint32_t one[1], quarters_t[4];
  const int lane = mma::lane_id(), quarter = lane / 8;
  mma::ldmatrix<1>(one, A_s + (lane % 8) * 16);
  mma::ldmatrix_trans<4>(quarters_t, A_s + (lane % 8 + 8 * (quarter & 1)) * 16 + 8 * (quarter >> 1));
  std::uint32_t* out = words + lane * 24;
  for (int r = 0; r < 4; ++r) out[r] = a.x[r];
  for (int r = 0; r < 2; ++r) out[4 + r] = b.x[r];
  for (int r = 0; r < 2; ++r) out[6 + r] = b_rows.x[r];
  for (int r = 0; r < 4; ++r) out[8 + r] = a_ld.x[r];
  for (int r = 0; r < 2; ++r) out[12 + r] = b_ld.x[r];
  for (int r = 0; r < 2; ++r) out[14 + r] = b_rows_ld.x[r];
  out[16] = one[0];
  for (int r = 0; r < 4; ++r) out[17 + r] = quarters_t[r];
}

// Lane l's accumulator holds 100 l + i in c[i]; store_c writes it to a 16x8 tile.
__global__ void store_lane_numbers(float* D) {
  const int lane = mma::lane_id();
  mma::frag_c c;
  for (int i = 0; i < 4; ++i) c.x[i] = static_cast<float>(100 * lane + i);
  mma::store_c(c, D, 8);
}

__global__ void pack_pairs(const float* lo, const float* hi, std::uint32_t* packed, float* unpacked, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    packed[i] = mma::pack_bf16x2(lo[i], hi[i]);
    unpacked[2 * i] = mma::low_half(packed[i]);
    unpacked[2 * i + 1] = mma::high_half(packed[i]);
  }
}

#if defined(WB_BACKEND_CPU)
__global__ void mma_half_warp(const wb::bf16* A, float* D) {
  mma::frag_a a;
  mma::frag_b b;
  mma::load_a(a, A, 16);
  mma::load_b(b, A, 16);
  mma::frag_c c = mma::zero_c();
  if (threadIdx.x < 16) mma::mma_m16n8k16_bf16(c, a, b, c);  // half the warp: not allowed
  mma::store_c(c, D, 8);
}

__global__ void mma_two_sites(const wb::bf16* A, float* D) {
  mma::frag_a a;
  mma::frag_b b;
  mma::load_a(a, A, 16);
  mma::load_b(b, A, 16);
  mma::frag_c c = mma::zero_c();
  if (threadIdx.x < 16) {
    mma::mma_m16n8k16_bf16(c, a, b, c);
  } else {
    mma::mma_m16n8k16_bf16(c, a, b, c);  // the same operation, another instruction: not .aligned
  }
  mma::store_c(c, D, 8);
}

__global__ void ldmatrix_misaligned(const wb::bf16* A) {
  wb::bf16* staged = wb::dynamic_shared<wb::bf16>();
  for (unsigned i = threadIdx.x; i < 512; i += blockDim.x) staged[i] = A[i % 256];
  __syncthreads();
  mma::frag_a a;
  mma::load_a_ldmatrix(a, staged + 4, 16);  // rows start 8 bytes past a 16-byte boundary
}

__global__ void load_a_odd_ld(const wb::bf16* A) {
  mma::frag_a a;
  mma::load_a(a, A, 17);
}
#endif

// --- Host side -------------------------------------------------------------------------------

// Random multiples of 1/scale in [-bound/scale, bound/scale]: bf16-exact for bound <= 256.
std::vector<wb::bf16> random_bf16(std::size_t count, int bound, double scale, std::uint64_t seed) {
  wb::gen::rng r(seed);
  std::vector<wb::bf16> out(count);
  for (auto& v : out) {
    const int n = static_cast<int>(r.below(static_cast<std::uint64_t>(2 * bound + 1))) - bound;
    v = wb::to_bf16(static_cast<float>(n / scale));
  }
  return out;
}
std::vector<float> random_floats(std::size_t count, int bound, double scale, std::uint64_t seed) {
  wb::gen::rng r(seed);
  std::vector<float> out(count);
  for (auto& v : out) v = static_cast<float>((static_cast<int>(r.below(static_cast<std::uint64_t>(2 * bound + 1))) - bound) / scale);
  return out;
}

double value(const std::vector<wb::bf16>& m, std::size_t i) { return wb::to_float(m[i]); }

// C (rows x cols, row-major) + A (rows x K) * B, in double; B(k, n) given by a function.
template <class BAt>
std::vector<double> reference(int rows, int cols, int K, const std::vector<wb::bf16>& A, int lda, BAt b_at,
                              const std::vector<float>& C, int ldc) {
  std::vector<double> out(static_cast<std::size_t>(rows * cols));
  for (int m = 0; m < rows; ++m) {
    for (int n = 0; n < cols; ++n) {
      double sum = C.empty() ? 0.0 : C[static_cast<std::size_t>(m * ldc + n)];
      for (int k = 0; k < K; ++k) sum += value(A, static_cast<std::size_t>(m * lda + k)) * b_at(k, n);
      out[static_cast<std::size_t>(m * cols + n)] = sum;
    }
  }
  return out;
}

// The reference as floats (every value here is exact in float; checked).
std::vector<float> as_floats(const std::vector<double>& values) {
  std::vector<float> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    out[i] = static_cast<float>(values[i]);
    REQUIRE(static_cast<double>(out[i]) == values[i]);
  }
  return out;
}

std::uint32_t pair_bits(wb::bf16 lo, wb::bf16 hi) {
  return static_cast<std::uint32_t>(wb::bf16_bits(lo)) | (static_cast<std::uint32_t>(wb::bf16_bits(hi)) << 16);
}

std::vector<float> run_one_product(const std::vector<wb::bf16>& A, const std::vector<wb::bf16>& B, bool b_rows,
                                   const std::vector<float>& C, int how) {
  wb::device_buffer<wb::bf16> d_A(A), d_B(B);
  wb::device_buffer<float> d_C(C), d_D(C.size());
  wb::launch({dim3(1), dim3(32)}, one_product, d_A.data(), d_B.data(), b_rows, d_C.data(), d_D.data(), how);
  return d_D.to_host();
}

}  // namespace

TEST_SUITE("mma.sync m16n8k16 (wb/mma.hpp)") {
  TEST_CASE("fragment layouts: every lane's registers after each load are those the PTX ISA documents") {
    // Distinct, bf16-exact values: A[m][k] = 16 m + k, B[k][n] = 8 k + n (B^T stored as Bt).
    std::vector<wb::bf16> A(256), Bt(128), B(128);
    for (int m = 0; m < 16; ++m)
      for (int k = 0; k < 16; ++k) A[static_cast<std::size_t>(m * 16 + k)] = wb::to_bf16(static_cast<float>(16 * m + k));
    for (int k = 0; k < 16; ++k) {
      for (int n = 0; n < 8; ++n) {
        B[static_cast<std::size_t>(k * 8 + n)] = wb::to_bf16(static_cast<float>(8 * k + n));
        Bt[static_cast<std::size_t>(n * 16 + k)] = wb::to_bf16(static_cast<float>(8 * k + n));
      }
    }
    wb::device_buffer<wb::bf16> d_A(A), d_Bt(Bt), d_B(B);
    wb::device_buffer<std::uint32_t> d_words(32 * 24);
    wb::launch({dim3(1), dim3(32), 512 * sizeof(wb::bf16)}, fragment_words, d_A.data(), d_Bt.data(), d_B.data(),
               d_words.data());
    const auto words = d_words.to_host();
    const auto a_at = [&](int m, int k) { return A[static_cast<std::size_t>(m * 16 + k)]; };
    const auto b_at = [&](int k, int n) { return B[static_cast<std::size_t>(k * 8 + n)]; };
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;  // groupID, threadID_in_group
      // A: a0,a1 (row g, cols 2t, 2t+1), a2,a3 (row g+8), a4,a5 (row g, cols 2t+8, 2t+9), a6,a7 (row g+8, cols 2t+8..)
      const std::uint32_t a_expected[4] = {pair_bits(a_at(g, 2 * t), a_at(g, 2 * t + 1)),
                                           pair_bits(a_at(g + 8, 2 * t), a_at(g + 8, 2 * t + 1)),
                                           pair_bits(a_at(g, 2 * t + 8), a_at(g, 2 * t + 9)),
                                           pair_bits(a_at(g + 8, 2 * t + 8), a_at(g + 8, 2 * t + 9))};
      // B: b0,b1 (rows k = 2t, 2t+1, column n = g), b2,b3 (rows 2t+8, 2t+9)
      const std::uint32_t b_expected[2] = {pair_bits(b_at(2 * t, g), b_at(2 * t + 1, g)),
                                           pair_bits(b_at(2 * t + 8, g), b_at(2 * t + 9, g))};
      const std::uint32_t* got = &words[static_cast<std::size_t>(lane * 24)];
      CAPTURE(lane);
      for (int r = 0; r < 4; ++r) {
        CAPTURE(r);
        CHECK(got[r] == a_expected[r]);      // load_a
        CHECK(got[8 + r] == a_expected[r]);  // load_a_ldmatrix
      }
      for (int r = 0; r < 2; ++r) {
        CAPTURE(r);
        CHECK(got[4 + r] == b_expected[r]);   // load_b (from B^T's rows)
        CHECK(got[6 + r] == b_expected[r]);   // load_b_from_rows
        CHECK(got[12 + r] == b_expected[r]);  // load_b_ldmatrix
        CHECK(got[14 + r] == b_expected[r]);  // load_b_from_rows_ldmatrix
      }
      // ldmatrix: row g, columns 2t, 2t+1 of the 8x8 matrix; .trans: column g, rows 2t, 2t+1.
      CHECK(got[16] == pair_bits(a_at(g, 2 * t), a_at(g, 2 * t + 1)));
      for (int m = 0; m < 4; ++m) {
        CAPTURE(m);
        const int row0 = 8 * (m & 1), col0 = 8 * (m >> 1);  // quarter m of A
        CHECK(got[17 + m] == pair_bits(a_at(row0 + 2 * t, col0 + g), a_at(row0 + 2 * t + 1, col0 + g)));
      }
    }

    // C: c0,c1 at (row g, cols 2t, 2t+1), c2,c3 at (row g+8, same columns).
    wb::device_buffer<float> d_D(128);
    wb::launch({dim3(1), dim3(32)}, store_lane_numbers, d_D.data());
    const auto D = d_D.to_host();
    for (int lane = 0; lane < 32; ++lane) {
      const int g = lane / 4, t = lane % 4;
      CAPTURE(lane);
      CHECK(D[static_cast<std::size_t>(g * 8 + 2 * t)] == 100 * lane + 0);
      CHECK(D[static_cast<std::size_t>(g * 8 + 2 * t + 1)] == 100 * lane + 1);
      CHECK(D[static_cast<std::size_t>((g + 8) * 8 + 2 * t)] == 100 * lane + 2);
      CHECK(D[static_cast<std::size_t>((g + 8) * 8 + 2 * t + 1)] == 100 * lane + 3);
    }
  }

  TEST_CASE("pack_bf16x2: the low half is the first element, each rounded to nearest, ties to even") {
    std::vector<float> lo = {1.0f, 1.0f + 0x1p-8f, -2.5f, 1.0f + 3 * 0x1p-8f, 0.0f, 257.0f};
    std::vector<float> hi = {2.0f, -3.0f, 1.0f + 0x1p-8f + 0x1p-20f, 0.5f, -0.0f, 259.0f};
    wb::gen::rng r(wb::testing::seed(1601));
    for (int i = 0; i < 250; ++i) {
      for (auto* v : {&lo, &hi}) {
        std::uint32_t bits = static_cast<std::uint32_t>(r.next()) & 0xBFFFFFFFu;  // no NaN, no infinity
        float f;
        std::memcpy(&f, &bits, 4);
        v->push_back(f);
      }
    }
    const int n = static_cast<int>(lo.size());
    wb::device_buffer<float> d_lo(lo), d_hi(hi), d_unpacked(2 * lo.size());
    wb::device_buffer<std::uint32_t> d_packed(lo.size());
    wb::launch({dim3(wb::ceil_div(n, 128)), dim3(128)}, pack_pairs, d_lo.data(), d_hi.data(), d_packed.data(),
               d_unpacked.data(), n);
    const auto packed = d_packed.to_host();
    const auto unpacked = d_unpacked.to_host();
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      CAPTURE(lo[static_cast<std::size_t>(i)]);
      CAPTURE(hi[static_cast<std::size_t>(i)]);
      const wb::bf16 l = wb::to_bf16(lo[static_cast<std::size_t>(i)]), h = wb::to_bf16(hi[static_cast<std::size_t>(i)]);
      REQUIRE(packed[static_cast<std::size_t>(i)] == pair_bits(l, h));
      REQUIRE(unpacked[static_cast<std::size_t>(2 * i)] == wb::to_float(l));
      REQUIRE(unpacked[static_cast<std::size_t>(2 * i + 1)] == wb::to_float(h));
    }
    CHECK(packed[0] == 0x40003F80u);  // 2.0 in the high half, 1.0 in the low half
    CHECK(packed[1] == 0xC0403F80u);  // 1 + 2^-8 is a tie: to the even 1.0; -3.0 above
  }

  TEST_CASE("one 16x8x16 product, B from K's rows or from V's rows, C accumulated, exact") {
    for (int trial = 0; trial < 4; ++trial) {
      CAPTURE(trial);
      const auto A = random_bf16(256, 16, 8.0, wb::testing::seed(1610 + trial));  // multiples of 1/8 in [-2, 2]
      const auto B = random_bf16(128, 8, 8.0, wb::testing::seed(1620 + trial));   // B[k][n] at k * 8 + n
      const auto C = random_floats(128, 64, 64.0, wb::testing::seed(1630 + trial));
      std::vector<wb::bf16> Bt(128);
      for (int k = 0; k < 16; ++k)
        for (int n = 0; n < 8; ++n) Bt[static_cast<std::size_t>(n * 16 + k)] = B[static_cast<std::size_t>(k * 8 + n)];
      const auto b_at = [&](int k, int n) { return value(B, static_cast<std::size_t>(k * 8 + n)); };
      const auto expected = as_floats(reference(16, 8, 16, A, 16, b_at, C, 8));
      WB_CHECK_EQUAL_SEQ(expected, run_one_product(A, Bt, false, C, spoil_none));
      WB_CHECK_EQUAL_SEQ(expected, run_one_product(A, B, true, C, spoil_none));
    }
  }

  TEST_CASE("a wrong layout gives a wrong product: A's k halves or row halves exchanged") {
    const auto A = random_bf16(256, 16, 8.0, wb::testing::seed(1640));
    const auto B = random_bf16(128, 8, 8.0, wb::testing::seed(1641));
    const std::vector<float> C(128, 0.0f);
    const auto b_at = [&](int k, int n) { return value(B, static_cast<std::size_t>(k * 8 + n)); };
    const auto expected = as_floats(reference(16, 8, 16, A, 16, b_at, C, 8));
    REQUIRE(run_one_product(A, B, true, C, spoil_none) == expected);
    // The spoiled fragment is a fragment of another matrix, and the product is that matrix's.
    std::vector<wb::bf16> A_k_swapped(256), A_rows_swapped(256);
    for (int m = 0; m < 16; ++m) {
      for (int k = 0; k < 16; ++k) {
        A_k_swapped[static_cast<std::size_t>(m * 16 + k)] = A[static_cast<std::size_t>(m * 16 + (k + 8) % 16)];
        A_rows_swapped[static_cast<std::size_t>(m * 16 + k)] = A[static_cast<std::size_t>(((m + 8) % 16) * 16 + k)];
      }
    }
    const auto k_swapped = run_one_product(A, B, true, C, spoil_a_k_halves);
    const auto rows_swapped = run_one_product(A, B, true, C, spoil_a_row_halves);
    CHECK(k_swapped != expected);
    CHECK(rows_swapped != expected);
    WB_CHECK_EQUAL_SEQ(as_floats(reference(16, 8, 16, A_k_swapped, 16, b_at, C, 8)), k_swapped);
    WB_CHECK_EQUAL_SEQ(as_floats(reference(16, 8, 16, A_rows_swapped, 16, b_at, C, 8)), rows_swapped);
    // B read with the other loader (B^T's rows where B's rows are) is wrong too.
    CHECK(run_one_product(A, B, false, C, spoil_none) != expected);
  }

  TEST_CASE("FlashAttention-2's register reuse: S = Q K^T's accumulators become P's A fragment for O = P V") {
    for (int trial = 0; trial < 4; ++trial) {
      CAPTURE(trial);
      const auto Q = random_bf16(256, 16, 8.0, wb::testing::seed(1650 + trial));
      const auto K = random_bf16(256, 8, 8.0, wb::testing::seed(1660 + trial));  // K[n][k]: row n of K
      const auto V = random_bf16(128, 8, 8.0, wb::testing::seed(1670 + trial));  // V[k][n] at k * 8 + n
      wb::device_buffer<wb::bf16> d_Q(Q), d_K(K), d_V(V);
      wb::device_buffer<float> d_S(256), d_O(128);
      // S = Q K^T: B[k][n] = K[n][k]; S's entries are multiples of 1/64 of size at most 32 (exact).
      const auto s_expected = reference(16, 16, 16, Q, 16, [&](int k, int n) { return value(K, static_cast<std::size_t>(n * 16 + k)); },
                                        {}, 0);
      // P = S rounded to bf16 (to nearest, ties to even, as pack_bf16x2 does); O = P V (exact).
      std::vector<wb::bf16> P(256);
      for (std::size_t i = 0; i < 256; ++i) P[i] = wb::to_bf16(static_cast<float>(s_expected[i]));
      const auto o_expected =
          as_floats(reference(16, 8, 16, P, 16, [&](int k, int n) { return value(V, static_cast<std::size_t>(k * 8 + n)); }, {}, 0));
      wb::launch({dim3(1), dim3(32)}, attention_chain, d_Q.data(), d_K.data(), d_V.data(), d_S.data(), d_O.data(), false);
      WB_CHECK_EQUAL_SEQ(as_floats(s_expected), d_S.to_host());
      WB_CHECK_EQUAL_SEQ(o_expected, d_O.to_host());
      // The two accumulators in the wrong order: P's k halves exchanged, a wrong O.
      wb::launch({dim3(1), dim3(32)}, attention_chain, d_Q.data(), d_K.data(), d_V.data(), d_S.data(), d_O.data(), true);
      CHECK(d_O.to_host() != o_expected);
    }
  }

  TEST_CASE("a K loop: k16 steps accumulated in the fragment, two warps, C loaded first") {
    for (const int K : {16, 64, 128}) {
      CAPTURE(K);
      const auto A = random_bf16(static_cast<std::size_t>(16 * K), 16, 8.0, wb::testing::seed(1680));
      const auto Bt = random_bf16(static_cast<std::size_t>(16 * K), 8, 8.0, wb::testing::seed(1681));  // B[k][n] = Bt[n][k]
      const auto C0 = random_floats(256, 64, 64.0, wb::testing::seed(1682));
      wb::device_buffer<wb::bf16> d_A(A), d_Bt(Bt);
      wb::device_buffer<float> d_C0(C0), d_D(256);
      wb::launch({dim3(1), dim3(64)}, k_loop, d_A.data(), d_Bt.data(), d_C0.data(), d_D.data(), K);
      const auto expected = as_floats(reference(16, 16, K, A, K, [&](int k, int n) { return value(Bt, static_cast<std::size_t>(n * K + k)); },
                                                C0, 16));
      WB_CHECK_EQUAL_SEQ(expected, d_D.to_host());
    }
  }

#if defined(WB_BACKEND_CPU)
  TEST_CASE("mma.sync on the cpu backend: a missing lane, lanes at different instructions and misaligned operands are faults") {
    std::vector<wb::bf16> A(256, wb::to_bf16(1.0f));
    wb::device_buffer<wb::bf16> d_A(A);
    wb::device_buffer<float> d_D(128);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, mma_half_warp, d_A.data(), d_D.data()), doctest::Contains("lane"),
                         wb::cuda_error);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, mma_two_sites, d_A.data(), d_D.data()),
                         doctest::Contains("every lane of the warp must execute the same instruction"), wb::cuda_error);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32), 512 * sizeof(wb::bf16)}, ldmatrix_misaligned, d_A.data()),
                         doctest::Contains("16-byte aligned"), wb::cuda_error);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, load_a_odd_ld, d_A.data()), doctest::Contains("ld even"),
                         wb::cuda_error);
  }
#endif
}
