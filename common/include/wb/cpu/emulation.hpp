// The cpu backend: CUDA C++ kernels compiled by the host compiler and run on the CPU.
//
// Included (through wb/runtime.hpp) instead of <cuda_runtime.h> when WB_BACKEND_CPU is set.
// It provides, with CUDA's names and meanings:
//   - the qualifiers (__global__, __device__, __shared__, ...), dim3 and the vector types;
//   - the built-in variables threadIdx, blockIdx, blockDim, gridDim, warpSize;
//   - block barriers, warp collectives with real mask/width semantics, atomics, fences;
//   - the subset of the runtime API the workbook uses (memory, copies, streams, events,
//     device properties, errors).
// Every thread of a block is a fiber on one OS thread; see common/CPU-BACKEND.md for what is
// modelled, what is not, and how to use the scheduling order to find a missing barrier.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

// ---------------------------------------------------------------------------------------
// Qualifiers
// ---------------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __grid_constant__
#define __constant__
// One copy per running block: every thread (fiber) of a block runs on the same OS thread,
// and one OS thread runs one block at a time.
#define __shared__ static thread_local

// ---------------------------------------------------------------------------------------
// Vector types and dim3 (layout and alignment as in CUDA's vector_types.h)
// ---------------------------------------------------------------------------------------
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define WB_CPU_VEC2(name, T, align)                                           \
  struct alignas(align) name {                                                \
    T x, y;                                                                   \
  };                                                                          \
  inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define WB_CPU_VEC4(name, T, align)                                           \
  struct alignas(align) name {                                                \
    T x, y, z, w;                                                             \
  };                                                                          \
  inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

WB_CPU_VEC4(char4, signed char, 4)
WB_CPU_VEC4(uchar4, unsigned char, 4)
WB_CPU_VEC2(short2, short, 4)
WB_CPU_VEC4(short4, short, 8)
WB_CPU_VEC2(int2, int, 8)
WB_CPU_VEC4(int4, int, 16)
WB_CPU_VEC2(uint2, unsigned int, 8)
WB_CPU_VEC4(uint4, unsigned int, 16)
WB_CPU_VEC2(longlong2, long long, 16)
WB_CPU_VEC2(ulonglong2, unsigned long long, 16)
WB_CPU_VEC2(float2, float, 8)
WB_CPU_VEC4(float4, float, 16)
WB_CPU_VEC2(double2, double, 16)
#undef WB_CPU_VEC2
#undef WB_CPU_VEC4

