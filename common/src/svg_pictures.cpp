#include "wb/svg_pictures.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <type_traits>

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
  for (const auto& s : in.out_of_range) {
    if (s.k < 0 || s.k > m + n) {
      throw std::invalid_argument(fmt::format("merge path: out-of-range split k = {} is not an output rank of {} + {}", s.k, m, n));
    }
  }

  const std::string legend_path = fmt::format("path: {} steps (right: take A, down: take B)", m + n);
  const std::string legend_marks = in.out_of_range.empty()
                                       ? "dots: thread co-ranks, squares: block co-ranks, red: off the path"
                                       : "dots: thread co-ranks, squares: block co-ranks, red: off the path, "
                                         "red cross: outside the grid";
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

  // Out of range: where the anti-diagonal i + j = k leaves the grid on the side i points to.
  if (!in.out_of_range.empty()) doc.begin_group({{"class", "out-of-range-splits"}});
  for (const auto& s : in.out_of_range) {
    const std::int64_t low = std::max<std::int64_t>(0, s.k - n), high = std::min(s.k, m);
    const std::int64_t i = std::clamp(s.i, low, high);
    const double x = grid_x(i), y = grid_y(s.k - i);
    const attributes cross = {{"class", "out-of-range"},
                              {"data-k", fmt::format("{}", s.k)},
                              {"data-i", fmt::format("{}", s.i)},
                              {"stroke", "#d62728"},
                              {"stroke-width", "2.5"}};
    doc.line(x - 6, y - 6, x + 6, y + 6, cross);
    doc.line(x - 6, y + 6, x + 6, y - 6, cross);
    doc.text(x + 8, y - 6, fmt::format("co_rank({}) = {}", s.k, s.i),
             {{"class", "out-of-range-label"}, {"font-family", "sans-serif"}, {"font-size", "10"}, {"fill", "#d62728"}});
  }
  if (!in.out_of_range.empty()) doc.end_group();

  doc.begin_group({{"class", "legend"}, {"font-family", "sans-serif"}, {"font-size", "11"}});
  doc.text(margin / 2, grid_y(n) + 22, legend_path);
  doc.text(margin / 2, grid_y(n) + 38, legend_marks);
  doc.end_group();
  return doc.str();
}

// ---------------------------------------------------------------------------------------
// Trees and scans: rows of values, one column per thread (or index)
// ---------------------------------------------------------------------------------------

namespace {

// a + b as the kernels add: integers wrap (unsigned arithmetic), floating point rounds in T.
template <class T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// What a value looks like in a picture (and in the chapters' traces): integers in full,
// floating point with 6 significant digits; data-value carries every digit.
template <class T>
std::string shown(T v) {
  if constexpr (std::is_floating_point_v<T>) return fmt::format("{:g}", v);
  else return fmt::format("{}", v);
}
template <class T>
std::string exact(T v) {
  return fmt::format("{}", v);  // integers in full; floating point: the shortest round trip
}

// The layout of a picture of rows: a label column on the left, then one column per thread.
struct rows_layout {
  double label_width = 150;  // "down-sweep stride 16" and the like
  double col = 26;           // one thread's column
  double box_h = 18;
  double row_gap = 36;       // room for the lines between two rows
  double x(std::int64_t c) const { return label_width + static_cast<double>(c) * col; }
  double center(std::int64_t c) const { return x(c) + col / 2; }
  double step() const { return box_h + row_gap; }
};

// Column width for values of at most `chars` characters (10-unit monospace: about 6 a character).
double column_for(std::size_t chars) { return std::max(24.0, 6.2 * static_cast<double>(chars) + 8); }

const attributes label_font = {{"font-family", "sans-serif"}, {"font-size", "11"}};

// One value in its box at column c of the row whose top is y.
template <class T>
void value_box(document& doc, const rows_layout& L, std::int64_t c, double y, T v, const std::string& row,
               const std::string& fill, bool changed, bool faint = false) {
  doc.rect(L.x(c) + 1.5, y, L.col - 3, L.box_h,
           {{"fill", fill}, {"stroke", changed ? "#555" : "#bbb"}, {"stroke-width", "1"}});
  doc.text(L.center(c), y + L.box_h - 5, shown(v),
           {{"class", changed ? "value changed" : "value"},
            {"data-row", row},
            {"data-col", fmt::format("{}", c)},
            {"data-value", exact(v)},
            {"font-family", "monospace"},
            {"font-size", "10"},
            {"text-anchor", "middle"},
            {"fill", faint ? "#999" : "#000"}});
}

template <class T>
std::size_t widest(const std::vector<std::vector<T>>& rows) {
  std::size_t w = 1;
  for (const auto& r : rows)
    for (const T& v : r) w = std::max(w, shown(v).size());
  return w;
}

}  // namespace

