// The workbook's own lines around doctest's: the test seed first, the summary line last
// ("N passed, N failed, N skipped"), on stdout or, under a machine-readable reporter, stderr.
#include <cstdio>
#include <iostream>

#include "internal.hpp"

namespace wb::test_main {

FILE* g_chatter = stdout;

void print_summary(int passed, int failed, int skipped) {
  std::fflush(stdout);
  std::cout.flush();
  std::fprintf(g_chatter, "%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  std::fflush(g_chatter);
}

void print_seed() {
  const auto s = wb::testing::run_seed();
  std::fprintf(g_chatter, "test seed: %llu (WB_TEST_SEED=%llu repeats this run)\n", static_cast<unsigned long long>(s),
               static_cast<unsigned long long>(s));
  std::fflush(g_chatter);
}

// Does the command line pick a reporter other than the console one, writing to stdout?
bool machine_readable_stdout(const std::vector<std::string>& args) {
  bool other_reporter = false;
  bool to_file = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string a = args[i];
    while (!a.empty() && a.front() == '-') a.erase(a.begin());
    if (a.rfind("dt-", 0) == 0) a = a.substr(3);
    const auto eq = a.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = a.substr(0, eq);
    const std::string value = a.substr(eq + 1);
    if ((name == "r" || name == "reporters") && value != "console") other_reporter = true;
    if (name == "o" || name == "out") to_file = true;
  }
  return other_reporter && !to_file;
}

}  // namespace wb::test_main