// ---------------------------------------------------------------------------------------
// Runtime API subset
// ---------------------------------------------------------------------------------------
enum cudaError_t : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorPeerAccessUnsupported = 217,  // several devices (devices.hpp)
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind : int {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute : int {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum cudaDeviceAttr : int {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  std::size_t sharedMemPerBlockOptin;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int maxThreadsPerMultiProcessor;
  int multiProcessorCount;
  int l2CacheSize;
  int memoryBusWidth;
  int major;
  int minor;
};

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;
inline constexpr unsigned int cudaStreamDefault = 0;
inline constexpr unsigned int cudaStreamNonBlocking = 1;
inline constexpr unsigned int cudaHostAllocDefault = 0;
inline constexpr unsigned int cudaHostAllocMapped = 2;  // (host memory is the device's here)
inline constexpr unsigned int cudaEventDefault = 0;
inline constexpr unsigned int cudaEventBlockingSync = 1;
inline constexpr unsigned int cudaEventDisableTiming = 2;

cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

namespace wb::cpu {
cudaError_t func_set_attribute(cudaFuncAttribute attr, int value);
int sm_count();
}  // namespace wb::cpu

template <class Kernel>
cudaError_t cudaFuncSetAttribute(Kernel*, cudaFuncAttribute attr, int value) {
  return wb::cpu::func_set_attribute(attr, value);
}
// The emulator has no occupancy: report what a Hopper SM would allow by threads alone.
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel*, int block_size,
                                                          std::size_t) {
  if (blocks == nullptr || block_size <= 0 || block_size > 1024) return cudaErrorInvalidValue;
  *blocks = 2048 / block_size > 32 ? 32 : 2048 / block_size;
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<unsigned char*>(&symbol) + offset, src, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(dst, reinterpret_cast<const unsigned char*>(&symbol) + offset, bytes);
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------------
// The emulator's engine (common/cpu/*.cpp)
// ---------------------------------------------------------------------------------------
namespace wb::cpu {

// Order in which the runnable threads of a block run between two synchronisation points.
// A kernel that is right must give the same result under every order; a missing barrier
// or a warp-synchronous assumption usually breaks under `reverse` or `shuffle`.
enum class schedule_order { in_order, reverse, shuffle };

// Order in which the blocks of a grid start (each runs to completion before the next, with
// one host thread). A GPU promises no order at all; `reverse` is the adversary of code that
// assumes block i starts before block i+1 (a block spinning on a flag that a block with a
// smaller blockIdx sets never returns here, as it may not on a GPU).
enum class block_order { in_order, reverse };

struct options {
  schedule_order order = schedule_order::in_order;
  std::uint64_t shuffle_seed = 1;
  block_order blocks = block_order::in_order;
  int host_threads = 1;                       // OS threads that run blocks in parallel
  std::size_t max_dynamic_shared = 227 * 1024;  // an H100's opt-in limit per block
  std::size_t stack_bytes = 256 * 1024;       // per fiber; guarded by a protected page
  bool race_check = false;                    // report data races (common/cpu/race.cpp); one host thread
};

// Defaults come from the environment: WB_CPU_ORDER=in-order|reverse|shuffle[:seed],
// WB_CPU_BLOCK_ORDER=in-order|reverse, WB_CPU_THREADS=N, WB_CPU_STACK_KB=N, WB_CPU_RACECHECK=0|1.
options& current_options();
// Parses an order name ("in-order", "reverse", "shuffle", "shuffle:42"); throws on others.
void set_schedule_order(const std::string& spec);
std::string schedule_order_name();
// Parses a block order name ("in-order", "reverse"); throws on others.
void set_block_order(const std::string& spec);
std::string block_order_name();
// The race check (common/CPU-BACKEND.md): two threads touching the same bytes, one of them
// writing, with nothing ordering them, fail the launch with both places named. The test
// binaries turn it on; it follows launches that run on one host thread.
void set_race_check(bool on);
bool race_check();

// Mutations, for tests of the race check: a stage's racy variant made from its own code, as a
// learner might write it. Skip the __syncthreads() or __syncwarp() at one call site, let atomics
// race like plain read-modify-writes, or let __threadfence() order nothing. clear_sync_sites()
// starts recording the call sites ("file:line:column") of the __syncthreads() and __syncwarp()
// calls reached; sync_sites() stops and returns them.
struct mutation {
  std::string skip_sync;
  bool plain_atomics = false;
  bool no_fences = false;
};
void set_mutation(const mutation& m);
std::vector<std::string> sync_sites();
void clear_sync_sites();

// Runs `body` once for every thread of every block; returns when the grid is done.
// Configuration errors and faults inside the kernel (barrier divergence, deadlock, misuse of
// a warp collective) set the error that cudaGetLastError() returns; the message names the
// block, the threads and the source line.
void launch_kernel(dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                   const std::function<void()>& body);

// Built-in variables of the calling fiber.
const uint3& thread_index();
const uint3& block_index();
const dim3& block_dim();
const dim3& grid_dim();
unsigned char* dynamic_shared_base();

// Synchronisation. `site` identifies the call in messages and checks barrier divergence.
int block_barrier(int kind, int predicate, std::source_location site);  // kind: 0 plain, 1 count, 2 and, 3 or

enum class warp_op : int { sync, shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any,
                           reduce_add, reduce_min, reduce_max, reduce_and, reduce_or, reduce_xor,
                           reduce_min_signed, reduce_max_signed, reduce_add_signed };
std::uint64_t warp_collective(warp_op op, unsigned mask, std::uint64_t value, int arg, int width,
                              std::source_location site);
unsigned active_mask();
// __threadfence(): a fence, and for the race check the point that orders this thread's
// earlier accesses before a flag it sets, or the flag it read before its later accesses.
void thread_fence();

// Throws wb::cpu::kernel_fault from inside a kernel: the block stops, the launch fails with msg.
[[noreturn]] void fault(const std::string& msg);

// Programmatic dependent launch (wb/device/grid_dependency.cuh). Launches run one after the
// other here, so the wait has nothing to wait for; it marks the calling thread, and a kernel
// launched with early_start whose thread returns unmarked fails (wb::launch): on a GPU that
// thread could have read what the kernel ahead had not yet written.
void grid_dependency_wait();
bool grid_dependency_waited();  // whether the calling thread has called grid_dependency_wait

// cp.async (wb/async_copy.hpp): the calling thread's copies in flight. A copy is recorded when
// it is issued and lands when a cp.async.wait_group completes its group: async_copy_due(keep, &c)
// hands out, oldest first, the copies of every committed group but the newest `keep` (and forgets
// them); copies issued after the last commit belong to no group yet. A thread's copies never
// waited for never land (on a GPU they land at a time nobody knows). Each thread of a block
// starts with none.
struct async_copy {
  void* dst;
  const void* src;
  int bytes;  // 0 to 16 read from src, the rest of the 16 zero-filled
};
void async_copy_issue(const async_copy& copy);
void async_copy_commit();
bool async_copy_due(int keep, async_copy* out);

template <class T>
inline std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "warp shuffles move 1-8 byte values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T>
inline T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

}  // namespace wb::cpu

// ---------------------------------------------------------------------------------------
// Built-in variables
// ---------------------------------------------------------------------------------------
#define threadIdx (::wb::cpu::thread_index())
#define blockIdx (::wb::cpu::block_index())
#define blockDim (::wb::cpu::block_dim())
#define gridDim (::wb::cpu::grid_dim())
inline constexpr int warpSize = 32;

// ---------------------------------------------------------------------------------------
// Barriers and warp collectives
// ---------------------------------------------------------------------------------------
inline void __syncthreads(std::source_location site = std::source_location::current()) {
  wb::cpu::block_barrier(0, 0, site);
}
inline int __syncthreads_count(int pred, std::source_location site = std::source_location::current()) {
  return wb::cpu::block_barrier(1, pred, site);
}
inline int __syncthreads_and(int pred, std::source_location site = std::source_location::current()) {
  return wb::cpu::block_barrier(2, pred, site);
}
inline int __syncthreads_or(int pred, std::source_location site = std::source_location::current()) {
  return wb::cpu::block_barrier(3, pred, site);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location site = std::source_location::current()) {
  wb::cpu::warp_collective(wb::cpu::warp_op::sync, mask, 0, 0, warpSize, site);
}
template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize,
                     std::source_location site = std::source_location::current()) {
  return wb::cpu::from_bits<T>(
      wb::cpu::warp_collective(wb::cpu::warp_op::shfl, mask, wb::cpu::to_bits(var), src_lane, width, site));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                        std::source_location site = std::source_location::current()) {
  return wb::cpu::from_bits<T>(wb::cpu::warp_collective(wb::cpu::warp_op::shfl_up, mask, wb::cpu::to_bits(var),
                                                        static_cast<int>(delta), width, site));
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          std::source_location site = std::source_location::current()) {
  return wb::cpu::from_bits<T>(wb::cpu::warp_collective(wb::cpu::warp_op::shfl_down, mask,
                                                        wb::cpu::to_bits(var), static_cast<int>(delta), width,
                                                        site));
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize,
                         std::source_location site = std::source_location::current()) {
  return wb::cpu::from_bits<T>(
      wb::cpu::warp_collective(wb::cpu::warp_op::shfl_xor, mask, wb::cpu::to_bits(var), lane_mask, width, site));
}
inline unsigned __ballot_sync(unsigned mask, int pred, std::source_location site = std::source_location::current()) {
  return static_cast<unsigned>(
      wb::cpu::warp_collective(wb::cpu::warp_op::ballot, mask, pred != 0, 0, warpSize, site));
}
inline int __any_sync(unsigned mask, int pred, std::source_location site = std::source_location::current()) {
  return static_cast<int>(wb::cpu::warp_collective(wb::cpu::warp_op::any, mask, pred != 0, 0, warpSize, site));
}
inline int __all_sync(unsigned mask, int pred, std::source_location site = std::source_location::current()) {
  return static_cast<int>(wb::cpu::warp_collective(wb::cpu::warp_op::all, mask, pred != 0, 0, warpSize, site));
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, std::source_location site = std::source_location::current()) {
  return static_cast<unsigned>(
      wb::cpu::warp_collective(wb::cpu::warp_op::match_any, mask, wb::cpu::to_bits(value), 0, warpSize, site));
}
inline unsigned __activemask() { return wb::cpu::active_mask(); }

#define WB_CPU_WARP_REDUCE(name, op, T)                                                               \
  inline T name(unsigned mask, T value, std::source_location site = std::source_location::current()) { \
    return static_cast<T>(wb::cpu::warp_collective(wb::cpu::warp_op::op, mask,                        \
                                                   static_cast<std::uint32_t>(value), 0, warpSize, site)); \
  }
WB_CPU_WARP_REDUCE(__reduce_add_sync, reduce_add, unsigned)
WB_CPU_WARP_REDUCE(__reduce_add_sync, reduce_add_signed, int)
WB_CPU_WARP_REDUCE(__reduce_min_sync, reduce_min, unsigned)
WB_CPU_WARP_REDUCE(__reduce_min_sync, reduce_min_signed, int)
WB_CPU_WARP_REDUCE(__reduce_max_sync, reduce_max, unsigned)
WB_CPU_WARP_REDUCE(__reduce_max_sync, reduce_max_signed, int)
WB_CPU_WARP_REDUCE(__reduce_and_sync, reduce_and, unsigned)
WB_CPU_WARP_REDUCE(__reduce_or_sync, reduce_or, unsigned)
WB_CPU_WARP_REDUCE(__reduce_xor_sync, reduce_xor, unsigned)
#undef WB_CPU_WARP_REDUCE

inline void __threadfence() { wb::cpu::thread_fence(); }
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }  // a block is one OS thread
inline void __threadfence_system();  // below wb/cpu/devices.hpp: it also makes the block's peer stores visible

