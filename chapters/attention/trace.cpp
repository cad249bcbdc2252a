#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/arguments.hpp"
#include "wb/device_buffer.hpp"
#include "wb/track.hpp"

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "reference.hpp"

namespace attention {

namespace {

std::string span_text(std::int64_t first, std::int64_t last) {
  if (last < first) return "none";
  return first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last);
}

// The score of query row `row` (of all rows) and key j of its (batch, head), as the stages
// compute it: q scaled once, then the dot product in fp32.
float score(const problem_input& in, std::int64_t row, std::int64_t j) {
  const dims& d = in.d;
  const std::int64_t bh = row / d.seq;
  const float scale = softmax_scale(d.dim);
  float s = 0.0f;
  for (std::int64_t c = 0; c < d.dim; ++c) s += in.Q[row * d.dim + c] * scale * in.K[(bh * d.kv_seq + j) * d.dim + c];
  return s;
}

// One online-softmax step over keys [j0, j1) of a row: prints the tile's max, the rescale of
// what was summed, the new m and l.
void online_step(const problem_input& in, std::int64_t row, std::int64_t j0, std::int64_t j1, float& m, float& l,
                 const std::string& what) {
  float tile_max = -INFINITY;
  for (std::int64_t j = j0; j < j1; ++j) tile_max = std::max(tile_max, score(in, row, j));
  const float m_new = std::max(m, tile_max);
  const float alpha = std::exp(m - m_new);
  float sum = 0.0f;
  for (std::int64_t j = j0; j < j1; ++j) sum += std::exp(score(in, row, j) - m_new);
  const std::string rescale = m == -INFINITY ? "first keys: nothing to rescale"
                              : m_new > m    ? fmt::format("max grew: l and acc x exp({:.4g} - {:.4g}) = {:.4g}", m, m_new, alpha)
                                             : "max unchanged: no rescale";
  l = l * alpha + sum;
  m = m_new;
  std::printf("      %s: %s %.4g; %s; m = %.4g, l = %.6g\n", what.c_str(), j1 - j0 == 1 ? "score" : "max", tile_max,
              rescale.c_str(), m, l);
}

void trace_online(const problem_input& in) {
  const dims& d = in.d;
  const std::int64_t rows = query_rows(d);
  std::printf("stage 2 (online): a warp per query row, %d rows per block of %d threads; %lld blocks\n",
              online_shape::WARPS, 32 * online_shape::WARPS,
              static_cast<long long>((rows + online_shape::WARPS - 1) / online_shape::WARPS));
  for (std::int64_t b = 0; b * online_shape::WARPS < rows; ++b) {
    const std::int64_t first = b * online_shape::WARPS, last = std::min(rows, first + online_shape::WARPS) - 1;
    std::printf("  block %lld: warps 0-%lld own rows %s (batch-head %lld, queries %s)\n", static_cast<long long>(b),
                static_cast<long long>(last - first), span_text(first, last).c_str(),
                static_cast<long long>(first / d.seq),
                span_text(first % d.seq, first / d.seq == last / d.seq ? last % d.seq : d.seq - 1).c_str());
  }
  const std::int64_t row = 0, end = visible_end(d, 0);
  std::printf("    query 0 (block 0, warp 0), key by key (keys 0-%lld):\n", static_cast<long long>(end - 1));
  float m = -INFINITY, l = 0.0f;
  for (std::int64_t j = 0; j < end; ++j) {
    if (end > 12 && j == 6) std::printf("      ... keys 6-%lld ...\n", static_cast<long long>(end - 7));
    if (end > 12 && j >= 6 && j < end - 6) {
      const float s = score(in, row, j), m_new = std::max(m, s);
      l = l * std::exp(m - m_new) + std::exp(s - m_new);
      m = m_new;
      continue;
    }
    online_step(in, row, j, j + 1, m, l, fmt::format("key {}", j));
  }
}

void trace_tiled(const problem_input& in) {
  using shape = tiled_shape;
  const dims& d = in.d;
  const std::int64_t query_tiles = (d.seq + shape::BR - 1) / shape::BR;
  std::printf(
      "stage 3 (tiled): a block of %d threads per %d queries of a (batch, head), warp w rows 4w-4w+3; K and V "
      "through shared memory in tiles of %d keys; %lld blocks\n",
      shape::THREADS, shape::BR, shape::BC, static_cast<long long>(d.batch * d.heads * query_tiles));
  for (std::int64_t blk = 0; blk < d.batch * d.heads * query_tiles; ++blk) {
    const std::int64_t bh = blk / query_tiles, i0 = (blk % query_tiles) * shape::BR;
    const std::int64_t i1 = std::min(d.seq, i0 + shape::BR) - 1;
    const std::int64_t block_end = visible_end(d, i1);
    std::printf("  block %lld: batch-head %lld, queries %s (warps 0-%lld)\n", static_cast<long long>(blk),
                static_cast<long long>(bh), span_text(i0, i1).c_str(),
                static_cast<long long>((i1 - i0) / shape::ROWS_PER_WARP));
    for (std::int64_t j0 = 0; j0 < d.kv_seq; j0 += shape::BC) {
      const std::int64_t j1 = std::min(d.kv_seq, j0 + shape::BC) - 1;
      std::string how;
      if (j0 >= block_end) {
        how = "skipped: above the diagonal, no query of the block sees it";
      } else if (d.causal && j1 >= visible_end(d, i0)) {
        how = fmt::format("masked: crosses the diagonal (query {} sees up to key {}, query {} up to {})", i0,
                          visible_end(d, i0) - 1, i1, std::min(j1, visible_end(d, i1) - 1));
      } else {
        how = "whole: every query of the block sees every key";
      }
      const std::string zeros = j0 < block_end && j1 - j0 + 1 < shape::BC
                                    ? fmt::format(" (the tile's last {} rows, past kv_seq, are zeros)", shape::BC - (j1 - j0 + 1))
                                    : "";
      std::printf("    K/V tile keys %s: %s%s\n", span_text(j0, j1).c_str(), how.c_str(), zeros.c_str());
    }
    for (const std::int64_t i : {i0, i1}) {
      const std::int64_t row = bh * d.seq + i, end = visible_end(d, i);
      std::printf("    query %lld (warp %lld, its row %lld of %d), tile by tile:\n", static_cast<long long>(i),
                  static_cast<long long>((i - i0) / shape::ROWS_PER_WARP),
                  static_cast<long long>((i - i0) % shape::ROWS_PER_WARP), shape::ROWS_PER_WARP);
      float m = -INFINITY, l = 0.0f;
      for (std::int64_t j0 = 0; j0 < block_end; j0 += shape::BC) {
        const std::int64_t j1 = std::min(end, j0 + shape::BC);
        if (j1 <= j0) {
          std::printf("      tile keys %s: sees none of it, m and l stay\n",
                      span_text(j0, std::min(d.kv_seq, j0 + shape::BC) - 1).c_str());
          continue;
        }
        online_step(in, row, j0, j1, m, l, fmt::format("tile keys {}", span_text(j0, j1 - 1)));
      }
      if (i0 == i1) break;
    }
  }
}

void trace_decode(const options& opt, const problem_input& in) {
  const dims& d = in.d;
  if (d.seq > max_decode_queries) {
    std::printf("stage 6 (decode): not traced, it takes at most %lld queries per sequence\n",
                static_cast<long long>(max_decode_queries));
    return;
  }
  const decode_plan plan = plan_decode(d, decode_config{opt.chunk});
  std::printf("stage 6 (decode): the keys of each (batch, head) in %lld splits of %lld (--chunk); a warp per (batch-head, "
              "split, query), %d per block; then a warp per query combines the splits\n",
              static_cast<long long>(plan.splits), static_cast<long long>(plan.chunk), decode_shape::WARPS);
  for (std::int64_t i = 0; i < d.seq; ++i) {
    std::printf("  query %lld of batch-head 0 (sees keys 0-%lld):\n", static_cast<long long>(i),
                static_cast<long long>(visible_end(d, i) - 1));
    float M = -INFINITY;
    std::vector<float> ms, ls;
    for (std::int64_t s = 0; s < plan.splits; ++s) {
      const std::int64_t w = s * d.seq + i;
      const std::int64_t begin = s * plan.chunk, end = std::min(begin + plan.chunk, visible_end(d, i));
      float m = -INFINITY, l = 0.0f;
      for (std::int64_t j = begin; j < end; ++j) {
        const float sc = score(in, i, j), m_new = std::max(m, sc);
        l = l * std::exp(m - m_new) + std::exp(sc - m_new);
        m = m_new;
      }
      const std::int64_t last = std::min(begin + plan.chunk, d.kv_seq) - 1;
      const std::string seen = end > begin && end - 1 < last ? fmt::format(" (sees {})", span_text(begin, end - 1)) : "";
      std::printf("    split %lld (block %lld, warp %lld) keys %s%s: %s\n", static_cast<long long>(s),
                  static_cast<long long>(w / decode_shape::WARPS), static_cast<long long>(w % decode_shape::WARPS),
                  span_text(begin, last).c_str(), seen.c_str(),
                  end <= begin ? "the query sees none: m = -inf, l = 0"
                               : fmt::format("m_s = {:.4g}, l_s = {:.6g}", m, l).c_str());
      ms.push_back(m);
      ls.push_back(l);
      M = std::max(M, m);
    }
    float L = 0.0f;
    for (std::size_t s = 0; s < ms.size(); ++s) L += ls[s] * std::exp(ms[s] - M);
    std::printf("    combine: M = %.4g, L = sum l_s exp(m_s - M) = %.6g\n", M, L);
  }
}

}  // namespace

