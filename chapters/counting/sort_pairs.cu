// The radix sort of sort_pairs.hpp.
#include <stdexcept>

#include "block_scan.cuh"
#include "sort_pairs.hpp"
#include "wb/kernel.hpp"

namespace counting::detail {

namespace {

constexpr int sort_threads = 256;                  // 8 warps
constexpr int sort_warps = sort_threads / 32;
constexpr int keys_per_lane = 8;
constexpr int keys_per_warp = 32 * keys_per_lane;  // 256, walked in 8 steps of 32
constexpr int tile_keys = sort_warps * keys_per_warp;  // 2048
constexpr int radix = 256;
constexpr int scan_threads = 1024;
constexpr int scan_items = 16;                      // entries a thread, per scan block
constexpr int scan_block_entries = scan_threads * scan_items;

__device__ __forceinline__ unsigned digit_of(std::uint64_t key, int shift) {
  return static_cast<unsigned>(key >> shift) & 0xFFu;
}

// 1. counts[d * tiles + tile] = keys of this tile whose digit is d.
__global__ void digit_count_kernel(const std::uint64_t* keys, std::int64_t count, int shift, unsigned* counts,
                                   std::int64_t tiles) {
  __shared__ unsigned histogram[radix];
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += sort_threads) histogram[d] = 0;
  __syncthreads();
  const std::int64_t tile = blockIdx.x;
  const std::int64_t begin = tile * tile_keys;
  for (int k = static_cast<int>(threadIdx.x); k < tile_keys; k += sort_threads) {
    if (begin + k < count) atomicAdd(&histogram[digit_of(keys[begin + k], shift)], 1u);
  }
  __syncthreads();
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += sort_threads) counts[d * tiles + tile] = histogram[d];
}

