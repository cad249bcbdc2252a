// doctest helpers shared by every chapter's checks.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "wb/mismatch.hpp"
#include "wb/stage.hpp"

namespace wb::testing {

// The seed of this test run: random per run (fresh data every time), printed at the start;
// WB_TEST_SEED=<n> repeats a run.
std::uint64_t run_seed();
// A seed for one test case: the run seed mixed with a case-local salt.
std::uint64_t seed(std::uint64_t salt);

// "[1, 3, 5]": a small input in full, for a failure message (`max` values at most, then "...").
template <class T>
std::string values_text(const std::vector<T>& values, std::size_t max = 32) {
  std::ostringstream out;
  out << '[';
  if constexpr (std::is_floating_point_v<T>) out.precision(std::numeric_limits<T>::max_digits10);
  for (std::size_t i = 0; i < values.size() && i < max; ++i) {
    if (i > 0) out << ", ";
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1) out << +values[i];  // a number, not a character
    else out << values[i];
  }
  if (values.size() > max) out << ", ... (" << values.size() << " in all)";
  out << ']';
  return out.str();
}

// How the learner starts wb ("./wb", "build/wb", "wb"), for commands a failure message
// suggests: wb passes it to the checks it runs (WB_COMMAND); "./wb" otherwise.
std::string wb_command();

// A stage of a chapter, as the progress report lists it.
struct stage_info {
  const char* suite;    // doctest test suite, e.g. "merge/2 basic"
  const char* title;    // e.g. "basic kernel"
  const char* section;  // e.g. "PMPP §12.5, Fig. 12.9"
  const char* hint;     // one or two sentences
};
// Registers a chapter's stages (call from a namespace-scope initializer in a test file).
bool register_stages(const stage_info* stages, std::size_t count);
// The same for a chapter's wb::stage table (stages.hpp): the progress report shows hint level 1.
bool register_stages(std::span<const wb::stage> stages);

// True when test cases that need a real GPU can run.
bool gpu_present();

// A learner checks the stages in order, so the checks of stage N may run stages 0..N of the
// track only: stage N + 1 is still a stub when they first pass. Each chapter's run_stage calls
// this; a stage past the current test suite's ("scan/3 coarsened" -> 3) throws, naming both.
// Outside a chapter/N suite it accepts every stage.
void expect_stage_in_reach(int stage);

// A race shows on the cpu backend under a fixed scheduling order: runs `f` once under each of
// in-order and reverse (f gets the order's name), then restores the order the run started
// with. On a GPU a race's outcome is not fixed: f runs once ("the GPU's"), so it checks there
// only what holds whatever the order (compute-sanitizer --tool racecheck finds the race).
void under_fixed_orders(const std::function<void(const char* order)>& f);

// Messages about mismatches (wb/mismatch.hpp), under their test names.
using wb::first_mismatch;
using wb::write_element;

}  // namespace wb::testing

// A test case that needs a real GPU: skipped (and listed as skipped) without one.
#define WB_GPU_TEST_CASE(name) TEST_CASE("[gpu] " name)
// Asserts two sequences are equal, reporting the first mismatch instead of the whole vector.
#define WB_CHECK_EQUAL_SEQ(expected, got)                                                \
  do {                                                                                   \
    auto wb_mismatch_ = ::wb::testing::first_mismatch((expected), (got));                \
    CHECK_MESSAGE(!wb_mismatch_.has_value(), (wb_mismatch_ ? *wb_mismatch_ : ""));       \
  } while (0)

// ---------------------------------------------------------------------------------------
// How a failing check shows the standard containers it compares. doctest shows a value it has
// no operator<< for as "{?}" ("CHECK( spec(a) == expected ) is false: {?} == {?}"); these show
// the values: "[5, 7, 9]" (at most 32, then "... (N in all)"), "{1: 3, 4: 1}", "(2, 5)",
// "nullopt". A test file that compares such values includes this header (directly or through
// its chapter's test support), so each has one meaning in a test binary.
// ---------------------------------------------------------------------------------------
namespace wb::testing {

// One value as a failure message shows it: a number in full (an 8-bit integer as a number, a
// float to its last digit), a string in quotes, anything else as doctest shows it.
template <class T>
std::string value_text(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return '"' + value + '"';
  } else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    std::ostringstream out;
    if constexpr (std::is_floating_point_v<T>) out.precision(std::numeric_limits<T>::max_digits10);
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1) out << +value;  // a number, not a character
    else out << value;
    return out.str();
  } else {
    return doctest::toString(value).c_str();
  }
}

// The elements of a range between open and close, each by `text`, at most `max`.
template <class Range, class Text>
std::string range_text(const Range& values, const char* open, const char* close, Text text, std::size_t max = 32) {
  std::string out = open;
  std::size_t i = 0;
  for (const auto& v : values) {
    if (i == max) {
      out += ", ... (" + std::to_string(std::size(values)) + " in all)";
      break;
    }
    out += (i++ == 0 ? "" : ", ") + text(v);
  }
  return out + close;
}

}  // namespace wb::testing

namespace doctest {

template <class T, class A>
struct StringMaker<std::vector<T, A>> {
  static String convert(const std::vector<T, A>& values) {
    return wb::testing::range_text(values, "[", "]", [](const T& v) { return wb::testing::value_text(v); }).c_str();
  }
};

template <class T, std::size_t N>
struct StringMaker<std::array<T, N>> {
  static String convert(const std::array<T, N>& values) {
    return wb::testing::range_text(values, "[", "]", [](const T& v) { return wb::testing::value_text(v); }).c_str();
  }
};

template <class K, class V, class C, class A>
struct StringMaker<std::map<K, V, C, A>> {
  static String convert(const std::map<K, V, C, A>& values) {
    return wb::testing::range_text(values, "{", "}", [](const std::pair<const K, V>& kv) {
      return wb::testing::value_text(kv.first) + ": " + wb::testing::value_text(kv.second);
    }).c_str();
  }
};

template <class A, class B>
struct StringMaker<std::pair<A, B>> {
  static String convert(const std::pair<A, B>& p) {
    return ("(" + wb::testing::value_text(p.first) + ", " + wb::testing::value_text(p.second) + ")").c_str();
  }
};

template <class T>
struct StringMaker<std::optional<T>> {
  static String convert(const std::optional<T>& v) {
    return v ? wb::testing::value_text(*v).c_str() : String("nullopt");
  }
};

}  // namespace doctest
