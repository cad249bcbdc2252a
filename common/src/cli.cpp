// Command-line handling shared by the chapter executables (see wb/cli.hpp).
#include "wb/cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "wb/check.hpp"
#include "wb/runtime.hpp"

namespace wb {
namespace {

// --csv/--json FILE: the folder must exist (checked before any work is done).
CLI::Validator writable_file_path() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (path.empty()) return "empty file name";
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
          return "folder '" + parent.string() + "' does not exist";
        }
        if (std::filesystem::is_directory(path, ec)) return "'" + path + "' is a folder";
        return {};
      },
      "FILE", "writable file path");
}

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

template <class T>
std::string type_description() {
  using lim = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 4 ? "a finite float" : "a finite double";
  } else {
    return fmt::format("{} integer in {}..{}", std::is_signed_v<T> ? "a signed" : "an unsigned",
                       +lim::lowest(), +lim::max());
  }
}

std::string trim(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

// What is wrong with `item` as a T (all of it, no leading/trailing junk, in T's range), or
// empty when it is a good number; the value goes to `value`.
template <class T>
std::string number_problem(const std::string& item, T& value) {
  if (item.empty()) return "empty item (expected " + type_description<T>() + ")";
  const char* begin = item.data();
  const char* end = item.data() + item.size();
  // from_chars takes no leading '+'; a '+' followed by a sign is still rejected below.
  if (*begin == '+' && end - begin > 1 && begin[1] != '-' && begin[1] != '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) {
    return fmt::format("'{}' is out of range (expected {})", item, type_description<T>());
  }
  if (ec != std::errc{} || ptr != end) {
    return fmt::format("'{}' is not a valid number (expected {})", item, type_description<T>());
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value)) return fmt::format("'{}' is not a finite number (expected {})", item, type_description<T>());
  }
  return {};
}

// `where` names the source in the message ("--sizes", "data.txt:3").
template <class T>
T parse_number(const std::string& item, const std::string& where) {
  T value{};
  const std::string problem = number_problem(item, value);
  if (!problem.empty()) throw usage_error(where + ": " + problem);
  return value;
}

// Stage ids compare after lowercasing and turning ' ' and '_' into '-'.
std::string normalise(const std::string& text) {
  std::string out;
  for (char c : trim(text)) {
    char d = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (d == ' ' || d == '_') d = '-';
    if (d == '-' && !out.empty() && out.back() == '-') continue;
    out += d;
  }
  return out;
}

std::vector<std::string> stage_names(int number, const std::string& id) {
  const std::string full = normalise(id);
  std::string chapter;
  std::string rest = full;
  if (const auto slash = full.find('/'); slash != std::string::npos) {
    chapter = full.substr(0, slash);
    rest = full.substr(slash + 1);
  }
  // "2-basic" -> "basic"
  std::size_t i = 0;
  while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) ++i;
  if (i > 0 && (i == rest.size() || rest[i] == '-')) rest = rest.substr(i == rest.size() ? i : i + 1);
  const std::string num = std::to_string(number);
  std::vector<std::string> names = {num, full};
  if (!rest.empty()) {
    names.push_back(rest);
    names.push_back(num + "-" + rest);
  }
  if (!chapter.empty()) {
    names.push_back(chapter + "/" + num);
    if (!rest.empty()) names.push_back(chapter + "/" + num + "-" + rest);
  }
  return names;
}

}  // namespace

void add_common_options(CLI::App& app, common_options& options) {
  // CLI11 2.1 wraps "-1" and saturates 2^64 for unsigned options: check the text first.
  app.add_option("--seed", options.seed, "seed of the generated input data")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::uint64_t value = 0;
            return number_problem(trim(text), value);
          },
          "", "unsigned 64-bit integer"))
      ->capture_default_str();
  app.add_option("--reps", options.reps,
                 "timed repetitions per stage (the median is reported; on the cpu backend, whose timings are "
                 "emulated, one unless given)")
      ->check(CLI::Range(1, 10000))
      ->each([&options](const std::string&) { options.reps_given = true; })
      ->capture_default_str();
  app.add_option("--stage", options.stages, "stages to run, comma separated: numbers or names (default: all)")
      ->delimiter(',');
  app.add_option("--track", options.track, "whose stages run: the solution or your exercise")
      ->check(CLI::IsMember({"solution", "exercise"}))
      ->capture_default_str();
  app.add_flag("--compare", options.compare,
               "run your exercise and the solution on the same input: agreement and both times");
  app.add_flag("--print", options.print, "print each stage's output on one line");
  app.add_option("--csv", options.csv, "also write the report as CSV to FILE")->check(writable_file_path());
  app.add_option("--json", options.json, "also write the report (with every sample) as JSON to FILE")
      ->check(writable_file_path());
}

