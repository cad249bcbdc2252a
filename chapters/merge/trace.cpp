// --trace (see trace.hpp).
#include "trace.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "merge.hpp"
#include "wb/cli.hpp"

namespace merge {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t total) {
  return std::min(p * ceil_div(total, parts), total);
}

template <class K>
std::string slice(const K* data, std::int64_t begin, std::int64_t end) {
  std::string out;
  for (std::int64_t i = begin; i < end; ++i) out += fmt::format("{}{}", i > begin ? " " : "", data[i]);
  return out.empty() ? "-" : out;
}

// The search of Fig. 12.5, narrated (a teaching copy of the algorithm; the value it finds is
// compared with the track's co_rank below).
template <class K>
std::int64_t narrate_co_rank(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n,
                             const char* indent) {
  std::int64_t i = std::min(k, m);
  std::int64_t j = k - i;
  std::int64_t i_low = std::max<std::int64_t>(0, k - n);
  std::int64_t j_low = std::max<std::int64_t>(0, k - m);
  for (int step = 0;; ++step) {
    std::string head = fmt::format("{}step {}: i={} j={} (i_low={} j_low={}): ", indent, step, i, j, i_low, j_low);
    if (i > 0 && j < n && A[i - 1] > B[j]) {
      const std::int64_t delta = (i - i_low + 1) / 2;
      std::printf("%sA[%lld]=%s > B[%lld]=%s: i too high, move %lld from A to B\n", head.c_str(),
                  static_cast<long long>(i - 1), fmt::format("{}", A[i - 1]).c_str(), static_cast<long long>(j),
                  fmt::format("{}", B[j]).c_str(), static_cast<long long>(delta));
      j_low = j;
      i -= delta;
      j += delta;
    } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
      const std::int64_t delta = (j - j_low + 1) / 2;
      std::printf("%sB[%lld]=%s >= A[%lld]=%s: j too high (ties go to A), move %lld from B to A\n", head.c_str(),
                  static_cast<long long>(j - 1), fmt::format("{}", B[j - 1]).c_str(), static_cast<long long>(i),
                  fmt::format("{}", A[i]).c_str(), static_cast<long long>(delta));
      i_low = i;
      i += delta;
      j -= delta;
    } else {
      std::printf("%sboth tests pass: co-rank i=%lld, j=%lld\n", head.c_str(), static_cast<long long>(i),
                  static_cast<long long>(j));
      return i;
    }
  }
}

}  // namespace

