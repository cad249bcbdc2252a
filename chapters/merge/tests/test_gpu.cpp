// Checks that need a GPU: m + n > 2^31 (64-bit indices in every kernel stage), and agreement
// with cub::DeviceMerge.
#include <cstring>

#include "baseline_cub.hpp"
#include "test_support.hpp"

using namespace merge;
using namespace merge::testing;

namespace {

// An order-independent fingerprint of a multiset of keys: the sum of a 64-bit mix of each.
template <class K>
std::uint64_t multiset_hash(const std::vector<K>& keys) {
  std::uint64_t sum = 0;
  for (const K key : keys) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &key, sizeof(K));
    std::uint64_t z = bits + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    sum += z ^ (z >> 31);
  }
  return sum;
}

}  // namespace

TEST_SUITE("merge/6 at-bandwidth") {
  WB_GPU_TEST_CASE("[large] m + n > 2^31: every kernel stage, int32 keys") {
    // m = n = 1.1 * 2^30: 2.36e9 outputs, 9.4 GB of keys in and 9.4 GB out. Checked by
    // sortedness, count and an order-independent hash of the keys: a sorted permutation of
    // A and B is their merge (keys only).
    const std::int64_t m = (std::int64_t{11} << 30) / 10;
    const std::int64_t n = m + 3;
    const std::uint64_t seed = wb::testing::seed(64);
    const auto A = sorted_keys<std::int32_t>(m, distribution::uniform, seed, 0);
    const auto B = sorted_keys<std::int32_t>(n, distribution::uniform, seed, 1);
    const std::uint64_t expected_hash = multiset_hash(A) + multiset_hash(B);
    wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(static_cast<std::size_t>(m + n));
    const problem<std::int32_t> p{d_A.data(), m, d_B.data(), n, d_C.data()};
    wb::device_buffer<unsigned char> temp(track::merge_at_bandwidth_temp_bytes<std::int32_t>(m, n));
    std::vector<std::int32_t> C(static_cast<std::size_t>(m + n));
    for (int stage = 2; stage <= 6; ++stage) {
      INFO("stage " << stage);
      d_C.fill_bytes(output_poison);
      switch (stage) {
        case 2: track::merge_basic(p); break;
        case 3: track::merge_tiled(p); break;
        case 4: track::merge_circular(p); break;
        case 5: track::merge_coarsened(p); break;
        case 6: track::merge_at_bandwidth(p, temp.data(), temp.size()); break;
      }
      WB_CHECK(cudaDeviceSynchronize());
      d_C.copy_to(C);
      CHECK(first_unsorted(C) == -1);
      CHECK(multiset_hash(C) == expected_hash);
      CHECK(C.front() == std::min(A.front(), B.front()));
      CHECK(C.back() == std::max(A.back(), B.back()));
    }
  }

  WB_GPU_TEST_CASE("agrees with cub::DeviceMerge (keys), and with std::merge (key-value)") {
#if defined(WB_HAVE_BASELINE)
    std::uint64_t case_seed = wb::testing::seed(65);
    for (const distribution d : all_distributions()) {
      const std::int64_t m = (std::int64_t{1} << 20) + 77;
      const std::int64_t n = (std::int64_t{1} << 20) - 1000;
      const auto A = sorted_keys<std::int32_t>(m, d, ++case_seed, 0);
      const auto B = sorted_keys<std::int32_t>(n, d, case_seed, 1);
      wb::device_buffer<std::int32_t> d_A(A), d_B(B), d_C(static_cast<std::size_t>(m + n)),
          d_cub(static_cast<std::size_t>(m + n));
      const problem<std::int32_t> ours{d_A.data(), m, d_B.data(), n, d_C.data()};
      const problem<std::int32_t> theirs{d_A.data(), m, d_B.data(), n, d_cub.data()};
      wb::device_buffer<unsigned char> temp(track::merge_at_bandwidth_temp_bytes<std::int32_t>(m, n));
      wb::device_buffer<unsigned char> cub_temp(baseline::cub_temp_bytes(theirs));
      d_C.fill_bytes(output_poison);
      track::merge_at_bandwidth(ours, temp.data(), temp.size());
      baseline::cub_merge(theirs, cub_temp.data(), cub_temp.size());
      WB_CHECK(cudaDeviceSynchronize());
      INFO("distribution " << to_string(d));
      WB_CHECK_EQUAL_SEQ(d_cub.to_host(), d_C.to_host());
      check_case(6, A, B, true, {}, "key-value, " + to_string(d));
    }
#else
    MESSAGE("built without the CUB baseline (WB_HAVE_BASELINE)");
#endif
  }
}
