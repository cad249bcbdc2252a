// The cpu backend's runtime API: memory, copies, device properties, errors (streams and events:
// streams.cpp; several devices, peer access and peer copies: devices.cpp).
//
// Host and "device" memory are the same address space here. Device allocations are still
// tracked, so that copies and memsets through the API are checked as on a GPU (a host
// pointer passed where device memory is required is cudaErrorInvalidValue), and they are
// filled with the poison byte 0xA5 so that reading memory nobody wrote gives visible garbage.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "internal.hpp"
#include "queue.hpp"  // several devices and queued streams: devices.cpp, streams.cpp
#include "wb/cpu/emulation.hpp"

namespace wb::cpu {
namespace {

constexpr unsigned char poison_byte = 0xA5;

struct error_state {
  cudaError_t last = cudaSuccess;
  cudaError_t detail_code = cudaSuccess;
  std::string detail;
};
thread_local error_state t_errors;

// Live allocations: start address -> size, for range checks.
struct allocation_table {
  std::mutex mutex;
  std::map<const unsigned char*, std::size_t> device;
  std::map<const unsigned char*, std::size_t> pinned;
};
allocation_table& allocations() {
  static allocation_table table;
  return table;
}

bool contains(const std::map<const unsigned char*, std::size_t>& map, const void* ptr, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(ptr);
  auto it = map.upper_bound(p);
  if (it == map.begin()) return false;
  --it;
  return p >= it->first && p + bytes <= it->first + it->second;
}

bool is_device_range(const void* ptr, std::size_t bytes) {
  auto& table = allocations();
  std::lock_guard lock(table.mutex);
  return contains(table.device, ptr, bytes);
}

std::size_t host_bytes(int name) {
  long pages = sysconf(name);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
}

// Whole pages (cudaMalloc promises 256-byte alignment), with a page before and a page after
// that belong to no allocation: no other data shares a page with an allocation, so the race
// check tells global memory from shared memory by the page, and it reports a kernel's access
// past either end of an allocation (into the rest of its last page, or a guard page).
constexpr std::size_t page_bytes = 4096;

std::size_t rounded_bytes(std::size_t bytes) { return (std::max<std::size_t>(bytes, 1) + page_bytes - 1) / page_bytes * page_bytes; }

void* allocate(std::size_t bytes, std::map<const unsigned char*, std::size_t>& map) {
  const std::size_t rounded = rounded_bytes(bytes);
  auto* base = static_cast<unsigned char*>(std::aligned_alloc(page_bytes, rounded + 2 * page_bytes));
  if (base == nullptr) return nullptr;
  std::memset(base, poison_byte, rounded + 2 * page_bytes);
  unsigned char* p = base + page_bytes;
  auto& table = allocations();
  std::lock_guard lock(table.mutex);
  map[p] = bytes;
  return p;
}

cudaError_t release(void* ptr, std::map<const unsigned char*, std::size_t>& map, const char* api) {
  if (ptr == nullptr) return cudaSuccess;
  {
    auto& table = allocations();
    std::lock_guard lock(table.mutex);
    auto it = map.find(static_cast<const unsigned char*>(ptr));
    if (it == map.end()) {
      return detail::set_last_error(cudaErrorInvalidValue,
                                    std::string(api) + ": pointer was not allocated by the matching call");
    }
    map.erase(it);
  }
  std::free(static_cast<unsigned char*>(ptr) - page_bytes);
  return cudaSuccess;
}

cudaDeviceProp make_properties() {
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "CPU emulator (wb cpu backend)");
  p.totalGlobalMem = host_bytes(_SC_PHYS_PAGES);
  p.sharedMemPerBlock = 48 * 1024;
  p.sharedMemPerBlockOptin = current_options().max_dynamic_shared;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.maxThreadsPerMultiProcessor = 2048;
  p.multiProcessorCount = sm_count();
  p.l2CacheSize = 0;  // no cache to flush between timed runs
  p.memoryBusWidth = 0;
  p.major = 9;  // built-ins of compute capability 9.0 are emulated (e.g. __reduce_add_sync)
  p.minor = 0;
  return p;
}

// Made once: the properties do not change while the program runs, and chapters ask for them
// on their launch paths (the multiprocessor count that sizes a grid).
const cudaDeviceProp& emulated_properties() {
  static const cudaDeviceProp properties = make_properties();
  return properties;
}

}  // namespace

