// Checks of the device layer (wb/device/): the warp scan, the block scan and reduce, the decoupled
// look-back with both kinds of status, and the co-rank search, each against a plain
// sequential computation on the host. Fresh seeded data every run; adversarial shapes: block
// sizes one off every warp, partial warps, every tile count up to past two look-back windows,
// predecessors' statuses laid out by hand so that the nearest inclusive one sits at every
// distance a window can put it. The same cases run on a GPU; the failing variant (a block
// scan whose shared totals are reused without the closing barrier) runs on the cpu backend,
// where its schedule is fixed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/device/block_reduce.cuh"
#include "wb/device/block_scan.cuh"
#include "wb/device/co_rank_lower_bound.cuh"
#include "wb/device/decoupled_lookback.cuh"
#include "wb/device/min_max.hpp"
#include "wb/device/warp_scan.cuh"
#include "wb/device_buffer.hpp"
#include "wb/generate.hpp"
#include "wb/kernel.hpp"
#include "wb/race_check.hpp"
#include "wb/testing.hpp"

namespace {

namespace dev = wb::device;

// Exclusive prefix sums on the host, wrapping like wb::device::plus.
template <class T>
std::vector<T> exclusive_sums(const std::vector<T>& x, std::size_t begin, std::size_t end) {
  std::vector<T> out(end - begin);
  T run{};
  for (std::size_t i = begin; i < end; ++i) {
    out[i - begin] = run;
    run = dev::plus(run, x[i]);
  }
  return out;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t salt) {
  if constexpr (std::is_floating_point_v<T>) {
    // Small integers: every sum of them is exact, so any order of additions gives the same bits.
    std::vector<T> v;
    for (const auto x : wb::gen::uniform<int>(n, wb::testing::seed(salt), -1000, 1000)) v.push_back(static_cast<T>(x));
    return v;
  } else {
    return wb::gen::uniform<T>(n, wb::testing::seed(salt));  // the whole range: the sums wrap
  }
}

// ---------------------------------------------------------------------------------------
// Warp scan
// ---------------------------------------------------------------------------------------

// One block of `lanes` threads (1 to 32): inclusive, exclusive (from the inclusive) and, for a
// full warp, the sum.
template <class T>
__global__ void warp_scan_kernel(const T* in, T* inclusive, T* exclusive, T* sum) {
  const unsigned lanes = blockDim.x == 32 ? dev::full_warp : (1u << blockDim.x) - 1u;
  const T x = in[threadIdx.x];
  const T inc = dev::warp_inclusive_scan(x, lanes);
  inclusive[threadIdx.x] = inc;
  exclusive[threadIdx.x] = dev::warp_exclusive_from_inclusive(inc, lanes);
  if (blockDim.x == 32) sum[threadIdx.x] = dev::warp_sum(x);
}

template <class T>
void check_warp_scan(std::uint64_t salt) {
  for (int lanes = 1; lanes <= 32; ++lanes) {
    const auto x = random_values<T>(static_cast<std::size_t>(lanes), salt + static_cast<std::uint64_t>(lanes));
    wb::device_buffer<T> d_in(x), d_inc(x.size()), d_exc(x.size()), d_sum(x.size());
    wb::launch({dim3(1), dim3(static_cast<unsigned>(lanes))}, warp_scan_kernel<T>, static_cast<const T*>(d_in.data()),
               d_inc.data(), d_exc.data(), d_sum.data());
    const auto expected_exclusive = exclusive_sums(x, 0, x.size());
    std::vector<T> expected_inclusive(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) expected_inclusive[i] = dev::plus(expected_exclusive[i], x[i]);
    INFO("lanes " << lanes);
    const auto inc = wb::testing::first_mismatch(expected_inclusive, d_inc.to_host());
    CHECK_MESSAGE(!inc, "inclusive " << inc.value_or(""));
    const auto exc = wb::testing::first_mismatch(expected_exclusive, d_exc.to_host());
    CHECK_MESSAGE(!exc, "exclusive " << exc.value_or(""));
    if (lanes == 32) {
      const auto sum = wb::testing::first_mismatch(std::vector<T>(32, expected_inclusive.back()), d_sum.to_host());
      CHECK_MESSAGE(!sum, "warp_sum " << sum.value_or(""));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Block scan
// ---------------------------------------------------------------------------------------

// Each block scans its own slice of blockDim.x values twice in a row with the same shared
// totals (the second time the values reversed within the block): the second call must not
// disturb the first one's reads. Writes the two exclusive sums and the first call's totals.
template <class T>
__global__ void block_scan_twice_kernel(const T* in, T* first, T* second, T* totals) {
  __shared__ T warp_totals[32];
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
  T total;
  const T a = dev::block_exclusive_sum(in[base + threadIdx.x], warp_totals, total);
  const T b = dev::block_exclusive_sum(in[base + blockDim.x - 1 - threadIdx.x], warp_totals);
  first[base + threadIdx.x] = a;
  second[base + threadIdx.x] = b;
  totals[base + threadIdx.x] = total;
}

// The block scan, then its shared totals reused at once for something else (cleared): with
// Reused = false and no barrier of the caller's own, a fast thread clears a total that a slow
// thread has not read yet.
template <class T, bool Reused>
__global__ void block_scan_then_clear_kernel(const T* in, T* out, T* totals) {
  __shared__ T warp_totals[32];
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  T total;
  out[i] = dev::block_exclusive_sum<0, Reused>(in[i], warp_totals, total);
  if (threadIdx.x < 32) warp_totals[threadIdx.x] = T{};
  totals[i] = total;
}

// The first Threads threads of a larger block take part (stage 5 of the sort chapter: 256
// digit counts in blocks of 384 threads); the others pass garbage, which must not count.
template <class T, int Threads>
__global__ void block_scan_first_threads_kernel(const T* in, T* out, T* totals) {
  __shared__ T warp_totals[Threads / 32];
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * Threads;
  const T x = threadIdx.x < Threads ? in[base + threadIdx.x] : static_cast<T>(0x5A5A5A5A);
  T total;
  const T e = dev::block_exclusive_sum<Threads>(x, warp_totals, total);
  if (threadIdx.x < Threads) {
    out[base + threadIdx.x] = e;
    totals[base + threadIdx.x] = total;
  }
}

template <class T>
std::string block_scan_twice_error(int block, int blocks, std::uint64_t salt) {
  const auto n = static_cast<std::size_t>(block) * static_cast<std::size_t>(blocks);
  const auto x = random_values<T>(n, salt);
  wb::device_buffer<T> d_in(x), d_first(n), d_second(n), d_totals(n);
  wb::launch({dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(block))},
             block_scan_twice_kernel<T>, static_cast<const T*>(d_in.data()), d_first.data(), d_second.data(),
             d_totals.data());
  std::vector<T> expected_first, expected_second, expected_totals;
  for (int b = 0; b < blocks; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * static_cast<std::size_t>(block);
    const auto e = exclusive_sums(x, begin, begin + static_cast<std::size_t>(block));
    expected_first.insert(expected_first.end(), e.begin(), e.end());
    std::vector<T> reversed(x.begin() + static_cast<std::ptrdiff_t>(begin),
                            x.begin() + static_cast<std::ptrdiff_t>(begin) + block);
    std::reverse(reversed.begin(), reversed.end());
    const auto r = exclusive_sums(reversed, 0, reversed.size());
    expected_second.insert(expected_second.end(), r.begin(), r.end());
    const T total = dev::plus(e.back(), x[begin + static_cast<std::size_t>(block) - 1]);
    expected_totals.insert(expected_totals.end(), static_cast<std::size_t>(block), total);
  }
  if (auto m = wb::testing::first_mismatch(expected_first, d_first.to_host())) return "first scan " + *m;
  if (auto m = wb::testing::first_mismatch(expected_totals, d_totals.to_host())) return "total " + *m;
  if (auto m = wb::testing::first_mismatch(expected_second, d_second.to_host())) return "second scan " + *m;
  return {};
}

template <class T, bool Reused>
std::string block_scan_then_clear_error(int block, std::uint64_t salt) {
  const auto x = random_values<T>(static_cast<std::size_t>(block), salt);
  wb::device_buffer<T> d_in(x), d_out(x.size()), d_totals(x.size());
  wb::launch({dim3(1), dim3(static_cast<unsigned>(block))}, block_scan_then_clear_kernel<T, Reused>,
             static_cast<const T*>(d_in.data()), d_out.data(), d_totals.data());
  const auto e = exclusive_sums(x, 0, x.size());
  if (auto m = wb::testing::first_mismatch(e, d_out.to_host())) return "scan " + *m;
  const std::vector<T> total(x.size(), dev::plus(e.back(), x.back()));
  if (auto m = wb::testing::first_mismatch(total, d_totals.to_host())) return "total " + *m;
  return {};
}

template <class T>
void check_block_scan(std::uint64_t salt) {
  // One off every warp boundary, a partial warp alone, the largest block.
  for (const int block : {1, 2, 31, 32, 33, 63, 64, 65, 95, 96, 97, 255, 256, 257, 511, 992, 1023, 1024}) {
    INFO("block " << block);
    const std::string why = block_scan_twice_error<T>(block, 3, salt + static_cast<std::uint64_t>(block));
    CHECK_MESSAGE(why.empty(), why);
  }
}

template <class T, int Threads>
void check_block_scan_first_threads(int block, std::uint64_t salt) {
  const int blocks = 3;
  const auto n = static_cast<std::size_t>(Threads) * blocks;
  const auto x = random_values<T>(n, salt);
  wb::device_buffer<T> d_in(x), d_out(n), d_totals(n);
  wb::launch({dim3(blocks), dim3(static_cast<unsigned>(block))}, block_scan_first_threads_kernel<T, Threads>,
             static_cast<const T*>(d_in.data()), d_out.data(), d_totals.data());
  std::vector<T> expected, expected_totals;
  for (int b = 0; b < blocks; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * Threads;
    const auto e = exclusive_sums(x, begin, begin + Threads);
    expected.insert(expected.end(), e.begin(), e.end());
    expected_totals.insert(expected_totals.end(), Threads, dev::plus(e.back(), x[begin + Threads - 1]));
  }
  INFO("the first " << Threads << " threads of a block of " << block);
  const auto m = wb::testing::first_mismatch(expected, d_out.to_host());
  CHECK_MESSAGE(!m, m.value_or(""));
  const auto t = wb::testing::first_mismatch(expected_totals, d_totals.to_host());
  CHECK_MESSAGE(!t, "total " << t.value_or(""));
}

// ---------------------------------------------------------------------------------------
// Block reduce
// ---------------------------------------------------------------------------------------

// Sum, minimum and maximum of one value per thread, three reduces in a row through the same
// shared results (the closing barrier makes that safe); every thread writes what it got.
template <class T, int Threads>
__global__ void block_reduce_three_kernel(const T* in, T* sums, T* mins, T* maxes) {
  __shared__ T warp_results[Threads / 32];
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * Threads + threadIdx.x;
  const T x = in[i];
  sums[i] = dev::block_reduce<Threads>(x, [](T a, T b) { return dev::plus(a, b); }, warp_results);
  mins[i] = dev::block_reduce<Threads>(x, [](T a, T b) { return dev::min_of(a, b); }, warp_results);
  maxes[i] = dev::block_reduce<Threads>(x, [](T a, T b) { return dev::max_of(a, b); }, warp_results);
}

template <class T, int Threads>
void check_block_reduce(std::uint64_t salt) {
  const int blocks = 3;
  const auto n = static_cast<std::size_t>(Threads) * blocks;
  auto x = random_values<T>(n, salt);
  x[n - 1] = std::numeric_limits<T>::max();  // extremes in the last block, in its last warp
  x[n - 2] = std::numeric_limits<T>::lowest();
  wb::device_buffer<T> d_in(x), d_sums(n), d_mins(n), d_maxes(n);
  wb::launch({dim3(blocks), dim3(Threads)}, block_reduce_three_kernel<T, Threads>, static_cast<const T*>(d_in.data()),
             d_sums.data(), d_mins.data(), d_maxes.data());
  std::vector<T> sums, mins, maxes;
  for (int b = 0; b < blocks; ++b) {
    const auto first = x.begin() + static_cast<std::ptrdiff_t>(b) * Threads;
    const auto last = first + Threads;
    const T sum = std::accumulate(first, last, T{}, [](T a, T c) { return dev::plus(a, c); });
    sums.insert(sums.end(), Threads, sum);
    mins.insert(mins.end(), Threads, *std::min_element(first, last));
    maxes.insert(maxes.end(), Threads, *std::max_element(first, last));
  }
  INFO("blocks of " << Threads << " threads");
  const auto s = wb::testing::first_mismatch(sums, d_sums.to_host());
  CHECK_MESSAGE(!s, "sum " << s.value_or(""));
  const auto lo = wb::testing::first_mismatch(mins, d_mins.to_host());
  CHECK_MESSAGE(!lo, "minimum " << lo.value_or(""));
  const auto hi = wb::testing::first_mismatch(maxes, d_maxes.to_host());
  CHECK_MESSAGE(!hi, "maximum " << hi.value_or(""));
}

// A struct reduced field by field in one block reduce (shuffled word by word): a count, a
// 64-bit minimum and a 16-bit maximum, so that the fields span odd words and a padding word.
struct three_fields {
  int count;
  unsigned long long smallest;
  std::uint16_t largest;
};

__host__ __device__ inline three_fields combine_fields(const three_fields& a, const three_fields& b) {
  return {a.count + b.count, dev::min_of(a.smallest, b.smallest), dev::max_of(a.largest, b.largest)};
}

template <int Threads>
__global__ void block_reduce_struct_kernel(const unsigned long long* in, three_fields* out) {
  __shared__ three_fields warp_results[Threads / 32];
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * Threads + threadIdx.x;
  const unsigned long long x = in[i];
  const three_fields mine{static_cast<int>(x % 7) - 3, x, static_cast<std::uint16_t>(x >> 40)};
  out[i] = dev::block_reduce<Threads>(
      mine, [](const three_fields& a, const three_fields& b) { return combine_fields(a, b); }, warp_results);
}

template <int Threads>
void check_block_reduce_struct(std::uint64_t salt) {
  const int blocks = 3;
  const auto n = static_cast<std::size_t>(Threads) * blocks;
  auto x = random_values<unsigned long long>(n, salt);
  x[n - 1] = 0;  // the smallest in the last block's last lane
  wb::device_buffer<unsigned long long> d_in(x);
  wb::device_buffer<three_fields> d_out(n);
  wb::launch({dim3(blocks), dim3(Threads)}, block_reduce_struct_kernel<Threads>,
             static_cast<const unsigned long long*>(d_in.data()), d_out.data());
  const std::vector<three_fields> got = d_out.to_host();
  for (std::size_t b = 0; b < static_cast<std::size_t>(blocks); ++b) {
    three_fields want{0, ~0ull, 0};
    for (std::size_t t = 0; t < static_cast<std::size_t>(Threads); ++t) {
      const unsigned long long v = x[b * Threads + t];
      want = combine_fields(want, {static_cast<int>(v % 7) - 3, v, static_cast<std::uint16_t>(v >> 40)});
    }
    for (std::size_t t = 0; t < static_cast<std::size_t>(Threads); ++t) {
      const three_fields& g = got[b * Threads + t];
      INFO("blocks of " << Threads << " threads, block " << b << ", thread " << t);
      REQUIRE(g.count == want.count);
      REQUIRE(g.smallest == want.smallest);
      REQUIRE(g.largest == want.largest);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Decoupled look-back: a device-wide exclusive scan built from the layer, one tile a block
// ---------------------------------------------------------------------------------------

// Tile numbers from an atomic counter (in the order blocks start); the tile's aggregate by the
// block scan (integers) or a warp sum (one-warp blocks, any T); warp 0 publishes it and looks
// back.
template <class T>
__global__ void lookback_scan_kernel(const T* in, T* out, std::int64_t n, unsigned* counter,
                                     dev::tile_status<T> status) {
  __shared__ unsigned tile_shared;
  __shared__ T prefix_shared;
  __shared__ T warp_totals[32];
  if (threadIdx.x == 0) tile_shared = atomicAdd(counter, 1u);
  __syncthreads();
  const std::int64_t tile = tile_shared;
  const std::int64_t i = tile * blockDim.x + threadIdx.x;
  const T x = i < n ? in[i] : T{};
  T exclusive{}, aggregate{};
  if constexpr (std::is_integral_v<T>) {
    exclusive = dev::block_exclusive_sum(x, warp_totals, aggregate);
  } else {
    const T inclusive = dev::warp_inclusive_scan(x);  // one-warp blocks
    exclusive = dev::warp_exclusive_from_inclusive(inclusive);
    aggregate = dev::warp_sum(x);
  }
  if (threadIdx.x < 32) {
    if (tile != 0 && threadIdx.x == 0) status.publish(tile, dev::tile_partial, aggregate);
    const T prefix = dev::tile_look_back(status, tile, aggregate);
    if (threadIdx.x == 0) prefix_shared = prefix;
  }
  __syncthreads();
  if (i < n) out[i] = dev::plus(prefix_shared, exclusive);
}

template <class T>
std::string lookback_scan_error(std::int64_t tiles, int block, std::uint64_t salt) {
  const std::int64_t n = tiles * block - (tiles > 1 ? block / 3 : 0);  // a partial last tile
  const auto x = random_values<T>(static_cast<std::size_t>(n), salt);
  wb::device_buffer<T> d_in(x), d_out(x.size());
  wb::workspace_buffer ws(wb::piece_bytes(16) + 3 * wb::piece_bytes(static_cast<std::size_t>(tiles) * 16));
  wb::carver pieces(ws.view(), "lookback test");
  unsigned* counter = pieces.take<unsigned>(4);
  const auto status = dev::tile_status<T>::carve(pieces, tiles);
  WB_CHECK(cudaMemset(counter, 0, pieces.used()));
  wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(static_cast<unsigned>(block))}, lookback_scan_kernel<T>,
             static_cast<const T*>(d_in.data()), d_out.data(), n, counter, status);
  const auto m = wb::testing::first_mismatch(exclusive_sums(x, 0, x.size()), d_out.to_host());
  return m ? "n = " + std::to_string(n) + ": " + *m : std::string();
}

template <class T>
void check_lookback_scan(std::uint64_t salt) {
  const int block = std::is_integral_v<T> ? 64 : 32;
  // Every tile count up to past two windows of 32 predecessors, then a few beyond.
  for (std::int64_t tiles = 1; tiles <= 70; ++tiles) {
    INFO("tiles " << tiles << ", block " << block);
    const std::string why = lookback_scan_error<T>(tiles, block, salt + static_cast<std::uint64_t>(tiles));
    CHECK_MESSAGE(why.empty(), why);
  }
  for (const std::int64_t tiles : {97, 129, 200}) {
    INFO("tiles " << tiles);
    const std::string why = lookback_scan_error<T>(tiles, block, salt + 1000 + static_cast<std::uint64_t>(tiles));
    CHECK_MESSAGE(why.empty(), why);
  }
}

// The predecessors' statuses laid out by hand: tiles [0, tile) hold value v_t, the ones from
// `nearest_inclusive` on as partial aggregates, `nearest_inclusive` itself as an inclusive
// prefix (nearest_inclusive < 0: none but tile 0, which is always inclusive). One warp looks
// back for `tile`; the result must add exactly the values from the nearest inclusive one on.
template <class T>
__global__ void publish_kernel(dev::tile_status<T> status, const T* values, const unsigned* states, std::int64_t tiles) {
  for (std::int64_t t = threadIdx.x; t < tiles; t += blockDim.x) {
    status.publish(t, static_cast<dev::tile_state>(states[t]), values[t]);
  }
}
template <class T>
__global__ void look_back_once_kernel(dev::tile_status<T> status, std::int64_t tile, T aggregate, T* prefix) {
  const T p = dev::tile_look_back(status, tile, aggregate);
  if (threadIdx.x == 0) *prefix = p;
}

template <class T>
void check_lookback_windows(std::uint64_t salt) {
  const std::int64_t tile = 100;
  for (const std::int64_t distance : {1, 2, 31, 32, 33, 63, 64, 65, 99, 100}) {
    const std::int64_t nearest = tile - distance;  // 0 when distance == tile: only tile 0 is inclusive
    const auto values = random_values<T>(static_cast<std::size_t>(tile), salt + static_cast<std::uint64_t>(distance));
    std::vector<unsigned> states(static_cast<std::size_t>(tile), dev::tile_partial);
    states[static_cast<std::size_t>(nearest)] = dev::tile_inclusive;
    if (nearest != 0) states[0] = dev::tile_inclusive;  // an older inclusive one must not be reached
    T expected{};
    for (std::int64_t t = nearest; t < tile; ++t) expected = dev::plus(expected, values[static_cast<std::size_t>(t)]);
    const T aggregate = random_values<T>(1, salt + 7).front();

    wb::workspace_buffer ws(3 * wb::piece_bytes(static_cast<std::size_t>(tile + 2) * 16));
    wb::carver pieces(ws.view(), "lookback windows");
    const auto status = dev::tile_status<T>::carve(pieces, tile + 2);  // the tile and its successor publish too
    WB_CHECK(cudaMemset(ws.view().bytes, 0, pieces.used()));
    wb::device_buffer<T> d_values(values), d_prefix(1);
    wb::device_buffer<unsigned> d_states(states);
    wb::launch({dim3(1), dim3(128)}, publish_kernel<T>, status, static_cast<const T*>(d_values.data()),
               static_cast<const unsigned*>(d_states.data()), tile);
    wb::launch({dim3(1), dim3(32)}, look_back_once_kernel<T>, status, tile, aggregate, d_prefix.data());
    INFO("nearest inclusive predecessor " << distance << " tiles back");
    CHECK(d_prefix.to_host()[0] == expected);
    // The tile's own inclusive prefix is published: what its successor reads.
    wb::launch({dim3(1), dim3(32)}, look_back_once_kernel<T>, status, tile + 1, T{}, d_prefix.data());
    CHECK(d_prefix.to_host()[0] == dev::plus(expected, aggregate));
  }
}

// ---------------------------------------------------------------------------------------
// Decoupled look-back over many counters (the onesweep radix sort's)
// ---------------------------------------------------------------------------------------

// Block b (tiles in start order) counts, for each of blockDim.x counters, counts[b][c]; each
// thread publishes its count, then looks back for its counter's sum over earlier tiles.
template <int Window>
__global__ void counter_lookback_kernel(const unsigned* counts, unsigned* out, unsigned* counter_of_tiles,
                                        unsigned* words) {
  __shared__ unsigned tile_shared;
  if (threadIdx.x == 0) tile_shared = atomicAdd(counter_of_tiles, 1u);
  __syncthreads();
  const std::int64_t tile = tile_shared;
  const int c = static_cast<int>(threadIdx.x);
  const dev::tile_counter_status status{words, static_cast<int>(blockDim.x)};
  const unsigned count = counts[tile * blockDim.x + c];
  status.publish(tile, c, tile == 0 ? dev::tile_inclusive : dev::tile_partial, count);
  out[tile * blockDim.x + c] = dev::tile_counter_exclusive_prefix<Window>(status, tile, c, count);
}

template <int Window>
void check_counter_lookback(std::uint64_t salt) {
  const int counters = 64;
  for (const std::int64_t tiles : {1, 2, 3, 4, 5, 7, 8, 9, 17, 40}) {
    const auto n = static_cast<std::size_t>(tiles * counters);
    auto counts = wb::gen::uniform<unsigned>(n, wb::testing::seed(salt + static_cast<std::uint64_t>(tiles)), 0, 1000);
    for (int c = 0; c < counters; c += 7) counts[static_cast<std::size_t>(c)] = 0;  // empty counters too
    wb::device_buffer<unsigned> d_counts(counts), d_out(n), d_words(n + 1);
    d_words.fill_bytes(0);
    unsigned* tile_counter = d_words.data() + n;
    wb::launch({dim3(static_cast<unsigned>(tiles)), dim3(counters)}, counter_lookback_kernel<Window>,
               static_cast<const unsigned*>(d_counts.data()), d_out.data(), tile_counter, d_words.data());
    std::vector<unsigned> expected(n);
    for (int c = 0; c < counters; ++c) {
      unsigned run = 0;
      for (std::int64_t t = 0; t < tiles; ++t) {
        expected[static_cast<std::size_t>(t * counters + c)] = run;
        run += counts[static_cast<std::size_t>(t * counters + c)];
      }
    }
    INFO("window " << Window << ", tiles " << tiles);
    const auto m = wb::testing::first_mismatch(expected, d_out.to_host());
    CHECK_MESSAGE(!m, m.value_or(""));
    // Every tile but the first ends inclusive, with its inclusive count.
    const auto words = d_words.to_host();
    for (std::int64_t t = 1; t < tiles; ++t) {
      for (int c = 0; c < counters; ++c) {
        const auto k = static_cast<std::size_t>(t * counters + c);
        REQUIRE(words[k] == ((static_cast<unsigned>(dev::tile_inclusive) << 30) | (expected[k] + counts[k])));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Co-rank
// ---------------------------------------------------------------------------------------

// The stable split by brute force: the i such that merging A[0, i) and B[0, k - i) gives the
// first k outputs, A first on ties.
std::int64_t co_rank_by_merging(std::int64_t k, const std::vector<int>& A, const std::vector<int>& B) {
  std::int64_t i = 0, j = 0;
  while (i + j < k) {
    if (j >= static_cast<std::int64_t>(B.size()) ||
        (i < static_cast<std::int64_t>(A.size()) && A[static_cast<std::size_t>(i)] <= B[static_cast<std::size_t>(j)])) {
      ++i;
    } else {
      ++j;
    }
  }
  return i;
}

}  // namespace

TEST_SUITE("device layer") {
  TEST_CASE("warp scan: every count of lanes from 1 to 32") {
    check_warp_scan<int>(100);
    check_warp_scan<std::int64_t>(200);
    check_warp_scan<unsigned>(300);
    check_warp_scan<float>(400);  // exact sums: the exclusive scan is the inclusive one shifted, to the bit
  }

  TEST_CASE("block scan: every block size one off a warp, called twice in a row") {
    check_block_scan<unsigned>(1000);
    check_block_scan<int>(2000);
    check_block_scan<unsigned long long>(3000);
  }

  TEST_CASE("block scan: the first Threads threads of a larger block") {
    check_block_scan_first_threads<unsigned, 32>(32, 4000);
    check_block_scan_first_threads<unsigned, 32>(96, 4100);
    check_block_scan_first_threads<unsigned, 256>(256, 4200);
    check_block_scan_first_threads<unsigned, 256>(384, 4300);  // the sort chapter's onesweep
    check_block_scan_first_threads<unsigned long long, 256>(256, 4400);
    check_block_scan_first_threads<int, 1024>(1024, 4500);
  }

#if defined(WB_BACKEND_CPU)
  TEST_CASE("block scan: reusing the shared totals without the closing barrier fails") {
    // Reused = false leaves out the barrier after the totals are read. A caller that writes
    // them at once (here: clears them) lets thread 0 clear warp 0's total before thread 1 has
    // added it up: the race check reports the clear against the read, whatever the order;
    // unchecked, the in-order schedule reads a cleared total every time. The same code with the
    // barrier is right under every order.
    struct order_scope {
      std::string saved = wb::cpu::schedule_order_name();
      explicit order_scope(const char* order) { wb::cpu::set_schedule_order(order); }
      ~order_scope() { wb::cpu::set_schedule_order(saved); }
    };
    {
      order_scope in_order("in-order");
      std::string why;
      std::string race;
      const bool raced = wb::testing::race_reported(
          [&] { why = block_scan_then_clear_error<unsigned, false>(256, 5000); }, &race);
      if (wb::testing::race_check_active()) {
        CHECK_MESSAGE(raced, "without the closing barrier the race check should report the clear");
        CHECK(race.find("data race on shared memory") != std::string::npos);
      } else {
        CHECK_MESSAGE(!why.empty(), "without the closing barrier a cleared total should be read");
      }
    }
    for (const char* order : {"in-order", "reverse", "shuffle:1", "shuffle:2"}) {
      order_scope scope(order);
      INFO("order " << std::string(order));
      const std::string why = block_scan_then_clear_error<unsigned, true>(256, 5000);
      CHECK_MESSAGE(why.empty(), why);
    }
  }
#endif

  TEST_CASE("block reduce: sum, minimum and maximum in a row, one to 32 warps") {
    check_block_reduce<unsigned long long, 32>(5500);
    check_block_reduce<unsigned long long, 256>(5600);
    check_block_reduce<int, 1024>(5700);
    check_block_reduce<std::int64_t, 96>(5800);
  }

  TEST_CASE("block reduce: a struct of a sum, a minimum and a maximum, one to 32 warps") {
    check_block_reduce_struct<32>(5900);
    check_block_reduce_struct<256>(6000);
    check_block_reduce_struct<1024>(6100);
  }

  TEST_CASE("look-back scan: every tile count to past two windows, both status layouts") {
    check_lookback_scan<std::int32_t>(6000);  // status and value in one 64-bit word
    check_lookback_scan<std::int64_t>(7000);  // 16 bytes on a GPU; status, fence, value on the cpu
    check_lookback_scan<float>(8000);
    check_lookback_scan<double>(9000);
  }

  TEST_CASE("look-back: the nearest inclusive predecessor at every distance a window puts it") {
    check_lookback_windows<std::int32_t>(10000);
    check_lookback_windows<std::int64_t>(11000);
    check_lookback_windows<double>(12000);
  }

  TEST_CASE("look-back over counters: windows of 1, 4 and 8 predecessors") {
    check_counter_lookback<1>(13000);
    check_counter_lookback<4>(14000);
    check_counter_lookback<8>(15000);
  }

  TEST_CASE("co_rank_lower_bound: the stable split for every k, duplicates across A and B") {
    for (const auto& [m, n] : {std::pair{0, 0}, {0, 5}, {5, 0}, {1, 1}, {17, 40}, {300, 257}}) {
      auto A = wb::gen::uniform<int>(static_cast<std::size_t>(m), wb::testing::seed(16000 + m), 0, 20);
      auto B = wb::gen::uniform<int>(static_cast<std::size_t>(n), wb::testing::seed(17000 + n), 0, 20);
      std::sort(A.begin(), A.end());
      std::sort(B.begin(), B.end());
      for (std::int64_t k = 0; k <= m + n; ++k) {
        INFO("m " << m << ", n " << n << ", k " << k);
        REQUIRE(dev::co_rank_lower_bound<int, std::int64_t>(k, A.data(), m, B.data(), n) ==
                co_rank_by_merging(k, A, B));
      }
    }
  }
}
