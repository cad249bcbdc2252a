// wb list [--all] and wb progress: every stage, done / failing / not started, and the next one.
#include <cstdio>
#include <string>

#include "command_line.hpp"
#include "git_state.hpp"
#include "stage_states.hpp"
#include "verbs.hpp"

namespace wbtool {
namespace {

std::string one_line_failure(const check_result& r) {
  if (r.status == "crashed" || r.status == "hung") return r.message;
  std::string out;
  for (const auto& c : r.contexts) {
    if (!c.empty()) out += (out.empty() ? "" : "; ") + c;  // an empty context would print "; ;"
  }
  if (!r.check.empty() && (r.contexts.empty() || r.check.find("CHECK( !wb_mismatch_") == std::string::npos)) {
    out += (out.empty() ? "" : " — ") + r.check;
  }
  return out.empty() ? r.message : out;
}

}  // namespace

int cmd_list(bool all, bool build_first) {
  if (chapters.empty()) {
    std::printf("no chapters in this build\n");
    return 0;
  }
  const auto states = survey(build_first);
  std::printf("Exercises, %s backend%s\n", backend,
              std::string(backend) == "cpu" ? " (kernels on the CPU emulator)" : "");
  if (!shipped().known) {
    std::printf("(%s: wb cannot tell untouched stubs from your work, so every stage was checked)\n",
                shipped().why_not.c_str());
  }
  const chapter_table* chapter = nullptr;
  int done = 0;
  for (const auto& s : states) {
    if (s.ref.chapter != chapter) {
      chapter = s.ref.chapter;
      std::printf("\n%s\n", chapter->name);
    }
    if (s.st == state::done) ++done;
    std::printf("  %-12s %-13s %s\n", state_word(s.st), s.ref.id().c_str(), s.ref.stage->title);
    if (all && s.st == state::failing) std::printf("  %-12s %-13s first failure: %s\n", "", "", one_line_failure(s.result).c_str());
  }
  std::printf("\n%d of %zu stages done.\n", done, states.size());
  if (const stage_state* next = next_to_do(states)) {
    std::printf("Next: %s, %s (%s)\n  %s    %s    %s\n", next->ref.id().c_str(), next->ref.stage->title,
                next->ref.stage->section, wb_command("check " + next->ref.id()).c_str(),
                wb_command("hint " + next->ref.id()).c_str(), wb_command("watch").c_str());
  } else {
    std::printf("Every stage that can be checked here is done.\n");
  }
  return 0;
}

}  // namespace wbtool
