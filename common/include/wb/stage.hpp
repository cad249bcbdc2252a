// One stage of a chapter. Each chapter's stages.hpp holds its stages in one table,
//   inline constexpr std::array<wb::stage, N> stages  (in namespace <chapter>),
// read by the checks (suite names, progress report), the chapter executable (--stage, report
// rows) and the `wb` program (list, check, hint, reset).
#pragma once

#include <array>
#include <stdexcept>
#include <string>

namespace wb {

struct stage {
  int number;
  const char* suite;    // doctest suite, "merge/2 basic"; wb names the stage by its first word, "merge/2"
  const char* title;    // "basic kernel: one output slice per thread"
  const char* section;  // where it comes from: "PMPP §12.5, Fig. 12.9"
  const char* files;    // what the learner edits: files under exercises/<chapter>/, space-separated
  std::array<const char*, 3> hints;  // wb hint --level 1: which idea of the book section;
                                     // 2: the approach; 3: the near-code recipe
};

// The stage as a report row names it: its suite without the chapter, "2 basic".
inline std::string stage_label(const stage& s) {
  const std::string suite = s.suite;
  return suite.substr(suite.find('/') + 1);
}

// Thrown by a stage that cannot run this input here (too large for an O(N^2) stage, device-side
// launches on the cpu backend): the chapter executable notes "refused: <why>" in the stage's
// row and goes on; the checks skip what a stage refuses.
class stage_refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Thrown by a stage (or an exercise stub) that has nothing to run yet: "not implemented yet".
class not_implemented : public std::logic_error {
 public:
  not_implemented() : std::logic_error("not implemented yet") {}
  using std::logic_error::logic_error;
};

}  // namespace wb
