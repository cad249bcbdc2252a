// The last step of stage 7, shared by both tracks and every path: from (key, count) pairs in
// any order to the frequency table in ascending key order, and the sort-based count itself
// (sort every key, then run-length encode). Both sort with the sort chapter's stage 5
// (sort::solution::sort_onesweep, a onesweep LSD radix sort, chapters/sort/).
#pragma once

#include <cstddef>
#include <cstdint>

#include "counting.hpp"

namespace counting::detail {

// Scratch for write_distinct_table on up to `max_pairs` pairs.
std::size_t distinct_table_scratch_bytes(std::int64_t max_pairs);

// Writes the table from `pairs` (flipped key, count) pairs (keys as hash_table.cuh stores
// them: u = key ^ 2^63) in any order, plus `sentinel_count` items of INT64_MAX (counted on
// the side), last. With `sum_equal_keys` a key may come in several pairs, whose counts are
// added up (the two-level count's spilled keys); without it every key is in one pair.
// The pairs' indices are sorted with the keys (32-bit values), so pairs < 2^32; with
// `narrow_counts` (every count below 2^32) the counts themselves are, and no count is
// gathered by index after the sort. `phases`: print the steps' times (phase_clock.hpp).
void write_distinct_table(const unsigned long long* flipped_keys, const unsigned long long* counts,
                          std::int64_t pairs, unsigned long long sentinel_count, bool sum_equal_keys,
                          device_table<std::int64_t> out, void* scratch, std::size_t scratch_bytes,
                          bool narrow_counts = false, bool phases = false);

// Scratch for sort_run_length_encode on n keys.
std::size_t sort_count_scratch_bytes(std::int64_t n);

// The sort-based count: sort all n keys (onesweep, 8 passes of 8 bits), mark where each run
// of equal keys starts, scan the marks into the runs' places, write each run's key and length.
// `started`: start_sort_run_length_encode ran on the same keys, n and scratch (the sort's first
// kernel, its histogram, is done). `few_digit_passes` false: no byte of the keys takes at most
// few_digit_values values, so the sort leaves its few-digits kernel out.
void sort_run_length_encode(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, void* scratch,
                            std::size_t scratch_bytes, bool phases = false, bool started = false,
                            bool few_digit_passes = true);

// The most digit values of a pass that the sort's few-digits kernel sorts (the sort chapter's
// onesweep::match_digits).
inline constexpr int few_digit_values = 16;

// Queues the first kernel of sort_run_length_encode alone (the sort's histogram): stage 7 starts
// it while its host waits for the sample, before it knows it will sort.
void start_sort_run_length_encode(const std::int64_t* in, std::int64_t n, void* scratch, std::size_t scratch_bytes);

}  // namespace counting::detail
