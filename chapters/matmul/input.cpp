#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "wb/generate.hpp"
#include "wb/runtime.hpp"

#include "data.hpp"
#include "options.hpp"
#include "stages.hpp"
#include "trace.hpp"
#include "variants.hpp"
#include "verify.hpp"

namespace matmul {

namespace {

// The user's matrices may hold NaN and infinities: the chapter shows how they spread through C
// (a NaN in A makes its row of C NaN). wb::parse_list and wb::read_numbers_file refuse
// non-finite values, on purpose, for the chapters whose inputs must be finite; here "nan",
// "inf", "-inf" (any case, also "+inf", "infinity") are taken first and every other item goes
// through them, with their messages.
std::optional<float> non_finite(std::string item) {
  for (auto& c : item) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool negative = !item.empty() && item.front() == '-';
  if (!item.empty() && (item.front() == '-' || item.front() == '+')) item.erase(item.begin());
  if (item == "nan") return std::numeric_limits<float>::quiet_NaN();
  if (item == "inf" || item == "infinity") {
    return negative ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  }
  return std::nullopt;
}

std::string trimmed(const std::string& text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return text.substr(b, e - b);
}

// --a / --b: the list with its non-finite items set aside (a finite stand-in in their place, so
// that wb::parse_list checks the rest and counts the items as usual), then put back.
std::vector<float> parse_matrix_list(const std::string& text, const std::string& what) {
  std::string finite;
  std::vector<std::pair<std::size_t, float>> special;
  std::size_t begin = 0, index = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    if (const auto v = non_finite(trimmed(item))) {
      special.emplace_back(index, *v);
      finite += "0";
    } else {
      finite += item;
    }
    if (comma == std::string::npos) break;
    finite += ",";
    begin = comma + 1;
    ++index;
  }
  std::vector<float> values = wb::parse_list<float>(finite, what);
  for (const auto& [at, v] : special) {
    if (at < values.size()) values[at] = v;
  }
  return values;
}

// --a-file / --b-file: whitespace-separated numbers, '#' to the end of a line a comment, as
// wb::read_numbers_file reads them (which also says what is wrong with a file it cannot read).
std::vector<float> read_matrix_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path);
  if (std::filesystem::is_directory(path, ec) || !in) return wb::read_numbers_file<float>(path);  // throws
  std::vector<float> values;
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      std::size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      if (j > i) {
        const std::string item = line.substr(i, j - i);
        const std::string where = fmt::format("{}:{}", path, line_number);
        if (const auto v = non_finite(item)) {
          values.push_back(*v);
        } else {
          const std::vector<float> one = wb::parse_list<float>(item, where);
          if (one.size() != 1) throw wb::usage_error(fmt::format("{}: '{}' is not one number", where, item));
          values.push_back(one.front());
        }
      }
      i = j;
    }
  }
  if (in.bad()) return wb::read_numbers_file<float>(path);  // throws: reading failed
  return values;
}

}  // namespace

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
  // --trace (and --svg) without sizes: a small problem to trace (trace.hpp)
  in.M = opt.m >= 0 ? opt.m : opt.trace ? trace_default_m : fallback;
  in.N = opt.n >= 0 ? opt.n : opt.trace ? trace_default_n : fallback;
  in.K = opt.k >= 0 ? opt.k : opt.trace ? trace_default_k : fallback;
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
    in.A = opt.a_from_file ? read_matrix_file(opt.a_file) : parse_matrix_list(opt.a_list, "--a");
    in.B = opt.b_from_file ? read_matrix_file(opt.b_file) : parse_matrix_list(opt.b_list, "--b");
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
