// Where stage 7 looks before it counts: a sample of the input that estimates the number of
// distinct keys, from which the stage's plan chooses between hashing and sorting. Chapter-level
// (not a track's) so that the checks can build inputs whose sample lies, and summarize a
// sample on the host to test the plan without a GPU (key_sample.cuh counts it on the device).
//
// The sample is stratified: the input is cut into `sample_size(n)` equal strata and one item
// is taken from each, at a pseudo-random place inside it (so a pattern with the stride of
// the strata cannot hide from it, and no item is taken twice).
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <unordered_map>

#include "counting.hpp"
#include "wb/runtime.hpp"

namespace counting::sample {

inline constexpr int max_size_log2 = 16;
inline constexpr std::int64_t max_size = std::int64_t{1} << max_size_log2;

// Items sampled from n: all of them up to 2^16, else 2^16 (0.1% of 2^26).
__host__ __device__ constexpr std::int64_t sample_size(std::int64_t n) { return n < max_size ? n : max_size; }

// The place of sample i (0 <= i < sample_size(n)) in the input: stratum i is
// [i n / 2^16, (i + 1) n / 2^16), so the strata cover the input evenly whatever n is (below
// 2^48: the products fit in 64 bits). No divisions: a 64-bit division is a long software
// routine on the GPU, and the sampling kernel needed three a key (the stratum's ends and a
// remainder). The ends are shifts; the place inside a stratum of w items is the hash's high
// 32 bits times w, over 2^32 (a multiply instead of the remainder by w).
__host__ __device__ constexpr std::int64_t position(std::int64_t i, std::int64_t n) {
  if (n <= max_size) return i;
  const auto u = static_cast<std::uint64_t>(i);
  const auto items = static_cast<std::uint64_t>(n);
  const std::uint64_t begin = u * items >> max_size_log2;
  const std::uint64_t width = ((u + 1) * items >> max_size_log2) - begin;  // at least 1: n > 2^16
  auto x = u * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 32;
  return static_cast<std::int64_t>(begin + ((x >> 32) * width >> 32));
}
static_assert(position(65535, 100'000) >= 98'473 && position(1, std::int64_t{1} << 26) / 1024 == 1);

constexpr double sqrt_of(double x) {  // constexpr std::sqrt is C++26: Newton's method
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 64; ++i) r = 0.5 * (r + x / r);
  return r;
}

// The sampled places that have a next item (the last place may be the input's last item).
__host__ __device__ constexpr std::int64_t pairs(std::int64_t n) {
  const std::int64_t samples = sample_size(n);
  return samples > 0 && position(samples - 1, n) == n - 1 ? samples - 1 : samples;
}

// The estimate of the number of distinct keys D in all n items from the sample's summary:
// `seen` distinct keys, `once` of them seen once and `twice` seen twice, and `changes`, the
// sampled places whose next item holds another key. Two estimators, each wrong the other way:
//   - Chao's (Chao 1984), seen + once^2 / (2 twice): the keys the sample missed, judged by
//     how many it barely caught. Right for evenly spread keys; far too low for skewed ones
//     (zipf-like over 2^20 values: 2^16.3), where the hot keys' repeats make `twice` large;
//   - GEE (Charikar, Chaudhuri, Motwani, Narasayya 2000), sqrt(n / samples) once + (seen -
//     once): each key seen once stands for sqrt(n / samples) keys. Within a factor
//     sqrt(n / samples) (32 at n = 2^26) of the truth whatever the keys; high for evenly
//     spread ones.
// The larger of the two (a high estimate picks a slower path, a low one a table that fills,
// and then the stage counts twice), held under two bounds that no input can pass:
//   - a key seen once stands for at most n / samples keys (its stratum's items):
//     D <= (seen - once) + once n / samples. Where `twice` is 0 (a tail of keys that occur
//     once, beside a few hot keys), Chao's estimate is unbounded and this bound is the
//     estimate: the hot keys plus the tail's items, whose relative standard error is
//     sqrt(h / ((1 - h) samples)) for a hot share h (0.4% at h = 1/2, 1.2% at 9/10);
//   - the input holds D runs of equal keys or more, D exactly when it is sorted: the share
//     of sampled places where the key changes estimates the runs, and its upper bound
//     (changes + 2 sqrt(changes) + 3: a Poisson count's, about 97.5%) bounds D. A stratified
//     sample sees each key of sorted input at most once or twice, so there Chao's and GEE's
//     estimates fail, and this one is within 1/sqrt(changes) of D.
// A whole input sampled is its exact count; never more than n.
constexpr double estimate(std::int64_t n, const sample_summary& s) {
  if (s.samples >= n) return static_cast<double>(s.seen);
  const double seen = static_cast<double>(s.seen), once = static_cast<double>(s.once);
  const double twice = static_cast<double>(s.twice), ratio = static_cast<double>(n) / static_cast<double>(s.samples);
  const double missed = twice > 0 ? once * once / (2 * twice) : once * (once - 1) / 2;
  const double chao = seen + missed;
  const double gee = sqrt_of(ratio) * once + (seen - once);
  double e = chao > gee ? chao : gee;
  const double once_bound = (seen - once) + once * ratio;
  const double changes = static_cast<double>(s.changes);
  const double runs_bound = 1 + static_cast<double>(n - 1) * (changes + 2 * sqrt_of(changes) + 3) /
                                    static_cast<double>(pairs(n) > 0 ? pairs(n) : 1);
  e = e < once_bound ? e : once_bound;
  e = e < runs_bound ? e : runs_bound;
  return e < static_cast<double>(n) ? e : static_cast<double>(n);
}
static_assert(estimate(100, sample_summary{100, 7, 7, 0, 1, 0, 0, 0}) == 7);
static_assert(estimate(1 << 20, sample_summary{1 << 16, 1, 0, 0, 1 << 16, 0, 0, 60000}) == 1);

// Tables are planned for twice the estimate: Chao's estimate is a lower bound, low on skewed
// keys (a zipf-like tail is mostly keys seen once or never). Where the sample saw at most a
// quarter of its keys only once, it caught nearly every key, and the estimate is close
// (evenly spread keys, a few thousand of them): a quarter more is enough. (No sample, a
// number given instead: twice.)
constexpr double plan_margin(const sample_summary& s) { return s.seen > 0 && s.once * 4 <= s.seen ? 1.25 : 2.0; }

// The sample count from which a key is hot: 8 times the sample's average per key seen (so
// that evenly spread keys are never hot), at least 4.
constexpr unsigned hot_sample_count(std::int64_t samples, std::int64_t seen) {
  const double average_times_8 = 8.0 * static_cast<double>(samples) / static_cast<double>(seen > 0 ? seen : 1);
  const double at_least = average_times_8 > 4.0 ? average_times_8 : 4.0;
  const auto whole = static_cast<unsigned>(at_least);
  return static_cast<double>(whole) < at_least ? whole + 1 : whole;  // the ceiling
}
static_assert(hot_sample_count(1 << 16, 1 << 16) == 8 && hot_sample_count(1 << 16, 1 << 20) == 4 &&
              hot_sample_count(3, 7) == 4 && hot_sample_count(1 << 16, 3) == 174763);

// The sample's summary on the host, from the input itself (the checks' reference for the
// device's sample, and the plan's input in the checks of the plan).
inline sample_summary summarize(std::span<const std::int64_t> data) {
  const auto n = static_cast<std::int64_t>(data.size());
  std::unordered_map<unsigned long long, std::int64_t> times;
  std::set<unsigned> digit_values[8];  // byte b's values among the sampled keys
  sample_summary s;
  s.samples = sample_size(n);
  for (std::int64_t i = 0; i < s.samples; ++i) {
    const auto at = static_cast<std::size_t>(position(i, n));
    const unsigned long long u = static_cast<unsigned long long>(data[at]) ^ (1ull << 63);
    if (u != ~0ull) {
      ++times[u];
      for (int b = 0; b < 8; ++b) digit_values[b].insert(static_cast<unsigned>(u >> (8 * b)) & 0xFFu);
    }
    if (at + 1 < data.size() && data[at + 1] != data[at]) ++s.changes;
  }
  if (!times.empty()) {
    s.fewest_digit_values = 256;
    for (const auto& d : digit_values) s.fewest_digit_values = std::min(s.fewest_digit_values, static_cast<int>(d.size()));
  }
  for (const auto& [u, t] : times) {
    ++s.seen;
    s.once += t == 1 ? 1 : 0;
    s.twice += t == 2 ? 1 : 0;
    s.most = t > s.most ? t : s.most;
    s.min = u < s.min ? u : s.min;
    s.max = u > s.max ? u : s.max;
  }
  return s;
}

}  // namespace counting::sample
