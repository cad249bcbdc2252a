// The radix sort of sort_pairs.hpp: PMPP ch. 13's stable LSD radix sort, one kernel a pass
// as in Onesweep (Adinets & Merrill, 2022). Sequential specification of one pass, which the
// kernels below compute for a digit at bit `shift`:
//   place = exclusive prefix sums of the digit counts;
//   for i in 0 .. count-1: d = digit(key[i]); out[place[d]++] = (key[i], value[i]);
// A tile's keys of digit d go to place[d] + (keys of digit d in earlier tiles) + (their rank
// among the tile's keys of d, in input order): the three terms come from the histogram
// kernel, the look-back and the in-tile ranking.
#include <stdexcept>

#include "block_scan.cuh"
#include "sort_pairs.hpp"
#include "wb/check.hpp"
#include "wb/kernel.hpp"

namespace counting::detail {

namespace {

constexpr int radix_bits = 8;
constexpr int radix = 1 << radix_bits;            // 256 digits
constexpr int digit_positions = 64 / radix_bits;  // 8 passes at most

// Onesweep tiles: 8 warps, each owns 512 consecutive keys of the tile and walks them in 16
// steps of 32; 4096 keys (and values) a tile, held in registers from one load.
constexpr int sort_threads = 256;
constexpr int sort_warps = sort_threads / 32;
constexpr int keys_per_lane = 16;
constexpr int keys_per_warp = 32 * keys_per_lane;
constexpr int tile_keys = sort_warps * keys_per_warp;  // 4096
constexpr int slots_per_thread = tile_keys / sort_threads;
static_assert(sort_threads == radix, "one thread per digit (counts, look-back, places)");

constexpr int histogram_threads = 256;
constexpr int histogram_keys = 16;  // keys a thread: 4096 a block
constexpr int histogram_block_keys = histogram_threads * histogram_keys;

// A status word of the look-back: what a tile has published about one digit, kind and count
// in one 64-bit word, so a reader never sees one without the other. 62 bits of count hold
// any count up to 2^32 - 1; zero (the memset) means "nothing yet".
constexpr std::uint64_t status_aggregate = 1ull << 62;  // count: the digit's keys in this tile
constexpr std::uint64_t status_prefix = 2ull << 62;     // count: ... in this tile and all before
constexpr std::uint64_t status_count = (1ull << 62) - 1;
constexpr int look_back_window = 8;  // earlier tiles read at once, so their latencies overlap

// Scratch: [tile counter per pass | histograms [position][digit] | status [pass][tile][digit]],
// all zeroed by one memset.
constexpr std::size_t counters_bytes = 64;
constexpr std::size_t histogram_bytes = digit_positions * radix * sizeof(unsigned);
constexpr std::size_t header_bytes = counters_bytes + histogram_bytes;
static_assert(header_bytes % sizeof(std::uint64_t) == 0, "status words stay aligned");

constexpr int scan_threads = 1024;
constexpr int scan_items = 16;                      // entries a thread, per scan block
constexpr int scan_block_entries = scan_threads * scan_items;

__device__ __forceinline__ unsigned digit_of(std::uint64_t key, int shift) {
  return static_cast<unsigned>(key >> shift) & 0xFFu;
}

// The status words are written and polled by different blocks while both run: volatile, so
// every poll reads memory again (L2 on a GPU) instead of a register or L1 copy.
__device__ __forceinline__ std::uint64_t load_status(const std::uint64_t* p) {
  return *static_cast<const volatile std::uint64_t*>(p);
}
__device__ __forceinline__ void store_status(std::uint64_t* p, std::uint64_t word) {
  *static_cast<volatile std::uint64_t*>(p) = word;
}

// 1. histograms[p][d] += keys of this block's slice whose digit at position p is d, for every
// position p in position_mask: one read of the keys serves every pass.
__global__ void __launch_bounds__(histogram_threads)
    digit_histograms_kernel(const std::uint64_t* keys, std::int64_t count, unsigned position_mask,
                            unsigned* histograms) {
  __shared__ unsigned histogram[digit_positions][radix];
  for (int i = static_cast<int>(threadIdx.x); i < digit_positions * radix; i += histogram_threads) {
    (&histogram[0][0])[i] = 0;
  }
  __syncthreads();
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * histogram_block_keys;
  std::uint64_t key[histogram_keys];
  for (int k = 0; k < histogram_keys; ++k) {  // all loads first, so they are in flight together
    const std::int64_t i = begin + static_cast<std::int64_t>(k) * histogram_threads + threadIdx.x;
    key[k] = i < count ? keys[i] : 0;
  }
  for (int k = 0; k < histogram_keys; ++k) {
    if (begin + static_cast<std::int64_t>(k) * histogram_threads + threadIdx.x >= count) break;
    for (int p = 0; p < digit_positions; ++p) {
      if ((position_mask >> p) & 1u) atomicAdd(&histogram[p][digit_of(key[k], p * radix_bits)], 1u);
    }
  }
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < digit_positions * radix; i += histogram_threads) {
    const unsigned here = (&histogram[0][0])[i];
    if (here != 0) atomicAdd(&histograms[i], here);
  }
}

// The count of digit d in all tiles before `tile`: walk back from tile - 1 adding the
// aggregates, until a tile that has published its prefix. It spins only on EARLIER tiles:
// they took their ids first, so they are running (on the cpu backend: finished, or running on
// another OS thread) and publish their aggregate without waiting for anyone: no deadlock.
__device__ std::uint64_t look_back(const std::uint64_t* status, std::int64_t tile, int d) {
  std::uint64_t sum = 0;
  for (std::int64_t top = tile - 1;; top -= look_back_window) {
    std::uint64_t word[look_back_window];
    for (int k = 0; k < look_back_window; ++k) {  // before tile 0: a prefix of zero keys
      word[k] = top - k >= 0 ? load_status(status + (top - k) * radix + d) : status_prefix;
    }
    for (int k = 0; k < look_back_window; ++k) {
      while ((word[k] & ~status_count) == 0) word[k] = load_status(status + (top - k) * radix + d);
      sum += word[k] & status_count;
      if ((word[k] & status_prefix) != 0) return sum;
    }
  }
}

// 2. One pass: the digit at bit `shift` of every key, stable. histogram: this position's 256
// counts (all keys); status: this pass's [tile][digit] words; tile_counter: this pass's.
__global__ void __launch_bounds__(sort_threads, 2)
    onesweep_pass_kernel(const std::uint64_t* keys_in, const std::uint64_t* values_in, std::uint64_t* keys_out,
                         std::uint64_t* values_out, std::int64_t count, int shift, const unsigned* histogram,
                         std::uint64_t* status, unsigned* tile_counter) {
  __shared__ unsigned tile_id;
  __shared__ unsigned warp_place[sort_warps][radix];  // ranking: warp w's keys of digit d so far;
                                                      // then the tile slot of its first one
  __shared__ unsigned global_base[radix];             // key in tile slot j with digit d goes to
                                                      // global_base[d] + j (mod 2^32)
  __shared__ std::uint64_t staging[tile_keys];        // the tile in digit order: keys, then values
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const unsigned lanes_below = (1u << lane) - 1u;

  // Tiles in the order blocks start, not blockIdx: a tile's predecessors are all running.
  if (threadIdx.x == 0) tile_id = atomicAdd(tile_counter, 1u);
  for (int i = static_cast<int>(threadIdx.x); i < sort_warps * radix; i += sort_threads) (&warp_place[0][0])[i] = 0;
  __syncthreads();
  const std::int64_t tile = tile_id;
  const std::int64_t tile_begin = tile * tile_keys;
  const std::int64_t warp_begin = tile_begin + static_cast<std::int64_t>(warp) * keys_per_warp;

  // Lane l holds keys warp_begin + 32 s + l: coalesced loads, and (s, lane) order is input order.
  std::uint64_t key[keys_per_lane];
  std::uint64_t value[keys_per_lane];
  for (int s = 0; s < keys_per_lane; ++s) {
    const std::int64_t i = warp_begin + s * 32 + lane;
    key[s] = i < count ? keys_in[i] : 0;
    value[s] = i < count ? values_in[i] : 0;
  }

  // Rank within the warp: lanes with equal digits in a step are ranked by lane, steps in order.
  unsigned slot[keys_per_lane];
  for (int s = 0; s < keys_per_lane; ++s) {
    const bool valid = warp_begin + s * 32 + lane < count;
    const unsigned d = digit_of(key[s], shift);
    // Every lane takes part; a lane past the end matches no one (its own value above 255).
    const unsigned peers = __match_any_sync(0xffffffffu, valid ? d : 0x100u + static_cast<unsigned>(lane));
    slot[s] = warp_place[warp][d] + static_cast<unsigned>(__popc(peers & lanes_below));
    __syncwarp();  // every lane has read warp_place before the leader moves it on
    if (valid && (peers & lanes_below) == 0) warp_place[warp][d] += static_cast<unsigned>(__popc(peers));
    __syncwarp();
  }
  __syncthreads();

  // Thread d: digit d's keys in this tile, and before each warp's within it (warps in order).
  const int d = static_cast<int>(threadIdx.x);
  unsigned tile_count = 0;
  for (int w = 0; w < sort_warps; ++w) {
    const unsigned here = warp_place[w][d];
    warp_place[w][d] = tile_count;
    tile_count += here;
  }
  // Publish this tile's count at once, so later tiles can add it up before our prefix exists.
  std::uint64_t* mine = status + tile * radix + d;
  if (tile > 0) store_status(mine, status_aggregate | tile_count);
  const std::uint64_t before = look_back(status, tile, d);
  store_status(mine, status_prefix | (before + tile_count));

  unsigned total = 0;
  const unsigned tile_start = block_exclusive_scan<sort_threads>(tile_count, total);    // in the tile
  const unsigned digit_start = block_exclusive_scan<sort_threads>(histogram[d], total);  // in the output
  global_base[d] = digit_start + static_cast<unsigned>(before) - tile_start;  // wraps back in "+ j"
  for (int w = 0; w < sort_warps; ++w) warp_place[w][d] += tile_start;
  __syncthreads();

  // Stage the keys in digit order, then write them out in slot order: neighbours in shared
  // memory are neighbours in the output (runs of one digit), so the stores coalesce.
  for (int s = 0; s < keys_per_lane; ++s) {
    if (warp_begin + s * 32 + lane < count) {
      slot[s] += warp_place[warp][digit_of(key[s], shift)];
      staging[slot[s]] = key[s];
    }
  }
  __syncthreads();
  const std::int64_t left = count - tile_begin;
  const int tile_size = left < tile_keys ? static_cast<int>(left) : tile_keys;
  unsigned place[slots_per_thread];
  for (int k = 0; k < slots_per_thread; ++k) {
    const int j = k * sort_threads + static_cast<int>(threadIdx.x);
    if (j < tile_size) {
      const std::uint64_t k_out = staging[j];
      place[k] = global_base[digit_of(k_out, shift)] + static_cast<unsigned>(j);
      keys_out[place[k]] = k_out;
    }
  }
  __syncthreads();  // every key is read out before the values overwrite the staging area
  for (int s = 0; s < keys_per_lane; ++s) {
    if (warp_begin + s * 32 + lane < count) staging[slot[s]] = value[s];
  }
  __syncthreads();
  for (int k = 0; k < slots_per_thread; ++k) {
    const int j = k * sort_threads + static_cast<int>(threadIdx.x);
    if (j < tile_size) values_out[place[k]] = staging[j];
  }
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

std::int64_t tiles_for(std::int64_t count) { return wb::ceil_div(count > 0 ? count : 1, tile_keys); }
std::int64_t scan_blocks_for(std::int64_t entries) { return wb::ceil_div(entries, scan_block_entries); }
std::size_t status_bytes(std::int64_t passes, std::int64_t tiles) {
  return static_cast<std::size_t>(passes * tiles * radix) * sizeof(std::uint64_t);
}

}  // namespace

std::size_t sort_pairs_scratch_bytes(std::int64_t count) {
  return header_bytes + status_bytes(digit_positions, tiles_for(count));
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
  if (count <= 1) return 0;
  unsigned position_mask = 0;  // the digit positions some keys differ in: the passes
  int passes = 0;
  for (int p = 0; p < digit_positions; ++p) {
    if (((varying_bits >> (p * radix_bits)) & 0xFFu) != 0) {
      position_mask |= 1u << p;
      ++passes;
    }
  }
  if (passes == 0) return 0;  // all keys equal: already sorted (and stable)
  const std::int64_t tiles = tiles_for(count);
  auto* base = static_cast<unsigned char*>(scratch);
  auto* tile_counters = reinterpret_cast<unsigned*>(base);
  auto* histograms = reinterpret_cast<unsigned*>(base + counters_bytes);
  auto* status = reinterpret_cast<std::uint64_t*>(base + header_bytes);
  // Zero (= "nothing published") once for all passes: each pass has its own status words.
  WB_CHECK(cudaMemsetAsync(scratch, 0, header_bytes + status_bytes(passes, tiles), stream));
  wb::launch({static_cast<unsigned>(wb::ceil_div(count, histogram_block_keys)), histogram_threads, 0, stream},
             digit_histograms_kernel, static_cast<const std::uint64_t*>(keys[0]), count, position_mask, histograms);
  int current = 0;
  int pass = 0;
  for (int p = 0; p < digit_positions; ++p) {
    if (((position_mask >> p) & 1u) == 0) continue;  // every key has the same digit here
    wb::launch({static_cast<unsigned>(tiles), sort_threads, 0, stream}, onesweep_pass_kernel,
               static_cast<const std::uint64_t*>(keys[current]), static_cast<const std::uint64_t*>(values[current]),
               keys[1 - current], values[1 - current], count, p * radix_bits,
               static_cast<const unsigned*>(histograms + p * radix), status + pass * tiles * radix,
               tile_counters + pass);
    current = 1 - current;
    ++pass;
  }
  return current;
}

}  // namespace counting::detail
