// --trace --svg: the trace as a picture, drawn from the data trace.cpp printed (trace_data.hpp):
// (a) stage 3's tiling of the first (batch, head), (b) one row's online softmax.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/svg.hpp"

#include "launch_shapes.hpp"
#include "trace_data.hpp"

namespace attention::trace_data {

namespace {

namespace picture {

constexpr double margin = 16, line_height = 15;
const char* const font_family = "sans-serif";
const char* const blue = "#4e79a7";
const char* const orange = "#f28e2b";
const char* const red = "#d62728";
const char* const grey = "#e6e6e6";

wb::svg::attributes font(double size, wb::svg::attributes more = {}) {
  more.insert(more.begin(), {{"font-family", font_family}, {"font-size", wb::svg::number(size)}});
  return more;
}

const char* fill_of(tile_kind k) {
  return k == tile_kind::whole ? blue : k == tile_kind::masked ? orange : grey;
}

std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines{""};
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    start = end + 1;
  }
  return lines;
}

double write_lines(wb::svg::document& doc, double y, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    y += line_height;
    doc.text(margin, y, line, font(12));
  }
  return y;
}

// Panel (a): the score matrix of batch-head 0, a row of tiles per block, a column per K/V tile.
struct tiling_layout {
  double px = 0;    // one query or key
  double left = 0;  // x of key 0
  double top = 0;   // y of query 0
  std::int64_t padded_kv = 0;
  double x(std::int64_t j) const { return left + px * static_cast<double>(j); }
  double y(std::int64_t i) const { return top + px * static_cast<double>(i); }
};

