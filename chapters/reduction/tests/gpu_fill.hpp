// A device-side fill for the inputs past 2^31 items (no host copy of 8 GiB).
#pragma once

#include <cstdint>

namespace reduction::testing {

// data[i] = i % 2003 for i in [0, n), on the device.
void fill_mod_2003(std::int32_t* data, std::int64_t n);
// The exact sum of that pattern, in closed form.
std::int64_t sum_mod_2003(std::int64_t n);

}  // namespace reduction::testing
