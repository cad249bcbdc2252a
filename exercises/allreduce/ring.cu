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
// The additions are stage 2's sum_vectors (reduce_broadcast.cu, with vector_sum.cuh's sum_vec):
// the ring is right only once they are.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "wb/kernel.hpp"

#include "allreduce.hpp"
#include "team.hpp"

namespace allreduce::WB_TRACK {

// Each rank's events in one call: t.event(r, k), with k numbered here. One event serves every
// use of its kind: each wait is issued after the record it means and before the next one.
struct ring_events {
  explicit ring_events(int pieces_per_segment) : pieces(pieces_per_segment) {}
  // Rank r's stream has reached the all-reduce: its input is written (the fork).
  static constexpr int started = 0;
  // Rank r's compute stream is done; its copy stream is done (the join).
  static constexpr int computed = 1, copied = 2;
  // The piece p that rank r sent at this step is in the receiver's memory (recorded on r's copy
  // stream after the copy).
  int arrived(int p) const { return 3 + p; }
  // Rank r has added piece p at this step: its output holds the partial sum (recorded on r's
  // compute stream after the addition).
  int added(int p) const { return 3 + pieces + p; }
  // Rank r has read its receive slot s: a sender may write into it again.
  int slot_free(int s) const { return 3 + 2 * pieces + s; }
  int pieces;
};

// Each rank's receive slots, `count` pieces of `chunk` elements in its scratch memory, reused in
// turn: reduce-scatter's partial sums arrive there (piece p in slot p % count) before the
// receiver adds them; all-gather's whole segments go straight into the receiver's output.
template <class T>
class receive_slots {
 public:
  receive_slots(team& t, int count, std::int64_t chunk) : count_(count), bytes_(static_cast<std::size_t>(chunk) * sizeof(T)) {
    for (int r = 0; r < t.size(); ++r) {
      base_.push_back(static_cast<unsigned char*>(t.scratch(r, bytes_ * static_cast<std::size_t>(count))));
    }
  }
  // Rank r's slot for piece p.
  T* operator()(int r, int p) const {
    return reinterpret_cast<T*>(base_[static_cast<std::size_t>(r)] + static_cast<std::size_t>(of(p)) * bytes_);
  }
  // The number of piece p's slot (for slot_free).
  int of(int p) const { return p % count_; }

 private:
  int count_;
  std::size_t bytes_;
  std::vector<unsigned char*> base_;
};

template <class T>
void allreduce_ring(team& t, const buffers<T>& b, const config& cfg) {
  const int G = t.size();
  if (b.n == 0) return;
  const config c = resolve(cfg, b.n, sizeof(T), G);
  const std::int64_t chunk = c.chunk_bytes / static_cast<std::int64_t>(sizeof(T));
  const std::vector<ring_transfer> plan = ring_schedule(G, b.n, chunk);
  int pieces = 1;
  for (const ring_transfer& tr : plan) pieces = std::max(pieces, tr.piece + 1);
  const int slots = std::min(pieces, 8);  // receive slots per rank

  const ring_events ev(pieces);                   // t.event(r, ev.started), t.event(r, ev.arrived(piece)), ...
  const receive_slots<T> slot(t, slots, chunk);  // slot(r, piece): rank r's slot for the piece

  // Fork: every rank's two streams start after every rank's stream has reached this point
  // (inputs written, and nobody still reading the outputs the all-gather will overwrite).
  // TODO(allreduce/3): every rank records ev.started on its own stream; then each rank's compute
  // and copy streams wait for every rank's ev.started.
  if (G == 1) {  // one rank: the sum is its own input
    device_scope on(t.device(0));
    WB_CHECK(cudaMemcpyAsync(b.out[0], b.in[0], static_cast<std::size_t>(b.n) * sizeof(T), cudaMemcpyDeviceToDevice,
                             t.copy_stream(0)));
  }

  for (std::size_t first = 0; first < plan.size();) {
    // One group: the transfers [first, last) of one (phase, step, piece), one per rank.
    const int phase = plan[first].phase, step = plan[first].step, piece = plan[first].piece;
    std::size_t last = first;
    while (last < plan.size() && plan[last].phase == phase && plan[last].step == step && plan[last].piece == piece) ++last;
    // The waits, before any of the group's records.
    for (std::size_t k = first; k < last; ++k) {
      const ring_transfer& tr = plan[k];
      device_scope on(t.device(tr.from));
      // TODO(allreduce/3): the sender's copy stream waits until what it sends is there: in
      // reduce-scatter, the partial sum it ADDED at the step before (none at step 0: that is its
      // input); at all-gather's step 0, the whole sum it added at reduce-scatter's last step;
      // later in all-gather, the segment that ARRIVED from the rank before it. In reduce-scatter
      // it also waits until the receiver has READ its slot for this piece (ev.slot_free).
    }
    // The copies: partial sums into the receiver's slot, whole segments straight into its output.
    for (std::size_t k = first; k < last; ++k) {
      const ring_transfer& tr = plan[k];
      device_scope on(t.device(tr.from));
      // TODO(allreduce/3): copy elements [tr.begin, tr.end) from the sender (its input at
      // reduce-scatter's step 0, else its output) to the receiver (its slot for this piece in
      // reduce-scatter, its output in all-gather) with a peer copy on the sender's copy stream,
      // and record that the piece ARRIVED.
    }
    // The additions (reduce-scatter): once the piece has arrived, out = own input + partial sum.
    if (phase == 0) {
      for (std::size_t k = first; k < last; ++k) {
        const ring_transfer& tr = plan[k];
        device_scope on(t.device(tr.to));
        // TODO(allreduce/3): on the receiver's compute stream, once the piece has ARRIVED: its
        // output over [tr.begin, tr.end) = its input + the slot (sum_vectors, stage 2); then
        // record that it ADDED the piece and that its slot is free again.
      }
    }
    first = last;
  }

  // Join: each rank's stream goes on once every rank's streams are done (the all-gather writes
  // into other ranks' outputs, so rank r's result is complete only when all copies are).
  // TODO(allreduce/3): every rank records ev.computed on its compute stream and ev.copied on its
  // copy stream; then each rank's stream waits for every rank's two.
}

#define INSTANTIATE(T) template void allreduce_ring<T>(team&, const buffers<T>&, const config&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
