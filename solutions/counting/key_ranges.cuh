// The two-level count's buckets by key range (two_level_count.cuh). Where the sample says the
// keys spread evenly over [min, max] (their buckets by VALUE hold about as many sampled keys
// each), the buckets are ranges of keys instead of ranges of hashes: bucket b holds the keys of
// [min + b (max - min + 1) / B, ...). Then each bucket's (key, count) pairs, sorted inside its
// block, are a slice of the finished table, and no sort of all the pairs is needed (as a
// sample sort's buckets are, PMPP ch. 13; keys below the sample's min go to bucket 0, above
// its max to the last). Skewed keys (zipf-like: most of them in the first buckets) get
// buckets by hash, which spread any keys evenly.
#pragma once

#include <cmath>
#include <cstdint>

#include "hash_count_state.cuh"
#include "hash_sample.hpp"

namespace counting::WB_TRACK {

namespace {

// mult == 0: buckets by hash.
struct range_map {
  unsigned long long min = 0;
  unsigned long long mult = 0;  // floor(2^64 B / (max - min + 1)), or B when that is 2^64
};

__host__ __device__ __forceinline__ unsigned range_bucket(unsigned long long u, range_map m, unsigned buckets) {
  if (u <= m.min) return 0;
#if defined(__CUDA_ARCH__)
  const unsigned long long b = __umul64hi(u - m.min, m.mult);
#else
  const auto b = static_cast<unsigned long long>((static_cast<unsigned __int128>(u - m.min) * m.mult) >> 64);
#endif
  return b < buckets ? static_cast<unsigned>(b) : buckets - 1u;
}

// The sampled items per range bucket, from the sample's table, less those of hot keys (seen
// `hot_sample_count` times or more, 0: none; the scatter counts them, they fill no bucket):
// `sampled` (zero before) gets every block's counts, then one block finds the most in one
// bucket and the total, and decides: buckets by key range (the map in state->range_min,
// range_mult) where no bucket has more than the average plus 6 standard deviations (and 8
// items), else by hash (range_mult 0). The decision stays on the device: the kernels after
// it read it there, so the host waits for nothing before the scatter.
constexpr int range_check_threads = 1024;
constexpr int range_check_blocks = 32;
__global__ void __launch_bounds__(range_check_threads)
    range_check_kernel(ht::table_view<unsigned> sample_table, unsigned hot_sample_count, range_map m,
                       unsigned buckets, unsigned long long* sampled) {
  __shared__ unsigned here[1 << 12];
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads) here[b] = 0;
  __syncthreads();
  for (std::int64_t i = wb::global_thread_index(); i < static_cast<std::int64_t>(sample_table.capacity);
       i += wb::grid_thread_count()) {
    const unsigned long long u = sample_table.keys[i];
    const unsigned c = sample_table.counts[i];
    if (u != ht::empty_key && (hot_sample_count == 0 || c < hot_sample_count))
      atomicAdd(&here[range_bucket(u, m, buckets)], c);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads)
    if (here[b] > 0) atomicAdd(&sampled[b], static_cast<unsigned long long>(here[b]));
}

__global__ void __launch_bounds__(range_check_threads)
    range_most_kernel(const unsigned long long* sampled, unsigned buckets, range_map candidate, table_state* state) {
  __shared__ unsigned long long most, total;
  if (threadIdx.x == 0) most = total = 0;
  __syncthreads();
  unsigned long long mine = 0, sum = 0;
  for (unsigned b = threadIdx.x; b < buckets; b += range_check_threads) {
    mine = sampled[b] > mine ? sampled[b] : mine;
    sum += sampled[b];
  }
  for (int d = 16; d > 0; d >>= 1) {  // each warp first, so that 32 lanes do not queue on one shared word
    const unsigned long long m = __shfl_xor_sync(0xffffffffu, mine, d);
    mine = m > mine ? m : mine;
    sum += __shfl_xor_sync(0xffffffffu, sum, d);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&most, mine);
    atomicAdd(&total, sum);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const double average = static_cast<double>(total) / static_cast<double>(buckets);
    const bool even = static_cast<double>(most) <= average + 6 * sqrt(average) + 8;
    state->range_min = candidate.min;
    state->range_mult = even ? candidate.mult : 0;
  }
}

__device__ __forceinline__ range_map range_decided(const table_state* state) {
  return {state->range_min, state->range_mult};
}

// The map to check for 2^bucket_bits buckets over the sample's [min, max], or mult == 0 where
// there is none to check (no sample, fewer values than buckets, or key ranges turned off).
range_map range_candidate(const sample_summary& s, int bucket_bits, bool key_ranges) {
  if (s.samples == 0 || s.seen < 2 || !key_ranges) return {};
  const auto buckets = static_cast<unsigned long long>(1) << bucket_bits;
  const unsigned long long span = s.max - s.min;  // max - min + 1 values
  if (span < buckets) return {};                  // (fewer values than buckets)
  range_map m;
  m.min = s.min;
  m.mult = span == ~0ull ? buckets
                         : static_cast<unsigned long long>((static_cast<unsigned __int128>(buckets) << 64) / (span + 1));
  return m;
}

}  // namespace

}  // namespace counting::WB_TRACK
