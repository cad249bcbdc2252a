// Stage 4's host side, shared by both tracks.
// Included by: solutions/matmul/fp32_ceiling.cu and exercises/matmul/fp32_ceiling.cu, after the
// track's fp32_ceiling.cuh.
// Launches: matmul_fp32_ceiling_kernel (the track's fp32_ceiling.cuh), one instantiation per shape.
// Here: the compiled shapes (variants.hpp) and when 16-byte accesses are allowed.
#include <cstdint>

#include "variants.hpp"

namespace matmul::WB_TRACK {

namespace {

inline bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class S>
void launch_fp32_ceiling(const fp32_problem& p) {
  const unsigned blocks = tile_blocks(p.M, p.N, S::BM, S::BN, "stage 4");
  // A float4 of a row is aligned when the rows are a multiple of 4 floats and the matrix is.
  const bool vector_a = p.K % 4 == 0 && aligned16(p.A);
  const bool vector_b = p.N % 4 == 0 && aligned16(p.B);
  const bool vector_c = p.N % 4 == 0 && aligned16(p.C);
  wb::launch({dim3(blocks), dim3(S::THREADS)}, matmul_fp32_ceiling_kernel<S>, p.A, p.B, p.C, p.M, p.N, p.K,
             wb::ceil_div(p.N, S::BN), vector_a, vector_b, vector_c);
}

}  // namespace

void matmul_fp32_ceiling(const fp32_problem& p, const config& cfg) {
  const int v = checked_variant(cfg.variant, static_cast<int>(fp32_ceiling_variants.size()), "stage 4");
  if (p.M == 0 || p.N == 0) return;
  using L = a_layout;
  switch (v) {
    case 0:
      launch_fp32_ceiling<fp32_128x256>(p);
      break;
    case 1:
      launch_fp32_ceiling<fp32_128x128>(p);
      break;
    case 2:
      launch_fp32_ceiling<fp32_shape<128, 256, 8, 8, 16, L::padded, true, 1>>(p);
      break;
    case 3:
      launch_fp32_ceiling<fp32_shape<128, 256, 8, 8, 16, L::plain, true, 1>>(p);
      break;
    default:
      launch_fp32_ceiling<fp32_shape<128, 256, 8, 8, 16, L::swizzled, false, 1>>(p);
      break;
  }
}

}  // namespace matmul::WB_TRACK
