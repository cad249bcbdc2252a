// The cpu backend's several devices (wb/cpu/devices.hpp, common/CPU-BACKEND.md "Several
// devices"): device selection and ownership, peer access and peer copies, queued streams and
// their adversarial order, kernels of two devices that wait for each other, the store buffer
// behind wb::peer_store, and the waits that can never end. The emulator's own behaviour: cpu
// backend only.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "wb/device_buffer.hpp"
#include "wb/kernel.hpp"
#include "wb/multi_gpu.hpp"
#include "wb/system_scope.hpp"
#include "wb/testing.hpp"

namespace wb_test_devices {

// The kernels compile on both backends (with nvcc: a compile check of wb/system_scope.hpp;
// outside an anonymous namespace, so that nvcc does not call them unused there).

// out[i] = in[i] + 1 (reads whatever in holds when it runs)
__global__ void add_one(const int* in, int* out, int n) {
  for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) out[i] = in[i] + 1;
}

// Block 0 of each of two kernels: signal the other device, then wait for its signal; then
// every thread writes `value` (so the result shows both got past the handshake).
__global__ void handshake(std::uint64_t* my_flag, std::uint64_t* peer_flag, int* out, int value) {
  if (threadIdx.x == 0) {
    wb::sys::store_release(peer_flag, std::uint64_t{1});
    wb::sys::wait_at_least(my_flag, std::uint64_t{1});
  }
  __syncthreads();
  out[threadIdx.x] = value;
}

__global__ void wait_forever(const std::uint64_t* flag) { wb::sys::wait_at_least(flag, std::uint64_t{1}); }

// The writer puts n values into the reader's memory with peer stores, announces them with a
// flag (how: 0 relaxed store, 1 release store, 2 __threadfence() then relaxed, 3
// __threadfence_system() then relaxed), and stays in the kernel until the reader has copied
// what it saw, so the end of the kernel cannot make up for a missing release.
__global__ void publish(int* peer_data, std::uint64_t* peer_flag, const std::uint64_t* reader_done, int n, int how) {
  for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) wb::peer_store(peer_data + i, i + 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (how == 1) {
      wb::sys::store_release(peer_flag, std::uint64_t{1});
    } else {
      if (how == 2) __threadfence();
      if (how == 3) __threadfence_system();
      wb::sys::store_relaxed(peer_flag, std::uint64_t{1});
    }
    wb::sys::wait_at_least(reader_done, std::uint64_t{1});
  }
}
__global__ void consume(const int* data, const std::uint64_t* flag, int* copy, std::uint64_t* writer_done, int n) {
  if (threadIdx.x == 0) wb::sys::wait_at_least(flag, std::uint64_t{1});
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x)) copy[i] = data[i];
  __syncthreads();
  if (threadIdx.x == 0) wb::sys::store_release(writer_done, std::uint64_t{1});
}

__global__ void store_flag(std::uint64_t* flag) { wb::sys::store_release(flag, std::uint64_t{7}); }

}  // namespace wb_test_devices

#if defined(WB_BACKEND_CPU)

namespace {

using namespace wb_test_devices;

// Emulated devices and a stream model for one test case; restores the defaults afterwards.
struct devices_scope {
  int saved_count = wb::cpu::device_count();
  wb::cpu::stream_model saved_model = wb::cpu::current_stream_model();
  wb::cpu::queue_order saved_order = wb::cpu::current_queue_order();
  explicit devices_scope(int count, wb::cpu::stream_model model = wb::cpu::stream_model::queued) {
    wb::cpu::set_device_count(count);
    wb::cpu::set_stream_model(model);
    wb::cpu::set_queue_order(wb::cpu::queue_order::latest_first);
  }
  ~devices_scope() {
    cudaDeviceSynchronize();
    cudaGetLastError();
    cudaSetDevice(0);
    wb::cpu::set_stream_model(saved_model);
    wb::cpu::set_queue_order(saved_order);
    wb::cpu::set_device_count(saved_count);
  }
};

std::string error_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

std::vector<int> iota_plus(int n, int add) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i + add;
  return v;
}