void draw_tiling(wb::svg::document& doc, const tiling_layout& at, const dims& d,
                 const std::vector<query_block>& blocks) {
  using shape = tiled_shape;
  // K/V stream direction and the tiles' keys
  const double arrow_y = at.top - 24;
  doc.line(at.x(0), arrow_y, at.x(at.padded_kv) - 8, arrow_y, {{"stroke", "#333"}, {"stroke-width", "1.5"}});
  doc.path(
      fmt::format("M {0} {1} L {2} {3} L {2} {4} Z", wb::svg::number(at.x(at.padded_kv)), wb::svg::number(arrow_y),
                  wb::svg::number(at.x(at.padded_kv) - 9), wb::svg::number(arrow_y - 4), wb::svg::number(arrow_y + 4)),
      {{"fill", "#333"}});
  doc.text(at.x(0) + 4, arrow_y - 5, "each block streams K and V through shared memory, a tile at a time", font(11));
  for (std::int64_t j0 = 0; j0 < d.kv_seq; j0 += shape::BC) {
    doc.text((at.x(j0) + at.x(j0 + shape::BC)) / 2, at.top - 6,
             fmt::format("keys {}", span_text(j0, std::min(d.kv_seq, j0 + shape::BC) - 1)),
             font(10, {{"text-anchor", "middle"}}));
  }
  for (const query_block& b : blocks) {
    if (b.bh != 0) continue;
    const std::int64_t warps = (b.i1 - b.i0) / shape::ROWS_PER_WARP + 1;
    const double y0 = at.y(b.i0), y1 = at.y(b.i1 + 1);
    int loaded = 0;
    for (const kv_tile& t : b.tiles) {
      const double x0 = at.x(t.first), x1 = at.x(t.last + 1);
      doc.rect(x0, y0, x1 - x0, y1 - y0,
               {{"class", fmt::format("tile {}", kind_name(t.kind))},
                {"data-block", std::to_string(b.index)},
                {"data-queries", span_text(b.i0, b.i1)},
                {"data-keys", span_text(t.first, t.last)},
                {"fill", fill_of(t.kind)},
                {"stroke", "white"},
                {"stroke-width", "1.5"}});
      if (t.kind == tile_kind::skipped) continue;
      ++loaded;
      if (t.last - t.first + 1 < shape::BC) {  // the rows past kv_seq, loaded as zeros
        doc.rect(x1, y0, at.x(t.first + shape::BC) - x1, y1 - y0,
                 {{"class", "zero-rows"}, {"fill", "none"}, {"stroke", "#888"}, {"stroke-dasharray", "3 2"}});
      }
      if (t.kind != tile_kind::masked) continue;
      // The keys each query of the tile does not see: a staircase, drawn pale.
      std::string stairs = fmt::format("M {} {}", wb::svg::number(x1), wb::svg::number(y0));
      for (std::int64_t i = b.i0; i <= b.i1; ++i) {
        const double x = at.x(std::clamp(visible_end(d, i), t.first, t.last + 1));
        stairs += fmt::format(" H {} V {}", wb::svg::number(x), wb::svg::number(at.y(i + 1)));
      }
      stairs += fmt::format(" H {} Z", wb::svg::number(x1));
      doc.path(stairs, {{"class", "hidden-keys"}, {"fill", "white"}, {"fill-opacity", "0.65"}});
    }
    for (std::int64_t w = 1; w < warps; ++w) {  // the warps' rows
      const double y = at.y(b.i0 + w * shape::ROWS_PER_WARP);
      doc.line(at.x(0), y, at.x(d.kv_seq), y, {{"stroke", "white"}, {"stroke-width", "0.6"}});
    }
    if (at.px * shape::ROWS_PER_WARP >= 8) {
      for (std::int64_t w = 0; w < warps; ++w) {
        const double yc = at.y(b.i0 + w * shape::ROWS_PER_WARP) +
                          at.px *
                              static_cast<double>(std::min<std::int64_t>(shape::ROWS_PER_WARP,
                                                                         b.i1 + 1 - b.i0 - w * shape::ROWS_PER_WARP)) /
                              2;
        doc.text(at.left - 4, yc + 3, fmt::format("w{}", w),
                 font(std::min(9.0, at.px * shape::ROWS_PER_WARP - 1), {{"text-anchor", "end"}}));
      }
    }
    doc.rect(at.x(0), y0, at.x(d.kv_seq) - at.x(0), y1 - y0, {{"fill", "none"}, {"stroke", "#333"}});
    const double yc = (y0 + y1) / 2;
    doc.text(margin, yc - 2, fmt::format("block {}, queries {}", b.index, span_text(b.i0, b.i1)), font(11));
    const std::string warp_text =
        warps == 1 ? "warp w0" : fmt::format("warps w0-w{}, {} rows each", warps - 1, shape::ROWS_PER_WARP);
    doc.text(margin, yc + 11, warp_text, font(11));
    doc.text(at.x(at.padded_kv) + 8, yc + 4,
             fmt::format("loads {} of {} tile{}", loaded, b.tiles.size(), b.tiles.size() == 1 ? "" : "s"), font(11));
  }
  if (d.causal) {  // query i sees keys j <= i + kv_seq - seq: the line j = i + kv_seq - seq, corner to corner
    doc.line(at.x(d.kv_seq - d.seq), at.y(0), at.x(d.kv_seq), at.y(d.seq),
             {{"class", "diagonal"}, {"stroke", red}, {"stroke-width", "1.2"}});
  }
}

double draw_tiling_legend(wb::svg::document& doc, double y, const dims& d) {
  const std::vector<std::pair<const char*, std::string>> items = {
      {blue, "whole: every query sees every key"},
      {orange, "masked: crosses the diagonal, masked row by row (pale: keys the row does not see)"},
      {grey, "skipped: no query of the block sees it, never loaded"}};
  for (const auto& [fill, what] : items) {
    doc.rect(margin, y - 9, 14, 10, {{"fill", fill}});
    doc.text(margin + 20, y, what, font(11));
    y += line_height;
  }
  if (d.causal) {
    doc.line(margin, y - 4, margin + 14, y - 4, {{"stroke", red}, {"stroke-width", "1.2"}});
    doc.text(margin + 20, y, fmt::format("the diagonal: query i sees keys 0 to i + {}", d.kv_seq - d.seq), font(11));
    y += line_height;
  }
  if (d.kv_seq % tiled_shape::BC != 0) {
    doc.rect(margin, y - 9, 14, 10, {{"fill", "none"}, {"stroke", "#888"}, {"stroke-dasharray", "3 2"}});
    doc.text(margin + 20, y, "the last tile's rows past kv_seq, loaded as zeros", font(11));
    y += line_height;
  }
  return y;
}

