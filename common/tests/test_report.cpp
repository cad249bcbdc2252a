// wb/report.hpp: the numbers in the table, the CSV and the JSON.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "wb/report.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

namespace {

wb::timing make_timing(std::vector<double> samples, double median) {
  wb::timing t;
  t.samples_ms = samples;
  t.median_ms = median;
  t.min_ms = *std::min_element(samples.begin(), samples.end());
  t.max_ms = *std::max_element(samples.begin(), samples.end());
  return t;
}

// Library at 2 ms, a stage at 1 ms moving 4 GB (4000 GB/s, 80% of a 5000 GB/s copy, 2.00x
// the library), a failed stage, and one that did not run.
wb::report sample_report() {
  wb::report r("merge of 10^6 int32", 5000.0);
  r.add({"cub::DeviceMerge", make_timing({2.0, 2.5, 1.9}, 2.0), 4e9, 1e6, true, true, ""});
  r.add({"6 at-bandwidth", make_timing({1.0, 1.5, 0.5}, 1.0), 4e9, 1e6, true, false, ""});
  r.add({"5 wrong", make_timing({4.0}, 4.0), 4e9, 1e6, false, false, "mismatch, \"at\" 17"});
  r.add({"7 todo", std::nullopt, 0, 0, false, false, "not implemented yet"});
  return r;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + "." + std::to_string(getpid()))).string();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A small strict JSON checker (RFC 8259 grammar), enough to prove the file parses.
struct json_checker {
  const std::string& s;
  std::size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  bool lit(const char* word) {
    const std::string w = word;
    if (s.compare(i, w.size(), w) != 0) return false;
    i += w.size();
    return true;
  }
  bool string() {
    if (s[i] != '"') return false;
    for (++i; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"') {
        ++i;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        ++i;
        if (i >= s.size()) return false;
        if (s[i] == 'u') {
          for (int k = 0; k < 4; ++k)
            if (++i >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
        } else if (std::string("\"\\/bfnrt").find(s[i]) == std::string::npos) {
          return false;
        }
      }
    }
    return false;
  }
  bool number() {
    const std::size_t start = i;
    if (s[i] == '-') ++i;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    if (s[i] == '0') {
      ++i;
    } else {
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    }
    return i > start;
  }
  bool value() {
    ws();
    if (i >= s.size()) return false;
    bool ok = false;
    if (s[i] == '{') {
      ++i;
      ws();
      if (s[i] == '}') {
        ++i;
        ok = true;
      } else {
        while (true) {
          ws();
          if (!string()) return false;
          ws();
          if (s[i++] != ':') return false;
          if (!value()) return false;
          ws();
          if (s[i] == ',') {
            ++i;
            continue;
          }
          if (s[i] == '}') {
            ++i;
            ok = true;
          }
          break;
        }
      }
    } else if (s[i] == '[') {
      ++i;
      ws();
      if (s[i] == ']') {
        ++i;
        ok = true;
      } else {
        while (true) {
          if (!value()) return false;
          ws();
          if (s[i] == ',') {
            ++i;
            continue;
          }
          if (s[i] == ']') {
            ++i;
            ok = true;
          }
          break;
        }
      }
    } else if (s[i] == '"') {
      ok = string();
    } else if (s[i] == 't') {
      ok = lit("true");
    } else if (s[i] == 'f') {
      ok = lit("false");
    } else if (s[i] == 'n') {
      ok = lit("null");
    } else {
      ok = number();
    }
    ws();
    return ok;
  }
  bool document() { return value() && i == s.size(); }
};

bool valid_json(const std::string& text) {
  json_checker checker{text};
  return checker.document();
}

}  // namespace

TEST_CASE("the JSON checker used below rejects broken JSON") {
  CHECK(valid_json("{\"a\": [1, -2.5e3, true, null, \"x\\n\\u0001\"]}"));
  CHECK_FALSE(valid_json("{\"a\": [1, 2,]}"));
  CHECK_FALSE(valid_json("{\"a\": nan}"));
  CHECK_FALSE(valid_json("{\"a\": \"tab\there\"}"));
  CHECK_FALSE(valid_json("{\"a\": 1} x"));
}

TEST_CASE("report: verified means every row that ran was verified") {
  CHECK_FALSE(sample_report().all_verified());
  wb::report ok("t", 0);
  ok.add({"a", make_timing({1.0}, 1.0), 1, 0, true, false, ""});
  ok.add({"b", std::nullopt, 0, 0, false, false, "refused: n too large"});
  CHECK(ok.all_verified());
}

