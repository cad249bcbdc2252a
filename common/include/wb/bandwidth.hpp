// The ceiling every chapter compares with: this GPU's device-to-device copy rate.
#pragma once

#include <cstddef>

namespace wb {

// GB/s (10^9 bytes per second) counting bytes read plus bytes written, measured once per
// process with cudaMemcpy(DeviceToDevice) of `bytes` (default 1 GiB, less if memory is short)
// and cached. On the cpu backend: a host memcpy, labelled emulated by the report.
double copy_bandwidth_gbs(std::size_t bytes = std::size_t{1} << 30);

}  // namespace wb
