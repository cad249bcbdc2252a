// allreduce --sweep: every selected stage and NCCL at every message size from 8 B to
// --sweep-max per GPU, doubling; one line each, to the terminal and --csv (wb::sweep_table) and
// to --json. Then the chapter's goals: the ring against NCCL's bus bandwidth at 256 MiB and
// 1 GiB, direct peer access against NCCL's time at 64 KiB and below, and where NCCL overtakes it.
// Included by main.cpp.
#pragma once

#include "allreduce_chapter.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/sweep_table.hpp"

#include "wb/chapter.hpp"
#include "wb/device_buffer.hpp"
#include "wb/timing.hpp"

#include "allreduce.hpp"
#include "app.hpp"
#include "data.hpp"
#include "link.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "team.hpp"
#if defined(WB_HAVE_NCCL)
#include "baseline_nccl.hpp"
#endif

namespace allreduce {

struct sweep_row {
  std::string stage;
  std::uint64_t bytes = 0;
  std::optional<wb::timing> time;
  bool verified = false;
  std::string note;
};

// The sweep's vectors: small integers from the rank and the index, so every order of addition
// is exact and rank r's sum at i is known without the inputs.
inline std::int64_t sweep_value(int rank, std::int64_t i) {
  const std::uint64_t h = mix64(static_cast<std::uint64_t>(i) * 8 + static_cast<std::uint64_t>(rank));
  return static_cast<std::int64_t>(h % 2001) - 1000;
}

// 8 B, 64 KiB, 256 MiB, 1 GiB
inline std::string bytes_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return fmt::format("{} {}", bytes, units[u]);
}

