// The chapter executable on the learner's track (see chapter_executable.hpp).
#include "chapter_executable.hpp"

#include <algorithm>
#include <cstdlib>

#include "build.hpp"
#include "process.hpp"

namespace wbtool {

void exec_chapter(const chapter_table& chapter, std::vector<std::string> args) {
  if (!build({chapter.name})) std::exit(1);
  setenv("WB_CPU_RACECHECK", "1", 0);
  args.insert(args.begin(), chapter.executable);
  exec_program(args);
}

bool has_flag(const std::vector<std::string>& args, const std::string& flag) {
  return std::any_of(args.begin(), args.end(),
                     [&](const std::string& a) { return a == flag || a.rfind(flag + "=", 0) == 0; });
}

std::pair<const chapter_table*, std::vector<std::string>> chapter_and_stage(const std::string& text) {
  if (text.find('/') == std::string::npos) return {&find_chapter(text), {}};
  const stage_ref s = find_stage(text);
  return {s.chapter, {"--stage", std::to_string(s.stage->number)}};
}

}  // namespace wbtool
