// A crash in a test case of a plain run (no --wb-progress): named, and the test cases after it
// still run.
//
// A plain run of a test binary runs every test case in one process, so a crash (a kernel that
// segfaults on the cpu backend, an abort) would end it there: doctest names the case and
// re-raises the signal, and every case after it is lost, the summary line with them. The
// listener of crash_report.cpp keeps them: at the start of a plain doctest run it installs a
// handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT. When one arrives inside a test case
// (after doctest has reported it, "CRASHED: SIGSEGV ..."), the handler writes one line on
// stderr,
//
//   crashed: test case "<name>" (SIGSEGV); the test cases after it run on in a new process (--dt-first=13)
//
// and runs the same command again from the next case (doctest's --dt-first), with the run's
// seed (WB_TEST_SEED) and the counts so far (WB_TEST_CARRY=passed,failed,restarts), which the
// new process adds to its own: its summary line and exit status cover the whole run. It does
// not start again under a reporter that writes to a file or to stdout in another format (xml,
// junit: one document each), after 50 crashes, or when no case was running; then the line
// says which cases did not run, and the signal ends the process as before.
//
// --wb-progress runs each stage in a child process and reports a crash there itself
// (stage_process.cpp); the handler is not installed in those children.
//
// Wiring: crash_report.cpp registers its doctest listener itself; it is one of wb_test_main's
// sources, and main() calls crash_report_linked() so that the static library's linker keeps
// its object (nothing else references it).
#pragma once

namespace wb::test_main {

// Does nothing: a reference that keeps crash_report.cpp's listener linked when the file is a
// source of the wb_test_main library rather than included into main.cpp.
void crash_report_linked();

}  // namespace wb::test_main
