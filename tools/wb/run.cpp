// wb run merge --stage 2 [flags]: the chapter executable on the learner's track.
#include "chapter_executable.hpp"
#include "verbs.hpp"

namespace wbtool {

void cmd_run(const std::string& chapter_or_stage, const std::vector<std::string>& flags) {
  auto [chapter, args] = chapter_and_stage(chapter_or_stage);
  args.insert(args.begin(), {"--track", "exercise"});
  args.insert(args.end(), flags.begin(), flags.end());
  exec_chapter(*chapter, args);
}

}  // namespace wbtool
