// The source watcher of `wb watch` (see source_watcher.hpp): inotify, one watch per folder under
// exercises/.
#include "source_watcher.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace wbtool {
namespace {

constexpr std::uint32_t kEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE;

// Only the learner's sources count: not an editor's swap, backup or lock files.
bool is_source(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.front() == '#') return false;
  for (const char* ext : {".cu", ".cuh", ".cpp", ".hpp", ".h", ".inl"}) {
    const std::size_t n = std::strlen(ext);
    if (name.size() > n && name.compare(name.size() - n, n, ext) == 0) return true;
  }
  return false;
}

}  // namespace

source_watcher::source_watcher(const std::string& root) : root_(root) {
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("inotify is not available: ") + std::strerror(errno));
  add_tree(root);
}

source_watcher::~source_watcher() {
  if (fd_ >= 0) close(fd_);
}

void source_watcher::add_tree(const std::string& dir) {
  const int wd = inotify_add_watch(fd_, dir.c_str(), kEvents | IN_ONLYDIR);
  if (wd < 0) throw std::runtime_error("cannot watch " + dir + ": " + std::strerror(errno));
  dirs_[wd] = dir;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec) && entry.path().filename().string().front() != '.') add_tree(entry.path().string());
  }
}

bool source_watcher::read_events(int timeout_ms, std::vector<std::string>& out) {
  pollfd p{fd_, POLLIN, 0};
  const int ready = poll(&p, 1, timeout_ms);
  if (ready <= 0) return false;
  alignas(inotify_event) char buffer[16384];
  bool any = false;
  for (;;) {
    const ssize_t n = read(fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (char* at = buffer; at < buffer + n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(at);
      at += sizeof(inotify_event) + event->len;
      const auto dir = dirs_.find(event->wd);
      if ((event->mask & IN_IGNORED) != 0) {
        if (dir != dirs_.end()) dirs_.erase(dir);
        continue;
      }
      if (dir == dirs_.end() || event->len == 0) continue;
      const std::string name = event->name;
      const std::string path = dir->second + "/" + name;
      if ((event->mask & IN_ISDIR) != 0) {
        if ((event->mask & (IN_CREATE | IN_MOVED_TO)) != 0 && name.front() != '.') add_tree(path);
        continue;
      }
      if (!is_source(name)) continue;
      // "exercises/merge/basic.cu": relative to the folder above the root.
      const std::string parent = std::filesystem::path(root_).parent_path().string();
      const std::string shown = path.rfind(parent + "/", 0) == 0 ? path.substr(parent.size() + 1) : path;
      if (std::find(out.begin(), out.end(), shown) == out.end()) out.push_back(shown);
      any = true;
    }
  }
  return any;
}

std::vector<std::string> source_watcher::wait_for_change(int quiet_ms) {
  std::vector<std::string> changed;
  while (changed.empty()) read_events(-1, changed);
  // Debounce: wait for quiet_ms without events, but not longer than 3 s in all.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < give_up) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, quiet_ms) <= 0) break;
    read_events(0, changed);
  }
  return changed;
}

}  // namespace wbtool
