// wb/svg.hpp and wb/svg_pictures.hpp: the documents are well-formed XML, text is escaped,
// rsvg-convert renders them (when installed) to a PNG of the picture's size, and the merge
// path draws exactly the input's path and splits.
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

}  // TEST_SUITE
