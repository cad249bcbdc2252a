// What an exercise stub throws until the learner writes the stage.
#pragma once

#include <stdexcept>
#include <string>

namespace wb {

class not_implemented_error : public std::logic_error {
 public:
  explicit not_implemented_error(const std::string& stage)
      : std::logic_error("not implemented yet: " + stage + " (exercises/: replace the TODO with your code)") {}
};

[[noreturn]] inline void not_implemented(const std::string& stage) { throw not_implemented_error(stage); }

}  // namespace wb
