// Checks of the tensor-core and asynchronous-copy pieces kernels use (wb/bf16.hpp,
// wb/wmma.hpp, wb/async_copy.hpp). The expectations come from the CUDA Programming Guide
// (WMMA, asynchronous copies) and IEEE rounding, not from the emulator's code; the same cases
// run on both backends (a GPU confirms them, the cpu backend checks the emulator against
// them). The emulator's own error reports are checked on the cpu backend only.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "wb/async_copy.hpp"
#include "wb/bf16.hpp"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/race_check.hpp"
#include "wb/testing.hpp"
#include "wb/wmma.hpp"

namespace {

namespace wmma = nvcuda::wmma;

// --- bfloat16 rounding ----------------------------------------------------------------------

// Round to nearest, ties to even, on the float's bits (an independent statement of the rule).
std::uint16_t rne_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const std::uint32_t upper = bits >> 16, lower = bits & 0xFFFFu;
  if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u))) return static_cast<std::uint16_t>(upper + 1);
  return static_cast<std::uint16_t>(upper);
}

__global__ void to_bf16_on_device(const float* in, std::uint16_t* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    const wb::bf16 b = wb::to_bf16(in[i]);
    std::uint16_t bits;
    std::memcpy(&bits, &b, 2);
    out[i] = bits;
  }
}

// --- WMMA ------------------------------------------------------------------------------------

// One warp per 16x16 tile of C = A (16 x K, row-major) * B (K x 16, row- or column-major):
// warp w computes C tile w from A tile w (A and C hold one tile per warp, stacked by rows).
template <class LayoutB>
__global__ void wmma_tiles(const wb::bf16* A, const wb::bf16* B, float* C, int K, bool accumulate_in_c) {
  const int warp = static_cast<int>(threadIdx.x / 32);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wb::bf16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, wb::bf16, LayoutB> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  float* C_tile = C + warp * 16 * 16;
  if (accumulate_in_c) {
    wmma::load_matrix_sync(c, C_tile, 16, wmma::mem_row_major);
  } else {
    wmma::fill_fragment(c, 0.0f);
  }
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + warp * 16 * K + k, static_cast<unsigned>(K));
    if constexpr (std::is_same_v<LayoutB, wmma::row_major>) {
      wmma::load_matrix_sync(b, B + k * 16, 16);  // row-major K x 16: row k starts at k * 16
    } else {
      wmma::load_matrix_sync(b, B + k, static_cast<unsigned>(K));  // column-major: column j at j * K
    }
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C_tile, c, 16, wmma::mem_row_major);
}

// Stores a fragment column-major and reads it back row-major: the two views agree.
__global__ void wmma_store_column_major(const float* in, float* out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, in, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(out, c, 16, wmma::mem_col_major);
}

#if defined(WB_BACKEND_CPU)
__global__ void wmma_misaligned(const wb::bf16* A) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wb::bf16, wmma::row_major> a;
  wmma::load_matrix_sync(a, A + 8, 16);  // 16 bytes past a 32-byte boundary
}

__global__ void wmma_half_warp(const wb::bf16* A) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wb::bf16, wmma::row_major> a;
  if (threadIdx.x < 16) wmma::load_matrix_sync(a, A, 16);  // only half the warp: not allowed
}
#endif

// --- cp.async --------------------------------------------------------------------------------

// Thread t copies 16 bytes of `in` to shared memory with t % 17 bytes from global memory (the
// rest zero-filled), waits, and after a barrier thread t writes out what thread (t+1) % n
// copied (visible to others only after wait + barrier).
__global__ void async_copies(const unsigned char* in, unsigned char* out) {
  unsigned char* staged = wb::dynamic_shared<unsigned char>();
  const unsigned t = threadIdx.x;
  wb::cp_async_16(staged + 16 * t, in + 16 * t, static_cast<int>(t % 17));
  wb::cp_async_commit();
  wb::cp_async_wait<0>();
  __syncthreads();
  const unsigned from = (t + 1) % blockDim.x;
  for (int i = 0; i < 16; ++i) out[16 * t + i] = staged[16 * from + i];
}

#if defined(WB_BACKEND_CPU)
// Two copies in two groups; each thread reads its own destination bytes before any wait, after
// cp.async.wait_group 1 and after wait_group 0 (the cpu backend's model: poison until the
// group is waited for).
__global__ void async_copy_groups(const unsigned char* in, unsigned char* seen) {
  unsigned char* staged = wb::dynamic_shared<unsigned char>();
  wb::cp_async_16(staged, in);
  wb::cp_async_commit();
  wb::cp_async_16(staged + 16, in + 16);
  wb::cp_async_commit();
  for (int i = 0; i < 32; ++i) seen[i] = staged[i];
  wb::cp_async_wait<1>();
  for (int i = 0; i < 32; ++i) seen[32 + i] = staged[i];
  wb::cp_async_wait<0>();
  for (int i = 0; i < 32; ++i) seen[64 + i] = staged[i];
}
// Thread 1 reads thread 0's copy after thread 0's wait but with no barrier between them.
__global__ void async_copy_no_barrier(const unsigned char* in, unsigned char* out) {
  unsigned char* staged = wb::dynamic_shared<unsigned char>();
  if (threadIdx.x == 0) {
    wb::cp_async_16(staged, in);
    wb::cp_async_commit();
    wb::cp_async_wait<0>();
  } else {
    out[0] = staged[0];
  }
}
#endif

