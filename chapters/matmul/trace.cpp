#include "trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/device_buffer.hpp"
#include "wb/runtime.hpp"
#include "wb/svg.hpp"
#include "wb/track.hpp"

#include "data.hpp"
#include "error_bound.hpp"
#include "matmul.hpp"
#include "tiling.hpp"
#include "variants.hpp"

namespace matmul {

namespace {

// What C is filled with before a traced run: 0x7F7F7F7F, 3.39e38 as a float and as a bf16
// pair, finite and far from any product here, so an output nobody wrote is wrong.
constexpr unsigned char trace_poison = 0x7F;

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
  // No --m or --n: the small default problem (make_input: trace_default_m, trace_default_n).
  const std::int64_t limit = svg_given ? max_svg_side : max_trace_side;
  if (opt.m > limit || opt.n > limit) {
    throw wb::usage_error(fmt::format("--trace{} needs a small problem: give --m and --n of at most {}",
                                      svg_given ? " --svg" : "", limit));
  }
}

namespace {

// Runs stage `stage` (variant `variant`) of track `t` on the traced problem: C as floats (bf16
// widened), filled with the poison 0x7F bytes first, so that an output nobody wrote is wrong.
// Throws what the stage throws (a fault, a race the check found, stage_refused).
std::vector<float> run_traced(int stage, int variant, wb::track t, const problem_input& in) {
  const config cfg{variant};
  const auto MN = static_cast<std::size_t>(in.M * in.N);
  if (stage == 0) {
    std::vector<float> C(MN);
    std::memset(C.data(), trace_poison, C.size() * sizeof(float));
    WB_WITH_TRACK(matmul, t, { tr::matmul_sequential_host({in.A.data(), in.B.data(), C.data(), in.M, in.N, in.K}); });
    return C;
  }
  if (!stage_is_bf16(stage)) {
    wb::device_buffer<float> A(in.A), B(in.B), C(MN);
    C.fill_bytes(trace_poison);
    const fp32_problem p{A.data(), B.data(), C.data(), in.M, in.N, in.K};
    WB_WITH_TRACK(matmul, t, {
      switch (stage) {
        case 1: tr::matmul_naive(p, cfg); break;
        case 2: tr::matmul_tiled(p, cfg); break;
        case 3: tr::matmul_coarsened(p, cfg); break;
        default: tr::matmul_fp32_ceiling(p, cfg); break;
      }
    });
    WB_CHECK(cudaDeviceSynchronize());
    return C.to_host();
  }
  wb::device_buffer<bf16> A(to_bf16(in.A)), B(to_bf16(in.B)), C(MN);
  C.fill_bytes(trace_poison);
  const bf16_problem p{A.data(), B.data(), C.data(), in.M, in.N, in.K};
  WB_WITH_TRACK(matmul, t, {
    if (stage == 5) {
      tr::matmul_wmma(p, cfg);
    } else {
      wb::device_buffer<unsigned char> workspace(tr::hopper_workspace_bytes(in.M, in.N, in.K, cfg));
      tr::matmul_hopper(p, {workspace.data(), workspace.size()}, cfg);
    }
  });
  WB_CHECK(cudaDeviceSynchronize());
  return to_float(C.to_host());
}

// One track's run of a stage on the traced problem, checked element by element.
struct traced_run {
  wb::track track = wb::track::solution;
  bool ran = false;      // C came back
  std::string failure;   // the stage threw: why ("" when it ran)
  std::string refused;   // the stage cannot run here (stage 6 without an sm_90 GPU)
  std::vector<char> wrong;  // every element of C: 1 wrong, 0 right (empty: no C)
  std::int64_t wrong_count = 0;
  std::string first;     // the first wrong element, as the checks word it
};

traced_run check_traced(int stage, int variant, wb::track t, const problem_input& in) {
  traced_run out;
  out.track = t;
  std::vector<float> C;
  try {
    C = run_traced(stage, variant, t, in);
  } catch (const wb::stage_refused& e) {
    out.refused = e.what();
    return out;
  } catch (const std::exception& e) {
    out.failure = e.what();
    return out;
  }
  out.ran = true;
  // The bf16 stages multiply the inputs rounded to bf16: so does their reference.
  std::vector<float> A = in.A, B = in.B;
  if (stage_is_bf16(stage)) {
    A = to_float(to_bf16(A));
    B = to_float(to_bf16(B));
  }
  const reference_product ref = reference_host(A, B, in.M, in.N, in.K);
  const error_model model = stage_is_bf16(stage) ? bf16_error_model(in.K) : fp32_error_model(in.K);
  out.wrong.assign(C.size(), 0);
  for (std::size_t e = 0; e < C.size(); ++e) {
    if (element_ok(C[e], ref.C[e], ref.abs_sum[e], model)) continue;
    out.wrong[e] = 1;
    ++out.wrong_count;
  }
  if (out.wrong_count > 0) {
    out.first = first_wrong(C, ref, model, "C");
    if (out.first.rfind("C: ", 0) == 0) out.first.erase(0, 3);  // "C[0][0] = ..., expected ..."
    float poison;
    std::memset(&poison, trace_poison, sizeof poison);
    const float poison_bf16 = wb::to_float(wb::bf16_from_bits(trace_poison * 0x101));
    for (std::size_t e = 0; e < C.size(); ++e) {
      if (out.wrong[e] == 0) continue;
      if (C[e] == poison || C[e] == poison_bf16) out.first += " (the poison C was filled with: never written)";
      break;
    }
  }
  return out;
}

// The track's verdict on the stage, and for a C small enough a map of it: '.' right, '!' wrong,
// each row holding a wrong element marked "!!".
void print_verdict(const traced_run& r, int stage, std::int64_t M, std::int64_t N, bool map) {
  const char* track = wb::track_name(r.track);
  if (!r.refused.empty()) {
    std::printf("  %s track: not run here (%s)\n", track, r.refused.c_str());
    return;
  }
  if (!r.ran) {
    std::printf("!! %s track: stage %d failed: %s\n", track, stage, r.failure.c_str());
    return;
  }
  if (r.wrong_count == 0) {
    std::printf("  %s track: C within the bound of the exact product, every element\n", track);
    return;
  }
  std::printf("!! %s track: %lld of %lld elements of C wrong (marked !!), the first: %s\n", track,
              static_cast<long long>(r.wrong_count), static_cast<long long>(M * N), r.first.c_str());
  if (!map || M * N == 0) return;
  std::printf("  C by the %s track, '.' right, '!' wrong (row i: columns 0-%lld):\n", track,
              static_cast<long long>(N - 1));
  for (std::int64_t i = 0; i < M; ++i) {
    std::string line;
    bool any = false;
    for (std::int64_t j = 0; j < N; ++j) {
      const bool w = r.wrong[static_cast<std::size_t>(i * N + j)] != 0;
      any = any || w;
      line += w ? '!' : '.';
    }
    std::printf("%s  %4lld %s\n", any ? "!!" : "  ", static_cast<long long>(i), line.c_str());
  }
}

}  // namespace

int trace(const options& opt, const problem_input& in, const stage_selection& selected) {
  const bool per_thread = in.M * in.N <= 32 * 32;
  const bool map = in.M <= max_trace_map_rows && in.N <= max_trace_map_cols;
  std::vector<wb::track> tracks{wb::track_named(opt.common.track)};
  if (opt.common.compare) tracks = {wb::track::solution, wb::track::exercise};
  std::printf("trace: C = A B with M = %lld, N = %lld, K = %lld (%s)%s; each stage runs on it (%s), and every "
              "element, tile, warp and thread whose output is wrong is marked !!\n",
              static_cast<long long>(in.M), static_cast<long long>(in.N), static_cast<long long>(in.K),
              in.source.c_str(), opt.m < 0 || opt.n < 0 || opt.k < 0 ? " (the default for --trace: --m --n --k set it)" : "",
              opt.common.compare ? "both tracks; the marks are the exercise's"
                                 : fmt::format("the {} track", wb::track_name(tracks.front())).c_str());
  int status = 0;
  bool drawn = opt.svg.empty();
  for (const int s : selected.numbers) {
    std::vector<int> variants = s == 0 ? std::vector<int>{0} : trace_variants(opt, s);
    for (const int v : variants) {
      std::vector<traced_run> runs;
      for (const wb::track t : tracks) runs.push_back(check_traced(s, v, t, in));
      const traced_run& marked = runs.back();
      if (s == 0) {
        std::printf("stage 0 sequential: one host thread computes C[i][j] for every i, then every j, summing over k\n");
      } else {
        const tiling t = tiling_of(s, v, in.M, in.N);
        std::fputs(tiling_text(t, in.M, in.N, in.K, per_thread, marked.wrong).c_str(), stdout);
        if (!drawn) {
          draw(t, in.M, in.N, opt.svg);
          drawn = true;
        }
      }
      for (const traced_run& r : runs) {
        print_verdict(r, s, in.M, in.N, map);
        if (!r.failure.empty() || r.wrong_count > 0) status = 1;
      }
    }
  }
  if (!drawn) throw wb::usage_error("--svg: select a stage from 1 to 6 to draw");
  return status;
}

}  // namespace matmul
