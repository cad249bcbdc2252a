// The ceiling every chapter compares with: this GPU's device-to-device copy rate.
#pragma once

#include <cstddef>

namespace wb {

// GB/s (10^9 bytes per second) counting bytes read plus bytes written, measured once per
// process with cudaMemcpy(DeviceToDevice) of `bytes` (default 1 GiB, less if memory is short)
// and cached (per requested size): two buffers of that size, each at most a quarter of the
// free device memory; the median of 10 timed copies. On the cpu backend: a host memcpy of at
// most 64 MiB, labelled emulated by the report.
double copy_bandwidth_gbs(std::size_t bytes = std::size_t{1} << 30);

}  // namespace wb
