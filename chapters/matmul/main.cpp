// matmul: C = A B, every stage of the chapter on one problem, checked against the exact
// product within the error bound, timed, reported beside cuBLAS.
//
//   matmul                                  4096^3 on a GPU (256^3 on the cpu backend): stages
//                                           0-4 in fp32 beside cublasSgemm, 5-6 in bf16 beside
//                                           cublasGemmEx, two tables
//   matmul --m 8192 --n 8192 --k 8192 --stage 4,6
//   matmul --stage 4 --all-variants         every variant of stage 4 (padded, conflicts, ...)
//   matmul --m 2 --n 2 --k 2 --a 1,2,3,4 --b 5,6,7,8 --print     the user's matrices
//   matmul --m 20 --n 20 --k 8 --trace --stage 4 --svg tiles.svg  who computes and loads what
//   matmul --track exercise | --compare     your stages, or yours beside the solution's
//
// TFLOP/s counts 2 M N K floating-point operations per product.
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

// --csv/--json name one file: with both tables the fp32 and bf16 ones get their type in the name.
std::string typed_path(const std::string& path, const char* type, bool both) {
  if (path.empty() || !both) return path;
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "-" + type;
  return path.substr(0, dot) + "-" + type + path.substr(dot);
}

template <class T>
int run_table(const options& opt, const problem_input& in, std::span<const wb::stage> table, bool both) {
  wb::common_options common = opt.common;
  const char* type = std::is_same_v<T, bf16> ? "bf16" : "fp32";
  common.csv = typed_path(common.csv, type, both);
  common.json = typed_path(common.json, type, both);
  matmul_chapter<T> chapter(opt, in.A, in.B, in.M, in.N, in.K, in.source);
  return wb::run_chapter(chapter, table, common);
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  wb::chapter_app app{
      "matmul: C = A B from PMPP's first kernel to Hopper's tensor cores, stage by stage, checked against "
      "the exact product and timed beside cuBLAS",
      opt.common};
  CLI::App& cli = app.cli();
  const std::uint64_t max_side = std::uint64_t{1} << 31;
  const wb::backend_default default_side{4096, 256};
  app.size("--m", opt.m, "rows of A and C", max_side, default_side);
  app.size("--n", opt.n, "columns of B and C", max_side, default_side);
  app.size("--k", opt.k, "columns of A, rows of B", max_side, default_side);
  cli.add_option("--type", opt.type, "fp32 (stages 0-4) or bf16 (stages 5-6); default: each stage's own")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  app.choice("--fill", opt.fill, {"uniform", "small-integers", "extremes", "zeros", "identity"},
             "generated A and B: uniform in [-1, 1), small-integers (exact sums), extremes (+-2^-60 .. 2^60), zeros, "
             "identity");
  cli.add_option("--variant", opt.variant, "run this variant of the selected stages (names: variants.hpp, --all-variants)");
  cli.add_flag("--all-variants", opt.all_variants, "one row per variant of each selected stage");
  cli.add_option("--a", opt.a_list, "A given row-major as a list, e.g. 1,2,3,4 (with --m --n --k)")
      ->excludes(cli.add_option("--a-file", opt.a_file, "A from a file of whitespace-separated numbers, row-major"));
  cli.add_option("--b", opt.b_list, "B given row-major as a list")
      ->excludes(cli.add_option("--b-file", opt.b_file, "B from a file"));
  cli.add_flag("--no-library", opt.no_library, "leave out the cuBLAS rows (e.g. under compute-sanitizer)");
  cli.add_option("--peak-fp32", opt.peak_fp32, "the GPU's fp32 peak in TFLOP/s, for '% of peak'")->capture_default_str();
  cli.add_option("--peak-bf16", opt.peak_bf16, "the GPU's dense bf16 tensor-core peak in TFLOP/s")->capture_default_str();
  // --svg's rules depend on the stage and the size (trace.cpp: check_trace_options), so it is declared here.
  app.trace(opt.trace, nullptr,
            fmt::format("for C of at most {} x {}: which block, warp and thread of each selected stage computes which "
                        "outputs and loads which tiles",
                        max_trace_side, max_trace_side));
  cli.add_option("--svg", opt.svg,
                 fmt::format("with --trace: draw the tiling of the first selected stage (grid, block, warp and thread "
                             "tiles) for C of at most {} x {}",
                             max_svg_side, max_svg_side))
      ->type_name("FILE");
  cli.get_option("--print")->description(
      fmt::format("print each stage's C row-major on one line (C of at most {} elements)", wb::max_print_elements));
  app.after_parse([&] {
    opt.a_from_file = app.given("--a-file");
    opt.b_from_file = app.given("--b-file");
    opt.a_given = app.given("--a") || opt.a_from_file;
    opt.b_given = app.given("--b") || opt.b_from_file;
    if (opt.all_variants && !opt.variant.empty()) throw wb::usage_error("--variant and --all-variants: give one");
  });
  return app.run(argc, argv, stages, [&]() -> int {
    const stage_selection selected = select_stages(opt, app.given("--type"));
    if (opt.trace || app.given("--svg")) check_trace_options(opt, app.given("--svg"));
    problem_input in = make_input(opt);  // sizes, --print and memory checked before any work
    wb::print_device_info_or_exit();
    if (opt.trace) return trace(opt, in, selected);
    const bool both = selected.fp32 && selected.bf16;
    int status = 0;
    if (selected.fp32) status = std::max(status, run_table<float>(opt, in, std::span(stages).first(5), both));
    if (selected.bf16) status = std::max(status, run_table<bf16>(opt, in, std::span(stages).subspan(5), both));
    return status;
  });
}
