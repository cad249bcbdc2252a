// The cpu backend's several devices (wb/cpu/devices.hpp): which device is current, which
// device owns an allocation, peer access, peer copies, and the system-scope memory operations
// of kernels.
//
// Memory model for kernels on different devices (common/CPU-BACKEND.md, "Several devices"):
//   - a system-scope load or store (wb::sys::...) reads or writes memory at once;
//   - a peer store (wb::peer_store) goes into the store buffer of the block that made it and
//     reaches memory only when that block makes a release store or a system fence, or when
//     the kernel ends: a flag written with a relaxed store, or with no fence, arrives before
//     the data it announces, every time;
//   - a thread that loads the same flag again with nothing changed in between is spinning:
//     with queued streams it hands the host thread to the other kernels (streams.cpp), with
//     immediate streams its wait can never end and is reported.
// Every system-scope operation and peer store checks that the kernel's device may access the
// memory: its own, host memory, or a peer's after cudaDeviceEnablePeerAccess.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "internal.hpp"
#include "queue.hpp"
#include "wb/cpu/emulation.hpp"

using wb::cpu::detail::set_last_error;

namespace wb::cpu {
namespace {

constexpr int max_devices = 64;

int devices_from_environment() {
  const char* text = std::getenv("WB_CPU_DEVICES");
  if (text == nullptr || *text == '\0') return 1;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < 1 || v > max_devices) {
    throw std::invalid_argument(std::string("WB_CPU_DEVICES: expected a number from 1 to 64, got '") + text + "'");
  }
  return static_cast<int>(v);
}

struct device_table {
  std::mutex mutex;
  int count = devices_from_environment();
  bool peer[max_devices][max_devices] = {};  // peer[d][p]: kernels of d may access p's memory
  std::map<const unsigned char*, std::pair<std::size_t, int>> owner;  // allocation -> (bytes, device)
};
device_table& table() {
  static device_table t;
  return t;
}

thread_local int t_current = 0;       // cudaSetDevice, per host thread as in CUDA
thread_local int t_kernel = -1;       // the device of the kernel running on this host thread

std::string site_text(const std::source_location& s) {
  std::string file = s.file_name();
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(s.line());
}

// --- what a kernel's system-scope operations remember, per host thread (one kernel at a time)

struct buffered_store {
  unsigned char* address;
  std::size_t bytes;
  unsigned char value[16];
  std::uint64_t block;
};
struct last_load {
  const void* address;
  std::uint64_t epoch;
  std::uint64_t value;
};
struct kernel_memory {
  std::vector<buffered_store> stores;                   // peer stores not yet visible
  std::unordered_map<std::uint64_t, last_load> loads;  // per thread of the kernel
};
thread_local kernel_memory t_memory;

std::uint64_t linear_block() {
  const uint3& b = block_index();
  const dim3& g = grid_dim();
  return b.x + std::uint64_t{g.x} * (b.y + std::uint64_t{g.y} * b.z);
}
std::uint64_t linear_thread_in_grid() {
  const uint3& t = thread_index();
  const dim3& d = block_dim();
  return linear_block() * 1024 + t.x + d.x * (t.y + d.y * t.z);
}

// Makes the block's buffered peer stores visible (all of the kernel's with block == ~0).
void flush(std::uint64_t block) {
  bool any = false;
  auto& stores = t_memory.stores;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < stores.size(); ++i) {
    if (block == ~std::uint64_t{0} || stores[i].block == block) {
      std::memcpy(stores[i].address, stores[i].value, stores[i].bytes);
      any = true;
    } else {
      stores[kept++] = stores[i];
    }
  }
  stores.resize(kept);
  if (any) queue::note_progress();
}

// A kernel of device `t_kernel` touches [ptr, ptr + bytes): its own memory, host memory, or a
// peer's with peer access enabled. Faults the kernel otherwise.
void check_access(const void* ptr, std::size_t bytes, const char* what, const std::source_location& where) {
  const int owner = owner_of(ptr, bytes);
  const int device = t_kernel >= 0 ? t_kernel : t_current;
  if (owner < 0 || owner == device) return;
  bool enabled = false;
  {
    auto& t = table();
    std::lock_guard lock(t.mutex);
    enabled = device < max_devices && owner < max_devices && t.peer[device][owner];
  }
  if (!enabled) {
    fault(fmt::format("{} at {}: a kernel on device {} touches memory of device {} without peer access (call "
                      "cudaDeviceEnablePeerAccess({}, 0) while device {} is current)",
                      what, site_text(where), device, owner, owner, device));
  }
}

std::string hex(const void* p) { return fmt::format("{}", p); }

}  // namespace

