#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/svg.hpp"

#include "tiling.hpp"
#include "variants.hpp"

namespace matmul {

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

std::vector<int> trace_variants(const options& opt, int stage) {
  const int count = static_cast<int>(variants_of(stage).size());
  if (opt.all_variants) {
    std::vector<int> all;
    for (int v = 0; v < count; ++v) all.push_back(v);
    return all;
  }
  const int named = opt.variant.empty() ? -1 : variant_index(stage, opt.variant);
  return {named >= 0 ? named : 0};
}

void print_stage(const tiling& t, std::int64_t M, std::int64_t N, std::int64_t K, bool per_thread) {
  const std::int64_t tiles_m = (M + t.block_rows - 1) / t.block_rows, tiles_n = (N + t.block_cols - 1) / t.block_cols;
  const std::string variant = variants_of(t.stage).empty() ? "" : std::string(variants_of(t.stage)[t.variant].name);
  std::printf("stage %s (%s): %lld x %lld outputs per block, %d threads, %s\n", t.name.c_str(), variant.c_str(),
              static_cast<long long>(t.block_rows), static_cast<long long>(t.block_cols), t.threads,
              t.k_step > 0 ? fmt::format("K in steps of {} ({} steps)", t.k_step, (K + t.k_step - 1) / t.k_step).c_str()
                           : "all of K per thread");
  std::printf("  tiling: %s\n  loads: %s\n", t.levels.c_str(), t.loads.c_str());
  std::printf("  grid: %lld x %lld tiles%s\n", static_cast<long long>(tiles_m), static_cast<long long>(tiles_n),
              t.stage == 6 && t.variant != 1 ? " (one persistent block per SM takes tiles b, b + gridDim.x, ...)" : "");
  for (std::int64_t tm = 0; tm < tiles_m; ++tm) {
    for (std::int64_t tn = 0; tn < tiles_n; ++tn) {
      const std::int64_t r0 = tm * t.block_rows, c0 = tn * t.block_cols;
      const std::int64_t r1 = std::min(M, r0 + t.block_rows), c1 = std::min(N, c0 + t.block_cols);
      std::printf("  tile (%lld, %lld): C[%lld:%lld, %lld:%lld]%s\n", static_cast<long long>(tm),
                  static_cast<long long>(tn), static_cast<long long>(r0), static_cast<long long>(r1),
                  static_cast<long long>(c0), static_cast<long long>(c1),
                  r1 - r0 < t.block_rows || c1 - c0 < t.block_cols
                      ? " (the tile reaches past C: those outputs are computed from zeros and not stored)"
                      : "");
      std::vector<owned> threads(static_cast<std::size_t>(t.threads));
      for (std::int64_t r = r0; r < r1; ++r) {
        for (std::int64_t c = c0; c < c1; ++c) {
          owned& o = threads[static_cast<std::size_t>(owner_thread(t, r - r0, c - c0))];
          o.rows.insert(r);
          o.cols.insert(c);
          ++o.count;
        }
      }
      for (int w = 0; w < t.threads / 32; ++w) {
        owned warp;
        for (int l = 0; l < 32; ++l) {
          const owned& o = threads[static_cast<std::size_t>(32 * w + l)];
          warp.rows.insert(o.rows.begin(), o.rows.end());
          warp.cols.insert(o.cols.begin(), o.cols.end());
          warp.count += o.count;
        }
        if (warp.count == 0) continue;
        std::printf("    warp %d: %lld outputs, rows %s, columns %s\n", w, static_cast<long long>(warp.count),
                    ranges(warp.rows).c_str(), ranges(warp.cols).c_str());
        if (!per_thread || !t.thread_known) continue;
        for (int l = 0; l < 32; ++l) {
          const owned& o = threads[static_cast<std::size_t>(32 * w + l)];
          if (o.count == 0) continue;
          std::printf("      thread %d (lane %d): rows %s x columns %s\n", 32 * w + l, l, ranges(o.rows).c_str(),
                      ranges(o.cols).c_str());
        }
      }
    }
  }
}

// Splits text into lines of at most `width` characters at spaces.
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

// A colour of the hue wheel, as #rrggbb (lanes of a warp: 32 hues).
std::string hue(double degrees) {
  const double h = degrees / 60.0, c = 0.55, x = c * (1 - std::abs(std::fmod(h, 2.0) - 1)), m = 0.35;
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  return fmt::format("#{:02x}{:02x}{:02x}", static_cast<int>((r + m) * 255), static_cast<int>((g + m) * 255),
                     static_cast<int>((b + m) * 255));
}

// The tiling of `t` over C (M x N), in two panels: the grid of block tiles with the first
// block's outputs coloured by warp (past C paler); below it, the first block's first warp
// enlarged, coloured by lane, with one thread's outputs outlined.
void draw(const tiling& t, std::int64_t M, std::int64_t N, const std::string& file) {
  const std::int64_t rows = (M + t.block_rows - 1) / t.block_rows * t.block_rows;
  const std::int64_t cols = (N + t.block_cols - 1) / t.block_cols * t.block_cols;
  const double cell = std::max(0.5, std::min(12.0, 640.0 / static_cast<double>(std::max(rows, cols))));
  const int first = owner_thread(t, 0, 0);  // the first thread that computes outputs (stage 6: a consumer's)
  const int warp0 = first / 32;
  // the first warp's outputs within the first block: their bounding box, enlarged
  std::int64_t r_lo = t.block_rows, r_hi = -1, c_lo = t.block_cols, c_hi = -1;
  for (std::int64_t r = 0; r < t.block_rows; ++r)
    for (std::int64_t c = 0; c < t.block_cols; ++c)
      if (owner_thread(t, r, c) / 32 == warp0) {
        r_lo = std::min(r_lo, r), r_hi = std::max(r_hi, r), c_lo = std::min(c_lo, c), c_hi = std::max(c_hi, c);
      }
  // at most 64 x 64 of it, so that a cell stays large enough to see
  const bool cut = c_hi - c_lo + 1 > 64 || r_hi - r_lo + 1 > 64;
  c_hi = std::min(c_hi, c_lo + 63);
  r_hi = std::min(r_hi, r_lo + 63);
  const double zoom =
      std::max(1.0, std::min(10.0, 640.0 / static_cast<double>(std::max(c_hi - c_lo + 1, r_hi - r_lo + 1))));
  const double margin = 20, text = 16;
  const double width =
      margin * 2 + std::max(cell * static_cast<double>(cols), zoom * static_cast<double>(c_hi - c_lo + 1));
  const std::size_t chars = static_cast<std::size_t>(std::max(width, 640.0) / 6.6);
  const std::string variant = variants_of(t.stage).empty() ? "" : std::string(variants_of(t.stage)[t.variant].name);
  const auto legend =
      wrap(fmt::format("stage {} ({}): C is {} x {} (red outline), blocks of {} x {} outputs ({} threads), "
                       "the first block coloured by warp. {}",
                       t.name, variant, M, N, t.block_rows, t.block_cols, t.threads, t.levels),
           chars);
  const auto caption =
      wrap(fmt::format("warp {} of the first block (rows {}-{}, columns {}-{} of its tile{}){}", warp0, r_lo, r_hi,
                       c_lo, c_hi, cut ? ", the first 64 x 64 of it" : "",
                       t.thread_known ? fmt::format(", coloured by lane; outlined: the outputs of thread {}", first)
                                      : std::string(": how its elements spread over the lanes is unspecified")),
           chars);
  const double top2 =
      margin + cell * static_cast<double>(rows) + 18 + text * static_cast<double>(legend.size() + caption.size()) + 12;
  const double height = top2 + zoom * static_cast<double>(r_hi - r_lo + 1) + 3 * text + margin;
  wb::svg::document doc(std::max(width, 640.0), height);
  doc.rect(0, 0, doc.width(), doc.height(), {{"fill", "white"}});
  const wb::svg::attributes font = {{"font-size", "12"}, {"font-family", "sans-serif"}};
  static const char* colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                 "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295"};
  const auto X = [&](std::int64_t c) { return margin + cell * static_cast<double>(c); };
  const auto Y = [&](std::int64_t r) { return margin + cell * static_cast<double>(r); };

