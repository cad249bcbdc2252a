// The matmul chapter's traits for the driver (wb/chapter.hpp): one product C = A B. What each row of
// the report runs, the output it brings back and how that output is checked; main.cpp reads the
// command line and hands the input to it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/chapter_app.hpp"
#include "wb/device_buffer.hpp"

#include "baseline_cublas.hpp"
#include "data.hpp"
#include "matmul.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "trace.hpp"
#include "variants.hpp"
#include "verify.hpp"

namespace {

using namespace matmul;

// How long a large product takes on the cpu backend, said before it starts (a run of 2048^3
// would otherwise print nothing for minutes): seconds per multiply-add, measured at 512^3 and
// 1024^3 on the project's 2-core development machine, idle (shared, it took up to 2.5 times as
// long). The emulator runs every thread of the grid and every load and store of kernel code
// calls into it, so stages differ by what a thread does per multiply-add: index 0 is the host
// stage, 1-5 the emulated ones (6 does not run there).
inline constexpr double emulated_s_per_madd[] = {2.2e-9, 6e-9, 1.4e-8, 1.5e-9, 1.2e-9, 1.3e-8};
inline constexpr double reference_s_per_madd = 1.2e-9;  // the double-precision reference on the host
inline constexpr double announce_above_s = 5;  // runs estimated longer than this are announced

inline std::string duration_text(double s) {
  return s < 120 ? fmt::format("{:.0f} s", s) : fmt::format("{:.0f} min", s / 60);
}

// One line on stderr before a run estimated to take long (`line` with "{}" for the time);
// stdout keeps the tables.
inline void announce(double seconds, const std::string& line) {
  if (seconds < announce_above_s) return;
  std::fflush(stdout);
  std::string text = line;
  if (const auto at = text.find("{}"); at != std::string::npos) text.replace(at, 2, duration_text(seconds));
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
}

// The chapter's traits for the driver (wb/chapter.hpp): one product C = A B in the element
// type T of its stages (float: stages 0-4 and cublasSgemm; bf16: stages 5-6 and cublasGemmEx).
template <class T>
class matmul_chapter {
 public:
  using output = product_result;
  static constexpr bool bf16_stages = std::is_same_v<T, bf16>;

  matmul_chapter(const options& opt, std::vector<float> A, std::vector<float> B, std::int64_t M, std::int64_t N,
                 std::int64_t K, std::string source)
      : opt_(opt), A_(std::move(A)), B_(std::move(B)), M_(M), N_(N), K_(K), source_(std::move(source)) {
    if constexpr (bf16_stages) {  // the bf16 stages multiply the inputs rounded to bf16: so does the reference
      for (auto& x : A_) x = wb::to_float(wb::to_bf16(x));
      for (auto& x : B_) x = wb::to_float(wb::to_bf16(x));
      d_A_ = wb::device_buffer<T>(to_bf16(A_));
      d_B_ = wb::device_buffer<T>(to_bf16(B_));
    } else {
      d_A_ = wb::device_buffer<T>(A_);
      d_B_ = wb::device_buffer<T>(B_);
    }
    d_C_ = wb::device_buffer<T>(static_cast<std::size_t>(M_ * N_));
    // Small integers (sums exact in fp32 while 4 K < 2^24), zeros and identities: C is exact.
    const bool exact = source_ != "given" && (opt_.fill == "zeros" || opt_.fill == "identity" ||
                                              (opt_.fill == "small-integers" && K_ < (std::int64_t{1} << 22)));
    if (!wb::backend_is_cuda || M_ * N_ * K_ <= verifier::host_limit) {
      announce(reference_s_per_madd * madds(),
               fmt::format("the exact product in double precision on the host, to check the {} stages against: "
                           "about {{}}",
                           bf16_stages ? "bf16" : "fp32"));
    }
    verify_ = std::make_unique<verifier>(A_, B_, M_, N_, K_, d_A_.data(), d_B_.data(), exact);
  }

