// Stage 6's host side, shared by both tracks.
// Included by: solutions/matmul/hopper/hopper.cu and exercises/matmul/hopper/hopper.cu, after the
// track's hopper.cuh.
// Launches: hopper::matmul_hopper_specialized_kernel, hopper::matmul_hopper_simple_kernel (the
// track's hopper.cuh); pad_rows_kernel (defined here).
// Here: the checks that the GPU can run it, the padded copies the TMA needs for rows that are no
// multiple of 16 bytes, the tensor maps, the launch of each variant (variants.hpp).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "variants.hpp"
#include "wb/workspace.hpp"
#if defined(WB_BACKEND_CUDA)
#include "tensor_map.hpp"
#endif

namespace matmul::WB_TRACK {

namespace {

std::int64_t round_up_8(std::int64_t x) {
  return (x + 7) / 8 * 8;
}

#if defined(WB_BACKEND_CUDA)
// out (rows x padded_cols) = in (rows x cols) with zero columns added: the TMA needs a row
// pitch that is a multiple of 16 bytes.
__global__ void pad_rows_kernel(const wb::bf16* in, std::int64_t rows, std::int64_t cols, std::int64_t padded_cols,
                                wb::bf16* out) {
  const std::int64_t total = rows * padded_cols;
  for (std::int64_t e = wb::global_thread_index(); e < total; e += wb::grid_thread_count()) {
    const std::int64_t r = e / padded_cols, c = e % padded_cols;
    out[e] = c < cols ? in[r * cols + c] : wb::to_bf16(0.0f);
  }
}

const wb::bf16* padded(const wb::bf16* in, std::int64_t rows, std::int64_t cols, wb::carver& carve) {
  const std::int64_t padded_cols = round_up_8(cols);
  wb::bf16* out = carve.take<wb::bf16>(rows * padded_cols);
  const std::int64_t blocks = std::min<std::int64_t>(wb::ceil_div(rows * padded_cols, 256), 65536);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(256)}, pad_rows_kernel, in, rows, cols, padded_cols, out);
  return out;
}

template <class S>
void launch_hopper(const bf16_problem& p, const wb::bf16* A, const wb::bf16* B) {
  // The tensor maps: A (M x K, pitch of the padded K) in boxes of BM x 64, B (K x N) in boxes
  // of 64 x 64. Built once per problem (the timed runs repeat one problem).
  struct cached {
    const void* A = nullptr;
    const void* B = nullptr;
    std::int64_t M = -1, N = -1, K = -1;
    CUtensorMap map_A{}, map_B{};
  };
  static cached last;
  if (last.A != A || last.B != B || last.M != p.M || last.N != p.N || last.K != p.K) {
    last.map_A = make_bf16_tensor_map(A, p.M, p.K, round_up_8(p.K) * 2, S::BM, 64);
    last.map_B = make_bf16_tensor_map(B, p.K, p.N, round_up_8(p.N) * 2, 64, 64);
    last.A = A;
    last.B = B;
    last.M = p.M;
    last.N = p.N;
    last.K = p.K;
  }
  const bool pairs = p.N % 2 == 0 && reinterpret_cast<std::uintptr_t>(p.C) % 4 == 0;
  const std::int64_t tiles = wb::ceil_div(p.M, S::BM) * wb::ceil_div(p.N, S::BN);
  if constexpr (S::SPECIALIZED) {
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(tiles, wb::multiprocessor_count()));  // persistent
    wb::launch({dim3(blocks), dim3(S::THREADS), S::SHARED_BYTES}, hopper::matmul_hopper_specialized_kernel<S>,
               last.map_A, last.map_B, p.C, p.M, p.N, p.K, pairs);
  } else {
    const unsigned blocks = tile_blocks(p.M, p.N, S::BM, S::BN, "stage 6");
    wb::launch({dim3(blocks), dim3(S::THREADS), S::SHARED_BYTES}, hopper::matmul_hopper_simple_kernel<S>, last.map_A,
               last.map_B, p.C, p.M, p.N, p.K, pairs);
  }
}

void launch_tile(hopper_tile tile, const bf16_problem& p, const wb::bf16* A, const wb::bf16* B) {
  switch (tile) {
    case hopper_tile::t128x256:
      launch_hopper<hopper_128x256>(p, A, B);
      break;
    case hopper_tile::t128x128:
      launch_hopper<hopper_128x128>(p, A, B);
      break;
    case hopper_tile::t64x128:
      launch_hopper<hopper_64x128>(p, A, B);
      break;
    default:
      launch_hopper<hopper_64x64>(p, A, B);
      break;
  }
}
#endif  // WB_BACKEND_CUDA

}  // namespace

std::size_t hopper_workspace_bytes(std::int64_t M, std::int64_t N, std::int64_t K, const config& cfg) {
  checked_variant(cfg.variant, static_cast<int>(hopper_variants.size()), "stage 6");
  std::size_t bytes = 0;
  if (K % 8 != 0) bytes += wb::piece_bytes(static_cast<std::size_t>(M * round_up_8(K)) * sizeof(wb::bf16));
  if (N % 8 != 0) bytes += wb::piece_bytes(static_cast<std::size_t>(K * round_up_8(N)) * sizeof(wb::bf16));
  return bytes;
}

void matmul_hopper(const bf16_problem& p, wb::workspace workspace, const config& cfg) {
  const int v = checked_variant(cfg.variant, static_cast<int>(hopper_variants.size()), "stage 6");
#if !defined(WB_BACKEND_CUDA)
  (void)p, (void)workspace, (void)v;
  throw stage_unavailable("stage 6 needs an sm_90 GPU (the cpu backend emulates no TMA, mbarrier or wgmma)");
#else
  require_sm90("stage 6");
  if (p.M == 0 || p.N == 0) return;
  if (p.K == 0) {  // no k-block: C is all zero (and a tensor map cannot describe 0 columns)
    WB_CHECK(cudaMemsetAsync(p.C, 0, static_cast<std::size_t>(p.M * p.N) * sizeof(wb::bf16)));
    return;
  }
  const auto aligned16 = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  if (!aligned16(p.A) || !aligned16(p.B)) {
    throw std::invalid_argument(
        "stage 6: A and B must start on 16-byte boundaries (the TMA reads them in 16-byte units)");
  }
  // Rows whose pitch is no multiple of 16 bytes are first copied into the workspace, padded.
  wb::carver carve(workspace, "stage 6");
  const wb::bf16* A = p.K % 8 == 0 ? p.A : padded(p.A, p.M, p.K, carve);
  const wb::bf16* B = p.N % 8 == 0 ? p.B : padded(p.B, p.K, p.N, carve);
  switch (v) {
    case 0:  // the tile by the problem's shape (hopper_shape.hpp)
      launch_tile(hopper_tile_for(p.M, p.N, wb::multiprocessor_count()), p, A, B);
      break;
    case 1:
      launch_hopper<hopper_simple>(p, A, B);
      break;
    default:
      launch_tile(static_cast<hopper_tile>(v - 2), p, A, B);
      break;
  }
#endif
}

}  // namespace matmul::WB_TRACK