// ---------------------------------------------------------------------------------------
// Atomics (std::atomic_ref: real atomics, so blocks may run on several OS threads)
// ---------------------------------------------------------------------------------------
namespace wb::cpu {
template <class T, class F>
inline T atomic_update(T* address, F update) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (!ref.compare_exchange_weak(old, update(old))) {
  }
  return old;
}
}  // namespace wb::cpu

#define WB_CPU_ATOMIC_ADD_SUB(T)                                                                  \
  inline T atomicAdd(T* a, T v) { return std::atomic_ref<T>(*a).fetch_add(v); }                   \
  inline T atomicAdd_block(T* a, T v) { return std::atomic_ref<T>(*a).fetch_add(v); }             \
  inline T atomicAdd_system(T* a, T v) { return std::atomic_ref<T>(*a).fetch_add(v); }
WB_CPU_ATOMIC_ADD_SUB(int)
WB_CPU_ATOMIC_ADD_SUB(unsigned int)
WB_CPU_ATOMIC_ADD_SUB(unsigned long long)
WB_CPU_ATOMIC_ADD_SUB(float)
WB_CPU_ATOMIC_ADD_SUB(double)
#undef WB_CPU_ATOMIC_ADD_SUB

inline int atomicSub(int* a, int v) { return std::atomic_ref<int>(*a).fetch_sub(v); }
inline unsigned int atomicSub(unsigned int* a, unsigned int v) { return std::atomic_ref<unsigned int>(*a).fetch_sub(v); }