  // panel 1: C, the block tiles, the first block by warp (one rectangle per run of one warp)
  doc.begin_group({{"class", "first-block"}});
  for (std::int64_t r = 0; r < t.block_rows; ++r) {
    for (std::int64_t c = 0; c < t.block_cols;) {
      const int warp = owner_thread(t, r, c) / 32;
      std::int64_t end = c + 1;
      while (end < t.block_cols && owner_thread(t, r, end) / 32 == warp) ++end;
      doc.rect(X(c), Y(r), cell * static_cast<double>(end - c), cell,
               {{"fill", colors[warp % 12]}, {"fill-opacity", r < M && c < N ? "0.85" : "0.3"}});
      c = end;
    }
  }
  doc.end_group();
  doc.begin_group({{"stroke", "#333"}, {"fill", "none"}});
  for (std::int64_t r = 0; r <= rows; r += t.block_rows) doc.line(X(0), Y(r), X(cols), Y(r));
  for (std::int64_t c = 0; c <= cols; c += t.block_cols) doc.line(X(c), Y(0), X(c), Y(rows));
  doc.end_group();
  doc.rect(X(0), Y(0), cell * static_cast<double>(N), cell * static_cast<double>(M),
           {{"fill", "none"}, {"stroke", "#d62728"}, {"stroke-width", "2"}});
  double y = Y(rows) + 18;
  for (const std::string& line : legend) {
    doc.text(margin, y, line, font);
    y += text;
  }

