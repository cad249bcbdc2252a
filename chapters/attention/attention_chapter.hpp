// The attention chapter's traits for the driver (wb/chapter.hpp), and the run of its two
// tables: the prefill stages 0-5 (TFLOP/s; stages 4 and 5 on K and V rounded to bf16) and the
// decoding stage 6 (GB/s of K and V read, beside the device's copy bandwidth), one row per K/V type.
//
// Everything the executable does besides parsing its command line lives here, so that
// main.cpp is the options and one call: run(opt, input, selection).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "wb/bandwidth.hpp"
#include "wb/chapter.hpp"
#include "wb/device_buffer.hpp"
#include "wb/workspace.hpp"

#include "attention.hpp"
#include "launch_shapes.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "stages.hpp"

namespace attention {

// The poison O is filled with before a stage runs: 0x7F7F7F7F is 3.39e38, finite and far from
// every output, so an output nobody wrote fails the check (a NaN poison would pass where O
// should be NaN).
inline constexpr unsigned char output_poison = 0x7F;

// "512 KiB", "4.00 GiB": a size for a note.
inline std::string bytes_text(double bytes) {
  if (bytes < 0x1p20) return fmt::format("{:.0f} KiB", bytes / 0x1p10);
  if (bytes < 0x1p30) return fmt::format("{:.1f} MiB", bytes / 0x1p20);
  return fmt::format("{:.2f} GiB", bytes / 0x1p30);
}

// The parts both tables share: the problem on the host and the device, O, the checks.
class chapter_base {
 public:
  using output = std::vector<float>;

  chapter_base(const options& opt, const problem_input& in) : opt_(opt), in_(in), d_(in.d) {}

  std::string check(const output& O) const { return reference_ ? reference_->check(O) : "no reference"; }
  std::string show(const output& O) const { return fmt::format("{:.9g}", fmt::join(O, " ")); }
  // The first element where the two differ. Two right answers may differ in their last bits
  // (sums in another order): whether each is within the bound is its row's "verified".
  std::string difference(const output& solution, const output& exercise) const {
    if (solution.size() != exercise.size()) return "O has another size";
    for (std::size_t e = 0; e < solution.size(); ++e) {
      if (solution[e] == exercise[e] || (solution[e] != solution[e] && exercise[e] != exercise[e])) continue;
      const auto row = static_cast<std::int64_t>(e) / d_.dim;
      return fmt::format("at O row {} (query {}), column {}: solution {:.9g}, exercise {:.9g}", row, row % d_.seq,
                         static_cast<std::int64_t>(e) % d_.dim, solution[e], exercise[e]);
    }
    return "";
  }
  std::vector<wb::stage_job<output>> library() { return {}; }  // bench/attention/baseline.py: PyTorch's

 protected:
  std::string problem_text() const {
    return fmt::format("batch {}, heads {}, seq {}, kv_seq {}, d {}{}, {}, {}", d_.batch, d_.heads, d_.seq, d_.kv_seq,
                       d_.dim, d_.causal ? ", causal (bottom-right)" : "", in_.source,
                       opt_.common.compare ? "exercise and solution tracks" : opt_.common.track + " track");
  }
  const options& opt_;
  const problem_input& in_;
  dims d_;
  std::unique_ptr<reference> reference_;
  wb::device_buffer<float> d_O_;
};

// Stages 0-3: fp32 Q, K, V; stages 4 and 5: fp32 Q, K and V rounded to bf16 (the tensor cores'
// inputs: the rounded values are their problem, for their reference too); TFLOP/s.
class prefill_chapter : public chapter_base {
 public:
  prefill_chapter(const options& opt, const problem_input& in) : chapter_base(opt, in) {
    d_Q_ = wb::device_buffer<float>(in.Q);
    d_O_ = wb::device_buffer<float>(in.Q.size());
    if (opt.type == "bf16") return;  // only stage 4 runs: its K and V are made when it does
    d_K_ = wb::device_buffer<float>(in.K);
    d_V_ = wb::device_buffer<float>(in.V);
    reference_ = std::make_unique<reference>(d_, in.Q, in.K, in.V);
  }

