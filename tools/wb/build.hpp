// Building what a verb needs (cmake --build on the build wb belongs to), the compiler's errors
// briefly when it fails.
#pragma once

#include <string>
#include <vector>

namespace wbtool {

// A usage_error when the build folder is not configured.
void require_build();

// Builds targets; on failure prints the compiler's first errors and returns false.
bool build(const std::vector<std::string>& targets);

}  // namespace wbtool
