// The ring's schedule as text and as a picture, and what it computes (trace.hpp).
#include "trace.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
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

// What the schedule computes, played as allreduce_ring issues it, in the plan's order: in
// reduce-scatter the receiver's output over the piece becomes its input plus what was sent (the
// sender's input at step 0, else its output); in all-gather it becomes the sender's output.
// Each element of each output holds how many times it has each rank's input, or nothing the
// all-reduce wrote. Elements between the same transfer bounds behave alike, so the play goes
// range by range: as cheap for 2^28 elements as for 16.
class played_ring {
 public:
  struct cell {
    bool written = false;  // false: what the output held before the all-reduce
    std::array<std::uint16_t, max_ranks> count{};
    friend bool operator==(const cell&, const cell&) = default;
  };

  played_ring(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n) : G_(ranks) {
    bounds_ = {0, n};
    for (const ring_transfer& tr : plan) {
      bounds_.push_back(tr.begin);
      bounds_.push_back(tr.end);
    }
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
    const std::size_t ranges = bounds_.size() - 1;
    in_.assign(static_cast<std::size_t>(G_), std::vector<cell>(ranges));
    out_.assign(static_cast<std::size_t>(G_), std::vector<cell>(ranges));
    for (int r = 0; r < G_; ++r) {
      for (cell& c : in_[static_cast<std::size_t>(r)]) {
        c.written = true;
        c.count[static_cast<std::size_t>(r)] = 1;
      }
    }
    if (G_ == 1) out_[0] = in_[0];  // one rank: the ring copies its input
  }

  // Plays one transfer (checked with transfer_problem first).
  void play(const ring_transfer& tr) {
    const std::size_t from = static_cast<std::size_t>(tr.from), to = static_cast<std::size_t>(tr.to);
    for (std::size_t k = range_of(tr.begin); k < bounds_.size() - 1 && bounds_[k] < tr.end; ++k) {
      if (tr.phase == 0) {
        const cell sent = tr.step == 0 ? in_[from][k] : out_[from][k];
        cell sum = in_[to][k];
        sum.written = sent.written;
        for (std::size_t q = 0; q < sum.count.size(); ++q) sum.count[q] = static_cast<std::uint16_t>(std::min(sum.count[q] + sent.count[q], 999));
        out_[to][k] = sum;
      } else {
        out_[to][k] = out_[from][k];
      }
    }
  }

  // Whether rank r's output holds the whole sum at every element of [begin, end).
  bool whole_sum(int r, std::int64_t begin, std::int64_t end) const {
    for (std::size_t k = range_of(begin); k < bounds_.size() - 1 && bounds_[k] < end; ++k) {
      if (!(out_[static_cast<std::size_t>(r)][k] == whole())) return false;
    }
    return true;
  }

  // "" when every rank holds the whole sum everywhere, else the first element (by rank, then
  // index) that does not, what it holds, and how many more do not.
  std::string first_wrong() const {
    std::string first;
    std::int64_t wrong = 0;
    for (int r = 0; r < G_; ++r) {
      for (std::size_t k = 0; k + 1 < bounds_.size(); ++k) {
        const cell& c = out_[static_cast<std::size_t>(r)][k];
        if (c == whole()) continue;
        wrong += bounds_[k + 1] - bounds_[k];
        if (first.empty()) first = fmt::format("rank {}'s element {} holds {}", r, bounds_[k], describe(c));
      }
    }
    if (first.empty()) return "";
    return wrong > 1 ? fmt::format("{} ({} wrong elements in all)", first, wrong) : first;
  }

  std::string sum_text() const {
    std::string text;
    for (int q = 0; q < G_; ++q) text += fmt::format("{}in[{}]", q == 0 ? "" : " + ", q);
    return text;
  }

 private:
  cell whole() const {
    cell c;
    c.written = true;
    for (int q = 0; q < G_; ++q) c.count[static_cast<std::size_t>(q)] = 1;
    return c;
  }
  std::size_t range_of(std::int64_t i) const {
    return static_cast<std::size_t>(std::upper_bound(bounds_.begin(), bounds_.end(), i) - bounds_.begin() - 1);
  }
  std::string describe(const cell& c) const {
    if (!c.written) return "what the output held before the all-reduce (nothing the schedule computed reached it)";
    std::string terms, missing;
    for (int q = 0; q < G_; ++q) {
      const int times = c.count[static_cast<std::size_t>(q)];
      if (times == 0) missing += fmt::format("{}in[{}]", missing.empty() ? "" : ", ", q);
      if (times > 0) {
        terms += fmt::format("{}in[{}]{}", terms.empty() ? "" : " + ", q,
                             times == 1 ? "" : times == 2 ? " twice" : fmt::format(" {} times", times));
      }
    }
    return fmt::format("{}{} instead of {}", terms, missing.empty() ? "" : fmt::format(" ({} missing)", missing), sum_text());
  }

  int G_;
  std::vector<std::int64_t> bounds_;               // the ranges' bounds, 0 and n included
  std::vector<std::vector<cell>> in_, out_;        // [rank][range]
};