template <class K>
trace_splits print_trace(const std::vector<K>& A, const std::vector<K>& B, const config& basic, const config& tiled,
                         co_rank_fn<K> co_rank, const char* track) {
  trace_splits splits;
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  const std::int64_t total = m + n;
  std::printf("\ntrace with the %s track's co_rank\nA = [%s] (m = %lld)\nB = [%s] (n = %lld)\n", track,
              slice(A.data(), 0, m).c_str(), static_cast<long long>(m), slice(B.data(), 0, n).c_str(),
              static_cast<long long>(n));

  // ---- the basic kernel (§12.5): one output slice per thread
  const std::int64_t threads = basic.grid * basic.block;
  std::printf("\nstage 2, basic kernel (PMPP §12.5, Figs. 12.4-12.9): %lld block(s) x %d threads = %lld threads, "
              "ceil(%lld / %lld) = %lld outputs each\n",
              static_cast<long long>(basic.grid), basic.block, static_cast<long long>(threads),
              static_cast<long long>(total), static_cast<long long>(threads),
              static_cast<long long>(ceil_div(total, threads)));
  for (std::int64_t t = 0; t < threads; ++t) {
    const std::int64_t k_curr = part_begin(t, threads, total);
    const std::int64_t k_next = part_begin(t + 1, threads, total);
    const std::int64_t i_curr = co_rank(k_curr, A.data(), m, B.data(), n);
    const std::int64_t i_next = co_rank(k_next, A.data(), m, B.data(), n);
    splits.threads.push_back({k_curr, i_curr});
    std::printf("  thread %lld: C[%lld, %lld) from A[%lld, %lld) = {%s} and B[%lld, %lld) = {%s}\n",
                static_cast<long long>(t), static_cast<long long>(k_curr), static_cast<long long>(k_next),
                static_cast<long long>(i_curr), static_cast<long long>(i_next), slice(A.data(), i_curr, i_next).c_str(),
                static_cast<long long>(k_curr - i_curr), static_cast<long long>(k_next - i_next),
                slice(B.data(), k_curr - i_curr, k_next - i_next).c_str());
    if (k_curr < total && k_curr > 0) {
      std::printf("    co_rank(%lld), step by step (Figs. 12.6-12.8):\n", static_cast<long long>(k_curr));
      const std::int64_t narrated = narrate_co_rank(k_curr, A.data(), m, B.data(), n, "      ");
      if (narrated != i_curr) {
        std::printf("      !! the %s track's co_rank returned %lld, the search above finds %lld\n", track,
                    static_cast<long long>(i_curr), static_cast<long long>(narrated));
      }
    }
  }

  // ---- the tiled kernel (§12.6): blocks, tiles, threads
  const int tile = tiled.tile;
  std::printf("\nstage 3, tiled kernel (PMPP §12.6, Figs. 12.10-12.14): %lld block(s) x %d threads, tile_size %d\n",
              static_cast<long long>(tiled.grid), tiled.block, tile);
  for (std::int64_t b = 0; b < tiled.grid; ++b) {
    const std::int64_t C_curr = part_begin(b, tiled.grid, total);
    const std::int64_t C_next = part_begin(b + 1, tiled.grid, total);
    const std::int64_t A_curr = co_rank(C_curr, A.data(), m, B.data(), n);
    const std::int64_t A_next = co_rank(C_next, A.data(), m, B.data(), n);
    const std::int64_t B_curr = C_curr - A_curr;
    const std::int64_t B_next = C_next - A_next;
    splits.blocks.push_back({C_curr, A_curr});
    std::printf("  block %lld: C[%lld, %lld) from A[%lld, %lld) and B[%lld, %lld)\n", static_cast<long long>(b),
                static_cast<long long>(C_curr), static_cast<long long>(C_next), static_cast<long long>(A_curr),
                static_cast<long long>(A_next), static_cast<long long>(B_curr), static_cast<long long>(B_next));
    std::int64_t C_completed = 0;
    std::int64_t A_consumed = 0;
    for (int iteration = 0; C_completed < C_next - C_curr; ++iteration) {
      const std::int64_t B_consumed = C_completed - A_consumed;
      const std::int64_t A_tile = std::min<std::int64_t>(tile, (A_next - A_curr) - A_consumed);
      const std::int64_t B_tile = std::min<std::int64_t>(tile, (B_next - B_curr) - B_consumed);
      const std::int64_t C_tile = std::min<std::int64_t>(tile, (C_next - C_curr) - C_completed);
      const K* A_S = A.data() + A_curr + A_consumed;
      const K* B_S = B.data() + B_curr + B_consumed;
      std::printf("    tile %d: A_S = {%s}, B_S = {%s}, %lld outputs C[%lld, %lld)\n", iteration,
                  slice(A_S, 0, A_tile).c_str(), slice(B_S, 0, B_tile).c_str(), static_cast<long long>(C_tile),
                  static_cast<long long>(C_curr + C_completed), static_cast<long long>(C_curr + C_completed + C_tile));
      for (int t = 0; t < tiled.block; ++t) {
        const std::int64_t c_curr = part_begin(t, tiled.block, C_tile);
        const std::int64_t c_next = part_begin(t + 1, tiled.block, C_tile);
        const std::int64_t a_curr = co_rank(c_curr, A_S, A_tile, B_S, B_tile);
        const std::int64_t a_next = co_rank(c_next, A_S, A_tile, B_S, B_tile);
        std::printf("      thread %d: c %lld..%lld  a %lld..%lld  b %lld..%lld  -> {%s | %s}\n", t,
                    static_cast<long long>(c_curr), static_cast<long long>(c_next), static_cast<long long>(a_curr),
                    static_cast<long long>(a_next), static_cast<long long>(c_curr - a_curr),
                    static_cast<long long>(c_next - a_next), slice(A_S, a_curr, a_next).c_str(),
                    slice(B_S, c_curr - a_curr, c_next - a_next).c_str());
      }
      const std::int64_t A_used = co_rank(C_tile, A_S, A_tile, B_S, B_tile);
      std::printf("      consumed: %lld of A_S, %lld of B_S (co_rank(%lld) over the %lld + %lld filled slots, M6)\n",
                  static_cast<long long>(A_used), static_cast<long long>(C_tile - A_used),
                  static_cast<long long>(C_tile), static_cast<long long>(A_tile), static_cast<long long>(B_tile));
      C_completed += C_tile;
      A_consumed += A_used;
    }
  }
  std::printf("\n");
  return splits;
}

