// sort_pairs (sort_pairs.hpp), the onesweep radix sort under stage 7, against an independent
// reference: std::stable_sort of the (key, value) pairs by key. Values are the pairs' input
// positions, so a sort that is not stable shows as a wrong value beside an equal key. Sizes sit
// just off the tile (4096 keys) and look-back window boundaries; keys vary in all 64 bits, in
// some bytes only (the skipped passes), in a few values (stability), or are 0 and ~0.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sort_pairs.hpp"
#include "test_common.hpp"
#include "wb/check.hpp"
#include "wb/device_buffer.hpp"
#include "wb/testing.hpp"

namespace {

using u64 = std::uint64_t;
using i64 = std::int64_t;

struct pairs {
  std::vector<u64> keys;
  std::vector<u64> values;
};

// The bits some keys differ in, as stage 7 computes them: OR of all keys XOR AND of all keys.
u64 varying_bits_of(const std::vector<u64>& keys) {
  u64 any = 0;
  u64 all = ~0ull;
  for (const u64 k : keys) {
    any |= k;
    all &= k;
  }
  return keys.empty() ? 0 : any ^ all;
}

pairs reference_sort(const pairs& in) {
  std::vector<std::size_t> order(in.keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return in.keys[a] < in.keys[b]; });
  pairs out;
  for (const std::size_t i : order) {
    out.keys.push_back(in.keys[i]);
    out.values.push_back(in.values[i]);
  }
  return out;
}

// Pairs with values = input positions, keys from `make_key(rng)`.
template <class F>
pairs make_pairs(i64 n, std::uint64_t salt, F make_key) {
  std::mt19937_64 rng(wb::testing::seed(salt));
  pairs p;
  for (i64 i = 0; i < n; ++i) {
    p.keys.push_back(make_key(rng));
    p.values.push_back(static_cast<u64>(i));
  }
  return p;
}

// The two pair buffers and the scratch, sized once for `capacity` pairs and reused by every
// sort (as stage 7 does), so status words left by one sort must not confuse the next.
class device_sorter {
 public:
  explicit device_sorter(i64 capacity)
      : capacity_(capacity),
        keys0_(alloc(capacity)),
        keys1_(alloc(capacity)),
        values0_(alloc(capacity)),
        values1_(alloc(capacity)),
        scratch_(counting::detail::sort_pairs_scratch_bytes(capacity)) {}

  pairs sort(const pairs& in, u64 varying_bits) {
    const auto n = static_cast<i64>(in.keys.size());
    REQUIRE(n <= capacity_);
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(u64);
    for (auto* b : {&keys0_, &keys1_, &values0_, &values1_}) b->fill_bytes(0xA5);
    if (n > 0) {
      WB_CHECK(cudaMemcpy(keys0_.data(), in.keys.data(), bytes, cudaMemcpyHostToDevice));
      WB_CHECK(cudaMemcpy(values0_.data(), in.values.data(), bytes, cudaMemcpyHostToDevice));
    }
    u64* keys[2] = {keys0_.data(), keys1_.data()};
    u64* values[2] = {values0_.data(), values1_.data()};
    const int result = counting::detail::sort_pairs(keys, values, n, varying_bits, scratch_.data());
    WB_CHECK(cudaDeviceSynchronize());
    REQUIRE((result == 0 || result == 1));
    pairs out{std::vector<u64>(static_cast<std::size_t>(n)), std::vector<u64>(static_cast<std::size_t>(n))};
    if (n > 0) {
      WB_CHECK(cudaMemcpy(out.keys.data(), keys[result], bytes, cudaMemcpyDeviceToHost));
      WB_CHECK(cudaMemcpy(out.values.data(), values[result], bytes, cudaMemcpyDeviceToHost));
    }
    return out;
  }

 private:
  static wb::device_buffer<u64> alloc(i64 n) { return wb::device_buffer<u64>(static_cast<std::size_t>(n > 0 ? n : 1)); }
  i64 capacity_;
  wb::device_buffer<u64> keys0_, keys1_, values0_, values1_;
  wb::device_buffer<unsigned char> scratch_;
};

void check_sort(device_sorter& sorter, const pairs& in, u64 varying_bits, const std::string& what) {
  CAPTURE(what);
  CAPTURE(in.keys.size());
  const pairs expected = reference_sort(in);
  const pairs got = sorter.sort(in, varying_bits);
  WB_CHECK_EQUAL_SEQ(expected.keys, got.keys);
  WB_CHECK_EQUAL_SEQ(expected.values, got.values);  // input positions: stability
}

void check_sort(device_sorter& sorter, const pairs& in, const std::string& what) {
  check_sort(sorter, in, varying_bits_of(in.keys), what);
}

// On the cpu backend, runs blocks on two OS threads for one scope, so a tile's look-back can
// find earlier tiles still running (one at a time, every earlier tile has finished and the
// status words and their clearing are never really tested). No effect on the cuda backend.
class concurrent_blocks_scope {
 public:
  concurrent_blocks_scope() {
#if defined(WB_BACKEND_CPU)
    previous_ = wb::cpu::current_options().host_threads;
    wb::cpu::current_options().host_threads = 2;
#endif
  }
  ~concurrent_blocks_scope() {
#if defined(WB_BACKEND_CPU)
    wb::cpu::current_options().host_threads = previous_;
#endif
  }
  concurrent_blocks_scope(const concurrent_blocks_scope&) = delete;
  concurrent_blocks_scope& operator=(const concurrent_blocks_scope&) = delete;