  std::string title() const {
    const char* types = opt_.type == "bf16"   ? "bf16 K and V"
                        : opt_.type == "fp32" ? "fp32"
                                              : "fp32; stages 4-5 bf16 K and V";
    return std::string("attention, prefill (") + types + "): " + problem_text();
  }
  // The tensor-core stages' rows say their K/V type, as stage 6's rows do.
  std::vector<std::string> variants(const wb::stage& s) const {
    return {s.number == 4 || s.number == 5 ? " bf16" : ""};
  }
  wb::report_layout layout() const {
    wb::report_layout layout;
    layout.work_field = "flops";
    layout.rates = {{"TFLOP/s", "tflop_per_s", 1e12, 1, opt_.peak_fp32, "% of peak", "pct_of_peak",
                     "peak_tflop_per_s"}};
    layout.preamble = {fmt::format("peak: {:g} TFLOP/s (fp32 without tensor cores, H100/H200 SXM; --peak-fp32 "
                                   "sets another GPU's); FLOPs = 4 d per (query, key) pair a query sees",
                                   opt_.peak_fp32)};
    if (reference_) layout.preamble.push_back(reference_->describe());
    if (opt_.type != "fp32") {
      layout.preamble.push_back("stages 4-5: K and V rounded to bf16 (their problem, and their reference's), Q rounded "
                                "to bf16 in the kernel, P to bf16 for P V: their own bound (error_bound.hpp); their % "
                                "of peak is of the fp32 peak: against the tensor cores' 989 TFLOP/s (dense bf16), "
                                "divide the TFLOP/s by 9.89");
    }
    return layout;
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t /*variant*/) {
    if (s.number == 4 || s.number == 5) return tensor_core_job(s.number, t);
    if (opt_.type == "bf16") {
      throw wb::stage_refused(fmt::format("stage {} takes fp32 K and V (--type bf16 is for stages 4, 5 and 6)", s.number));
    }
    wb::stage_job<output> job;
    job.work = attention_flops(d_);
    job.long_stage = {5.0, 2.0, 0.2};  // stage 1 at large sizes takes a while: fewer runs
    if (s.number == 0) {
      const double pairs_d = attention_flops(d_) / 4;
      if (pairs_d > 0x1p30) {
        throw wb::stage_refused(fmt::format(
            "the specification runs on the host, in double, up to 2^30 multiply-adds per pass ({:.3g} here)", pairs_d));
      }
      auto O = std::make_shared<std::vector<float>>(in_.Q.size());
      job.on_host = true;
      job.note = "host CPU, double";
      job.prepare = [O] { std::memset(O->data(), output_poison, O->size() * sizeof(float)); };
      job.run = [this, t, O] {
        WB_WITH_TRACK(attention, t, { tr::attention_sequential({in_.Q.data(), in_.K.data(), in_.V.data(), O->data(), d_}); });
      };
      job.output = [O] { return *O; };
      return job;
    }
    const problem<float> p{d_Q_.data(), d_K_.data(), d_V_.data(), d_O_.data(), d_};
    if (s.number == 1) {
      const std::size_t bytes = scores_workspace_bytes(d_);
      if (scores_.size() < bytes) {
        scores_ = {};  // the old one is freed before the new one is asked for
        std::size_t free = 0, total = 0;
        WB_CHECK(cudaMemGetInfo(&free, &total));
        if (bytes + (std::size_t{256} << 20) > free) {
          throw wb::stage_refused(fmt::format("S needs {} (b h seq kv_seq x 4 bytes), the device has {} free",
                                              bytes_text(static_cast<double>(bytes)), bytes_text(static_cast<double>(free))));
        }
        scores_ = wb::device_buffer<unsigned char>(bytes);
      }
      job.note = "S in memory: " + bytes_text(static_cast<double>(bytes));
    }
    job.prepare = [this] { d_O_.fill_bytes(output_poison); };
    job.run = [this, t, p, number = s.number] {
      WB_WITH_TRACK(attention, t, {
        switch (number) {
          case 1: tr::attention_three_kernels(p, {scores_.data(), scores_.size()}); break;
          case 2: tr::attention_online(p); break;
          default: tr::attention_tiled(p); break;
        }
      });
    };
    job.output = [this] { return d_O_.to_host(); };
    return job;
  }

