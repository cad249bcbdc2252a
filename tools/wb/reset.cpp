// wb reset stage [--yes]: put back the shipped stub of the stage (asks first), the learner's
// version kept under .wb/backups/, the stages that share a file named.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command_line.hpp"
#include "git_state.hpp"
#include "verbs.hpp"

namespace wbtool {
namespace {

namespace fs = std::filesystem;

// Copies the learner's files into .wb/backups/<time>-<stage>/ (same paths below it) before a
// reset overwrites them; returns that folder, relative to the source folder.
std::string back_up(const stage_ref& s, const std::vector<std::string>& files) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string id = s.id();
  std::replace(id.begin(), id.end(), '/', '-');
  const fs::path root(source_dir);
  fs::path folder = fs::path(".wb") / "backups" / fmt::format("{}-{}", stamp, id);
  for (int n = 2; fs::exists(root / folder); ++n) folder = fs::path(".wb") / "backups" / fmt::format("{}-{}-{}", stamp, id, n);
  for (const auto& f : files) {
    std::error_code ec;
    if (!fs::exists(root / f, ec)) continue;  // deleted by the learner: nothing to keep
    fs::create_directories((root / folder / f).parent_path(), ec);
    if (ec || !fs::copy_file(root / f, root / folder / f, fs::copy_options::overwrite_existing, ec) || ec) {
      throw std::runtime_error(fmt::format("could not keep a copy of {} in {}: {}", f, folder.string(),
                                           ec ? ec.message() : std::string("copy failed")));
    }
  }
  return folder.string();
}

}  // namespace

int cmd_reset(const std::string& text, bool yes) {
  const stage_ref s = find_stage(text);
  const shipped_version& v = shipped();
  if (!v.known) throw usage_error(fmt::format("cannot reset {}: {}, so there is no shipped version to restore", s.id(), v.why_not));
  std::vector<std::string> changed;
  for (const auto& f : s.files()) {
    if (v.changed.count(f) > 0) changed.push_back(f);
  }
  if (changed.empty()) {
    std::printf("%s is as shipped already: nothing to reset\n", s.id().c_str());
    return 0;
  }
  std::printf("This puts back the shipped stub of %s:\n", s.id().c_str());
  for (const auto& f : changed) {
    // Other stages whose code includes the file: the reset takes their use of it back too.
    std::string others;
    for (const auto& other : all_stages()) {
      if (other.stage == s.stage || other.chapter != s.chapter) continue;
      if (files_used(other).count(f) > 0) others += (others.empty() ? "" : ", ") + other.id();
    }
    std::printf("  %s%s\n", f.c_str(),
                others.empty() ? "" : fmt::format("   (also used by {}: they fail again until you rewrite it)", others).c_str());
  }
  std::printf("Your version is kept: a copy goes to .wb/backups/ first.\n");
  if (!yes) {
    std::printf("Reset them? [y/N] ");
    std::fflush(stdout);
    std::string answer;
    if (!std::getline(std::cin, answer) || (answer != "y" && answer != "Y" && answer != "yes")) {
      std::printf("not reset\n");
      return 1;
    }
  }
  const std::string backup = back_up(s, changed);
  std::vector<std::string> args = {"restore", "--source=" + v.ref, "--worktree", "--"};
  args.insert(args.end(), changed.begin(), changed.end());
  const process_result r = git(args);
  if (r.status != 0) {
    std::printf("git restore failed:\n%s\n", trim(r.output).c_str());
    return 1;
  }
  std::printf("%s is back to the shipped stub; your version is in %s/\n", s.id().c_str(), backup.c_str());
  std::printf("to get it back:  cp -r %s/exercises %s\n",
              path_from_here(fs::path(source_dir) / backup).c_str(),
              path_from_here(fs::path(source_dir)).empty() ? "." : path_from_here(fs::path(source_dir)).c_str());
  return 0;
}

}  // namespace wbtool
