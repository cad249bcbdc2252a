// wb/svg.hpp and wb/svg_pictures.hpp: the documents are well-formed XML, text is escaped,
// rsvg-convert renders them (when installed) to a PNG of the picture's size, the merge path
// draws exactly the input's path and splits, and the reduction tree and the scans draw the
// values an independent computation gives for every step.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "wb/svg.hpp"
#include "wb/svg_pictures.hpp"
#include "wb/testing.hpp"

namespace {

struct element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;  // for <text> and <title>: the content, entities left as written
};

// A minimal XML reader: every tag balanced, attribute values quoted, no raw '<' or stray '&'
// in text or values. Throws std::runtime_error with the reason on the first fault.
std::vector<element> parse_xml(const std::string& doc) {
  std::vector<element> out;
  std::vector<std::string> open;
  const std::regex entity("^&(amp|lt|gt|quot|apos);");
  const auto check_text = [&](const std::string& s) {
    for (std::size_t p = 0; p < s.size(); ++p) {
      if (s[p] == '<' || s[p] == '>') throw std::runtime_error("raw '<' or '>' in text: " + s);
      if (s[p] == '&' && !std::regex_search(s.substr(p), entity)) throw std::runtime_error("stray '&' in: " + s);
    }
  };
  std::size_t pos = 0;
  bool saw_root = false;
  while (pos < doc.size()) {
    const std::size_t lt = doc.find('<', pos);
    const std::string between = doc.substr(pos, lt == std::string::npos ? std::string::npos : lt - pos);
    check_text(between);
    if (!open.empty() && !out.empty() && (open.back() == "text" || open.back() == "title")) out.back().text += between;
    else if (between.find_first_not_of(" \n") != std::string::npos && open.empty())
      throw std::runtime_error("text outside the root element");
    if (lt == std::string::npos) break;
    const std::size_t gt = doc.find('>', lt);
    if (gt == std::string::npos) throw std::runtime_error("unterminated tag");
    std::string tag = doc.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    if (tag.front() == '?') continue;  // the XML declaration
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) throw std::runtime_error("mismatched </" + tag.substr(1) + ">");
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    element e;
    const std::size_t space = tag.find(' ');
    e.name = tag.substr(0, space);
    if (open.empty() && saw_root) throw std::runtime_error("two root elements");
    saw_root = true;
    std::string rest = space == std::string::npos ? "" : tag.substr(space);
    const std::regex attr(R"re(^\s+([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"<]*)")re");
    std::smatch m;
    while (std::regex_search(rest, m, attr)) {
      check_text(m[2]);
      if (!e.attrs.emplace(m[1], m[2]).second) throw std::runtime_error("attribute given twice: " + m[1].str());
      rest = m.suffix();
    }
    if (rest.find_first_not_of(" \n") != std::string::npos) throw std::runtime_error("malformed attributes: " + rest);
    out.push_back(e);
    if (!self_closing) open.push_back(e.name);
  }
  if (!open.empty()) throw std::runtime_error("unclosed <" + open.back() + ">");
  if (!saw_root) throw std::runtime_error("no root element");
  return out;
}

std::vector<element> with_class(const std::vector<element>& all, const std::string& cls) {
  std::vector<element> out;
  for (const auto& e : all) {
    const auto c = e.attrs.find("class");
    if (c != e.attrs.end() && (c->second == cls || c->second.rfind(cls + " ", 0) == 0)) out.push_back(e);
  }
  return out;
}

std::int64_t as_int(const element& e, const std::string& name) {
  REQUIRE(e.attrs.count(name) == 1);
  return std::stoll(e.attrs.at(name));
}

bool have_rsvg() { return std::system("command -v rsvg-convert >/dev/null 2>&1") == 0; }

