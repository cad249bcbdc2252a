// The state of every stage and the next stage to do (see stage_states.hpp).
#include "stage_states.hpp"

#include <fmt/format.h>

#include "build.hpp"
#include "git_state.hpp"

namespace wbtool {
namespace {

state state_of(const check_result& r) {
  if (r.status == "pass") return state::done;
  if (r.status == "skipped") return state::needs_gpu;
  if (r.status == "empty") return state::no_checks;
  return state::failing;
}

bool to_do(const stage_state& s) {
  return s.st == state::failing || s.st == state::not_started || s.st == state::not_built;
}

}  // namespace

const char* state_word(state s) {
  switch (s) {
    case state::done: return "done";
    case state::failing: return "failing";
    case state::not_started: return "not started";
    case state::needs_gpu: return "needs a GPU";
    case state::no_checks: return "no checks";
    case state::not_built: return "not built";
  }
  return "?";
}

std::vector<stage_state> survey(bool build_first) {
  std::vector<stage_state> states;
  for (const auto& chapter : chapters) {
    const bool built = !build_first || build({fmt::format("{}_exercise_tests", chapter.name)});
    std::vector<std::string> to_run;
    for (const auto& s : chapter.stages) {
      stage_state st{{&chapter, &s}, state::not_started, {}};
      if (!built) st.st = state::not_built;
      else if (untouched(st.ref) != std::optional<bool>(true)) to_run.push_back(st.ref.id());
      states.push_back(st);
    }
    if (to_run.empty()) continue;
    const auto results = run_checks(chapter, to_run);
    for (auto& st : states) {
      if (st.ref.chapter != &chapter) continue;
      const auto it = results.find(st.ref.id());
      if (it == results.end()) continue;
      st.result = it->second;
      st.st = state_of(it->second);
    }
  }
  return states;
}

const stage_state* next_to_do(const std::vector<stage_state>& states) {
  std::size_t from = 0;
  if (const auto touched = last_touched()) {
    while (from < states.size() && states[from].ref.stage != touched->stage) ++from;
    if (from == states.size()) from = 0;
  }
  for (std::size_t i = from; i < states.size(); ++i) {
    if (to_do(states[i])) return &states[i];
  }
  for (std::size_t i = 0; i < from; ++i) {
    if (to_do(states[i])) return &states[i];
  }
  return nullptr;
}

std::optional<stage_ref> next_stage() {
  const auto states = survey(true);
  const stage_state* next = next_to_do(states);
  if (next == nullptr) return std::nullopt;
  return next->ref;
}

}  // namespace wbtool
