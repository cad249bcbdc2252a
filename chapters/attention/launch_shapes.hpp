// How each stage is launched, written once for both tracks: the shapes of the blocks and tiles,
// the scratch memory stages 1 and 6 need, the split of stage 6's KV cache, and the dispatch on
// d. The track files include it at their top; the launchers in them read it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "attention.hpp"
#include "wb/device_info.hpp"
#include "wb/workspace.hpp"

namespace attention {

// Lanes over d: lane l of a warp keeps dims l, l + 32, l + 64, ... of a row in registers, so a
// warp's loads of one row are contiguous (coalesced). DPL, the registers a lane keeps per row,
// is ceil(d / 32) rounded up to 1, 2, 4 or 8: one kernel is compiled for each.
inline int dims_per_lane(std::int64_t dim) {
  const std::int64_t need = (dim + 31) / 32;
  return need <= 1 ? 1 : need <= 2 ? 2 : need <= 4 ? 4 : 8;
}
// Calls f(std::integral_constant<int, DPL>{}) for d's DPL (a launcher picks its kernel so).
template <class F>
void with_dims_per_lane(std::int64_t dim, F&& f) {
  switch (dims_per_lane(dim)) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: f(std::integral_constant<int, 8>{}); break;
  }
}

// A one-dimensional grid of `blocks` blocks (CUDA allows fewer than 2^31).
inline unsigned grid_of(std::int64_t blocks, const char* stage) {
  if (blocks >= (std::int64_t{1} << 31)) {
    throw std::invalid_argument(std::string(stage) + ": " + std::to_string(blocks) +
                                " blocks: more than a grid holds (2^31 - 1)");
  }
  return static_cast<unsigned>(blocks);
}

// ---- Stage 1: three kernels ------------------------------------------------------------------
struct three_kernels_shape {
  static constexpr int KEYS = 32;             // scores kernel: a block is 32 keys (x) by 8 queries (y)
  static constexpr int QUERIES = 8;
  static constexpr int COLUMNS = 32;          // P V kernel: 32 columns of O (x) by 8 queries (y)
  static constexpr int SOFTMAX_THREADS = 256; // softmax kernel: a block per row of S
  static constexpr std::int64_t MAX_SOFTMAX_BLOCKS = std::int64_t{1} << 20;  // then a block takes several rows
};
// S holds batch * heads * seq * kv_seq fp32 scores.
inline std::uint64_t score_count(const dims& d) {
  return static_cast<std::uint64_t>(query_rows(d)) * static_cast<std::uint64_t>(d.kv_seq);
}
inline std::size_t scores_workspace_bytes(const dims& d) { return wb::piece_bytes(score_count(d) * sizeof(float)); }

// ---- Stage 2: one query row per warp ---------------------------------------------------------
struct online_shape {
  static constexpr int WARPS = 4;  // rows per block of 128 threads
};

// ---- Stage 3: tiles in shared memory (FlashAttention-2's loop order) -------------------------
// A block owns BR = 32 query rows; each of its 8 warps owns 4 of them. It streams the keys and
// values in tiles of BC = 32 rows, one key per lane when scoring. Shared memory: the block's Q
// tile (BR x d), a K tile with rows padded to d + 1 floats (lane j reads row j: with d + 1 the
// 32 lanes fall in 32 banks), a V tile (BC x d; lanes read along a row).
struct tiled_shape {
  static constexpr int BR = 32;
  static constexpr int BC = 32;
  static constexpr int WARPS = 8;
  static constexpr int THREADS = 32 * WARPS;
  static constexpr int ROWS_PER_WARP = BR / WARPS;
  static std::size_t shared_bytes(std::int64_t dim) {
    return sizeof(float) * static_cast<std::size_t>(BR * dim + BC * (dim + 1) + BC * dim);
  }
};

