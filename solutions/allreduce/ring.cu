// Stage 3: the ring all-reduce, following ring_schedule. Each rank copies on its copy stream
// (cudaMemcpyPeerAsync to the next rank: the copy engines, not the SMs) and adds on its compute
// stream, so the pieces form a pipeline: while piece p is added, piece p + 1 is on the link.
// Nothing orders two streams but events, and each arrow of the schedule needs one:
//   - a receiver adds a piece only after it has ARRIVED (the sender's copy is done);
//   - a sender sends a partial sum only after it has been ADDED (reduce-scatter), and passes on
//     a whole segment only after it has arrived (all-gather);
//   - a sender writes into a receiver's slot only after the receiver has FINISHED READING what
//     the slot held before (the slots are reused, piece after piece and call after call).
// Every cudaStreamWaitEvent waits for the event's latest record at the time of the call, so an
// event can be reused as long as each wait is issued after the record it means and before the
// next one: the waits of a group of transfers go first, then their copies.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "wb/kernel.hpp"

#include "allreduce.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

template <class T>
void allreduce_ring(team& t, const buffers<T>& b, const config& cfg) {
  const int G = t.size();
  if (b.n == 0) return;
  const config c = resolve(cfg, b.n, sizeof(T), G);
  const std::int64_t chunk = c.chunk_bytes / static_cast<std::int64_t>(sizeof(T));
  const std::vector<ring_transfer> plan = ring_schedule(G, b.n, chunk);
  int pieces = 1;
  for (const ring_transfer& tr : plan) pieces = std::max(pieces, tr.piece + 1);
  const int slots = std::min(pieces, 8);  // receive slots per rank, reused in turn

  // Each rank's events: 0 "its stream reached the all-reduce", 1 and 2 "its compute and copy
  // streams are done", then one per piece for "arrived here from me" and "added here", one per
  // slot for "slot free".
  const int started = 0, computed = 1, copied = 2;
  auto arrived = [&](int piece) { return 3 + piece; };
  auto added = [&](int piece) { return 3 + pieces + piece; };
  auto slot_free = [&](int slot) { return 3 + 2 * pieces + slot; };
  const std::size_t slot_bytes = static_cast<std::size_t>(chunk) * sizeof(T);
  std::vector<unsigned char*> slot_base(static_cast<std::size_t>(G));
  for (int r = 0; r < G; ++r) {
    slot_base[static_cast<std::size_t>(r)] =
        static_cast<unsigned char*>(t.scratch(r, slot_bytes * static_cast<std::size_t>(slots)));
  }
  auto slot = [&](int r, int piece) {
    return reinterpret_cast<T*>(slot_base[static_cast<std::size_t>(r)] + static_cast<std::size_t>(piece % slots) * slot_bytes);
  };

  // Fork: every rank's two streams start after every rank's stream has reached this point
  // (inputs written, and nobody still reading the outputs the all-gather will overwrite).
  t.for_each_rank([&](int r) { WB_CHECK(cudaEventRecord(t.event(r, started), t.stream(r))); });
  t.for_each_rank([&](int r) {
    for (int q = 0; q < G; ++q) {
      WB_CHECK(cudaStreamWaitEvent(t.compute_stream(r), t.event(q, started), 0));
      WB_CHECK(cudaStreamWaitEvent(t.copy_stream(r), t.event(q, started), 0));
    }
  });
  if (G == 1) {
    device_scope on(t.device(0));
    WB_CHECK(cudaMemcpyAsync(b.out[0], b.in[0], static_cast<std::size_t>(b.n) * sizeof(T), cudaMemcpyDeviceToDevice,
                             t.copy_stream(0)));
  }

  for (std::size_t first = 0; first < plan.size();) {
    // One group: the transfers of one (phase, step, piece), one per rank.
    std::size_t last = first;
    while (last < plan.size() && plan[last].phase == plan[first].phase && plan[last].step == plan[first].step &&
           plan[last].piece == plan[first].piece) {
      ++last;
    }
    const int phase = plan[first].phase, step = plan[first].step, piece = plan[first].piece;
    // The waits, before any of the group's records.
    for (std::size_t k = first; k < last; ++k) {
      const ring_transfer& tr = plan[k];
      device_scope on(t.device(tr.from));
      if (phase == 0 && step > 0) {  // a partial sum: added here at the step before
        WB_CHECK(cudaStreamWaitEvent(t.copy_stream(tr.from), t.event(tr.from, added(piece)), 0));
      } else if (phase == 1 && step == 0) {  // the whole sum: added here at the last step
        WB_CHECK(cudaStreamWaitEvent(t.copy_stream(tr.from), t.event(tr.from, added(piece)), 0));
      } else if (phase == 1) {  // a whole segment received at the step before
        const int before = (tr.from + G - 1) % G;
        WB_CHECK(cudaStreamWaitEvent(t.copy_stream(tr.from), t.event(before, arrived(piece)), 0));
      }
      if (phase == 0) WB_CHECK(cudaStreamWaitEvent(t.copy_stream(tr.from), t.event(tr.to, slot_free(piece % slots)), 0));
    }
    // The copies: partial sums into the receiver's slot, whole segments straight into its output.
    for (std::size_t k = first; k < last; ++k) {
      const ring_transfer& tr = plan[k];
      device_scope on(t.device(tr.from));
      const std::size_t bytes = static_cast<std::size_t>(tr.end - tr.begin) * sizeof(T);
      const T* src = (phase == 0 && step == 0 ? b.in[tr.from] : b.out[tr.from]) + tr.begin;
      T* dst = phase == 0 ? slot(tr.to, piece) : b.out[tr.to] + tr.begin;
      WB_CHECK(cudaMemcpyPeerAsync(dst, t.device(tr.to), src, t.device(tr.from), bytes, t.copy_stream(tr.from)));
      WB_CHECK(cudaEventRecord(t.event(tr.from, arrived(piece)), t.copy_stream(tr.from)));
    }
    // The additions (reduce-scatter): once the piece has arrived, out = own input + partial sum.
    if (phase == 0) {
      for (std::size_t k = first; k < last; ++k) {
        const ring_transfer& tr = plan[k];
        device_scope on(t.device(tr.to));
        WB_CHECK(cudaStreamWaitEvent(t.compute_stream(tr.to), t.event(tr.from, arrived(piece)), 0));
        const T* terms[2] = {b.in[tr.to] + tr.begin, slot(tr.to, piece)};
        sum_vectors(terms, 2, b.out[tr.to] + tr.begin, tr.end - tr.begin, t.compute_stream(tr.to));
        WB_CHECK(cudaEventRecord(t.event(tr.to, added(piece)), t.compute_stream(tr.to)));
        WB_CHECK(cudaEventRecord(t.event(tr.to, slot_free(piece % slots)), t.compute_stream(tr.to)));
      }
    }
    first = last;
  }

  // Join: each rank's stream goes on once every rank's streams are done (the all-gather writes
  // into other ranks' outputs, so rank r's result is complete only when all copies are).
  t.for_each_rank([&](int r) {
    WB_CHECK(cudaEventRecord(t.event(r, computed), t.compute_stream(r)));
    WB_CHECK(cudaEventRecord(t.event(r, copied), t.copy_stream(r)));
  });
  t.for_each_rank([&](int r) {
    for (int q = 0; q < G; ++q) {
      WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(q, computed), 0));
      WB_CHECK(cudaStreamWaitEvent(t.stream(r), t.event(q, copied), 0));
    }
  });
}

#define INSTANTIATE(T) template void allreduce_ring<T>(team&, const buffers<T>&, const config&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