// ---- devices ------------------------------------------------------------------------------------
void set_device_count(int count) {
  if (count < 1 || count > max_devices) {
    throw std::invalid_argument("wb::cpu::set_device_count: from 1 to 64 devices, not " + std::to_string(count));
  }
  queue::wait_all();
  auto& t = table();
  std::lock_guard lock(t.mutex);
  t.count = count;
  std::memset(t.peer, 0, sizeof t.peer);
  if (t_current >= count) t_current = 0;
}
int device_count() {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  return t.count;
}
bool device_exists(int device) { return device >= 0 && device < device_count(); }

int owner_of(const void* ptr, std::size_t bytes) {
  auto& t = table();
  const auto* p = static_cast<const unsigned char*>(ptr);
  std::lock_guard lock(t.mutex);
  auto it = t.owner.upper_bound(p);
  if (it == t.owner.begin()) return -1;
  --it;
  return p >= it->first && p + bytes <= it->first + it->second.first ? it->second.second : -1;
}

int kernel_device() { return t_kernel >= 0 ? t_kernel : t_current; }

namespace detail {
int current_device() { return t_current; }
void set_kernel_device(int device) { t_kernel = device; }
void begin_kernel_memory() {
  t_memory.stores.clear();
  t_memory.loads.clear();
}
void end_kernel_memory() {
  flush(~std::uint64_t{0});
  t_memory.loads.clear();
}
void record_allocation(const void* ptr, std::size_t bytes) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  t.owner[static_cast<const unsigned char*>(ptr)] = {bytes, t_current};
}
void forget_allocation(const void* ptr) {
  auto& t = table();
  std::lock_guard lock(t.mutex);
  t.owner.erase(static_cast<const unsigned char*>(ptr));
}
}  // namespace detail

// ---- system-scope memory operations ---------------------------------------------------------------
std::uint64_t sys_load(const void* ptr, std::size_t bytes, bool acquire, std::source_location where) {
  check_access(ptr, bytes, acquire ? "wb::sys::load_acquire" : "wb::sys::load_relaxed", where);
  auto load = [&] {
    std::uint64_t v = 0;
    switch (bytes) {
      case 1: v = std::atomic_ref<std::uint8_t>(*static_cast<std::uint8_t*>(const_cast<void*>(ptr))).load(); break;
      case 2: v = std::atomic_ref<std::uint16_t>(*static_cast<std::uint16_t*>(const_cast<void*>(ptr))).load(); break;
      case 4: v = std::atomic_ref<std::uint32_t>(*static_cast<std::uint32_t*>(const_cast<void*>(ptr))).load(); break;
      default: v = std::atomic_ref<std::uint64_t>(*static_cast<std::uint64_t*>(const_cast<void*>(ptr))).load(); break;
    }
    return v;
  };
  std::uint64_t value = load();
  // The same thread loading the same flag with nothing changed since its last load is
  // spinning: let the other kernels run, or report a wait that cannot end.
  last_load& last = t_memory.loads[linear_thread_in_grid()];
  if (last.address == ptr && last.epoch == queue::progress_epoch() && last.value == value) {
    const std::string waiting = fmt::format("thread {} of block {} spins at {} on the flag at {} (it reads {})",
                                            linear_thread_in_grid() % 1024, linear_block(), site_text(where), hex(ptr),
                                            value);
    if (!queue::yield_kernel(waiting)) {
      fault(fmt::format("a wait that cannot end (cpu backend, immediate streams): {}. Every kernel runs alone "
                        "here, so a flag that another kernel or device sets never changes while this one runs; "
                        "kernels that wait for each other need queued streams (wb::emulate_devices, "
                        "WB_CPU_STREAMS=queued), and a block cannot wait for another block of its own grid",
                        waiting));
    }
    value = load();
  }
  last = last_load{ptr, queue::progress_epoch(), value};
  return value;
}

void sys_store(void* ptr, std::size_t bytes, std::uint64_t bits, bool release, std::source_location where) {
  check_access(ptr, bytes, release ? "wb::sys::store_release" : "wb::sys::store_relaxed", where);
  if (release) flush(linear_block());
  switch (bytes) {
    case 1: std::atomic_ref<std::uint8_t>(*static_cast<std::uint8_t*>(ptr)).store(static_cast<std::uint8_t>(bits)); break;
    case 2: std::atomic_ref<std::uint16_t>(*static_cast<std::uint16_t*>(ptr)).store(static_cast<std::uint16_t>(bits)); break;
    case 4: std::atomic_ref<std::uint32_t>(*static_cast<std::uint32_t*>(ptr)).store(static_cast<std::uint32_t>(bits)); break;
    default: std::atomic_ref<std::uint64_t>(*static_cast<std::uint64_t*>(ptr)).store(bits); break;
  }
  queue::note_progress();
}

void sys_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flush(linear_block());
}

void peer_store(void* ptr, const void* value, std::size_t bytes, std::source_location where) {
  check_access(ptr, bytes, "wb::peer_store", where);
  if (!queue::queued()) {  // a kernel runs alone: nobody can see the difference before it ends
    std::memcpy(ptr, value, bytes);
    return;
  }
  buffered_store s{static_cast<unsigned char*>(ptr), bytes, {}, linear_block()};
  std::memcpy(s.value, value, bytes);
  t_memory.stores.push_back(s);
}

}  // namespace wb::cpu