namespace detail {

bool find_region(const void* ptr, region* out) {
  auto& table = allocations();
  std::lock_guard lock(table.mutex);
  const auto* p = static_cast<const unsigned char*>(ptr);
  for (const auto* map : {&table.device, &table.pinned}) {
    // The allocation starting after p (p in its guard page before), and the one before.
    auto next = map->upper_bound(p);
    if (next != map->end() && p >= next->first - page_bytes) {
      *out = {next->first, next->second, rounded_bytes(next->second)};
      return true;
    }
    if (next == map->begin()) continue;
    const auto at = std::prev(next);
    if (p < at->first + rounded_bytes(at->second) + page_bytes) {
      *out = {at->first, at->second, rounded_bytes(at->second)};
      return true;
    }
  }
  return false;
}

bool find_allocation(const void* ptr, std::size_t* offset, std::size_t* bytes) {
  auto& table = allocations();
  std::lock_guard lock(table.mutex);
  for (const auto* map : {&table.device, &table.pinned}) {
    const auto* p = static_cast<const unsigned char*>(ptr);
    auto it = map->upper_bound(p);
    if (it == map->begin()) continue;
    --it;
    if (p < it->first + it->second) {
      *offset = static_cast<std::size_t>(p - it->first);
      *bytes = it->second;
      return true;
    }
  }
  return false;
}

}  // namespace detail

int sm_count() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

cudaError_t func_set_attribute(cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize &&
      (value < 0 || static_cast<std::size_t>(value) > current_options().max_dynamic_shared)) {
    return detail::set_last_error(
        cudaErrorInvalidValue, "cudaFuncSetAttribute: " + std::to_string(value) +
                                   " bytes of dynamic shared memory is more than the limit of " +
                                   std::to_string(current_options().max_dynamic_shared));
  }
  return cudaSuccess;
}

namespace detail {
cudaError_t set_last_error(cudaError_t code, std::string message) {
  t_errors.last = code;
  t_errors.detail_code = code;
  t_errors.detail = std::move(message);
  return code;
}
}  // namespace detail

}  // namespace wb::cpu

using wb::cpu::detail::set_last_error;

