// Which failure a stage shows, and the order its failing cases are listed in: a named
// pitfall's failure (a test case named after a defect id, "M7: ...", or a race, "race: ...")
// says what is wrong most directly, so it comes first; when the race check stopped a launch,
// the stage's race: case comes before the rest, since every case that runs the stage fails on
// that same race.
#include <algorithm>
#include <cctype>

#include "internal.hpp"

namespace wb::test_main {
namespace {

// A test case named after a pitfall: a defect id ("M7: ...", "SO1: ...", "R6 (new): ...") or
// a race the chapter teaches ("race: ..."). Its failure says what is wrong most directly.
bool names_a_pitfall(const std::string& name) {
  std::size_t i = name.rfind("[gpu] ", 0) == 0 ? 6 : 0;
  if (name.compare(i, 5, "race:") == 0) return true;
  const std::size_t letters = i;
  while (i < name.size() && std::isupper(static_cast<unsigned char>(name[i]))) ++i;
  if (i == letters || i - letters > 3) return false;
  const std::size_t digits = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return i > digits && (i == name.size() || name[i] == ':' || name[i] == ' ');
}

}  // namespace

void choose_failure_shown(stage_result& result, const std::vector<case_failure>& failures,
                          std::vector<std::string> failing) {
  const bool raced = std::any_of(failures.begin(), failures.end(), [](const case_failure& f) {
    return f.message.find("data race on ") != std::string::npos || f.check.find("data race on ") != std::string::npos;
  });
  const auto rank = [raced](const std::string& name) {
    if (raced && name.rfind("race:", 0) == 0) return 0;
    return names_a_pitfall(name) ? 1 : 2;
  };
  const auto case_rank = [&rank](const case_failure& f) { return rank(f.failed_case.substr(0, f.failed_case.find(" / "))); };
  const auto shown = std::min_element(failures.begin(), failures.end(), [&case_rank](const case_failure& a, const case_failure& b) {
    return case_rank(a) < case_rank(b);
  });
  if (!failures.empty()) {
    const case_failure& f = *shown;
    result.message = f.message;
    result.where = f.where;
    result.check = f.check;
    result.contexts = f.contexts;
    result.failed_case = f.failed_case;
  }
  std::stable_sort(failing.begin(), failing.end(),
                   [&rank](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  result.failed_cases = failing;
}

}  // namespace wb::test_main