// 2a. sums[b] = sum of the entries of scan block b.
__global__ void scan_reduce_kernel(const unsigned* counts, std::int64_t entries, unsigned* sums) {
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * scan_block_entries;
  unsigned mine = 0;
  for (int k = 0; k < scan_items; ++k) {
    const std::int64_t i = begin + static_cast<std::int64_t>(k) * scan_threads + threadIdx.x;
    if (i < entries) mine += counts[i];
  }
  unsigned total = 0;
  detail::block_exclusive_scan<scan_threads>(mine, total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// 2b. The exclusive scan of scan block b's entries, starting at the sum of the blocks before
// it (each block adds those up itself: there are few).
__global__ void scan_down_kernel(unsigned* counts, std::int64_t entries, const unsigned* sums) {
  __shared__ unsigned offset;
  if (threadIdx.x == 0) {
    unsigned before = 0;
    for (unsigned b = 0; b < blockIdx.x; ++b) before += sums[b];
    offset = before;
  }
  __syncthreads();
  // Each thread owns scan_items consecutive entries.
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * scan_block_entries +
                             static_cast<std::int64_t>(threadIdx.x) * scan_items;
  unsigned values[scan_items];
  unsigned mine = 0;
  for (int k = 0; k < scan_items; ++k) {
    values[k] = begin + k < entries ? counts[begin + k] : 0u;
    mine += values[k];
  }
  unsigned total = 0;
  unsigned running = offset + detail::block_exclusive_scan<scan_threads>(mine, total);
  for (int k = 0; k < scan_items; ++k) {
    if (begin + k < entries) counts[begin + k] = running;
    running += values[k];
  }
}

// 3. Stable scatter of one tile. Warp w owns keys [w*256, (w+1)*256) of the tile and walks
// them in order, 32 at a time; within a step, lanes with equal digits are ranked by lane.
__global__ void scatter_kernel(const std::uint64_t* keys_in, const std::uint64_t* values_in, std::uint64_t* keys_out,
                               std::uint64_t* values_out, std::int64_t count, int shift, const unsigned* offsets,
                               std::int64_t tiles) {
  __shared__ unsigned warp_next[sort_warps][radix];  // where warp w's next key of digit d goes
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const std::int64_t tile = blockIdx.x;
  const std::int64_t warp_begin = tile * tile_keys + static_cast<std::int64_t>(warp) * keys_per_warp;
  const unsigned lanes_below = (1u << lane) - 1u;

  for (int i = static_cast<int>(threadIdx.x); i < sort_warps * radix; i += sort_threads) (&warp_next[0][0])[i] = 0;
  __syncthreads();

  std::uint64_t key[keys_per_lane];
  unsigned digit[keys_per_lane];
  for (int s = 0; s < keys_per_lane; ++s) {
    const std::int64_t i = warp_begin + s * 32 + lane;
    const bool valid = i < count;
    key[s] = valid ? keys_in[i] : 0;
    digit[s] = digit_of(key[s], shift);
    // Every lane takes part; a lane past the end matches no one (its own value above 255).
    const unsigned peers = __match_any_sync(0xffffffffu, valid ? digit[s] : 0x100u + lane);
    if (valid && (peers & lanes_below) == 0) warp_next[warp][digit[s]] += static_cast<unsigned>(__popc(peers));
    __syncwarp();
  }
  __syncthreads();
  // Thread d turns the per-warp counts of digit d into starting places: the global place of
  // (d, tile), then warp by warp.
  for (int d = static_cast<int>(threadIdx.x); d < radix; d += sort_threads) {
    unsigned place = offsets[d * tiles + tile];
    for (int w = 0; w < sort_warps; ++w) {
      const unsigned here = warp_next[w][d];
      warp_next[w][d] = place;
      place += here;
    }
  }
  __syncthreads();
  for (int s = 0; s < keys_per_lane; ++s) {
    const std::int64_t i = warp_begin + s * 32 + lane;
    const bool valid = i < count;
    const unsigned peers = __match_any_sync(0xffffffffu, valid ? digit[s] : 0x100u + lane);
    if (valid) {
      const unsigned place = warp_next[warp][digit[s]] + static_cast<unsigned>(__popc(peers & lanes_below));
      keys_out[place] = key[s];
      values_out[place] = values_in[i];
    }
    __syncwarp();  // every lane has read warp_next before the leader moves it on
    if (valid && (peers & lanes_below) == 0) warp_next[warp][digit[s]] += static_cast<unsigned>(__popc(peers));
    __syncwarp();
  }
}

std::int64_t tiles_for(std::int64_t count) { return wb::ceil_div(count, tile_keys); }
std::int64_t scan_blocks_for(std::int64_t entries) { return wb::ceil_div(entries, scan_block_entries); }

}  // namespace

std::size_t sort_pairs_scratch_bytes(std::int64_t count) {
  const std::int64_t entries = radix * tiles_for(count > 0 ? count : 1);
  return static_cast<std::size_t>(entries + scan_blocks_for(entries)) * sizeof(unsigned);
}

std::size_t exclusive_scan_scratch_bytes(std::int64_t entries) {
  return static_cast<std::size_t>(scan_blocks_for(entries > 0 ? entries : 1)) * sizeof(unsigned);
}

void exclusive_scan(unsigned* data, std::int64_t entries, void* scratch, cudaStream_t stream) {
  if (entries <= 0) return;
  const std::int64_t scan_blocks = scan_blocks_for(entries);
  auto* sums = static_cast<unsigned*>(scratch);
  wb::launch({static_cast<unsigned>(scan_blocks), scan_threads, 0, stream}, scan_reduce_kernel,
             static_cast<const unsigned*>(data), entries, sums);
  wb::launch({static_cast<unsigned>(scan_blocks), scan_threads, 0, stream}, scan_down_kernel, data, entries,
             static_cast<const unsigned*>(sums));
}

int sort_pairs(std::uint64_t* keys[2], std::uint64_t* values[2], std::int64_t count, std::uint64_t varying_bits,
               void* scratch, cudaStream_t stream) {
  if (count > 0xFFFFFFFFll) throw std::invalid_argument("sort_pairs: more than 2^32 - 1 pairs");
  int current = 0;
  if (count <= 1) return current;
  const std::int64_t tiles = tiles_for(count);
  const std::int64_t entries = radix * tiles;
  const std::int64_t scan_blocks = scan_blocks_for(entries);
  auto* counts = static_cast<unsigned*>(scratch);
  unsigned* sums = counts + entries;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((varying_bits >> shift) & 0xFFu) == 0) continue;  // every key has the same digit here
    wb::launch({static_cast<unsigned>(tiles), sort_threads, 0, stream}, digit_count_kernel, keys[current], count,
               shift, counts, tiles);
    wb::launch({static_cast<unsigned>(scan_blocks), scan_threads, 0, stream}, scan_reduce_kernel, counts, entries,
               sums);
    wb::launch({static_cast<unsigned>(scan_blocks), scan_threads, 0, stream}, scan_down_kernel, counts, entries,
               static_cast<const unsigned*>(sums));
    wb::launch({static_cast<unsigned>(tiles), sort_threads, 0, stream}, scatter_kernel, keys[current],
               values[current], keys[1 - current], values[1 - current], count, shift,
               static_cast<const unsigned*>(counts), tiles);
    current = 1 - current;
  }
  return current;
}

}  // namespace counting::detail
