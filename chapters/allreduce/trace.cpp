// The ring's schedule as text and as a picture (trace.hpp).
#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "wb/svg.hpp"

namespace allreduce {
namespace {

const char* phase_name(int phase) { return phase == 0 ? "reduce-scatter" : "all-gather"; }

// One arrow per (phase, step, from): the pieces of a segment drawn together.
struct move {
  int segment = 0;
  std::int64_t begin = 0, end = 0;
  int pieces = 0;
};
std::map<std::tuple<int, int, int>, move> moves_of(const std::vector<ring_transfer>& plan) {
  std::map<std::tuple<int, int, int>, move> moves;
  for (const ring_transfer& tr : plan) {
    auto [it, fresh] = moves.try_emplace({tr.phase, tr.step, tr.from}, move{tr.segment, tr.begin, tr.end, 0});
    it->second.begin = std::min(it->second.begin, tr.begin);
    it->second.end = std::max(it->second.end, tr.end);
    it->second.pieces += 1;
  }
  return moves;
}

}  // namespace

std::string ring_trace_text(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk) {
  std::string out = fmt::format("ring all-reduce of {} elements on {} ranks: {} segments, pieces of at most {} elements\n",
                                n, ranks, ranks, chunk);
  if (plan.empty()) return out + "  nothing moves (one rank, or no elements)\n";
  std::vector<std::int64_t> sent(static_cast<std::size_t>(ranks), 0);
  int phase = -1, step = -1;
  for (const auto& [key, m] : moves_of(plan)) {
    const auto [p, s, from] = key;
    if (p != phase || s != step) {
      if (p != phase && p == 1) {
        out += "  after reduce-scatter rank r holds the whole sum of segment (r + 1) mod G\n";
      }
      phase = p;
      step = s;
      out += fmt::format("{} step {}:\n", phase_name(p), s);
    }
    out += fmt::format("  rank {} -> rank {}: segment {} [{}, {}){}{}\n", from, (from + 1) % ranks, m.segment, m.begin,
                       m.end, m.pieces > 1 ? fmt::format(" in {} pieces", m.pieces) : "",
                       p == 0 ? fmt::format(", added to rank {}'s own", (from + 1) % ranks) : ", kept");
    sent[static_cast<std::size_t>(from)] += m.end - m.begin;
  }
  out += "  afterwards every rank holds the whole sum of every segment\n";
  for (int r = 0; r < ranks; ++r) {
    out += fmt::format("rank {} sent {} of its {} elements ({:.3f} of its data; 2 (G - 1) / G = {:.3f})\n", r,
                       sent[static_cast<std::size_t>(r)], n,
                       n > 0 ? static_cast<double>(sent[static_cast<std::size_t>(r)]) / static_cast<double>(n) : 0.0,
                       2.0 * (ranks - 1) / ranks);
  }
  return out;
}

void ring_trace_svg(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, const std::string& path) {
  if (ranks > max_svg_ranks) throw std::invalid_argument(fmt::format("--svg draws at most {} ranks", max_svg_ranks));
  const int steps = 2 * std::max(ranks - 1, 1);
  const double left = 70, top = 50, col = 120, lane = 44;
  const double width = left + col * steps + 20, height = top + lane * ranks + 40;
  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};
  wb::svg::document doc(width, height);
  doc.rect(0, 0, width, height, {{"fill", "white"}});
  doc.text(10, 20, fmt::format("ring all-reduce: {} elements, {} ranks; arrows: segment s from rank r to r + 1", n, ranks),
           {{"font-size", "13"}, {"font-family", "sans-serif"}});
  for (int r = 0; r < ranks; ++r) {
    const double y = top + lane * r + lane / 2;
    doc.text(10, y + 4, fmt::format("rank {}", r), {{"font-size", "12"}, {"font-family", "sans-serif"}});
    doc.line(left, y, width - 20, y, {{"stroke", "#ddd"}});
  }
  for (int c = 0; c < steps; ++c) {
    const double x = left + col * c;
    const int phase = c < ranks - 1 ? 0 : 1;
    const int step = phase == 0 ? c : c - (ranks - 1);
    doc.text(x + 6, top - 8, fmt::format("{} {}", phase == 0 ? "RS" : "AG", step),
             {{"font-size", "11"}, {"font-family", "sans-serif"}});
    doc.line(x, top - 4, x, height - 30, {{"stroke", phase == 0 && step == 0 ? "#999" : "#eee"}});
  }
  for (const auto& [key, m] : moves_of(plan)) {
    const auto [p, s, from] = key;
    const int c = p == 0 ? s : (ranks - 1) + s;
    const int to = (from + 1) % ranks;
    // Arrows fan out within the step's column so that the wrap-around (last rank to rank 0) is
    // drawn upwards beside the others.
    const double x = left + col * c + 14 + (col - 28) * from / std::max(ranks, 1);
    const double y0 = top + lane * from + lane / 2, y1 = top + lane * to + lane / 2;
    const std::string color = colors[m.segment % 8];
    const double x1 = x + 12, y_end = y1 + (y1 > y0 ? -5 : 5);
    doc.line(x, y0, x1, y_end, {{"stroke", color}, {"stroke-width", "2"}});
    // The arrowhead: a small triangle along the line's direction.
    const double dx = x1 - x, dy = y_end - y0, len = std::sqrt(dx * dx + dy * dy);
    const double ux = dx / len, uy = dy / len;
    doc.path(fmt::format("M {} {} L {} {} L {} {} Z", wb::svg::number(x1 + 4 * ux), wb::svg::number(y_end + 4 * uy),
                         wb::svg::number(x1 - 5 * ux + 4 * uy), wb::svg::number(y_end - 5 * uy - 4 * ux),
                         wb::svg::number(x1 - 5 * ux - 4 * uy), wb::svg::number(y_end - 5 * uy + 4 * ux)),
             {{"fill", color}});
    doc.circle(x, y0, 3, {{"fill", color}});
    doc.text(x + 14, y1 + (y1 > y0 ? -8 : 14), fmt::format("s{}", m.segment),
             {{"font-size", "10"}, {"fill", color}, {"font-family", "sans-serif"}});
  }
  doc.text(10, height - 10, "RS: reduce-scatter (the receiver adds its own part); AG: all-gather (the receiver keeps it)",
           {{"font-size", "11"}, {"font-family", "sans-serif"}});
  doc.save(path);
}

}  // namespace allreduce
