// Stage 6: the counting chapter on data split across the team: the int8 histogram and the int64
// distinct counts, against counts made on the host.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"

#include "app.hpp"
#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

namespace {

// Splits `all` into G parts of the given sizes and puts part r on rank r's device.
template <class T>
std::vector<wb::device_buffer<T>> scatter(team& t, const std::vector<T>& all, const std::vector<std::int64_t>& sizes) {
  std::vector<wb::device_buffer<T>> parts;
  std::int64_t at = 0;
  for (int r = 0; r < t.size(); ++r) {
    device_scope on(t.device(r));
    const std::int64_t n = sizes[static_cast<std::size_t>(r)];
    parts.emplace_back(std::vector<T>(all.begin() + at, all.begin() + at + n));
    at += n;
  }
  return parts;
}

std::vector<std::int64_t> split_sizes(std::int64_t total, int G, std::uint64_t seed) {
  // Uneven on purpose, and one part empty when there are three.
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(G), 0);
  wb::gen::rng rng(seed);
  std::int64_t left = total;
  for (int r = 0; r + 1 < G; ++r) {
    const std::int64_t n = (G == 3 && r == 1) ? 0 : static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(left) + 1));
    sizes[static_cast<std::size_t>(r)] = n;
    left -= n;
  }
  sizes.back() = left;
  return sizes;
}

void check_histogram(int G, int devices, std::int64_t total, std::uint64_t seed) {
  auto t = make_team(G, devices);
  const std::vector<std::int8_t> items = wb::gen::uniform<std::int8_t>(static_cast<std::size_t>(total), seed);
  std::vector<std::uint64_t> expected(256, 0);
  for (const std::int8_t x : items) ++expected[static_cast<std::uint8_t>(x)];
  const std::vector<std::int64_t> sizes = split_sizes(total, G, seed);
  auto parts = scatter(*t, items, sizes);
  std::vector<wb::device_buffer<std::uint64_t>> bins;
  std::vector<const std::int8_t*> item_ptrs;
  std::vector<std::uint64_t*> bin_ptrs;
  for (int r = 0; r < G; ++r) {
    device_scope on(t->device(r));
    bins.emplace_back(256);
    bins.back().fill_bytes(0xA5);
    item_ptrs.push_back(parts[static_cast<std::size_t>(r)].data());
    bin_ptrs.push_back(bins.back().data());
  }
  app_workspace ws(G);
  for (int call = 0; call < 2; ++call) {  // twice: the workspace is reused
    track::histogram_across_gpus(*t, ws, item_ptrs, sizes, bin_ptrs);
    t->synchronize();
    for (int r = 0; r < G; ++r) {
      device_scope on(t->device(r));
      CAPTURE(r);
      CAPTURE(call);
      WB_CHECK_EQUAL_SEQ(expected, bins[static_cast<std::size_t>(r)].to_host());
    }
  }
}

// `every_value`: each of the `distinct` values is among the keys (its first `distinct` keys, in
// random order), so the tables have exactly `distinct` rows in all; else keys are drawn at random.
void check_distinct(int G, int devices, std::int64_t total, std::uint64_t distinct, exchange_method how,
                    std::uint64_t seed, bool every_value = false) {
  auto t = make_team(G, devices);
  if (how == exchange_method::nccl && !t->nccl_unavailable().empty()) return;
  // Keys drawn from `distinct` values, with the awkward ones among them: -1 (the hash table's
  // free-slot marker), 0, the extremes.
  std::vector<std::int64_t> values = {-1, 0, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  wb::gen::rng rng(seed);
  while (values.size() < distinct) values.push_back(static_cast<std::int64_t>(rng.next()));
  values.resize(distinct);
  std::vector<std::int64_t> keys(static_cast<std::size_t>(total));
  std::map<std::int64_t, std::uint64_t> expected;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = every_value && i < values.size() ? values[i] : values[rng.below(values.size())];
  }
  if (every_value) {
    for (std::size_t i = std::min(keys.size(), values.size()); i > 1; --i) std::swap(keys[i - 1], keys[rng.below(i)]);
    REQUIRE(static_cast<std::uint64_t>(total) >= distinct);
  }
  for (const std::int64_t k : keys) ++expected[k];
  const std::vector<std::int64_t> sizes = split_sizes(total, G, seed + 1);
  auto parts = scatter(*t, keys, sizes);
  std::vector<const std::int64_t*> key_ptrs;
  for (const auto& p : parts) key_ptrs.push_back(p.data());
  app_workspace ws(G);
  for (int call = 0; call < 2; ++call) {
    track::distinct_across_gpus(*t, ws, key_ptrs, sizes, how);
    std::map<std::int64_t, std::uint64_t> got;
    bool owners_right = true;
    for (int q = 0; q < G; ++q) {
      for (const key_count& row : owned_rows(*t, ws, q)) {
        owners_right = owners_right && owner_of_key(row.key, G) == q && got.count(row.key) == 0;
        got[row.key] += row.count;
      }
    }
    CAPTURE(call);
    CHECK_MESSAGE(owners_right, "a key is held by a rank that does not own it, or twice");
    CHECK(got == expected);
  }
}

}  // namespace

TEST_SUITE("allreduce/6 application") {
  TEST_CASE("the int8 histogram across G = 1, 2, 3 ranks (and 2 on one GPU) equals the host's count") {
    const std::uint64_t seed = wb::testing::seed(6);
    check_histogram(1, 1, 1000, seed);
    check_histogram(2, 2, 5000, seed + 1);
    check_histogram(3, 3, 3001, seed + 2);
    check_histogram(2, 1, 777, seed + 3);
    check_histogram(2, 2, 0, seed + 4);
  }

  TEST_CASE("int64 distinct counts across ranks, rows sent by peer copies") {
    const std::uint64_t seed = wb::testing::seed(61);
    check_distinct(1, 1, 500, 40, exchange_method::peer_copies, seed);
    check_distinct(2, 2, 3000, 300, exchange_method::peer_copies, seed + 1);
    check_distinct(3, 3, 2000, 1500, exchange_method::peer_copies, seed + 2);
    check_distinct(2, 1, 1000, 4, exchange_method::peer_copies, seed + 3);
    check_distinct(2, 2, 0, 4, exchange_method::peer_copies, seed + 4);
  }

  TEST_CASE("int64 distinct counts: tables around the row kernels' tiles of 256 rows, and past one wave of tiles") {
    // The owners' counts, the grouping and the owned tables go a tile of 256 rows (or slots)
    // at a time, with one wave of blocks (8 an SM) looping over the rest.
    const std::uint64_t seed = wb::testing::seed(63);
    for (const std::uint64_t d : {1, 255, 256, 257, 511, 513}) {
      CAPTURE(d);
      check_distinct(1, 1, static_cast<std::int64_t>(d), d, exchange_method::peer_copies, seed + d, true);
      check_distinct(2, 2, static_cast<std::int64_t>(2 * d), d, exchange_method::peer_copies, seed + d, true);
    }
    check_distinct(2, 2, 60000, 40000, exchange_method::peer_copies, seed + 1000, true);
  }

  TEST_CASE("int64 distinct counts across ranks, rows sent by NCCL") {
#if defined(WB_HAVE_NCCL)
    const std::uint64_t seed = wb::testing::seed(62);
    check_distinct(2, 2, 3000, 300, exchange_method::nccl, seed);
    check_distinct(3, 3, 2500, 2000, exchange_method::nccl, seed + 1);
#else
    MESSAGE("built without NCCL: the NCCL exchange is not checked here");
#endif
  }
}