template <class S>
std::string reduction_tree_svg(const reduction_tree_input<S>& in) {
  const int B = in.block;
  if (B < 1 || B > 1024 || !std::has_single_bit(static_cast<unsigned>(B)))
    throw std::invalid_argument(fmt::format("reduction tree: block {} is not a power of two from 1 to 1024", B));
  const auto n = static_cast<std::int64_t>(in.items.size());
  const std::int64_t sweeps = std::max<std::int64_t>(1, (n + B - 1) / B);

  // The tree, as the kernel computes it: partials[t] = the thread's grid-stride sum, then
  // partials[t] += partials[t + s] for t < s, s = B/2, ..., 1 (row k holds the partials
  // after step k; only the first s of a step's row are still read).
  std::vector<std::vector<S>> rows(1, std::vector<S>(static_cast<std::size_t>(B), S{}));
  for (std::int64_t i = 0; i < n; ++i) {
    auto& p = rows[0][static_cast<std::size_t>(i % B)];
    p = add(p, in.items[static_cast<std::size_t>(i)]);
  }
  std::vector<int> offsets;
  for (int s = B / 2; s >= 1; s /= 2) {
    std::vector<S> next = rows.back();
    for (int t = 0; t < s; ++t) next[static_cast<std::size_t>(t)] = add(rows.back()[static_cast<std::size_t>(t)], rows.back()[static_cast<std::size_t>(t + s)]);
    next.resize(static_cast<std::size_t>(s));
    rows.push_back(std::move(next));
    offsets.push_back(s);
  }
  std::size_t chars = widest(rows);
  for (const S& v : in.items) chars = std::max(chars, shown(v).size());

  rows_layout L;
  L.col = column_for(chars);
  const double caption_h = 40;
  const double item_h = 16;
  const double header_h = 16;  // the thread numbers
  const double y_items = caption_h;
  const double y_threads = y_items + static_cast<double>(sweeps) * item_h + 4;
  const double y_load = y_threads + header_h;
  const auto row_y = [&](std::size_t k) { return y_load + static_cast<double>(k) * L.step(); };
  const std::string legend1 = fmt::format(
      "thread t first adds the items in its column (in[t], in[t + {}], ...): row load; at each step every thread "
      "t < offset adds partials[t + offset] (blue line) onto its own partials[t] (grey line).", B);
  const std::string legend2 =
      "Stage 1 puts __syncthreads() after every step; stage 2 runs the steps from the orange line on in warp 0 alone, "
      "with __syncwarp().";
  const double text_w = std::max({static_cast<double>(legend1.size()) * 5.9, static_cast<double>(in.caption.size()) * 7.5,
                                  static_cast<double>(legend2.size()) * 5.9}) + 24;
  const double tail_text_w = 340;  // beside a tail row of at most B/2 boxes
  const double width = std::ceil(std::max({L.x(B) + 24, L.x(B / 2) + tail_text_w, text_w}));
  const double height = std::ceil(row_y(rows.size() - 1) + L.box_h + 58);
  document doc(width, height);
  doc.title(in.caption.empty() ? "reduction tree" : in.caption);
  doc.rect(0, 0, width, height, {{"fill", "white"}});
  if (!in.caption.empty()) doc.text(12, 20, in.caption, {{"font-family", "sans-serif"}, {"font-size", "13"}});

  // The items, one row per sweep of the grid-stride loop, each above the thread that adds it.
  doc.begin_group({{"class", "items"}, {"font-family", "monospace"}, {"font-size", "10"}, {"text-anchor", "middle"}});
  for (std::int64_t k = 0; k < sweeps; ++k) {
    const double y = y_items + static_cast<double>(k) * item_h + 11;
    doc.text(L.label_width - 8, y, fmt::format("in[{}..]", k * B), {{"text-anchor", "end"}, {"fill", "#666"}});
    for (std::int64_t t = 0; t < B && k * B + t < n; ++t) {
      const std::int64_t i = k * B + t;
      doc.text(L.center(t), y, shown(in.items[static_cast<std::size_t>(i)]),
               {{"class", "item"}, {"data-index", fmt::format("{}", i)}, {"data-row", fmt::format("in[{}..]", k * B)},
                {"data-col", fmt::format("{}", t)}, {"data-value", exact(in.items[static_cast<std::size_t>(i)])}});
    }
  }
  doc.end_group();
  doc.begin_group({{"class", "threads"}, {"font-family", "monospace"}, {"font-size", "9"}, {"text-anchor", "middle"},
                   {"fill", "#888"}});
  doc.text(L.label_width - 8, y_threads + 10, "thread", {{"text-anchor", "end"}});
  for (int t = 0; t < B; ++t) doc.text(L.center(t), y_threads + 10, fmt::format("{}", t));
  doc.end_group();

  // The additions: from the partial a thread reads (row k - 1, column t + s) and from its own.
  doc.begin_group({{"class", "additions"}, {"stroke-width", "1.2"}});
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const int s = offsets[k - 1];
    const double y0 = row_y(k - 1) + L.box_h, y1 = row_y(k);
    for (int t = 0; t < s; ++t) {
      doc.line(L.center(t), y0, L.center(t), y1, {{"stroke", "#bbb"}});
      doc.line(L.center(t + s), y0, L.center(t), y1,
               {{"class", "add"}, {"data-step", fmt::format("{}", k)}, {"data-thread", fmt::format("{}", t)},
                {"data-from", fmt::format("{}", t + s)}, {"stroke", "#1f77b4"}});
    }
  }
  doc.end_group();

  // The rows of partials.
  doc.begin_group({{"class", "partials"}});
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::string label = k == 0 ? "load" : fmt::format("offset {}", offsets[k - 1]);
    const bool tail = k > 0 && offsets[k - 1] <= in.warp_tail_offset;
    const double y = row_y(k);
    doc.text(L.label_width - 8, y + L.box_h - 5, label, [&] {
      auto a = label_font;
      a.push_back({"text-anchor", "end"});
      return a;
    }());
    const std::string fill = k == 0 ? "#f2f2f2" : tail ? "#fdebd3" : "#e3eef9";
    for (std::size_t t = 0; t < rows[k].size(); ++t)
      value_box(doc, L, static_cast<std::int64_t>(t), y, rows[k][t], label, fill, k > 0);
    if (k + 1 == rows.size()) {
      auto a = label_font;
      a.push_back({"fill", "#444"});
      doc.text(L.x(static_cast<std::int64_t>(rows[k].size())) + 8, y + L.box_h - 5, "partials[0]: the block's sum", a);
    }
  }
  doc.end_group();

  // Where listing 12-2 hands the tree to warp 0.
  const auto first_tail = std::find_if(offsets.begin(), offsets.end(), [&](int s) { return s <= in.warp_tail_offset; });
  if (in.warp_tail_offset > 0 && first_tail != offsets.end()) {
    const auto k = static_cast<std::size_t>(first_tail - offsets.begin()) + 1;
    const double y = row_y(k) - L.row_gap / 2 + 2;
    doc.begin_group({{"class", "warp-tail"}, {"data-offset", fmt::format("{}", *first_tail)}});
    doc.line(L.label_width - 100, y, width - 8, y,
             {{"stroke", "#ff7f0e"}, {"stroke-width", "1.5"}, {"stroke-dasharray", "6 4"}});
    auto a = label_font;
    a.push_back({"fill", "#c55a00"});
    a.push_back({"text-anchor", "end"});
    // beside the first tail row, right of its boxes (a tail row is at most 32 wide)
    doc.text(width - 10, row_y(k) + L.box_h - 5, "stage 2 from here: warp 0 alone, __syncwarp() between steps", a);
    doc.end_group();
  }

  doc.begin_group({{"class", "legend"}, {"font-family", "sans-serif"}, {"font-size", "10"}, {"fill", "#333"}});
  const double y_legend = row_y(rows.size() - 1) + L.box_h + 24;
  doc.text(12, y_legend, legend1);
  doc.text(12, y_legend + 16, legend2);
  doc.end_group();
  return doc.str();
}

