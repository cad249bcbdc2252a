// wb trace merge --a 1,4,9 --b 2,3: the chapter executable's --trace on the learner's track,
// then the stages the learner has started on that input.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "chapter_executable.hpp"
#include "git_state.hpp"
#include "verbs.hpp"

namespace wbtool {

void cmd_trace(const std::string& chapter_or_stage, const std::vector<std::string>& flags) {
  auto [chapter, args] = chapter_and_stage(chapter_or_stage);
  // Your track: the trace of your co-ranks.
  args.insert(args.begin(), {"--track", "exercise", "--trace"});
  args.insert(args.end(), flags.begin(), flags.end());
  if (!has_flag(args, "--stage")) {
    // After the trace the executable runs the stages on the input: only those you have
    // started (a stub not started yet is wrong by design, and says nothing).
    std::string started;
    for (const auto& st : chapter->stages) {
      const stage_ref ref{chapter, &st};
      if (untouched(ref) != std::optional<bool>(false)) continue;
      if (!started.empty()) started += ",";
      started += std::to_string(st.number);
    }
    if (started.empty()) {
      std::printf("(no stage of %s started yet: after the trace, the table runs stage %d, still the stub)\n",
                  chapter->name, chapter->stages.front().number);
      started = std::to_string(chapter->stages.front().number);
    }
    args.insert(args.end(), {"--stage", started});
  }
  exec_chapter(*chapter, args);
}

}  // namespace wbtool
