// One writer for a chapter's sweep tables (reduction --sweep-block, merge --sweep, allreduce
// --sweep ...): aligned columns on the terminal, the same measurements as CSV rows in a file.
//
//   wb::sweep_table table({{"stage", -26}, {"32", 9}, {"64", 9}}, opt.common.csv,
//                         {"stage", "track", "block", "median_ms", "gb_per_s", "verified"});
//   table.print_header();
//   table.print_row({"1 two-pass", "812.4", "1630.2"});   // the terminal's row
//   table.csv_row({"1 two-pass", "solution", "32", "0.41", "812.4", "yes"});
//
// The terminal and the file may have different shapes (a grid on the screen, one CSV row per
// cell); each is written as its rows come. Without a CSV path csv_row does nothing. A file that
// cannot be written is a usage error, before any row is measured.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace wb {

class sweep_table {
 public:
  struct column {
    std::string name;
    int width;  // characters on the terminal; negative: left-aligned
  };

  sweep_table(std::vector<column> columns, const std::string& csv_path, std::vector<std::string> csv_columns);
  sweep_table(const sweep_table&) = delete;
  sweep_table& operator=(const sweep_table&) = delete;
  ~sweep_table();

  void print_header() const;
  // One row on the terminal: cells past the declared columns are printed after them, spaced.
  void print_row(const std::vector<std::string>& cells) const;
  // One row of the CSV file: fields with a comma or a quote are quoted.
  void csv_row(const std::vector<std::string>& fields);
  bool writes_csv() const { return csv_ != nullptr; }

 private:
  std::vector<column> columns_;
  std::FILE* csv_ = nullptr;
};

}  // namespace wb
