// What wb prints for the learner to type (see command_line.hpp).
#include "command_line.hpp"

namespace wbtool {

namespace fs = std::filesystem;

std::string g_wb = "wb";

std::string wb_command(const std::string& rest) { return g_wb + " " + rest; }

std::string path_from_here(const fs::path& path) {
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  if (ec) return path.string();
  const fs::path relative = fs::path(path).lexically_normal().lexically_relative(here);
  if (relative.empty() || *relative.begin() == "..") return path.string();
  return relative.string();
}

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-=:,+") ==
                           std::string::npos) {
    return word;
  }
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace wbtool
