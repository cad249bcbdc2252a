#include "tiling.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "fp32_ceiling_shape.hpp"
#include "hopper_shape.hpp"
#include "variants.hpp"
#include "wmma_shape.hpp"

namespace matmul {

namespace {

template <class S>
tiling fp32_tiling(int variant) {
  const auto n = [](auto x) { return std::to_string(x); };
  return {"4 fp32-ceiling",
          S::BM,
          S::BN,
          S::THREADS,
          S::BK,
          true,
          "block " + n(S::BM) + " x " + n(S::BN) + " -> " + n(S::WARPS_M * S::WARPS_N) + " warps of " + n(S::WM) +
              " x " + n(S::WN) + " (" + n(S::WARPS_M) + " x " + n(S::WARPS_N) + ") -> lanes 4 x 8, each thread " +
              n(S::TM) + " x " + n(S::TN) + " as " + n(S::TM / 4) + " x " + n(S::TN / 4) +
              " sub-tiles of 4 x 4, 16 rows and 32 columns apart",
          "per slice: A[rows, k0:k0+" + n(S::BK) + "] (float4 v = t + " + n(S::THREADS) + " l: row v / " +
              n(S::BK / 4) + ", k 4 (v % " + n(S::BK / 4) + "); stored transposed, swizzled) and B[k0:k0+" + n(S::BK) +
              ", cols] (float4 v: k v / " + n(S::BN / 4) + ", column 4 (v % " + n(S::BN / 4) +
              ")), into the buffer the block is not reading",
          4,
          variant};
}

template <class S>
int fp32_owner(std::int64_t r, std::int64_t c) {
  const int warp = static_cast<int>((r / S::WM) * S::WARPS_N + c / S::WN);
  const int lane_m = static_cast<int>((r % S::WM) % S::SUB_M) / 4;
  const int lane_n = static_cast<int>((c % S::WN) % S::SUB_N) / 4;
  return warp * 32 + lane_m * S::LANES_N + lane_n;
}

template <class S>
tiling wmma_tiling(int variant) {
  const auto n = [](auto x) { return std::to_string(x); };
  return {"5 wmma",
          S::BM,
          S::BN,
          S::THREADS,
          S::BK,
          false,
          "block " + n(S::BM) + " x " + n(S::BN) + " -> " + n(S::WARPS) + " warps of " + n(S::WM) + " x " + n(S::WN) +
              " (" + n(S::WARPS_M) + " x " + n(S::WARPS_N) + ") -> " + n(S::FRAGS_M) + " x " + n(S::FRAGS_N) +
              " fragments of 16 x 16 per warp (the lanes' share of a fragment is unspecified)",
          "per slice, " + n(S::STAGES) + " in flight: A[rows, k0:k0+" + n(S::BK) + "] (16-byte chunk c = t + " +
              n(S::THREADS) + " l: row c / " + n(S::BK / 8) + ", k 8 (c % " + n(S::BK / 8) + ")) and B[k0:k0+" +
              n(S::BK) + ", cols] (chunk c: k c / " + n(S::BN / 8) + ", column 8 (c % " + n(S::BN / 8) +
              ")), by cp.async",
          5,
          variant};
}

// The warp (its first lane) of a WMMA block that owns element (r, c) of the block's tile.
template <class S>
int wmma_owner(std::int64_t r, std::int64_t c) {
  return static_cast<int>((r / S::WM) * S::WARPS_N + c / S::WN) * 32;
}
}  // namespace

tiling tiling_of(int stage, int variant, std::int64_t M, std::int64_t N) {
  tiling t;
  t.stage = stage;
  t.variant = variant;
  switch (stage) {
    case 1:
      if (variant == 0) {
        t = {"1 naive",
             8,
             32,
             256,
             0,
             true,
             "block 8 x 32 of 32 x 8 threads -> one output per thread; a warp is one row of 32",
             "no tiles: each thread reads row `row` of A and column `col` of B from global memory, all of K",
             1,
             0};
      } else {
        t = {"1 naive x-row",
             32,
             8,
             256,
             0,
             true,
             "block 32 x 8 of 32 x 8 threads -> one output per thread; a warp is one column of 32",
             "no tiles: each thread reads row `row` of A and column `col` of B from global memory, all of K",
             1,
             1};
      }
      return t;
    case 2: {
      const int w = variant == 1 ? 32 : variant == 2 ? 8 : 16;
      t = {"2 tiled",
           w,
           w,
           w * w,
           w,
           true,
           "block " + std::to_string(w) + " x " + std::to_string(w) + " -> one output per thread; a warp is " +
               std::to_string(32 / w > 0 ? 32 / w : 1) + " row(s)",
           "per phase: A[rows, k0:k0+" + std::to_string(w) + "] into A_S and B[k0:k0+" + std::to_string(w) +
               ", cols] into B_S, thread (ty, tx) loading A_S[ty][tx] and B_S[ty][tx]",
           2,
           variant};
      return t;
    }
    case 3:
      if (variant == 0) {
        t = {"3 coarsened",
             128,
             128,
             256,
             8,
             true,
             "block 128 x 128 -> thread 8 x 8, rows ty + 16 i and columns tx + 16 j (ty, tx < 16); a warp is 2 values "
             "of ty",
             "per slice: A[rows, k0:k0+8] into A_S (thread t: elements t + 256 r, row e / 8, k e % 8) and B[k0:k0+8, "
             "cols] "
             "into B_S (row e / 128, column e % 128)",
             3,
             0};
      } else {
        t = {"3 coarsened coarse-4",
             16,
             64,
             256,
             16,
             true,
             "block 16 x 64 -> thread 1 x 4, columns tx + 16 c (c < 4)",
             "per phase: A[rows, k0:k0+16] into A_S once, then for each c B[k0:k0+16, 16 c + cols] into B_S",
             3,
             1};
      }
      return t;
    case 4:  // every variant but 128x128 has the default's tile
      return variant == 1 ? fp32_tiling<fp32_128x128>(variant) : fp32_tiling<fp32_128x256>(variant);
    case 5:
      return variant == 0 ? wmma_tiling<wmma_256x128>(variant) : wmma_tiling<wmma_128x128>(variant);
    case 6: {
      if (variant == 1) {
        t = {"6 hopper simple",
             128,
             128,
             128,
             64,
             true,
             "block 128 x 128 -> one warpgroup, rows 0-63 then 64-127 -> warps 16 x 128 -> thread: rows l / 4, l / 4 + "
             "8 "
             "of each half, columns 8 g + 2 (l % 4) + 0, 1",
             "per k-block, thread 0: TMA boxes A[rows, k0:k0+64] and B[k0:k0+64, cols] (2 boxes of 64 x 64), 3-stage "
             "ring",
             6,
             1};
        return t;
      }
      // The specialized kernel on the tile the variant names, or (variant 0) on the one the
      // stage takes for this problem on an H100 (hopper_shape.hpp).
      const hopper_tile tile =
          variant == 0 ? hopper_tile_for(M, N, h100_sms) : static_cast<hopper_tile>(variant - 2);
      const int bm = tile == hopper_tile::t128x256 || tile == hopper_tile::t128x128 ? 128 : 64;
      const int bn = tile == hopper_tile::t128x256 ? 256 : tile == hopper_tile::t64x64 ? 64 : 128;
      const int stages = tile == hopper_tile::t128x256 ? hopper_128x256::STAGES
                         : tile == hopper_tile::t128x128 ? hopper_128x128::STAGES
                                                         : hopper_64x128::STAGES;
      const std::string shape = std::to_string(bm) + " x " + std::to_string(bn);
      const std::string consumers = bm == 128 ? "consumer warpgroups 1, 2" : "consumer warpgroup 1";
      t = {"6 hopper",
           bm,
           bn,
           128 * (1 + bm / 64),
           64,
           true,
           "block (persistent, tiles b, b + grid, ...) " + shape + " -> " + consumers + " of 64 x " +
               std::to_string(bn) + " -> warps 16 x " + std::to_string(bn) +
               " -> thread: rows l / 4 and l / 4 + 8, columns 8 g + 2 (l % 4) + 0, 1 (g < " + std::to_string(bn / 8) +
               "); warpgroup 0 loads",
           "per k-block, one thread of warpgroup 0: TMA boxes A[rows, k0:k0+64] (" + std::to_string(bm) +
               " x 64) and B[k0:k0+64, 64 b ...] (" + std::to_string(bn / 64) + " box" + (bn > 64 ? "es" : "") +
               " of 64 x 64) into a ring of " + std::to_string(stages) + " stages",
           6,
           variant};
      return t;
    }
    default:
      throw std::invalid_argument("stage " + std::to_string(stage) + " has no tiling (stage 0 runs on the host)");
  }
}

int owner_thread(const tiling& t, std::int64_t r, std::int64_t c) {
  switch (t.stage) {
    case 1:
      return t.variant == 0 ? static_cast<int>(r * 32 + c) : static_cast<int>(c * 32 + r);
    case 2:
      return static_cast<int>(r * t.block_cols + c);
    case 3:
      return t.variant == 0 ? static_cast<int>((r % 16) * 16 + c % 16) : static_cast<int>(r * 16 + c % 16);
    case 4:
      return t.variant == 1 ? fp32_owner<fp32_128x128>(r, c) : fp32_owner<fp32_128x256>(r, c);
    case 5:  // the warp's first lane
      return t.variant == 0 ? wmma_owner<wmma_256x128>(r, c) : wmma_owner<wmma_128x128>(r, c);
    default: {  // 6: the wgmma accumulator layout (wgmma_layout.cuh)
      const int rr = static_cast<int>(r % 64);
      const int lane = (rr % 8) * 4 + static_cast<int>(c % 8) / 2;
      const int in_group = (rr / 16) * 32 + lane;
      return t.variant == 1 ? in_group : 128 * (1 + static_cast<int>(r / 64)) + in_group;
    }
  }
}

namespace {

// "0-3, 16-19" for {0, 1, 2, 3, 16, 17, 18, 19}.
std::string ranges(const std::set<std::int64_t>& values) {
  std::string out;
  for (auto it = values.begin(); it != values.end();) {
    const std::int64_t first = *it;
    std::int64_t last = first;
    while (++it != values.end() && *it == last + 1) last = *it;
    out += fmt::format("{}{}", out.empty() ? "" : ", ",
                       first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last));
  }
  return out.empty() ? "none" : out;
}

struct owned {
  std::set<std::int64_t> rows, cols;
  std::int64_t count = 0;
};

// Which outputs of C are wrong (one flag per element, row-major); no flags: none known.
struct wrong_map {
  const std::vector<char>& flags;
  std::int64_t N = 0;
  bool at(std::int64_t r, std::int64_t c) const {
    return !flags.empty() && flags[static_cast<std::size_t>(r * N + c)] != 0;
  }
};

// "C[3][17], C[3][18], ..." for at most `most` elements.
std::string element_list(const std::vector<std::pair<std::int64_t, std::int64_t>>& elements, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < elements.size() && i < most; ++i) {
    out += fmt::format("{}C[{}][{}]", i == 0 ? "" : ", ", elements[i].first, elements[i].second);
  }
  if (elements.size() > most) out += fmt::format(" and {} more", elements.size() - most);
  return out;
}

