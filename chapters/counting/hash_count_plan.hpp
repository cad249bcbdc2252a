// Stage 7's plan (hash_plan, counting.hpp; each track's plan_hash_count, track_interface.inl): the
// names of its paths and the note the stage leaves about its choice.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "counting.hpp"
#include "hash_sample.hpp"

namespace counting {

inline const char* path_name(hash_path p) {
  switch (p) {
    case hash_path::shared_tables: return "shared tables";
    case hash_path::two_level: return "two-level";
    case hash_path::sort: return "sort";
    case hash_path::global_table: return "global table";
    default: return "automatic";
  }
}

// The plan's numbers before its choice: the distinct keys (the configuration's number, else the
// sample's estimate; no sample: n, nothing to count or a forced sort) and the keys the tables
// are planned for (a margin above, at most n).
inline hash_plan plan_sizes(std::int64_t n, const sample_summary& s, const hash_count_config& cfg) {
  hash_plan p;
  const bool sampled = s.samples > 0;
  const bool told = cfg.expected_distinct > 0;
  p.distinct = told ? static_cast<double>(cfg.expected_distinct)
               : sampled ? sample::estimate(n, s)
                         : static_cast<double>(n);
  p.basis = n == 0 || cfg.path == hash_path::sort ? "" : told ? "told" : sampled ? "est." : "";
  p.planned = std::min(p.distinct * sample::plan_margin(s), static_cast<double>(n));
  return p;
}

// One row of a decision table: where `when` holds (and no row above it did), `path`.
struct plan_row {
  bool when;
  hash_path path;
  const char* rule;
};

// The first row that holds chooses the path (a table ends with a row that always holds).
template <std::size_t N>
void choose_path(hash_plan& p, const plan_row (&table)[N], const hash_count_config& cfg) {
  for (const plan_row& r : table) {
    if (!r.when) continue;
    p.path = r.path;
    p.rule = r.rule;
    break;
  }
  p.forced = cfg.path != hash_path::automatic;
}

// 1023, or 2^17.2 from 10^4 on.
inline std::string short_number(double x) {
  char buf[32];
  if (x < 10000)
    std::snprintf(buf, sizeof buf, "%.0f", x);
  else
    std::snprintf(buf, sizeof buf, "2^%.1f", std::log2(x));
  return buf;
}

// The stage's note (set_stage_note): how the path was chosen, from what estimate, and what the
// path did ("auto: est. 2^17.2 distinct -> two-level, 1024 buckets"; "... full -> sort").
inline std::string plan_note(const hash_plan& p, const std::string& what) {
  std::string note = p.forced ? "forced: " : "auto: ";
  if (*p.basis != '\0') note += std::string(p.basis) + " " + short_number(p.distinct) + " distinct -> ";
  return note + what;
}

}  // namespace counting
