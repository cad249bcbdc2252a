// Stage 7's knobs on the command line: the path, and what its plan would otherwise decide (for
// measurements and the README's sweeps). The defaults leave every decision to the plan.
#pragma once

#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "counting.hpp"

namespace counting {

// Stage 7's paths as the command line names them (--path, and the rows of --tune).
inline constexpr std::pair<hash_path, const char*> path_labels[] = {
    {hash_path::automatic, "auto"},      {hash_path::shared_tables, "shared-tables"},
    {hash_path::two_level, "two-level"}, {hash_path::sort, "sort"},
    {hash_path::global_table, "global-table"}};

inline const char* path_label(hash_path p) {
  for (const auto& [path, label] : path_labels)
    if (path == p) return label;
  return "auto";
}

struct stage7_options {
  std::string path = "auto";
  hash_count_config hash;  // the path and the two below are set by resolved()
  bool no_key_ranges = false;
  bool no_hot_keys = false;

  hash_count_config resolved() const {
    hash_count_config h = hash;
    for (const auto& [p, name] : path_labels)
      if (path == name) h.path = p;  // (CLI11 has checked the label)
    h.key_ranges = !no_key_ranges;
    h.hot_keys = !no_hot_keys;
    return h;
  }
};

inline void add_stage7_options(CLI::App& app, stage7_options& o) {
  const char* group = "Stage 7 (int64 keys: hash tables or a sort)";
  app.add_option("--path", o.path,
                 "stage 7's path: auto (the plan chooses from a sample), shared-tables, two-level, sort, global-table")
      ->check(CLI::IsMember({"auto", "shared-tables", "two-level", "sort", "global-table"}))
      ->capture_default_str()
      ->group(group);
  app.add_option("--aggregate", o.hash.aggregate,
                 "how a warp's lanes with one key add: 0 each its own, 1 once for all (64-bit match), 2 once for all "
                 "(32-bit match); default: 0 in shared memory, 1 in the global table")
      ->check(CLI::Range(0, 2))
      ->group(group);
  app.add_option("--partition-bits", o.hash.partition_bits, "forced shared tables: 2^B partitions (0-3)")
      ->check(CLI::Range(0, 3))
      ->group(group);
  app.add_option("--bucket-bits", o.hash.bucket_bits, "two-level: 2^B buckets (0-12) instead of the planned number")
      ->check(CLI::Range(0, 12))
      ->group(group);
  app.add_flag("--no-key-ranges", o.no_key_ranges, "two-level: buckets by hash, never by key range")->group(group);
  app.add_flag("--no-hot-keys", o.no_hot_keys, "two-level: no hot keys counted in the scatter; sort: none counted aside")
      ->group(group);
  app.add_option("--aside-share", o.hash.aside_share,
                 "sort: count the hot keys aside where the sample's repeated keys hold at least this share of its items "
                 "(0-1; default: the plan's)")
      ->check(CLI::Range(0.0, 1.0))
      ->group(group);
  app.add_flag("--small-shared-tables", o.hash.small_shared_tables,
               "shared tables of 8192 slots and 512 threads (two blocks an SM) instead of 16384 and 1024")
      ->group(group);
  app.add_flag("--phases", o.hash.phases, "print the time of each of stage 7's steps (CUDA events) on stderr")
      ->group(group);
}

}  // namespace counting
