// Each stage's compiled variants, by name: variant 0 is the stage's default; the others are
// what the lesson measures beside it (the other thread mapping of stage 1, shared memory with
// bank conflicts, padded or swizzled, one buffer or two, a shallow pipeline, the Hopper pieces
// without warp specialisation). `matmul --stage 4 --variant padded` runs one, `--all-variants`
// every one; tile-shape tuning lives in experiments/tile_configs.cu. Plain C++: host programs
// include it.
#pragma once

#include <array>
#include <span>
#include <string_view>

namespace matmul {

struct variant {
  std::string_view name;
  std::string_view what;
};

// Stage 1 (§3.4): which thread index walks which dimension of C.
inline constexpr std::array<variant, 2> naive_variants = {{
    {"x-column", "threadIdx.x walks the columns of C: a warp reads one row of A (broadcast) and 32 neighbours in B"},
    {"x-row", "threadIdx.x walks the rows of C: a warp reads 32 rows of A a row apart (uncoalesced) - the pitfall"},
}};

// Stage 2 (§5.4): TILE_WIDTH, the side of the square tiles and of the thread block.
inline constexpr std::array<variant, 3> tiled_variants = {{
    {"tile16", "16 x 16 tiles, 256 threads (the book's TILE_WIDTH)"},
    {"tile32", "32 x 32 tiles, 1024 threads"},
    {"tile8", "8 x 8 tiles, 64 threads"},
}};

// Stage 3 (§6.3): thread coarsening, then the register tile it leads to.
inline constexpr std::array<variant, 2> coarsened_variants = {{
    {"register-8x8", "128 x 128 block tile, 256 threads, 8 x 8 outputs per thread: an outer product per k-step"},
    {"coarse-4", "the book's coarsening: 16 x 16 tiles, each thread 4 outputs along a row of C, one A tile reused"},
}};

// Stage 4: the block tile, the shared-memory layout of the transposed A tile and the buffering,
// each measured beside the default (other tile shapes: bench/matmul/experiments/).
inline constexpr std::array<variant, 5> fp32_ceiling_variants = {{
    {"128x256",
     "128 x 256 x 8, 256 threads, 8 x 16 per thread, A swizzled in shared memory, double-buffered, one block per SM"},
    {"128x128", "128 x 128 x 8, 8 x 8 per thread, two blocks per SM (128 registers a thread)"},
    {"padded", "as the default, A padded by 4 floats per row instead of swizzled"},
    {"conflicts", "as the default, A stored plainly: 2-way bank conflicts on its transposed stores"},
    {"single-buffer", "as the default with one shared-memory buffer: two barriers per k-slice, no overlap"},
}};

// Stage 5: the block tile and the depth of the cp.async pipeline (other tile shapes:
// bench/matmul/experiments/).
inline constexpr std::array<variant, 3> wmma_variants = {{
    {"256x128", "256 x 128 x 32 block tile, 8 warps of 64 x 64, 3 slices in flight (cp.async)"},
    {"128x128", "128 x 128 x 32 block tile, 8 warps of 64 x 32, 4 slices in flight"},
    {"2-stage", "128 x 128 x 32 with 2 slices: plain double buffering"},
}};

// Stage 6: the Hopper kernel on the tile the problem's shape asks for, the simpler kernel that
// has each piece without the overlap, and the specialized kernel on each of its tiles
// (hopper_shape.hpp; other ring depths and tile orders: bench/matmul/experiments/).
inline constexpr std::array<variant, 6> hopper_variants = {{
    {"specialized",
     "1 producer + BM / 64 consumer warpgroups, TMA ring, persistent, grouped tile order; the tile by the "
     "problem's shape: 128 x 256 where there are about as many tiles as SMs, else 128 x 128, 64 x 128, 64 x 64"},
    {"simple", "128 x 128 x 64 tiles, one warpgroup issues TMA and wgmma, 3-stage ring, one block per tile"},
    {"128x256", "the specialized kernel on 128 x 256 tiles, 4-stage ring, whatever the problem's shape"},
    {"128x128", "the specialized kernel on 128 x 128 tiles, 6-stage ring"},
    {"64x128", "the specialized kernel on 64 x 128 tiles, one consumer warpgroup, 8-stage ring"},
    {"64x64", "the specialized kernel on 64 x 64 tiles, one consumer warpgroup, 8-stage ring"},
}};

// The list of stage `stage` (empty for stage 0).
inline std::span<const variant> variants_of(int stage) {
  switch (stage) {
    case 1:
      return naive_variants;
    case 2:
      return tiled_variants;
    case 3:
      return coarsened_variants;
    case 4:
      return fp32_ceiling_variants;
    case 5:
      return wmma_variants;
    case 6:
      return hopper_variants;
    default:
      return {};
  }
}

// The index of `name` in stage `stage`'s list, or -1.
inline int variant_index(int stage, std::string_view name) {
  const auto list = variants_of(stage);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// Stages 0-4 multiply fp32 matrices, stages 5-6 bfloat16 (fp32 sums).
inline constexpr bool stage_is_bf16(int stage) {
  return stage >= 5;
}

}  // namespace matmul
