// Sorted input data for the merge chapter: the executable's --dist choices and the tests'
// adversarial cases. Sorted by construction (no sort), so 2^30-element inputs take seconds.
// (A perfectly even spread would flatter the co-rank search: the book's search finds the
// split of two evenly interleaved inputs in two steps. `uniform` is irregular on purpose.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "merge.hpp"

namespace merge {

enum class distribution {
  uniform,      // sorted random values over the key type's range (floats: [-1e9, 1e9]): A and B
                // interleave irregularly, as sorted random samples do; few repeats (floats: many)
  duplicates,   // 8 distinct keys, the same 8 in A and B: long runs of equal keys across both
  all_equal,    // every key of A and B is the same
  a_below_b,    // every key of A is smaller than every key of B
  b_below_a,    // every key of B is smaller than every key of A
  interleaved,  // A and B alternate (perfectly when m == n)
  extremes,     // the type's lowest and largest values and their neighbours, 0, +-1
};

const std::vector<distribution>& all_distributions();
std::string to_string(distribution d);
std::optional<distribution> parse_distribution(const std::string& name);

// Sorted keys: which = 0 for A, 1 for B (the two inputs of one case differ, and some
// distributions place them differently).
template <class K>
std::vector<K> sorted_keys(std::int64_t count, distribution d, std::uint64_t seed, int which);

// The values of a key-value merge: A_val[i] = i, B_val[j] = m + j (mod 2^31), so the
// position of every element in the inputs can be read off the output.
std::vector<value_t> tag_values(std::int64_t count, std::int64_t first);

// The key type as the command line and the messages name it: "int32", "int64", "float".
template <class K>
constexpr const char* key_name() {
  if constexpr (std::is_same_v<K, std::int32_t>) return "int32";
  if constexpr (std::is_same_v<K, std::int64_t>) return "int64";
  return "float";
}

// The first index where `data` is not sorted (data[i] < data[i-1]), or -1.
template <class K>
std::int64_t first_unsorted(const std::vector<K>& data);

}  // namespace merge