namespace {

// A scan's row: its label, the values after the step, which indices the step wrote, and the
// reads (from -> to) it made.
template <class T>
struct scan_row {
  std::string label;
  std::vector<T> values;
  std::vector<bool> changed;
  std::vector<std::pair<std::int64_t, std::int64_t>> reads;
  int stride = 0;
};

template <class T>
std::vector<scan_row<T>> kogge_stone_rows(const std::vector<T>& items) {
  std::vector<scan_row<T>> rows{{"load", items, std::vector<bool>(items.size(), false), {}, 0}};
  const auto n = static_cast<std::int64_t>(items.size());
  for (std::int64_t s = 1; s < n; s *= 2) {
    scan_row<T> r{fmt::format("stride {}", s), rows.back().values, std::vector<bool>(items.size(), false), {},
                  static_cast<int>(s)};
    // every thread reads before any writes (the barrier between PMPP §11.2's read and write)
    const std::vector<T>& before = rows.back().values;
    for (std::int64_t i = s; i < n; ++i) {
      r.values[static_cast<std::size_t>(i)] = add(before[static_cast<std::size_t>(i - s)], before[static_cast<std::size_t>(i)]);
      r.changed[static_cast<std::size_t>(i)] = true;
      r.reads.push_back({i - s, i});
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

template <class T>
std::vector<scan_row<T>> brent_kung_rows(const std::vector<T>& items) {
  std::size_t section = 1;
  while (section < items.size()) section *= 2;
  std::vector<T> padded = items;
  padded.resize(section, T{});
  const auto m = static_cast<std::int64_t>(section);
  std::vector<scan_row<T>> rows{{"load", padded, std::vector<bool>(section, false), {}, 0}};
  for (std::int64_t s = 1; s < m; s *= 2) {  // up-sweep: thread t writes index (t+1)*2s - 1
    scan_row<T> r{fmt::format("up-sweep stride {}", s), rows.back().values, std::vector<bool>(section, false), {},
                  static_cast<int>(s)};
    for (std::int64_t i = 2 * s - 1; i < m; i += 2 * s) {
      r.values[static_cast<std::size_t>(i)] = add(r.values[static_cast<std::size_t>(i - s)], r.values[static_cast<std::size_t>(i)]);
      r.changed[static_cast<std::size_t>(i)] = true;
      r.reads.push_back({i - s, i});
    }
    rows.push_back(std::move(r));
  }
  for (std::int64_t s = m / 4; s >= 1; s /= 2) {  // down-sweep: thread t writes index (t+1)*2s - 1 + s
    scan_row<T> r{fmt::format("down-sweep stride {}", s), rows.back().values, std::vector<bool>(section, false), {},
                  static_cast<int>(s)};
    for (std::int64_t i = 2 * s - 1; i + s < m; i += 2 * s) {
      r.values[static_cast<std::size_t>(i + s)] = add(r.values[static_cast<std::size_t>(i)], r.values[static_cast<std::size_t>(i + s)]);
      r.changed[static_cast<std::size_t>(i + s)] = true;
      r.reads.push_back({i, i + s});
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// Draws one scan's rows from y on; returns the y below them.
template <class T>
double draw_scan(document& doc, const rows_layout& L, double y, const std::string& name, const std::string& title,
                 const std::vector<scan_row<T>>& rows, std::size_t real_items, const std::string& column_word) {
  std::size_t additions = 0;
  for (const auto& r : rows) additions += r.reads.size();
  const std::size_t cols = rows.front().values.size();
  doc.begin_group({{"class", name}, {"data-additions", fmt::format("{}", additions)}});
  doc.text(12, y + 12, fmt::format("{}: {} additions", title, additions),
           {{"font-family", "sans-serif"}, {"font-size", "12"}, {"font-weight", "bold"}});
  y += 22;
  doc.begin_group({{"font-family", "monospace"}, {"font-size", "9"}, {"text-anchor", "middle"}, {"fill", "#888"}});
  doc.text(L.label_width - 8, y + 10, column_word, {{"text-anchor", "end"}});
  for (std::size_t c = 0; c < cols; ++c) doc.text(L.center(static_cast<std::int64_t>(c)), y + 10, fmt::format("{}", c));
  doc.end_group();
  y += 16;
  const auto row_y = [&](std::size_t k) { return y + static_cast<double>(k) * L.step(); };
  doc.begin_group({{"class", "reads"}, {"stroke-width", "1.2"}});
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const double y0 = row_y(k - 1) + L.box_h, y1 = row_y(k);
    const bool down = rows[k].label.rfind("down", 0) == 0;
    for (const auto& [from, to] : rows[k].reads) {
      doc.line(L.center(to), y0, L.center(to), y1, {{"stroke", "#bbb"}});
      doc.line(L.center(from), y0, L.center(to), y1,
               {{"class", "read"}, {"data-stride", fmt::format("{}", rows[k].stride)},
                {"data-row", rows[k].label}, {"data-from", fmt::format("{}", from)}, {"data-to", fmt::format("{}", to)},
                {"stroke", down ? "#ff7f0e" : "#1f77b4"}});
    }
  }
  doc.end_group();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    auto a = label_font;
    a.push_back({"text-anchor", "end"});
    doc.text(L.label_width - 8, row_y(k) + L.box_h - 5, rows[k].label, a);
    const bool down = rows[k].label.rfind("down", 0) == 0;
    for (std::size_t c = 0; c < cols; ++c) {
      const bool changed = rows[k].changed[c];
      const std::string fill = !changed ? "#f7f7f7" : down ? "#fdebd3" : "#e3eef9";
      value_box(doc, L, static_cast<std::int64_t>(c), row_y(k), rows[k].values[c], rows[k].label, fill, changed,
                c >= real_items);
    }
  }
  doc.end_group();
  return row_y(rows.size() - 1) + L.box_h + 16;
}

}  // namespace

template <class T>
std::string scan_steps_svg(const scan_steps_input<T>& in, scan_picture which) {
  const bool ks = which != scan_picture::brent_kung, bk = which != scan_picture::kogge_stone;
  const auto ks_rows = kogge_stone_rows(in.items);
  const auto bk_rows = brent_kung_rows(in.items);
  std::size_t chars = 1;
  for (const auto* rows : {&ks_rows, &bk_rows})
    for (const auto& r : *rows)
      for (const T& v : r.values) chars = std::max(chars, shown(v).size());
  rows_layout L;
  L.col = column_for(chars);
  const std::size_t cols = bk_rows.front().values.size();
  const std::string ks_legend =
      "Kogge-Stone: at stride s every thread i >= s adds the value s to its left (blue line) onto its own "
      "(grey line); all read before any writes.";
  const std::string bk_legend =
      "Brent-Kung: the up-sweep builds partial sums at the last index of each subtree (blue), the down-sweep "
      "(orange) hands them forward; grey: zero padding.";
  const double text_w = std::max({static_cast<double>(ks_legend.size()), static_cast<double>(bk_legend.size())}) * 5.9 + 24;
  // a section: its title and column numbers (38), its rows, then the legend line (16 + 28)
  const auto section_h = [&](std::size_t rows) { return 38 + static_cast<double>(rows - 1) * L.step() + L.box_h + 44; };
  const double height = std::ceil(34 + (ks ? section_h(ks_rows.size()) : 0) + (bk ? section_h(bk_rows.size()) : 0));
  const double width = std::ceil(std::max({L.x(static_cast<std::int64_t>(cols)) + 24, text_w,
                                           static_cast<double>(in.caption.size()) * 7.5 + 24}));
  document doc(width, height);
  doc.title(in.caption.empty() ? "scan steps" : in.caption);
  doc.rect(0, 0, width, height, {{"fill", "white"}});
  if (!in.caption.empty()) doc.text(12, 20, in.caption, {{"font-family", "sans-serif"}, {"font-size", "13"}});
  double y = 34;
  if (ks) {
    y = draw_scan(doc, L, y, "kogge-stone", "Kogge-Stone (PMPP §11.2), one thread per item", ks_rows, in.items.size(),
                  "thread");
    doc.text(12, y, ks_legend, {{"font-family", "sans-serif"}, {"font-size", "10"}, {"fill", "#333"}});
    y += 28;
  }
  if (bk) {
    y = draw_scan(doc, L, y, "brent-kung",
                  fmt::format("Brent-Kung (PMPP §11.4), {} items padded to {}, {} threads", in.items.size(), cols,
                              std::max<std::size_t>(cols / 2, 1)),
                  bk_rows, in.items.size(), "index");
    doc.text(12, y, bk_legend, {{"font-family", "sans-serif"}, {"font-size", "10"}, {"fill", "#333"}});
  }
  return doc.str();
}

template std::string reduction_tree_svg<std::int64_t>(const reduction_tree_input<std::int64_t>&);
template std::string reduction_tree_svg<float>(const reduction_tree_input<float>&);
template std::string reduction_tree_svg<double>(const reduction_tree_input<double>&);
template std::string scan_steps_svg<std::int32_t>(const scan_steps_input<std::int32_t>&, scan_picture);
template std::string scan_steps_svg<std::int64_t>(const scan_steps_input<std::int64_t>&, scan_picture);
template std::string scan_steps_svg<float>(const scan_steps_input<float>&, scan_picture);
template std::string scan_steps_svg<double>(const scan_steps_input<double>&, scan_picture);

}  // namespace wb::svg
