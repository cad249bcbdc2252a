// The cpu backend's NCCL subset (wb/cpu/nccl.hpp): communicators over emulated devices,
// group calls, all-reduce, send and receive, queued on the ranks' streams (streams.cpp). A
// group becomes one meeting of the streams it names: it runs once each stream has reached it,
// computes every collective of the group (summing in rank order) and every transfer, and the
// streams go on.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "queue.hpp"
#include "wb/cpu/nccl.hpp"

namespace {

struct clique {
  int size = 0;
};

thread_local std::string t_last_error;

ncclResult_t fail(ncclResult_t code, std::string message) {
  t_last_error = std::move(message);
  return code;
}

std::size_t type_bytes(ncclDataType_t t) {
  switch (t) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64: return 8;
  }
  return 0;
}

struct call {
  enum class kind { all_reduce, send, recv } k;
  ncclComm_t comm;
  cudaStream_t stream;
  const void* send;
  void* recv;
  std::size_t count;
  ncclDataType_t type;
  ncclRedOp_t op;
  int peer;
};

thread_local int t_group_depth = 0;
thread_local std::vector<call> t_group;

template <class T>
void reduce_into(std::vector<const void*> inputs, std::vector<void*> outputs, std::size_t count, ncclRedOp_t op) {
  std::vector<T> acc(count);
  std::memcpy(acc.data(), inputs[0], count * sizeof(T));
  for (std::size_t r = 1; r < inputs.size(); ++r) {
    const T* in = static_cast<const T*>(inputs[r]);
    for (std::size_t i = 0; i < count; ++i) {
      switch (op) {
        case ncclSum: acc[i] = static_cast<T>(acc[i] + in[i]); break;
        case ncclProd: acc[i] = static_cast<T>(acc[i] * in[i]); break;
        case ncclMax: acc[i] = std::max(acc[i], in[i]); break;
        case ncclMin: acc[i] = std::min(acc[i], in[i]); break;
        case ncclAvg: break;
      }
    }
  }
  for (void* out : outputs) std::memcpy(out, acc.data(), count * sizeof(T));
}

void reduce(ncclDataType_t type, const std::vector<const void*>& in, const std::vector<void*>& out, std::size_t count,
            ncclRedOp_t op) {
  switch (type) {
    case ncclInt8: reduce_into<std::int8_t>(in, out, count, op); break;
    case ncclUint8: reduce_into<std::uint8_t>(in, out, count, op); break;
    case ncclInt32: reduce_into<std::int32_t>(in, out, count, op); break;
    case ncclUint32: reduce_into<std::uint32_t>(in, out, count, op); break;
    case ncclInt64: reduce_into<std::int64_t>(in, out, count, op); break;
    case ncclUint64: reduce_into<std::uint64_t>(in, out, count, op); break;
    case ncclFloat32: reduce_into<float>(in, out, count, op); break;
    case ncclFloat64: reduce_into<double>(in, out, count, op); break;
    case ncclFloat16: break;  // refused when the call was made
  }
}

// The buffer lies in memory of the communicator's device.
ncclResult_t check_buffer(const char* api, const char* name, const void* p, std::size_t bytes, ncclComm_t comm);

}  // namespace

struct ncclComm {
  int rank = 0;
  int device = 0;
  std::shared_ptr<clique> members;
};

