// Stage 4: stage 3's loop on the tensor cores (FlashAttention-2, Dao 2023, §3; the PTX ISA's
// mma.m16n8k16, ldmatrix and cp.async), bf16 in, fp32 accumulated.
//
// A block owns 64 query rows (4 warps x 16, the M of one mma.sync m16n8k16, wb/mma.hpp) and
// streams K and V in tiles of 64 keys through two shared-memory stages filled by cp.async
// (wb/async_copy.hpp): the next tile's copy is in flight while this one is computed. Both
// products run on the tensor cores; the online softmax runs on the accumulators of S, and the
// probabilities go to P V as an A fragment without leaving the registers.
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

template <int D>
__global__ void tensor_core_kernel(const float* Q, const bf16* K, const bf16* V, float* O, dims d, float scale,
                                   std::int64_t query_tiles) {
  // TODO(attention/4): FlashAttention-2 (§3) with mma.sync for the 64 query rows of tile
  // blockIdx.x % query_tiles of (batch, head) blockIdx.x / query_tiles; warp w owns rows 16 w ..
  // 16 w + 15. Dynamic shared memory (wb::dynamic_shared<bf16>()) holds two stages of a K tile
  // and a V tile, 64 rows of shape::ld(D) bf16 each (tensor_core_shape). Load the warp's Q rows
  // once as A fragments (rounded to bf16). Per tile: wait for its cp.async group and a barrier;
  // S = Q K^T into 8 accumulators (K's rows by ldmatrix); scale, mask (causal and past kv_seq);
  // the online-softmax step per row, its max and sum over the 4 lanes that hold the row (AT4);
  // O += P V with P as the A operand straight from the accumulators (a_from_accumulators) and
  // V's rows by ldmatrix.trans; a barrier before the stage is refilled. At the end O = acc / l.
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