template <class K>
void write_merge_path_svg(const std::vector<K>& A, const std::vector<K>& B, const trace_splits& splits,
                          const config& basic, const config& tiled, const char* track, const std::string& file) {
  if constexpr (std::is_floating_point_v<K>) {
    throw std::logic_error("the merge-path picture draws integer keys");
  } else {
    const auto m = static_cast<std::int64_t>(A.size());
    const auto n = static_cast<std::int64_t>(B.size());
    wb::svg::merge_path_input picture;
    picture.A.assign(A.begin(), A.end());
    picture.B.assign(B.begin(), B.end());
    // A co-rank outside 0 <= i <= m, 0 <= k - i <= n has no grid point: named, not drawn.
    // One inside the grid but off the path is drawn, in red.
    const auto keep = [&](const std::vector<wb::svg::co_rank_split>& from, std::vector<wb::svg::co_rank_split>& to,
                          const char* who) {
      for (std::size_t at = 0; at < from.size(); ++at) {
        const auto [k, i] = from[at];
        if (i >= 0 && i <= m && k - i >= 0 && k - i <= n) {
          to.push_back(from[at]);
        } else {
          std::printf("merge path: %s %zu's co_rank(%lld) = %lld is outside the %lld x %lld grid: not drawn\n", who, at,
                      static_cast<long long>(k), static_cast<long long>(i), static_cast<long long>(m),
                      static_cast<long long>(n));
        }
      }
    };
    keep(splits.threads, picture.thread_splits, "stage 2 thread");
    keep(splits.blocks, picture.block_splits, "stage 3 block");
    picture.caption = fmt::format("merge path, {} track's co_rank: dots = stage 2's {} threads, squares = stage 3's {} "
                                  "blocks",
                                  track, basic.grid * basic.block, tiled.grid);
    const std::string text = wb::svg::merge_path_svg(picture);
    std::ofstream out(file, std::ios::binary);
    if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush()) {
      throw std::runtime_error("--svg: cannot write " + file);
    }
    std::printf("merge path picture (PMPP Figs. 12.4-12.10): %s\n", file.c_str());
  }
}

template <class K>
void trace_merge(const std::vector<K>& A, const std::vector<K>& B, const config& requested, co_rank_fn<K> co_rank,
                 const char* track, const std::string& svg) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  if (m + n > max_trace) {
    throw wb::usage_error(fmt::format("--trace prints every element: give at most {} in all (m + n = {})", max_trace, m + n));
  }
  if (!svg.empty() && (m > max_svg_side || n > max_svg_side)) {
    throw wb::usage_error(fmt::format("--svg draws one column per element of A and one row per element of B: give at "
                                      "most {} in each (m = {}, n = {})",
                                      max_svg_side, m, n));
  }
  const auto or_default = [](auto value, auto fallback) { return value > 0 ? value : fallback; };
  const config basic{or_default(requested.block, 4), 0, 0, or_default(requested.grid, std::int64_t{1})};
  const config tiled{or_default(requested.block, 2), or_default(requested.tile, 4), 0,
                     or_default(requested.grid, std::int64_t{2})};
  const trace_splits splits = print_trace<K>(A, B, basic, tiled, co_rank, track);
  if (!svg.empty()) write_merge_path_svg<K>(A, B, splits, basic, tiled, track, svg);
}

#define MERGE_INSTANTIATE(K)                                                                                    \
  template void trace_merge<K>(const std::vector<K>&, const std::vector<K>&, const config&, co_rank_fn<K>,      \
                               const char*, const std::string&);                                                \
  template trace_splits print_trace<K>(const std::vector<K>&, const std::vector<K>&, const config&,             \
                                       const config&, co_rank_fn<K>, const char*);                              \
  template void write_merge_path_svg<K>(const std::vector<K>&, const std::vector<K>&, const trace_splits&,      \
                                        const config&, const config&, const char*, const std::string&);
MERGE_FOR_EACH_KEY(MERGE_INSTANTIATE)
#undef MERGE_INSTANTIATE

}  // namespace merge