namespace {
ncclResult_t check_buffer(const char* api, const char* name, const void* p, std::size_t bytes, ncclComm_t comm) {
  if (bytes == 0) return ncclSuccess;
  if (p == nullptr) return fail(ncclInvalidArgument, fmt::format("{}: {} is null", api, name));
  const int owner = wb::cpu::owner_of(p, bytes);
  if (owner != comm->device) {
    return fail(ncclInvalidArgument,
                fmt::format("{}: {} is not {} bytes of device {}'s memory (rank {}'s device){}", api, name, bytes,
                            comm->device, comm->rank, owner >= 0 ? fmt::format("; it belongs to device {}", owner) : ""));
  }
  return ncclSuccess;
}

ncclResult_t check_call(const char* api, ncclComm_t comm, cudaStream_t stream, ncclDataType_t type) {
  if (comm == nullptr) return fail(ncclInvalidArgument, fmt::format("{}: null communicator", api));
  if (type_bytes(type) == 0 || type == ncclFloat16) {
    return fail(ncclInvalidArgument, fmt::format("{}: data type {} is not emulated", api, static_cast<int>(type)));
  }
  if (wb::cpu::queue::stream_device(stream) != comm->device) {
    return fail(ncclInvalidArgument, fmt::format("{}: the stream is not a stream of device {} (rank {}'s device)", api,
                                                 comm->device, comm->rank));
  }
  return ncclSuccess;
}

// Every rank of every communicator group in the group made matching calls; then one meeting.
ncclResult_t run_group(std::vector<call> calls) {
  if (calls.empty()) return ncclSuccess;
  // All-reduces: per clique, the k-th call of each rank goes together.
  std::map<clique*, std::map<int, std::vector<const call*>>> reductions;
  std::map<std::pair<ncclComm_t, int>, std::vector<const call*>> sends, recvs;  // (comm, peer)
  for (const call& c : calls) {
    if (c.k == call::kind::all_reduce) reductions[c.comm->members.get()][c.comm->rank].push_back(&c);
    if (c.k == call::kind::send) sends[{c.comm, c.peer}].push_back(&c);
    if (c.k == call::kind::recv) recvs[{c.comm, c.peer}].push_back(&c);
  }
  struct reduction {
    std::vector<const call*> ranks;  // by rank
  };
  std::vector<reduction> plan;
  for (auto& [members, by_rank] : reductions) {
    const std::size_t k = by_rank.begin()->second.size();
    if (static_cast<int>(by_rank.size()) != members->size) {
      return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: an ncclAllReduce of {} ranks was called by {} of them: "
                                                "every rank must call it (with one thread driving all ranks, inside "
                                                "one group)",
                                                members->size, by_rank.size()));
    }
    for (auto& [rank, list] : by_rank) {
      if (list.size() != k) {
        return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: rank {} called ncclAllReduce {} times, rank {} {} times",
                                                  rank, list.size(), by_rank.begin()->first, k));
      }
    }
    for (std::size_t i = 0; i < k; ++i) {
      reduction r;
      for (auto& [rank, list] : by_rank) {
        const call* c = list[i];
        const call* first = by_rank.begin()->second[i];
        if (c->count != first->count || c->type != first->type || c->op != first->op) {
          return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: ncclAllReduce number {} differs between rank {} and "
                                                    "rank {} (count, type or operation)",
                                                    i + 1, first->comm->rank, rank));
        }
        r.ranks.push_back(c);
      }
      plan.push_back(std::move(r));
    }
  }
  // Sends and receives pair up in order between two ranks of one clique.
  std::vector<std::pair<const call*, const call*>> transfers;
  std::set<std::pair<ncclComm_t, int>> matched;
  for (auto& [key, list] : sends) {
    ncclComm_t from = key.first;
    const int to = key.second;
    const call* partner = nullptr;
    for (auto& [rkey, rlist] : recvs) {
      if (rkey.first->members == from->members && rkey.first->rank == to && rkey.second == from->rank) {
        if (rlist.size() != list.size()) break;
        for (std::size_t i = 0; i < list.size(); ++i) {
          if (list[i]->count * type_bytes(list[i]->type) != rlist[i]->count * type_bytes(rlist[i]->type)) {
            return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: rank {} sends {} bytes to rank {}, which receives {}",
                                                      from->rank, list[i]->count * type_bytes(list[i]->type), to,
                                                      rlist[i]->count * type_bytes(rlist[i]->type)));
          }
          transfers.emplace_back(list[i], rlist[i]);
        }
        matched.insert(rkey);
        partner = rlist.front();
        break;
      }
    }
    if (partner == nullptr) {
      return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: rank {} sends to rank {} {} time(s), but rank {} does not "
                                                "receive from rank {} as often in this group (a send without its "
                                                "receive waits for ever)",
                                                from->rank, to, list.size(), to, from->rank));
    }
  }
  for (auto& [rkey, rlist] : recvs) {
    if (matched.count(rkey) == 0) {
      return fail(ncclInvalidUsage, fmt::format("ncclGroupEnd: rank {} receives from rank {}, which sends nothing to it "
                                                "in this group",
                                                rkey.first->rank, rkey.second));
    }
  }
  std::vector<cudaStream_t> streams;
  for (const call& c : calls) {
    if (std::find(streams.begin(), streams.end(), c.stream) == streams.end()) streams.push_back(c.stream);
  }
  auto work = [plan = std::move(plan), transfers = std::move(transfers)] {
    for (const reduction& r : plan) {
      std::vector<const void*> in;
      std::vector<void*> out;
      for (const call* c : r.ranks) {
        in.push_back(c->send);
        out.push_back(c->recv);
      }
      reduce(r.ranks[0]->type, in, out, r.ranks[0]->count, r.ranks[0]->op);
    }
    for (const auto& [send, recv] : transfers) {
      std::memmove(recv->recv, send->send, send->count * type_bytes(send->type));
    }
  };
  // The calls must outlive the meeting: keep them in the closure.
  auto owned = std::make_shared<std::vector<call>>(std::move(calls));
  const cudaError_t e = wb::cpu::queue::submit_meeting(streams, "an NCCL group", [owned, work] { work(); });
  if (e != cudaSuccess) return fail(ncclUnhandledCudaError, cudaGetErrorString(e));
  return ncclSuccess;
}

ncclResult_t add(call c, const char* api) {
  if (t_group_depth > 0) {
    t_group.push_back(c);
    return ncclSuccess;
  }
  if (c.comm->members->size > 1) {
    return fail(ncclInvalidUsage, fmt::format("{} outside ncclGroupStart/ncclGroupEnd on a communicator of {} ranks: "
                                              "one thread driving several ranks must group their calls, or the first "
                                              "call waits for ranks whose calls never come",
                                              api, c.comm->members->size));
  }
  return run_group({c});
}
}  // namespace

