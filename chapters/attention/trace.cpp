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
#include "wb/svg.hpp"
#include "wb/track.hpp"

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "reference.hpp"
#include "trace_data.hpp"

namespace attention {

namespace {

using namespace trace_data;


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


// Takes the step from m and l (updated), in the stages' order and precision.
softmax_step online_step(const problem_input& in, std::int64_t row, std::int64_t j0, std::int64_t j1, float& m,
                         float& l) {
  softmax_step s{j0, j1, -INFINITY, m, m, 1.0f, l};
  if (j1 <= j0) return s;
  for (std::int64_t j = j0; j < j1; ++j) s.step_max = std::max(s.step_max, score(in, row, j));
  s.m = std::max(m, s.step_max);
  s.alpha = std::exp(m - s.m);
  float sum = 0.0f;
  for (std::int64_t j = j0; j < j1; ++j) sum += std::exp(score(in, row, j) - s.m);
  s.l = l * s.alpha + sum;
  m = s.m;
  l = s.l;
  return s;
}

// Prints a step: the key's score or the tile's max, the rescale of what was summed, m and l.
void print_step(const softmax_step& s, const std::string& what) {
  const std::string rescale = s.m_old == -INFINITY ? "first keys: nothing to rescale"
                              : s.m > s.m_old      ? fmt::format("max grew: l and acc x exp({:.4g} - {:.4g}) = {:.4g}",
                                                                 s.m_old, s.m, s.alpha)
                                                   : "max unchanged: no rescale";
  std::printf("      %s: %s %.4g; %s; m = %.4g, l = %.6g\n", what.c_str(), s.end - s.first == 1 ? "score" : "max",
              s.step_max, rescale.c_str(), s.m, s.l);
}

// Prints stage 2's blocks and query 0's steps, key by key; returns those steps (--svg draws them).
std::vector<softmax_step> trace_online(const problem_input& in) {
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
  std::vector<softmax_step> steps;
  float m = -INFINITY, l = 0.0f;
  for (std::int64_t j = 0; j < end; ++j) {
    steps.push_back(online_step(in, row, j, j + 1, m, l));
    if (end > 12 && j == 6) std::printf("      ... keys 6-%lld ...\n", static_cast<long long>(end - 7));
    if (end <= 12 || j < 6 || j >= end - 6) print_step(steps.back(), fmt::format("key {}", j));
  }
  return steps;
}


std::vector<query_block> tiled_blocks(const dims& d) {
  using shape = tiled_shape;
  const std::int64_t query_tiles = (d.seq + shape::BR - 1) / shape::BR;
  std::vector<query_block> blocks;
  for (std::int64_t blk = 0; blk < d.batch * d.heads * query_tiles; ++blk) {
    query_block b;
    b.index = blk;
    b.bh = blk / query_tiles;
    b.i0 = (blk % query_tiles) * shape::BR;
    b.i1 = std::min(d.seq, b.i0 + shape::BR) - 1;
    b.block_end = visible_end(d, b.i1);
    for (std::int64_t j0 = 0; j0 < d.kv_seq; j0 += shape::BC) {
      const std::int64_t j1 = std::min(d.kv_seq, j0 + shape::BC) - 1;
      const tile_kind kind = j0 >= b.block_end                        ? tile_kind::skipped
                             : d.causal && j1 >= visible_end(d, b.i0) ? tile_kind::masked
                                                                      : tile_kind::whole;
      b.tiles.push_back({j0, j1, kind});
    }
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// Query i of a block (row: its index among all rows), tile by tile, over the tiles the block loads.
std::vector<softmax_step> tiled_row_steps(const problem_input& in, const query_block& b, std::int64_t i) {
  const std::int64_t row = b.bh * in.d.seq + i, end = visible_end(in.d, i);
  std::vector<softmax_step> steps;
  float m = -INFINITY, l = 0.0f;
  for (std::int64_t j0 = 0; j0 < b.block_end; j0 += tiled_shape::BC) {
    steps.push_back(online_step(in, row, j0, std::min(end, j0 + tiled_shape::BC), m, l));
  }
  return steps;
}


// Prints stage 3's blocks, their tiles and the first and last query of each, tile by tile;
// returns the blocks and block 0's first query (--svg draws them).
tiled_trace trace_tiled(const problem_input& in) {
  using shape = tiled_shape;
  const dims& d = in.d;
  tiled_trace out{tiled_blocks(d), {}};
  std::printf(
      "stage 3 (tiled): a block of %d threads per %d queries of a (batch, head), warp w rows 4w-4w+3; K and V "
      "through shared memory in tiles of %d keys; %lld blocks\n",
      shape::THREADS, shape::BR, shape::BC, static_cast<long long>(out.blocks.size()));
  for (const query_block& b : out.blocks) {
    std::printf("  block %lld: batch-head %lld, queries %s (warps 0-%lld)\n", static_cast<long long>(b.index),
                static_cast<long long>(b.bh), span_text(b.i0, b.i1).c_str(),
                static_cast<long long>((b.i1 - b.i0) / shape::ROWS_PER_WARP));
    for (const kv_tile& t : b.tiles) {
      const std::string how =
          t.kind == tile_kind::skipped ? "skipped: above the diagonal, no query of the block sees it"
          : t.kind == tile_kind::masked
              ? fmt::format("masked: crosses the diagonal (query {} sees up to key {}, query {} up to {})", b.i0,
                            visible_end(d, b.i0) - 1, b.i1, std::min(t.last, visible_end(d, b.i1) - 1))
              : "whole: every query of the block sees every key";
      const std::int64_t keys = t.last - t.first + 1;
      const std::string zeros =
          t.kind != tile_kind::skipped && keys < shape::BC
              ? fmt::format(" (the tile's last {} rows, past kv_seq, are zeros)", shape::BC - keys)
              : "";
      std::printf("    K/V tile keys %s: %s%s\n", span_text(t.first, t.last).c_str(), how.c_str(), zeros.c_str());
    }
    for (const std::int64_t i : {b.i0, b.i1}) {
      std::printf("    query %lld (warp %lld, its row %lld of %d), tile by tile:\n", static_cast<long long>(i),
                  static_cast<long long>((i - b.i0) / shape::ROWS_PER_WARP),
                  static_cast<long long>((i - b.i0) % shape::ROWS_PER_WARP), shape::ROWS_PER_WARP);
      const std::vector<softmax_step> steps = tiled_row_steps(in, b, i);
      for (const softmax_step& s : steps) {
        if (s.end <= s.first) {
          std::printf("      tile keys %s: sees none of it, m and l stay\n",
                      span_text(s.first, std::min(d.kv_seq, s.first + shape::BC) - 1).c_str());
        } else {
          print_step(s, fmt::format("tile keys {}", span_text(s.first, s.end - 1)));
        }
      }
      if (b.index == 0 && i == b.i0) out.first_row = steps;
      if (b.i0 == b.i1) break;
    }
  }
  return out;
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
  if (query_rows(d) == 0) {
    if (!opt.svg.empty()) throw wb::usage_error("--svg: there are no queries to draw (--seq, --batch and --heads > 0)");
    return 0;
  }
  const std::vector<softmax_step> keys = trace_online(in);
  const tiled_trace tiled = trace_tiled(in);
  trace_decode(opt, in);
  if (!opt.svg.empty()) draw_trace(d, keys, tiled, opt.svg);

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
