// The executable's generated inputs (--dist, --distinct, the mixture's --hot-share, --hot-keys
// and --tail-values, --sorted): what they are, how the report names them, and the checks that
// come before any item is made.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "wb/arguments.hpp"
#include "wb/generate.hpp"

namespace counting {

struct generated_input {
  std::string dist = "uniform";
  std::int64_t distinct = 0;     // few, zipf: the distinct values
  double hot_share = 0.5;        // mixture: the share of the items on the hot keys,
  std::int64_t hot_keys = 16;    // the hot keys,
  std::int64_t tail_values = 0;  // the tail's values (0: every tail item distinct)
  bool sorted = false;           // sorted ascending
};

// std::sort split over the host's cores: sort the parts in parallel, merge them pairwise in
// parallel (--sorted inputs, and the reference table).
template <class T>
void parallel_sort(std::vector<T>& v) {
  const std::size_t parts = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::size_t> bounds(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bounds[p] = v.size() * p / parts;
  auto in_parallel = [](std::size_t count, const auto& work) {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < count; ++i) threads.emplace_back(work, i);
    for (auto& t : threads) t.join();
  };
  in_parallel(parts, [&](std::size_t p) { std::sort(v.begin() + bounds[p], v.begin() + bounds[p + 1]); });
  for (std::size_t width = 1; width < parts; width *= 2) {
    const std::size_t pairs = (parts + 2 * width - 1) / (2 * width);
    in_parallel(pairs, [&](std::size_t i) {
      const std::size_t lo = 2 * width * i, mid = std::min(lo + width, parts), hi = std::min(lo + 2 * width, parts);
      std::inplace_merge(v.begin() + bounds[lo], v.begin() + bounds[mid], v.begin() + bounds[hi]);
    });
  }
}

// Refuses (wb::usage_error) a generated input that cannot be made, before any item is.
template <class T>
void require_generable(const generated_input& in, std::int64_t n) {
  constexpr bool int8 = std::is_same_v<T, std::int8_t>;
  if (int8 && in.dist == "all-distinct" && n > 256) {
    throw wb::usage_error("--dist all-distinct: int8 has only 256 values; use --type int64 or --n <= 256");
  }
  if ((in.dist == "few" || in.dist == "zipf") && in.distinct < 1)
    throw wb::usage_error("--distinct must be at least 1 for --dist " + in.dist);
  if (in.dist == "zipf" && int8 && in.distinct > 128)
    throw wb::usage_error("--dist zipf draws values 0..K-1: K must be <= 128 for int8");
  if (in.dist == "zipf" && in.distinct > (std::int64_t{1} << 27))  // the generator keeps a table of K weights
    throw wb::usage_error(fmt::format("--dist zipf: --distinct must be at most 2^27 (got {})", in.distinct));
  if (in.dist == "mixture" && int8) throw wb::usage_error("--dist mixture: int64 only (its tail needs more than 256 values)");
  if (in.dist == "mixture" && in.hot_share > 0 && in.hot_keys < 1)
    throw wb::usage_error("--dist mixture: --hot-keys must be at least 1 where --hot-share is above 0");
}

template <class T>
std::vector<T> generate(const generated_input& in, std::size_t count, std::uint64_t seed) {
  std::vector<T> data;
  if (in.dist == "uniform") data = wb::gen::uniform<T>(count, seed);
  else if (in.dist == "one-hot") data = wb::gen::all_equal<T>(count, T{42});
  else if (in.dist == "few") data = wb::gen::few_distinct<T>(count, seed, static_cast<std::size_t>(in.distinct));
  else if (in.dist == "zipf") data = wb::gen::zipf<T>(count, seed, static_cast<std::size_t>(in.distinct));
  else if (in.dist == "mixture")
    data = wb::gen::hot_and_tail<T>(count, seed, in.hot_share, static_cast<std::size_t>(in.hot_keys),
                                    static_cast<std::size_t>(in.tail_values));
  else data = wb::gen::iota<T>(count, seed, true);  // all-distinct (int64 only; checked before)
  if (in.sorted) parallel_sort(data);
  return data;
}

// "few (1024 distinct), sorted": the input as the report's title names it.
inline std::string describe(const generated_input& in) {
  std::string d = in.dist;
  if (in.dist == "few" || in.dist == "zipf") d += fmt::format(" ({} distinct)", in.distinct);
  if (in.dist == "mixture")
    d += fmt::format(" ({:g}% on {} hot keys, the rest {})", 100 * in.hot_share, in.hot_keys,
                     in.tail_values > 0 ? fmt::format("over {} values", in.tail_values) : std::string("distinct"));
  if (in.sorted) d += ", sorted";
  return d;
}

}  // namespace counting
