// Stage 5, one pass: one block per tile counts, ranks and scatters its keys by one 8-bit
// digit, finding where its buckets go by a decoupled look-back over earlier tiles' counts.
// See onesweep.cu for the whole stage.
#pragma once

#include <cstdint>

#include "onesweep.hpp"
#include "sort.hpp"
#include "wb/async_copy.hpp"
#include "wb/device/block_scan.cuh"
#include "wb/device/decoupled_lookback.cuh"
#include "wb/device/grid_dependency.cuh"
#include "wb/kernel.hpp"

// onesweep_host.inl launches this track's plan, pass and few-digits kernels early, each
// overlapping the end of the kernel ahead (wb::launch_config's early_start): their every
// thread waits for that kernel to complete before it reads anything (wait_for_previous_grid).
#define SORT_ONESWEEP_KERNELS_WAIT 1

namespace sort::WB_TRACK {

using namespace sort::onesweep;

inline constexpr unsigned all_lanes = 0xffffffffu;

// The lanes of the warp whose digit equals this lane's.
template <peer_method Peers>
__device__ __forceinline__ unsigned same_digit_lanes(unsigned digit) {
  if constexpr (Peers == peer_method::match_any) {
    return __match_any_sync(all_lanes, digit);
  } else {
    unsigned peers = all_lanes;
#pragma unroll
    for (int b = 0; b < onesweep_bits; ++b) {
      const bool bit = ((digit >> b) & 1u) != 0;
      const unsigned vote = __ballot_sync(all_lanes, bit);
      peers &= bit ? vote : ~vote;
    }
    return peers;
  }
}


// The shared memory of a pass block besides the dynamic area.
// Kept here rather than in registers, so the keys and their slots have the registers.
struct pass_shared {
  pass_plan plan;
  unsigned tile_number;
  unsigned first_digit;  // (Shape::one_digit_tiles) the digit of the tile's first key
  unsigned warp_totals[radix / 32];
  unsigned tile_count[radix];    // the tile's keys of digit d
  unsigned tile_start[radix];    // where they start in the tile
  long long global_base[radix];  // the key in staging slot j with digit d goes to global_base[d] + j
  void* key_bucket[radix];        // (bucket pointers) &dst_keys[global_base[d]]
  void* value_bucket[radix];      // (bucket pointers, values) &dst_values[global_base[d]]
};

// (Keys with values) Starts copying the tile's `valid` values to shared memory without passing
// them through registers: 16 bytes a cp.async where the source is aligned to 16 bytes (every
// tile starts a multiple of 4 values in), else, and for the last 1-3 values of the last tile
// (a cp.async of 16 bytes would reach past the end), one value a load.
template <class Shape>
__device__ __forceinline__ void start_value_copy(const std::uint32_t* src, std::uint32_t* dst, int valid, int tid) {
  int loaded = 0;  // values copied by cp.async
  if (reinterpret_cast<std::uintptr_t>(src) % 16 == 0) {
    for (int c = tid; c < valid / 4; c += Shape::block) wb::cp_async_16(dst + 4 * c, src + 4 * c);
    wb::cp_async_commit();
    loaded = valid / 4 * 4;
  }
  for (int i = loaded + tid; i < valid; i += Shape::block) dst[i] = src[i];
}

// One tile of a pass (Full: all Shape::tile keys present, so no bounds checks).
template <class K, bool Pairs, class Shape, bool Full>
__device__ __forceinline__ void sort_tile(const pass_args& a, pass_shared& sh, std::int64_t tile, int valid) {
  using U = bits_of<K>;
  constexpr int block = Shape::block;
  constexpr int items = Shape::items;
  constexpr int warps = Shape::warps;
  constexpr int tile_keys = Shape::tile;
  const K* src_keys = static_cast<const K*>(sh.plan.src_keys);
  // [warp][counter_index(digit)]: the warp's count, then its next slot
  unsigned* warp_slot = wb::dynamic_shared<unsigned>();
  // The tile in digit order (slot j at Shape::staging_index(j)): over the counters once every
  // key is ranked, or beside them.
  U* staging = Shape::direct_staging ? reinterpret_cast<U*>(warp_slot + Shape::counter_words) : wb::dynamic_shared<U>();
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const std::int64_t tile_begin = a.portion_begin + tile * tile_keys;
  const unsigned byte_selector = static_cast<unsigned>(a.shift >> 3) | 0x4440u;  // that byte, zeros above
  auto digit = [&](U bits) {
    if constexpr (Shape::byte_digits && sizeof(U) == 4) {
      return __byte_perm(static_cast<unsigned>(bits), 0u, byte_selector);
    } else {
      return digit_of(bits, a.shift, onesweep_bits);
    }
  };

  // Warp w holds the tile's keys [w * 32 * items, (w + 1) * 32 * items), lane l the ones at
  // 32 s + l: coalesced loads, and (warp, step, lane) order is input order. Past the end
  // (the last tile): padding, ranked after every real key of its warp and never written.
  const int warp_first = warp * 32 * items + lane;
  auto present = [&](int s) { return Full || warp_first + 32 * s < valid; };
  // Keys with values: the values travel to shared memory (after the staging area) while the
  // keys are ranked, and are read back from there once the keys are written out.
  auto* const tile_values =
      reinterpret_cast<std::uint32_t*>(reinterpret_cast<unsigned char*>(warp_slot) + Shape::staged_bytes(sizeof(U)));
  U key[items];
#pragma unroll
  for (int s = 0; s < items; ++s) {
    key[s] = present(s) ? key_bits<K>::to_bits(src_keys[tile_begin + warp_first + 32 * s]) : ~U{0};
  }
  if constexpr (Pairs) start_value_copy<Shape>(sh.plan.src_values + tile_begin, tile_values, valid, tid);

  // Early counts: each warp counts its keys per digit (shared atomics on its own counters,
  // digit d's at Shape::counter_index(d)).
#pragma unroll
  for (int s = 0; s < items; ++s) {
    if (present(s)) atomicAdd(&warp_slot[warp * radix + Shape::counter_index(digit(key[s]))], 1u);
  }
  if (Shape::one_digit_tiles && tid == 0) sh.first_digit = digit(key[0]);
  __syncthreads();

  // Thread d: digit d's keys in the tile, published at once (later tiles can add them up
  // while this one ranks), and where each warp's keys of digit d start (warps in order).
  auto status = [&] {  // this pass's status words of this portion
    unsigned* const words = sh.plan.status_array == 0 ? a.status[0] : a.status[1];
    return wb::device::tile_counter_status{words + a.first_tile * radix, radix};
  };
  unsigned count = 0;
  const unsigned my_counter = Shape::counter_index(static_cast<unsigned>(tid));
  if (tid < radix) {
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      const unsigned here = warp_slot[w * radix + my_counter];
      warp_slot[w * radix + my_counter] = count;
      count += here;
    }
    status().publish(tile, tid, tile == 0 ? wb::device::tile_inclusive : wb::device::tile_partial, count);
    sh.tile_count[tid] = count;
  }
  const unsigned start_in_tile =
      wb::device::block_exclusive_sum<radix, false>(count, sh.warp_totals);  // where digit d starts in the tile
  if (tid < radix) {
    sh.tile_start[tid] = start_in_tile;
#pragma unroll
    for (int w = 0; w < warps; ++w) warp_slot[w * radix + my_counter] += start_in_tile;
  }
  __syncthreads();
  // A tile whose keys all share one digit is in digit order already: each key is staged where
  // it is, without ranking (CUB's short path). On few distinct keys most tiles of the later
  // passes are like this; on keys nearly in order, those of the high digits.
  const bool one_digit =
      Shape::one_digit_tiles && a.one_digit_tiles && sh.tile_count[sh.first_digit] == static_cast<unsigned>(valid);

