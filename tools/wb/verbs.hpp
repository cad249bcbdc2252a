// wb's verbs, one file each (list.cpp, check.cpp, ...): what main.cpp dispatches to. Each
// returns wb's exit status (0 ok; 1 the stage fails or the build failed) or throws a
// usage_error (bad input, status 2).
#pragma once

#include <string>
#include <vector>

#include "stages.hpp"

namespace wbtool {

// wb list [--all], wb progress (= list --all): every stage's state, and the next one to do.
int cmd_list(bool all, bool build_first);

// wb check [stage]: the stage's checks and a verdict (no stage: the next one to do).
int cmd_check(const std::string& stage, bool build_first);
// Checks one stage and prints the verdict; true when it passes (wb check, wb watch).
bool check_stage(const stage_ref& s, bool build_first);

// wb hint stage [--level N]
int cmd_hint(const std::string& stage, int level);

// wb files stage
int cmd_files(const std::string& stage);

// wb reset stage [--yes]
int cmd_reset(const std::string& stage, bool yes);

// wb watch [stage] [--max-checks N]
int cmd_watch(const std::string& stage, int max_checks);

// wb compare stage [flags of the chapter executable]
int cmd_compare(const std::string& stage, const std::vector<std::string>& flags);

// wb run chapter|stage [flags], wb trace chapter|stage [flags]: the chapter executable replaces wb.
[[noreturn]] void cmd_run(const std::string& chapter_or_stage, const std::vector<std::string>& flags);
[[noreturn]] void cmd_trace(const std::string& chapter_or_stage, const std::vector<std::string>& flags);

// wb profile stage (cuda backend, ncu)
int cmd_profile(const std::string& stage, bool build_first);

}  // namespace wbtool
