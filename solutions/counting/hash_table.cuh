// Thread-level pieces of stage 7: a GPU hash table of 64-bit keys with counts.
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
__host__ __device__ __forceinline__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;
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

// Adds `count` occurrences of flipped key u (u != empty_key). Returns false if every slot
// holds another key (the caller retries with a bigger table).
template <class Count>
__device__ __forceinline__ bool insert(table_view<Count> t, unsigned long long u, Count count) {
  unsigned long long h = home_slot(u, t.capacity);
  for (unsigned long long probe = 0; probe < t.capacity; ++probe) {
    unsigned long long here = t.keys[h];  // keys only ever change from empty to final
    if (here == empty_key) {
      here = atomicCAS(&t.keys[h], empty_key, u);  // claim the slot...
      if (here == empty_key) here = u;             // ...we did
    }
    if (here == u) {
      atomicAdd(&t.counts[h], count);
      return true;
    }
    if (++h == t.capacity) h = 0;  // another key lives here: try the next slot
  }
  return false;
}

// ---- The two-level count (stage 7's default) -------------------------------------------------
// The keys are first split into 2^bucket_bits buckets by the TOP bits of mix(u), so every
// bucket gets about the same number of distinct keys, whatever the keys look like; each
// bucket is then counted by one block in a small table in shared memory, whose home slot
// comes from the LOW bits of mix(u) (independent of the bucket).
__host__ __device__ __forceinline__ unsigned bucket_of(unsigned long long u, int bucket_bits) {
  return bucket_bits == 0 ? 0u : static_cast<unsigned>(mix(u) >> (64 - bucket_bits));
}

// Adds `count` occurrences of u (u != empty_key) to a shared-memory table of `slots` slots (a
// power of two). `used` counts the claimed slots; when a claim would make it exceed
// `max_keys`, or a probe finds every slot taken, *overflow is set and the key is dropped (the
// caller then counts everything again with a global table).
template <int slots>
__device__ __forceinline__ void shared_insert(unsigned long long* keys, unsigned* counts, unsigned* used,
                                              int* overflow, unsigned max_keys, unsigned long long u,
                                              unsigned count) {
  unsigned h = static_cast<unsigned>(mix(u)) & (slots - 1u);
  for (int probe = 0; probe < slots; ++probe) {
    unsigned long long here = keys[h];
    if (here == empty_key) {
      here = atomicCAS(&keys[h], empty_key, u);
      if (here == empty_key) {
        if (atomicAdd(used, 1u) >= max_keys) {
          atomicExch(overflow, 1);
          return;
        }
        here = u;
      }
    }
    if (here == u) {
      atomicAdd(&counts[h], count);
      return;
    }
    h = (h + 1u) & (slots - 1u);
  }
  atomicExch(overflow, 1);
}

}  // namespace counting::WB_TRACK::hash_table
