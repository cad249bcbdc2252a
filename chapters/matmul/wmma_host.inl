// Stage 5's host side, shared by both tracks.
// Included by: solutions/matmul/wmma.cu and exercises/matmul/wmma.cu, after the track's wmma.cuh.
// Launches: matmul_wmma_kernel (the track's wmma.cuh), one instantiation per shape.
// Here: the compiled shapes (variants.hpp) and when whole 16-byte copies are allowed.
#include <cstdint>

#include "variants.hpp"

namespace matmul::WB_TRACK {

namespace {

template <class S>
void launch_wmma(const bf16_problem& p) {
  const unsigned blocks = tile_blocks(p.M, p.N, S::BM, S::BN, "stage 5");
  // 16-byte chunks of a row are aligned when the rows are a multiple of 8 bf16 and the matrix is.
  const auto aligned16 = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  const bool async_a = p.K % 8 == 0 && aligned16(p.A);
  const bool async_b = p.N % 8 == 0 && aligned16(p.B);
  wb::launch({dim3(blocks), dim3(S::THREADS), S::SHARED_BYTES}, matmul_wmma_kernel<S>, p.A, p.B, p.C, p.M, p.N, p.K,
             wb::ceil_div(p.N, S::BN), async_a, async_b);
}

}  // namespace

void matmul_wmma(const bf16_problem& p, const config& cfg) {
  const int v = checked_variant(cfg.variant, static_cast<int>(wmma_variants.size()), "stage 5");
  if (p.M == 0 || p.N == 0) return;
  switch (v) {
    case 0:
      launch_wmma<wmma_256x128>(p);
      break;
    case 1:
      launch_wmma<wmma_128x128>(p);
      break;
    default:
      launch_wmma<wmma_shape<128, 128, 32, 2, 4, 2>>(p);
      break;
  }
}

}  // namespace matmul::WB_TRACK
