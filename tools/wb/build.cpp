// Building what a verb needs (see build.hpp).
#include "build.hpp"

#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "command_line.hpp"
#include "process.hpp"
#include "wb_chapters.hpp"

namespace wbtool {
namespace {

// The compiler's errors, briefly: the first error lines with a little context.
std::string brief_errors(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  const std::string root = std::string(source_dir) + "/";
  for (std::string line; std::getline(in, line);) {
    // "exercises/merge/basic.cu:42:1: error: ..." rather than the absolute path.
    for (std::size_t at; (at = line.find(root)) != std::string::npos;) line.erase(at, root.size());
    lines.push_back(line);
  }
  std::string out;
  std::set<std::string> seen;
  int shown = 0;
  for (std::size_t i = 0; i < lines.size() && shown < 16; ++i) {
    const std::string& line = lines[i];
    // Errors, and the notes that explain them ("note: candidate expects 2 arguments, 3 provided").
    if (line.find("error") == std::string::npos && line.find("undefined reference") == std::string::npos &&
        line.find(": note: ") == std::string::npos) {
      continue;
    }
    if (line.rfind("FAILED:", 0) == 0 || line.rfind("ninja:", 0) == 0) continue;
    if (!seen.insert(line).second) continue;  // a header's error, once for every file including it
    out += "    " + line + "\n";
    ++shown;
    // The source line and the caret under it, when the compiler printed them.
    for (std::size_t j = i + 1; j < lines.size() && j <= i + 2 && shown < 16; ++j) {
      if (lines[j].rfind("  ", 0) != 0 && lines[j].find('|') == std::string::npos) break;
      out += "    " + lines[j] + "\n";
      ++shown;
      i = j;
    }
  }
  if (out.empty()) {  // no line said "error": show the end of the output
    const std::size_t from = lines.size() > 10 ? lines.size() - 10 : 0;
    for (std::size_t i = from; i < lines.size(); ++i) out += "    " + lines[i] + "\n";
  }
  return out;
}

}  // namespace

void require_build() {
  if (!std::filesystem::exists(std::filesystem::path(build_dir) / "CMakeCache.txt")) {
    throw usage_error(fmt::format("no configured build in {} (configure it again: cmake --preset default)", build_dir));
  }
}

bool build(const std::vector<std::string>& targets) {
  require_build();
  std::vector<std::string> argv = {cmake_command, "--build", build_dir, "--target"};
  argv.insert(argv.end(), targets.begin(), targets.end());
  const process_result r = run_captured(argv);
  if (r.status == 0) return true;
  std::string command = fmt::format("cmake --build {} --target", build_dir);
  for (const auto& t : targets) command += " " + t;
  std::printf("the build failed; the compiler says:\n%s(all of it: %s)\n", brief_errors(r.output).c_str(),
              command.c_str());
  return false;
}

}  // namespace wbtool