// ---- runtime API ---------------------------------------------------------------------------------------
using wb::cpu::device_count;
using wb::cpu::device_exists;

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaGetDeviceCount: null pointer");
  *count = device_count();
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaGetDevice: null pointer");
  *device = wb::cpu::t_current;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (!device_exists(device)) {
    return set_last_error(cudaErrorInvalidDevice, fmt::format("cudaSetDevice({}): the emulator has {} device{} "
                                                              "(wb::cpu::set_device_count, WB_CPU_DEVICES)",
                                                              device, device_count(), device_count() == 1 ? "" : "s"));
  }
  wb::cpu::t_current = device;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (can_access == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer: null pointer");
  if (!device_exists(device) || !device_exists(peer_device)) {
    return set_last_error(cudaErrorInvalidDevice, "cudaDeviceCanAccessPeer: no such device");
  }
  *can_access = device != peer_device ? 1 : 0;  // a device is not its own peer
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned int flags) {
  const int device = wb::cpu::t_current;
  if (flags != 0) return set_last_error(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess: flags must be 0");
  if (!device_exists(peer_device) || peer_device == device) {
    return set_last_error(cudaErrorInvalidDevice,
                          fmt::format("cudaDeviceEnablePeerAccess({}) on device {}: {}", peer_device, device,
                                      peer_device == device ? "a device is not its own peer" : "no such device"));
  }
  auto& t = wb::cpu::table();
  std::lock_guard lock(t.mutex);
  if (t.peer[device][peer_device]) {
    return set_last_error(cudaErrorPeerAccessAlreadyEnabled,
                          fmt::format("peer access from device {} to device {} is already enabled", device, peer_device));
  }
  t.peer[device][peer_device] = true;
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer_device) {
  const int device = wb::cpu::t_current;
  if (!device_exists(peer_device)) return set_last_error(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess: no such device");
  auto& t = wb::cpu::table();
  std::lock_guard lock(t.mutex);
  if (!t.peer[device][peer_device]) {
    return set_last_error(cudaErrorPeerAccessNotEnabled,
                          fmt::format("peer access from device {} to device {} is not enabled", device, peer_device));
  }
  t.peer[device][peer_device] = false;
  return cudaSuccess;
}

namespace {
// The checks of a peer copy: dst and src are device memory of the devices named.
cudaError_t check_peer_copy(const char* api, void* dst, int dst_device, const void* src, int src_device,
                            std::size_t bytes) {
  if (!device_exists(dst_device) || !device_exists(src_device)) {
    return set_last_error(cudaErrorInvalidDevice, fmt::format("{}: no device {}", api,
                                                              device_exists(dst_device) ? src_device : dst_device));
  }
  if (dst == nullptr || src == nullptr) return set_last_error(cudaErrorInvalidValue, fmt::format("{}: null pointer", api));
  const int dst_owner = wb::cpu::owner_of(dst, bytes);
  const int src_owner = wb::cpu::owner_of(src, bytes);
  if (dst_owner != dst_device) {
    return set_last_error(cudaErrorInvalidValue,
                          fmt::format("{}: the destination is not {} bytes of device {}'s memory ({})", api, bytes,
                                      dst_device, dst_owner < 0 ? "not device memory, or past the end of an allocation"
                                                                : fmt::format("it belongs to device {}", dst_owner)));
  }
  if (src_owner != src_device) {
    return set_last_error(cudaErrorInvalidValue,
                          fmt::format("{}: the source is not {} bytes of device {}'s memory ({})", api, bytes,
                                      src_device, src_owner < 0 ? "not device memory, or past the end of an allocation"
                                                                : fmt::format("it belongs to device {}", src_owner)));
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_peer_copy("cudaMemcpyPeerAsync", dst, dst_device, src, src_device, bytes); e != cudaSuccess) {
    return e;
  }
  return wb::cpu::queue::submit(stream, fmt::format("cudaMemcpyPeerAsync from device {} to device {}", src_device, dst_device),
                                [dst, src, bytes] { std::memmove(dst, src, bytes); }, false);
}

cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t e = check_peer_copy("cudaMemcpyPeer", dst, dst_device, src, src_device, bytes); e != cudaSuccess) {
    return e;
  }
  // Synchronous with all work of both devices (and, here, every other).
  if (const cudaError_t e = wb::cpu::queue::wait_all(); e != cudaSuccess) return e;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaPointerGetAttributes: null pointer");
  const int owner = wb::cpu::owner_of(ptr);
  *attributes = cudaPointerAttributes{owner >= 0 ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered, owner,
                                      owner >= 0 ? const_cast<void*>(ptr) : nullptr, nullptr};
  if (owner < 0) attributes->device = -2;
  return cudaSuccess;
}
