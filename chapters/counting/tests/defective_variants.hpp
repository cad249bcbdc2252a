// Deliberately defective variants of the chapter's own code, one per defect of the article
// (D2-D13, the README's defect table), each a small mutation of a stage. The regression checks
// in test_defects.cpp show that each one FAILS where the stage passes. Never used elsewhere.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chunks.hpp"
#include "counting.hpp"

namespace counting::defective {

using i8 = std::int8_t;
using u64 = std::uint64_t;

// Stage 1 with D2: each of `threads` threads takes N / threads items; the rest is dropped.
std::vector<entry<i8>> omp_dist_count_D2(std::span<const i8> data, int threads);
// Stage 1 with D3: a zeroed table of N entries, searched from N-1 down to 0 under a lock
// (the article's structure): value 0 is "found" in the unwritten entries and never added.
std::vector<entry<i8>> omp_dist_count_D3(std::span<const i8> data, int threads);
// Stage 1 with D4's narrow index: a 16-bit loop index stands for the article's `int`; it
// wraps past 2^16 items the way `int` wraps past 2^31.
std::vector<entry<i8>> omp_dist_count_D4(std::span<const i8> data, int threads);

// Stage 4's count-if child with D6: the shared counter is zeroed by thread 0 with no barrier
// before the other threads add to it.
void count_if_D6(const i8* in, std::int64_t n, i8 value, u64* count);
// Stage 4's count-if child with D7: one block, and only items threadIdx.x < n are compared.
void count_if_D7(const i8* in, std::int64_t n, i8 value, u64* count);
// Stage 4's merge with D8: an entry is kept only if 0 < count < its chunk's length.
void merge_chunk_tables_D8(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk,
                           u64* merged, device_table<i8> out);
// Stage 4's merge with D9: an entry's value is compared with the other entry's count.
void merge_chunk_tables_D9(const i8* slot_value, const u64* slot_count, std::int64_t n, std::int64_t chunk,
                           u64* merged, device_table<i8> out);
// Stage 3 with D12 (n <= 1024, one block): "first occurrence?" is read from a shared table
// that the other threads are writing, with no barrier. Appends (value, count) rows to
// values/counts (unordered) and their number to *rows.
void count_direct_port_D12(const i8* in, std::int64_t n, i8* values, u64* counts, unsigned* rows);

// chunks.hpp with D13: a chunk that ends past the input is skipped (empty range).
chunk_range chunk_bounds_D13(std::int64_t c, std::int64_t chunk, std::int64_t n);
// Stage 8 with D10: copies chunk - 1 items of every whole chunk, none of the remainder.
// workspace: 256 bins + one chunk buffer.
void count_pipelined_D10(const i8* host_in, std::int64_t n, device_table<i8> out, void* workspace,
                         std::int64_t chunk);
// Stage 8 with D11 (the article's host loop, otherwise correct): per chunk a fresh device
// buffer, a synchronous copy, a full device synchronisation, the chunk's 256 bins copied back
// and merged on the host by linear search; the table is copied to `out` at the end.
void count_pipelined_D11(const i8* host_in, std::int64_t n, device_table<i8> out, std::int64_t chunk);

}  // namespace counting::defective
