// wb compare merge/2 [flags]: the learner's stage beside the solution on the same input (the
// chapter executable's --compare).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "build.hpp"
#include "chapter_executable.hpp"
#include "process.hpp"
#include "verbs.hpp"

namespace wbtool {

// On the cpu backend the chapter's times are emulated, one run each unless asked: wb asks for
// the median of five and says what the numbers are.
int cmd_compare(const std::string& stage, const std::vector<std::string>& flags) {
  const stage_ref s = find_stage(stage);
  std::vector<std::string> args = {"--track", "exercise", "--compare", "--stage", std::to_string(s.stage->number)};
  args.insert(args.end(), flags.begin(), flags.end());
  if (!build({s.chapter->name})) return 1;
  if (std::string(backend) == "cpu" && !has_flag(args, "--reps")) args.insert(args.end(), {"--reps", "5"});
  setenv("WB_CPU_RACECHECK", "1", 0);
  args.insert(args.begin(), s.chapter->executable);
  const int status = run_inherited(args);
  if (std::string(backend) == "cpu") {
    std::printf("\n(cpu backend: the times above are emulated, the median of %s runs on this CPU; they say nothing "
                "about a GPU and swing from run to run. The outputs are what to compare here.)\n",
                has_flag(args, "--reps") ? "the asked number of" : "5");
  }
  return status;
}

}  // namespace wbtool
