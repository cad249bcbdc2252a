// wb profile merge/3: Nsight Compute's counters of the learner's stage beside the solution's
// (common/scripts/profile.sh on both tracks, cuda backend with ncu only).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "build.hpp"
#include "command_line.hpp"
#include "process.hpp"
#include "verbs.hpp"

namespace wbtool {
namespace {

namespace fs = std::filesystem;

constexpr const char* profiling_needs = "profiling needs an NVIDIA GPU and Nsight Compute (ncu)";

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path != nullptr ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const fs::path candidate = fs::path(folder.empty() ? "." : folder) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

// The fields of one CSV record as Python's csv module writes them ("a,""b"",c" quoting).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// The rows of a <chapter>-profile.csv (common/scripts/profile_table.py), column name -> text.
std::vector<std::map<std::string, std::string>> read_profile_csv(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("the profile wrote no table {}", file.string()));
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  std::getline(in, line);
  const auto header = csv_fields(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto fields = csv_fields(line);
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < header.size() && c < fields.size(); ++c) row[header[c]] = fields[c];
    rows.push_back(std::move(row));
  }
  return rows;
}

// A number of the table with `digits` decimals, or "-" where ncu gave none.
std::string cell(const std::map<std::string, std::string>& row, const char* column, int digits) {
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return "-";
  char* end = nullptr;
  const double value = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str()) return it->second;
  return fmt::format("{:.{}f}", value, digits);
}

std::string top_stall(const std::map<std::string, std::string>& row) {
  const auto get = [&](const char* c) { return row.count(c) > 0 ? row.at(c) : std::string(); };
  std::string reason = get("top_stall");
  if (reason.empty()) return "-";
  std::replace(reason.begin(), reason.end(), '_', ' ');
  const double top = std::atof(get("top_stall_cycles_per_issue").c_str());
  const double all = std::atof(get("all_stall_cycles_per_issue").c_str());
  return all > 0 ? fmt::format("{} ({:.0f}%)", reason, 100 * top / all) : reason;
}

}  // namespace

int cmd_profile(const std::string& text, bool build_first) {
  const stage_ref s = find_stage(text);
  if (std::string(backend) != "cuda") {
    throw usage_error(fmt::format("{}: this build runs the {} backend, whose kernels run on the CPU emulator and have "
                                  "no hardware counters (on a machine with a GPU: cmake --preset cuda, then wb profile "
                                  "from that build)",
                                  profiling_needs, backend));
  }
  if (!on_path("ncu")) {
    throw usage_error(fmt::format("{}: ncu is not on PATH (it comes with the CUDA toolkit: add its bin folder, e.g. "
                                  "/usr/local/cuda/bin, to PATH)",
                                  profiling_needs));
  }
  if (build_first && !build({s.chapter->name})) return 1;
  const std::string number = std::to_string(s.stage->number);
  const fs::path out = fs::path(build_dir) / "profile" / fmt::format("{}-stage{}", s.chapter->name, number);
  const std::string script = (fs::path(source_dir) / "common" / "scripts" / "profile.sh").string();
  const auto table = [&](const char* track) {
    return out / track / fmt::format("{}-profile.csv", s.chapter->name);
  };
  // Your track, then the solution's: the same stage, the same size, the same counters. A run
  // that failed (a wrong output, say) may still have been profiled: its rows are shown.
  bool all_ran = true;
  for (const char* track : {"exercise", "solution"}) {
    std::printf("%s, %s track, under Nsight Compute:\n", s.id().c_str(), track);
    std::error_code ec;
    fs::remove(table(track), ec);  // no stale table from an earlier profile
    const int status = run_inherited({"bash", script, "--build", build_dir, "--out", (out / track).string(),
                                      "--chapters", s.chapter->name, "--stages", number, "--track", track});
    if (status == 2) throw usage_error(fmt::format("{} (the profile script says why, above)", profiling_needs));
    if (status != 0) {
      all_ran = false;
      std::printf("the %s track's run failed under the profiler (exit status %d; a wrong output exits 1): its log "
                  "is in %s\n",
                  track, status, (out / track / "raw").c_str());
      if (!fs::exists(table(track))) return 1;
    }
  }
  const auto yours = read_profile_csv(table("exercise"));
  const auto theirs = read_profile_csv(table("solution"));
  std::printf("\n%s  %s  (%s): your kernels beside the solution's\n", s.id().c_str(), s.stage->title,
              s.stage->section);
  std::printf("(one run of the stage each; ncu locks clocks to base, so times are slower than the timed report)\n\n");
  std::printf("%-9s %12s %9s %7s %7s %7s %10s %7s %8s %7s  %-24s %s\n", "track", "grid x block", "time us", "DRAM %",
              "GB/s", "L2 hit%", "conflicts", "occup%", "thr/warp", "issue%", "top stall", "kernel");
  const auto print_rows = [&](const char* who, const std::vector<std::map<std::string, std::string>>& rows) {
    if (rows.empty()) std::printf("%-9s (no rows)\n", who);
    for (const auto& row : rows) {
      const auto get = [&](const char* c) { return row.count(c) > 0 ? row.at(c) : std::string(); };
      if (get("launches").empty() || get("launches") == "0") {
        std::printf("%-9s %s\n", who, get("kernel").empty() ? "no kernel launched" : get("kernel").c_str());
        continue;
      }
      std::printf("%-9s %12s %9s %7s %7s %7s %10s %7s %8s %7s  %-24s %s\n", who,
                  fmt::format("{} x {}", get("grid"), get("block")).c_str(), cell(row, "time_us", 1).c_str(),
                  cell(row, "dram_pct_of_peak", 1).c_str(), cell(row, "dram_gb_per_s", 0).c_str(),
                  cell(row, "l2_hit_pct", 1).c_str(), cell(row, "bank_conflicts_per_shared_request", 2).c_str(),
                  cell(row, "achieved_occupancy_pct", 1).c_str(), cell(row, "active_threads_per_warp", 1).c_str(),
                  cell(row, "issue_slots_busy_pct", 1).c_str(), top_stall(row).c_str(), get("kernel").c_str());
    }
  };
  print_rows("yours", yours);
  print_rows("solution", theirs);
  std::printf("\nwhat each column means: common/README.md, \"Profile view\"\n");
  std::printf("the full tables:  %s\n                  %s\n",
              (out / "exercise" / fmt::format("{}-profile.md", s.chapter->name)).c_str(),
              (out / "solution" / fmt::format("{}-profile.md", s.chapter->name)).c_str());
  std::printf("ncu's reports (open them in ncu-ui): %s/*/raw/\n", out.c_str());
  return all_ran ? 0 : 1;
}

}  // namespace wbtool