#define WB_CPU_ATOMIC_BITS(T)                                                                     \
  inline T atomicAnd(T* a, T v) { return std::atomic_ref<T>(*a).fetch_and(v); }                   \
  inline T atomicOr(T* a, T v) { return std::atomic_ref<T>(*a).fetch_or(v); }                     \
  inline T atomicXor(T* a, T v) { return std::atomic_ref<T>(*a).fetch_xor(v); }                   \
  inline T atomicExch(T* a, T v) { return std::atomic_ref<T>(*a).exchange(v); }                   \
  inline T atomicCAS(T* a, T expected, T desired) {                                             \
    std::atomic_ref<T>(*a).compare_exchange_strong(expected, desired);                          \
    return expected;                                                                            \
  }                                                                                             \
  inline T atomicMin(T* a, T v) {                                                               \
    return wb::cpu::atomic_update(a, [v](T old) { return old < v ? old : v; });                 \
  }                                                                                             \
  inline T atomicMax(T* a, T v) {                                                               \
    return wb::cpu::atomic_update(a, [v](T old) { return old > v ? old : v; });                 \
  }
WB_CPU_ATOMIC_BITS(int)
WB_CPU_ATOMIC_BITS(unsigned int)
WB_CPU_ATOMIC_BITS(unsigned long long)
#undef WB_CPU_ATOMIC_BITS
inline long long atomicMin(long long* a, long long v) {
  return wb::cpu::atomic_update(a, [v](long long old) { return old < v ? old : v; });
}
inline long long atomicMax(long long* a, long long v) {
  return wb::cpu::atomic_update(a, [v](long long old) { return old > v ? old : v; });
}
inline float atomicExch(float* a, float v) { return std::atomic_ref<float>(*a).exchange(v); }
inline unsigned short atomicCAS(unsigned short* a, unsigned short expected, unsigned short desired) {
  std::atomic_ref<unsigned short>(*a).compare_exchange_strong(expected, desired);
  return expected;
}
// CUDA's wrapping increment and decrement.
inline unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  return wb::cpu::atomic_update(a, [limit](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  return wb::cpu::atomic_update(
      a, [limit](unsigned int old) { return (old == 0 || old > limit) ? limit : old - 1; });
}

// ---------------------------------------------------------------------------------------
// Integer intrinsics and device math used by the workbook
// ---------------------------------------------------------------------------------------
inline int __popc(unsigned int x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned int>(x)) + 1; }
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1; }
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
// Byte i of the result is byte s[i] of the 8-byte value {y, x} (x holds bytes 0-3).
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned int>((bytes >> (8 * ((s >> (4 * i)) & 7u))) & 0xFFu) << (8 * i);
  return r;
}
template <class T>
inline T __ldg(const T* p) { return *p; }
template <class T>
inline T __ldcs(const T* p) { return *p; }
template <class T>
inline void __stcs(T* p, T v) { *p = v; }

// CUDA device code calls min/max unqualified on built-in types.
#define WB_CPU_MINMAX(T)                                  \
  inline T min(T a, T b) { return b < a ? b : a; }        \
  inline T max(T a, T b) { return a < b ? b : a; }
WB_CPU_MINMAX(int)
WB_CPU_MINMAX(unsigned int)
WB_CPU_MINMAX(long long)
WB_CPU_MINMAX(unsigned long long)
WB_CPU_MINMAX(long)
WB_CPU_MINMAX(unsigned long)
WB_CPU_MINMAX(float)
WB_CPU_MINMAX(double)
#undef WB_CPU_MINMAX

// ---------------------------------------------------------------------------------------
// Several devices, queued streams, system-scope memory operations (common/cpu/devices.cpp)
// ---------------------------------------------------------------------------------------
#include "wb/cpu/devices.hpp"
inline void __threadfence_system() {
  wb::cpu::thread_fence();  // for the race check, as __threadfence()
  wb::cpu::sys_fence();
}
