// Stage 6 (exercise): the privatized histogram (int8), the stage that must beat the library.
//
// Yours: the block-level counting (block_histogram.cuh: privatization, PMPP §9.4) and, here,
// the loop that feeds it 16 bytes a load (coarsening, PMPP §9.5). Written for you: the
// persistent grid (one wave of blocks walking the input with a grid-sized stride), the
// unaligned head and tail, when to drain the narrow counters, and the last block writing the
// table; the host side is chapters/counting/stage6_privatized_host.inl.
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
  // The whole int4 vectors start at in + head (16-byte aligned).
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
  std::int64_t rounds = 0;
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * T * U; first < vectors; first += round_stride) {
    // TODO(counting/6, PMPP §9.5 coarsening): in this round the block owns the int4 vectors
    // [first, first + T * U) of the body. Count them, U 16-byte loads a thread, so that each
    // warp's loads are coalesced and several are in flight before any counting starts.
    // Every thread of the block reaches this point the same number of times (the loop bound
    // depends on the block only): drain() has barriers in it.
    if (++rounds == rounds_per_drain) {
      counters.drain(state->bins);
      rounds = 0;
    }
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

// The counter layout (block_histogram.cuh; this track has one, whatever cfg.variant says), and
// the 16-byte loads a thread makes per round.
using layout_choices = std::tuple<bh::thread16_atomic>;
constexpr int loads_in_flight = 4;

}  // namespace

}  // namespace counting::WB_TRACK

#include "stage6_privatized_host.inl"  // the host side of stage 6, shared by both tracks
