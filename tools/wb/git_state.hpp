// What git says of the learner's exercise files: which stages are untouched ("not started"),
// and which stage the learner touched last (the one they are working on).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "process.hpp"
#include "stages.hpp"

namespace wbtool {

// The shipped version of the exercises is the commit the clone started from: where HEAD
// meets its upstream branch (git merge-base HEAD @{upstream}) when the branch has one, else
// HEAD. A learner's own commits and unmerged upstream changes do not count as shipped.
struct shipped_version {
  bool known = false;
  std::string ref;      // a commit
  std::string why_not;  // when not known
  std::set<std::string> changed;  // files under exercises/ that differ from it
};

// Runs git in the source folder.
process_result git(std::vector<std::string> args);

// Asked of git once, the first time.
const shipped_version& shipped();

// True when every file of the stage is as shipped; nullopt when that cannot be known.
std::optional<bool> untouched(const stage_ref& s);

// The stage whose exercise files the learner changed last: of the files that differ from the
// shipped version, the one modified last (the earlier stage when stages share it). nullopt
// when every file is as shipped, or when that cannot be known.
std::optional<stage_ref> last_touched();

}  // namespace wbtool
