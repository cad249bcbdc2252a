// wb hint stage [--level N]: the stage's graded hints, 1 a nudge, 2 the approach, 3 the recipe.
#include <cstdio>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "command_line.hpp"
#include "verbs.hpp"

namespace wbtool {

int cmd_hint(const std::string& text, int level) {
  const stage_ref s = find_stage(text);
  if (level < 1 || level > 3) throw usage_error(fmt::format("--level must be 1, 2 or 3, not {}", level));
  static const char* const names[] = {"a nudge", "the approach", "the recipe"};
  std::printf("%s  %s  (%s)\n\n", s.id().c_str(), s.stage->title, s.stage->section);
  const char* hint = s.stage->hints[static_cast<std::size_t>(level - 1)];
  std::printf("hint %d of 3, %s:\n", level, names[level - 1]);
  if (hint == nullptr || *hint == '\0') {
    std::printf("  (no hint at this level yet for this stage)\n");
  } else {
    // Wrapped at about 90 columns, indented.
    std::istringstream words(hint);
    std::string line;
    for (std::string word; words >> word;) {
      if (!line.empty() && line.size() + word.size() + 1 > 90) {
        std::printf("  %s\n", line.c_str());
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) std::printf("  %s\n", line.c_str());
  }
  std::printf("\n");
  std::string files;
  for (const auto& f : s.files()) files += (files.empty() ? "" : "  ") + f;
  if (!files.empty()) std::printf("edit: %s\n", files.c_str());
  if (level < 3) {
    std::printf("more: %s (%s)\n", wb_command(fmt::format("hint {} --level {}", s.id(), level + 1)).c_str(),
                names[level]);
  } else {
    std::printf("that is the last hint; the answer is in solutions/%s/ (%s runs both)\n", s.chapter->name,
                wb_command("compare " + s.id()).c_str());
  }
  return 0;
}

}  // namespace wbtool
