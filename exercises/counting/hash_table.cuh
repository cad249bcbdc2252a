// Thread-level pieces of stage 7 (exercise): a GPU hash table of 64-bit keys with counts in
// global memory (the one global table; key_sample.cuh lays out the sample's table the same way).
//
// Open addressing with linear probing (PMPP's privatization idea turned inside out: one
// shared table, and atomics only where two threads meet). The table is two arrays, keys[]
// and counts[], and small on purpose: 8-byte keys, 32-bit counts (64-bit only when N could
// overflow them) and at most 3/4 full, so 2^20 distinct keys need about 17 MB. It must stay
// in the L2 cache while hundreds of MB of input stream past it (on the H100 a 32 MB table of
// 16-byte slots did not, and every probe went to DRAM); the input is read with evict-first
// loads for the same reason.
//
// Keys are stored "flipped": u = (uint64)key ^ 2^63, which maps int64 order onto uint64
// order (the sort needs that) and leaves one problem: every 64-bit pattern is some key, so
// no pattern is free to mean "empty". The all-ones pattern is the empty slot, and the one key
// that flips to it, INT64_MAX, is counted on the side (`sentinel_count`) instead of in the
// table; it is the largest key, so it goes last in the table.
#pragma once

#include <cstdint>

#include "wb/kernel.hpp"

namespace counting::WB_TRACK::hash_table {

inline constexpr unsigned long long empty_key = ~0ull;
inline constexpr unsigned long long sign_bit = 1ull << 63;

// A table of `capacity` slots: keys[i] (empty_key when free) and counts[i].
template <class Count>
struct table_view {
  unsigned long long* keys;
  Count* counts;
  unsigned long long capacity;
};

__host__ __device__ __forceinline__ unsigned long long flip(std::int64_t key) {
  return static_cast<unsigned long long>(key) ^ sign_bit;
}
__host__ __device__ __forceinline__ std::int64_t unflip(unsigned long long u) {
  return static_cast<std::int64_t>(u ^ sign_bit);
}

// MurmurHash3's 64-bit finaliser: every input bit moves every output bit, so keys that
// differ only in their high bits (or that are multiples of a power of two) still spread.
__host__ __device__ __forceinline__ constexpr unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;  // undone by itself: the shift is at least half the word
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// The first slot to try: the high half of mix(u) * capacity, an even spread over any
// capacity (not just powers of two) without a division.
__host__ __device__ __forceinline__ unsigned long long home_slot(unsigned long long u, unsigned long long capacity) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(mix(u), capacity);
#else
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(mix(u)) * capacity) >> 64);
#endif
}

// Linear probing gives up after this many slots. In a table at most 3/4 full a key sits
// that far from its home slot with a probability of about e^-38; in a table that is nearly
// full (an estimate of the distinct keys that was far too low) chains grow towards the whole
// table and every insert would crawl along them. Giving up reports the table full, and the
// stage counts by sorting instead.
inline constexpr unsigned long long max_probes = 1024;

// Adds `count` occurrences of flipped key u (u != empty_key). Returns false if the `max_probes`
// slots from u's home slot (or all of them, if fewer) hold other keys: the table is full, or
// as good as full (the caller counts another way).
template <class Count>
__device__ __forceinline__ bool insert(table_view<Count> t, unsigned long long u, Count count) {
  // TODO(counting/7, open addressing): find u's slot by linear probing from home_slot(u,
  // t.capacity), claiming an empty one with atomicCAS (another thread may claim it first), and
  // add `count` to the slot's count atomically; give up after max_probes slots.
  return false;
}

}  // namespace counting::WB_TRACK::hash_table
