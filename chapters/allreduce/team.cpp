// The team (team.hpp): streams, events, memory and flags per rank; peer access; NCCL.
#include "team.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "wb/check.hpp"
#if defined(WB_HAVE_NCCL)
#include "wb/nccl.hpp"
#endif

namespace allreduce {

device_scope::device_scope(int device) {
  WB_CHECK(cudaGetDevice(&previous_));
  WB_CHECK(cudaSetDevice(device));
}
device_scope::~device_scope() { cudaSetDevice(previous_); }

team::team(int ranks, int devices) : devices_(devices) {
  int visible = 0;
  WB_CHECK(cudaGetDeviceCount(&visible));
  if (ranks < 1 || ranks > max_ranks) {
    throw std::invalid_argument(fmt::format("a team has 1 to {} ranks, not {}", max_ranks, ranks));
  }
  if (devices < 1 || devices > visible) {
    throw std::invalid_argument(fmt::format("{} GPU{} asked for, {} visible", devices, devices == 1 ? "" : "s", visible));
  }
  devices_ = std::min(devices, ranks);
  ranks_.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    rank_state& s = ranks_[static_cast<std::size_t>(r)];
    s.device = r % devices_;
    device_scope on(s.device);
    WB_CHECK(cudaStreamCreate(&s.stream));  // blocking: ordered with the legacy default stream
    WB_CHECK(cudaStreamCreateWithFlags(&s.compute, cudaStreamNonBlocking));
    WB_CHECK(cudaStreamCreateWithFlags(&s.copy, cudaStreamNonBlocking));
    const std::size_t flag_bytes = sizeof(std::uint64_t) * max_blocks * max_ranks;
    WB_CHECK(cudaMalloc(&s.flags, flag_bytes));
    WB_CHECK(cudaMemset(s.flags, 0, flag_bytes));
  }
  // Peer access between every two GPUs of the team (a GPU is not its own peer: ranks that
  // share one GPU read each other's memory as their own).
  for (int d = 0; d < devices_; ++d) {
    device_scope on(d);
    for (int p = 0; p < devices_; ++p) {
      if (p == d) continue;
      int can = 0;
      WB_CHECK(cudaDeviceCanAccessPeer(&can, d, p));
      if (can == 0) {
        peer_access_ = false;
        continue;
      }
      const cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();  // an earlier team of this process enabled it: fine
      } else {
        WB_CHECK(e);
      }
    }
  }
  WB_CHECK(cudaDeviceSynchronize());
}

team::~team() {
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    rank_state& s = ranks_[r];
    cudaSetDevice(s.device);
    cudaStreamSynchronize(s.stream);
    cudaStreamSynchronize(s.compute);
    cudaStreamSynchronize(s.copy);
#if defined(WB_HAVE_NCCL)
    if (r < comms_.size() && comms_[r] != nullptr) ncclCommDestroy(comms_[r]);
#endif
    for (cudaEvent_t e : s.events) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    cudaStreamDestroy(s.stream);
    cudaStreamDestroy(s.compute);
    cudaStreamDestroy(s.copy);
    cudaFree(s.scratch);
    cudaFree(s.flags);
  }
  if (host_ != nullptr) cudaFreeHost(host_);
  cudaSetDevice(0);
}

std::string team::description() const {
  if (!shares_devices()) return fmt::format("{} rank{} on {} GPU{}", size(), size() == 1 ? "" : "s", devices_, devices_ == 1 ? "" : "s");
  return fmt::format("{} ranks on {} GPU{} (logical devices: times say nothing about links)", size(), devices_,
                     devices_ == 1 ? "" : "s");
}