// Renders with rsvg-convert; returns the PNG's width and height from its IHDR chunk.
std::pair<std::uint32_t, std::uint32_t> render_png(const std::string& svg_text, const std::string& stem) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto svg = dir / (stem + "-" + std::to_string(::getpid()) + ".svg");
  const auto png = dir / (stem + "-" + std::to_string(::getpid()) + ".png");
  { std::ofstream(svg) << svg_text; }
  const std::string cmd = "rsvg-convert -o '" + png.string() + "' '" + svg.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(png, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(svg);
  std::filesystem::remove(png);
  REQUIRE(bytes.size() > 33);
  const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  REQUIRE(std::equal(signature, signature + 8, bytes.begin()));
  REQUIRE(std::string(bytes.begin() + 12, bytes.begin() + 16) == "IHDR");
  const auto be32 = [&](std::size_t at) {
    return (std::uint32_t{bytes[at]} << 24) | (std::uint32_t{bytes[at + 1]} << 16) | (std::uint32_t{bytes[at + 2]} << 8) |
           std::uint32_t{bytes[at + 3]};
  };
  return {be32(16), be32(20)};
}

// The co-rank of output k by counting: how many of the first k outputs of the stable merge
// come from A (independent of the binary search the chapters implement).
std::int64_t reference_co_rank(std::int64_t k, const std::vector<std::int64_t>& A, const std::vector<std::int64_t>& B) {
  std::vector<std::pair<std::int64_t, int>> all;  // (key, 0 for A / 1 for B): ties put A first
  for (auto a : A) all.push_back({a, 0});
  for (auto b : B) all.push_back({b, 1});
  std::stable_sort(all.begin(), all.end());
  return std::count_if(all.begin(), all.begin() + k, [](const auto& p) { return p.second == 0; });
}

// The drawn values of a tree or scan picture: row label -> column -> (shown text, full value).
struct drawn_value {
  std::string text;
  std::string value;
};
std::map<std::string, std::map<std::int64_t, drawn_value>> values_by_row(const std::vector<element>& all) {
  std::map<std::string, std::map<std::int64_t, drawn_value>> rows;
  for (const auto& e : with_class(all, "value")) {
    const auto col = as_int(e, "data-col");
    CHECK(rows[e.attrs.at("data-row")].count(col) == 0);  // each cell drawn once
    rows[e.attrs.at("data-row")][col] = {e.text, e.attrs.at("data-value")};
  }
  return rows;
}

// Sums with wraparound, as the GPU's integer adds (independent of the pictures' code).
std::int64_t wrapping_sum(const std::vector<std::int64_t>& in, std::int64_t first, std::int64_t last) {
  std::uint64_t s = 0;
  for (std::int64_t i = std::max<std::int64_t>(first, 0); i <= last; ++i) s += static_cast<std::uint64_t>(in[static_cast<std::size_t>(i)]);
  return static_cast<std::int64_t>(s);
}

std::vector<std::int64_t> random_items(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (auto& x : v) {
    const auto r = rng() % 16;
    // mostly small values; now and then an extreme one, so sums wrap
    x = r == 0 ? std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(rng() % 3)
        : r == 1 ? std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(rng() % 3)
                 : static_cast<std::int64_t>(rng() % 199) - 99;
  }
  return v;
}

}  // namespace

