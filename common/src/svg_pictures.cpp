#include "wb/svg_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "wb/svg.hpp"

namespace wb::svg {

namespace {

constexpr double cell = 28;      // one element of A (a column) or of B (a row)
constexpr double left = 64;      // room for B's values
constexpr double top = 64;       // room for A's values and the caption
constexpr double margin = 24;
constexpr double legend = 48;

double grid_x(std::int64_t i) { return left + static_cast<double>(i) * cell; }
double grid_y(std::int64_t j) { return top + static_cast<double>(j) * cell; }

// i_on_path[k]: how many of the first k outputs of the stable merge come from A.
std::vector<std::int64_t> path_of(const std::vector<std::int64_t>& A, const std::vector<std::int64_t>& B) {
  const auto m = static_cast<std::int64_t>(A.size());
  const auto n = static_cast<std::int64_t>(B.size());
  std::vector<std::int64_t> i_on_path{0};
  std::int64_t i = 0, j = 0;
  while (i + j < m + n) {
    if (j == n || (i < m && A[i] <= B[j])) ++i;  // ties go to A: the merge is stable
    else ++j;
    i_on_path.push_back(i);
  }
  return i_on_path;
}

void check_split(const co_rank_split& s, std::int64_t m, std::int64_t n, const char* what) {
  if (s.k < 0 || s.k > m + n || s.i < 0 || s.i > m || s.k - s.i < 0 || s.k - s.i > n)
    throw std::invalid_argument(
        fmt::format("merge path: {} split k = {}, i = {} is outside the {} x {} grid", what, s.k, s.i, m, n));
}

}  // namespace

std::string merge_path_svg(const merge_path_input& in) {
  const auto m = static_cast<std::int64_t>(in.A.size());
  const auto n = static_cast<std::int64_t>(in.B.size());
  if (!std::is_sorted(in.A.begin(), in.A.end())) throw std::invalid_argument("merge path: A is not sorted");
  if (!std::is_sorted(in.B.begin(), in.B.end())) throw std::invalid_argument("merge path: B is not sorted");
  for (const auto& s : in.thread_splits) check_split(s, m, n, "thread");
  for (const auto& s : in.block_splits) check_split(s, m, n, "block");

  const std::string legend_path = fmt::format("path: {} steps (right: take A, down: take B)", m + n);
  const std::string legend_marks = "dots: thread co-ranks, squares: block co-ranks, red: off the path";
  // wide enough for the grid and for the caption and legend lines (about 7.5 and 6.5 units a character)
  const double text_width = std::max(static_cast<double>(in.caption.size()) * 7.5,
                                     static_cast<double>(legend_marks.size()) * 6.5) + margin;
  document doc(std::ceil(std::max(left + static_cast<double>(m) * cell + margin, text_width)),
               top + static_cast<double>(n) * cell + legend);
  doc.title(in.caption.empty() ? "merge path" : in.caption);
  doc.rect(0, 0, doc.width(), doc.height(), {{"fill", "white"}});
  if (!in.caption.empty()) doc.text(margin / 2, 18, in.caption, {{"font-family", "sans-serif"}, {"font-size", "13"}});

  // The grid: cell (i, j) compares A[i] with B[j]; grid points are ranks between elements.
  doc.begin_group({{"class", "grid"}, {"stroke", "#ccc"}, {"stroke-width", "1"}});
  for (std::int64_t i = 0; i <= m; ++i) doc.line(grid_x(i), grid_y(0), grid_x(i), grid_y(n));
  for (std::int64_t j = 0; j <= n; ++j) doc.line(grid_x(0), grid_y(j), grid_x(m), grid_y(j));
  doc.end_group();
  doc.begin_group({{"class", "keys"}, {"font-family", "monospace"}, {"font-size", "11"}, {"text-anchor", "middle"}});
  doc.text(left - 14, top - 26, "A", {{"font-weight", "bold"}});
  for (std::int64_t i = 0; i < m; ++i)
    doc.text(grid_x(i) + cell / 2, top - 8, fmt::format("{}", in.A[static_cast<std::size_t>(i)]),
             {{"class", "a-key"}, {"data-index", fmt::format("{}", i)}});
  doc.text(left - 40, top - 8, "B", {{"font-weight", "bold"}});
  for (std::int64_t j = 0; j < n; ++j)
    doc.text(left - 20, grid_y(j) + cell / 2 + 4, fmt::format("{}", in.B[static_cast<std::size_t>(j)]),
             {{"class", "b-key"}, {"data-index", fmt::format("{}", j)}});
  doc.end_group();

  // The path: a step right takes A[i], a step down takes B[j].
  const auto i_on_path = path_of(in.A, in.B);
  std::vector<point> points;
  for (std::int64_t k = 0; k <= m + n; ++k) {
    const std::int64_t i = i_on_path[static_cast<std::size_t>(k)];
    points.push_back({grid_x(i), grid_y(k - i)});
  }
  doc.polyline(points, {{"class", "merge-path"}, {"data-steps", fmt::format("{}", m + n)}, {"fill", "none"},
                        {"stroke", "#1f77b4"}, {"stroke-width", "3"}, {"stroke-linejoin", "round"}});

  const auto on_path = [&](const co_rank_split& s) { return i_on_path[static_cast<std::size_t>(s.k)] == s.i; };
  const auto data = [](const co_rank_split& s, const char* cls, bool ok) {
    return attributes{{"class", std::string(cls) + (ok ? "" : " off-path")},
                      {"data-k", fmt::format("{}", s.k)},
                      {"data-i", fmt::format("{}", s.i)},
                      {"data-j", fmt::format("{}", s.k - s.i)},
                      {"fill", ok ? "none" : "#d62728"},
                      {"stroke", ok ? "#2ca02c" : "#d62728"},
                      {"stroke-width", "2"}};
  };
  doc.begin_group({{"class", "block-splits"}});
  for (const auto& s : in.block_splits) {
    const bool ok = on_path(s);
    doc.rect(grid_x(s.i) - 8, grid_y(s.k - s.i) - 8, 16, 16, data(s, "block-split", ok));
  }
  doc.end_group();
  doc.begin_group({{"class", "thread-splits"}});
  for (const auto& s : in.thread_splits) {
    const bool ok = on_path(s);
    auto attrs = data(s, "thread-split", ok);
    if (ok) attrs[4].second = "#ff7f0e";  // fill: thread splits are filled dots
    attrs[5].second = ok ? "#ff7f0e" : "#d62728";
    doc.circle(grid_x(s.i), grid_y(s.k - s.i), 4.5, attrs);
  }
  doc.end_group();

  doc.begin_group({{"class", "legend"}, {"font-family", "sans-serif"}, {"font-size", "11"}});
  doc.text(margin / 2, grid_y(n) + 22, legend_path);
  doc.text(margin / 2, grid_y(n) + 38, legend_marks);
  doc.end_group();
  return doc.str();
}

}  // namespace wb::svg
