// Thread-level pieces of stage 7: a GPU hash table of 64-bit keys with counts (the global
// one-level table), and the shared-memory tables of the two-level count (at the end).
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
// It is a bijection (each step can be undone), so the hash of a key can stand for the key:
// unmix gives the key back (the two-level count stores hashes).
__host__ __device__ __forceinline__ constexpr unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;  // undone by itself: the shift is at least half the word
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}
__host__ __device__ __forceinline__ constexpr unsigned long long unmix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0x9cb4b2f8129337dbull;  // the inverse of 0xc4ceb9fe1a85ec53 modulo 2^64
  x ^= x >> 33;
  x *= 0x4f74430c22a54005ull;  // the inverse of 0xff51afd7ed558ccd modulo 2^64
  x ^= x >> 33;
  return x;
}
static_assert(unmix(mix(0x0123456789abcdefull)) == 0x0123456789abcdefull && unmix(mix(empty_key)) == empty_key);

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
  unsigned long long h = home_slot(u, t.capacity);
  const unsigned long long probes = t.capacity < max_probes ? t.capacity : max_probes;
  for (unsigned long long probe = 0; probe < probes; ++probe) {
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

// ---- The shared-memory tables (stage 7's paths 1 and 2) ----------------------------------------
// They work on HASHES, h = mix(u): a key's slot in a shared-memory table is the LOW bits of
// h; where the two-level count's buckets are ranges of hashes, a key's bucket is the TOP bits
// of h, so every bucket gets about the same number of distinct keys whatever the keys look
// like (and the slot is independent of the bucket). The empty slot is the hash of the empty
// key, so the one key whose hash it is, INT64_MAX, is still the one counted on the side.
inline constexpr unsigned long long hashed_empty_key = mix(empty_key);

__host__ __device__ __forceinline__ unsigned bucket_of_hash(unsigned long long h, int bucket_bits) {
  return bucket_bits == 0 ? 0u : static_cast<unsigned>(h >> (64 - bucket_bits));
}

// Empties a shared-memory table of `slots` slots; every thread of the block calls it (the
// caller's next barrier makes it visible).
template <int slots>
__device__ __forceinline__ void shared_clear_hashed(unsigned long long* keys, unsigned* counts) {
  for (int s = static_cast<int>(threadIdx.x); s < slots; s += static_cast<int>(blockDim.x)) {
    keys[s] = hashed_empty_key;
    counts[s] = 0;
  }
}

// Adds `count` occurrences of hash h (h != hashed_empty_key) to a shared-memory table of
// `slots` slots (a power of two) and returns true; returns false, adding nothing, when h is
// new and the table already holds `max_keys` keys (max_keys < slots, so a probe always meets
// an empty slot or h). `used` counts the keys: a thread takes a ticket from it BEFORE it
// claims a slot and gives the ticket back if another thread claimed that slot first, so a
// full table never fills its remaining slots with refused keys (which would make every
// later probe for a new key run through all of them).
template <int slots>
__device__ __forceinline__ bool shared_add_hashed(unsigned long long* keys, unsigned* counts, unsigned* used,
                                                  unsigned max_keys, unsigned long long h, unsigned count) {
  unsigned s = static_cast<unsigned>(h) & (slots - 1u);
  for (int probe = 0; probe < slots; ++probe) {  // (it ends sooner: see above)
    unsigned long long here = keys[s];
    if (here == hashed_empty_key) {  // h is not in the table (no key is ever removed)
      if (atomicAdd(used, 1u) >= max_keys) {
        atomicSub(used, 1u);
        return false;
      }
      here = atomicCAS(&keys[s], hashed_empty_key, h);
      if (here == hashed_empty_key) {
        here = h;
      } else {
        atomicSub(used, 1u);  // someone else's key: look at it below
      }
    }
    if (here == h) {
      atomicAdd(&counts[s], count);
      return true;
    }
    s = (s + 1u) & (slots - 1u);
  }
  return false;
}

}  // namespace counting::WB_TRACK::hash_table