// --- memory ---------------------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaMalloc: null result pointer");
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  void* p = wb::cpu::allocate(bytes, wb::cpu::allocations().device);
  if (p == nullptr) {
    return set_last_error(cudaErrorMemoryAllocation,
                          "out of memory: cudaMalloc of " + std::to_string(bytes) + " bytes failed");
  }
  *ptr = p;
  wb::cpu::detail::record_allocation(p, bytes);  // owned by the current device (devices.cpp)
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  // cudaFree waits for the device's queued work (streams.cpp), which may still use the memory.
  if (const cudaError_t e = wb::cpu::queue::wait_all(); e != cudaSuccess) return e;
  const cudaError_t e = wb::cpu::release(ptr, wb::cpu::allocations().device, "cudaFree");
  if (e == cudaSuccess && ptr != nullptr) wb::cpu::detail::forget_allocation(ptr);
  return e;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) { return cudaHostAlloc(ptr, bytes, 0); }

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int) {
  if (ptr == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaHostAlloc: null result pointer");
  *ptr = nullptr;
  if (bytes == 0) return cudaSuccess;
  void* p = wb::cpu::allocate(bytes, wb::cpu::allocations().pinned);
  if (p == nullptr) {
    return set_last_error(cudaErrorMemoryAllocation,
                          "out of memory: cudaHostAlloc of " + std::to_string(bytes) + " bytes failed");
  }
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  if (const cudaError_t e = wb::cpu::queue::wait_all(); e != cudaSuccess) return e;  // queued copies may use it
  return wb::cpu::release(ptr, wb::cpu::allocations().pinned, "cudaFreeHost");
}

namespace {
// The checks of a copy (the same for the synchronous and the queued one).
cudaError_t check_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (dst == nullptr || src == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaMemcpy: null pointer");
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return set_last_error(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: invalid direction");
  }
  if (dst_device && !wb::cpu::is_device_range(dst, bytes)) {
    return set_last_error(cudaErrorInvalidValue,
                          "cudaMemcpy: the destination is not " + std::to_string(bytes) +
                              " bytes of device memory (a host pointer, or past the end of an allocation)");
  }
  if (src_device && !wb::cpu::is_device_range(src, bytes)) {
    return set_last_error(cudaErrorInvalidValue,
                          "cudaMemcpy: the source is not " + std::to_string(bytes) +
                              " bytes of device memory (a host pointer, or past the end of an allocation)");
  }
  return cudaSuccess;
}
cudaError_t check_memset(void* dst, std::size_t bytes) {
  if (!wb::cpu::is_device_range(dst, bytes)) {
    return set_last_error(cudaErrorInvalidValue,
                          "cudaMemset: the destination is not " + std::to_string(bytes) + " bytes of device memory");
  }
  return cudaSuccess;
}
}  // namespace

// Copies and memsets go through the current stream model (streams.cpp): at once, or queued on
// the stream (the synchronous calls on the legacy default stream, waited for).
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_copy(dst, src, bytes, kind); e != cudaSuccess) return e;
  return wb::cpu::queue::submit(nullptr, "cudaMemcpy", [dst, src, bytes] { std::memmove(dst, src, bytes); }, true);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_copy(dst, src, bytes, kind); e != cudaSuccess) return e;
  return wb::cpu::queue::submit(stream, "cudaMemcpyAsync", [dst, src, bytes] { std::memmove(dst, src, bytes); }, false);
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_memset(dst, bytes); e != cudaSuccess) return e;
  return wb::cpu::queue::submit(nullptr, "cudaMemset", [dst, value, bytes] { std::memset(dst, value, bytes); }, true);
}

cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_memset(dst, bytes); e != cudaSuccess) return e;
  return wb::cpu::queue::submit(stream, "cudaMemsetAsync", [dst, value, bytes] { std::memset(dst, value, bytes); }, false);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaMemGetInfo: null pointer");
  *free_bytes = wb::cpu::host_bytes(_SC_AVPHYS_PAGES);
  *total_bytes = wb::cpu::host_bytes(_SC_PHYS_PAGES);
  return cudaSuccess;
}

// --- device -------------------------------------------------------------------------------
// cudaGetDeviceCount, cudaGetDevice and cudaSetDevice: devices.cpp (several emulated devices).
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr || !wb::cpu::device_exists(device)) return set_last_error(cudaErrorInvalidValue, "cudaGetDeviceProperties: bad argument");
  *prop = wb::cpu::emulated_properties();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr || !wb::cpu::device_exists(device)) return set_last_error(cudaErrorInvalidValue, "cudaDeviceGetAttribute: bad argument");
  const cudaDeviceProp& p = wb::cpu::emulated_properties();
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrClockRate:
    case cudaDevAttrMemoryClockRate:
    case cudaDevAttrGlobalMemoryBusWidth: *value = 0; break;
    default: return set_last_error(cudaErrorInvalidValue, "cudaDeviceGetAttribute: attribute not emulated");
  }
  return cudaSuccess;
}
// cudaDeviceSynchronize: streams.cpp (it waits for queued work).
cudaError_t cudaDeviceReset() { return cudaSuccess; }

// --- errors ---------------------------------------------------------------------------------
cudaError_t cudaGetLastError() {
  cudaError_t e = wb::cpu::t_errors.last;
  wb::cpu::t_errors.last = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return wb::cpu::t_errors.last; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorPeerAccessUnsupported: return "cudaErrorPeerAccessUnsupported";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    default: return "cudaErrorUnknown";
  }
}

const char* cudaGetErrorString(cudaError_t error) {
  if (error != cudaSuccess && error == wb::cpu::t_errors.detail_code && !wb::cpu::t_errors.detail.empty()) {
    return wb::cpu::t_errors.detail.c_str();
  }
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotReady: return "device not ready";
    default: return "error (cpu backend)";
  }
}

// --- streams and events: streams.cpp (immediate or queued streams) ---------------------------
