// Block-level pieces of stage 7's shared-memory paths (shared_tables.cuh, the two-level
// count's bucket tables and spill cache): hash tables in a block's shared memory.
//
// The tables work on HASHES, h = mix(u): a key's slot in a shared-memory table is the LOW bits of
// h; where the two-level count's buckets are ranges of hashes, a key's bucket is the TOP bits
// of h, so every bucket gets about the same number of distinct keys whatever the keys look
// like (and the slot is independent of the bucket). The empty slot is the hash of the empty
// key, so the one key whose hash it is, INT64_MAX, is still the one counted on the side.
#pragma once

#include "hash_table.cuh"

namespace counting::WB_TRACK::hash_table {

// The hash mix() is a bijection (each of its steps can be undone), so the hash of a key can
// stand for the key: unmix gives the key back. The shared tables and the two-level count
// store hashes and unmix them when they write their pairs.
__host__ __device__ __forceinline__ constexpr unsigned long long unmix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0x9cb4b2f8129337dbull;  // the inverse of 0xc4ceb9fe1a85ec53 modulo 2^64
  x ^= x >> 33;
  x *= 0x4f74430c22a54005ull;  // the inverse of 0xff51afd7ed558ccd modulo 2^64
  x ^= x >> 33;
  return x;
}
static_assert(unmix(mix(0x0123456789abcdefull)) == 0x0123456789abcdefull && unmix(mix(empty_key)) == empty_key);

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