int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; everything else is bad input.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n(" << app.get_name() << " --help lists the options)\n";
    return 2;
  }
  try {
    return body();
  } catch (const usage_error& e) {
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const CLI::Error& e) {  // a chapter's own late parse of a value
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const cuda_error& e) {
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

std::uint64_t bytes_for(std::uint64_t count, std::uint64_t element_bytes, const std::string& what) {
  if (element_bytes != 0 && count > std::numeric_limits<std::uint64_t>::max() / element_bytes) {
    throw usage_error(fmt::format("{}: {} elements of {} bytes do not fit in 64-bit memory", what, count, element_bytes));
  }
  return count * element_bytes;
}

void require_memory(std::uint64_t device_bytes, std::uint64_t host_bytes, const std::string& what) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  WB_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (device_bytes > free_bytes) {
    throw usage_error(fmt::format("{} needs {} of device memory, but only {} of {} is free", what,
                                  human_bytes(device_bytes), human_bytes(free_bytes), human_bytes(total_bytes)));
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    const auto physical = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
    // cpu backend: the "device" buffers live in host memory as well.
    const std::uint64_t needed = backend_is_cuda ? host_bytes
                                 : host_bytes > std::numeric_limits<std::uint64_t>::max() - device_bytes
                                     ? std::numeric_limits<std::uint64_t>::max()
                                     : host_bytes + device_bytes;
    if (needed > physical) {
      throw usage_error(fmt::format("{} needs {} of host memory{}, but this machine has {}", what, human_bytes(needed),
                                    backend_is_cuda ? "" : " (device buffers included: cpu backend)",
                                    human_bytes(physical)));
    }
  }
}

template <class T>
std::vector<T> parse_list(const std::string& text, const std::string& what) {
  std::vector<T> values;
  if (trim(text).empty()) return values;  // an explicit empty list is an empty input, not "no input"
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = trim(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    values.push_back(parse_number<T>(item, what));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return values;
}

template <class T>
std::vector<T> read_numbers_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw usage_error("'" + path + "' is a folder, not a file of numbers");
  std::ifstream in(path);
  if (!in) throw usage_error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::vector<T> values;
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      std::size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      if (j > i) values.push_back(parse_number<T>(line.substr(i, j - i), fmt::format("{}:{}", path, line_number)));
      i = j;
    }
  }
  if (in.bad()) throw usage_error(fmt::format("reading '{}' failed: {}", path, std::strerror(errno)));
  return values;
}

void require_printable(std::uint64_t elements, const std::string& what) {
  if (elements > max_print_elements) {
    throw usage_error(fmt::format("--print: {} has {} elements; --print prints at most {} (drop --print, or use a "
                                  "smaller input)",
                                  what, elements, max_print_elements));
  }
}

void require_writable_file(const std::string& path, const std::string& flag) {
  namespace fs = std::filesystem;
  if (path.empty()) throw usage_error(flag + ": give a file name");
  std::error_code ec;
  const fs::path file(path);
  if (fs::is_directory(file, ec)) throw usage_error(fmt::format("{} {}: that is a folder, not a file", flag, path));
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec)) {
    throw usage_error(fmt::format("{} {}: there is no folder '{}' to write it in", flag, path, folder.string()));
  }
  // An existing file must be writable; a new one needs a writable folder.
  const bool exists = fs::exists(file, ec);
  if (::access(exists ? path.c_str() : folder.c_str(), exists ? W_OK : (W_OK | X_OK)) != 0) {
    throw usage_error(fmt::format("{} {}: cannot write it there ({})", flag, path, std::strerror(errno)));
  }
}

bool stage_selected(const std::vector<std::string>& selection, int number, const std::string& id) {
  if (selection.empty()) return true;
  const auto names = stage_names(number, id);
  for (const auto& item : selection) {
    const std::string wanted = normalise(item);
    for (const auto& name : names) {
      if (wanted == name) return true;
    }
  }
  return false;
}

void require_known_stages(const std::vector<std::string>& selection,
                          const std::vector<std::pair<int, std::string>>& stages) {
  for (const auto& item : selection) {
    bool known = false;
    for (const auto& [number, id] : stages) known = known || stage_selected({item}, number, id);
    if (!known) {
      std::string list;
      for (const auto& [number, id] : stages) list += (list.empty() ? "" : ", ") + id;
      throw usage_error(fmt::format("--stage: '{}' names no stage (stages: {})", item, list));
    }
  }
}

void require_known_stages(const std::vector<std::string>& selection, std::span<const stage> stages) {
  std::vector<std::pair<int, std::string>> known;
  for (const auto& s : stages) known.emplace_back(s.number, s.suite);
  require_known_stages(selection, known);
}

namespace {

constexpr std::uint64_t size_max = std::numeric_limits<std::uint64_t>::max();

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}
// Digits to a number; false when it does not fit in 64 bits.
bool digits_value(const std::string& digits, std::uint64_t& value) {
  value = 0;
  for (const char c : digits) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (value > (size_max - d) / 10) return false;
    value = value * 10 + d;
  }
  return true;
}
bool times(std::uint64_t& value, std::uint64_t factor) {
  if (factor != 0 && value > size_max / factor) return false;
  value *= factor;
  return true;
}

