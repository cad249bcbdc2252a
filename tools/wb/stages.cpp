// The stages of the build's chapters (see stages.hpp).
#include "stages.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "command_line.hpp"

namespace wbtool {
namespace {

namespace fs = std::filesystem;

std::string chapter_names() {
  std::string names;
  for (const auto& c : chapters) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names.empty() ? "none" : names;
}

}  // namespace

std::string stage_ref::id() const {
  const std::string suite = stage->suite;
  return suite.substr(0, suite.find(' '));
}

std::vector<std::string> stage_ref::files() const {
  std::vector<std::string> out;
  std::istringstream names(stage->files != nullptr ? stage->files : "");
  for (std::string name; names >> name;) out.push_back(fmt::format("exercises/{}/{}", chapter->name, name));
  return out;
}

std::set<std::string> files_used(const stage_ref& s) {
  const fs::path root(source_dir);
  const fs::path folder = fs::path("exercises") / s.chapter->name;
  std::set<std::string> used;
  std::vector<std::string> todo = s.files();
  while (!todo.empty()) {
    const std::string file = todo.back();
    todo.pop_back();
    if (!used.insert(file).second) continue;
    std::ifstream in(root / file);
    for (std::string line; std::getline(in, line);) {
      const auto hash = line.find_first_not_of(" \t");
      if (hash == std::string::npos || line.compare(hash, 8, "#include") != 0) continue;
      const auto open = line.find('"', hash);
      const auto close = open == std::string::npos ? open : line.find('"', open + 1);
      if (close == std::string::npos) continue;
      const std::string name = line.substr(open + 1, close - open - 1);
      for (const fs::path& candidate : {fs::path(file).parent_path() / name, folder / name}) {
        const fs::path normal = candidate.lexically_normal();
        std::error_code ec;
        if (normal.string().rfind(folder.string() + "/", 0) == 0 && fs::is_regular_file(root / normal, ec)) {
          todo.push_back(normal.string());
          break;
        }
      }
    }
  }
  return used;
}

std::vector<stage_ref> all_stages() {
  std::vector<stage_ref> out;
  for (const auto& chapter : chapters) {
    for (const auto& s : chapter.stages) out.push_back({&chapter, &s});
  }
  return out;
}

const chapter_table& find_chapter(const std::string& name) {
  for (const auto& c : chapters) {
    if (name == c.name) return c;
  }
  throw usage_error(fmt::format("no chapter '{}' in this build (chapters: {})", name, chapter_names()));
}

stage_ref find_stage(const std::string& text) {
  const std::string id = text.substr(0, text.find(' '));
  const auto slash = id.find('/');
  if (slash == std::string::npos) {
    throw usage_error(fmt::format("'{}' is not a stage: name one as chapter/number, e.g. {}/0", text,
                                  chapters.empty() ? "merge" : chapters.front().name));
  }
  const chapter_table& chapter = find_chapter(id.substr(0, slash));
  const std::string number_text = id.substr(slash + 1);
  int number = -1;
  const auto [ptr, ec] = std::from_chars(number_text.data(), number_text.data() + number_text.size(), number);
  for (const auto& s : chapter.stages) {
    if (ec == std::errc{} && ptr == number_text.data() + number_text.size() && s.number == number) return {&chapter, &s};
  }
  std::string numbers;
  for (const auto& s : chapter.stages) numbers += fmt::format("{}{}", numbers.empty() ? "" : ", ", s.number);
  throw usage_error(fmt::format("chapter {} has no stage '{}' (its stages: {})", chapter.name, number_text, numbers));
}

}  // namespace wbtool