  // Rank within the warp, step by step: the lanes with the same digit in one step take
  // consecutive slots, in lane order; the highest of them moves the warp's next slot on.
  constexpr bool keep_slots = Pairs || !Shape::direct_staging;  // values are staged later, by the same slots
  unsigned slot[items];  // (keep_slots) where each key went; otherwise unused and optimized away
  unsigned* my_slot = warp_slot + warp * radix;
  const unsigned lanes_up_to_me = 0xffffffffu >> (31 - lane);
  unsigned previous = 0;
  if (one_digit) {
#pragma unroll
    for (int s = 0; s < items; ++s) {
      const unsigned in_place = static_cast<unsigned>(warp_first + 32 * s);
      if constexpr (keep_slots) slot[s] = in_place;
      if constexpr (Shape::direct_staging) {
        if (present(s)) staging[Shape::staging_index(in_place)] = key[s];
      }
    }
  } else {
#pragma unroll
    for (int s = 0; s < items; ++s) {
      unsigned counter = Shape::counter_index(digit(key[s]));  // one to one with the digit
#if defined(WB_BACKEND_CUDA)
      // 32-bit keys: step s starts after step s - 1 (an empty asm the compiler cannot see
      // through). The compiler would otherwise compute every step's peers at once and need
      // more registers than three blocks of 384 threads an SM leave (56). 64-bit keys run two
      // blocks an SM, where the overlap of steps pays with the ballots (with match_any, and in
      // the spread tiles, it spills).
      if constexpr (sizeof(U) == 4 || Shape::peers == peer_method::match_any || Shape::spread) {
        asm volatile("" : "+r"(counter) : "r"(previous));
      }
#else
      (void)previous;
#endif
      unsigned peers;
      unsigned* const my_mask = warp_slot + (warps + warp) * radix + counter;  // (shared_or) after the counters
      if constexpr (Shape::peers == peer_method::shared_or) {
        // Each lane ors its bit into its warp's mask word of its digit; once the warp has
        // synced, the word holds exactly the lanes of this step with that digit.
        if constexpr (sizeof(U) == 4 && !Shape::one_digit_tiles) {
          // The 4-byte long tiles, which have no short path for tiles of one digit: the lanes
          // that share lane 0's digit find each other by one ballot and only the others or
          // their bits. On a bucket of one hot key with a few strays, 32 atomicOrs on one
          // word would wait on each other; here only the strays' do.
          const unsigned lead = __shfl_sync(all_lanes, counter, 0);
          const unsigned with_lead = __ballot_sync(all_lanes, counter == lead);
          if (counter != lead) atomicOr(my_mask, 1u << lane);
          __syncwarp();
          peers = counter == lead ? with_lead : *static_cast<volatile unsigned*>(my_mask);
        } else {
          atomicOr(my_mask, 1u << lane);
          __syncwarp();
          peers = *static_cast<volatile unsigned*>(my_mask);
        }
      } else {
        peers = same_digit_lanes<Shape::peers>(counter);
      }
      const int leader = 31 - __clz(static_cast<int>(peers));
      const unsigned up_to_me = static_cast<unsigned>(__popc(peers & lanes_up_to_me));
      unsigned first = 0;
      if (lane == leader) first = atomicAdd(&my_slot[counter], static_cast<unsigned>(__popc(peers)));
      first = __shfl_sync(all_lanes, first, leader);
      if constexpr (Shape::peers == peer_method::shared_or) {
        // Every lane has read its mask (the shuffle waited for all of them): clear it for the next step.
        if (lane == leader) *my_mask = 0;
        __syncwarp();
      }
      const unsigned my_slot_now = first + up_to_me - 1u;
      if constexpr (keep_slots) slot[s] = my_slot_now;
      if constexpr (Shape::direct_staging) {
        if (present(s)) staging[Shape::staging_index(my_slot_now)] = key[s];  // at once: no register
      }
      previous = first;
    }
  }
  if constexpr (!Shape::direct_staging) {
    __syncthreads();  // every slot taken before staging overwrites the counters
    // Stage the tile in digit order (then write it out slot by slot: neighbouring threads
    // hold neighbouring keys of one bucket, so the stores coalesce).
#pragma unroll
    for (int s = 0; s < items; ++s) {
      if (present(s)) staging[Shape::staging_index(slot[s])] = key[s];
    }
  }

