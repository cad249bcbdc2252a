// The one test main every test binary shares (see common/README.md, "Test binaries").
//
//   <tests>                      doctest as usual, GPU-only cases skipped and named when there
//                                is no GPU, then the line "N passed, N failed, N skipped"
//   <tests> --wb-progress        one line per stage, each stage in its own process
//   <tests> --wb-progress --wb-expect=pass|fail    the exercise self-check (exit 0 or 1)
//   <tests> --wb-progress --wb-only=merge/2        only the stages named (comma-separated)
//   <tests> --wb-progress --wb-report              for the `wb` program: key<TAB>value lines
//                                                  (see print_machine_report, progress.cpp)
//
// Environment: WB_TEST_SEED=<n> repeats a run's data; WB_STAGE_TIMEOUT=<seconds> (default 120: one test case's limit)
// is how long one stage may run under --wb-progress before it is killed and reported hung.
//
// This file reads the command line; the pieces it runs are declared in internal.hpp, one
// concern a file.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "internal.hpp"
#include "crash_report.hpp"  // a crash in a test case: named, the cases after it still run
#include "wb/device_info.hpp"
#include "wb/runtime.hpp"

namespace {

void print_workbook_help() {
  std::printf(
      "\nworkbook options (besides doctest's):\n"
      "  --wb-progress              one line per stage: pass, or FAIL with the first failure and a hint;\n"
      "                             each stage runs in its own process\n"
      "  --wb-expect=pass|fail      with --wb-progress: exit 0 only if every stage passes / fails\n"
      "  --wb-only=ID[,ID...]       with --wb-progress: only these stages (merge/2 or the suite name)\n"
      "  --wb-report                with --wb-progress: key<TAB>value lines for the wb program\n"
      "environment:\n"
      "  WB_TEST_SEED=<n>           repeat a run's random data (the seed is printed at the start)\n"
      "  WB_STAGE_TIMEOUT=<s>       --wb-progress: kill a stage when one test case runs s seconds (default 120)\n"
      "  WB_SYNC_CHECK=1            synchronise after every launch (faults name the launch)\n"
      "  WB_CPU_ORDER=in-order|reverse|shuffle[:seed]   cpu backend: thread scheduling order\n");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wb::test_main;
  crash_report_linked();  // keeps crash_report.cpp's listener in the binary (crash_report.hpp)
  bool progress = false;
  std::string expect;
  std::vector<std::string> only;  // --wb-only
  bool machine = false;           // --wb-report
  std::vector<std::string> args;
  bool query = false;
  bool help = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i > 0 && arg == "--wb-progress") {
      progress = true;
    } else if (i > 0 && arg.rfind("--wb-expect", 0) == 0) {
      if (arg.rfind("--wb-expect=", 0) == 0) {
        expect = arg.substr(std::strlen("--wb-expect="));
      } else if (arg == "--wb-expect" && i + 1 < argc) {
        expect = argv[++i];
      } else {
        wb::testing::usage_exit("--wb-expect needs a value: pass or fail");
      }
      if (expect != "pass" && expect != "fail") {
        wb::testing::usage_exit(fmt::format("--wb-expect must be pass or fail, not '{}'", expect));
      }
    } else if (i > 0 && arg.rfind("--wb-only", 0) == 0) {
      std::string list;
      if (arg.rfind("--wb-only=", 0) == 0) {
        list = arg.substr(std::strlen("--wb-only="));
      } else if (arg == "--wb-only" && i + 1 < argc) {
        list = argv[++i];
      } else {
        wb::testing::usage_exit("--wb-only needs a stage, e.g. --wb-only=merge/2");
      }
      std::stringstream names(list);
      for (std::string name; std::getline(names, name, ',');) {
        if (!name.empty()) only.push_back(name);
      }
      if (only.empty()) wb::testing::usage_exit("--wb-only needs a stage, e.g. --wb-only=merge/2");
    } else if (i > 0 && arg == "--wb-report") {
      machine = true;
    } else if (i > 0 && arg.rfind("--wb-", 0) == 0) {
      wb::testing::usage_exit(fmt::format(
          "unknown option '{}' (workbook options: --wb-progress, --wb-expect=pass|fail, --wb-only=ID, --wb-report)", arg));
    } else {
      if (i > 0 && is_query_flag(arg)) query = true;
      if (i > 0 && (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--dt-help")) help = true;
      args.push_back(arg);
    }
  }
  if (!expect.empty() && !progress) wb::testing::usage_exit("--wb-expect only makes sense with --wb-progress");
  if (!only.empty() && !progress) wb::testing::usage_exit("--wb-only only makes sense with --wb-progress");
  if (machine && !progress) wb::testing::usage_exit("--wb-report only makes sense with --wb-progress");
  if (progress && args.size() > 1) {
    wb::testing::usage_exit(fmt::format("--wb-progress runs whole stages and takes no doctest options (got '{}')", args[1]));
  }

#if defined(WB_BACKEND_CPU)
  // Checks run with the emulator's race check (common/CPU-BACKEND.md) unless WB_CPU_RACECHECK
  // says otherwise: a race fails its test case, whatever the scheduling order.
  if (std::getenv("WB_CPU_RACECHECK") == nullptr) wb::cpu::set_race_check(true);
#endif

  std::string program = argc > 0 ? argv[0] : "tests";
  if (const auto slash = program.rfind('/'); slash != std::string::npos) program = program.substr(slash + 1);

  if (progress) {
    // The parent only forks and reads pipes: it must not touch CUDA (a CUDA context does not
    // survive fork), so no device query happens here.
    if (machine) {
      std::printf("seed\t%llu\n", static_cast<unsigned long long>(wb::testing::run_seed()));
    } else {
      print_seed();
    }
    return run_progress(args, expect, program, only, machine);
  }

  if (machine_readable_stdout(args)) g_chatter = stderr;
  if (!query) {
    print_seed();
    std::fprintf(g_chatter, "%s\n", wb::device_description().c_str());
    std::fflush(g_chatter);
  }
  const doctest_result result = run_doctest(args, nullptr, false);
  if (result.query_only || query) {
    if (help) print_workbook_help();
    return result.rc;
  }
  std::fflush(stdout);
  for (const auto& name : g_record.skipped_gpu) std::fprintf(g_chatter, "skipped (needs a GPU): %s\n", name.c_str());
  print_summary(g_record.passed, g_record.failed, static_cast<int>(g_record.skipped_gpu.size()));
  return (result.rc != 0 || g_record.failed > 0) ? 1 : 0;
}