// A line of the tiling (indented two spaces more than `line`), marked "!!" in place of those
// two spaces when it holds a wrong output ("!! tile ...": a tile line keeps a space after it).
void add_line(std::string& out, bool wrong, const std::string& line) {
  out += (wrong ? (line.rfind(' ', 0) == 0 ? "!!" : "!! ") : "  ") + line + "\n";
}

}  // namespace

std::string tiling_text(const tiling& t, std::int64_t M, std::int64_t N, std::int64_t K, bool per_thread,
                        const std::vector<char>& wrong_flags) {
  if (!wrong_flags.empty() && static_cast<std::int64_t>(wrong_flags.size()) != M * N) {
    throw std::invalid_argument("tiling_text: one flag per element of C");
  }
  const wrong_map wrong{wrong_flags, N};
  std::string out;
  const std::int64_t tiles_m = (M + t.block_rows - 1) / t.block_rows, tiles_n = (N + t.block_cols - 1) / t.block_cols;
  const std::string variant = variants_of(t.stage).empty() ? "" : std::string(variants_of(t.stage)[t.variant].name);
  out += fmt::format("stage {} ({}): {} x {} outputs per block, {} threads, {}\n", t.name, variant, t.block_rows,
                     t.block_cols, t.threads,
                     t.k_step > 0 ? fmt::format("K in steps of {} ({} steps)", t.k_step, (K + t.k_step - 1) / t.k_step)
                                  : std::string("all of K per thread"));
  out += fmt::format("  tiling: {}\n  loads: {}\n", t.levels, t.loads);
  out += fmt::format("  grid: {} x {} tiles{}\n", tiles_m, tiles_n,
                     t.stage == 6 && t.variant != 1 ? " (one persistent block per SM takes tiles b, b + gridDim.x, ...)"
                                                    : "");
  for (std::int64_t tm = 0; tm < tiles_m; ++tm) {
    for (std::int64_t tn = 0; tn < tiles_n; ++tn) {
      const std::int64_t r0 = tm * t.block_rows, c0 = tn * t.block_cols;
      const std::int64_t r1 = std::min(M, r0 + t.block_rows), c1 = std::min(N, c0 + t.block_cols);
      std::vector<owned> threads(static_cast<std::size_t>(t.threads));
      std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> thread_wrong(static_cast<std::size_t>(t.threads));
      std::int64_t tile_wrong = 0;
      for (std::int64_t r = r0; r < r1; ++r) {
        for (std::int64_t c = c0; c < c1; ++c) {
          const auto owner = static_cast<std::size_t>(owner_thread(t, r - r0, c - c0));
          owned& o = threads[owner];
          o.rows.insert(r);
          o.cols.insert(c);
          ++o.count;
          if (wrong.at(r, c)) {
            thread_wrong[owner].emplace_back(r, c);
            ++tile_wrong;
          }
        }
      }
      add_line(out, tile_wrong > 0,
                   fmt::format("tile ({}, {}): C[{}:{}, {}:{}]{}{}", tm, tn, r0, r1, c0, c1,
                               r1 - r0 < t.block_rows || c1 - c0 < t.block_cols
                                   ? " (the tile reaches past C: those outputs are computed from zeros and not stored)"
                                   : "",
                               tile_wrong > 0 ? fmt::format(" — {} of its {} outputs wrong", tile_wrong,
                                                            (r1 - r0) * (c1 - c0))
                                              : std::string()));
      for (int w = 0; w < t.threads / 32; ++w) {
        owned warp;
        std::vector<std::pair<std::int64_t, std::int64_t>> warp_wrong;
        for (int l = 0; l < 32; ++l) {
          const owned& o = threads[static_cast<std::size_t>(32 * w + l)];
          warp.rows.insert(o.rows.begin(), o.rows.end());
          warp.cols.insert(o.cols.begin(), o.cols.end());
          warp.count += o.count;
          const auto& mine = thread_wrong[static_cast<std::size_t>(32 * w + l)];
          warp_wrong.insert(warp_wrong.end(), mine.begin(), mine.end());
        }
        if (warp.count == 0) continue;
        std::sort(warp_wrong.begin(), warp_wrong.end());
        add_line(out, !warp_wrong.empty(),
                     fmt::format("  warp {}: {} outputs, rows {}, columns {}{}", w, warp.count, ranges(warp.rows),
                                 ranges(warp.cols),
                                 warp_wrong.empty() ? std::string()
                                                    : fmt::format(" — wrong: {}", element_list(warp_wrong, 4))));
        if (!per_thread || !t.thread_known) continue;
        for (int l = 0; l < 32; ++l) {
          const owned& o = threads[static_cast<std::size_t>(32 * w + l)];
          if (o.count == 0) continue;
          const auto& mine = thread_wrong[static_cast<std::size_t>(32 * w + l)];
          add_line(out, !mine.empty(), fmt::format("    thread {} (lane {}): rows {} x columns {}{}", 32 * w + l, l,
                                                  ranges(o.rows), ranges(o.cols),
                                                  mine.empty() ? std::string()
                                                               : fmt::format(" — wrong: {}", element_list(mine, 4))));
        }
      }
    }
  }
  return out;
}

}  // namespace matmul
