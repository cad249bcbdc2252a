// Helpers for the counting checks: the independent reference, running a stage of this
// track (WB_TRACK), and the inputs every stage is checked on.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "counting.hpp"
#include "harness.hpp"
#include "wb/generate.hpp"
#include "wb/testing.hpp"

namespace counting::testing {

namespace track = ::counting::WB_TRACK;

// The reference: std::map counts, which are ascending by value by construction. It shares
// no code with any stage.
template <class T>
std::vector<entry<T>> reference_table(std::span<const T> data) {
  std::map<T, std::uint64_t> counts;
  for (const T v : data) ++counts[v];
  std::vector<entry<T>> table;
  for (const auto& [value, count] : counts) table.push_back({value, count});
  return table;
}

// Runs stage `stage` of this track on `data` (copied to the device by the runner for device
// stages) and returns its table.
template <class T>
std::vector<entry<T>> run_stage(int stage, const std::vector<T>& data, const config& cfg = {}) {
  wb::testing::expect_stage_in_reach(stage);
  stage_runner<track::id, T> runner(stage, input<T>{std::span<const T>(data), nullptr}, cfg);
  runner.run();
  return runner.result();
}

// CHECKs a table against the expected one; a failure says the first row that differs
// ("at row 3: expected 7:2, got 7:1") or the first value missing or extra.
#define COUNTING_CHECK_TABLE(expected, got)                                                   \
  do {                                                                                        \
    const auto counting_mismatch_ = ::counting::table_mismatch((expected), (got));            \
    CHECK_MESSAGE(!counting_mismatch_.has_value(), "wrong table: " << counting_mismatch_.value_or(std::string()));   \
  } while (0)

// CHECKs the stage's table against the reference, naming the input, its size and the first
// difference.
template <class T>
void check_stage(int stage, const std::vector<T>& data, const std::string& what, const config& cfg = {}) {
  INFO("input: " << what << ", " << data.size() << std::string(std::is_same_v<T, std::int8_t> ? " int8" : " int64") << " items");
  const auto got = run_stage<T>(stage, data, cfg);
  COUNTING_CHECK_TABLE(reference_table<T>(data), got);
}

template <class T>
struct named_input {
  std::string name;
  std::vector<T> data;
};

// check_stage on each of the inputs.
template <class T>
void check_all(int stage, const std::vector<named_input<T>>& inputs, const config& cfg = {}) {
  for (const auto& in : inputs) check_stage<T>(stage, in.data, in.name, cfg);
}

// The inputs every stage is checked on, at most `max_n` items (the quadratic stages get
// small ones). `salt` makes the random ones differ between stages.
std::vector<named_input<std::int8_t>> int8_inputs(std::size_t max_n, std::uint64_t salt);
std::vector<named_input<std::int64_t>> int64_inputs(std::size_t max_n, std::uint64_t salt);

// The large GPU checks (2^22 to 2^31 items, the D11 timing) run only when WB_LARGE=1: ctest
// sets it, and gpu_check.sh; a bare run of the binary (as under compute-sanitizer, where they
// would take many minutes) leaves them out.
bool large_tests_enabled();

// Sets the cpu backend's scheduling order for one scope (no effect on the cuda backend).
class schedule_order_scope {
 public:
  explicit schedule_order_scope(const char* order);
  ~schedule_order_scope();
  schedule_order_scope(const schedule_order_scope&) = delete;
  schedule_order_scope& operator=(const schedule_order_scope&) = delete;

 private:
  std::string previous_;
};

}  // namespace counting::testing
