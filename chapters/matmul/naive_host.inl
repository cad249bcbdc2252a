// Stage 1's host side, shared by both tracks.
// Included by: solutions/matmul/naive.cu and exercises/matmul/naive.cu, at their end.
// Launches: matmul_naive_kernel (the track file's).
// Here: the launch shape of each variant.
#include "variants.hpp"

namespace matmul::WB_TRACK {

void matmul_naive(const fp32_problem& p, const config& cfg) {
  const bool column_in_x = checked_variant(cfg.variant, static_cast<int>(naive_variants.size()), "stage 1") == 0;
  if (p.M == 0 || p.N == 0) return;
  const dim3 block(32, 8);
  // tile of C: 8 x 32 (rows x columns) when x walks the columns, 32 x 8 when it walks the rows
  const std::int64_t tile_rows = column_in_x ? 8 : 32;
  const std::int64_t tile_cols = column_in_x ? 32 : 8;
  const unsigned blocks = tile_blocks(p.M, p.N, tile_rows, tile_cols, "stage 1");
  const std::int64_t tiles_n = wb::ceil_div(p.N, tile_cols);
  if (column_in_x) {
    wb::launch({dim3(blocks), block}, matmul_naive_kernel<true>, p.A, p.B, p.C, p.M, p.N, p.K, tiles_n);
  } else {
    wb::launch({dim3(blocks), block}, matmul_naive_kernel<false>, p.A, p.B, p.C, p.M, p.N, p.K, tiles_n);
  }
}

}  // namespace matmul::WB_TRACK