template <class T>
int run_sweep(team& t, const options& opt) {
  const int G = t.size();
  const std::uint64_t largest = opt.sweep_max > 0 ? opt.sweep_max : wb::backend_is_cuda ? max_message_bytes : 1 << 16;
  const auto n_max = static_cast<std::int64_t>(largest / sizeof(T));
  std::vector<std::vector<T>> inputs(static_cast<std::size_t>(G), std::vector<T>(static_cast<std::size_t>(n_max)));
  std::vector<T> expected(static_cast<std::size_t>(n_max));
  for (std::int64_t i = 0; i < n_max; ++i) {
    std::int64_t sum = 0;
    for (int r = 0; r < G; ++r) {
      const std::int64_t v = sweep_value(r, i);
      inputs[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)] = static_cast<T>(v);
      sum += v;
    }
    expected[static_cast<std::size_t>(i)] = static_cast<T>(sum);
  }
  rank_vectors<T> data(t, inputs);
  inputs.clear();
  inputs.shrink_to_fit();
  const buffers<T> all = data.view();
  const link_rates link = measure_link(t);

  struct entry {
    std::string name;
    int stage;
    int variant;
  };
  std::vector<entry> entries;
  for (const wb::stage& s : stages) {
    if (s.number == 0 || s.number == 6 || !wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    if (s.number == 4) {
      entries.push_back({"4 one-shot", 4, 0});
      entries.push_back({"4 two-shot", 4, 1});
    } else {
      entries.push_back({wb::stage_label(s), s.number, 0});
    }
  }
#if defined(WB_HAVE_NCCL)
  if (t.nccl_unavailable().empty()) entries.push_back({"ncclAllReduce", 9, 0});
#endif
  const wb::track track = wb::track_named(opt.common.track);
  std::vector<sweep_row> rows;
  const double factor = G > 1 ? 2.0 * (G - 1) / G : 1.0;  // bus bandwidth over algorithm bandwidth
  // The terminal's line and --csv's row of each (stage, size), as they come.
  wb::sweep_table table({{"stage", -18}, {"bytes/GPU", 12}, {"median us", 12}, {"alg GB/s", 10}, {"bus GB/s", 10},
                         {"verified", 9}, {"note", -4}},
                        opt.common.csv,
                        {"stage", "ranks", "gpus", "type", "bytes", "elements", "median_us", "min_us", "max_us",
                         "alg_gb_per_s", "bus_gb_per_s", "verified", "link_one_way_gb_per_s",
                         "link_each_way_gb_per_s", "note"});
  table.print_header();
  for (std::uint64_t bytes = 8; bytes <= largest; bytes *= 2) {
    const auto n = static_cast<std::int64_t>(bytes / sizeof(T));
    if (n == 0) continue;
    buffers<T> b = all;
    b.n = n;
    const config cfg = resolve(opt.cfg, n, sizeof(T), G);  // the ring's pieces follow the size
    for (const entry& e : entries) {
      sweep_row row{e.name, bytes, std::nullopt, false, ""};
      if (e.stage == 5 && !t.nccl_unavailable().empty()) continue;
      const auto call = [&] {
        t.fork();
        if (e.stage == 9) {
#if defined(WB_HAVE_NCCL)
          baseline::nccl_allreduce(t, b);
#endif
        } else {
          WB_WITH_TRACK(allreduce, track, {
            switch (e.stage) {
              case 1: tr::allreduce_through_host(t, b); break;
              case 2: tr::allreduce_reduce_broadcast(t, b); break;
              case 3: tr::allreduce_ring(t, b, cfg); break;
              case 4:
                if (e.variant == 0) tr::allreduce_one_shot(t, b, cfg);
                else tr::allreduce_two_shot(t, b, cfg);
                break;
              default: tr::allreduce_nccl(t, b);
            }
          });
        }
        t.join();
      };
      try {
        data.poison();
        call();
        row.verified = true;
        for (const int r : {0, G - 1}) {
          const std::vector<T> out = data.output(r, n);
          row.verified = row.verified && std::equal(out.begin(), out.end(), expected.begin());
        }
        wb::timing_options options;
        options.flush_l2 = false;
        options.reps = wb::backend_is_cuda ? (bytes <= (std::uint64_t{64} << 20) ? 30 : 8) : 1;
        options.warmup = wb::backend_is_cuda ? (bytes <= (std::uint64_t{64} << 20) ? 5 : 2) : 0;
        if (opt.common.reps_given) options.reps = opt.common.reps;
        row.time = wb::time_gpu(call, options);
      } catch (const std::exception& ex) {
        row.note = ex.what();
      }
      const double us = row.time ? row.time->median_ms * 1e3 : 0;
      const double alg = row.time && row.time->median_ms > 0 ? static_cast<double>(bytes) / (row.time->median_ms * 1e6) : 0;
      table.print_row({row.stage, std::to_string(bytes), fmt::format("{:.2f}", us), fmt::format("{:.2f}", alg),
                       fmt::format("{:.2f}", alg * factor), row.time ? (row.verified ? "yes" : "NO") : "-", row.note});
      table.csv_row({row.stage, std::to_string(G), std::to_string(t.devices()), opt.type, std::to_string(bytes),
                     std::to_string(bytes / sizeof(T)), fmt::format("{}", us),
                     fmt::format("{}", row.time ? row.time->min_ms * 1e3 : 0),
                     fmt::format("{}", row.time ? row.time->max_ms * 1e3 : 0), fmt::format("{}", alg),
                     fmt::format("{}", alg * factor), row.time ? (row.verified ? "yes" : "no") : "",
                     fmt::format("{}", link.one_way_gbs), fmt::format("{}", link.each_way_gbs), row.note});
      std::fflush(stdout);
      rows.push_back(std::move(row));
    }
  }

  // --json: one line per (stage, size).
  if (!opt.common.json.empty()) {
    std::ofstream json(opt.common.json);
    json << "{\"ranks\": " << G << ", \"gpus\": " << t.devices() << ", \"type\": \"" << opt.type << "\", \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const sweep_row& r = rows[i];
      const double ms = r.time ? r.time->median_ms : 0;
      json << fmt::format("  {{\"stage\": \"{}\", \"bytes\": {}, \"median_us\": {}, \"bus_gb_per_s\": {}, \"verified\": {}}}{}\n",
                          r.stage, r.bytes, ms * 1e3, ms > 0 ? static_cast<double>(r.bytes) / (ms * 1e6) * factor : 0,
                          r.verified ? "true" : "false", i + 1 < rows.size() ? "," : "");
    }
    json << "]}\n";
  }

  // The goals, measured in this run.
  std::map<std::pair<std::string, std::uint64_t>, double> ms;
  for (const sweep_row& r : rows) {
    if (r.time && r.verified) ms[{r.stage, r.bytes}] = r.time->median_ms;
  }
  const auto at = [&](const std::string& stage, std::uint64_t bytes) -> std::optional<double> {
    const auto it = ms.find({stage, bytes});
    return it == ms.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::printf("\n%s\n", t.description().c_str());
  if (link.one_way_gbs > 0) {
    std::printf("link (peer copies, ranks 0 and 1): %.0f GB/s one way, %.0f GB/s each way both at once\n", link.one_way_gbs,
                link.each_way_gbs);
  }
  for (const std::uint64_t bytes : {std::uint64_t{256} << 20, std::uint64_t{1} << 30}) {
    const auto ring = at("3 ring", bytes), nccl = at("ncclAllReduce", bytes);
    if (ring && nccl) {
      std::printf("goal, ring at %s: %.2fx NCCL's bus bandwidth (goal 0.90x)\n", bytes_text(bytes).c_str(), *nccl / *ring);
    }
  }
  // Where NCCL overtakes the better of the two direct kernels: the last size where they were
  // faster, and the next.
  std::optional<std::uint64_t> last_faster, first_slower;
  double worst = 1e30;
  for (std::uint64_t bytes = 8; bytes <= largest; bytes *= 2) {
    const auto one = at("4 one-shot", bytes), two = at("4 two-shot", bytes), nccl = at("ncclAllReduce", bytes);
    if (!nccl || (!one && !two)) continue;
    const double direct = std::min(one.value_or(1e30), two.value_or(1e30));
    if (bytes <= (std::uint64_t{64} << 10)) worst = std::min(worst, *nccl / direct);
    if (direct <= *nccl && !first_slower) last_faster = bytes;
    if (direct > *nccl && !first_slower) first_slower = bytes;
  }
  if (worst < 1e30) std::printf("goal, direct peer access at 64 KiB and below: at least %.2fx faster than NCCL (goal 1.5x)\n", worst);
  if (last_faster && first_slower) {
    std::printf("crossover: direct peer access is faster up to %s per GPU, NCCL from %s\n", bytes_text(*last_faster).c_str(),
                bytes_text(*first_slower).c_str());
  } else if (first_slower) {
    std::printf("crossover: NCCL is faster from the smallest size (%s per GPU)\n", bytes_text(*first_slower).c_str());
  } else if (last_faster) {
    std::printf("crossover: direct peer access is faster at every size up to %s per GPU\n", bytes_text(*last_faster).c_str());
  }
  bool all_right = true;
  for (const sweep_row& r : rows) all_right = all_right && (!r.time || r.verified);
  return all_right ? 0 : 1;
}

}  // namespace allreduce
