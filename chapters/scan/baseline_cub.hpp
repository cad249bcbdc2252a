// The library row of the report: cub::DeviceScan (cuda backend only, WB_HAVE_BASELINE).
#pragma once

#include <cstddef>
#include <cstdint>

namespace scan::baseline {

// Bytes of temporary storage cub_scan needs for n items.
template <class T>
std::size_t cub_scan_temp_bytes(std::int64_t n, bool exclusive);

// out = the inclusive (cub::DeviceScan::InclusiveSum) or exclusive (ExclusiveSum) scan of
// in[0, n), on the default stream.
template <class T>
void cub_scan(const T* in, T* out, std::int64_t n, bool exclusive, void* temp, std::size_t temp_bytes);

}  // namespace scan::baseline
