// The report table every chapter prints: one row per stage.
//
//   stage | median ms | min-max ms | <rate> | % of <ceiling> | vs <baseline> | items/s | verified | note
//
// The rate columns are the chapter's: GB/s and "% of copy" for the memory-bound chapters
// (report_layout::bandwidth, the default), TFLOP/s and "% of peak" for a GEMM, algorithm and
// bus bandwidth for an all-reduce. Each counts the row's `work` (bytes the operation must
// move, floating-point operations, ...) per second. "vs baseline" is baseline time / stage
// time (above 1 is faster than the library). On the cpu backend the title says the timings
// are emulated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "wb/timing.hpp"

namespace wb {

struct report_row {
  std::string stage;             // e.g. "6 at-bandwidth"
  std::optional<timing> time;    // empty when the stage did not run (not implemented, refused)
  double work = 0;               // what the rate columns count: bytes moved (GB/s), flops (TFLOP/s)
  double items = 0;              // items processed (for items/s)
  bool verified = false;
  bool is_baseline = false;      // the library row the others are compared with
  std::string note;              // e.g. "not implemented yet", "refused: N too large"
};

// One throughput column: row.work * factor per second, divided by `per_unit`.
struct rate_column {
  std::string header = "GB/s";     // in the table
  std::string field = "gb_per_s";  // in the CSV and JSON
  double per_unit = 1e9;           // GB/s: 10^9 bytes per second; TFLOP/s: 10^12 flops per second
  double factor = 1;               // bus bandwidth of an all-reduce over p GPUs: 2 (p - 1) / p
  // The ceiling this column is compared with (same unit), in a "% of" column after it; an
  // empty ceiling_header: no such column. A ceiling of 0 (unknown) leaves its cells empty.
  double ceiling = 0;
  std::string ceiling_header = "% of copy";
  std::string ceiling_field = "pct_of_copy";          // the percentage, in the CSV and JSON
  std::string ceiling_value_field = "copy_gb_per_s";  // the ceiling itself, in the CSV and JSON
};

// What a report's rate columns count and what is printed under its title.
struct report_layout {
  std::string work_field = "bytes";         // row.work in the CSV and JSON
  std::vector<rate_column> rates = {rate_column{}};
  std::vector<std::string> preamble;        // lines under the title ("copy bandwidth: ...")

  // The memory-bound chapters' layout: GB/s of the bytes a stage must move, and its share of
  // the device-to-device copy rate (wb::copy_bandwidth_gbs(); 0: unknown, no line).
  static report_layout bandwidth(double copy_gbs);
};

class report {
 public:
  report(std::string title, report_layout layout);
  report(std::string title, double copy_gbs) : report(std::move(title), report_layout::bandwidth(copy_gbs)) {}
  void add(report_row row);
  const std::vector<report_row>& rows() const { return rows_; }
  const std::string& title() const { return title_; }
  // Terminal table; CSV and JSON files with the same columns (plus the raw samples in JSON).
  void print() const;
  std::string to_text() const;  // what print() writes
  void write_csv(const std::string& path) const;
  void write_json(const std::string& path) const;
  // Both, each where its path is not empty (the --csv and --json flags).
  void write_files(const std::string& csv_path, const std::string& json_path) const;
  bool all_verified() const;  // every row that ran was verified

 private:
  std::string title_;
  report_layout layout_;
  std::vector<report_row> rows_;
};

}  // namespace wb
