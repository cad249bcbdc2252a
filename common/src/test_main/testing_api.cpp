// wb::testing (wb/testing.hpp): the run's seed, the stage registry, GPU presence, the stage in
// reach of a suite, the fixed scheduling orders.
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "internal.hpp"
#include "wb/device_info.hpp"
#include "wb/generate.hpp"
#include "wb/runtime.hpp"

namespace wb::testing {
namespace {

std::uint64_t choose_seed() {
  if (const char* text = std::getenv("WB_TEST_SEED"); text != nullptr && *text != '\0') {
    std::uint64_t value = 0;
    const char* end = text + std::strlen(text);
    const auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec != std::errc{} || ptr != end) usage_exit(fmt::format("WB_TEST_SEED='{}' is not a non-negative integer", text));
    return value;
  }
  // Fresh data every run; 32 bits so the number is easy to copy.
  std::random_device device;
  const auto mixed = static_cast<std::uint64_t>(device()) ^
                     static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                     (static_cast<std::uint64_t>(getpid()) << 16);
  return wb::gen::rng(mixed).next() & 0xFFFFFFFFull;
}

}  // namespace

void usage_exit(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(2);
}

std::vector<stage_info>& registry() {
  static std::vector<stage_info> stages;
  return stages;
}

std::string& current_suite() {
  static std::string suite;
  return suite;
}

std::uint64_t run_seed() {
  static const std::uint64_t value = choose_seed();
  return value;
}

std::uint64_t seed(std::uint64_t salt) {
  return wb::gen::rng(run_seed() ^ (salt * 0x9E3779B97F4A7C15ull) ^ 0x5851F42D4C957F2Dull).next();
}

bool register_stages(const stage_info* stages, std::size_t count) {
  registry().insert(registry().end(), stages, stages + count);
  return true;
}

bool register_stages(std::span<const wb::stage> stages) {
  for (const auto& s : stages) registry().push_back({s.suite, s.title, s.section, s.hints[0]});
  return true;
}

std::string wb_command() {
  const char* command = std::getenv("WB_COMMAND");
  return command != nullptr && *command != '\0' ? command : "./wb";
}

bool gpu_present() {
  if constexpr (wb::backend_is_cuda) {
    return wb::gpu_available();
  } else {
    return false;
  }
}

void expect_stage_in_reach(int stage) {
  // "chapter/N title": N is the stage this suite checks.
  const std::string& suite = current_suite();
  const auto slash = suite.find('/');
  if (slash == std::string::npos) return;
  std::size_t end = slash + 1;
  while (end < suite.size() && suite[end] >= '0' && suite[end] <= '9') ++end;
  if (end == slash + 1) return;
  const int at = std::stoi(suite.substr(slash + 1, end - slash - 1));
  if (stage > at) {
    throw std::logic_error(fmt::format(
        "test suite \"{}\" runs stage {}: a learner checking stage {} has not written stage {} yet (check it in "
        "that stage's suite)",
        suite, stage, at, stage));
  }
}

void under_fixed_orders(const std::function<void(const char* order)>& f) {
#if defined(WB_BACKEND_CPU)
  // The order this run started with comes back also when f throws (a REQUIRE that fails).
  struct restore_order {
    std::string saved = wb::cpu::schedule_order_name();
    ~restore_order() { wb::cpu::set_schedule_order(saved); }
  } restore;
  for (const char* order : {"in-order", "reverse"}) {
    wb::cpu::set_schedule_order(order);
    f(order);
  }
#else
  f("the GPU's");
#endif
}

}  // namespace wb::testing