// ---- Stage 4: tensor cores (mma.sync m16n8k16: bf16 in, fp32 accumulate) ---------------------
// A block owns BR = 64 query rows, 16 per warp (the M of one mma.sync); it streams K and V in
// tiles of BC = 64 keys through two shared-memory stages, each filled by cp.async while the
// other is computed. A stage's row is d bf16 and 8 more: the 8 rows one ldmatrix reads then
// start 16 bytes apart modulo 128, in 8 different groups of 4 banks. d is a template
// parameter: 16, 32, 64 or 128 (a multiple of the mma's k = 16, and rows of whole 16-byte copies).
struct tensor_core_shape {
  static constexpr int BR = 64;
  static constexpr int BC = 64;
  static constexpr int WARPS = 4;
  static constexpr int THREADS = 32 * WARPS;
  static constexpr int ROWS_PER_WARP = BR / WARPS;  // 16: one mma tile of rows
  static constexpr int STAGES = 2;
  static constexpr int PAD = 8;
  static constexpr int ld(int dim) { return dim + PAD; }  // bf16 per shared-memory row
  static constexpr std::size_t shared_bytes(int dim) {
    return sizeof(bf16) * static_cast<std::size_t>(STAGES * 2 * BC * ld(dim));  // K and V, two stages
  }
  static constexpr bool takes_dim(std::int64_t dim) { return dim == 16 || dim == 32 || dim == 64 || dim == 128; }
};
// Calls f(std::integral_constant<int, D>{}) for d (tensor_core_shape::takes_dim(d) checked first).
template <class F>
void with_tensor_core_dim(std::int64_t dim, F&& f) {
  switch (dim) {
    case 16: f(std::integral_constant<int, 16>{}); break;
    case 32: f(std::integral_constant<int, 32>{}); break;
    case 64: f(std::integral_constant<int, 64>{}); break;
    default: f(std::integral_constant<int, 128>{}); break;
  }
}
// The problems stage 4 takes besides validate()'s: d of 16, 32, 64 or 128; K and V 16-byte aligned.
inline void validate_tensor_core(const problem<bf16>& p) {
  validate(p.d, "stage 4");
  if (!tensor_core_shape::takes_dim(p.d.dim)) {
    throw std::invalid_argument("stage 4: d = " + std::to_string(p.d.dim) +
                                ": the tensor-core stage takes d of 16, 32, 64 or 128 (one kernel each)");
  }
  if (reinterpret_cast<std::uintptr_t>(p.K) % 16 != 0 || reinterpret_cast<std::uintptr_t>(p.V) % 16 != 0) {
    throw std::invalid_argument("stage 4: K and V must start 16-byte aligned (cp.async copies 16 bytes at once)");
  }
}

// ---- Stage 6: decoding (Flash-Decoding) ------------------------------------------------------
// One warp per (batch, head, query, split): the KV cache of a (batch, head) is cut into splits
// of `chunk` keys, enough of them that the GPU is full although there are few queries.
struct decode_shape {
  static constexpr int WARPS = 4;                  // warps per block, split kernel and combine kernel
  static constexpr std::int64_t MIN_CHUNK = 64;    // fewer keys per warp: its partial costs more than its keys
  static constexpr std::int64_t WARPS_PER_SM = 32; // the plan aims at this many warps per multiprocessor
  // Keys a warp loads before it reduces their scores (their loads in flight together).
  static constexpr int keys_per_step(int dims_per_lane) { return dims_per_lane <= 4 ? 8 : 4; }
  // Elements a lane loads at once (vector_load.cuh): 4 (2 for d <= 64, 1 for d <= 32) where d
  // and the alignment of K and V allow, else 1.
  static int vector_width(std::int64_t dim, const void* K, const void* V, std::size_t element_bytes) {
    for (int vec = std::min(4, dims_per_lane(dim)); vec > 1; vec /= 2) {
      const std::size_t bytes = static_cast<std::size_t>(vec) * element_bytes;
      if (dim % vec == 0 && reinterpret_cast<std::uintptr_t>(K) % bytes == 0 &&
          reinterpret_cast<std::uintptr_t>(V) % bytes == 0)
        return vec;
    }
    return 1;
  }
};
struct decode_plan {
  std::int64_t chunk = 1;   // keys per split
  std::int64_t splits = 1;  // splits per (batch, head)
};
inline decode_plan plan_decode(const dims& d, const decode_config& cfg) {
  if (cfg.chunk < 0) throw std::invalid_argument("stage 6: chunk must not be negative (0: the stage's plan)");
  decode_plan plan;
  const std::int64_t kv = std::max<std::int64_t>(d.kv_seq, 1);
  if (cfg.chunk > 0) {
    plan.chunk = cfg.chunk;
  } else {
    const std::int64_t rows = std::max<std::int64_t>(query_rows(d), 1);
    const std::int64_t target = decode_shape::WARPS_PER_SM * wb::multiprocessor_count();
    const std::int64_t most = (kv + decode_shape::MIN_CHUNK - 1) / decode_shape::MIN_CHUNK;
    const std::int64_t splits = std::clamp<std::int64_t>((target + rows - 1) / rows, 1, most);
    plan.chunk = (kv + splits - 1) / splits;
  }
  plan.splits = (kv + plan.chunk - 1) / plan.chunk;
  return plan;
}
// The partials: a (max, sum) pair and an unnormalised output row per (batch, head, split, query).
inline std::uint64_t decode_partials(const dims& d, const decode_config& cfg) {
  return static_cast<std::uint64_t>(query_rows(d)) * static_cast<std::uint64_t>(plan_decode(d, cfg).splits);
}
inline std::size_t decode_workspace_bytes(const dims& d, const decode_config& cfg = {}) {
  const std::uint64_t partials = decode_partials(d, cfg);
  return wb::piece_bytes(partials * 2 * sizeof(float)) +
         wb::piece_bytes(partials * static_cast<std::uint64_t>(d.dim) * sizeof(float));
}

}  // namespace attention
