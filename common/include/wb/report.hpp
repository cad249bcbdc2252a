// The report table every chapter prints: one row per stage.
//
//   stage | median ms | min-max ms | GB/s | % of copy | vs <baseline> | verified
//
// GB/s counts the bytes the operation must move (the chapter says which); "% of copy" is
// against wb::copy_bandwidth_gbs(); "vs baseline" is baseline time / stage time (above 1 is
// faster than the library). On the cpu backend the title says the timings are emulated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "wb/timing.hpp"

namespace wb {

struct report_row {
  std::string stage;             // e.g. "6 at-bandwidth"
  std::optional<timing> time;    // empty when the stage did not run (not implemented, refused)
  double bytes = 0;              // bytes the operation must move
  double items = 0;              // items processed (for items/s)
  bool verified = false;
  bool is_baseline = false;      // the library row the others are compared with
  std::string note;              // e.g. "not implemented yet", "refused: N too large"
};

class report {
 public:
  report(std::string title, double copy_gbs);
  void add(report_row row);
  const std::vector<report_row>& rows() const { return rows_; }
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
  double copy_gbs_;
  std::vector<report_row> rows_;
};

}  // namespace wb