  // Stages 4 and 5: K and V rounded to bf16 once, on the first call; their reference on the
  // rounded values.
  wb::stage_job<output> tensor_core_job(int number, wb::track t) {
    if (opt_.type == "fp32") {
      throw wb::stage_refused(fmt::format(
          "stage {} takes bf16 K and V, the tensor cores' inputs (--type fp32 is for stages 0-3 and 6)", number));
    }
    if (number == 4 && !tensor_core_shape::takes_dim(d_.dim)) {
      throw std::invalid_argument(fmt::format("stage 4 takes d of 16, 32, 64 or 128 (d = {})", d_.dim));
    }
    if (number == 5 && d_.dim != 64 && d_.dim != 128) {
      throw std::invalid_argument(fmt::format("stage 5 takes d of 64 or 128 (d = {})", d_.dim));
    }
#if !defined(WB_BACKEND_CUDA)
    if (number == 5) throw wb::stage_refused("stage 5 needs an sm_90 GPU: the cpu backend emulates no TMA or wgmma");
#endif
    if (!reference16_) {
      std::vector<bf16> K(in_.K.size()), V(in_.V.size());
      std::vector<float> K_rounded(in_.K.size()), V_rounded(in_.V.size());
      for (std::size_t e = 0; e < K.size(); ++e) {
        K[e] = wb::to_bf16(in_.K[e]);
        V[e] = wb::to_bf16(in_.V[e]);
        K_rounded[e] = wb::to_float(K[e]);
        V_rounded[e] = wb::to_float(V[e]);
      }
      d_K16_ = wb::device_buffer<bf16>(K);
      d_V16_ = wb::device_buffer<bf16>(V);
      reference16_ = std::make_unique<reference>(d_, in_.Q, K_rounded, V_rounded, true);
    }
    wb::stage_job<output> job;
    job.work = attention_flops(d_);
    job.note = number == 4 ? "bf16 tensor cores (mma.sync)" : "bf16 tensor cores (wgmma, TMA)";
    job.prepare = [this] { d_O_.fill_bytes(output_poison); };
    job.run = [this, t, number] {
      const problem<bf16> p{d_Q_.data(), d_K16_.data(), d_V16_.data(), d_O_.data(), d_};
      WB_WITH_TRACK(attention, t, {
        if (number == 4) tr::attention_tensor_core(p);
        else tr::attention_hopper(p);
      });
    };
    job.output = [this] { return d_O_.to_host(); };
    job.check = [this](const output& O) { return reference16_->check(O); };
    return job;
  }

 private:
  wb::device_buffer<float> d_Q_, d_K_, d_V_;
  wb::device_buffer<bf16> d_K16_, d_V16_;
  std::unique_ptr<reference> reference16_;
  wb::device_buffer<unsigned char> scores_;
};

// Stage 6: one row per K/V type (fp32, bf16); GB/s of K and V read, % of the copy bandwidth.
class decode_chapter : public chapter_base {
 public:
  decode_chapter(const options& opt, const problem_input& in) : chapter_base(opt, in) {
    if (d_.seq > max_decode_queries) return;  // refused: nothing to put on the device
    d_Q_ = wb::device_buffer<float>(in.Q);
    d_O_ = wb::device_buffer<float>(in.Q.size());
    if (opt.type != "bf16") {
      d_K_ = wb::device_buffer<float>(in.K);
      d_V_ = wb::device_buffer<float>(in.V);
      reference_ = std::make_unique<reference>(d_, in.Q, in.K, in.V);
    }
    if (opt.type != "fp32") {
      // The bf16 rows decode K and V rounded to bf16: those rounded values are their problem.
      std::vector<bf16> K(in.K.size()), V(in.V.size());
      std::vector<float> K_rounded(in.K.size()), V_rounded(in.V.size());
      for (std::size_t e = 0; e < K.size(); ++e) {
        K[e] = wb::to_bf16(in.K[e]);
        V[e] = wb::to_bf16(in.V[e]);
        K_rounded[e] = wb::to_float(K[e]);
        V_rounded[e] = wb::to_float(V[e]);
      }
      d_K16_ = wb::device_buffer<bf16>(K);
      d_V16_ = wb::device_buffer<bf16>(V);
      reference16_ = std::make_unique<reference>(d_, in.Q, K_rounded, V_rounded);
    }
  }