// Runs the publish/consume pair: the writer on device 0, the reader on device 1.
std::vector<int> publish_and_copy(int n, int how) {
  WB_CHECK(cudaSetDevice(1));
  wb::device_buffer<int> data(static_cast<std::size_t>(n)), copy(static_cast<std::size_t>(n));
  wb::device_buffer<std::uint64_t> flags(2);  // [0] data ready, [1] reader done
  flags.fill_bytes(0);
  cudaStream_t s1;
  WB_CHECK(cudaStreamCreate(&s1));
  WB_CHECK(cudaSetDevice(0));
  cudaStream_t s0;
  WB_CHECK(cudaStreamCreate(&s0));
  wb::launch({1, 64, 0, s0}, publish, data.data(), flags.data(), static_cast<const std::uint64_t*>(flags.data() + 1), n, how);
  WB_CHECK(cudaSetDevice(1));
  wb::launch({1, 64, 0, s1}, consume, static_cast<const int*>(data.data()), static_cast<const std::uint64_t*>(flags.data()),
             copy.data(), flags.data() + 1, n);
  WB_CHECK(cudaStreamSynchronize(s1));
  WB_CHECK(cudaSetDevice(0));
  WB_CHECK(cudaStreamSynchronize(s0));
  WB_CHECK(cudaStreamDestroy(s0));
  WB_CHECK(cudaStreamDestroy(s1));
  return copy.to_host();
}

}  // namespace