void check_trace_size(const dims& d) {
  if (d.seq > max_trace_seq || d.kv_seq > max_trace_seq || d.batch * d.heads > max_trace_heads) {
    throw wb::usage_error(fmt::format("--trace follows every query and tile: give --seq and --kv-seq of at most {} and "
                                      "--batch times --heads at most {} (e.g. --batch 1 --heads 1 --seq 40 --kv-seq 70 "
                                      "--dim 4 --causal)",
                                      max_trace_seq, max_trace_heads));
  }
}

int trace(const options& opt, const problem_input& in) {
  const dims& d = in.d;
  std::printf("trace: batch %lld, heads %lld, seq %lld, kv_seq %lld, d %lld, %s\n", static_cast<long long>(d.batch),
              static_cast<long long>(d.heads), static_cast<long long>(d.seq), static_cast<long long>(d.kv_seq),
              static_cast<long long>(d.dim),
              d.causal ? fmt::format("causal, bottom-right: query i sees keys 0 to i + {}", d.kv_seq - d.seq).c_str()
                       : "no mask: every query sees every key");
  if (query_rows(d) == 0) return 0;
  trace_online(in);
  trace_tiled(in);
  trace_decode(opt, in);

  // The stages themselves on the device, checked against the reference.
  const reference ref(d, in.Q, in.K, in.V);
  wb::device_buffer<float> Q(in.Q), K(in.K), V(in.V), O(in.Q.size());
  wb::device_buffer<unsigned char> partials(decode_workspace_bytes(d, decode_config{opt.chunk}));
  const problem<float> p{Q.data(), K.data(), V.data(), O.data(), d};
  std::vector<wb::track> tracks{wb::track_named(opt.common.track)};
  if (opt.common.compare) tracks = {wb::track::solution, wb::track::exercise};
  int status = 0;
  for (const int stage : {2, 3, 6}) {
    if (stage == 6 && d.seq > max_decode_queries) continue;
    for (const wb::track t : tracks) {
      O.fill_bytes(0x7F);
      std::string wrong;
      try {
        WB_WITH_TRACK(attention, t, {
          if (stage == 2) tr::attention_online(p);
          else if (stage == 3) tr::attention_tiled(p);
          else tr::attention_decode(p, {partials.data(), partials.size()}, decode_config{opt.chunk});
        });
        WB_CHECK(cudaDeviceSynchronize());
        wrong = ref.check(O.to_host());
      } catch (const std::exception& e) {
        wrong = e.what();
      }
      std::printf("%s stage %d (%s): %s\n", wrong.empty() ? "  " : "!!", stage, wb::track_name(t),
                  wrong.empty() ? "O within the bound of the reference" : wrong.c_str());
      if (!wrong.empty()) status = 1;
    }
  }
  return status;
}

}  // namespace attention