TEST_CASE("report table: GB/s, % of copy, ratio to the baseline, verified") {
  const std::string text = sample_report().to_text();
  CAPTURE(text);
  CHECK(text.find("merge of 10^6 int32") != std::string::npos);
  CHECK(text.find("vs cub::DeviceMerge") != std::string::npos);
  CHECK(text.find("min–max ms") != std::string::npos);
  const auto lines = split_lines(text);
  auto row = [&](const std::string& stage) {
    for (const auto& l : lines)
      if (l.rfind(stage, 0) == 0) return l;
    return std::string();
  };
  const std::string fast = row("6 at-bandwidth");
  CHECK(fast.find("4000.0") != std::string::npos);   // GB/s
  CHECK(fast.find("80.0%") != std::string::npos);    // of copy
  CHECK(fast.find("2.00x") != std::string::npos);    // vs the library
  CHECK(fast.find("1.00 G/s") != std::string::npos); // items/s
  CHECK(fast.find("yes") != std::string::npos);
  CHECK(fast.find("0.500–1.50") != std::string::npos);
  CHECK(row("cub::DeviceMerge").find("1.00x") != std::string::npos);
  CHECK(row("5 wrong").find("NO") != std::string::npos);
  CHECK(row("5 wrong").find("0.50x") != std::string::npos);
  const std::string todo = row("7 todo");
  CHECK(todo.find("not implemented yet") != std::string::npos);
  CHECK(todo.find(" - ") != std::string::npos);
  if constexpr (!wb::backend_is_cuda) {
    CHECK(text.find("timings emulated on the cpu backend: meaningless for a GPU") != std::string::npos);
  } else {
    CHECK(text.find("emulated") == std::string::npos);
  }
  // Columns line up: every row is as wide as the header up to the note column.
  wb::report no_baseline("t", 0);
  no_baseline.add({"x", make_timing({1.0}, 1.0), 0, 0, true, false, ""});
  const std::string plain = no_baseline.to_text();
  CHECK(plain.find("vs ") == std::string::npos);
  CHECK(plain.find("items/s") == std::string::npos);
}

TEST_CASE("report CSV: header, one line per row, quoted notes, empty cells for what did not run") {
  const auto path = temp_path("wb_report.csv");
  sample_report().write_csv(path);
  const auto lines = split_lines(read_all(path));
  std::filesystem::remove(path);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] ==
        "title,backend,stage,median_ms,min_ms,max_ms,reps,bytes,items,gb_per_s,pct_of_copy,copy_gb_per_s,baseline,"
        "vs_baseline,items_per_s,verified,is_baseline,note");
  const std::string backend = wb::backend_name;
  CHECK(lines[1] == "merge of 10^6 int32," + backend +
                        ",cub::DeviceMerge,2,1.9,2.5,3,4000000000,1000000,2000,40,5000,cub::DeviceMerge,1,500000000,yes,yes,");
  CHECK(lines[2] == "merge of 10^6 int32," + backend +
                        ",6 at-bandwidth,1,0.5,1.5,3,4000000000,1000000,4000,80,5000,cub::DeviceMerge,2,1000000000,yes,no,");
  CHECK(lines[3].find(",NO,no,\"mismatch, \"\"at\"\" 17\"") != std::string::npos);
  CHECK(lines[4] == "merge of 10^6 int32," + backend + ",7 todo,,,,,0,0,,,5000,cub::DeviceMerge,,,-,no,not implemented yet");
}

TEST_CASE("report JSON: valid, escaped, with every sample and null for what did not run") {
  const auto path = temp_path("wb_report.json");
  wb::report r = sample_report();
  r.add({"odd \"name\"\\\n\ttab\x01", make_timing({0.25}, 0.25), 0, 0, true, false, ""});
  r.write_json(path);
  const std::string json = read_all(path);
  std::filesystem::remove(path);
  CAPTURE(json);
  CHECK(valid_json(json));
  CHECK(json.find("\"samples_ms\": [2, 2.5, 1.9]") != std::string::npos);
  CHECK(json.find("\"baseline\": \"cub::DeviceMerge\"") != std::string::npos);
  CHECK(json.find("\"stage\": \"odd \\\"name\\\"\\\\\\n\\ttab\\u0001\"") != std::string::npos);
  CHECK(json.find("\"stage\": \"7 todo\", \"ran\": false, \"median_ms\": null") != std::string::npos);
  CHECK(json.find("\"verified\": null") != std::string::npos);
  CHECK(json.find("\"vs_baseline\": 2,") != std::string::npos);
  CHECK(json.find(std::string("\"timings_emulated\": ") + (wb::backend_is_cuda ? "false" : "true")) !=
        std::string::npos);
  wb::report empty("nothing", 0);
  const auto empty_path = temp_path("wb_empty.json");
  empty.write_json(empty_path);
  const std::string empty_json = read_all(empty_path);
  std::filesystem::remove(empty_path);
  CHECK(valid_json(empty_json));
  CHECK(empty_json.find("\"copy_gb_per_s\": null") != std::string::npos);
}

TEST_CASE("report files: an unwritable path is an error, not silence") {
  CHECK_THROWS(sample_report().write_csv("/no/such/folder/r.csv"));
  CHECK_THROWS(sample_report().write_json("/no/such/folder/r.json"));
}