std::vector<wb::bf16> small_integers_bf16(std::size_t count, std::uint64_t seed) {
  wb::gen::rng r(seed);
  std::vector<wb::bf16> out(count);
  for (auto& v : out) v = wb::to_bf16(static_cast<float>(static_cast<int>(r.next() % 7) - 3));
  return out;
}

}  // namespace

TEST_SUITE("tensor cores and async copies") {
  TEST_CASE("bfloat16: round to nearest, ties to even; NaN and infinities kept") {
    CHECK(wb::to_float(wb::to_bf16(1.0f)) == 1.0f);
    CHECK(wb::to_float(wb::to_bf16(1.0f + 0x1p-8f)) == 1.0f);                 // tie: to the even 1.0
    CHECK(wb::to_float(wb::to_bf16(1.0f + 3 * 0x1p-8f)) == 1.0f + 0x1p-6f);   // tie: to the even 1 + 2^-6
    CHECK(wb::to_float(wb::to_bf16(1.0f + 0x1p-8f + 0x1p-20f)) == 1.0f + 0x1p-7f);  // past the tie: up
    CHECK(wb::to_float(wb::to_bf16(-2.5f)) == -2.5f);
    CHECK(std::isnan(wb::to_float(wb::to_bf16(std::numeric_limits<float>::quiet_NaN()))));
    CHECK(wb::to_float(wb::to_bf16(std::numeric_limits<float>::infinity())) == std::numeric_limits<float>::infinity());
    CHECK(wb::to_float(wb::to_bf16(std::numeric_limits<float>::max())) == std::numeric_limits<float>::infinity());
    CHECK(wb::to_float(wb::to_bf16(-0.0f)) == 0.0f);
    CHECK(std::signbit(wb::to_float(wb::to_bf16(-0.0f))));
    // every integer up to 256 is exact; 257 is a tie between 256 and 258: to the even 256
    for (int i = -256; i <= 256; ++i) REQUIRE(wb::to_float(wb::to_bf16(static_cast<float>(i))) == static_cast<float>(i));
    CHECK(wb::to_float(wb::to_bf16(257.0f)) == 256.0f);
    CHECK(wb::to_float(wb::to_bf16(259.0f)) == 260.0f);
  }

  TEST_CASE("bfloat16: the host and the kernels round every float alike") {
    wb::gen::rng r(wb::testing::seed(901));
    std::vector<float> in(4096);
    for (auto& v : in) {
      std::uint32_t bits = static_cast<std::uint32_t>(r.next());
      std::memcpy(&v, &bits, 4);
      if (std::isnan(v)) v = 1.0f;
    }
    in[0] = 1.0f + 0x1p-8f;
    in[1] = 1.0f + 3 * 0x1p-8f;
    wb::device_buffer<float> d_in(in);
    wb::device_buffer<std::uint16_t> d_out(in.size());
    wb::launch({dim3(16), dim3(256)}, to_bf16_on_device, d_in.data(), d_out.data(), static_cast<int>(in.size()));
    const auto device_bits = d_out.to_host();
    for (std::size_t i = 0; i < in.size(); ++i) {
      CAPTURE(in[i]);
      REQUIRE(wb::bf16_bits(wb::to_bf16(in[i])) == rne_bits(in[i]));
      REQUIRE(device_bits[i] == rne_bits(in[i]));
    }
  }

  TEST_CASE("WMMA: 16x16 tiles of small-integer products are exact, B row- or column-major, four warps") {
    for (const int K : {16, 48}) {
      const int warps = 4;
      const auto A = small_integers_bf16(static_cast<std::size_t>(warps * 16 * K), wb::testing::seed(902));
      const auto B = small_integers_bf16(static_cast<std::size_t>(K * 16), wb::testing::seed(903));
      std::vector<float> C0(static_cast<std::size_t>(warps * 256));
      for (std::size_t i = 0; i < C0.size(); ++i) C0[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
      for (const bool column_major : {false, true}) {
        for (const bool accumulate : {false, true}) {
          // B as stored: row-major K x 16, or its transpose (column-major) for col_major fragments
          std::vector<wb::bf16> B_stored(B.size());
          for (int k = 0; k < K; ++k)
            for (int j = 0; j < 16; ++j) B_stored[column_major ? j * K + k : k * 16 + j] = B[k * 16 + j];
          wb::device_buffer<wb::bf16> d_A(A), d_B(B_stored);
          wb::device_buffer<float> d_C(C0);
          if (column_major) {
            wb::launch({dim3(1), dim3(32 * warps)}, wmma_tiles<wmma::col_major>, d_A.data(), d_B.data(), d_C.data(), K, accumulate);
          } else {
            wb::launch({dim3(1), dim3(32 * warps)}, wmma_tiles<wmma::row_major>, d_A.data(), d_B.data(), d_C.data(), K, accumulate);
          }
          const auto C = d_C.to_host();
          for (int w = 0; w < warps; ++w) {
            for (int i = 0; i < 16; ++i) {
              for (int j = 0; j < 16; ++j) {
                float expected = accumulate ? C0[static_cast<std::size_t>(w * 256 + i * 16 + j)] : 0.0f;
                for (int k = 0; k < K; ++k) {
                  expected += wb::to_float(A[static_cast<std::size_t>((w * 16 + i) * K + k)]) *
                              wb::to_float(B[static_cast<std::size_t>(k * 16 + j)]);
                }
                CAPTURE(K);
                CAPTURE(column_major);
                CAPTURE(accumulate);
                CAPTURE(w);
                CAPTURE(i);
                CAPTURE(j);
                REQUIRE(C[static_cast<std::size_t>(w * 256 + i * 16 + j)] == expected);
              }
            }
          }
        }
      }
    }
  }

  TEST_CASE("WMMA: an accumulator stored column-major is the transpose") {
    std::vector<float> in(256);
    for (int i = 0; i < 256; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
    wb::device_buffer<float> d_in(in), d_out(256);
    wb::launch({dim3(1), dim3(32)}, wmma_store_column_major, d_in.data(), d_out.data());
    const auto out = d_out.to_host();
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) REQUIRE(out[static_cast<std::size_t>(c * 16 + r)] == in[static_cast<std::size_t>(r * 16 + c)]);
  }

  TEST_CASE("cp.async: copies 16 bytes, zero-fills past the source bytes, visible after wait and barrier") {
    const int threads = 64;
    std::vector<unsigned char> in(16 * threads);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(1 + i % 251);
    wb::device_buffer<unsigned char> d_in(in), d_out(in.size());
    wb::launch({dim3(1), dim3(threads), 16 * threads}, async_copies, d_in.data(), d_out.data());
    const auto out = d_out.to_host();
    for (int t = 0; t < threads; ++t) {
      const int from = (t + 1) % threads;
      for (int i = 0; i < 16; ++i) {
        const unsigned char expected = i < from % 17 ? in[static_cast<std::size_t>(16 * from + i)] : 0;
        CAPTURE(t);
        CAPTURE(i);
        REQUIRE(out[static_cast<std::size_t>(16 * t + i)] == expected);
      }
    }
  }

#if defined(WB_BACKEND_CPU)
  TEST_CASE("cp.async on the cpu backend: poison until the group is waited for; unordered reads are races") {
    std::vector<unsigned char> in(32);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i + 1);
    wb::device_buffer<unsigned char> d_in(in), d_seen(96);
    wb::launch({dim3(1), dim3(1), 32}, async_copy_groups, d_in.data(), d_seen.data());
    const auto seen = d_seen.to_host();
    for (int i = 0; i < 32; ++i) {
      CAPTURE(i);
      CHECK(seen[static_cast<std::size_t>(i)] == 0xA5);                              // no wait yet
      CHECK(seen[static_cast<std::size_t>(32 + i)] == (i < 16 ? in[static_cast<std::size_t>(i)] : 0xA5));  // group 0 only
      CHECK(seen[static_cast<std::size_t>(64 + i)] == in[static_cast<std::size_t>(i)]);  // both
    }
    if (wb::testing::race_check_active()) {
      wb::device_buffer<unsigned char> d_out(1);
      CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(2), 16}, async_copy_no_barrier, d_in.data(), d_out.data()),
                           doctest::Contains("data race"), wb::cuda_error);
    }
  }

  TEST_CASE("WMMA on the cpu backend: misaligned pointers and partial warps are faults, not wrong results") {
    wb::device_buffer<wb::bf16> d_A(1024);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, wmma_misaligned, d_A.data()),
                         doctest::Contains("256-bit (32-byte) aligned"), wb::cuda_error);
    CHECK_THROWS_WITH_AS(wb::launch({dim3(1), dim3(32)}, wmma_half_warp, d_A.data()), doctest::Contains("lane"),
                         wb::cuda_error);
  }
#endif
}
