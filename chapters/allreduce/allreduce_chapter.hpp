// The allreduce chapter's traits for the driver (wb/chapter.hpp): one all-reduce of a vector per GPU. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/chapter_app.hpp"
#include "wb/multi_gpu.hpp"

#include "allreduce.hpp"
#include "data.hpp"
#include "link.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "team.hpp"
#if defined(WB_HAVE_NCCL)
#include "baseline_nccl.hpp"
#endif

namespace allreduce {

template <class T>
class allreduce_chapter {
 public:
  using output = std::vector<std::vector<T>>;  // every rank's result

  allreduce_chapter(team& t, const options& opt, std::vector<std::vector<T>> inputs, std::string source)
      : team_(t), opt_(opt), inputs_(std::move(inputs)), source_(std::move(source)), data_(t, inputs_) {
    expected_ = solution::allreduce_sequential<T>(std::span<const std::vector<T>>(inputs_));
    link_ = measure_link(t);
  }

  std::string title() const {
    return fmt::format("all-reduce of {} {} per GPU ({} bytes) on {} ({})", n(), opt_.type, n() * sizeof(T),
                       team_.description(), source_);
  }
  wb::report_layout layout() const {
    const int G = team_.size();
    wb::report_layout layout;
    layout.rates = {{"alg GB/s", "alg_gb_per_s", 1e9, 1, 0, ""},
                    {"bus GB/s", "bus_gb_per_s", 1e9, G > 1 ? 2.0 * (G - 1) / G : 1.0, link_.each_way_gbs,
                     "% of link", "pct_of_link", "link_gb_per_s"}};
    if (link_.one_way_gbs > 0) {
      layout.preamble.push_back(fmt::format("link between the GPUs of ranks 0 and 1 (peer copies): {:.0f} GB/s one way, "
                                            "{:.0f} GB/s each way both at once", link_.one_way_gbs, link_.each_way_gbs));
    }
    if (const std::string why = team_.nccl_unavailable(); !why.empty()) layout.preamble.push_back("NCCL: " + why);
    if (!wb::backend_is_cuda) layout.preamble.push_back(wb::emulated_devices_note());
    return layout;
  }

  std::vector<std::string> variants(const wb::stage& s) const {
    if (s.number == 4) return {" one-shot", " two-shot"};
    return {""};
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t variant) {
    wb::stage_job<output> job;
    job.work = static_cast<double>(n()) * sizeof(T);
    job.items = static_cast<double>(n());
    if (s.number == 0) {
      auto sum = std::make_shared<std::vector<T>>();
      job.run = [this, t, sum] {
        *sum = WB_WITH_TRACK(allreduce, t, { return tr::allreduce_sequential<T>(std::span<const std::vector<T>>(inputs_)); });
      };
      job.output = [sum] { return output{*sum}; };
      job.on_host = true;
      job.note = "on the host";
      return job;
    }
    if (s.number == 6) {
      throw wb::stage_refused("an application with data of its own: allreduce --app histogram (or distinct)");
    }
    if (s.number == 5 && !team_.nccl_unavailable().empty()) throw wb::stage_refused(team_.nccl_unavailable());
    const buffers<T> b = data_.view();
    const config cfg = resolve(opt_.cfg, n(), sizeof(T), team_.size());
    job.prepare = [this] { data_.poison(); };
    job.run = [this, t, b, cfg, number = s.number, variant] {
      team_.fork();
      WB_WITH_TRACK(allreduce, t, {
        switch (number) {
          case 1: tr::allreduce_through_host(team_, b); break;
          case 2: tr::allreduce_reduce_broadcast(team_, b); break;
          case 3: tr::allreduce_ring(team_, b, cfg); break;
          case 4:
            if (variant == 0) tr::allreduce_one_shot(team_, b, cfg);
            else tr::allreduce_two_shot(team_, b, cfg);
            break;
          default: tr::allreduce_nccl(team_, b);
        }
      });
      team_.join();
    };
    job.output = [this] { return data_.outputs(); };
    job.flush_l2 = false;  // several GPUs' caches: none flushed, as nccl-tests does
    if (s.number == 3 || s.number == 5) job.check = [this](const output& out) { return check(out, true); };
    if (s.number == 1) job.note = "host adds";
    if (team_.shares_devices()) job.note += job.note.empty() ? "logical devices" : "; logical devices";
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_NCCL)
    if (!team_.nccl_unavailable().empty()) return rows;
    wb::stage_job<output> nccl;
    nccl.name = "ncclAllReduce";
    nccl.is_baseline = true;
    nccl.work = static_cast<double>(n()) * sizeof(T);
    nccl.items = static_cast<double>(n());
    nccl.prepare = [this] { data_.poison(); };
    nccl.run = [this, b = data_.view()] {
      team_.fork();
      baseline::nccl_allreduce(team_, b);
      team_.join();
    };
    nccl.output = [this] { return data_.outputs(); };
    nccl.check = [this](const output& out) { return check(out, true); };
    nccl.flush_l2 = false;
    if (!wb::backend_is_cuda) nccl.note = "the emulator's NCCL";
    rows.push_back(std::move(nccl));
#endif
    return rows;
  }

  // Every rank holds the same bits, and they are the specification's: bit for bit for the
  // stages that add in rank order, within the order tolerance for the ring and NCCL.
  std::string check(const output& out, bool any_order = false) const {
    if (const std::string d = ranks_disagree(out); !d.empty()) return "the ranks disagree: " + d;
    if (out.empty()) return "no output";
    if (any_order && tolerance_.empty()) tolerance_ = order_tolerance<T>(std::span<const std::vector<T>>(inputs_));
    return mismatch(expected_, out[0], any_order ? tolerance_ : std::vector<double>{});
  }
  std::string show(const output& out) const {
    if (const std::string d = ranks_disagree(out); !d.empty()) return "the ranks disagree: " + d;
    return out.empty() ? "" : fmt::format("{}", fmt::join(out[0], " "));
  }
  std::string difference(const output& solution, const output& exercise) const {
    for (std::size_t r = 0; r < std::min(solution.size(), exercise.size()); ++r) {
      if (const std::string m = mismatch(solution[r], exercise[r]); !m.empty()) return fmt::format("rank {}: {}", r, m);
    }
    return solution.size() == exercise.size() ? "" : "a different number of ranks";
  }

  std::int64_t n() const { return inputs_.empty() ? 0 : static_cast<std::int64_t>(inputs_[0].size()); }

 private:
  team& team_;
  const options& opt_;
  std::vector<std::vector<T>> inputs_;
  std::string source_;
  rank_vectors<T> data_;
  std::vector<T> expected_;
  mutable std::vector<double> tolerance_;
  link_rates link_;
};

}  // namespace allreduce
