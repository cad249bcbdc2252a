// The cpu backend's several devices: device selection, memory owned by a device, peer access,
// peer copies, queued streams, and the system-scope memory operations that kernels on
// different devices synchronise with. Included at the end of wb/cpu/emulation.hpp (so through
// wb/runtime.hpp); implemented in common/cpu/devices.cpp and common/cpu/streams.cpp.
//
// What is modelled, and how the queued streams choose their order, is described in
// common/CPU-BACKEND.md ("Several devices").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <source_location>
#include <string>

// ---------------------------------------------------------------------------------------
// Runtime API: several devices, peer access, peer copies
// ---------------------------------------------------------------------------------------
enum cudaMemoryType : int {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = nullptr);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaStreamQuery(cudaStream_t stream);

namespace wb::cpu {

// ---------------------------------------------------------------------------------------
// Devices
// ---------------------------------------------------------------------------------------
// How many devices the emulator shows (cudaGetDeviceCount): 1 to 64, default 1 or
// WB_CPU_DEVICES. Each has its own allocations (cudaMalloc while it is current), its own legacy
// default stream and its own peer-access table; every pair of distinct devices can access each
// other once peer access is enabled. Changing the count waits for queued work, forgets peer
// access and keeps allocations (an allocation of a device that no longer exists still works).
void set_device_count(int count);
int device_count();
bool device_exists(int device);
// The device that owns the allocation holding [ptr, ptr + bytes), or -1 for memory that is not
// a live cudaMalloc allocation (host memory, pinned or not).
int owner_of(const void* ptr, std::size_t bytes = 1);

// ---------------------------------------------------------------------------------------
// Streams: immediate (the default) or queued
// ---------------------------------------------------------------------------------------
// immediate: every launch, copy and memset runs to completion before its call returns, in
//            the order the host issues them (streams and events order nothing, they need not).
// queued:    work is queued on its stream, as on a GPU, and runs when the host waits for it
//            (a synchronising call). Among the operations free to run (stream order, events,
//            the legacy default stream's rules), the one issued LAST runs first (or the first,
//            with queue_order::earliest_first): an order the program did not state is broken.
//            Kernels of different streams run together: a kernel that spins on a system-scope
//            flag (wb/system_scope.hpp) lets the others run until the flag changes. Kernels run
//            their blocks on one host thread each (WB_CPU_THREADS does not apply).
// WB_CPU_STREAMS=immediate|queued and WB_CPU_STREAM_ORDER=latest-first|earliest-first set the
// defaults. Switching waits for queued work first.
enum class stream_model { immediate, queued };
enum class queue_order { latest_first, earliest_first };
void set_stream_model(stream_model model);
stream_model current_stream_model();
void set_queue_order(queue_order order);
queue_order current_queue_order();
std::string stream_model_name();  // "immediate", "queued (latest-first)", ...

// wb::launch's cpu path: the grid on `stream` of the current device (0: its legacy default
// stream), now (immediate) or queued.
void launch_on_stream(cudaStream_t stream, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                      std::function<void()> body, std::source_location where);

// ---------------------------------------------------------------------------------------
// System-scope memory operations (wb/system_scope.hpp calls these from kernels)
// ---------------------------------------------------------------------------------------
// A flag load or store visible to every device and the host (1, 2, 4 or 8 bytes). A release
// store first makes this block's earlier peer stores visible; a load that a thread repeats on
// the same flag with nothing changed in between hands the host thread to the other kernels
// (queued streams), or is reported as a wait nothing can end (immediate streams, or every
// kernel waiting).
std::uint64_t sys_load(const void* ptr, std::size_t bytes, bool acquire, std::source_location where);
void sys_store(void* ptr, std::size_t bytes, std::uint64_t bits, bool release, std::source_location where);
// __threadfence_system(): makes this block's earlier peer stores visible.
void sys_fence();
// A plain store to another device's memory (1 to 16 bytes): with queued streams it stays in the
// block's store buffer, invisible to everyone else, until the block's next release store or
// system fence, or the end of the kernel.
void peer_store(void* ptr, const void* value, std::size_t bytes, std::source_location where);
// The device whose kernel is running on this host thread (the current device outside kernels).
int kernel_device();

}  // namespace wb::cpu