TEST_SUITE("common/cpu backend: several devices") {
  TEST_CASE("devices: count, selection, and memory owned by the device current at cudaMalloc") {
    devices_scope scope(3, wb::cpu::stream_model::immediate);
    int count = 0;
    CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
    CHECK(count == 3);
    CHECK(cudaSetDevice(3) == cudaErrorInvalidDevice);
    cudaGetLastError();
    int* p0 = nullptr;
    int* p2 = nullptr;
    CHECK(cudaMalloc(&p0, 64) == cudaSuccess);
    CHECK(cudaSetDevice(2) == cudaSuccess);
    int device = -1;
    CHECK(cudaGetDevice(&device) == cudaSuccess);
    CHECK(device == 2);
    CHECK(cudaMalloc(&p2, 64) == cudaSuccess);
    CHECK(wb::cpu::owner_of(p0) == 0);
    CHECK(wb::cpu::owner_of(p2 + 15) == 2);
    CHECK(wb::cpu::owner_of(p2 + 16) == -1);  // past the end
    cudaPointerAttributes a{};
    CHECK(cudaPointerGetAttributes(&a, p2) == cudaSuccess);
    CHECK(a.type == cudaMemoryTypeDevice);
    CHECK(a.device == 2);
    CHECK(cudaFree(p0) == cudaSuccess);
    CHECK(cudaFree(p2) == cudaSuccess);
    CHECK(wb::cpu::owner_of(p2) == -1);
  }

  TEST_CASE("peer access: a device is not its own peer; enabling twice and disabling unenabled access are errors") {
    devices_scope scope(2, wb::cpu::stream_model::immediate);
    int can = -1;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess);
    CHECK(can == 1);
    CHECK(cudaDeviceCanAccessPeer(&can, 1, 1) == cudaSuccess);
    CHECK(can == 0);
    CHECK(cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
    CHECK(cudaDeviceEnablePeerAccess(1, 0) == cudaSuccess);
    CHECK(cudaDeviceEnablePeerAccess(1, 0) == cudaErrorPeerAccessAlreadyEnabled);
    CHECK(cudaDeviceDisablePeerAccess(1) == cudaSuccess);
    CHECK(cudaDeviceDisablePeerAccess(1) == cudaErrorPeerAccessNotEnabled);
    cudaGetLastError();
  }

  TEST_CASE("peer copies check that each pointer is memory of the device named") {
    devices_scope scope(2);
    wb::device_buffer<int> a(iota_plus(100, 0));
    WB_CHECK(cudaSetDevice(1));
    wb::device_buffer<int> b(100);
    WB_CHECK(cudaMemcpyPeer(b.data(), 1, a.data(), 0, 100 * sizeof(int)));
    CHECK(b.to_host() == iota_plus(100, 0));
    const cudaError_t wrong = cudaMemcpyPeerAsync(b.data(), 0, a.data(), 0, 4, nullptr);
    CHECK(wrong == cudaErrorInvalidValue);
    CHECK_MESSAGE(error_text(wrong).find("belongs to device 1") != std::string::npos, error_text(wrong));
    cudaGetLastError();
    std::vector<int> host(4);
    CHECK(cudaMemcpyPeer(host.data(), 1, a.data(), 0, 16) == cudaErrorInvalidValue);
    cudaGetLastError();
  }

  TEST_CASE("queued streams: work waits until the host waits, then runs in stream order") {
    devices_scope scope(1);
    wb::device_buffer<int> a(iota_plus(64, 0)), b(64), c(64);
    cudaStream_t s;
    WB_CHECK(cudaStreamCreate(&s));
    wb::launch({1, 32, 0, s}, add_one, static_cast<const int*>(a.data()), b.data(), 64);
    wb::launch({1, 32, 0, s}, add_one, static_cast<const int*>(b.data()), c.data(), 64);
    CHECK(cudaStreamQuery(s) == cudaErrorNotReady);  // one step: the first kernel only
    WB_CHECK(cudaStreamSynchronize(s));
    CHECK(c.to_host() == iota_plus(64, 2));
    WB_CHECK(cudaStreamDestroy(s));
  }

  TEST_CASE("queued streams, latest first: a consumer that does not wait for its producer's event reads too early") {
    devices_scope scope(1);
    const std::vector<int> values = iota_plus(64, 10);
    for (const bool with_wait : {false, true}) {
      CAPTURE(with_wait);
      wb::device_buffer<int> staged(64), out(64);
      staged.fill_bytes(0);
      cudaStream_t producer, consumer;
      cudaEvent_t copied;
      WB_CHECK(cudaStreamCreate(&producer));
      WB_CHECK(cudaStreamCreate(&consumer));
      WB_CHECK(cudaEventCreate(&copied));
      WB_CHECK(cudaMemcpyAsync(staged.data(), values.data(), 64 * sizeof(int), cudaMemcpyHostToDevice, producer));
      WB_CHECK(cudaEventRecord(copied, producer));
      if (with_wait) WB_CHECK(cudaStreamWaitEvent(consumer, copied, 0));
      wb::launch({1, 32, 0, consumer}, add_one, static_cast<const int*>(staged.data()), out.data(), 64);
      WB_CHECK(cudaDeviceSynchronize());
      if (with_wait) {
        CHECK(out.to_host() == iota_plus(64, 11));
      } else {
        CHECK(out.to_host() == std::vector<int>(64, 1));  // the kernel ran first and saw the zeros
      }
      WB_CHECK(cudaEventDestroy(copied));
      WB_CHECK(cudaStreamDestroy(producer));
      WB_CHECK(cudaStreamDestroy(consumer));
    }
  }

  TEST_CASE("queued streams: the legacy default stream waits for blocking streams, not for non-blocking ones") {
    devices_scope scope(1);
    for (const unsigned flags : {cudaStreamDefault, cudaStreamNonBlocking}) {
      CAPTURE(flags);
      wb::device_buffer<int> a(64), b(64);
      a.fill_bytes(0);
      const std::vector<int> values = iota_plus(64, 5);
      cudaStream_t s;
      WB_CHECK(cudaStreamCreateWithFlags(&s, flags));
      WB_CHECK(cudaMemcpyAsync(a.data(), values.data(), 64 * sizeof(int), cudaMemcpyHostToDevice, s));
      wb::launch({1, 32}, add_one, static_cast<const int*>(a.data()), b.data(), 64);  // legacy stream
      WB_CHECK(cudaDeviceSynchronize());
      CHECK(b.to_host() == (flags == cudaStreamDefault ? iota_plus(64, 6) : std::vector<int>(64, 1)));
      WB_CHECK(cudaStreamDestroy(s));
    }
  }

  TEST_CASE("queued streams: a stream, an event and the kernel must agree on the device") {
    devices_scope scope(2);
    cudaStream_t s1;
    cudaEvent_t e0;
    WB_CHECK(cudaEventCreate(&e0));
    WB_CHECK(cudaSetDevice(1));
    WB_CHECK(cudaStreamCreate(&s1));
    WB_CHECK(cudaSetDevice(0));
    int* out = nullptr;
    WB_CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK_THROWS_WITH_AS(wb::launch({1, 32, 0, s1}, add_one, static_cast<const int*>(out), out, 1),
                         doctest::Contains("the stream belongs to device 1 but the current device is 0"), wb::cuda_error);
    CHECK(cudaEventRecord(e0, s1) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    WB_CHECK(cudaSetDevice(1));
    CHECK(cudaStreamWaitEvent(s1, e0, 0) == cudaSuccess);  // waiting for another device's event is the point
    WB_CHECK(cudaStreamDestroy(s1));
    WB_CHECK(cudaEventDestroy(e0));
    WB_CHECK(cudaFree(out));
  }

  TEST_CASE("two devices' kernels that wait for each other both finish (they run together)") {
    devices_scope scope(2);
    std::vector<wb::device_buffer<std::uint64_t>> flags;
    std::vector<wb::device_buffer<int>> outs;
    std::vector<cudaStream_t> streams(2);
    for (int d = 0; d < 2; ++d) {
      WB_CHECK(cudaSetDevice(d));
      WB_CHECK(cudaDeviceEnablePeerAccess(1 - d, 0));
      flags.emplace_back(1);
      flags.back().fill_bytes(0);
      outs.emplace_back(32);
      WB_CHECK(cudaStreamCreate(&streams[static_cast<std::size_t>(d)]));
    }
    for (const auto order : {wb::cpu::queue_order::latest_first, wb::cpu::queue_order::earliest_first}) {
      wb::cpu::set_queue_order(order);
      // Reset both flags before either kernel is queued: a synchronous memset on device 0 would
      // wait for its kernel, which waits for device 1's, not queued yet (a hang on a GPU too).
      for (auto& f : flags) f.fill_bytes(0);
      for (int d = 0; d < 2; ++d) {
        WB_CHECK(cudaSetDevice(d));
        wb::launch({1, 32, 0, streams[static_cast<std::size_t>(d)]}, handshake, flags[static_cast<std::size_t>(d)].data(),
                   flags[static_cast<std::size_t>(1 - d)].data(), outs[static_cast<std::size_t>(d)].data(), 10 + d);
      }
      for (int d = 0; d < 2; ++d) {
        WB_CHECK(cudaSetDevice(d));
        WB_CHECK(cudaStreamSynchronize(streams[static_cast<std::size_t>(d)]));
        CHECK(outs[static_cast<std::size_t>(d)].to_host() == std::vector<int>(32, 10 + d));
      }
    }
    for (int d = 0; d < 2; ++d) {
      WB_CHECK(cudaSetDevice(d));
      WB_CHECK(cudaStreamDestroy(streams[static_cast<std::size_t>(d)]));
    }
  }

  TEST_CASE("a wait that nothing can end is an error naming it, not a hang; the next work runs") {
    devices_scope scope(1);
    wb::device_buffer<std::uint64_t> flag(1);
    flag.fill_bytes(0);
    wb::launch({1, 32}, wait_forever, static_cast<const std::uint64_t*>(flag.data()));
    const cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaErrorLaunchFailure);
    const std::string text = cudaGetErrorString(e);
    CHECK_MESSAGE(text.find("deadlock") != std::string::npos, text);
    CHECK_MESSAGE(text.find("test_devices.cu") != std::string::npos, text);
    cudaGetLastError();
    wb::launch({1, 1}, store_flag, flag.data());
    CHECK(flag.to_host() == std::vector<std::uint64_t>{7});
  }

  TEST_CASE("immediate streams: a wait for another kernel is reported at once") {
    devices_scope scope(1, wb::cpu::stream_model::immediate);
    wb::device_buffer<std::uint64_t> flag(1);
    flag.fill_bytes(0);
    CHECK_THROWS_WITH_AS(wb::launch({1, 32}, wait_forever, static_cast<const std::uint64_t*>(flag.data())),
                         doctest::Contains("a wait that cannot end"), wb::cuda_error);
  }

  TEST_CASE("a kernel touching a peer's memory through wb::sys needs peer access") {
    devices_scope scope(2);
    WB_CHECK(cudaSetDevice(1));
    wb::device_buffer<std::uint64_t> flag(1);
    WB_CHECK(cudaSetDevice(0));
    wb::launch({1, 1}, store_flag, flag.data());
    const cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaErrorLaunchFailure);
    CHECK_MESSAGE(std::string(cudaGetErrorString(e)).find("without peer access") != std::string::npos,
                  cudaGetErrorString(e));
    cudaGetLastError();
  }

  TEST_CASE("peer stores are seen after a release store or a system fence; a relaxed flag or a GPU-scope fence arrives first") {
    devices_scope scope(2);
    WB_CHECK(cudaDeviceEnablePeerAccess(1, 0));
    const int n = 100;
    const std::vector<int> expected = iota_plus(n, 1);
    CHECK(publish_and_copy(n, 1) == expected);  // release store
    CHECK(publish_and_copy(n, 3) == expected);  // __threadfence_system(), then a relaxed store
    const std::vector<int> poison(static_cast<std::size_t>(n), static_cast<int>(0xA5A5A5A5u));
    CHECK(publish_and_copy(n, 0) == poison);    // relaxed store: the flag arrives before the data
    CHECK(publish_and_copy(n, 2) == poison);    // __threadfence() orders nothing for another GPU
  }

  TEST_CASE("cudaFree waits for the queued work that uses the memory") {
    devices_scope scope(1);
    std::vector<int> host(64, 0);
    {
      wb::device_buffer<int> a(iota_plus(64, 0)), b(64);
      cudaStream_t s;
      WB_CHECK(cudaStreamCreate(&s));
      wb::launch({1, 32, 0, s}, add_one, static_cast<const int*>(a.data()), b.data(), 64);
      WB_CHECK(cudaMemcpyAsync(host.data(), b.data(), 64 * sizeof(int), cudaMemcpyDeviceToHost, s));
      WB_CHECK(cudaStreamDestroy(s));  // the stream's work still completes
    }
    CHECK(host == iota_plus(64, 1));
  }
}

#endif  // WB_BACKEND_CPU