// Why the ring cannot issue the transfer, or "".
std::string transfer_problem(const ring_transfer& tr, int ranks, std::int64_t n) {
  if (tr.phase != 0 && tr.phase != 1) return fmt::format("phase {} (0 reduce-scatter, 1 all-gather)", tr.phase);
  if (tr.from < 0 || tr.from >= ranks || tr.to < 0 || tr.to >= ranks) return fmt::format("rank {} -> rank {} with {} ranks", tr.from, tr.to, ranks);
  if (tr.to != (tr.from + 1) % ranks) return fmt::format("rank {} sends to rank {}, not to the next rank", tr.from, tr.to);
  if (tr.begin < 0 || tr.end > n || tr.begin >= tr.end) return fmt::format("elements [{}, {}) of {}", tr.begin, tr.end, n);
  return "";
}

// The sentence after reduce-scatter: rank r holds the whole sum of segment (r + 1) mod G, or,
// where the schedule does not make it so, the segments each rank does hold the whole sum of.
std::string owners_after_reduce_scatter(const played_ring& played, int ranks, std::int64_t n) {
  std::string owners;
  bool as_planned = true;
  for (int r = 0; r < ranks; ++r) {
    std::string segments;
    for (int s = 0; s < ranks; ++s) {
      const std::int64_t b = part_begin(s, ranks, n, segment_align), e = part_begin(s + 1, ranks, n, segment_align);
      const bool whole = b < e && played.whole_sum(r, b, e);
      if (whole) segments += fmt::format("{}{}", segments.empty() ? "" : ", ", s);
      if (s == (r + 1) % ranks && b < e && !whole) as_planned = false;
    }
    owners += segments.empty() ? fmt::format("     rank {} holds the whole sum of no segment\n", r)
                               : fmt::format("     rank {} holds the whole sum of segment{} {}\n", r,
                                             segments.find(',') == std::string::npos ? "" : "s", segments);
  }
  if (as_planned) return "  after reduce-scatter rank r holds the whole sum of segment (r + 1) mod G\n";
  return "  !! after reduce-scatter not every rank r holds the whole sum of segment (r + 1) mod G:\n" + owners;
}

}  // namespace

std::string ring_trace_text(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk,
                            bool* correct) {
  std::string out = fmt::format("ring all-reduce of {} elements on {} ranks: {} segments, pieces of at most {} elements\n",
                                n, ranks, ranks, chunk);
  auto verdict = [&](const std::string& wrong) {
    if (correct != nullptr) *correct = wrong.empty();
    return out + (wrong.empty() ? "" : "!! " + wrong + "\n");
  };
  for (std::size_t k = 0; k < plan.size(); ++k) {
    if (const std::string why = transfer_problem(plan[k], ranks, n); !why.empty()) {
      return verdict(fmt::format("wrong: transfer {} of the schedule is none the ring can issue: {}", k, why));
    }
  }
  played_ring played(plan, ranks, n);
  const std::string sum = played.sum_text();
  auto result = [&] {
    const std::string wrong = played.first_wrong();
    if (wrong.empty()) {
      out += n == 0 ? "  correct: there is nothing to add\n"
                    : fmt::format("  correct: afterwards every rank holds {} at every element\n", sum);
      return verdict("");
    }
    return verdict(fmt::format("wrong (the schedule played as allreduce_ring issues it): {}", wrong));
  };
  if (plan.empty()) {
    out += ranks == 1 || n == 0 ? "  nothing moves (one rank, or no elements)\n" : "  nothing moves\n";
    return result();
  }
  // Play the schedule. Once reduce-scatter is over (at the first all-gather transfer), rank r
  // should hold the whole sum of segment (r + 1) mod G: said only where the schedule makes it so.
  std::string after_reduce_scatter;
  for (const ring_transfer& tr : plan) {
    if (tr.phase == 1 && after_reduce_scatter.empty()) after_reduce_scatter = owners_after_reduce_scatter(played, ranks, n);
    played.play(tr);
  }
  std::vector<std::int64_t> sent(static_cast<std::size_t>(ranks), 0);
  int phase = -1, step = -1;
  for (const auto& [key, m] : moves_of(plan)) {
    const auto [p, s, from] = key;
    if (p != phase || s != step) {
      if (p != phase && p == 1) out += after_reduce_scatter;
      phase = p;
      step = s;
      out += fmt::format("{} step {}:\n", phase_name(p), s);
    }
    out += fmt::format("  rank {} -> rank {}: segment {} [{}, {}){}{}\n", from, (from + 1) % ranks, m.segment, m.begin,
                       m.end, m.pieces > 1 ? fmt::format(" in {} pieces", m.pieces) : "",
                       p == 0 ? fmt::format(", added to rank {}'s own", (from + 1) % ranks) : ", kept");
    sent[static_cast<std::size_t>(from)] += m.end - m.begin;
  }
  for (int r = 0; r < ranks; ++r) {
    out += fmt::format("rank {} sent {} of its {} elements ({:.3f} of its data; 2 (G - 1) / G = {:.3f})\n", r,
                       sent[static_cast<std::size_t>(r)], n,
                       n > 0 ? static_cast<double>(sent[static_cast<std::size_t>(r)]) / static_cast<double>(n) : 0.0,
                       2.0 * (ranks - 1) / ranks);
  }
  return result();
}

int ring_trace(const std::vector<ring_transfer>& plan, int ranks, std::int64_t n, std::int64_t chunk, const std::string& svg) {
  bool correct = false;
  std::fputs(ring_trace_text(plan, ranks, n, chunk, &correct).c_str(), stdout);
  if (!svg.empty()) ring_trace_svg(plan, ranks, n, svg);
  return correct ? 0 : 1;
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
    const std::string color = colors[(m.segment % 8 + 8) % 8];
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
