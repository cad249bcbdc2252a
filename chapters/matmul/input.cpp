#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "wb/generate.hpp"
#include "wb/runtime.hpp"

#include "data.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "variants.hpp"
#include "verify.hpp"

namespace matmul {

stage_selection select_stages(const options& opt, bool type_given) {
  stage_selection out;
  for (const auto& s : stages) {
    if (!wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    const bool bf16 = stage_is_bf16(s.number);
    if (type_given && (opt.type == "bf16") != bf16) {
      if (opt.common.stages.empty()) continue;  // --type alone picks the stages of that type
      throw wb::usage_error(fmt::format("stage {} multiplies {} matrices: --type {} is for stages {}", s.number,
                                        bf16 ? "bf16 (tensor cores)" : "fp32", opt.type, bf16 ? "0-4" : "5-6"));
    }
    out.numbers.push_back(s.number);
    (bf16 ? out.bf16 : out.fp32) = true;
  }
  if (!opt.variant.empty()) {
    bool known = false;
    std::string names;
    for (const int s : out.numbers) {
      known = known || variant_index(s, opt.variant) >= 0;
      for (const auto& v : variants_of(s))
        names += fmt::format("{}{} (stage {})", names.empty() ? "" : ", ", v.name, s);
    }
    if (!known)
      throw wb::usage_error(
          fmt::format("--variant {}: no selected stage has it; the variants: {}", opt.variant, names));
  }
  return out;
}

problem_input make_input(const options& opt) {
  problem_input in;
  const std::int64_t fallback = wb::backend_is_cuda ? 4096 : 256;
  const bool given = opt.a_given || opt.b_given;
  if (given) {
    if (!opt.a_given || !opt.b_given) throw wb::usage_error("give both A and B (--a/--a-file and --b/--b-file)");
    if (opt.m < 0 || opt.n < 0 || opt.k < 0)
      throw wb::usage_error("--a and --b are row-major: give their shape with --m --n --k");
  }
  in.M = opt.m >= 0 ? opt.m : fallback;
  in.N = opt.n >= 0 ? opt.n : fallback;
  in.K = opt.k >= 0 ? opt.k : fallback;
  const auto MN = static_cast<std::uint64_t>(in.M) * static_cast<std::uint64_t>(in.N);
  if (opt.common.print) wb::require_printable(MN, "C");
  if (!wb::backend_is_cuda && static_cast<double>(MN) * static_cast<double>(in.K) > 0x1p33) {
    throw wb::usage_error(fmt::format("M N K = {} multiply-adds: the cpu backend emulates up to 2^33 (try 256 or 1024)",
                                      static_cast<double>(MN) * static_cast<double>(in.K)));
  }
  // Device: A and B in fp32 and bf16, C, and the reference's two doubles per element of C for
  // large problems; host: A and B, C brought back, the host reference for small ones.
  const std::string what = fmt::format("C = A B with M = {}, N = {}, K = {}", in.M, in.N, in.K);
  const std::uint64_t AB = wb::bytes_for(static_cast<std::uint64_t>(in.M * in.K + in.K * in.N), 6, what);
  const std::uint64_t C = wb::bytes_for(MN, 4 + 16, what);
  wb::require_memory(AB + C + (std::uint64_t{256} << 20), AB + wb::bytes_for(MN, 20, what), what);

  if (given) {
    in.A = opt.a_from_file ? wb::read_numbers_file<float>(opt.a_file) : wb::parse_list<float>(opt.a_list, "--a");
    in.B = opt.b_from_file ? wb::read_numbers_file<float>(opt.b_file) : wb::parse_list<float>(opt.b_list, "--b");
    const auto check = [](const std::vector<float>& v, std::int64_t rows, std::int64_t cols, const char* name) {
      if (static_cast<std::int64_t>(v.size()) != rows * cols) {
        throw wb::usage_error(
            fmt::format("{} has {} numbers; as a {} x {} matrix it needs {}", name, v.size(), rows, cols, rows * cols));
      }
    };
    check(in.A, in.M, in.K, "A");
    check(in.B, in.K, in.N, "B");
    in.source = "given";
    return in;
  }
  fill f = fill::uniform;
  parse_fill(opt.fill, f);
  in.A = generate(in.M, in.K, f, opt.common.seed, 0);
  in.B = generate(in.K, in.N, f, opt.common.seed, 1);
  in.source = fmt::format("{}, seed {}", f == fill::uniform ? "uniform in [-1, 1)" : fill_name(f), opt.common.seed);
  return in;
}

}  // namespace matmul
