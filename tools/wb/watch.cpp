// wb watch [stage]: check the stage again on every save under exercises/, and every earlier
// stage whose files changed; on to the next stage when it passes.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "git_state.hpp"
#include "source_watcher.hpp"
#include "stage_states.hpp"
#include "verbs.hpp"

namespace wbtool {
namespace {

// The stages to check after a save: the stage watched, and every stage before it whose code
// uses a changed file (breaking basic.cu while on merge/4 shows merge/2 failing again).
std::vector<std::size_t> affected(const std::vector<stage_ref>& order, std::size_t at,
                                  const std::vector<std::string>& changed) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < at; ++i) {
    // A stage still as shipped (not started) fails whatever changed: not checked again.
    const auto own = order[i].files();
    const bool own_changed = std::any_of(own.begin(), own.end(), [&](const std::string& f) {
      return std::find(changed.begin(), changed.end(), f) != changed.end();
    });
    if (untouched(order[i]) == std::optional<bool>(true) && !own_changed) continue;
    const auto used = files_used(order[i]);
    if (std::any_of(changed.begin(), changed.end(), [&](const std::string& f) { return used.count(f) > 0; })) {
      out.push_back(i);
    }
  }
  out.push_back(at);
  return out;
}

}  // namespace

int cmd_watch(const std::string& text, int max_checks) {
  const auto order = all_stages();
  if (order.empty()) throw usage_error("no chapters in this build");
  std::size_t at = 0;
  if (!text.empty()) {
    const stage_ref s = find_stage(text);
    while (order[at].stage != s.stage) ++at;
  } else {
    const auto next = next_stage();
    if (!next) {
      std::printf("every stage that can be checked here is done\n");
      return 0;
    }
    while (order[at].stage != next->stage) ++at;
  }
  const std::string exercises = (std::filesystem::path(source_dir) / "exercises").string();
  source_watcher watcher(exercises);  // before the first check: a save during it is not lost
  int checks = 0;
  std::vector<std::size_t> to_check = {at};
  for (;;) {
    // Check the stages in order; the earliest that fails is the one watched from now on.
    std::optional<std::size_t> first_failing;
    bool stop = false;
    for (std::size_t k = 0; k < to_check.size() && !stop; ++k) {
      if (k > 0) std::printf("\n");
      const bool passed = check_stage(order[to_check[k]], true);
      if (!passed && !first_failing) first_failing = to_check[k];
      stop = max_checks > 0 && ++checks >= max_checks;
    }
    if (!first_failing) {
      if (++at == order.size()) {
        std::printf("\nthat was the last stage: every stage is done\n");
        return 0;
      }
      std::printf("\non to the next stage, %s:\n\n", order[at].id().c_str());
      std::fflush(stdout);
      if (stop) return 0;
      to_check = {at};
      continue;
    }
    if (*first_failing < at) {
      std::printf("\n%s fails now: watching it until it passes, then on\n",
                  order[*first_failing].id().c_str());
      at = *first_failing;
    }
    std::fflush(stdout);
    if (stop) return 0;
    std::printf("\nwatching exercises/: save a file to check %s again (Ctrl-C stops)\n", order[at].id().c_str());
    std::fflush(stdout);
    const auto changed = watcher.wait_for_change();
    std::string names;
    for (const auto& c : changed) names += (names.empty() ? "" : ", ") + c;
    std::printf("\nchanged: %s\n", names.c_str());
    to_check = affected(order, at, changed);
    if (to_check.size() > 1) {
      std::string ids;
      for (std::size_t k = 0; k + 1 < to_check.size(); ++k) ids += (ids.empty() ? "" : ", ") + order[to_check[k]].id();
      std::printf("(%s use%s the changed file%s: checked first)\n", ids.c_str(), to_check.size() == 2 ? "s" : "",
                  changed.size() == 1 ? "" : "s");
    }
    std::printf("\n");
  }
}

}  // namespace wbtool