  std::string title() const {
    return fmt::format("matmul: C = A B, M = {}, N = {}, K = {}, {} ({}), {}", M_, N_, K_,
                       bf16_stages ? "bf16 inputs and output, fp32 sums" : "fp32", source_,
                       opt_.common.compare ? "exercise and solution tracks" : opt_.common.track + " track");
  }
  wb::report_layout layout() const {
    const double peak = bf16_stages ? opt_.peak_bf16 : opt_.peak_fp32;
    wb::report_layout layout;
    layout.work_field = "flops";
    layout.rates = {{"TFLOP/s", "tflop_per_s", 1e12, 1, peak, "% of peak", "pct_of_peak", "peak_tflop_per_s"}};
    layout.preamble = {
        fmt::format("peak: {:g} TFLOP/s ({}; --peak-{} sets another GPU's)", peak,
                    bf16_stages ? "bf16 on the tensor cores, dense, H100 SXM" : "fp32 without tensor cores, H100 SXM",
                    bf16_stages ? "bf16" : "fp32"),
        verify_->describe()};
    return layout;
  }

  // One row per variant asked for: --variant NAME, --all-variants, and stage 1's other thread
  // mapping beside its default always (the coalescing pitfall is its lesson).
  std::vector<std::string> variants(const wb::stage& s) const {
    std::vector<std::string> suffixes;
    for (const int v : variant_rows(s.number))
      suffixes.push_back(v == 0 ? "" : " " + std::string(variants_of(s.number)[v].name));
    return suffixes;
  }

  wb::stage_job<output> job(const wb::stage& s, wb::track t, std::size_t row) {
    const config cfg{variant_rows(s.number)[row]};
    wb::stage_job<output> job;
    job.work = 2.0 * static_cast<double>(M_) * static_cast<double>(N_) * static_cast<double>(K_);
    job.long_stage = {5.0, 2.0, 0.2};  // stages of seconds (the naive ones at 8192^3): fewer runs
    if (!wb::backend_is_cuda && s.number <= 5 && (s.number != 0 || M_ * N_ * K_ <= (std::int64_t{1} << 30))) {
      // A run over 5 s is timed by its checked run alone (long_stage), else once more.
      const double once = emulated_s_per_madd[s.number] * madds();
      const std::string label = fmt::format("stage {}{}", wb::stage_label(s), variants(s)[row]);
      announce(once > job.long_stage.single_run_above_s ? once : 2 * once,
               label + (s.number == 0 ? ": the sequential specification on one host thread: this run takes about {}"
                                      : ": the cpu backend emulates every thread: this run takes about {}"));
    }
    if (s.number == 0) {
      if (M_ * N_ * K_ > (std::int64_t{1} << 30)) {
        throw wb::stage_refused("the sequential specification runs on the host up to 2^30 multiply-adds (M N K = " +
                                wb::size_text(static_cast<std::uint64_t>(M_ * N_ * K_)) + ")");
      }
      auto C = std::make_shared<std::vector<float>>(static_cast<std::size_t>(M_ * N_));
      auto host = wb::host_job<output>(
          [this, t, C] {
            WB_WITH_TRACK(matmul, t, { tr::matmul_sequential_host({A_.data(), B_.data(), C->data(), M_, N_, K_}); });
          },
          [this, C] { return verify_->check_host(*C); });
      host.work = job.work;
      host.long_stage = job.long_stage;
      return host;
    }
    job.prepare = [this] { d_C_.fill_bytes(0x7F); };  // 3.39e38 in fp32 and bf16: an unwritten C is wrong
    job.run = [this, t, number = s.number, cfg] {
      const problem<T> p{d_A_.data(), d_B_.data(), d_C_.data(), M_, N_, K_};
      WB_WITH_TRACK(matmul, t, {
        if constexpr (bf16_stages) {
          if (number == 5) tr::matmul_wmma(p, cfg);
          else tr::matmul_hopper(p, workspace(tr::hopper_workspace_bytes(M_, N_, K_, cfg)), cfg);
        } else {
          switch (number) {
            case 1: tr::matmul_naive(p, cfg); break;
            case 2: tr::matmul_tiled(p, cfg); break;
            case 3: tr::matmul_coarsened(p, cfg); break;
            default: tr::matmul_fp32_ceiling(p, cfg); break;
          }
        }
      });
    };
    job.output = [this] { return verify_->check(d_C_.data()); };
    return job;
  }

