// The sweep tables' writer (wb/sweep_table.hpp).
#include "wb/sweep_table.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "wb/arguments.hpp"

namespace wb {
namespace {

std::string aligned(const std::string& text, int width) {
  if (width < 0) return fmt::format("{:<{}}", text, -width);
  return fmt::format("{:>{}}", text, width);
}

std::string csv_field(const std::string& field) {
  if (field.find_first_of(",\"\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (const char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

sweep_table::sweep_table(std::vector<column> columns, const std::string& csv_path, std::vector<std::string> csv_columns)
    : columns_(std::move(columns)) {
  if (csv_path.empty()) return;
  csv_ = std::fopen(csv_path.c_str(), "w");
  if (csv_ == nullptr) throw usage_error("--csv: cannot write " + csv_path);
  csv_row(csv_columns);
}

sweep_table::~sweep_table() {
  if (csv_ != nullptr) std::fclose(csv_);
}

void sweep_table::print_header() const {
  std::vector<std::string> names;
  for (const auto& c : columns_) names.push_back(c.name);
  print_row(names);
}

void sweep_table::print_row(const std::vector<std::string>& cells) const {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += ' ';
    line += i < columns_.size() ? aligned(cells[i], columns_[i].width) : cells[i];
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  fmt::print("{}\n", line);
}

void sweep_table::csv_row(const std::vector<std::string>& fields) {
  if (csv_ == nullptr) return;
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';  // piece by piece: GCC 12 warns (-Wrestrict) falsely on "," + a temporary
    line += csv_field(fields[i]);
  }
  std::fprintf(csv_, "%s\n", line.c_str());
}

}  // namespace wb
