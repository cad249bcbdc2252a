// --trace on a co_rank that is wrong: the trace runs the track's co_rank (here, stand-ins for a
// learner's) and marks a wrong co-rank, one out of range, and one that reads past A or B, in the
// text ("!!") and in the picture (a red cross at the edge of the grid).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "config.hpp"
#include "trace.hpp"

namespace {

using K = std::int32_t;

// What print_trace writes to stdout.
template <class F>
std::string captured(F&& f) {
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  std::FILE* file = std::tmpfile();
  dup2(fileno(file), STDOUT_FILENO);
  f();
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  std::fclose(file);
  return text;
}

std::int64_t stable_split(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n) {
  std::int64_t i = std::min(k, m);
  while (i > std::max<std::int64_t>(0, k - n) && k - i < n && A[i - 1] > B[k - i]) --i;
  while (i < std::min(k, m) && k - i > 0 && B[k - i - 1] >= A[i]) ++i;
  return i;
}
// A stub's co_rank: always 0 (out of range where k > n).
std::int64_t always_zero(std::int64_t, const K*, std::int64_t, const K*, std::int64_t) { return 0; }
// Right values, but it looks at A[k] first: past the end of A once k >= m.
std::int64_t peeks_past_a(std::int64_t k, const K* A, std::int64_t m, const K* B, std::int64_t n) {
  volatile K look = A[k];
  (void)look;
  return stable_split(k, A, m, B, n);
}

const std::vector<K> A = {1, 3, 5};
const std::vector<K> B = {2, 3};
const merge::config basic{4, 0, 0, 1};
const merge::config tiled{2, 4, 0, 2};

}  // namespace

TEST_SUITE("merge trace") {
  TEST_CASE("a right co_rank: no marks") {
    const std::string text = captured([] { merge::print_trace<K>(A, B, basic, tiled, stable_split, "test"); });
    CHECK(text.find("thread 0: C[0, 2)") != std::string::npos);
    CHECK(text.find("!!") == std::string::npos);
  }

  TEST_CASE("a co-rank out of range is marked, the picture draws it at the grid's edge") {
    merge::trace_splits splits;
    const std::string text = captured([&] { splits = merge::print_trace<K>(A, B, basic, tiled, always_zero, "test"); });
    CAPTURE(text);
    // k = 5 = m + n: i must be 3 (every element of A before output 5)
    CHECK(text.find("!! the test track's co_rank(5): i = 0 is out of range: co_rank(5) lies in [3, 3]") != std::string::npos);
    CHECK(text.find("co-ranks of the test track above are wrong (marked !!)") != std::string::npos);
    const auto file = std::filesystem::temp_directory_path() / ("merge-trace-" + std::to_string(getpid()) + ".svg");
    const std::string drawn = captured([&] { merge::write_merge_path_svg<K>(A, B, splits, basic, tiled, "test", file.string()); });
    std::ifstream in(file);
    std::stringstream svg;
    svg << in.rdbuf();
    std::filesystem::remove(file);
    CHECK(drawn.find("a red cross at its edge") != std::string::npos);
    CHECK(svg.str().find("class=\"out-of-range\"") != std::string::npos);
    CHECK(svg.str().find("co_rank(") != std::string::npos);
  }

  TEST_CASE("a co_rank that reads past the end of A is caught and named, not a crash") {
    const std::string text = captured([] { merge::print_trace<K>(A, B, basic, tiled, peeks_past_a, "test"); });
    CAPTURE(text);
    CHECK(text.find("!! the test track's co_rank(4): it reads A[4], past the end (A has 3 elements)") != std::string::npos);
  }
}
