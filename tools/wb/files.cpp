// wb files stage: the stage's exercise files, one a line.
#include <cstdio>
#include <string>

#include "verbs.hpp"

namespace wbtool {

int cmd_files(const std::string& text) {
  for (const auto& f : find_stage(text).files()) std::printf("%s\n", f.c_str());
  return 0;
}

}  // namespace wbtool
