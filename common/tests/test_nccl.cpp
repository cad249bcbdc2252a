// The cpu backend's NCCL subset (wb/cpu/nccl.hpp): communicators, the group rule, all-reduce,
// send and receive on emulated devices and queued streams. cpu backend only (a real NCCL needs
// one GPU per rank).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/multi_gpu.hpp"
#include "wb/nccl.hpp"
#include "wb/testing.hpp"

#if defined(WB_NCCL_EMULATED)

namespace {

struct nccl_scope {
  int saved_count = wb::cpu::device_count();
  wb::cpu::stream_model saved_model = wb::cpu::current_stream_model();
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  explicit nccl_scope(int ranks) : comms(static_cast<std::size_t>(ranks)), streams(static_cast<std::size_t>(ranks)) {
    wb::emulate_devices(ranks);
    WB_NCCL_CHECK(ncclCommInitAll(comms.data(), ranks, nullptr));
    for (int r = 0; r < ranks; ++r) {
      WB_CHECK(cudaSetDevice(r));
      WB_CHECK(cudaStreamCreate(&streams[static_cast<std::size_t>(r)]));
    }
  }
  ~nccl_scope() {
    for (std::size_t r = 0; r < comms.size(); ++r) {
      cudaSetDevice(static_cast<int>(r));
      cudaStreamDestroy(streams[r]);
      ncclCommDestroy(comms[r]);
    }
    cudaSetDevice(0);
    wb::cpu::set_stream_model(saved_model);
    wb::cpu::set_device_count(saved_count);
  }
};

}  // namespace

TEST_SUITE("common/cpu backend: NCCL subset") {
  TEST_CASE("ncclAllReduce in a group: every rank gets the sum, in place too") {
    nccl_scope nccl(3);
    std::vector<wb::device_buffer<std::int32_t>> in, out;
    for (int r = 0; r < 3; ++r) {
      WB_CHECK(cudaSetDevice(r));
      in.emplace_back(std::vector<std::int32_t>{r, 10 * r, -r, 7});
      out.emplace_back(4);
    }
    WB_NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < 3; ++r) {
      WB_NCCL_CHECK(ncclAllReduce(in[r].data(), out[r].data(), 4, ncclInt32, ncclSum, nccl.comms[r], nccl.streams[r]));
    }
    WB_NCCL_CHECK(ncclGroupEnd());
    WB_NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < 3; ++r) {
      WB_NCCL_CHECK(ncclAllReduce(in[r].data(), in[r].data(), 4, ncclInt32, ncclMax, nccl.comms[r], nccl.streams[r]));
    }
    WB_NCCL_CHECK(ncclGroupEnd());
    for (int r = 0; r < 3; ++r) {
      WB_CHECK(cudaSetDevice(r));
      WB_CHECK(cudaStreamSynchronize(nccl.streams[r]));
      CHECK(out[r].to_host() == std::vector<std::int32_t>{3, 30, -3, 21});
      CHECK(in[r].to_host() == std::vector<std::int32_t>{2, 20, 0, 7});
    }
  }

  TEST_CASE("the group rule, one GPU per rank, buffers on the rank's device") {
    nccl_scope nccl(2);
    WB_CHECK(cudaSetDevice(0));
    wb::device_buffer<float> a(8);
    CHECK(ncclAllReduce(a.data(), a.data(), 8, ncclFloat, ncclSum, nccl.comms[0], nccl.streams[0]) == ncclInvalidUsage);
    CHECK(std::string(ncclGetLastError(nullptr)).find("group") != std::string::npos);
    CHECK(ncclAllReduce(a.data(), a.data(), 8, ncclFloat, ncclSum, nccl.comms[1], nccl.streams[1]) == ncclInvalidArgument);
    ncclComm_t two[2];
    const int same[2] = {0, 0};
    CHECK(ncclCommInitAll(two, 2, same) == ncclInvalidUsage);
    // Only one rank calls its part: the group is refused instead of waiting for ever.
    WB_NCCL_CHECK(ncclGroupStart());
    WB_NCCL_CHECK(ncclAllReduce(a.data(), a.data(), 8, ncclFloat, ncclSum, nccl.comms[0], nccl.streams[0]));
    CHECK(ncclGroupEnd() == ncclInvalidUsage);
  }

  TEST_CASE("ncclSend/ncclRecv in a group: both directions at once, and the receive must match the send") {
    nccl_scope nccl(2);
    std::vector<wb::device_buffer<std::int64_t>> send, recv;
    for (int r = 0; r < 2; ++r) {
      WB_CHECK(cudaSetDevice(r));
      send.emplace_back(std::vector<std::int64_t>{100 + r, 200 + r, 300 + r});
      recv.emplace_back(3);
    }
    WB_NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < 2; ++r) {
      WB_NCCL_CHECK(ncclSend(send[r].data(), 3, ncclInt64, 1 - r, nccl.comms[r], nccl.streams[r]));
      WB_NCCL_CHECK(ncclRecv(recv[r].data(), 3, ncclInt64, 1 - r, nccl.comms[r], nccl.streams[r]));
    }
    WB_NCCL_CHECK(ncclGroupEnd());
    for (int r = 0; r < 2; ++r) {
      WB_CHECK(cudaSetDevice(r));
      WB_CHECK(cudaStreamSynchronize(nccl.streams[r]));
      CHECK(recv[r].to_host() == std::vector<std::int64_t>{101 - r, 201 - r, 301 - r});
    }
    WB_NCCL_CHECK(ncclGroupStart());
    WB_NCCL_CHECK(ncclSend(send[0].data(), 3, ncclInt64, 1, nccl.comms[0], nccl.streams[0]));
    WB_NCCL_CHECK(ncclRecv(recv[1].data(), 2, ncclInt64, 0, nccl.comms[1], nccl.streams[1]));
    CHECK(ncclGroupEnd() == ncclInvalidUsage);
  }
}

#endif  // WB_NCCL_EMULATED
