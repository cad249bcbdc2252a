// Stage 2's host side, shared by both tracks.
// Included by: solutions/matmul/tiled.cu and exercises/matmul/tiled.cu, at their end.
// Launches: matmul_tiled_kernel (the track file's), one instantiation per tile width.
// Here: the tile width of each variant.
#include "variants.hpp"

namespace matmul::WB_TRACK {

namespace {
template <int TILE_WIDTH>
void launch_tiled(const fp32_problem& p) {
  const unsigned blocks = tile_blocks(p.M, p.N, TILE_WIDTH, TILE_WIDTH, "stage 2");
  wb::launch({dim3(blocks), dim3(TILE_WIDTH, TILE_WIDTH)}, matmul_tiled_kernel<TILE_WIDTH>, p.A, p.B, p.C, p.M, p.N,
             p.K, wb::ceil_div(p.N, TILE_WIDTH));
}
}  // namespace

void matmul_tiled(const fp32_problem& p, const config& cfg) {
  const int v = checked_variant(cfg.variant, static_cast<int>(tiled_variants.size()), "stage 2");
  if (p.M == 0 || p.N == 0) return;
  switch (v) {
    case 0:
      launch_tiled<16>(p);
      break;
    case 1:
      launch_tiled<32>(p);
      break;
    default:
      launch_tiled<8>(p);
      break;
  }
}

}  // namespace matmul::WB_TRACK
