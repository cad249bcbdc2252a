// wb::launch: the one way the workbook starts a kernel, on both backends.
//
//   wb::launch({grid, block, shared_bytes, stream}, my_kernel<T>, arg1, arg2, ...);
//
// cuda backend: my_kernel<<<grid, block, shared_bytes, stream>>>(args...), then the launch
// error check, naming the file and line of the wb::launch call. When static plus dynamic
// shared memory passes the 48 KiB default, the kernel is opted into more (cudaFuncSetAttribute).
// With early_start set, the launch is a programmatic dependent one (cudaLaunchKernelEx; see
// launch_config::early_start).
// cpu backend:  the fiber emulator runs every block of the grid to completion before
// returning (launches are synchronous there), with the same checks of the configuration;
// with queued streams (wb/cpu/devices.hpp) the grid waits on its stream instead.
#pragma once

#include <cstddef>
#include <source_location>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace wb {

struct launch_config {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = 0;
  std::source_location where;
  // (cuda backend, compute capability 9.0 and later) Programmatic dependent launch: the grid
  // may be scheduled before the kernel ahead of it in the stream has finished. Every thread
  // must call wb::device::wait_for_previous_grid() (wb/device/grid_dependency.cuh) before it
  // reads what earlier work wrote. Ignored on older GPUs. On the cpu backend, where launches
  // run one after the other anyway, a thread that returns without that call fails the launch.
  bool early_start = false;

  launch_config(dim3 grid_, dim3 block_, std::size_t shared_bytes_ = 0, cudaStream_t stream_ = 0,
                std::source_location where_ = std::source_location::current())
      : grid(grid_), block(block_), shared_bytes(shared_bytes_), stream(stream_), where(where_) {}
};

namespace detail {
// A block gets 48 KiB of shared memory (static + dynamic) unless the kernel opts into more:
// raises the kernel's dynamic limit when static + dynamic passes 48 KiB (once per kernel;
// the kernel's static size is looked up once and cached, so timed launches stay cheap).
void allow_dynamic_shared(const void* kernel, std::size_t dynamic_bytes, const std::source_location& where);
// Whether the current device takes programmatic dependent launches (compute capability 9.0+).
bool early_start_supported(const std::source_location& where);
}  // namespace detail

template <class... Params, class... Args>
void launch(const launch_config& cfg, void (*kernel)(Params...), Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wb::launch: wrong number of kernel arguments");
#if defined(WB_BACKEND_CUDA) && !defined(__CUDACC__)
  // A host-compiled .cpp may include this header (for ceil_div, launch_config) but cannot
  // launch: the <<<...>>> syntax needs nvcc.
  static_assert(sizeof(kernel) == 0, "wb::launch must be called from a .cu file (compiled by nvcc)");
#elif defined(WB_BACKEND_CUDA)
  if (cfg.shared_bytes > 0) {
    detail::allow_dynamic_shared(reinterpret_cast<const void*>(kernel), cfg.shared_bytes, cfg.where);
  }
  if (cfg.early_start && detail::early_start_supported(cfg.where)) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t launch{};
    launch.gridDim = cfg.grid;
    launch.blockDim = cfg.block;
    launch.dynamicSmemBytes = cfg.shared_bytes;
    launch.stream = cfg.stream;
    launch.attrs = &attribute;
    launch.numAttrs = 1;
    check(cudaLaunchKernelEx(&launch, kernel, static_cast<Params>(args)...), "cudaLaunchKernelEx",
          cfg.where.file_name(), static_cast<int>(cfg.where.line()));
  } else {
    kernel<<<cfg.grid, cfg.block, cfg.shared_bytes, cfg.stream>>>(static_cast<Params>(args)...);
  }
#else
  cpu::launch_on_stream(
      cfg.stream, cfg.grid, cfg.block, cfg.shared_bytes,
      [kernel, early_start = cfg.early_start, ... a = static_cast<Params>(args)]() {
        kernel(a...);
        // Launched early, every thread must have waited for the kernel ahead (grid_dependency.cuh).
        if (early_start && !cpu::grid_dependency_waited()) {
          cpu::fault("a thread of a kernel launched with early_start returned without calling "
                     "wb::device::wait_for_previous_grid(); on a GPU it could read what the kernel ahead "
                     "has not yet written");
        }
      },
      cfg.where);
#endif
  check_launch("kernel launch", cfg.where.file_name(), static_cast<int>(cfg.where.line()));
}

// Blocks needed to cover `work` items with `per_block` items each; 64-bit safe (M4, M5).
constexpr long long ceil_div(long long work, long long per_block) {
  return (work + per_block - 1) / per_block;
}

}  // namespace wb
