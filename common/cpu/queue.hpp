// The cpu backend's streams (streams.cpp), as the rest of the emulator uses them: runtime.cpp
// (copies, memsets, frees), devices.cpp (peer copies, the waits of system-scope loads) and
// nccl.cpp (collectives that meet across streams). See wb/cpu/devices.hpp for the two stream
// models.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "wb/cpu/emulation.hpp"

namespace wb::cpu::queue {

bool queued();

// `work` on `stream` (null: the current device's legacy default stream). Immediate streams run
// it now. Queued streams run it in its turn; with host_waits the call returns once it has run
// (a synchronous copy). Returns the error of a queued kernel that failed meanwhile, if any.
cudaError_t submit(cudaStream_t stream, std::string what, std::function<void()> work, bool host_waits);

// One piece of work that several streams meet at (an NCCL group): it runs once each stream has
// reached its part, and every stream goes on after it. Immediate streams run it now.
cudaError_t submit_meeting(const std::vector<cudaStream_t>& streams, std::string what, std::function<void()> work);

// The host waits for every queued operation (cudaFree, cudaFreeHost, set_device_count) or those
// of one device's streams (cudaDeviceSynchronize).
cudaError_t wait_all();
cudaError_t wait_device(int device);

// The device a stream belongs to (null: the current device), or -1 for a handle that is not a
// live stream.
int stream_device(cudaStream_t stream);

// From a kernel's thread: let the other kernels run until something changes (a system-scope
// store, a completed operation). Returns false when nothing else can run here (immediate
// streams): the caller reports a wait that cannot end. Faults the kernel when every kernel
// waits (a deadlock), with a message naming each wait. `waiting_at` describes this wait.
bool yield_kernel(const std::string& waiting_at);
// Something changed that a waiting kernel may be waiting for.
void note_progress();
std::uint64_t progress_epoch();

}  // namespace wb::cpu::queue

namespace wb::cpu::detail {
// The device of the calling host thread (cudaSetDevice), kept in devices.cpp.
int current_device();
// Set while a kernel runs on this host thread (launch_on_stream); -1 outside kernels.
void set_kernel_device(int device);
// Per kernel run on this host thread: forget spin state, and at the end make every peer store
// still in a store buffer visible.
void begin_kernel_memory();
void end_kernel_memory();
// Allocation hooks (runtime.cpp): cudaMalloc records the current device as the owner.
void record_allocation(const void* ptr, std::size_t bytes);
void forget_allocation(const void* ptr);
}  // namespace wb::cpu::detail
