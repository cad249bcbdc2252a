// The line at the top of every run: which device the kernels run on.
#pragma once

#include <string>

namespace wb {

// True when the cuda backend finds a usable GPU (false on the cpu backend).
bool gpu_available();
// "GPU 0: NVIDIA H100 80GB HBM3, 132 SMs, 79.1 GiB, cc 9.0, ..." or, without one, a single
// line saying why (cpu backend, or no GPU / driver for the cuda backend).
std::string device_description();
// Prints device_description() to stdout. On the cuda backend without a usable GPU, prints
// the explanation and exits with status 2 (no CUDA error trace).
void print_device_info_or_exit();
// Streaming multiprocessors of `device` (-1: the current device), at least 1: what persistent
// and grid-filling launches size their grids by. Asked of the device each call (a process may
// drive several GPUs); the cpu backend reports a Hopper-sized count.
int multiprocessor_count(int device = -1);

}  // namespace wb
