// Optional phase timing for stage 7 and the sorts it calls (hash_count_config::phases, the
// executable's --phases): CUDA events recorded between the steps of one call and printed as
// one line on stderr ("<label>: step ms step ms ... total ms"); off, it does nothing.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "wb/check.hpp"

namespace counting {

class phase_clock {
 public:
  explicit phase_clock(bool on) : on_(on) {}
  phase_clock(const phase_clock&) = delete;
  phase_clock& operator=(const phase_clock&) = delete;
  ~phase_clock() {
    for (auto& m : marks_) cudaEventDestroy(m.second);
  }
  // The end of the step `name` (the first mark only starts the clock).
  void mark(const char* name) {
    if (!on_) return;
    cudaEvent_t e{};
    WB_CHECK(cudaEventCreate(&e));
    WB_CHECK(cudaEventRecord(e, 0));
    marks_.emplace_back(name, e);
  }
  void print(const std::string& label) {
    if (!on_ || marks_.size() < 2) return;
    WB_CHECK(cudaEventSynchronize(marks_.back().second));
    std::string line = label + ":";
    float total = 0;
    for (std::size_t i = 1; i < marks_.size(); ++i) {
      float ms = 0;
      WB_CHECK(cudaEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
      total += ms;
      line += ' ';
      line += marks_[i].first;
      line += ' ';
      line += std::to_string(ms);
    }
    std::fprintf(stderr, "%s total %f ms\n", line.c_str(), total);
  }

 private:
  bool on_;
  std::vector<std::pair<const char*, cudaEvent_t>> marks_;
};

}  // namespace counting