cudaEvent_t team::event(int r, int k) {
  rank_state& s = ranks_.at(static_cast<std::size_t>(r));
  if (k < 0) throw std::invalid_argument("team::event: negative index");
  if (static_cast<std::size_t>(k) >= s.events.size()) s.events.resize(static_cast<std::size_t>(k) + 1, nullptr);
  cudaEvent_t& e = s.events[static_cast<std::size_t>(k)];
  if (e == nullptr) {
    device_scope on(s.device);
    WB_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  return e;
}

void* team::scratch(int r, std::size_t bytes) {
  rank_state& s = ranks_.at(static_cast<std::size_t>(r));
  if (bytes > s.scratch_bytes) {
    device_scope on(s.device);
    WB_CHECK(cudaFree(s.scratch));  // waits for the work that may still use it
    s.scratch = nullptr;
    s.scratch_bytes = 0;
    WB_CHECK(cudaMalloc(&s.scratch, bytes));
    s.scratch_bytes = bytes;
  }
  return s.scratch;
}

void* team::host_staging(std::size_t bytes) {
  if (bytes > host_bytes_) {
    synchronize();
    if (host_ != nullptr) WB_CHECK(cudaFreeHost(host_));
    host_ = nullptr;
    host_bytes_ = 0;
    WB_CHECK(cudaMallocHost(&host_, bytes));
    host_bytes_ = bytes;
  }
  return host_;
}

std::string team::nccl_unavailable() const {
#if !defined(WB_HAVE_NCCL)
  return "built without NCCL (not found at configure time; set NCCL_ROOT)";
#else
  if (shares_devices()) return "NCCL takes one GPU per rank, and this team has several ranks on one GPU";
  return "";
#endif
}

ncclComm* team::nccl(int r) {
  if (const std::string why = nccl_unavailable(); !why.empty()) throw std::runtime_error(why);
#if defined(WB_HAVE_NCCL)
  if (comms_.empty()) {
    // NVLink SHARP (multicast) stays off unless asked for: the workbook's machines are shared,
    // and a fault there can take every GPU of the host out of service.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    std::vector<int> devices;
    for (const rank_state& s : ranks_) devices.push_back(s.device);
    comms_.assign(ranks_.size(), nullptr);
    WB_NCCL_CHECK(ncclCommInitAll(comms_.data(), size(), devices.data()));
  }
  return comms_.at(static_cast<std::size_t>(r));
#else
  (void)r;
  return nullptr;
#endif
}

void team::for_each_rank(const std::function<void(int)>& fn) {
  int previous = 0;
  WB_CHECK(cudaGetDevice(&previous));
  for (int r = 0; r < size(); ++r) {
    WB_CHECK(cudaSetDevice(device(r)));
    fn(r);
  }
  WB_CHECK(cudaSetDevice(previous));
}

void team::synchronize() {
  for (const rank_state& s : ranks_) {
    device_scope on(s.device);
    WB_CHECK(cudaStreamSynchronize(s.stream));
    WB_CHECK(cudaStreamSynchronize(s.compute));
    WB_CHECK(cudaStreamSynchronize(s.copy));
  }
}

// Events 100 and 101 of each rank: the timing's fork and join (any stage's record and wait
// pairs are issued before or after, never between).
void team::fork() {
  cudaEvent_t start = event(0, 100);
  {
    device_scope on(device(0));
    WB_CHECK(cudaEventRecord(start, stream(0)));
  }
  for_each_rank([&](int r) {
    if (r != 0) WB_CHECK(cudaStreamWaitEvent(stream(r), start, 0));
  });
}

void team::join() {
  for_each_rank([&](int r) { WB_CHECK(cudaEventRecord(event(r, 101), stream(r))); });
  device_scope on(device(0));
  for (int r = 1; r < size(); ++r) WB_CHECK(cudaStreamWaitEvent(stream(0), event(r, 101), 0));
}

std::int64_t part_begin(std::int64_t p, std::int64_t parts, std::int64_t n, std::int64_t align) {
  if (parts < 1 || align < 1 || p < 0 || p > parts) throw std::invalid_argument("part_begin: bad arguments");
  if (p == parts) return n;
  // p * n / parts in 128 bits, rounded down to the alignment.
  const auto begin = static_cast<std::int64_t>(static_cast<__int128>(p) * n / parts);
  return begin / align * align;
}

config resolve(const config& requested, std::int64_t n, std::size_t elem_bytes, int ranks) {
  if (n < 0) throw std::invalid_argument("n must be >= 0");
  if (ranks < 1 || ranks > max_ranks) throw std::invalid_argument(fmt::format("1 to {} ranks, not {}", max_ranks, ranks));
  config c = requested;
  if (c.chunk_bytes == 0) {
    const std::int64_t segment_bytes = n * static_cast<std::int64_t>(elem_bytes) / ranks;
    const std::int64_t piece = (segment_bytes + default_pieces_per_segment - 1) / default_pieces_per_segment;
    c.chunk_bytes = std::max(min_default_chunk_bytes, (piece + 4095) / 4096 * 4096);
  }
  if (c.chunk_bytes < min_chunk_bytes || c.chunk_bytes % 16 != 0) {
    throw std::invalid_argument(fmt::format("--chunk: {} bytes; a piece is a multiple of 16 bytes, at least {}",
                                            c.chunk_bytes, min_chunk_bytes));
  }
  if (c.threads == 0) c.threads = default_threads;
  if (c.threads < 32 || c.threads > 1024 || c.threads % 32 != 0) {
    throw std::invalid_argument(fmt::format("--threads: {}; a block of 32 to 1024 threads, a multiple of 32", c.threads));
  }
  if (c.blocks < 0 || c.blocks > max_blocks) {
    throw std::invalid_argument(fmt::format("--blocks: {}; 1 to {} blocks per rank (0: the default)", c.blocks, max_blocks));
  }
  return c;
}

}  // namespace allreduce
