// The sorted end of stage 7 (distinct_table.hpp), on the sort chapter's onesweep radix sort
// (stage 5) and the scan chapter's single-pass scan (stage 6): PMPP ch. 13 and ch. 11.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "distinct_table.hpp"
#include "phase_clock.hpp"
#include "onesweep.hpp"
#include "scan.hpp"
#include "sort.hpp"
#include "wb/check.hpp"
#include "wb/device/block_scan.cuh"
#include "wb/kernel.hpp"
#include "wb/workspace.hpp"

namespace counting::detail {

static_assert(few_digit_values == sort::onesweep::match_digits, "the sort's few-digits kernel's limit");

namespace {

constexpr int block = 256;
constexpr unsigned long long sign_bit = 1ull << 63;

unsigned grid_for(std::int64_t work) {
  const std::int64_t fill = static_cast<std::int64_t>(wb::multiprocessor_count()) * (2048 / block);
  const std::int64_t needed = wb::ceil_div(work > 0 ? work : 1, block);
  return static_cast<unsigned>(needed < fill ? needed : fill);
}

// The sort chapter's stage 5 (8-bit digits), its few-digits kernel from 2^22 keys on, as for
// 4-byte keys: the keys this chapter sorts are mostly new ones (its plan sorts where most keys
// are), whose passes take every digit value, and at 2^20 the kernel's launch beside every pass
// would cost them 0.01 ms. Its short tiles (ranked by ballots, as fast where many keys share a
// digit as where none do) up to 2^20 keys, its long ones (shared_or: faster on spread digits,
// slower on shared ones) from there: up to 2^20 items stage 7 sorts its hot keys with the rest
// (it sets them aside from 2^21 items), and at 2^20 items of which half are 16 hot keys the
// short tiles sort 0.02 ms faster; from 2^21 items the keys it sorts are mostly new ones.
sort::config sort_config() {
  sort::config cfg;
  cfg.onesweep_few_digits_from = std::int64_t{1} << 22;
  cfg.onesweep_long_tiles_from = (std::int64_t{1} << 20) + 1;
  return cfg;
}
scan::config scan_config() {
  scan::config c;
  c.exclusive = true;
  return c;
}

// The pairs become (signed key, value) for the sort (the sort orders int64 keys itself): the
// value is the pair's count where counts fit in 32 bits (`narrow_counts`: given), else its
// index, and the count is gathered by it after the sort (a random read per pair: at 2^24
// pairs a third of the sort's time on an H100).
__global__ void unflip_kernel(const unsigned long long* flipped, const unsigned long long* narrow_counts,
                              std::int64_t pairs, std::int64_t* keys, std::uint32_t* values) {
  for (std::int64_t i = wb::global_thread_index(); i < pairs; i += wb::grid_thread_count()) {
    keys[i] = static_cast<std::int64_t>(flipped[i] ^ sign_bit);
    values[i] = narrow_counts != nullptr ? static_cast<std::uint32_t>(narrow_counts[i]) : static_cast<std::uint32_t>(i);
  }
}

// The count of sorted pair i: its value, or (counts given) the count at its index.
__device__ __forceinline__ unsigned long long count_of(const std::uint32_t* values, const unsigned long long* counts,
                                                       std::int64_t i) {
  return counts != nullptr ? counts[values[i]] : values[i];
}

// One pair per key: the sorted keys and their counts, gathered by index.
__global__ void gather_kernel(const std::int64_t* keys, const std::uint32_t* index, const unsigned long long* counts,
                              std::int64_t pairs, unsigned long long sentinel_count, device_table<std::int64_t> out) {
  for (std::int64_t i = wb::global_thread_index(); i < pairs; i += wb::grid_thread_count()) {
    out.values[i] = keys[i];
    out.counts[i] = count_of(index, counts, i);
  }
  if (wb::global_thread_index() == 0) {
    std::int64_t size = pairs;
    if (sentinel_count > 0) {
      out.values[size] = std::numeric_limits<std::int64_t>::max();
      out.counts[size] = sentinel_count;
      ++size;
    }
    *out.size = size;
  }
}

// Up to 4096 pairs (the few-distinct-keys case) are sorted by one block in shared memory, a
// bitonic sorting network (PMPP §13.7's merge idea, Batcher 1968), instead of 8 radix passes
// of a few keys each. Pairs are ordered by (key, index) and padded with (INT64_MAX, ~0u),
// which sorts after every pair, so their first `pairs` places are the sorted pairs.
constexpr int small_sort_threads = 1024;
constexpr int small_sort_max = 4096;

__global__ void __launch_bounds__(small_sort_threads)
    small_sort_kernel(const unsigned long long* flipped, std::int64_t pairs, std::int64_t* keys_out,
                      std::uint32_t* index_out) {
  __shared__ std::int64_t keys[small_sort_max];
  __shared__ std::uint32_t index[small_sort_max];
  int size = 2;
  while (size < pairs) size *= 2;
  for (int i = static_cast<int>(threadIdx.x); i < size; i += small_sort_threads) {
    const bool real = i < pairs;
    keys[i] = real ? static_cast<std::int64_t>(flipped[i] ^ sign_bit) : std::numeric_limits<std::int64_t>::max();
    index[i] = real ? static_cast<std::uint32_t>(i) : ~0u;
  }
  __syncthreads();
  for (int k = 2; k <= size; k *= 2) {
    for (int j = k / 2; j > 0; j /= 2) {
      for (int i = static_cast<int>(threadIdx.x); i < size; i += small_sort_threads) {
        const int partner = i ^ j;
        if (partner > i) {
          const bool ascending = (i & k) == 0;
          const bool greater = keys[i] > keys[partner] || (keys[i] == keys[partner] && index[i] > index[partner]);
          if (greater == ascending) {
            const std::int64_t kk = keys[i];
            keys[i] = keys[partner];
            keys[partner] = kk;
            const std::uint32_t ii = index[i];
            index[i] = index[partner];
            index[partner] = ii;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = static_cast<int>(threadIdx.x); i < pairs; i += small_sort_threads) {
    keys_out[i] = keys[i];
    index_out[i] = index[i];
  }
}

// heads[i] = 1 where a run of equal sorted keys starts (its exclusive scan: the run's place).
__global__ void run_heads_kernel(const std::int64_t* sorted, std::int64_t count, std::int64_t* heads) {
  for (std::int64_t i = wb::global_thread_index(); i < count; i += wb::grid_thread_count())
    heads[i] = i == 0 || sorted[i] != sorted[i - 1] ? 1 : 0;
}

// Where several pairs share a key: the head of each run adds up the run's counts (a run is
// at most a few pairs long: one per table a key was counted in).
__global__ void sum_runs_kernel(const std::int64_t* keys, const std::uint32_t* index, const unsigned long long* counts,
                                std::int64_t pairs, const std::int64_t* places, unsigned long long sentinel_count,
                                device_table<std::int64_t> out) {
  for (std::int64_t i = wb::global_thread_index(); i < pairs; i += wb::grid_thread_count()) {
    const bool head = i == 0 || keys[i] != keys[i - 1];
    if (head) {
      unsigned long long total = count_of(index, counts, i);
      for (std::int64_t j = i + 1; j < pairs && keys[j] == keys[i]; ++j) total += count_of(index, counts, j);
      out.values[places[i]] = keys[i];
      out.counts[places[i]] = total;
    }
    if (i == pairs - 1) {
      std::int64_t size = places[i] + (head ? 1 : 0);
      if (sentinel_count > 0) {
        out.values[size] = std::numeric_limits<std::int64_t>::max();
        out.counts[size] = sentinel_count;
        ++size;
      }
      *out.size = size;
    }
  }
}

// Run-length encoding of all n sorted keys in two reads of them: (1) per tile of 4096 keys,
// how many runs start in it and where the first one starts; (2) one block scans the tiles'
// numbers: an exclusive sum of the counts gives each tile's first place, and a minimum from
// the right gives, for each tile, where the next run after it starts; (3) per tile again,
// each thread finds the run heads among its 16 consecutive keys, a block scan gives their
// places, and each head's length is the distance to the next head: in the thread's keys, in a
// later thread's (a minimum from the right across the block), or in a later tile (from step
// 2). The keys stream through shared memory so that the loads stay coalesced.
constexpr int rle_threads = 256;
constexpr int rle_items = 16;  // consecutive keys a thread owns in step 3
constexpr int rle_tile = rle_threads * rle_items;

// Step 3's place in shared memory of the tile's key (or run) j: one empty place after every
// 16. Thread t reads keys 16t .. 16t + 15, so at step k the 16 lanes of a half-warp (one
// 8-byte access) would otherwise read places 16 apart, all in one bank: 16 accesses one after
// another. Padded, lane t reads place 17t + k: 16 different banks.
__device__ __forceinline__ int padded(int j) { return j + j / 16; }
constexpr int rle_padded_tile = rle_tile + rle_tile / 16;

__global__ void __launch_bounds__(rle_threads)
    tile_heads_kernel(const std::int64_t* sorted, std::int64_t n, std::int64_t* head_counts, std::int64_t* first_head) {
  __shared__ unsigned long long count;
  __shared__ unsigned long long first;
  if (threadIdx.x == 0) {
    count = 0;
    first = static_cast<unsigned long long>(n);
  }
  __syncthreads();
  const std::int64_t start = static_cast<std::int64_t>(blockIdx.x) * rle_tile;
  // Every load first, then the comparisons: the 32 loads are in flight together (a few blocks
  // an SM at 2^20 keys, so one load at a time would leave the kernel waiting on each).
  std::int64_t key[rle_items], previous[rle_items];
#pragma unroll
  for (int k = 0; k < rle_items; ++k) {
    const std::int64_t i = start + k * rle_threads + static_cast<int>(threadIdx.x);
    key[k] = i < n ? sorted[i] : 0;
    previous[k] = i > 0 && i < n ? sorted[i - 1] : 0;
  }
  unsigned mine = 0;
  std::int64_t my_first = n;
#pragma unroll
  for (int k = 0; k < rle_items; ++k) {
    const std::int64_t i = start + k * rle_threads + static_cast<int>(threadIdx.x);
    if (i < n && (i == 0 || key[k] != previous[k])) {
      ++mine;
      if (i < my_first) my_first = i;
    }
  }
  // A warp's sum and minimum first, then one shared atomic a warp (one a thread serialized
  // 256 atomics on one word where every key is a run).
  mine = __reduce_add_sync(0xffffffffu, mine);
  for (int d = 16; d > 0; d >>= 1) {
    const std::int64_t other = __shfl_xor_sync(0xffffffffu, my_first, d);
    my_first = other < my_first ? other : my_first;
  }
  if ((threadIdx.x & 31) == 0 && mine > 0) {
    atomicAdd(&count, static_cast<unsigned long long>(mine));
    atomicMin(&first, static_cast<unsigned long long>(my_first));
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    head_counts[blockIdx.x] = static_cast<std::int64_t>(count);
    first_head[blockIdx.x] = static_cast<std::int64_t>(first);
  }
}

// Step 2, one block of places_threads threads, each owning places_items consecutive tiles of
// a chunk: tile_places[t], the exclusive sum of the head counts (where tile t's first run
// goes in the output), walking the chunks from the left; next_after[t], the first run head
// after tile t (n if none), walking them from the right. A run head's position grows with its
// tile, so the first head after t is the smallest first_head of the tiles after it. (A
// thread's tiles are summed in registers, so a chunk of 4096 tiles, 2^24 keys, costs one
// block scan and one minimum-scan.)
constexpr int places_threads = 256;
constexpr int places_items = 16;
constexpr std::int64_t places_chunk = std::int64_t{places_threads} * places_items;

__global__ void __launch_bounds__(places_threads)
    tile_places_kernel(const std::int64_t* head_counts, const std::int64_t* first_head, std::int64_t tiles,
                       std::int64_t n, std::int64_t* tile_places, std::int64_t* next_after) {
  __shared__ std::int64_t warp_totals[places_threads / 32];
  __shared__ std::int64_t later[places_threads];  // thread x's smallest first head, then the suffix minimum
  const int x = static_cast<int>(threadIdx.x);
  std::int64_t runs_before = 0;  // in the chunks to the left
  for (std::int64_t chunk = 0; chunk < tiles; chunk += places_chunk) {
    const std::int64_t first = chunk + std::int64_t{x} * places_items;
    std::int64_t count[places_items];
    std::int64_t mine = 0;
#pragma unroll
    for (int k = 0; k < places_items; ++k) {
      count[k] = first + k < tiles ? head_counts[first + k] : 0;
      mine += count[k];
    }
    std::int64_t chunk_runs = 0;
    std::int64_t place = runs_before + wb::device::block_exclusive_sum<places_threads>(mine, warp_totals, chunk_runs);
#pragma unroll
    for (int k = 0; k < places_items; ++k) {
      if (first + k < tiles) tile_places[first + k] = place;
      place += count[k];
    }
    runs_before += chunk_runs;
  }
  std::int64_t head_after_chunk = n;  // the first head in the chunks to the right
  for (std::int64_t chunk = (tiles - 1) / places_chunk * places_chunk; chunk >= 0; chunk -= places_chunk) {
    const std::int64_t first = chunk + std::int64_t{x} * places_items;
    std::int64_t head[places_items];
    std::int64_t smallest = n;
#pragma unroll
    for (int k = 0; k < places_items; ++k) {
      head[k] = first + k < tiles ? first_head[first + k] : n;
      smallest = head[k] < smallest ? head[k] : smallest;
    }
    // later[y] for y >= x becomes the smallest first head of threads x .. places_threads - 1
    // (a minimum-scan from the right, doubling the distance each step).
    later[x] = smallest;
    __syncthreads();
    for (int d = 1; d < places_threads; d *= 2) {
      const std::int64_t other = x + d < places_threads ? later[x + d] : n;
      __syncthreads();
      if (other < later[x]) later[x] = other;
      __syncthreads();
    }
    std::int64_t next = x + 1 < places_threads ? later[x + 1] : n;
    if (head_after_chunk < next) next = head_after_chunk;
#pragma unroll
    for (int k = places_items - 1; k >= 0; --k) {
      if (first + k < tiles) next_after[first + k] = next;
      if (head[k] < next) next = head[k];
    }
    if (later[0] < head_after_chunk) head_after_chunk = later[0];
    __syncthreads();  // every thread has read later[] before the next chunk writes it
  }
}

// The tile's runs are written through shared memory: each thread puts its runs' keys and
// starts at their places in the tile's list, then the block copies the list out, each run's
// length being the distance to the next run's start, so that neighbouring threads write
// neighbouring places (with every key distinct, a thread's 16 runs written straight from its
// registers put 32 lanes 16 places apart: uncoalesced, 2^26 keys took 4.5 ms so on an H100,
// twice the sort).
__global__ void __launch_bounds__(rle_threads)
    write_runs_kernel(const std::int64_t* sorted, std::int64_t n, const std::int64_t* tile_places,
                      const std::int64_t* next_after, device_table<std::int64_t> out) {
  __shared__ std::int64_t keys[rle_padded_tile];             // the tile's keys, then its runs' keys (padded)
  __shared__ std::uint16_t run_starts[rle_padded_tile + 1];  // where each run starts in the tile (padded)
  const std::int64_t start = static_cast<std::int64_t>(blockIdx.x) * rle_tile;
  const int items = static_cast<int>(n - start < rle_tile ? n - start : rle_tile);
  for (int k = 0; k < rle_items; ++k) {
    const int j = k * rle_threads + static_cast<int>(threadIdx.x);
    if (j < items) keys[padded(j)] = sorted[start + j];
  }
  const std::int64_t before = start > 0 ? sorted[start - 1] : 0;
  __syncthreads();
  const int first_j = static_cast<int>(threadIdx.x) * rle_items;
  std::int64_t mine[rle_items];  // the thread's keys (registers: every index below is a constant)
  unsigned heads = 0;            // bit k: key first_j + k starts a run
  std::int64_t previous = first_j > 0 && first_j <= items ? keys[padded(first_j - 1)] : before;
#pragma unroll
  for (int k = 0; k < rle_items; ++k) {
    const int j = first_j + k;
    mine[k] = j < items ? keys[padded(j)] : 0;
    const bool head = j < items && (mine[k] != previous || (j == 0 && start == 0));
    if (head) heads |= 1u << k;
    previous = mine[k];
  }
  unsigned tile_runs = 0;
  // (its barriers also mean every thread has read its keys: `keys` may be overwritten below)
  __shared__ unsigned warp_runs[rle_threads / 32];
  const unsigned rank =
      wb::device::block_exclusive_sum<rle_threads>(static_cast<unsigned>(__popc(heads)), warp_runs, tile_runs);
#pragma unroll
  for (int k = 0; k < rle_items; ++k) {
    if ((heads >> k) & 1u) {
      const unsigned place = rank + static_cast<unsigned>(__popc(heads & ((1u << k) - 1u)));
      keys[padded(static_cast<int>(place))] = mine[k];
      run_starts[padded(static_cast<int>(place))] = static_cast<std::uint16_t>(first_j + k);
    }
  }
  __syncthreads();
  const std::int64_t base = tile_places[blockIdx.x];
  const std::int64_t next_tile_head = next_after[blockIdx.x];  // where the tile's last run ends
  for (unsigned r = threadIdx.x; r < tile_runs; r += rle_threads) {
    const int p = static_cast<int>(r);
    const std::int64_t begin = start + run_starts[padded(p)];
    const std::int64_t end = r + 1 < tile_runs ? start + run_starts[padded(p + 1)] : next_tile_head;
    out.values[base + r] = keys[padded(p)];
    out.counts[base + r] = static_cast<std::uint64_t>(end - begin);
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *out.size = base + tile_runs;
}

void require_index_range(std::int64_t pairs) {
  if (pairs > static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
    throw std::invalid_argument("write_distinct_table: " + std::to_string(pairs) +
                                " pairs: the sort carries 32-bit indices (at most 2^32 - 1)");
}

}  // namespace

std::size_t distinct_table_scratch_bytes(std::int64_t max_pairs) {
  const std::int64_t m = max_pairs > 0 ? max_pairs : 1;
  const auto u = static_cast<std::size_t>(m);
  using wb::piece_bytes;
  // keys in/out, index in/out, run places, then the sort's and the scan's workspaces.
  return 3 * piece_bytes(u * 8) + 2 * piece_bytes(u * 4) + piece_bytes(u * 8) + sort::workspace_bytes(m, 8, sort_config()) +
         scan::workspace_bytes(m, 8, scan_config());
}

void write_distinct_table(const unsigned long long* flipped_keys, const unsigned long long* counts,
                          std::int64_t pairs, unsigned long long sentinel_count, bool sum_equal_keys,
                          device_table<std::int64_t> out, void* scratch, std::size_t scratch_bytes,
                          bool narrow_counts, bool phases) {
  require_index_range(pairs);
  if (pairs == 0) {
    wb::launch({1, 32}, gather_kernel, static_cast<const std::int64_t*>(nullptr),
               static_cast<const std::uint32_t*>(nullptr), counts, std::int64_t{0}, sentinel_count, out);
    return;
  }
  wb::carver pieces({static_cast<unsigned char*>(scratch), scratch_bytes}, "write_distinct_table");
  auto* keys_in = pieces.take<std::int64_t>(pairs);
  auto* keys_out = pieces.take<std::int64_t>(pairs);
  auto* index_in = pieces.take<std::uint32_t>(pairs);
  auto* index_out = pieces.take<std::uint32_t>(pairs);
  auto* heads = pieces.take<std::int64_t>(pairs);
  auto* places = pieces.take<std::int64_t>(pairs);
  const wb::workspace rest = pieces.rest();
  phase_clock clock(phases);  // the sort and the steps after it, timed apart
  clock.mark("start");
  if (pairs <= small_sort_max) {
    wb::launch({1, small_sort_threads}, small_sort_kernel, flipped_keys, pairs, keys_out, index_out);
  } else {
    wb::launch({grid_for(pairs), block}, unflip_kernel, flipped_keys, narrow_counts ? counts : nullptr, pairs, keys_in,
               index_in);
    sort::solution::sort_onesweep<std::int64_t>(keys_in, keys_out, index_in, index_out, pairs, rest, sort_config());
    if (narrow_counts) counts = nullptr;  // index_out holds the counts themselves
  }
  clock.mark("sort");
  if (!sum_equal_keys) {
    wb::launch({grid_for(pairs), block}, gather_kernel, static_cast<const std::int64_t*>(keys_out),
               static_cast<const std::uint32_t*>(index_out), counts, pairs, sentinel_count, out);
    clock.mark("gather");
    clock.print("  distinct pairs");
    return;
  }
  wb::launch({grid_for(pairs), block}, run_heads_kernel, static_cast<const std::int64_t*>(keys_out), pairs, heads);
  scan::solution::scan_single_pass<std::int64_t>(heads, places, pairs, rest, scan_config());
  wb::launch({grid_for(pairs), block}, sum_runs_kernel, static_cast<const std::int64_t*>(keys_out),
             static_cast<const std::uint32_t*>(index_out), counts, pairs, static_cast<const std::int64_t*>(places),
             sentinel_count, out);
  clock.mark("sum_runs");
  clock.print("  distinct pairs");
}

std::size_t sort_count_scratch_bytes(std::int64_t n) {
  const std::int64_t m = n > 0 ? n : 1;
  const std::int64_t tiles = (m + rle_tile - 1) / rle_tile;
  auto a16 = [](std::int64_t count) { return wb::piece_bytes(static_cast<std::size_t>(count) * 8); };
  // sorted keys; per tile: run counts, first heads, places, next heads; then the sort's
  // workspace.
  return a16(m) + 4 * a16(tiles) + sort::workspace_bytes(m, 8, sort_config());
}

namespace {

// The pieces of sort_run_length_encode's scratch: the sorted keys, four numbers a tile, then
// the sort's workspace.
struct sort_count_pieces {
  std::int64_t tiles;
  std::int64_t *sorted, *head_counts, *first_head, *tile_places, *next_after;
  wb::workspace rest;
};

sort_count_pieces carve_sort_count(std::int64_t n, void* scratch, std::size_t scratch_bytes) {
  sort_count_pieces p{};
  p.tiles = (n + rle_tile - 1) / rle_tile;
  if (p.tiles > 2147483647) throw std::invalid_argument("sort_run_length_encode: more than 2^31 - 1 tiles");
  wb::carver pieces({static_cast<unsigned char*>(scratch), scratch_bytes}, "sort_run_length_encode");
  p.sorted = pieces.take<std::int64_t>(n);
  p.head_counts = pieces.take<std::int64_t>(p.tiles);
  p.first_head = pieces.take<std::int64_t>(p.tiles);
  p.tile_places = pieces.take<std::int64_t>(p.tiles);
  p.next_after = pieces.take<std::int64_t>(p.tiles);
  p.rest = pieces.rest();
  return p;
}

}  // namespace

void start_sort_run_length_encode(const std::int64_t* in, std::int64_t n, void* scratch, std::size_t scratch_bytes) {
  if (n == 0) return;
  const sort_count_pieces p = carve_sort_count(n, scratch, scratch_bytes);
  sort::config cfg = sort_config();
  cfg.onesweep_run = sort::onesweep_part::histogram;
  sort::solution::sort_onesweep<std::int64_t>(in, p.sorted, nullptr, nullptr, n, p.rest, cfg);
}

void sort_run_length_encode(const std::int64_t* in, std::int64_t n, device_table<std::int64_t> out, void* scratch,
                            std::size_t scratch_bytes, bool phases, bool started, bool few_digit_passes) {
  if (n == 0) {
    WB_CHECK(cudaMemsetAsync(out.size, 0, sizeof(std::int64_t)));
    return;
  }
  const sort_count_pieces p = carve_sort_count(n, scratch, scratch_bytes);
  phase_clock clock(phases);
  clock.mark("start");
  sort::config cfg = sort_config();
  if (started) cfg.onesweep_run = sort::onesweep_part::after_histogram;  // start_sort_run_length_encode ran
  if (!few_digit_passes) cfg.onesweep_match_digits = -1;  // no pass is the few-digits kernel's: not launched
  sort::solution::sort_onesweep<std::int64_t>(in, p.sorted, nullptr, nullptr, n, p.rest, cfg);
  clock.mark("sort");
  const auto grid = static_cast<unsigned>(p.tiles);
  wb::launch({grid, rle_threads}, tile_heads_kernel, static_cast<const std::int64_t*>(p.sorted), n, p.head_counts,
             p.first_head);
  wb::launch({1, places_threads}, tile_places_kernel, static_cast<const std::int64_t*>(p.head_counts),
             static_cast<const std::int64_t*>(p.first_head), p.tiles, n, p.tile_places, p.next_after);
  wb::launch({grid, rle_threads}, write_runs_kernel, static_cast<const std::int64_t*>(p.sorted), n,
             static_cast<const std::int64_t*>(p.tile_places), static_cast<const std::int64_t*>(p.next_after), out);
  clock.mark("rle");
  clock.print("  sort + RLE");
}

}  // namespace counting::detail
