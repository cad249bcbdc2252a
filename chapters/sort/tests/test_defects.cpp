// One test per pitfall of the chapter (SO1-SO3): the defective variant of stage 1 sorts
// wrong on an input that shows the defect, and the same code path without the defect sorts
// right. The defect table is in the README.
#include <cstdint>
#include <vector>

#include "defective_variants.hpp"
#include "test_support.hpp"

using namespace sort;
using namespace sort::testing;

namespace {

template <class K>
std::string error_of(defective::defect d, const std::vector<K>& keys, const std::vector<std::uint32_t>& values) {
  // run_device takes a function pointer, which cannot capture: the defect goes through a static.
  static defective::defect chosen;
  chosen = d;
  const device_fn<K> call = [](const K* ki, K* ko, const std::uint32_t* vi, std::uint32_t* vo, std::int64_t n,
                               const workspace& ws, const config& cfg) {
    defective::sort_one_bit<K>(chosen, ki, ko, vi, vo, n, ws, cfg);
  };
  return sort_error(keys, values, run_device<K>(call, keys, values, config{64, 0, 0}));
}

}  // namespace

TEST_SUITE("sort/1 one-bit") {
  TEST_CASE("SO1: an unstable scatter breaks the order earlier passes made; a ranked one keeps it") {
    // Keys 0..15 repeated: each pass must keep the order of the bits below.
    std::vector<std::uint32_t> keys(500);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::uint32_t>((i * 7) % 16);
    CHECK_FALSE(error_of(defective::defect::unstable_scatter, keys, positions(keys.size())).empty());
    CHECK(error_of(defective::defect::none, keys, positions(keys.size())).empty());
  }
  TEST_CASE("SO2: a digit of a signed key without the sign flip puts negatives last; flipped, they come first") {
    const auto keys = wb::gen::uniform<std::int32_t>(300, wb::testing::seed(31), -1000, 1000);
    CHECK_FALSE(error_of(defective::defect::unflipped_sign, keys, {}).empty());
    CHECK(error_of(defective::defect::none, keys, {}).empty());
  }
  TEST_CASE("SO3: an inclusive scan as a key's rank counts the key itself; the exclusive scan does not") {
    const auto keys = wb::gen::uniform<std::uint32_t>(300, wb::testing::seed(33));
    CHECK_FALSE(error_of(defective::defect::inclusive_rank, keys, {}).empty());
    CHECK(error_of(defective::defect::none, keys, {}).empty());
  }
}
