// Thread-level pieces of stage 7 (exercise): a GPU hash table of 64-bit keys with 64-bit counts.
//
// Open addressing with linear probing (PMPP's privatization idea turned inside out: one
// shared table, and atomics only where two threads meet). A slot is 16 bytes, key and count
// side by side, so finding a key and adding to its count touch one 32-byte sector.
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

struct slot {
  unsigned long long key;
  unsigned long long count;
};

inline constexpr unsigned long long empty_key = ~0ull;
inline constexpr unsigned long long sign_bit = 1ull << 63;

__host__ __device__ __forceinline__ unsigned long long flip(std::int64_t key) {
  return static_cast<unsigned long long>(key) ^ sign_bit;
}
__host__ __device__ __forceinline__ std::int64_t unflip(unsigned long long u) {
  return static_cast<std::int64_t>(u ^ sign_bit);
}

// MurmurHash3's 64-bit finaliser: every input bit moves every output bit, so keys that
// differ only in their high bits (or that are multiples of a power of two) still spread.
__host__ __device__ __forceinline__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Adds `count` occurrences of flipped key u (u != empty_key) to a table of mask + 1 slots
// (a power of two). Returns false if the table is full (the caller retries with a bigger one).
__device__ __forceinline__ bool insert(slot* table, unsigned long long mask, unsigned long long u,
                                      unsigned long long count) {
  // TODO(counting/7): start at h = mix(u) & mask and probe h, h+1, ... (mod mask + 1), at
  // most mask + 1 slots:
  //   - read the slot's key; if it is empty_key, try to claim it: atomicCAS(&key, empty_key, u)
  //     returns what was there (empty_key: the slot is now ours);
  //   - if the slot holds u (ours, or claimed by another thread a moment ago): atomicAdd
  //     `count` to its count and return true;
  //   - otherwise another key lives there: go to the next slot.
  // Return false if every slot is taken by other keys.
  (void)table, (void)mask, (void)u, (void)count;
  return false;
}

}  // namespace counting::WB_TRACK::hash_table
