// Stage 6: the privatized histogram (int8), the stage that must beat the library.
//
// Three steps from stage 5 (PMPP §9.4-9.6, and the CUDA Handbook's advice for bandwidth):
//   1. privatize: every thread counts into its own narrow counters in shared memory
//      (block_histogram.cuh: the layouts, and why no warp ever meets a bank conflict or
//      another thread's counter, whatever the input);
//   2. read the input 16 bytes a load (int4), U loads a thread per round, and issue the next
//      round's loads before counting this round's, so the memory system always has work;
//   3. a persistent grid: as many blocks as fit on the GPU at once, each walking the input
//      with a grid-sized stride; at the end each block adds its counts to 256 global
//      counters (one atomicAdd per bin and block), and the last block to finish writes the
//      table (a ticket counter, as in cuda-samples' threadFenceReduction).
// The input may start anywhere: the bytes before the first 16-byte boundary and after the
// last whole vector (at most 30) are counted one by one.
#include <tuple>

#include "block_histogram.cuh"
#include "counting.hpp"
#include "histogram_table.cuh"
#include "wb/kernel.hpp"

namespace counting::WB_TRACK {

namespace {

namespace bh = block_histogram;

// What the workspace holds: the 256 global bins and the last-block ticket.
struct histogram_state {
  std::uint64_t bins[detail::histogram_bins];
  unsigned int ticket;
};

template <int U>
__device__ __forceinline__ void load_round(int4 (&v)[8], const int4* body, std::int64_t vectors, std::int64_t first,
                                           int stride) {
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::int64_t i = first + static_cast<std::int64_t>(u) * stride;
    v[u] = i < vectors ? body[i] : make_int4(0, 0, 0, 0);
  }
}

template <class Layout, int U>
__global__ void __launch_bounds__(Layout::threads)
    histogram_privatized_kernel(const std::int8_t* in, std::int64_t n, histogram_state* state,
                                device_table<std::int8_t> out, bool write_table) {
  Layout counters(wb::dynamic_shared<std::uint32_t>());
  counters.init();

  // Split the input at 16-byte boundaries: head (unaligned start), body (whole int4
  // vectors), tail. Head and tail hold at most 15 items each.
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  std::int64_t head = static_cast<std::int64_t>((16 - (address & 15)) & 15);
  if (head > n) head = n;
  const auto* body = reinterpret_cast<const int4*>(in + head);
  const std::int64_t vectors = (n - head) / 16;
  const std::int64_t tail_begin = head + vectors * 16;
  const std::int64_t loose = head + (n - tail_begin);
  const std::int64_t g = wb::global_thread_index();
  if (g < loose) {
    const std::int64_t i = g < head ? g : tail_begin + (g - head);
    counters.count_byte(static_cast<std::uint8_t>(in[i]));
  }

  // Rounds of U vectors a thread. Every thread of a block runs the same number of rounds
  // (the loop bound depends on the block, not the thread), because drain() is a block-wide
  // step with barriers in it.
  constexpr int T = Layout::threads;
  constexpr std::int64_t rounds_per_drain = Layout::drain_items / (16 * U) > 0 ? Layout::drain_items / (16 * U) : 1;
  static_assert(Layout::drain_items >= 16 * U, "a round must fit between two drains");
  const std::int64_t round_stride = static_cast<std::int64_t>(gridDim.x) * T * U;
  std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * T * U;  // this block's first vector
  int4 current[8];
  int4 next[8];
  load_round<U>(current, body, vectors, first + threadIdx.x, T);
  std::int64_t rounds = 0;
  for (; first < vectors; first += round_stride) {
    load_round<U>(next, body, vectors, first + round_stride + threadIdx.x, T);  // in flight while we count
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (first + threadIdx.x + static_cast<std::int64_t>(u) * T < vectors) {
        counters.count_word(static_cast<std::uint32_t>(current[u].x));
        counters.count_word(static_cast<std::uint32_t>(current[u].y));
        counters.count_word(static_cast<std::uint32_t>(current[u].z));
        counters.count_word(static_cast<std::uint32_t>(current[u].w));
      }
    }
    if (++rounds == rounds_per_drain) {
      counters.drain(state->bins);
      rounds = 0;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) current[u] = next[u];
  }
  counters.flush(state->bins);

  if (!write_table) return;
  // The last block to finish writes the table. Each thread's bin atomics must be visible
  // before the block takes its ticket: fence, then a barrier, then the ticket.
  __threadfence();
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicAdd(&state->ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    __threadfence();
    detail::block_write_histogram_table(state->bins, out);
  }
}

// The counter layouts cfg.variant picks (0-3, block_histogram.cuh), and the 16-byte loads a
// thread keeps in flight per round.
using layout_choices = std::tuple<bh::thread16_atomic, bh::thread16_plain, bh::thread8_plain, bh::warp32_atomic>;
constexpr int loads_in_flight = 4;

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage6_privatized_host.inl"  // the host side of stage 6, shared by both tracks