// Panel (b): query 0's online softmax, key by key (stage 2), with stage 3's steps, one per tile.
struct chart_layout {
  double left = 0, column = 0, top = 0, height = 0;  // one plot
  double lo = 0, hi = 1;
  double x(std::int64_t j) const { return left + column * static_cast<double>(j); }  // key j's left edge
  double y(double v) const { return top + height * (hi - v) / (hi - lo); }
};

constexpr double plot_height = 110, alpha_row = 44;

bool all_finite(const std::vector<softmax_step>& keys, const std::vector<softmax_step>& tiles) {
  for (const auto* steps : {&keys, &tiles}) {
    for (const softmax_step& s : *steps) {
      if (s.end > s.first && !(std::isfinite(s.step_max) && std::isfinite(s.m) && std::isfinite(s.l))) return false;
    }
  }
  return true;
}

double draw_online(wb::svg::document& doc, double y, double width, const std::vector<softmax_step>& keys,
                   const std::vector<softmax_step>& tiles) {
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  chart_layout top{margin + 52, 0, y, plot_height};
  top.column = (width - top.left - margin - 8) / static_cast<double>(n);
  chart_layout bottom = top;
  bottom.top = y + plot_height + 18;
  top.lo = INFINITY, top.hi = -INFINITY;
  bottom.lo = 0, bottom.hi = 0;
  for (const softmax_step& s : keys) {
    top.lo = std::min(top.lo, static_cast<double>(s.step_max));
    top.hi = std::max(top.hi, static_cast<double>(s.m));
    bottom.hi = std::max(bottom.hi, static_cast<double>(s.l));
  }
  for (const softmax_step& s : tiles) bottom.hi = std::max(bottom.hi, static_cast<double>(s.l));
  const double pad = std::max(0.05, 0.08 * (top.hi - top.lo));
  top.lo -= pad;
  top.hi += pad;
  bottom.hi = bottom.hi * 1.08 + 1e-6;
  const double right = top.x(n);
  for (const chart_layout* c : {&top, &bottom}) {
    doc.rect(c->left, c->top, right - c->left, c->height, {{"fill", "#fafafa"}, {"stroke", "#999"}});
    for (std::int64_t j = tiled_shape::BC; j < n; j += tiled_shape::BC) {  // stage 3's tile edges
      doc.line(c->x(j), c->top, c->x(j), c->top + c->height, {{"stroke", "#999"}, {"stroke-dasharray", "4 3"}});
    }
  }
  const auto tick = [&](const chart_layout& c, double v) {
    doc.text(c.left - 4, c.y(v) + 4, fmt::format("{:.3g}", v), font(10, {{"text-anchor", "end"}}));
  };
  tick(top, top.lo + pad);
  if (top.hi - top.lo > 2 * pad) tick(top, top.hi - pad);  // all scores equal: one tick
  tick(bottom, 0);
  tick(bottom, (bottom.hi - 1e-6) / 1.08);
  doc.text(top.left + 4, top.top + 12, "scores s_j (dots) and the running max m_j", font(10, {{"fill", "#555"}}));
  doc.text(bottom.left + 4, bottom.top + 12, "the running sum l_j = sum of exp(s - m_j)", font(10, {{"fill", "#555"}}));

  doc.begin_group({{"class", "scores"}, {"fill", blue}});
  for (std::int64_t j = 0; j < n; ++j) {
    doc.circle(
        top.x(j) + top.column / 2, top.y(keys[j].step_max), 2.2,
        {{"class", "score"}, {"data-key", std::to_string(j)}, {"data-value", fmt::format("{:.4g}", keys[j].step_max)}});
  }
  doc.end_group();
  std::vector<wb::svg::point> m_line, l_line{{bottom.x(0), bottom.y(0)}};
  for (std::int64_t j = 0; j < n; ++j) {
    const softmax_step& s = keys[j];
    m_line.push_back({top.x(j), top.y(s.m)});
    m_line.push_back({top.x(j + 1), top.y(s.m)});
  }
  float l_before = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) {
    const softmax_step& s = keys[j];
    l_line.push_back({bottom.x(j), bottom.y(l_before * s.alpha)});
    l_line.push_back({bottom.x(j), bottom.y(s.l)});
    l_line.push_back({bottom.x(j + 1), bottom.y(s.l)});
    l_before = s.l;
  }
  doc.polyline(m_line, {{"class", "running-max"}, {"fill", "none"}, {"stroke", red}, {"stroke-width", "1.5"}});
  doc.polyline(l_line, {{"class", "running-sum"}, {"fill", "none"}, {"stroke", blue}, {"stroke-width", "1.5"}});

  // Each step's m and l (as the text prints them), and the rescales where the max grew.
  const double alpha_base = bottom.top + plot_height + alpha_row;
  l_before = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) {
    const softmax_step& s = keys[j];
    const bool rescaled = s.m_old != -INFINITY && s.m > s.m_old;
    const double xc = bottom.x(j) + bottom.column / 2;
    doc.circle(xc, bottom.y(s.l), 1.6,
               {{"class", "step"},
                {"data-key", std::to_string(j)},
                {"data-m", fmt::format("{:.4g}", s.m)},
                {"data-l", fmt::format("{:.6g}", s.l)},
                {"data-alpha", rescaled ? fmt::format("{:.4g}", s.alpha) : "1"},
                {"fill", blue}});
    if (rescaled) {
      doc.line(bottom.x(j), bottom.y(l_before), bottom.x(j), bottom.y(l_before * s.alpha),
               {{"class", "rescale"}, {"data-key", std::to_string(j)}, {"stroke", red}, {"stroke-width", "2"}});
      doc.text(xc + 3, alpha_base - 2, fmt::format("×{:.3g}", s.alpha),
               font(9, {{"class", "alpha"},
                        {"fill", red},
                        {"transform",
                         fmt::format("rotate(-90 {} {})", wb::svg::number(xc + 3), wb::svg::number(alpha_base - 2))}}));
    }
    l_before = s.l;
  }
  doc.text(margin, alpha_base - 16, "rescale", font(10, {{"fill", red}}));
  doc.text(margin, alpha_base - 4, "exp(m-m')", font(10, {{"fill", red}}));
  const std::int64_t label_every = n <= 20 ? 1 : n <= 64 ? 5 : 10;
  for (std::int64_t j = 0; j < n; j += label_every) {
    doc.text(bottom.x(j) + bottom.column / 2, alpha_base + 13, std::to_string(j), font(9, {{"text-anchor", "middle"}}));
  }
  doc.text(margin, alpha_base + 13, "key j", font(10));

  // Stage 3: the same row, one step per K/V tile (its last key): the same m and l.
  doc.begin_group({{"fill", "white"}, {"stroke", "#333"}, {"stroke-width", "1.2"}});
  for (const softmax_step& s : tiles) {
    if (s.end <= s.first) continue;
    const double x = top.x(s.end);
    for (const auto& [c, v] : {std::pair{&top, s.m}, std::pair{&bottom, s.l}}) {
      const double yv = c->y(v);
      doc.path(fmt::format("M {0} {1} L {2} {3} L {0} {4} L {5} {3} Z", wb::svg::number(x), wb::svg::number(yv - 4.5),
                           wb::svg::number(x + 4.5), wb::svg::number(yv), wb::svg::number(yv + 4.5),
                           wb::svg::number(x - 4.5)),
               {{"class", "tile-step"},
                {"data-keys", span_text(s.first, s.end - 1)},
                {"data-m", fmt::format("{:.4g}", s.m)},
                {"data-l", fmt::format("{:.6g}", s.l)}});
    }
  }
  doc.end_group();
  return alpha_base + 13;
}

}  // namespace picture

}  // namespace

