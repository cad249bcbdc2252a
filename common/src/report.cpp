// The report table (see wb/report.hpp): terminal, CSV and JSON.
#include "wb/report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "wb/runtime.hpp"

namespace wb {
namespace {

constexpr const char* emulated_note = "timings emulated on the cpu backend: meaningless for a GPU";

bool ran(const report_row& row) { return row.time.has_value(); }

double rate(const report_row& row, const rate_column& column) {
  if (!ran(row) || row.time->median_ms <= 0 || row.work <= 0) return NAN;
  return row.work * column.factor / (row.time->median_ms * 1e-3) / column.per_unit;
}
double items_per_s(const report_row& row) {
  if (!ran(row) || row.time->median_ms <= 0 || row.items <= 0) return NAN;
  return row.items / row.time->median_ms * 1e3;
}
double percent_of_ceiling(const report_row& row, const rate_column& column) {
  const double value = rate(row, column);
  return std::isfinite(value) && column.ceiling > 0 ? 100.0 * value / column.ceiling : NAN;
}

// The row the others are compared with: the first baseline row that ran.
const report_row* baseline_of(const std::vector<report_row>& rows) {
  for (const auto& row : rows) {
    if (row.is_baseline && ran(row) && row.time->median_ms > 0) return &row;
  }
  return nullptr;
}
double vs_baseline(const report_row& row, const report_row* baseline) {
  if (baseline == nullptr || !ran(row) || row.time->median_ms <= 0) return NAN;
  return baseline->time->median_ms / row.time->median_ms;
}

const char* verified_text(const report_row& row) {
  if (row.verified) return "yes";
  return ran(row) ? "NO" : "-";
}

std::string ms_text(double ms) {
  if (ms < 0.1) return fmt::format("{:.4f}", ms);
  if (ms < 10) return fmt::format("{:.3f}", ms);
  if (ms < 1000) return fmt::format("{:.2f}", ms);
  return fmt::format("{:.0f}", ms);
}
std::string rate_text(double per_s) {  // 1.23 G/s
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int unit = 0;
  while (per_s >= 1000 && unit < 5) {
    per_s /= 1000;
    ++unit;
  }
  return fmt::format("{:.2f} {}/s", per_s, units[unit]);
}
std::string or_dash(double value, const char* format_spec) {
  return std::isfinite(value) ? fmt::format(fmt::runtime(format_spec), value) : "-";
}

// Display width of UTF-8 text (the table uses "–" and "§"): count code points.
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}
std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  const std::string fill(width > w ? width - w : 0, ' ');
  return right ? fill + text : text + fill;
}

// CSV field: quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
std::string csv_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : ""; }

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}
std::string json_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "null"; }

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write the report to '" + path + "'");
  return out;
}

}  // namespace

report_layout report_layout::bandwidth(double copy_gbs) {
  report_layout layout;
  layout.rates.front().ceiling = copy_gbs;
  if (copy_gbs > 0) {
    layout.preamble.push_back(fmt::format("copy bandwidth: {:.1f} GB/s (device-to-device cudaMemcpy, read + write){}",
                                          copy_gbs, backend_is_cuda ? "" : ", emulated"));
  }
  return layout;
}

report::report(std::string title, report_layout layout) : title_(std::move(title)), layout_(std::move(layout)) {}

void report::add(report_row row) { rows_.push_back(std::move(row)); }

bool report::all_verified() const {
  for (const auto& row : rows_) {
    if (ran(row) && !row.verified) return false;
  }
  return true;
}

std::string report::to_text() const {
  const report_row* baseline = baseline_of(rows_);
  bool any_items = false;
  for (const auto& row : rows_) any_items = any_items || row.items > 0;

  struct column {
    std::string header;
    bool right;
    std::vector<std::string> cells;
  };
  std::vector<column> columns;
  columns.push_back({"stage", false, {}});
  columns.push_back({"median ms", true, {}});
  columns.push_back({"min–max ms", true, {}});
  for (const auto& rate : layout_.rates) {
    columns.push_back({rate.header, true, {}});
    if (!rate.ceiling_header.empty()) columns.push_back({rate.ceiling_header, true, {}});
  }
  if (baseline != nullptr) columns.push_back({"vs " + baseline->stage, true, {}});
  if (any_items) columns.push_back({"items/s", true, {}});
  columns.push_back({"verified", false, {}});
  columns.push_back({"note", false, {}});

  for (const auto& row : rows_) {
    std::size_t c = 0;
    columns[c++].cells.push_back(row.stage);
    columns[c++].cells.push_back(ran(row) ? ms_text(row.time->median_ms) : "-");
    columns[c++].cells.push_back(ran(row) ? ms_text(row.time->min_ms) + "–" + ms_text(row.time->max_ms) : "-");
    for (const auto& column : layout_.rates) {
      columns[c++].cells.push_back(or_dash(rate(row, column), "{:.1f}"));
      if (!column.ceiling_header.empty()) columns[c++].cells.push_back(or_dash(percent_of_ceiling(row, column), "{:.1f}%"));
    }
    if (baseline != nullptr) columns[c++].cells.push_back(or_dash(vs_baseline(row, baseline), "{:.2f}x"));
    if (any_items) {
      const double rate = items_per_s(row);
      columns[c++].cells.push_back(std::isfinite(rate) ? rate_text(rate) : "-");
    }
    columns[c++].cells.push_back(verified_text(row));
    columns[c++].cells.push_back(row.note);
  }

  std::vector<std::size_t> widths;
  for (const auto& col : columns) {
    std::size_t w = display_width(col.header);
    for (const auto& cell : col.cells) w = std::max(w, display_width(cell));
    widths.push_back(w);
  }
  auto line = [&](auto cell_of) {
    std::string text;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += "  ";
      const bool last = c + 1 == columns.size();
      std::string cell = cell_of(c);
      text += last ? cell : pad(cell, widths[c], columns[c].right);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text + "\n";
  };

  std::string out = "\n" + title_ + "\n";
  if (!backend_is_cuda) out += std::string("(") + emulated_note + ")\n";
  for (const auto& line : layout_.preamble) out += line + "\n";
  out += line([&](std::size_t c) { return columns[c].header; });
  std::size_t total = 0;
  for (std::size_t c = 0; c < widths.size(); ++c) total += widths[c] + (c > 0 ? 2 : 0);
  std::string rule;
  for (std::size_t i = 0; i < total; ++i) rule += "-";
  out += rule + "\n";
  for (std::size_t r = 0; r < rows_.size(); ++r) out += line([&](std::size_t c) { return columns[c].cells[r]; });
  return out;
}

