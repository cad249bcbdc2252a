// Inputs, device buffers and checks, shared by the executable and the tests.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"

#include "allreduce.hpp"

namespace allreduce {

class team;

// How the generated inputs are drawn.
//   uniform:  integers over the type's whole range (so the sums wrap around), floats in [-1, 1)
//   small:    integers in [-1000, 1000] (sums that do not wrap), floats the same (exact sums)
//   extremes: the type's lowest, max, -1, 0, 1 and their neighbours
enum class distribution { uniform, small, extremes };
std::optional<distribution> parse_distribution(const std::string& name);

// G vectors of n elements, one per rank, seeded (rank r from seed + r).
template <class T>
std::vector<std::vector<T>> make_inputs(int ranks, std::int64_t n, distribution d, std::uint64_t seed);

// Every rank's input and output on its own device; outputs poisoned (0xA5 bytes) by poison().
template <class T>
class rank_vectors {
 public:
  rank_vectors(team& t, std::span<const std::vector<T>> inputs);
  buffers<T> view() const;
  void poison();
  // Every rank's output, read back after the ranks' streams are done.
  std::vector<std::vector<T>> outputs() const;
  // Rank r's first `count` outputs (after the ranks' streams are done).
  std::vector<T> output(int r, std::int64_t count) const;

 private:
  team* team_;
  std::int64_t n_;
  std::vector<wb::device_buffer<T>> in_, out_;
};

// How far a float sum may stray from the specification's when it adds in another order:
// (G - 1) * 2^-24 * (|x_0| + ... + |x_{G-1}|) for element i (each of the G - 1 additions
// rounds once, by at most half an ulp of a partial sum, which is at most the sum of the
// magnitudes). Zero for integers: their sums are exact in any order.
template <class T>
std::vector<double> order_tolerance(std::span<const std::vector<T>> inputs);

// "" when `got` matches `expected` (exactly, or within `tolerance` per element where one is
// given; NaN matches NaN), else where it first does not.
template <class T>
std::string mismatch(const std::vector<T>& expected, const std::vector<T>& got, const std::vector<double>& tolerance = {});

// "" when every rank holds the same bits, else the first rank and index that differ.
template <class T>
std::string ranks_disagree(const std::vector<std::vector<T>>& outputs);

}  // namespace allreduce