  // Thread d: digit d's keys in all earlier tiles of this portion (the look-back, reading 4
  // predecessors at once: on an H100 one at a time was 10% slower, 8 no faster), hence where
  // the tile's run of digit d goes in the output.
  if (tid < radix) {
    const unsigned tile_count = sh.tile_count[tid];
    const unsigned before =
        wb::device::tile_counter_exclusive_prefix<4>(status(), tile, tid, tile_count);
    const std::uint64_t start = a.base_in[tid] + before;
    if (tile == a.portion_tiles - 1) a.base_out[tid] = start + tile_count;  // the next portion starts here
    const long long global_base = static_cast<long long>(start) - static_cast<long long>(sh.tile_start[tid]);
    sh.global_base[tid] = global_base;
    if constexpr (Shape::bucket_pointers) {
      sh.key_bucket[tid] = static_cast<K*>(sh.plan.dst_keys) + global_base;
      if constexpr (Pairs) sh.value_bucket[tid] = sh.plan.dst_values + global_base;
    }
    // The next sorting pass's status array: the last one's words, cleared row by row.
    unsigned* const next_status = sh.plan.status_array == 0 ? a.status[1] : a.status[0];
    next_status[(a.first_tile + tile) * radix + tid] = 0;
  }
  __syncthreads();
  K* dst_keys = static_cast<K*>(sh.plan.dst_keys);
  unsigned out_digit[Pairs ? items : 1];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int j = k * block + tid;
    if (Full || j < valid) {
      const U bits = staging[Shape::staging_index(j)];
      const unsigned d = digit(bits);
      if constexpr (Pairs) out_digit[k] = d;
      if constexpr (Shape::bucket_pointers) {
        static_cast<K*>(sh.key_bucket[d])[j] = key_bits<K>::from_bits(bits);
      } else {
        dst_keys[sh.global_base[d] + j] = key_bits<K>::from_bits(bits);
      }
    }
  }
  if constexpr (Pairs) {
    auto* staging_values = reinterpret_cast<std::uint32_t*>(staging);
    wb::cp_async_wait<0>();  // this thread's copies of the values have landed
    __syncthreads();         // every thread's have, and every key is read out of the staging area
#pragma unroll
    for (int s = 0; s < items; ++s) {
      if (present(s)) staging_values[slot[s]] = tile_values[warp_first + 32 * s];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int j = k * block + tid;
      if (Full || j < valid) {
        if constexpr (Shape::bucket_pointers) {
          static_cast<std::uint32_t*>(sh.value_bucket[out_digit[k]])[j] = staging_values[j];
        } else {
          sh.plan.dst_values[sh.global_base[out_digit[k]] + j] = staging_values[j];
        }
      }
    }
  }
}