void report::print() const {
  std::fputs(to_text().c_str(), stdout);
  std::fflush(stdout);
}

void report::write_csv(const std::string& path) const {
  const report_row* baseline = baseline_of(rows_);
  auto out = open_for_writing(path);
  out << "title,backend,stage,median_ms,min_ms,max_ms,reps," << layout_.work_field << ",items";
  for (const auto& column : layout_.rates) {
    out << ',' << column.field;
    if (!column.ceiling_header.empty()) out << ',' << column.ceiling_field << ',' << column.ceiling_value_field;
  }
  out << ",baseline,vs_baseline,items_per_s,verified,is_baseline,note\n";
  for (const auto& row : rows_) {
    out << csv_field(title_) << ',' << backend_name << ',' << csv_field(row.stage) << ','
        << (ran(row) ? csv_number(row.time->median_ms) : "") << ','
        << (ran(row) ? csv_number(row.time->min_ms) : "") << ','
        << (ran(row) ? csv_number(row.time->max_ms) : "") << ','
        << (ran(row) ? std::to_string(row.time->samples_ms.size()) : "") << ',' << csv_number(row.work) << ','
        << csv_number(row.items);
    for (const auto& column : layout_.rates) {
      out << ',' << csv_number(rate(row, column));
      if (!column.ceiling_header.empty()) {
        out << ',' << csv_number(percent_of_ceiling(row, column)) << ','
            << csv_number(column.ceiling > 0 ? column.ceiling : NAN);
      }
    }
    out << ',' << csv_field(baseline != nullptr ? baseline->stage : "") << ',' << csv_number(vs_baseline(row, baseline))
        << ',' << csv_number(items_per_s(row)) << ',' << verified_text(row) << ','
        << (row.is_baseline ? "yes" : "no") << ',' << csv_field(row.note) << '\n';
  }
  if (!out) throw std::runtime_error("writing the report to '" + path + "' failed");
}

void report::write_files(const std::string& csv_path, const std::string& json_path) const {
  if (!csv_path.empty()) write_csv(csv_path);
  if (!json_path.empty()) write_json(json_path);
}

void report::write_json(const std::string& path) const {
  const report_row* baseline = baseline_of(rows_);
  auto out = open_for_writing(path);
  out << "{\n";
  out << "  \"title\": " << json_string(title_) << ",\n";
  out << "  \"backend\": " << json_string(backend_name) << ",\n";
  out << "  \"timings_emulated\": " << (backend_is_cuda ? "false" : "true") << ",\n";
  for (const auto& column : layout_.rates) {
    if (column.ceiling_header.empty()) continue;
    out << "  " << json_string(column.ceiling_value_field) << ": "
        << json_number(column.ceiling > 0 ? column.ceiling : NAN) << ",\n";
  }
  out << "  \"baseline\": " << (baseline != nullptr ? json_string(baseline->stage) : "null") << ",\n";
  out << "  \"rows\": [";
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const auto& row = rows_[r];
    out << (r == 0 ? "\n" : ",\n") << "    {";
    out << "\"stage\": " << json_string(row.stage);
    out << ", \"ran\": " << (ran(row) ? "true" : "false");
    if (ran(row)) {
      out << ", \"median_ms\": " << json_number(row.time->median_ms);
      out << ", \"min_ms\": " << json_number(row.time->min_ms);
      out << ", \"max_ms\": " << json_number(row.time->max_ms);
      out << ", \"samples_ms\": [";
      for (std::size_t i = 0; i < row.time->samples_ms.size(); ++i) {
        out << (i == 0 ? "" : ", ") << json_number(row.time->samples_ms[i]);
      }
      out << "]";
    } else {
      out << ", \"median_ms\": null, \"min_ms\": null, \"max_ms\": null, \"samples_ms\": []";
    }
    out << ", " << json_string(layout_.work_field) << ": " << json_number(row.work);
    out << ", \"items\": " << json_number(row.items);
    for (const auto& column : layout_.rates) {
      out << ", " << json_string(column.field) << ": " << json_number(rate(row, column));
      if (!column.ceiling_header.empty()) {
        out << ", " << json_string(column.ceiling_field) << ": " << json_number(percent_of_ceiling(row, column));
      }
    }
    out << ", \"vs_baseline\": " << json_number(vs_baseline(row, baseline));
    out << ", \"items_per_s\": " << json_number(items_per_s(row));
    out << ", \"verified\": " << (row.verified ? "true" : ran(row) ? "false" : "null");
    out << ", \"is_baseline\": " << (row.is_baseline ? "true" : "false");
    out << ", \"note\": " << json_string(row.note);
    out << "}";
  }
  out << (rows_.empty() ? "]\n" : "\n  ]\n") << "}\n";
  if (!out) throw std::runtime_error("writing the report to '" + path + "' failed");
}

}  // namespace wb