void draw_trace(const dims& d, const std::vector<softmax_step>& keys, const tiled_trace& tiled,
                const std::string& file) {
  using namespace picture;
  using shape = tiled_shape;
  tiling_layout at;
  at.padded_kv = (d.kv_seq + shape::BC - 1) / shape::BC * shape::BC;
  at.px = std::min(8.0, 480.0 / static_cast<double>(at.padded_kv));
  at.left = margin + 190;
  const double width = std::max(680.0, at.x(at.padded_kv) + 110 + margin);
  const std::size_t chars = static_cast<std::size_t>(width / 6.6);

  const auto head_a = wrap(
      fmt::format(
          "(a) stage 3 (tiled): the scores of batch-head 0{}, {} queries (rows) x {} keys (columns); {}. A "
          "block of {} threads takes {} queries, {} warps of {} rows, and loops over the K/V tiles of {} keys.",
          d.batch * d.heads > 1 ? fmt::format(" of {} (each is tiled the same)", d.batch * d.heads) : "", d.seq,
          d.kv_seq,
          d.causal ? fmt::format("causal, bottom-right: query i sees keys 0 to i + {}", d.kv_seq - d.seq) : "no mask",
          shape::THREADS, shape::BR, shape::WARPS, shape::ROWS_PER_WARP, shape::BC),
      chars);
  const std::int64_t row_keys = static_cast<std::int64_t>(keys.size());
  const auto head_b =
      wrap(fmt::format(
               "(b) stage 2 (online): query 0 (block 0, warp 0) over the {} key{} it sees, one step per key: the "
               "running max m, and the running sum l, multiplied by exp(m - m') whenever a score raises the max to "
               "m' (red). Diamonds: stage 3's steps for the same query, one per K/V tile, arrive at the same m and l.",
               row_keys, row_keys == 1 ? "" : "s"),
           chars);
  const bool drawable = all_finite(keys, tiled.first_row);
  const double legend_lines = 3 + (d.causal ? 1 : 0) + (d.kv_seq % shape::BC != 0 ? 1 : 0);
  const double top_a = margin + line_height * static_cast<double>(head_a.size()) + 40;
  at.top = top_a;
  const double legend_a = std::max(at.y(d.seq), at.top + 30) + 20;  // room for a block's two label lines
  const double top_b = legend_a + line_height * legend_lines + 16;
  const double plots = drawable ? 2 * plot_height + 18 + alpha_row + 13 : line_height;
  const double height = top_b + line_height * static_cast<double>(head_b.size()) + 10 + plots + margin;

  wb::svg::document doc(width, height);
  doc.rect(0, 0, width, height, {{"fill", "white"}});
  write_lines(doc, margin - 4, head_a);
  draw_tiling(doc, at, d, tiled.blocks);
  draw_tiling_legend(doc, legend_a, d);
  const double y = write_lines(doc, top_b - 4, head_b) + 10;
  if (drawable) {
    draw_online(doc, y, width, keys, tiled.first_row);
  } else {
    doc.text(margin, y + 12, "not drawn: a score of this row is not a finite number", font(12, {{"fill", red}}));
  }
  doc.save(file);
  std::printf("wrote %s\n", file.c_str());
}

}  // namespace attention::trace_data