// What is wrong with `text` as a size ("" when it reads; the value goes to `value`):
// "unread" when it is not in the syntax, "too large" when it is but passes 2^64 - 1.
std::string size_problem(const std::string& text, std::uint64_t& value) {
  const std::string unread = fmt::format("cannot read '{}' as a size (a whole number: 1048576, 2^20 or 1e6)", text);
  const std::string too_large = fmt::format("'{}' is too large for a size (at most 2^64 - 1)", text);
  if (const auto caret = text.find('^'); caret != std::string::npos) {
    const std::string base_text = text.substr(0, caret);
    const std::string exponent_text = text.substr(caret + 1);
    std::uint64_t base = 0;
    std::uint64_t exponent = 0;
    if (!all_digits(base_text) || !all_digits(exponent_text)) return unread;
    if (!digits_value(base_text, base) || !digits_value(exponent_text, exponent)) return too_large;
    value = 1;
    for (std::uint64_t i = 0; i < exponent && value != 0; ++i) {
      if (!times(value, base)) return too_large;
      if (base == 1) break;
    }
    if (exponent == 0) value = 1;
    return {};
  }
  if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
    // mantissa digits[.digits] times 10^exponent, which must come out whole
    std::string mantissa = text.substr(0, e);
    std::string exponent_text = text.substr(e + 1);
    bool negative = false;
    if (!exponent_text.empty() && (exponent_text[0] == '+' || exponent_text[0] == '-')) {
      negative = exponent_text[0] == '-';
      exponent_text.erase(0, 1);
    }
    std::int64_t shift = 0;
    if (const auto point = mantissa.find('.'); point != std::string::npos) {
      shift = -static_cast<std::int64_t>(mantissa.size() - point - 1);
      mantissa.erase(point, 1);
    }
    std::uint64_t exponent = 0;
    if (!all_digits(mantissa) || !all_digits(exponent_text)) return unread;
    if (!digits_value(exponent_text, exponent) || exponent > 10000) return too_large;
    shift += negative ? -static_cast<std::int64_t>(exponent) : static_cast<std::int64_t>(exponent);
    while (shift < 0 && mantissa.size() > 1 && mantissa.back() == '0') {  // 15e-1 is not whole; 150e-1 is
      mantissa.pop_back();
      ++shift;
    }
    const bool zero = mantissa.find_first_not_of('0') == std::string::npos;
    if (zero) {
      value = 0;
      return {};
    }
    if (shift < 0) return unread;  // not a whole number
    if (!digits_value(mantissa, value)) return too_large;
    for (std::int64_t i = 0; i < shift; ++i) {
      if (!times(value, 10)) return too_large;
    }
    return {};
  }
  if (!all_digits(text)) return unread;
  if (!digits_value(text, value)) return too_large;
  return {};
}

}  // namespace

std::uint64_t parse_size(const std::string& text, const std::string& flag) {
  std::uint64_t value = 0;
  const std::string problem = size_problem(trim(text), value);
  if (!problem.empty()) throw usage_error(flag + ": " + problem);
  return value;
}

std::string size_text(std::uint64_t size) {
  if (size >= 1024 && (size & (size - 1)) == 0) return fmt::format("2^{}", std::countr_zero(size));
  return std::to_string(size);
}

CLI::Validator size_syntax(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const std::string original = trim(text);
        std::string problem = size_problem(original, value);
        if (problem.empty() && value > max) problem = fmt::format("{} is more than {}", original, size_text(max));
        if (problem.empty()) text = std::to_string(value);
        return problem;
      },
      "");
}

void add_input_options(CLI::App& app, input_options& input, const std::string& list_help, const std::string& file_help) {
  auto* list = app.add_option("--input", input.list, list_help)->each([&input](const std::string&) { input.list_given = true; });
  app.add_option("--input-file", input.file, file_help)
      ->each([&input](const std::string&) { input.file_given = true; })
      ->excludes(list);
}

template <class T>
std::vector<T> read_input(const input_options& input, bool size_given, const std::string& size_flag) {
  if (size_given) throw usage_error(size_flag + " and --input/--input-file: the input sets " + size_flag.substr(2));
  return input.list_given ? parse_list<T>(input.list, "--input") : read_numbers_file<T>(input.file);
}

#define WB_CLI_INSTANTIATE(T)                                                          \
  template std::vector<T> parse_list<T>(const std::string&, const std::string&);     \
  template std::vector<T> read_numbers_file<T>(const std::string&);                  \
  template std::vector<T> read_input<T>(const input_options&, bool, const std::string&);
WB_CLI_INSTANTIATE(signed char)
WB_CLI_INSTANTIATE(unsigned char)
WB_CLI_INSTANTIATE(short)
WB_CLI_INSTANTIATE(unsigned short)
WB_CLI_INSTANTIATE(int)
WB_CLI_INSTANTIATE(unsigned int)
WB_CLI_INSTANTIATE(long)
WB_CLI_INSTANTIATE(unsigned long)
WB_CLI_INSTANTIATE(long long)
WB_CLI_INSTANTIATE(unsigned long long)
WB_CLI_INSTANTIATE(float)
WB_CLI_INSTANTIATE(double)
#undef WB_CLI_INSTANTIATE

}  // namespace wb
