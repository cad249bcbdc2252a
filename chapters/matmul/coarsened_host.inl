// Stage 3's host side, shared by both tracks.
// Included by: solutions/matmul/coarsened.cu and exercises/matmul/coarsened.cu, at their end.
// Launches: matmul_coarse_kernel, matmul_register_tile_kernel (the track file's).
// Here: the launch shape of each variant.
#include "variants.hpp"

namespace matmul::WB_TRACK {

void matmul_coarsened(const fp32_problem& p, const config& cfg) {
  const int v = checked_variant(cfg.variant, static_cast<int>(coarsened_variants.size()), "stage 3");
  if (p.M == 0 || p.N == 0) return;
  if (v == 0) {
    const unsigned blocks = tile_blocks(p.M, p.N, REG_BM, REG_BN, "stage 3");
    wb::launch({dim3(blocks), dim3(REG_THREADS)}, matmul_register_tile_kernel, p.A, p.B, p.C, p.M, p.N, p.K,
               wb::ceil_div(p.N, REG_BN));
  } else {
    const std::int64_t tile_cols = COARSE_TILE * COARSE_FACTOR;
    const unsigned blocks = tile_blocks(p.M, p.N, COARSE_TILE, tile_cols, "stage 3");
    wb::launch({dim3(blocks), dim3(COARSE_TILE, COARSE_TILE)}, matmul_coarse_kernel, p.A, p.B, p.C, p.M, p.N, p.K,
               wb::ceil_div(p.N, tile_cols));
  }
}

}  // namespace matmul::WB_TRACK