  std::vector<wb::stage_job<output>> library() {
    std::vector<wb::stage_job<output>> rows;
#if defined(WB_HAVE_BASELINE)
    if (opt_.no_library) return rows;
    wb::stage_job<output> job;
    job.name = bf16_stages ? "cublasGemmEx bf16" : "cublasSgemm";
    job.is_baseline = true;
    job.work = 2.0 * static_cast<double>(M_) * static_cast<double>(N_) * static_cast<double>(K_);
    job.prepare = [this] { d_C_.fill_bytes(0x7F); };
    job.run = [this] {
      const problem<T> p{d_A_.data(), d_B_.data(), d_C_.data(), M_, N_, K_};
      if constexpr (bf16_stages)
        baseline::cublas_gemm_bf16(p);
      else
        baseline::cublas_sgemm(p);
    };
    job.output = [this] { return verify_->check(d_C_.data()); };
    rows.push_back(std::move(job));
#endif
    return rows;
  }

  std::string check(const output& out) const {
    if (out.wrong.empty()) return "";
    return out.wrong_count > 1 ? fmt::format("{} (and {} more)", out.wrong, out.wrong_count - 1) : out.wrong;
  }
  std::string show(const output& out) const {
    if (out.C.empty() && M_ * N_ > 0) return "(C too large to bring back)";
    return fmt::format("{:.9g}", fmt::join(out.C, " "));
  }
  // Two right answers may differ in their last bits (another order of the sums): say so.
  std::string difference(const output& solution, const output& exercise) const {
    if (solution.C.empty() && M_ * N_ > 0) return "";  // too large to compare on the host
    if (solution.C.size() != exercise.C.size()) return "C has another size";
    for (std::size_t e = 0; e < solution.C.size(); ++e) {
      if (solution.C[e] == exercise.C[e] || (solution.C[e] != solution.C[e] && exercise.C[e] != exercise.C[e]))
        continue;
      return fmt::format(
          "at C[{}][{}]: solution {:.9g}, exercise {:.9g}{}", e / N_, e % N_, solution.C[e], exercise.C[e],
          solution.wrong.empty() && exercise.wrong.empty() ? " (both within the bound: sums in another order)" : "");
    }
    return "";
  }

  // The chapter's targets, where this run measured them: stage 4 at least 0.90x cublasSgemm,
  // stage 6 at least 1.0x cublasGemmEx (at 4096^3 and 8192^3; the README has the sweep).
  void after_report(const wb::report& rep) const {
    if (!wb::backend_is_cuda) return;
    const std::string stage = bf16_stages ? "6 hopper" : "4 fp32-ceiling";
    const wb::report_row* mine = nullptr;
    const wb::report_row* library = nullptr;
    for (const auto& row : rep.rows()) {
      if (row.stage == stage && row.time && row.verified) mine = &row;
      if (row.is_baseline && row.time && row.verified) library = &row;
    }
    if (mine == nullptr || library == nullptr) return;
    const double ratio = library->time->median_ms / mine->time->median_ms;
    const double target = bf16_stages ? 1.0 : 0.9;
    std::printf("target: stage %s at least %.2fx %s: %.2fx, %s\n", stage.c_str(), target, library->stage.c_str(), ratio,
                ratio >= target ? "met" : "not met");
  }

 private:
  double madds() const { return static_cast<double>(M_) * static_cast<double>(N_) * static_cast<double>(K_); }
  std::vector<int> variant_rows(int stage) const {
    const int count = static_cast<int>(variants_of(stage).size());
    if (count == 0) return {0};
    std::vector<int> rows;
    if (opt_.all_variants) {
      for (int v = 0; v < count; ++v) rows.push_back(v);
    } else if (!opt_.variant.empty() && variant_index(stage, opt_.variant) >= 0) {
      rows.push_back(variant_index(stage, opt_.variant));
    } else {
      rows.push_back(0);
      if (stage == 1) rows.push_back(1);
    }
    return rows;
  }
  wb::workspace workspace(std::size_t bytes) {
    if (workspace_.size() < bytes) workspace_ = wb::device_buffer<unsigned char>(bytes);
    return {workspace_.data(), workspace_.size()};
  }

  const options& opt_;
  std::vector<float> A_, B_;
  std::int64_t M_, N_, K_;
  std::string source_;
  wb::device_buffer<T> d_A_, d_B_, d_C_;
  wb::device_buffer<unsigned char> workspace_;
  std::unique_ptr<verifier> verify_;
};

}  // namespace
