// What wb prints for the learner to type: commands that start the way wb was started, paths
// from where the learner stands, words quoted for a shell. And bad input: usage_error.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace wbtool {

// Bad input: a message and exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How the learner started wb ("./wb", "build/wb", "wb"; main sets it from argv[0]): the
// commands wb prints start with it, so that they work pasted where the learner stands.
extern std::string g_wb;
std::string wb_command(const std::string& rest);

// A path as the learner can type it from where they stand: relative to the current folder
// when it lies below it, else absolute.
std::string path_from_here(const std::filesystem::path& path);

// A word for a shell: quoted when it needs to be.
std::string shell_quote(const std::string& word);

}  // namespace wbtool
