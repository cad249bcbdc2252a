// The allreduce chapter's stages, in order: the one table the checks, the executable (--stage,
// report rows), the README and the `wb` program read. Plain C++ (no kernel headers).
#pragma once

#include <array>

#include "wb/stage.hpp"

namespace allreduce {

inline constexpr std::array<wb::stage, 7> stages = {{
    {0, "allreduce/0 sequential", "the specification: the element-wise sum, on the host",
     "PMPP 4th ed. §20 (MPI_Allreduce)", "sequential.cpp",
     {"An all-reduce leaves on every rank the element-wise sum of every rank's vector. Write that sum on the host, "
      "adding in rank order, and mind what an int32 sum does past 2^31.",
      "Start from rank 0's vector and add rank 1's, then rank 2's, ... element by element: that fixes the order of "
      "the float additions that every later stage is compared with. Integers must wrap around, and a signed overflow "
      "in C++ is undefined: add them with allreduce::add (element.hpp), which adds in unsigned arithmetic.",
      "Refuse vectors of different lengths (std::invalid_argument). sum = inputs[0]; for r in 1..G-1: for i: "
      "sum[i] = add(sum[i], inputs[r][i]). Return sum (empty for no ranks)."}},
    {1, "allreduce/1 through-host", "through the host: pinned copies down, a host sum, copies up",
     "PMPP 4th ed. §20.3-20.4 (MPI with CUDA: staging through host memory)", "through_host.cpp",
     {"Before GPUs talk to each other, the host carries everything: copy each GPU's vector to the host, add there, "
      "copy the sum back. Each copy is ordered on its rank's stream.",
      "Use the team's pinned staging memory for G input vectors and one sum. Queue a device-to-host copy on every "
      "rank's stream and wait for all of them; add the vectors in rank order; queue the host-to-device copy of the "
      "sum on every rank's stream and wait again, since the next call reuses the staging memory.",
      "staged = t.host_staging((G + 1) * bytes); for each rank (t.for_each_rank): cudaMemcpyAsync(staged + r * n, "
      "b.in[r], bytes, cudaMemcpyDeviceToHost, t.stream(r)); then cudaStreamSynchronize(t.stream(r)) for each. "
      "sum = staged + G * n: copy vector 0, add vectors 1..G-1 with add(). Then cudaMemcpyAsync(b.out[r], sum, "
      "bytes, cudaMemcpyHostToDevice, t.stream(r)) and synchronize every stream."}},
    {2, "allreduce/2 reduce-broadcast", "reduce to one GPU with peer copies, then broadcast",
     "CUDA Programming Guide: peer-to-peer memory copy, events; The CUDA Handbook ch. 9 (multiple GPUs)",
     "vector_sum.cuh reduce_broadcast.cu",
     {"Cut the host out: copy each vector straight into rank 0's memory (cudaMemcpyPeerAsync), add there with a "
      "kernel, and copy the sum back. What orders work on two GPUs' streams is an event recorded on one and waited "
      "for by the other.",
      "sum_vec/sum_scalar add the k terms of one position in term order (vectors of 16 bytes, then the tail). "
      "The host side: rank 0 records 'ready'; every other rank waits for it, copies its input into its slot of rank "
      "0's scratch and records 'sent'; rank 0 waits for every 'sent', runs the sum kernel over [in[0], slot 1, ..., "
      "slot G-1] and records 'summed'; every other rank waits for it, copies the sum back and records 'fetched'; "
      "rank 0 waits for every 'fetched' before its stream may go on.",
      "sum_vec: load terms.at[k] as vec16<T> at index v for every k first, then acc = add(acc, x[k]) in order. "
      "sum_kernel: grid-stride over the whole vectors (when vectorized), then over the tail elements. Host: "
      "events t.event(r, k) with k = 0 ready, 1 summed, 2 sent, 3 fetched; cudaStreamWaitEvent(t.stream(r), "
      "t.event(0, ready), 0); cudaMemcpyPeerAsync(slot(r), t.device(0), b.in[r], t.device(r), bytes, t.stream(r)); "
      "cudaEventRecord(t.event(r, sent), t.stream(r)); and so on. Make each rank's device current (device_scope) "
      "before you touch its stream or events."}},
    {3, "allreduce/3 ring", "the ring: reduce-scatter, then all-gather, pipelined over streams",
     "Patarasuk & Yuan, 'Bandwidth optimal all-reduce algorithms for clusters of workstations' (2009); NCCL's ring",
     "ring_schedule.cpp ring.cu vector_sum.cuh reduce_broadcast.cu",
     {"Stage 2 pushes everything through rank 0's link. In a ring every rank sends to the next one only: G - 1 steps "
      "of reduce-scatter (each rank ends up owning the sum of one segment), then G - 1 steps of all-gather. Every "
      "rank sends 2 (G - 1) / G of its data, the least possible. The additions are your stage 2's sum_vectors, so "
      "this stage passes only once stage 2 does.",
      "ring_schedule lists the transfers: for phase, step, piece, rank r: segment (r - step) mod G in reduce-scatter, "
      "(r + 1 - step) mod G in all-gather, cut into pieces of `chunk` elements. allreduce_ring's skeleton gives you "
      "the plan, the receive slots (receive_slots) and the events' numbers (ring_events); you write what goes on "
      "the streams. Copies go on each "
      "rank's copy stream, additions on its compute stream, and each arrow of the schedule is an event recorded on "
      "one stream and waited for by another: a piece is added only after it ARRIVED, sent on only after it was ADDED "
      "(or arrived, in all-gather), and a slot is overwritten only after its last addition READ it (slot free). All "
      "streams first wait for every rank's 'started' (the fork), and every rank's stream waits for every rank's "
      "'computed' and 'copied' at the end (the join).",
      "Schedule: segment bounds part_begin(s, G, n, segment_align); pieces = ceil(longest segment / chunk); skip "
      "empty ranges; to = (r + 1) % G. Ring, in the skeleton's places (events t.event(r, ev.started), t.event(r, "
      "ev.arrived(piece)), ...). Fork: every rank records ev.started on t.stream(r); t.compute_stream(r) and "
      "t.copy_stream(r) wait for every rank q's. A group's waits, on t.copy_stream(tr.from): tr.from's "
      "ev.added(piece) in reduce-scatter after step 0 and at all-gather's step 0; rank (tr.from + G - 1) % G's "
      "ev.arrived(piece) later in all-gather; tr.to's ev.slot_free(slot.of(piece)) in reduce-scatter. Copies: "
      "cudaMemcpyPeerAsync into slot(tr.to, piece) (reduce-scatter) or b.out[tr.to] + tr.begin (all-gather), from "
      "b.in[tr.from] + tr.begin at reduce-scatter's step 0, else b.out[tr.from] + tr.begin; then record tr.from's "
      "ev.arrived(piece) on the same stream. Additions: t.compute_stream(tr.to) waits for tr.from's "
      "ev.arrived(piece), runs sum_vectors on the two terms {b.in[tr.to] + tr.begin, slot(tr.to, piece)} into "
      "b.out[tr.to] + tr.begin, and records tr.to's ev.added(piece) and ev.slot_free(slot.of(piece)). Join: the "
      "fork's mirror image, with ev.computed and ev.copied."}},
    {4, "allreduce/4 direct", "direct peer access in a kernel: one-shot and two-shot, with a barrier across GPUs",
     "CUDA Programming Guide: peer-to-peer memory access, memory fence functions, scopes (PTX memory consistency "
     "model: release/acquire at system scope)",
     "peer_barrier.cuh one_shot.cu two_shot.cu",
     {"With peer access a kernel can load from and store to another GPU's memory. Then one launch per rank does the "
      "whole all-reduce, but the ranks' kernels must agree when they may read each other's buffers: a barrier "
      "through flags in peer memory, written with a RELEASE store and read with ACQUIRE loads at system scope.",
      "barrier_across_ranks: thread q of block b signals rank q (its flag slot [b][our rank]) and waits for rank q's "
      "signal in our slot [b][q]; __syncthreads before and after. One-shot: barrier, every thread adds all ranks' "
      "inputs at its positions (sum_vec over the peers' pointers), barrier again so nobody overwrites an input "
      "still being read. Two-shot: barrier, rank r adds only its segment and writes the sum into every rank's output "
      "(wb::peer_store for the others), barrier: the release makes those stores visible before the flag.",
      "Barrier: __syncthreads(); q = threadIdx.x; if (q < ranks && q != rank) { wb::sys::store_release(of[q] + "
      "blockIdx.x * max_ranks + rank, value); wb::sys::wait_at_least(of[rank] + blockIdx.x * max_ranks + q, value); } "
      "__syncthreads(). The values 2 epoch - 1 (start) and 2 epoch (end) only grow, so flags are never reset. "
      "Kernels: grid-stride over vectors, then the scalar tail; two-shot's range is [part_begin(r, G, n, "
      "segment_align), part_begin(r + 1, ...)). Host: one launch per rank on t.stream(r), the same block count "
      "(direct_blocks) on every rank, epoch = t.next_epoch() once per call."}},
    {5, "allreduce/5 nccl", "NCCL: the library's all-reduce, one process driving every GPU",
     "NCCL User Guide: ncclCommInitAll, group calls, ncclAllReduce", "nccl_allreduce.cpp",
     {"NCCL does all of this for you, picking ring or tree and the protocol by size and topology. One process with "
      "one communicator per GPU must group the ranks' calls: a single thread cannot wait inside rank 0's call for "
      "rank 1's, which it has not made yet.",
      "Make sure the communicators exist before the group (t.nccl(r) makes them on first use). Then "
      "ncclGroupStart, one ncclAllReduce per rank on its own communicator and stream, ncclGroupEnd. The calls only "
      "queue work on the streams.",
      "for r: t.nccl(r); WB_NCCL_CHECK(ncclGroupStart()); for r: WB_NCCL_CHECK(ncclAllReduce(b.in[r], b.out[r], n, "
      "nccl_type<T>(), ncclSum, t.nccl(r), t.stream(r))); WB_NCCL_CHECK(ncclGroupEnd()). nccl_type: ncclInt32, "
      "ncclInt64 or ncclFloat32."}},
    {6, "allreduce/6 application", "an application: the counting chapter on data split across GPUs",
     "PMPP 4th ed. §20 (data split across nodes, partial results combined); the counting chapter, stages 6 and 7",
     "app_histogram.cu app_distinct.cu",
     {"Split the data, count each part where it lies with the counting chapter's stages, and combine only the "
      "results: the histogram's 256 counts by an all-reduce, the distinct counts' tables by sending each row to the "
      "GPU that owns its key.",
      "Histogram: every rank zeroes its local bins, runs counting's histogram_privatized_accumulate on its items on "
      "its stream, and the local bins are all-reduced into bins[r] with your stage 4 one-shot (2 KiB: latency). "
      "Distinct: every rank counts its keys (counting's count_hash_table), counts its rows per owner, groups them by "
      "owner (a block's or tile's rows at once: one global atomic per owner, not per row); the rows go to their "
      "owners (NCCL send/receive in one group, or peer copies); every owner adds up its rows in a hash table "
      "(atomicCAS to claim a slot, atomicAdd for the count) and writes the occupied slots out (a stream compaction).",
      "Histogram: t.for_each_rank: cudaMemsetAsync(local, 0, 2 KiB, stream), histogram_privatized_accumulate(items[r], "
      "counts[r], local, {}, t.stream(r)); then allreduce_one_shot(t, {local..., bins..., 256}) viewing the counts "
      "as int64. Distinct: see app.hpp for the buffers. One global atomic per row on a few counters (G owners, "
      "one size) queues at one address: count and reserve in shared memory per block or tile, then one global "
      "atomicAdd per counter. count_by_owner: shared counts per owner, added into owner_rows at the block's end; "
      "cursors = exclusive prefix sums of them (one thread); group_by_owner, a tile of 256 rows at a time: a shared "
      "atomicAdd gives each row its place among the tile's rows of its owner, one thread per owner reserves the "
      "tile's share with atomicAdd on cursors[q]; read rows_to back once. NCCL: ncclSend of rows_to[q] * 2 uint64 "
      "words to each q and ncclRecv from each q into recv at the rows received so far; add_rows: probe from "
      "mix64(key) & mask, atomicCAS(slot, empty_key, key), then atomicAdd the count (key -1 into the extra word); "
      "write_owned, a tile at a time: __ballot_sync of the occupied slots, the warps' counts scanned in shared "
      "memory, one atomicAdd on owned_size per tile."}},
}};

}  // namespace allreduce
