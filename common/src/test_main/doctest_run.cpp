// One doctest run (of one suite, quietly, in a --wb-progress child). Without a GPU the run
// leaves GPU-only cases ("[gpu] ...") out, and the listener names each one the user's own
// filters select as skipped: a listing run first finds which cases those are.
#include <ostream>

#include "internal.hpp"

namespace wb::test_main {

doctest_result run_doctest(const std::vector<std::string>& args, const char* suite, bool quiet) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());

  g_record.gpu_excluded = !wb::testing::gpu_present();
  if (g_record.gpu_excluded) {
    // Which cases do the user's filters select? (A listing run, printed nowhere.)
    // (A flag, not setOption: doctest matches flags exactly, "-list-test-cases=true" is ignored.)
    std::ostream nowhere(nullptr);
    std::vector<const char*> query_argv = argv;
    query_argv.push_back("--list-test-cases");
    doctest::Context query(static_cast<int>(query_argv.size()), query_argv.data());
    if (suite != nullptr) query.addFilter("test-suite", suite);
    query.setOption("reporters", "wb_quiet");
    query.setCout(&nowhere);
    g_record.capture_selected = true;
    query.run();
    g_record.capture_selected = false;
  }

  doctest::Context context(argc, argv.data());
  if (suite != nullptr) context.addFilter("test-suite", suite);
  if (g_record.gpu_excluded) context.addFilter("test-case-exclude", "[gpu]*");
  if (quiet) context.setOption("reporters", "wb_quiet");
  doctest_result result;
  result.rc = context.run();
  result.query_only = context.shouldExit();
  return result;
}

bool is_query_flag(const std::string& arg) {
  std::string a = arg;
  while (!a.empty() && a.front() == '-') a.erase(a.begin());
  if (a.rfind("dt-", 0) == 0) a = a.substr(3);
  if (const auto eq = a.find('='); eq != std::string::npos) a = a.substr(0, eq);
  static const std::set<std::string> flags = {"h", "help", "?", "v", "version", "c", "count", "ltc",
                                              "list-test-cases", "lts", "list-test-suites", "lr",
                                              "list-reporters"};
  return flags.count(a) > 0;
}

}  // namespace wb::test_main