TEST_SUITE("svg") {

TEST_CASE("numbers are compact and text is escaped") {
  CHECK(wb::svg::number(1.0) == "1");
  CHECK(wb::svg::number(0.5) == "0.5");
  CHECK(wb::svg::number(-0.0001) == "0");
  CHECK(wb::svg::number(2.0004) == "2");
  CHECK(wb::svg::number(1.23456) == "1.235");
  CHECK(wb::svg::number(-12.5) == "-12.5");
  CHECK(wb::svg::number(1e6) == "1000000");
  CHECK_THROWS_AS(wb::svg::number(std::numeric_limits<double>::infinity()), std::invalid_argument);
  CHECK(wb::svg::escape("a < b && c > \"d\" 'e'") == "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;");
  CHECK(wb::svg::escape("plain") == "plain");
}

TEST_CASE("a document is well-formed, its text escaped, its groups balanced") {
  wb::svg::document doc(120, 80.5);
  doc.title("A < B & \"C\"");
  doc.rect(0, 0, 120, 80.5, {{"fill", "white"}});
  doc.begin_group({{"class", "g1"}, {"data-note", "x<y & 'z'"}});
  doc.line(1, 2, 3.25, 4);
  doc.polyline({{0, 0}, {10, 0.5}, {10, 20}}, {{"fill", "none"}, {"stroke", "black"}});
  doc.path("M 0 0 L 5 5", {{"stroke", "red"}});
  doc.circle(5, 5, 2.5);
  doc.text(10, 20, "A[i-1] > B[j] && i < m", {{"font-size", "10"}});
  doc.end_group();
  const std::string s = doc.str();
  const auto all = parse_xml(s);
  REQUIRE(all.front().name == "svg");
  CHECK(all.front().attrs.at("viewBox") == "0 0 120 80.5");
  CHECK(all.front().attrs.at("width") == "120");
  CHECK(all.front().attrs.at("xmlns") == "http://www.w3.org/2000/svg");
  std::vector<std::string> names;
  for (const auto& e : all) names.push_back(e.name);
  CHECK(names == std::vector<std::string>{"svg", "title", "rect", "g", "line", "polyline", "path", "circle", "text"});
  CHECK(all[1].text == "A &lt; B &amp; &quot;C&quot;");
  CHECK(all[3].attrs.at("data-note") == "x&lt;y &amp; &apos;z&apos;");
  CHECK(all[5].attrs.at("points") == "0,0 10,0.5 10,20");
  CHECK(all[8].text == "A[i-1] &gt; B[j] &amp;&amp; i &lt; m");
  CHECK(s.find("&&") == std::string::npos);

  // A defective document is caught by the reader (the checks above can fail).
  CHECK_THROWS(parse_xml("<svg><g></svg>"));
  CHECK_THROWS(parse_xml("<svg><text>a < b</text></svg>"));
  CHECK_THROWS(parse_xml("<svg><text>a & b</text></svg>"));

  wb::svg::document open(10, 10);
  open.begin_group();
  CHECK_THROWS_AS(open.str(), std::logic_error);
  CHECK_THROWS_AS(wb::svg::document(10, 10).end_group(), std::logic_error);
  CHECK_THROWS_AS(wb::svg::document(0, 10), std::invalid_argument);
}

TEST_CASE("rsvg-convert renders a document to a PNG of its size") {
  if (!have_rsvg()) {
    MESSAGE("rsvg-convert is not on PATH (Debian: librsvg2-bin): rendering not checked");
    return;
  }
  wb::svg::document doc(97, 41);
  doc.rect(0, 0, 97, 41, {{"fill", "white"}});
  doc.text(4, 20, "<&>", {{"font-size", "12"}});
  const auto [w, h] = render_png(doc.str(), "wb-svg-doc");
  CHECK(w == 97);
  CHECK(h == 41);
}

TEST_CASE("the merge path draws the input's path and splits") {
  std::mt19937_64 rng(wb::testing::seed(0x5147));
  for (int round = 0; round < 20; ++round) {
    const int m = static_cast<int>(rng() % 12), n = static_cast<int>(rng() % 12);
    wb::svg::merge_path_input in;
    for (int x = 0; x < m; ++x) in.A.push_back(static_cast<std::int64_t>(rng() % 8) - 4);  // duplicates and ties
    for (int x = 0; x < n; ++x) in.B.push_back(static_cast<std::int64_t>(rng() % 8) - 4);
    std::sort(in.A.begin(), in.A.end());
    std::sort(in.B.begin(), in.B.end());
    const std::int64_t total = m + n;
    const std::int64_t threads = 1 + static_cast<std::int64_t>(rng() % 5);
    for (std::int64_t t = 0; t <= threads; ++t) {
      const std::int64_t k = std::min(total, t * ((total + threads - 1) / threads));
      in.thread_splits.push_back({k, reference_co_rank(k, in.A, in.B)});
    }
    in.block_splits = {{0, 0}, {total, static_cast<std::int64_t>(m)}};
    in.caption = "merge of A & B: <" + std::to_string(m) + ", " + std::to_string(n) + ">";
    const std::string s = wb::svg::merge_path_svg(in);
    INFO("m = " << m << ", n = " << n << "\n" << s);
    const auto all = parse_xml(s);

    const auto path = with_class(all, "merge-path");
    REQUIRE(path.size() == 1);
    CHECK(as_int(path[0], "data-steps") == total);
    // The polyline: m + n + 1 points, each step one cell right or one cell down, m right in all.
    std::vector<std::pair<double, double>> pts;
    std::string list = path[0].attrs.at("points");
    std::replace(list.begin(), list.end(), ',', ' ');
    std::istringstream is(list);
    for (double x, y; is >> x >> y;) pts.push_back({x, y});
    REQUIRE(pts.size() == static_cast<std::size_t>(total + 1));
    int right = 0, down = 0;
    for (std::size_t p = 1; p < pts.size(); ++p) {
      const double dx = pts[p].first - pts[p - 1].first, dy = pts[p].second - pts[p - 1].second;
      CHECK(((dx > 0 && dy == 0) || (dx == 0 && dy > 0)));
      right += dx > 0;
      down += dy > 0;
      // the k-th point is where co_rank(k) says: i cells right, k - i cells down
      const double cell = pts.size() > 1 ? std::max(dx, dy) : 1;
      const std::int64_t i = reference_co_rank(static_cast<std::int64_t>(p), in.A, in.B);
      CHECK(pts[p].first - pts[0].first == doctest::Approx(static_cast<double>(i) * cell));
      CHECK(pts[p].second - pts[0].second == doctest::Approx(static_cast<double>(static_cast<std::int64_t>(p) - i) * cell));
    }
    CHECK(right == m);
    CHECK(down == n);

    const auto marks = with_class(all, "thread-split");
    REQUIRE(marks.size() == in.thread_splits.size());
    for (std::size_t t = 0; t < marks.size(); ++t) {
      CHECK(as_int(marks[t], "data-k") == in.thread_splits[t].k);
      CHECK(as_int(marks[t], "data-i") == in.thread_splits[t].i);
      CHECK(as_int(marks[t], "data-j") == in.thread_splits[t].k - in.thread_splits[t].i);
      CHECK(marks[t].attrs.at("class") == "thread-split");  // correct co-ranks are on the path
      // the mark sits on the path's k-th point
      const auto& p = pts[static_cast<std::size_t>(in.thread_splits[t].k)];
      CHECK(std::stod(marks[t].attrs.at("cx")) == doctest::Approx(p.first));
      CHECK(std::stod(marks[t].attrs.at("cy")) == doctest::Approx(p.second));
    }
    CHECK(with_class(all, "block-split").size() == 2);
    CHECK(with_class(all, "a-key").size() == static_cast<std::size_t>(m));
    CHECK(with_class(all, "b-key").size() == static_cast<std::size_t>(n));
    CHECK(s.find("A &amp; B: &lt;") != std::string::npos);
  }
}

TEST_CASE("a wrong co-rank is drawn off the path; a split outside the grid is refused") {
  wb::svg::merge_path_input in;
  in.A = {1, 3, 5, 7};
  in.B = {2, 4, 6};
  // k = 3: the merge outputs 1 2 3, so co_rank(3) = 2; i = 1 is the wrong answer
  in.thread_splits = {{0, 0}, {3, 2}, {3, 1}, {7, 4}};
  const auto all = parse_xml(wb::svg::merge_path_svg(in));
  const auto marks = with_class(all, "thread-split");
  REQUIRE(marks.size() == 4);
  CHECK(marks[1].attrs.at("class") == "thread-split");
  CHECK(marks[2].attrs.at("class") == "thread-split off-path");
  CHECK(with_class(all, "merge-path").size() == 1);

  in.thread_splits = {{3, 4}};  // j = -1
  CHECK_THROWS_AS(wb::svg::merge_path_svg(in), std::invalid_argument);
  in.thread_splits = {{8, 4}};  // k > m + n
  CHECK_THROWS_AS(wb::svg::merge_path_svg(in), std::invalid_argument);
  in.thread_splits = {};
  in.A = {3, 1};
  CHECK_THROWS_AS(wb::svg::merge_path_svg(in), std::invalid_argument);

  // empty inputs: a path of no steps, still a valid picture
  wb::svg::merge_path_input empty;
  empty.thread_splits = {{0, 0}};
  const auto e = parse_xml(wb::svg::merge_path_svg(empty));
  CHECK(as_int(with_class(e, "merge-path")[0], "data-steps") == 0);
}

TEST_CASE("rsvg-convert renders a merge path at the picture's size") {
  if (!have_rsvg()) {
    MESSAGE("rsvg-convert is not on PATH (Debian: librsvg2-bin): rendering not checked");
    return;
  }
  wb::svg::merge_path_input in;
  in.A = {1, 3, 5, 7, 9};
  in.B = {2, 2, 8};
  in.thread_splits = {{0, 0}, {4, 2}, {8, 5}};
  in.block_splits = {{0, 0}, {8, 5}};
  in.caption = "merge/2 basic: 2 threads";
  const std::string s = wb::svg::merge_path_svg(in);
  const auto root = parse_xml(s).front();
  const auto [w, h] = render_png(s, "wb-svg-merge");
  CHECK(w == static_cast<std::uint32_t>(std::stod(root.attrs.at("width"))));
  CHECK(h == static_cast<std::uint32_t>(std::stod(root.attrs.at("height"))));
}

TEST_CASE("the reduction tree draws every thread's partial at every step") {
  std::mt19937_64 rng(wb::testing::seed(0x7ee));
  for (int round = 0; round < 24; ++round) {
    const int block = 1 << (rng() % 8);  // 1 .. 128 threads
    const auto n = static_cast<std::int64_t>(rng() % (3 * block + 2));
    wb::svg::reduction_tree_input<std::int64_t> in;
    in.items = random_items(rng, static_cast<std::size_t>(n));
    in.block = block;
    in.caption = "tree <" + std::to_string(block) + "> & co";
    const std::string s = wb::svg::reduction_tree_svg(in);
    INFO("block = " << block << ", n = " << n << "\n" << s);
    const auto all = parse_xml(s);
    const auto rows = values_by_row(all);

    // After the steps down to offset s, partials[t] (t < s) holds every item i with i % s == t:
    // the load row is s = block (a thread's grid-stride items), the last row s = 1 (the sum).
    std::size_t expected_rows = 0;
    for (int s = block; s >= 1; s /= 2) {
      const std::string label = s == block ? "load" : "offset " + std::to_string(s);
      REQUIRE(rows.count(label) == 1);
      ++expected_rows;
      const auto& row = rows.at(label);
      CHECK(row.size() == static_cast<std::size_t>(s));
      for (int t = 0; t < s; ++t) {
        std::uint64_t sum = 0;
        for (std::int64_t i = t; i < n; i += s) sum += static_cast<std::uint64_t>(in.items[static_cast<std::size_t>(i)]);
        REQUIRE(row.count(t) == 1);
        CHECK(row.at(t).value == std::to_string(static_cast<std::int64_t>(sum)));
        CHECK(row.at(t).text == row.at(t).value);
      }
    }
    if (block > 1) {
      CHECK(rows.size() == expected_rows);
    } else {
      CHECK(rows.size() == 1);  // one thread: the load row is the sum
      CHECK(rows.at("load").at(0).value == std::to_string(wrapping_sum(in.items, 0, n - 1)));
    }

    // Each addition: at step k (offset block >> k) thread t reads partials[t + offset].
    const auto adds = with_class(all, "add");
    CHECK(adds.size() == static_cast<std::size_t>(block - 1));
    for (const auto& a : adds) {
      const std::int64_t offset = block >> as_int(a, "data-step");
      CHECK(as_int(a, "data-thread") < offset);
      CHECK(as_int(a, "data-from") == as_int(a, "data-thread") + offset);
    }
    // The items, in order, each drawn once.
    const auto items = with_class(all, "item");
    REQUIRE(items.size() == static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      CHECK(as_int(items[static_cast<std::size_t>(i)], "data-index") == i);
      CHECK(items[static_cast<std::size_t>(i)].attrs.at("data-value") == std::to_string(in.items[static_cast<std::size_t>(i)]));
    }
    // Listing 12-2's tail starts at offset 32, or at the first step of a smaller block.
    const auto tail = with_class(all, "warp-tail");
    if (block == 1) {
      CHECK(tail.empty());
    } else {
      REQUIRE(tail.size() == 1);
      CHECK(as_int(tail[0], "data-offset") == std::min(32, block / 2));
    }
    CHECK(s.find("tree &lt;") != std::string::npos);
  }

  // Floating point: exact small integers, so the closed form holds; 6 digits shown, all in data-value.
  wb::svg::reduction_tree_input<double> f;
  f.items = {0.5, 1.25, 2, 1234567.125, -3, 4};
  f.block = 4;
  f.warp_tail_offset = 0;  // no tail drawn
  const auto all = parse_xml(wb::svg::reduction_tree_svg(f));
  const auto rows = values_by_row(all);
  CHECK(rows.at("load").at(0).value == "-2.5");
  CHECK(rows.at("load").at(1).value == "5.25");
  CHECK(rows.at("offset 1").at(0).value == "1234571.875");
  CHECK(rows.at("offset 1").at(0).text == "1.23457e+06");
  CHECK(with_class(all, "warp-tail").empty());

  for (const int bad : {0, -4, 3, 96, 2048}) {
    wb::svg::reduction_tree_input<std::int64_t> b;
    b.block = bad;
    CHECK_THROWS_AS(wb::svg::reduction_tree_svg(b), std::invalid_argument);
  }
}

TEST_CASE("the scans draw Kogge-Stone's and Brent-Kung's values at every step") {
  std::mt19937_64 rng(wb::testing::seed(0x5ca));
  for (int round = 0; round < 24; ++round) {
    const auto n = static_cast<std::int64_t>(round < 3 ? round : rng() % 40);
    wb::svg::scan_steps_input<std::int64_t> in;
    in.items = random_items(rng, static_cast<std::size_t>(n));
    INFO("n = " << n);

    // Kogge-Stone: after stride s, item i holds in[i - 2s + 1 .. i] (PMPP §11.2).
    {
      const std::string s = wb::svg::scan_steps_svg(in, wb::svg::scan_picture::kogge_stone);
      INFO(s);
      const auto all = parse_xml(s);
      const auto rows = values_by_row(all);
      std::size_t count = 0;
      std::size_t reads_expected = 0;
      for (std::int64_t width = 1; width == 1 || width / 2 < n; width *= 2) {
        const std::string label = width == 1 ? "load" : "stride " + std::to_string(width / 2);
        if (n == 0) break;  // nothing to draw
        REQUIRE(rows.count(label) == 1);
        ++count;
        CHECK(rows.at(label).size() == static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
          CHECK(rows.at(label).at(i).value == std::to_string(wrapping_sum(in.items, i - width + 1, i)));
        if (width > 1) reads_expected += static_cast<std::size_t>(n - width / 2);
      }
      CHECK(rows.size() == count);
      const auto reads = with_class(all, "read");
      CHECK(reads.size() == reads_expected);
      for (const auto& r : reads) CHECK(as_int(r, "data-to") - as_int(r, "data-from") == as_int(r, "data-stride"));
      CHECK(with_class(all, "brent-kung").empty());
      REQUIRE(with_class(all, "kogge-stone").size() == 1);
      CHECK(as_int(with_class(all, "kogge-stone")[0], "data-additions") == static_cast<std::int64_t>(reads_expected));
    }

    // Brent-Kung on the items padded to a power of two m: after the up-sweep stride s, index
    // i holds the lowbit(i + 1) items ending at i, at most 2s of them; after the down-sweep
    // stride s, every index with s | i + 1 holds its whole prefix (PMPP §11.4).
    {
      const std::string s = wb::svg::scan_steps_svg(in, wb::svg::scan_picture::brent_kung);
      INFO(s);
      const auto all = parse_xml(s);
      const auto rows = values_by_row(all);
      std::int64_t m = 1;
      while (m < n) m *= 2;
      std::vector<std::int64_t> padded = in.items;
      padded.resize(static_cast<std::size_t>(m), 0);
      const auto lowbit = [](std::int64_t v) { return v & -v; };
      std::size_t count = 0, reads_expected = 0;
      const auto check_row = [&](const std::string& label, auto expected_at) {
        REQUIRE(rows.count(label) == 1);
        ++count;
        CHECK(rows.at(label).size() == static_cast<std::size_t>(m));
        for (std::int64_t i = 0; i < m; ++i) CHECK(rows.at(label).at(i).value == std::to_string(expected_at(i)));
      };
      check_row("load", [&](std::int64_t i) { return padded[static_cast<std::size_t>(i)]; });
      for (std::int64_t st = 1; st < m; st *= 2) {
        check_row("up-sweep stride " + std::to_string(st), [&](std::int64_t i) {
          return wrapping_sum(padded, i - std::min(lowbit(i + 1), 2 * st) + 1, i);
        });
        reads_expected += static_cast<std::size_t>(m / (2 * st));
      }
      for (std::int64_t st = m / 4; st >= 1; st /= 2) {
        check_row("down-sweep stride " + std::to_string(st), [&](std::int64_t i) {
          return (i + 1) % st == 0 ? wrapping_sum(padded, 0, i) : wrapping_sum(padded, i - lowbit(i + 1) + 1, i);
        });
        reads_expected += static_cast<std::size_t>(m / (2 * st) - 1);
      }
      CHECK(rows.size() == count);
      const auto reads = with_class(all, "read");
      CHECK(reads.size() == reads_expected);
      for (const auto& r : reads) CHECK(as_int(r, "data-to") - as_int(r, "data-from") == as_int(r, "data-stride"));
      // zero padding is drawn, greyed
      const auto values = with_class(all, "value");
      CHECK(values.size() == count * static_cast<std::size_t>(m));
      REQUIRE(with_class(all, "brent-kung").size() == 1);
      CHECK(with_class(all, "kogge-stone").empty());
    }

    // Both: the two sections, the same values.
    const auto both = parse_xml(wb::svg::scan_steps_svg(in));
    CHECK(with_class(both, "kogge-stone").size() == 1);
    CHECK(with_class(both, "brent-kung").size() == 1);
  }

  // int32 wraps modulo 2^32, float rounds in float.
  wb::svg::scan_steps_input<std::int32_t> w;
  w.items = {2147483647, 1, -5};
  const auto rows = values_by_row(parse_xml(wb::svg::scan_steps_svg(w, wb::svg::scan_picture::kogge_stone)));
  CHECK(rows.at("stride 2").at(1).value == "-2147483648");
  CHECK(rows.at("stride 2").at(2).value == "2147483643");
  wb::svg::scan_steps_input<float> f;
  f.items = {16777216.0f, 1.0f, 1.0f};
  const auto frows = values_by_row(parse_xml(wb::svg::scan_steps_svg(f, wb::svg::scan_picture::kogge_stone)));
  CHECK(frows.at("stride 1").at(1).value == "16777216");  // 2^24 + 1 rounds back to 2^24 in float
  CHECK(frows.at("stride 2").at(2).value == "16777218");  // 2^24 + (1 + 1): the tree's order, exact
}

TEST_CASE("rsvg-convert renders the reduction tree and the scans at the pictures' size") {
  if (!have_rsvg()) {
    MESSAGE("rsvg-convert is not on PATH (Debian: librsvg2-bin): rendering not checked");
    return;
  }
  wb::svg::reduction_tree_input<std::int64_t> tree;
  for (int i = 0; i < 40; ++i) tree.items.push_back(i % 7 - 2);
  tree.block = 64;
  tree.caption = "reduction/2 warp-synchronous: 40 items, 64 threads";
  wb::svg::scan_steps_input<float> scan;
  scan.items = {3, 1, 4, 1, 5, 9, 2, 6, 5.5f};
  scan.caption = "scan: 9 items";
  for (const std::string& s : {wb::svg::reduction_tree_svg(tree), wb::svg::scan_steps_svg(scan),
                               wb::svg::scan_steps_svg(scan, wb::svg::scan_picture::brent_kung)}) {
    const auto root = parse_xml(s).front();
    const auto [w, h] = render_png(s, "wb-svg-tree");
    CHECK(w == static_cast<std::uint32_t>(std::stod(root.attrs.at("width"))));
    CHECK(h == static_cast<std::uint32_t>(std::stod(root.attrs.at("height"))));
  }
}

}  // TEST_SUITE
