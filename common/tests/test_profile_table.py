#!/usr/bin/env python3
"""Checks common/scripts/profile_table.py (the profile view's CSV -> table step) on a small
ncu sample written by hand in Nsight Compute's raw CSV format (common/tests/data/ncu-sample/):

  reduction-stage1.ncu.csv  two kernels per run, two runs; units as ncu prints them (us, Gbyte/s,
                            thousands separators): the table must keep the last run only
  reduction-stage5.ncu.csv  a chunked stage: one kernel launched twice per run beside another;
                            base units (ns, byte/s): the two launches fold into one row
  reduction-stage0.report.csv  a host stage: a report, no counters
Every expected number below is worked out by hand from those files."""
import csv
import os
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "scripts"))
import profile_table as pt  # noqa: E402

SAMPLE = os.path.join(here, "data", "ncu-sample")


class ProfileTable(unittest.TestCase):
    def setUp(self):
        self.rows = pt.build_rows("reduction", SAMPLE)

    def row(self, stage, kernel_prefix):
        found = [r for r in self.rows if r["stage"] == stage and r["kernel"].startswith(kernel_prefix)]
        self.assertEqual(len(found), 1, f"one row for {stage} {kernel_prefix}: {self.rows}")
        return found[0]

    def test_one_row_per_kernel_of_the_last_run(self):
        self.assertEqual([(r["stage"], r["kernel"]) for r in self.rows], [
            ("0 sequential", "no kernel launched"),
            ("1 two-pass", "two_pass_kernel<int, long>"),
            ("1 two-pass", "two_pass_kernel<long, long>"),
            ("5", "chunk_kernel<int>"),
            ("5", "finish_kernel"),
        ])

    def test_last_run_and_units(self):
        r = self.row("1 two-pass", "two_pass_kernel<int")
        self.assertEqual((r["grid"], r["block"], r["launches"]), ("1056", "256", 1))
        self.assertAlmostEqual(r["time_us"], 98.5)           # 98.50 us, the second run (not 110.00)
        self.assertAlmostEqual(r["dram_pct_of_peak"], 88.5)
        self.assertAlmostEqual(r["dram_gb_per_s"], 2712.25)  # "2,712.25" Gbyte/s
        self.assertAlmostEqual(r["l2_hit_pct"], 12.5)
        self.assertAlmostEqual(r["bank_conflicts_per_shared_request"], 1000 / 100000)
        self.assertAlmostEqual(r["achieved_occupancy_pct"], 91.25)
        self.assertAlmostEqual(r["active_threads_per_warp"], 32.0)
        self.assertAlmostEqual(r["issue_slots_busy_pct"], 42.0)
        # stalls: barrier 0.4, long_scoreboard 8.0, not_selected 0.3, wait 0.5; "selected" is no stall
        self.assertEqual(r["top_stall"], "long_scoreboard")
        self.assertAlmostEqual(r["all_stall_cycles_per_issue"], 9.2)

    def test_divergent_single_block_pass(self):
        r = self.row("1 two-pass", "two_pass_kernel<long")
        self.assertEqual((r["grid"], r["block"]), ("1", "256"))
        self.assertAlmostEqual(r["time_us"], 4.25)
        self.assertAlmostEqual(r["active_threads_per_warp"], 12.0)  # 24,000 / 2,000
        self.assertEqual(r["top_stall"], "barrier")                  # 5.0 of 8.5

    def test_repeated_launches_fold(self):
        r = self.row("5", "chunk_kernel")
        self.assertEqual(r["launches"], 2)
        self.assertAlmostEqual(r["time_us"], 4.0)                    # 1,000 + 3,000 ns
        self.assertAlmostEqual(r["dram_pct_of_peak"], 45.0)          # (90*1000 + 30*3000) / 4000
        self.assertAlmostEqual(r["dram_gb_per_s"], 1500.0)
        self.assertAlmostEqual(r["l2_hit_pct"], 25.0)
        self.assertIsNone(r["bank_conflicts_per_shared_request"])   # no shared-memory instruction
        self.assertAlmostEqual(r["achieved_occupancy_pct"], 75.0)
        self.assertAlmostEqual(r["active_threads_per_warp"], 24.0)  # 24,000 / 1,000
        self.assertAlmostEqual(r["issue_slots_busy_pct"], 45.0)
        self.assertEqual(r["top_stall"], "long_scoreboard")
        self.assertAlmostEqual(r["top_stall_cycles_per_issue"], 6.0)
        self.assertAlmostEqual(r["all_stall_cycles_per_issue"], 8.5)

    def test_markdown_and_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            md, out_csv = os.path.join(tmp, "p.md"), os.path.join(tmp, "p.csv")
            rc = pt.main(["--chapter", "reduction", "--work", SAMPLE, "--md", md, "--csv", out_csv,
                          "--meta", "GPU: sample"])
            self.assertEqual(rc, 0)
            with open(md) as f:
                text = f.read()
            with open(out_csv, newline="") as f:
                table = list(csv.DictReader(f))
        lines = text.splitlines()
        self.assertEqual(lines[0], "# reduction: profile")
        self.assertIn("- GPU: sample", lines)
        body = [ln for ln in lines if ln.startswith("| ")]
        self.assertEqual(len(body), 2 + 5)  # header, alignment row, one line per row
        self.assertIn("| 1 two-pass | `two_pass_kernel<int, long>` | 1 | 1056 × 256 | 98.5 | 88.5 | 2,712 | 12.5 | "
                      "0.01 | 91.2 | 32.0 | 42.0 | long scoreboard (87%) |", body)
        self.assertIn("| 5 | `chunk_kernel<int>` | 2 | 792 × 512 | 4.0 | 45.0 | 1,500 | 25.0 | – | 75.0 | 24.0 | "
                      "45.0 | long scoreboard (71%) |", body)
        self.assertIn("| 5 | `finish_kernel` | 1 | 1 × 32 | 2.0 | 0.0 | 0 | 0.0 | – | 3.0 | 10.0 | 1.0 | wait (100%) |",
                      body)
        self.assertTrue(any(ln.startswith("| 0 sequential | no kernel launched |") for ln in body))
        self.assertEqual(len(table), 5)
        self.assertEqual(table[1]["kernel"], "two_pass_kernel<int, long>")
        self.assertEqual(float(table[1]["time_us"]), 98.5)
        self.assertEqual(table[3]["launches"], "2")
        self.assertEqual(table[0]["note"], "on the host")

    def test_names_and_periods(self):
        self.assertEqual(pt.clean_kernel_name("void unnamed>::count_kernel<signed char>(const T1 *, long)"),
                         "count_kernel<signed char>")
        self.assertEqual(pt.clean_kernel_name("counting::detail::<unnamed>::table_kernel(const long *)"), "table_kernel")
        self.assertEqual(pt.clean_kernel_name("void merge::solution::(anonymous namespace)::tile<int, 512>(const T1 *)"),
                         "tile<int, 512>")
        launches = [{"name": n, "grid": g, "block": "256"} for n, g in
                    [("probe", "64"), ("k", "8"), ("k", "8"), ("k", "8")]]
        run, runs = pt.one_run(launches)  # a sample probe first: the last repeated block is kept
        self.assertEqual(len(run), 1)
        self.assertIsNone(runs)

    def test_refuses_a_page_without_the_metrics(self):
        with self.assertRaises(pt.ProfileError):
            pt.parse_ncu_csv('"ID","Kernel Name","Grid Size","Block Size","gpu__time_duration.sum"\n'
                             '"","","","","ns"\n"0","k","(1, 1, 1)","(32, 1, 1)","5"\n')
        with self.assertRaises(pt.ProfileError):
            pt.parse_ncu_csv('"a","b"\n"1","2"\n')
        self.assertEqual(pt.parse_ncu_csv("==WARNING== No kernels were profiled.\n"), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
