// A stable LSD radix sort of (key, value) pairs of unsigned 64-bit integers, by key: the
// last step of stage 7, which sorts only the distinct keys its hash table found (CUB stays
// in the baseline). PMPP ch. 13 (radix sort) with 8-bit digits; each pass is
//   1. digit_count: each tile of 2048 keys counts its 256 digits in shared memory;
//   2. scan: an exclusive scan over the counts, digit-major (digit 0 of every tile, then
//      digit 1, ...), gives every (digit, tile) the place its first key goes to;
//   3. scatter: each warp walks its 256 keys of the tile in order, ranks equal digits among
//      its 32 lanes with __match_any_sync and writes every pair to its place: stable.
// Passes over digits where all keys agree (`varying_bits` is zero there) are skipped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/runtime.hpp"

namespace counting::detail {

// Scratch the sort needs besides the two pair buffers, for `count` pairs.
std::size_t sort_pairs_scratch_bytes(std::int64_t count);

// Sorts keys[0][0, count) with their values[0][...] by key. keys[1] and values[1] are the
// second buffer of each (count entries). Returns which buffer (0 or 1) holds the result.
// varying_bits: the bits in which some keys differ (OR of all keys XOR AND of all keys).
int sort_pairs(std::uint64_t* keys[2], std::uint64_t* values[2], std::int64_t count, std::uint64_t varying_bits,
               void* scratch, cudaStream_t stream = 0);

// An exclusive scan of `entries` 32-bit counts in place (stage 7's two-level count uses it to
// turn bucket counts per block into places); the totals must fit in 32 bits.
std::size_t exclusive_scan_scratch_bytes(std::int64_t entries);
void exclusive_scan(unsigned* data, std::int64_t entries, void* scratch, cudaStream_t stream = 0);

}  // namespace counting::detail
