// The device line at the top of every run (see wb/device_info.hpp).
#include "wb/device_info.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace wb {

#if defined(WB_BACKEND_CUDA)

namespace {
// cudaGetDeviceCount, once. A failure (no driver, no device) is remembered with its text and
// cleared from the runtime's last-error slot so later checks do not trip over it.
struct gpu_probe {
  bool available = false;
  std::string why;
};
const gpu_probe& probe() {
  static const gpu_probe result = [] {
    gpu_probe p;
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
      p.why = fmt::format("cudaGetDeviceCount: {}", cudaGetErrorString(code));
      cudaGetLastError();
    } else if (count == 0) {
      p.why = "cudaGetDeviceCount: 0 devices";
    } else {
      p.available = true;
    }
    return p;
  }();
  return result;
}

std::string version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }
}  // namespace

bool gpu_available() { return probe().available; }

std::string device_description() {
  if (!gpu_available()) {
    return fmt::format("no CUDA GPU available ({}); this is the cuda backend build — rebuild with "
                       "-DWB_BACKEND=cpu to run on the CPU",
                       probe().why);
  }
  int device = 0;
  WB_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  WB_CHECK(cudaGetDeviceProperties(&prop, device));
  // CUDA 13 removed the clock fields from cudaDeviceProp: ask for the attributes (kHz).
  int sm_khz = 0;
  int mem_khz = 0;
  int bus_bits = 0;
  WB_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));
  WB_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
  WB_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  int runtime_version = 0;
  int driver_version = 0;
  WB_CHECK(cudaRuntimeGetVersion(&runtime_version));
  WB_CHECK(cudaDriverGetVersion(&driver_version));
  return fmt::format(
      "GPU {}: {}, {} SMs, {:.1f} GiB, cc {}.{}, L2 {:.0f} MiB, SM clock {} MHz, memory clock {} MHz, "
      "{}-bit bus; CUDA runtime {}, driver {}",
      device, prop.name, prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / (1 << 30),
      prop.major, prop.minor, static_cast<double>(prop.l2CacheSize) / (1 << 20), sm_khz / 1000, mem_khz / 1000,
      bus_bits, version_text(runtime_version), version_text(driver_version));
}

void print_device_info_or_exit() {
  if (!gpu_available()) {
    std::fprintf(stderr, "%s\n", device_description().c_str());
    std::exit(2);
  }
  std::printf("%s\n", device_description().c_str());
  std::fflush(stdout);
}

#else  // cpu backend

bool gpu_available() { return false; }

std::string device_description() {
  const auto& options = cpu::current_options();
  return fmt::format(
      "cpu backend: kernels run on the fiber emulator on this CPU ({} hardware threads; {} host "
      "thread{}, order {}); timings are emulated",
      std::thread::hardware_concurrency(), options.host_threads, options.host_threads == 1 ? "" : "s",
      cpu::schedule_order_name());
}

void print_device_info_or_exit() {
  std::printf("%s\n", device_description().c_str());
  std::fflush(stdout);
}

#endif

int multiprocessor_count(int device) {
  if (device < 0) WB_CHECK(cudaGetDevice(&device));
  int count = 0;
  WB_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count > 0 ? count : 1;
}

}  // namespace wb
