#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>

namespace counting::testing {

namespace {

// Sizes just off the boundaries that matter: a warp (32), a block (128, 256), a 16-byte
// vector, stage 6's round of a block (128 or 256 threads x 4 vectors x 16 items: 8192, 16384),
// stage 3's tile (256), stage 7's sort tile (2048) and table minimum (1024).
const std::size_t boundary_sizes[] = {2, 15, 16, 17, 31, 33, 255, 257, 1023, 1025, 2047, 2049,
                                      8191, 8193, 16383, 16385, 65537};

template <class T>
void add_boundary_cases(std::vector<named_input<T>>& cases, std::size_t max_n, std::uint64_t salt) {
  for (std::size_t n : boundary_sizes) {
    if (n > max_n) continue;
    cases.push_back({"uniform n=" + std::to_string(n), wb::gen::uniform<T>(n, wb::testing::seed(salt + n))});
  }
}

}  // namespace

std::vector<named_input<std::int8_t>> int8_inputs(std::size_t max_n, std::uint64_t salt) {
  using T = std::int8_t;
  std::vector<named_input<T>> cases;
  cases.push_back({"empty", {}});
  cases.push_back({"one item -128", {std::numeric_limits<T>::min()}});
  cases.push_back({"one item 127", {std::numeric_limits<T>::max()}});
  cases.push_back({"the article's example {3,1,6,2,1,3,6}", {3, 1, 6, 2, 1, 3, 6}});
  cases.push_back({"value 0 present (D3)", {0, 5, 0, -1, 0, 7}});
  const std::size_t m = std::min<std::size_t>(max_n, 5000);
  cases.push_back({"all equal 0 (D3, D8)", wb::gen::all_equal<T>(m, 0)});
  cases.push_back({"all equal -128", wb::gen::all_equal<T>(m, std::numeric_limits<T>::min())});
  {  // every value from -128 to 127, each (v + 129) % 5 + 1 times, shuffled
    std::vector<T> every;
    for (int v = -128; v <= 127; ++v)
      for (int k = 0; k < (v + 129) % 5 + 1; ++k) every.push_back(static_cast<T>(v));
    wb::gen::rng r(wb::testing::seed(salt + 1));
    for (std::size_t i = every.size(); i > 1; --i) std::swap(every[i - 1], every[r.below(i)]);
    if (every.size() <= max_n) cases.push_back({"full int8 range, -128 and 127 included", every});
  }
  cases.push_back({"extremes", wb::gen::extremes<T>(m, wb::testing::seed(salt + 2))});
  {  // heavy contention: 95% one value
    std::vector<T> hot = wb::gen::uniform<T>(m, wb::testing::seed(salt + 3));
    wb::gen::rng r(wb::testing::seed(salt + 4));
    for (auto& v : hot)
      if (r.below(100) < 95) v = 42;
    cases.push_back({"heavy contention: 95% one value", hot});
  }
  cases.push_back({"few distinct (3)", wb::gen::few_distinct<T>(m, wb::testing::seed(salt + 5), 3)});
  cases.push_back({"zipf-like", wb::gen::zipf<T>(m, wb::testing::seed(salt + 6), 100)});
  add_boundary_cases(cases, max_n, salt + 100);
  return cases;
}

std::vector<named_input<std::int64_t>> int64_inputs(std::size_t max_n, std::uint64_t salt) {
  using T = std::int64_t;
  constexpr T lo = std::numeric_limits<T>::min();
  constexpr T hi = std::numeric_limits<T>::max();
  std::vector<named_input<T>> cases;
  cases.push_back({"empty", {}});
  cases.push_back({"one item INT64_MIN", {lo}});
  cases.push_back({"one item INT64_MAX", {hi}});
  cases.push_back({"the article's example {3,1,6,2,1,3,6}", {3, 1, 6, 2, 1, 3, 6}});
  cases.push_back({"value 0 present (D3)", {0, 5, 0, -1, 0, 7}});
  cases.push_back({"extremes and neighbours", {hi, lo, -1, 0, 1, hi - 1, lo + 1, hi, hi, lo, -1}});
  const std::size_t m = std::min<std::size_t>(max_n, 5000);
  cases.push_back({"all equal 0 (D3, D8)", wb::gen::all_equal<T>(m, 0)});
  cases.push_back({"all equal INT64_MAX", wb::gen::all_equal<T>(m, hi)});
  cases.push_back({"extremes", wb::gen::extremes<T>(m, wb::testing::seed(salt + 2))});
  cases.push_back({"few distinct (7)", wb::gen::few_distinct<T>(m, wb::testing::seed(salt + 5), 7)});
  cases.push_back({"many distinct (all distinct, shuffled)", wb::gen::iota<T>(m, wb::testing::seed(salt + 7), true)});
  cases.push_back({"uniform (almost all distinct)", wb::gen::uniform<T>(m, wb::testing::seed(salt + 8))});
  cases.push_back({"zipf-like", wb::gen::zipf<T>(m, wb::testing::seed(salt + 6), 300)});
  {  // keys that differ only in their high bits: hash must still spread them
    std::vector<T> high;
    wb::gen::rng r(wb::testing::seed(salt + 9));
    for (std::size_t i = 0; i < m; ++i) high.push_back(static_cast<T>(r.below(50) << 56));
    cases.push_back({"keys differing only in the top byte", high});
  }
  add_boundary_cases(cases, max_n, salt + 200);
  return cases;
}

bool large_tests_enabled() {
  const char* v = std::getenv("WB_LARGE");
  return v != nullptr && std::string(v) == "1";
}

schedule_order_scope::schedule_order_scope(const char* order) {
#if defined(WB_BACKEND_CPU)
  previous_ = wb::cpu::schedule_order_name();
  wb::cpu::set_schedule_order(order);
#else
  (void)order;
#endif
}

schedule_order_scope::~schedule_order_scope() {
#if defined(WB_BACKEND_CPU)
  wb::cpu::set_schedule_order(previous_);
#endif
}

}  // namespace counting::testing
