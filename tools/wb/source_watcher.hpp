// For `wb watch` (watch.cpp): waits for a source file under exercises/ to change (Linux inotify).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace wbtool {

class source_watcher {
 public:
  // Watches `root` and every folder below it (folders created later too). Throws
  // std::runtime_error when inotify is not available.
  explicit source_watcher(const std::string& root);
  ~source_watcher();
  source_watcher(const source_watcher&) = delete;
  source_watcher& operator=(const source_watcher&) = delete;

  // Blocks until a source file (.cu .cuh .cpp .hpp .h .inl) is written, moved in or removed,
  // then waits until the files have been quiet for `quiet_ms` (an editor's save is a burst of
  // events: a temporary file, a rename, a second write) and returns the paths that changed,
  // relative to the root's parent ("exercises/merge/basic.cu").
  std::vector<std::string> wait_for_change(int quiet_ms = 300);

 private:
  void add_tree(const std::string& dir);
  // Reads the events waiting (up to timeout_ms for the first); adds the changed files to `out`.
  bool read_events(int timeout_ms, std::vector<std::string>& out);

  int fd_ = -1;
  std::string root_;
  std::map<int, std::string> dirs_;  // watch descriptor -> folder
};

}  // namespace wbtool