ncclResult_t ncclGetVersion(int* version) {
  if (version == nullptr) return fail(ncclInvalidArgument, "ncclGetVersion: null pointer");
  *version = 22800;  // the interface emulated: NCCL 2.28's
  return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist) {
  if (comms == nullptr || ndev < 1) return fail(ncclInvalidArgument, "ncclCommInitAll: no communicators asked for");
  std::vector<int> devices(static_cast<std::size_t>(ndev));
  for (int r = 0; r < ndev; ++r) devices[static_cast<std::size_t>(r)] = devlist != nullptr ? devlist[r] : r;
  for (int r = 0; r < ndev; ++r) {
    const int d = devices[static_cast<std::size_t>(r)];
    if (!wb::cpu::device_exists(d)) return fail(ncclInvalidArgument, fmt::format("ncclCommInitAll: no device {}", d));
    for (int q = 0; q < r; ++q) {
      if (devices[static_cast<std::size_t>(q)] == d) {
        return fail(ncclInvalidUsage, fmt::format("ncclCommInitAll: ranks {} and {} are both on device {}: NCCL takes "
                                                  "one GPU per rank (duplicate GPU)",
                                                  q, r, d));
      }
    }
  }
  auto members = std::make_shared<clique>();
  members->size = ndev;
  for (int r = 0; r < ndev; ++r) comms[r] = new ncclComm{r, devices[static_cast<std::size_t>(r)], members};
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  wb::cpu::queue::wait_all();  // queued groups may still name it
  delete comm;
  return ncclSuccess;
}
ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  if (comm == nullptr || count == nullptr) return fail(ncclInvalidArgument, "ncclCommCount: null argument");
  *count = comm->members->size;
  return ncclSuccess;
}
ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  if (comm == nullptr || device == nullptr) return fail(ncclInvalidArgument, "ncclCommCuDevice: null argument");
  *device = comm->device;
  return ncclSuccess;
}
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  if (comm == nullptr || rank == nullptr) return fail(ncclInvalidArgument, "ncclCommUserRank: null argument");
  *rank = comm->rank;
  return ncclSuccess;
}

const char* ncclGetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error";
    case ncclSystemError: return "unhandled system error";
    case ncclInternalError: return "internal error";
    case ncclInvalidArgument: return "invalid argument";
    case ncclInvalidUsage: return "invalid usage";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
  }
  return "unknown result code";
}
const char* ncclGetLastError(ncclComm_t) { return t_last_error.c_str(); }

ncclResult_t ncclGroupStart() {
  ++t_group_depth;
  return ncclSuccess;
}
ncclResult_t ncclGroupEnd() {
  if (t_group_depth == 0) return fail(ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");
  if (--t_group_depth > 0) return ncclSuccess;
  return run_group(std::exchange(t_group, {}));
}

ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, std::size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  if (const ncclResult_t r = check_call("ncclAllReduce", comm, stream, datatype); r != ncclSuccess) return r;
  if (op == ncclAvg || op < ncclSum || op > ncclAvg) return fail(ncclInvalidArgument, "ncclAllReduce: operation not emulated");
  const std::size_t bytes = count * type_bytes(datatype);
  if (const ncclResult_t r = check_buffer("ncclAllReduce", "sendbuff", sendbuff, bytes, comm); r != ncclSuccess) return r;
  if (const ncclResult_t r = check_buffer("ncclAllReduce", "recvbuff", recvbuff, bytes, comm); r != ncclSuccess) return r;
  return add({call::kind::all_reduce, comm, stream, sendbuff, recvbuff, count, datatype, op, -1}, "ncclAllReduce");
}

ncclResult_t ncclSend(const void* sendbuff, std::size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  if (const ncclResult_t r = check_call("ncclSend", comm, stream, datatype); r != ncclSuccess) return r;
  if (peer < 0 || peer >= comm->members->size) return fail(ncclInvalidArgument, fmt::format("ncclSend: no rank {}", peer));
  const std::size_t bytes = count * type_bytes(datatype);
  if (const ncclResult_t r = check_buffer("ncclSend", "sendbuff", sendbuff, bytes, comm); r != ncclSuccess) return r;
  return add({call::kind::send, comm, stream, sendbuff, nullptr, count, datatype, ncclSum, peer}, "ncclSend");
}

ncclResult_t ncclRecv(void* recvbuff, std::size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  if (const ncclResult_t r = check_call("ncclRecv", comm, stream, datatype); r != ncclSuccess) return r;
  if (peer < 0 || peer >= comm->members->size) return fail(ncclInvalidArgument, fmt::format("ncclRecv: no rank {}", peer));
  const std::size_t bytes = count * type_bytes(datatype);
  if (const ncclResult_t r = check_buffer("ncclRecv", "recvbuff", recvbuff, bytes, comm); r != ncclSuccess) return r;
  return add({call::kind::recv, comm, stream, nullptr, recvbuff, count, datatype, ncclSum, peer}, "ncclRecv");
}
