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
  // TODO(allreduce/3): issue ring_schedule's transfers: peer copies on each rank's copy stream,
  // additions (sum_vectors of the rank's input and the received partial sum) on its compute
  // stream, and one event for every order between them (arrived before added, added before sent
  // on, a slot read before it is overwritten). Start after every rank's stream, and make every
  // rank's stream wait for the end.
}

#define INSTANTIATE(T) template void allreduce_ring<T>(team&, const buffers<T>&, const config&);
ALLREDUCE_FOR_EACH_TYPE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace allreduce::WB_TRACK