// 3. One pass over one portion: see the top of the file. Shared memory (Shape::shared_bytes):
// Shape::counter_words unsigned (each warp's digit counts, then where its keys of each digit
// go in the tile), the staging area of the tile beside or over them (keys, then values), and
// (keys with values) the tile's values in input order.
template <class K, bool Pairs, class Shape>
__global__ void __launch_bounds__(Shape::block, Shape::min_blocks) onesweep_pass_kernel(const pass_args a) {
  constexpr int block = Shape::block;
  constexpr int tile_keys = Shape::tile;
  // Launched early (onesweep_host.inl): nothing is read before the kernel ahead is complete.
  wb::device::wait_for_previous_grid();
  const int mode = a.plan->mode;
  bool theirs = false;  // the few-digits kernel's pass (asked before mode is tested: one wait for memory)
  if constexpr (few_digits_kernel_for(Pairs)) theirs = few_digits_pass(*a.plan, a);
  if ((mode == pass_skip) | theirs) return;
  const int tid = static_cast<int>(threadIdx.x);
  if (mode == pass_copy) {  // every pass skipped: the output is the input
    const pass_plan plan = *a.plan;
    const K* src_keys = static_cast<const K*>(plan.src_keys);
    K* dst_keys = static_cast<K*>(plan.dst_keys);
    const std::int64_t begin = a.portion_begin + static_cast<std::int64_t>(blockIdx.x) * tile_keys;
    const std::int64_t end = begin + tile_keys < a.n ? begin + tile_keys : a.n;
    for (std::int64_t i = begin + tid; i < end; i += block) {
      dst_keys[i] = src_keys[i];
      if constexpr (Pairs) plan.dst_values[i] = plan.src_values[i];
    }
    return;
  }
  __shared__ pass_shared sh;
  unsigned* warp_slot = wb::dynamic_shared<unsigned>();
  // A tile number in the order blocks start: every earlier tile belongs to a running block.
  if (tid == 0) {
    sh.tile_number = atomicAdd(a.tile_counter, 1u);
    sh.plan = *a.plan;
  }
  for (int i = tid; i < Shape::counter_words; i += block) warp_slot[i] = 0;
  __syncthreads();
  const std::int64_t tile = sh.tile_number;
  const std::int64_t left = a.n - (a.portion_begin + tile * tile_keys);
  if (left >= tile_keys) {
    sort_tile<K, Pairs, Shape, true>(a, sh, tile, tile_keys);
  } else {
    sort_tile<K, Pairs, Shape, false>(a, sh, tile, static_cast<int>(left));
  }
}

}  // namespace sort::WB_TRACK
