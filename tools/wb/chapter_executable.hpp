// The chapter executable on the learner's track, for wb run, trace and compare.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "stages.hpp"

namespace wbtool {

// Builds the chapter executable and replaces wb with it (args: its flags), on the cpu backend
// with the race check on (WB_CPU_RACECHECK=1 unless set), so a race in the learner's kernels
// is named, not hidden. Exits 1 when the build fails.
[[noreturn]] void exec_chapter(const chapter_table& chapter, std::vector<std::string> args);

// True when args hold the flag, as "--flag" or "--flag=value".
bool has_flag(const std::vector<std::string>& args, const std::string& flag);

// "merge" or "merge/2" (which adds --stage 2).
std::pair<const chapter_table*, std::vector<std::string>> chapter_and_stage(const std::string& text);

}  // namespace wbtool