 private:
  int previous_ = 1;
};

constexpr i64 tile = 4096;  // keys a tile of the onesweep pass (sort_pairs.cu)

auto any_key = [](std::mt19937_64& rng) { return rng(); };

}  // namespace

TEST_SUITE("counting/sort_pairs") {
  TEST_CASE("keys varying in all 64 bits: sizes 0, 1, 2 and just off one, two and many tiles") {
    device_sorter sorter(100'003);
    const i64 sizes[] = {0,        1,        2,        3,        tile - 1, tile,     tile + 1,      2 * tile - 1,
                         2 * tile, 2 * tile + 1, 5 * tile + 7, 3000,  9 * tile - 1, 100'003};
    for (const i64 n : sizes) check_sort(sorter, make_pairs(n, 100 + static_cast<std::uint64_t>(n), any_key), "random 64-bit");
  }

  TEST_CASE("keys varying in some bytes only: the passes over the other bytes are skipped") {
    device_sorter sorter(20'000);
    const u64 masks[] = {0x00FF'0000'0000'FF00ull, 0xFF00'0000'0000'0000ull, 0x0000'0000'0000'00FFull,
                         0x0000'0000'0000'0001ull, 0x8000'0000'0000'0001ull, 0x0000'0F00'F000'0000ull};
    std::uint64_t salt = 200;
    for (const u64 mask : masks) {
      for (const i64 n : {i64{5000}, i64{20'000}}) {
        const u64 base = std::mt19937_64(wb::testing::seed(salt))() & ~mask;
        const pairs in = make_pairs(n, ++salt, [&](std::mt19937_64& rng) { return base | (rng() & mask); });
        CAPTURE(mask);
        check_sort(sorter, in, "random bits under a mask");
        // A superset of the varying bits only adds passes (each a stable no-op reorder).
        check_sort(sorter, in, ~0ull, "random bits under a mask, varying_bits = ~0");
      }
    }
  }

  TEST_CASE("many equal keys: stability across warps, tiles and passes") {
    device_sorter sorter(30'000);
    for (const int distinct : {1, 2, 5, 300}) {
      std::mt19937_64 pick(wb::testing::seed(300 + static_cast<std::uint64_t>(distinct)));
      std::vector<u64> few;
      for (int i = 0; i < distinct; ++i) few.push_back(pick());
      for (const i64 n : {i64{tile + 3}, i64{30'000}}) {
        const pairs in = make_pairs(n, 310 + static_cast<std::uint64_t>(distinct),
                                    [&](std::mt19937_64& rng) { return few[rng() % few.size()]; });
        CAPTURE(distinct);
        check_sort(sorter, in, "few distinct keys");
        check_sort(sorter, in, ~0ull, "few distinct keys, varying_bits = ~0");
      }
    }
  }

  TEST_CASE("the extreme keys 0 and ~0, alone and among others") {
    device_sorter sorter(12'000);
    check_sort(sorter, make_pairs(12'000, 400, [](std::mt19937_64& rng) { return (rng() & 1) != 0 ? ~0ull : 0ull; }),
               "only 0 and ~0");
    check_sort(sorter, make_pairs(12'000, 401, [](std::mt19937_64& rng) {
                 const u64 r = rng();
                 return r % 3 == 0 ? 0ull : r % 3 == 1 ? ~0ull : rng();
               }),
               "0, ~0 and random keys");
    check_sort(sorter, make_pairs(2, 402, [](std::mt19937_64&) { return ~0ull; }), "two keys ~0");
  }

  TEST_CASE("called again with the same scratch: each sort clears its own status words") {
    const concurrent_blocks_scope concurrent;
    device_sorter sorter(3 * tile + 11);
    const pairs first = make_pairs(3 * tile + 11, 500, any_key);
    const pairs second = make_pairs(2 * tile + 5, 501, any_key);  // fewer tiles than before
    const pairs third = make_pairs(3 * tile + 11, 502, [](std::mt19937_64& rng) { return rng() & 0xFFFF'0000ull; });
    check_sort(sorter, first, "first sort");
    check_sort(sorter, second, "second sort, smaller");
    check_sort(sorter, third, "third sort, two bytes vary");
    check_sort(sorter, first, "the first input again");
    const pairs many = make_pairs(40 * tile + 1, 503, any_key);  // look-back windows of 8 tiles
    device_sorter large(40 * tile + 1);
    check_sort(large, many, "many tiles");
    check_sort(large, many, "many tiles again");
  }

  TEST_CASE("[gpu] 2^22 + 5 pairs: 1025 tiles, more than fit on the GPU at once (WB_LARGE=1)" *
            doctest::skip(!counting::testing::large_tests_enabled())) {
    const i64 n = (i64{1} << 22) + 5;
    device_sorter sorter(n);
    check_sort(sorter, make_pairs(n, 600, any_key), "random 64-bit");
    check_sort(sorter, make_pairs(n, 601, [](std::mt19937_64& rng) { return rng() >> 28; }), "random 36-bit");
  }

  TEST_CASE("more than 2^32 - 1 pairs is refused before touching memory") {
    u64* none[2] = {nullptr, nullptr};
    CHECK_THROWS_AS(counting::detail::sort_pairs(none, none, i64{1} << 32, ~0ull, nullptr), std::invalid_argument);
  }
}
