// What git says of the learner's exercise files (see git_state.hpp).
#include "git_state.hpp"

#include <filesystem>
#include <sstream>

namespace wbtool {

namespace fs = std::filesystem;

process_result git(std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", source_dir});
  return run_captured(args);
}

const shipped_version& shipped() {
  static const shipped_version version = [] {
    shipped_version v;
    const process_result inside = git({"rev-parse", "--is-inside-work-tree"});
    if (inside.status != 0 || trim(inside.output) != "true") {
      v.why_not = inside.status == -1 || inside.status == 127 ? "git is not installed" : "this is not a git checkout";
      return v;
    }
    // A folder inside some other repository is not a checkout of the workbook.
    const process_result top = git({"rev-parse", "--show-toplevel"});
    std::error_code ec;
    if (top.status != 0 || !fs::equivalent(trim(top.output), source_dir, ec)) {
      v.why_not = "this is not a git checkout of the workbook";
      return v;
    }
    process_result base = git({"merge-base", "HEAD", "@{upstream}"});
    if (base.status != 0) base = git({"rev-parse", "--verify", "HEAD"});
    if (base.status != 0) {
      v.why_not = "the git checkout has no commit yet";
      return v;
    }
    v.ref = trim(base.output);
    const process_result diff = git({"diff", "--name-only", "--relative", v.ref, "--", "exercises"});
    if (diff.status != 0) {
      v.why_not = "git diff failed: " + trim(diff.output);
      return v;
    }
    std::istringstream names(diff.output);
    for (std::string name; std::getline(names, name);) v.changed.insert(trim(name));
    v.known = true;
    return v;
  }();
  return version;
}

std::optional<bool> untouched(const stage_ref& s) {
  const shipped_version& v = shipped();
  if (!v.known) return std::nullopt;
  for (const auto& f : s.files()) {
    if (v.changed.count(f) > 0) return false;
  }
  return true;
}

std::optional<stage_ref> last_touched() {
  const shipped_version& v = shipped();
  if (!v.known) return std::nullopt;
  std::optional<stage_ref> latest;
  fs::file_time_type latest_time{};
  for (const auto& s : all_stages()) {
    for (const auto& f : s.files()) {
      if (v.changed.count(f) == 0) continue;
      std::error_code ec;
      const auto time = fs::last_write_time(fs::path(source_dir) / f, ec);
      if (ec) continue;  // deleted: no time to go by
      if (!latest || time > latest_time) {  // a tie keeps the earlier stage
        latest = s;
        latest_time = time;
      }
    }
  }
  return latest;
}

}  // namespace wbtool