  std::string title() const { return "attention, decoding: " + problem_text(); }
  wb::report_layout layout() const {
    wb::report_layout layout = wb::report_layout::bandwidth(wb::copy_bandwidth_gbs());
    layout.preamble.push_back("GB/s: the bytes of K and V, each read once");
    if (reference_) layout.preamble.push_back(reference_->describe());
    else if (reference16_) layout.preamble.push_back(reference16_->describe());
    return layout;
  }

  std::vector<std::string> variants(const wb::stage&) const {
    if (opt_.type == "fp32") return {" fp32"};
    if (opt_.type == "bf16") return {" bf16"};
    return {" fp32", " bf16"};
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t variant) {
    const bool half = variants(s)[variant] == " bf16";
    if (d_.seq > max_decode_queries) {
      throw std::invalid_argument(fmt::format("stage 6 decodes at most {} queries per sequence (seq = {}): longer ones "
                                              "are prefill, stages 0-5 (--stage 6 alone decodes one query)",
                                              max_decode_queries, d_.seq));
    }
    const decode_config cfg{opt_.chunk};
    const std::size_t bytes = decode_workspace_bytes(d_, cfg);
    if (partials_.size() < bytes) partials_ = wb::device_buffer<unsigned char>(bytes);
    const decode_plan plan = plan_decode(d_, cfg);
    wb::stage_job<output> job;
    job.work = kv_bytes(d_, half ? sizeof(bf16) : sizeof(float));
    job.note = fmt::format("{} splits of {} keys", plan.splits, plan.chunk);
    job.prepare = [this] { d_O_.fill_bytes(output_poison); };
    job.run = [this, t, half, cfg] {
      const wb::workspace ws{partials_.data(), partials_.size()};
      WB_WITH_TRACK(attention, t, {
        if (half) tr::attention_decode(problem<bf16>{d_Q_.data(), d_K16_.data(), d_V16_.data(), d_O_.data(), d_}, ws, cfg);
        else tr::attention_decode(problem<float>{d_Q_.data(), d_K_.data(), d_V_.data(), d_O_.data(), d_}, ws, cfg);
      });
    };
    job.output = [this] { return d_O_.to_host(); };
    if (half) job.check = [this](const output& O) { return reference16_->check(O); };
    return job;
  }

 private:
  wb::device_buffer<float> d_Q_, d_K_, d_V_;
  wb::device_buffer<bf16> d_K16_, d_V16_;
  wb::device_buffer<unsigned char> partials_;
  std::unique_ptr<reference> reference16_;
};

// --csv/--json name one file: with both tables each gets its name in the file's.
inline std::string table_path(const std::string& path, const char* table, bool both) {
  if (path.empty() || !both) return path;
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "-" + table;
  return path.substr(0, dot) + "-" + table + path.substr(dot);
}

// The tables the selection asks for; the exit status of the worse.
inline int run(const options& opt, const problem_input& in, const stage_selection& selected) {
  const bool both = selected.prefill && selected.decode;
  int status = 0;
  const auto common_for = [&](const char* table) {
    wb::common_options common = opt.common;
    common.csv = table_path(common.csv, table, both);
    common.json = table_path(common.json, table, both);
    return common;
  };
  std::vector<wb::stage> prefill, decode;
  for (const auto& s : stages) (s.number == 6 ? decode : prefill).push_back(s);
  if (selected.prefill) {
    prefill_chapter chapter(opt, in);
    status = std::max(status, wb::run_chapter(chapter, std::span<const wb::stage>(prefill), common_for("prefill")));
  }
  if (selected.decode) {
    decode_chapter chapter(opt, in);
    status = std::max(status, wb::run_chapter(chapter, std::span<const wb::stage>(decode), common_for("decode")));
  }
  return status;
}

}  // namespace attention
