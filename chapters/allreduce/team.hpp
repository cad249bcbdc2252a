// The GPUs taking part in an all-reduce: one rank per GPU (NCCL calls this a communicator),
// with what the stages need on each: streams, events, scratch memory, the stage-4 flags, the
// NCCL communicator. Setting it up is not the lesson of any stage and is not timed: it is
// chapter code, shared by both tracks.
//
// Each rank has three streams. stream(r) is the caller's: every stage orders its work on rank r
// after what was queued there before and makes what is queued after it wait for the result
// (it is a blocking stream, so work on the legacy default stream, such as a library's, is
// ordered with it too). compute_stream(r) and copy_stream(r) are the stage's own, so additions
// and copies overlap (stage 3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "wb/runtime.hpp"

#include "allreduce.hpp"

struct ncclComm;  // ncclComm_t is ncclComm* (wb/nccl.hpp)

namespace allreduce {

class team {
 public:
  // `ranks` ranks on the first `devices` GPUs, rank r on GPU r % devices. Several ranks on one
  // GPU are "logical devices": every stage but NCCL runs, and its times say nothing about links.
  // Enables peer access between every two GPUs used (where the GPUs allow it) and zeroes the
  // flags. Throws std::invalid_argument for counts the machine cannot give.
  team(int ranks, int devices);
  ~team();
  team(const team&) = delete;
  team& operator=(const team&) = delete;

  int size() const { return static_cast<int>(ranks_.size()); }
  int device(int r) const { return ranks_.at(static_cast<std::size_t>(r)).device; }
  int devices() const { return devices_; }
  bool shares_devices() const { return size() > devices_; }
  // Stage 4 reads peers' memory in kernels: every two GPUs of the team can access each other.
  bool peer_access() const { return peer_access_; }
  std::string description() const;  // "2 ranks on 2 GPUs", "3 ranks on 1 GPU (logical devices)"

  cudaStream_t stream(int r) const { return ranks_.at(static_cast<std::size_t>(r)).stream; }
  cudaStream_t compute_stream(int r) const { return ranks_.at(static_cast<std::size_t>(r)).compute; }
  cudaStream_t copy_stream(int r) const { return ranks_.at(static_cast<std::size_t>(r)).copy; }
  // Rank r's k-th event (created on its device, without timing, on first use).
  cudaEvent_t event(int r, int k);
  // At least `bytes` of rank r's device memory, kept between calls (grown when asked for more).
  void* scratch(int r, std::size_t bytes);
  // At least `bytes` of pinned host memory, kept between calls.
  void* host_staging(std::size_t bytes);
  // Stage 4: rank r's flags, max_blocks x max_ranks 64-bit words in its memory (slot [b][q]:
  // written by block b of rank q), zero when the team is made; and the number each call's
  // barriers count up from (1, 2, 3, ...), so the flags never need resetting.
  std::uint64_t* flags(int r) const { return ranks_.at(static_cast<std::size_t>(r)).flags; }
  std::uint64_t next_epoch() { return ++epoch_; }
  // Stage 5: rank r's NCCL communicator (all are made on first use with ncclCommInitAll).
  // Throws std::runtime_error without NCCL, or when ranks share a GPU (NCCL takes one per rank).
  ncclComm* nccl(int r);
  // Why nccl() would throw, or "" when it would not.
  std::string nccl_unavailable() const;

  // fn(r) for every rank, with rank r's device current (restored afterwards).
  void for_each_rank(const std::function<void(int)>& fn);
  // The host waits for every rank's three streams.
  void synchronize();
  // Timing across GPUs on rank 0's clock: fork() makes every rank's stream wait until rank 0's
  // stream reaches this point, join() makes rank 0's stream wait for every rank's. Between a
  // fork and a join the legacy default stream of rank 0's GPU, where wb::time_gpu records its
  // events, brackets the work of every rank.
  void fork();
  void join();

 private:
  struct rank_state {
    int device = 0;
    cudaStream_t stream = nullptr;
    cudaStream_t compute = nullptr;
    cudaStream_t copy = nullptr;
    std::vector<cudaEvent_t> events;
    void* scratch = nullptr;
    std::size_t scratch_bytes = 0;
    std::uint64_t* flags = nullptr;
  };
  std::vector<rank_state> ranks_;
  int devices_ = 1;
  bool peer_access_ = true;
  std::uint64_t epoch_ = 0;
  void* host_ = nullptr;
  std::size_t host_bytes_ = 0;
  std::vector<ncclComm*> comms_;
};

// Rank r's device current for as long as it lives (the previous one restored).
class device_scope {
 public:
  explicit device_scope(int device);
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace allreduce