  // panel 2: the first warp enlarged, by lane; one thread's outputs outlined
  const auto X2 = [&](std::int64_t c) { return margin + zoom * static_cast<double>(c - c_lo); };
  const auto Y2 = [&](std::int64_t r) { return top2 + zoom * static_cast<double>(r - r_lo); };
  doc.begin_group({{"class", "first-warp"}});
  for (std::int64_t r = r_lo; r <= r_hi; ++r) {
    for (std::int64_t c = c_lo; c <= c_hi;) {  // one rectangle per run of one owner
      const int owner = owner_thread(t, r, c);
      std::int64_t end = c + 1;
      while (end <= c_hi && owner_thread(t, r, end) == owner) ++end;
      if (owner / 32 == warp0) {
        const std::string fill = t.thread_known ? hue(360.0 * (owner % 32) / 32) : std::string(colors[warp0 % 12]);
        doc.rect(X2(c), Y2(r), zoom * static_cast<double>(end - c), zoom, {{"fill", fill}});
      }
      c = end;
    }
  }
  doc.end_group();
  doc.begin_group({{"stroke", "white"}, {"stroke-width", "0.3"}});  // the cell grid of the enlarged warp
  for (std::int64_t r = r_lo; r <= r_hi + 1; ++r) doc.line(X2(c_lo), Y2(r), X2(c_hi + 1), Y2(r));
  for (std::int64_t c = c_lo; c <= c_hi + 1; ++c) doc.line(X2(c), Y2(r_lo), X2(c), Y2(r_hi + 1));
  doc.end_group();
  if (t.thread_known) {
    doc.begin_group({{"class", "one-thread"}, {"fill", "none"}, {"stroke", "black"}, {"stroke-width", "1.5"}});
    for (std::int64_t r = r_lo; r <= r_hi; ++r) {
      for (std::int64_t c = c_lo; c <= c_hi; ++c) {
        if (owner_thread(t, r, c) != first) continue;
        std::int64_t end = c + 1;
        while (end <= c_hi && owner_thread(t, r, end) == first) ++end;
        doc.rect(X2(c), Y2(r), zoom * static_cast<double>(end - c), zoom);
        c = end - 1;
      }
    }
    doc.end_group();
  }
  for (std::size_t i = 0; i < caption.size(); ++i) {
    doc.text(margin, top2 - 8 - text * static_cast<double>(caption.size() - 1 - i), caption[i], font);
  }
  doc.save(file);
  std::printf("wrote %s\n", file.c_str());
}

}  // namespace

void check_trace_options(const options& opt, bool svg_given) {
  if (svg_given && !opt.trace) throw wb::usage_error("--svg draws the tiling of --trace: give --trace too");
  if (svg_given) wb::require_writable_file(opt.svg, "--svg");
  const std::int64_t limit = svg_given ? max_svg_side : max_trace_side;
  if (opt.m < 0 || opt.n < 0 || opt.m > limit || opt.n > limit) {
    throw wb::usage_error(fmt::format("--trace{} needs a small problem: give --m and --n of at most {}",
                                      svg_given ? " --svg" : "", limit));
  }
}

int trace(const options& opt, const problem_input& in, const stage_selection& selected) {
  const bool per_thread = in.M * in.N <= 32 * 32;
  bool drawn = opt.svg.empty();
  for (const int s : selected.numbers) {
    if (s == 0) {
      std::printf("stage 0 sequential: one host thread computes C[i][j] for every i, then every j, summing over k\n");
      continue;
    }
    for (const int v : trace_variants(opt, s)) {
      const tiling t = tiling_of(s, v, in.M, in.N);
      print_stage(t, in.M, in.N, in.K, per_thread);
      if (!drawn) {
        draw(t, in.M, in.N, opt.svg);
        drawn = true;
      }
    }
  }
  if (!drawn) throw wb::usage_error("--svg: select a stage from 1 to 6 to draw");
  return 0;
}

}  // namespace matmul
