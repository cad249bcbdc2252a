// wb/cli.hpp: options, exit codes, number lists and files, stage selection, size checks.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "wb/check.hpp"
#include "wb/cli.hpp"
#include "wb/testing.hpp"

namespace {

// Runs wb::run_main on a command line, capturing what it prints.
struct run_result {
  int code;
  std::string out;
  std::string err;
};
// `add` adds the options under test besides the common ones.
run_result run_cli(std::vector<std::string> words, wb::common_options& options,
                   const std::function<int()>& body = [] { return 0; },
                   const std::function<void(CLI::App&)>& add = {}) {
  CLI::App app{"test"};
  wb::add_common_options(app, options);
  if (add) add(app);
  words.insert(words.begin(), "prog");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  std::ostringstream out;
  std::ostringstream err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  int code = -1;
  try {
    code = wb::run_main(app, static_cast<int>(argv.size()), argv.data(), body);
  } catch (...) {
    std::cout.rdbuf(old_out);
    std::cerr.rdbuf(old_err);
    throw;
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

std::string temp_file(const std::string& name, const std::string& contents) {
  const auto path = std::filesystem::temp_directory_path() / (name + "." + std::to_string(getpid()));
  std::ofstream(path) << contents;
  return path.string();
}

}  // namespace

TEST_CASE("common options parse, with defaults") {
  wb::common_options o;
  auto r = run_cli({"--seed", "7", "--reps", "5", "--stage", "2,basic", "--track", "exercise", "--compare", "--print"}, o);
  CHECK(r.code == 0);
  CHECK(o.seed == 7);
  CHECK(o.reps == 5);
  CHECK(o.stages == std::vector<std::string>{"2", "basic"});
  CHECK(o.track == "exercise");
  CHECK(o.compare);
  CHECK(o.print);
  wb::common_options d;
  CHECK(run_cli({}, d).code == 0);
  CHECK(d.seed == 42);
  CHECK(d.reps == 20);
  CHECK(d.track == "solution");
  wb::common_options m;
  CHECK(run_cli({"--seed", "18446744073709551615"}, m).code == 0);
  CHECK(m.seed == 18446744073709551615ull);
  CHECK_FALSE(d.compare);
}

TEST_CASE("bad command lines exit with 2 and say why; --help exits with 0") {
  const std::vector<std::vector<std::string>> bad = {
      {"--reps", "0"},         {"--reps", "10001"}, {"--reps", "abc"},  {"--reps", "-3"},
      {"--track", "teacher"},  {"--bogus"},         {"--seed", "1x"},   {"--csv", "/no/such/folder/x.csv"},
      {"--json", "/"},         {"--reps"},          {"--seed", "-1"},   {"--seed", "18446744073709551616"},
      {"--stage"},
  };
  for (const auto& words : bad) {
    wb::common_options o;
    const auto r = run_cli(words, o);
    CAPTURE(words.front());
    CHECK(r.code == 2);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.err.find("--help lists the options") != std::string::npos);
  }
  wb::common_options o;
  const auto help = run_cli({"--help"}, o);
  CHECK(help.code == 0);
  CHECK(help.out.find("--reps") != std::string::npos);
}

TEST_CASE("run_main maps exceptions from the body to exit codes") {
  wb::common_options o;
  auto usage = run_cli({}, o, []() -> int { throw wb::usage_error("n must be >= 0"); });
  CHECK(usage.code == 2);
  CHECK(usage.err == "error: n must be >= 0\n");
  auto cuda = run_cli({}, o, []() -> int { WB_CHECK(cudaErrorInvalidValue); return 0; });
  CHECK(cuda.code == 1);
  CHECK(cuda.err.rfind("error: cudaErrorInvalidValue failed at ", 0) == 0);
  auto other = run_cli({}, o, []() -> int { throw std::runtime_error("verification failed"); });
  CHECK(other.code == 1);
  CHECK(other.err == "error: verification failed\n");
  CHECK(run_cli({}, o, [] { return 3; }).code == 3);
}

TEST_CASE("parse_list accepts well-formed numbers") {
  CHECK(wb::parse_list<int>("1,3,5", "--x") == std::vector<int>{1, 3, 5});
  CHECK(wb::parse_list<int>(" 7 , -2 ,+4", "--x") == std::vector<int>{7, -2, 4});
  CHECK(wb::parse_list<std::int8_t>("65,-128,127", "--x") == std::vector<std::int8_t>{65, -128, 127});
  CHECK(wb::parse_list<std::uint8_t>("0,255", "--x") == std::vector<std::uint8_t>{0, 255});
  CHECK(wb::parse_list<std::uint64_t>("18446744073709551615", "--x") ==
        std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max()});
  CHECK(wb::parse_list<std::int64_t>("-9223372036854775808", "--x") ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
  CHECK(wb::parse_list<double>("1.5e3,-0.25", "--x") == std::vector<double>{1500.0, -0.25});
  CHECK(wb::parse_list<float>("3", "--x") == std::vector<float>{3.0f});
  CHECK(wb::parse_list<std::int16_t>("-32768", "--x") == std::vector<std::int16_t>{-32768});
}

TEST_CASE("parse_list reads an explicit empty list as an empty input") {
  CHECK(wb::parse_list<int>("", "--x").empty());
  CHECK(wb::parse_list<double>("   ", "--x").empty());
}

TEST_CASE("require_printable refuses --print past max_print_elements, naming the input") {
  CHECK_NOTHROW(wb::require_printable(0, "the input"));
  CHECK_NOTHROW(wb::require_printable(wb::max_print_elements, "the input"));
  try {
    wb::require_printable(wb::max_print_elements + 1, "the input");
    FAIL("no error");
  } catch (const wb::usage_error& e) {
    CHECK(std::string(e.what()).find("the input has 100001 elements") != std::string::npos);
  }
}

TEST_CASE("parse_list rejects malformed, empty and out-of-range items, naming them") {
  auto rejects = [](auto parse, const std::string& text) {
    try {
      parse(text);
    } catch (const wb::usage_error& e) {
      const std::string what = e.what();
      return what.rfind("--sizes: ", 0) == 0;
    }
    return false;
  };
  auto as_int = [](const std::string& t) { return wb::parse_list<int>(t, "--sizes"); };
  auto as_i8 = [](const std::string& t) { return wb::parse_list<std::int8_t>(t, "--sizes"); };
  auto as_u32 = [](const std::string& t) { return wb::parse_list<std::uint32_t>(t, "--sizes"); };
  auto as_double = [](const std::string& t) { return wb::parse_list<double>(t, "--sizes"); };
  auto as_float = [](const std::string& t) { return wb::parse_list<float>(t, "--sizes"); };
  for (const std::string text : {"1,,2", "1,", ",1", "3x", "x3", "0x10", "1.5", "1 2", "--1", "+-1", "++1",
                           "99999999999", "1e3"}) {
    CAPTURE(text);
    CHECK(rejects(as_int, text));
  }
  for (const std::string text : {"128", "-129", "A", "1000"}) {
    CAPTURE(text);
    CHECK(rejects(as_i8, text));
  }
  CHECK(rejects(as_u32, "-1"));
  CHECK(rejects(as_u32, "4294967296"));
  for (const std::string text : {"nan", "inf", "-inf", "1e999", "1.0.0", "1e"}) {
    CAPTURE(text);
    CHECK(rejects(as_double, text));
  }
  CHECK(rejects(as_float, "1e39"));
  try {
    wb::parse_list<std::int8_t>("5,300", "--sizes");
    FAIL("no error");
  } catch (const wb::usage_error& e) {
    CHECK(std::string(e.what()) == "--sizes: '300' is out of range (expected a signed integer in -128..127)");
  }
}

TEST_CASE("read_numbers_file reads whitespace-separated numbers with comments") {
  const auto path = temp_file("wb_numbers", "# sizes\n1 2\t3\n\n  -4 # four\n5\n");
  CHECK(wb::read_numbers_file<int>(path) == std::vector<int>{1, 2, 3, -4, 5});
  CHECK(wb::read_numbers_file<double>(path) == std::vector<double>{1, 2, 3, -4, 5});
  std::filesystem::remove(path);
  const auto empty = temp_file("wb_empty", "");
  CHECK(wb::read_numbers_file<int>(empty).empty());
  std::filesystem::remove(empty);
}

TEST_CASE("read_numbers_file rejects a missing file, a folder and a bad number (with its line)") {
  CHECK_THROWS_WITH_AS(wb::read_numbers_file<int>("/no/such/file.txt"),
                       "cannot open '/no/such/file.txt': No such file or directory", wb::usage_error);
  CHECK_THROWS_AS(wb::read_numbers_file<int>(std::filesystem::temp_directory_path().string()), wb::usage_error);
  const auto path = temp_file("wb_bad_numbers", "1 2\n3 4x\n");
  CHECK_THROWS_WITH_AS(wb::read_numbers_file<int>(path), doctest::Contains((path + ":2: '4x' is not a valid number").c_str()),
                       wb::usage_error);
  CHECK_THROWS_AS(wb::read_numbers_file<std::uint8_t>(path), wb::usage_error);
  std::filesystem::remove(path);
  const auto range = temp_file("wb_range_numbers", "100 200 300\n");
  CHECK_THROWS_WITH_AS(wb::read_numbers_file<std::uint8_t>(range), doctest::Contains(":1: '300' is out of range"),
                       wb::usage_error);
  std::filesystem::remove(range);
}

TEST_CASE("stage_selected: by number, name, both, or full id; empty selects all") {
  const std::string id = "merge/2 basic";
  CHECK(wb::stage_selected({}, 2, id));
  for (const std::string item : {"2", "basic", "2-basic", "2 basic", "2_basic", "BASIC", " basic "}) {
    CAPTURE(item);
    CHECK(wb::stage_selected({item}, 2, id));
    CHECK(wb::stage_selected({item}, 2, "basic"));  // an id without the chapter prefix
  }
  for (const std::string item : {"merge/2 basic", "merge/2", "Merge/2-Basic"}) {
    CAPTURE(item);
    CHECK(wb::stage_selected({item}, 2, id));
  }
  for (const std::string item : {"3", "tiled", "3-basic", "2-tiled", "merge/3", "reduction/2", "", "bas", "02x"}) {
    CAPTURE(item);
    CHECK_FALSE(wb::stage_selected({item}, 2, id));
  }
  CHECK(wb::stage_selected({"7", "basic"}, 2, id));
  CHECK(wb::stage_selected({"at-bandwidth"}, 6, "reduction/6 at bandwidth"));
  CHECK(wb::stage_selected({"at bandwidth"}, 6, "reduction/6 at-bandwidth"));
  CHECK_FALSE(wb::stage_selected({"6"}, 16, "reduction/16 big"));
}

TEST_CASE("require_known_stages names an unknown stage and lists the real ones") {
  const std::vector<std::pair<int, std::string>> stages = {{0, "merge/0 sequential"}, {1, "merge/1 co-rank"}};
  CHECK_NOTHROW(wb::require_known_stages({"0", "co-rank"}, stages));
  CHECK_THROWS_WITH_AS(wb::require_known_stages({"1", "tiled"}, stages),
                       "--stage: 'tiled' names no stage (stages: merge/0 sequential, merge/1 co-rank)",
                       wb::usage_error);
}

TEST_CASE("sizes: overflowing byte counts and more memory than there is are refused") {
  CHECK(wb::bytes_for(1000, 8, "n") == 8000);
  CHECK(wb::bytes_for(0, 8, "n") == 0);
  CHECK_THROWS_AS(wb::bytes_for(std::uint64_t{1} << 62, 8, "n"), wb::usage_error);
  CHECK_NOTHROW(wb::require_memory(1024, 1024, "a small run"));
  CHECK_THROWS_WITH_AS(wb::require_memory(std::uint64_t{1} << 60, 0, "merge of 2^58 int32"),
                       doctest::Contains("merge of 2^58 int32 needs 1.0 EiB of device memory, but only"),
                       wb::usage_error);
  CHECK_THROWS_WITH_AS(wb::require_memory(0, std::uint64_t{1} << 60, "a huge host array"),
                       doctest::Contains("a huge host array needs 1.0 EiB of host memory"), wb::usage_error);
}

TEST_CASE("sizes: digits, powers and scientific notation; what cannot be read is named as unread") {
  CHECK(wb::parse_size("1048576", "--n") == 1048576);
  CHECK(wb::parse_size("2^20", "--n") == 1048576);
  CHECK(wb::parse_size("10^9", "--n") == 1000000000);
  CHECK(wb::parse_size("2^0", "--n") == 1);
  CHECK(wb::parse_size("0", "--n") == 0);
  CHECK(wb::parse_size("1e9", "--n") == 1000000000);
  CHECK(wb::parse_size("1.5e3", "--n") == 1500);
  CHECK(wb::parse_size("150e-1", "--n") == 15);
  CHECK(wb::parse_size(" 2^63 ", "--n") == (std::uint64_t{1} << 63));
  CHECK(wb::parse_size("18446744073709551615", "--n") == 18446744073709551615ull);
  for (const char* unread : {"", "2^x", "x^2", "abc", "-1", "1.5", "1e-1", "15e-1", "2^", "^3", "1e", "0x10", "3k", "+-1"}) {
    INFO("unread := " << std::string(unread));
    CHECK_THROWS_WITH(wb::parse_size(unread, "--n"), doctest::Contains("--n: cannot read '"));
  }
  for (const char* huge : {"2^64", "18446744073709551616", "1e20", "10^20"}) {
    INFO("huge := " << std::string(huge));
    CHECK_THROWS_WITH(wb::parse_size(huge, "--m"), doctest::Contains("--m: '"));
    CHECK_THROWS_WITH(wb::parse_size(huge, "--m"), doctest::Contains("too large"));
  }
  CHECK(wb::size_text(1024) == "2^10");
  CHECK(wb::size_text(std::uint64_t{1} << 40) == "2^40");
  CHECK(wb::size_text(1000) == "1000");
  CHECK(wb::size_text(512) == "512");
}

TEST_CASE("size options: the syntax on the command line, the option's limit, exit 2 when unread") {
  const auto parse = [](std::vector<std::string> words, std::int64_t& n, int& block) {
    wb::common_options options;
    const run_result r = run_cli(words, options, [] { return 0; }, [&](CLI::App& app) {
      wb::add_size_option(app, "--n", n, "items", std::uint64_t{1} << 40);
      wb::add_size_option(app, "--block", block, "threads");
    });
    return std::pair{r.code, r.err};
  };
  std::int64_t n = -1;
  int block = 0;
  CHECK(parse({"--n", "2^24", "--block", "2^8"}, n, block).first == 0);
  CHECK(n == (std::int64_t{1} << 24));
  CHECK(block == 256);
  CHECK(parse({"--n", "1e6"}, n, block).first == 0);
  CHECK(n == 1000000);
  const auto unread = parse({"--n", "2^x"}, n, block);
  CHECK(unread.first == 2);
  CHECK(unread.second.find("error: --n: cannot read '2^x' as a size") == 0);
  const auto large = parse({"--n", "2^41"}, n, block);
  CHECK(large.first == 2);
  CHECK(large.second.find("error: --n: 2^41 is more than 2^40") == 0);
  CHECK(parse({"--block", "2^31"}, n, block).first == 2);
  wb::common_options o;
  CHECK_FALSE(o.reps_given);
  CHECK(run_cli({"--reps", "3"}, o).code == 0);
  CHECK(o.reps_given);
}

TEST_CASE("--input and --input-file: an empty list is an input; the two exclude each other; --n does not go with them") {
  const auto parse = [](std::vector<std::string> words, wb::input_options& input) {
    wb::common_options options;
    return run_cli(words, options, [] { return 0; },
                   [&](CLI::App& app) { wb::add_input_options(app, input, "items", "a file of items"); })
        .code;
  };
  wb::input_options none;
  CHECK(parse({}, none) == 0);
  CHECK_FALSE(none.given());
  wb::input_options empty;
  CHECK(parse({"--input", ""}, empty) == 0);
  CHECK(empty.given());
  CHECK(wb::read_input<int>(empty, false).empty());
  CHECK(empty.source() == "--input");
  wb::input_options list;
  CHECK(parse({"--input", "3,1,2"}, list) == 0);
  CHECK(wb::read_input<int>(list, false) == std::vector<int>{3, 1, 2});
  CHECK_THROWS_WITH_AS(wb::read_input<int>(list, true), "--n and --input/--input-file: the input sets n", wb::usage_error);
  const std::string path = temp_file("wb_input", "# nothing\n");
  wb::input_options file;
  CHECK(parse({"--input-file", path}, file) == 0);
  CHECK(file.given());
  CHECK(file.source() == path);
  CHECK(wb::read_input<std::int8_t>(file, false).empty());
  std::filesystem::remove(path);
  wb::input_options both;
  CHECK(parse({"--input", "1", "--input-file", "x"}, both) == 2);
}
