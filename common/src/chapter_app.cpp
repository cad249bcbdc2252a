// The chapter app (wb/chapter_app.hpp): the options every chapter declares, and the checks
// they all need after parsing.
#include "wb/chapter_app.hpp"

#include <stdexcept>
#include <utility>

namespace wb {

chapter_app::chapter_app(std::string description, common_options& common)
    : app_(std::move(description)), common_(common) {
  add_common_options(app_, common_);
}

CLI::Option* chapter_app::size(const std::string& flag, std::int64_t& value, const std::string& help,
                               std::uint64_t max) {
  return add_size_option(app_, flag, value, help, max);
}

CLI::Option* chapter_app::size(const std::string& flag, std::int64_t& value, const std::string& help,
                               std::uint64_t max, backend_default fallback) {
  const std::string with_default =
      fmt::format("{} (default: {} on a GPU, {} on the cpu backend)", help,
                  size_text(static_cast<std::uint64_t>(fallback.gpu)), size_text(static_cast<std::uint64_t>(fallback.cpu)));
  return add_size_option(app_, flag, value, with_default, max);
}

CLI::Option* chapter_app::choice(const std::string& flag, std::string& value, std::vector<std::string> names,
                                 const std::string& help) {
  return app_.add_option(flag, value, help)->check(CLI::IsMember(std::move(names)))->capture_default_str();
}

void chapter_app::input(input_options& input, const std::string& list_help, const std::string& file_help) {
  add_input_options(app_, input, list_help, file_help);
}

void chapter_app::trace(bool& trace, std::string* svg, const std::string& trace_help, const std::string& svg_help) {
  app_.add_flag("--trace", trace, trace_help);
  if (svg == nullptr) return;
  app_.add_option("--svg", *svg, svg_help);
  after_parse_.push_back([this, &trace, svg] {
    if (!given("--svg")) return;
    if (!trace) throw usage_error("--svg draws what --trace shows: give --trace too");
    if (svg->empty()) throw usage_error("--svg: give the file to write");
    require_writable_file(*svg, "--svg");
  });
}

void chapter_app::validate(std::function<void()> check, std::string flags) {
  after_parse_.push_back([check = std::move(check), flags = std::move(flags)] {
    try {
      check();
    } catch (const std::invalid_argument& e) {
      throw usage_error(flags.empty() ? std::string(e.what()) : flags + ": " + e.what());
    }
  });
}

void chapter_app::common_checks(std::span<const stage> stages) {
  for (const auto& step : after_parse_) step();
  require_known_stages(common_.stages, stages);
}

}  // namespace wb
