// A stable LSD radix sort of (key, value) pairs of unsigned 64-bit integers, by key: the
// last step of stage 7, which sorts only the distinct keys its hash table found (CUB stays
// in the baseline). PMPP ch. 13 (radix sort: one stable counting pass per 8-bit digit),
// organised as in "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs"
// (Adinets & Merrill, 2022), so that a pass is one kernel instead of count, scan, scatter:
//   0. one cudaMemsetAsync clears the per-pass status arrays, tile counters and histograms;
//   1. digit_histograms: one read of the keys counts the digits of EVERY varying digit
//      position at once (shared-memory histograms per block, added into a global [8][256]);
//   2. per pass, onesweep_pass: each block takes the next tile id from a counter (so every
//      earlier tile is already running), loads 4096 keys, ranks them by digit stably
//      (__match_any_sync within each warp, warps in order), publishes its digit counts, finds
//      the counts of all earlier tiles by a decoupled look-back (one thread per digit), and
//      writes the tile out through shared memory in digit order (runs of neighbours).
// Passes over digits where all keys agree (`varying_bits` is zero there) are skipped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/runtime.hpp"

namespace counting::detail {

// Scratch the sort needs besides the two pair buffers, for up to `count` pairs: for every
// pass and tile of 4096 keys one 64-bit status word per digit (16 KiB a tile, about 4 bytes
// a pair), plus 8 KiB of histograms. Aligned as cudaMalloc memory (8 bytes suffice).
std::size_t sort_pairs_scratch_bytes(std::int64_t count);

// Sorts keys[0][0, count) with their values[0][...] by key (0 <= count <= 2^32 - 1). keys[1]
// and values[1] are the second buffer of each (count entries). Returns which buffer (0 or 1)
// holds the result. varying_bits: the bits in which some keys differ (OR of all keys XOR AND
// of all keys); a superset (e.g. ~0ull) is fine, only slower.
int sort_pairs(std::uint64_t* keys[2], std::uint64_t* values[2], std::int64_t count, std::uint64_t varying_bits,
               void* scratch, cudaStream_t stream = 0);

// An exclusive scan of `entries` 32-bit counts in place (stage 7's two-level count uses it to
// turn bucket counts per block into places); the totals must fit in 32 bits.
std::size_t exclusive_scan_scratch_bytes(std::int64_t entries);
void exclusive_scan(unsigned* data, std::int64_t entries, void* scratch, cudaStream_t stream = 0);

}  // namespace counting::detail
