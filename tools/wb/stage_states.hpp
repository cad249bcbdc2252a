// The state of every stage (done / failing / not started, ...) and the next stage to do: what
// `wb list` shows and where `wb check` and `wb watch` start without a stage.
#pragma once

#include <optional>
#include <vector>

#include "stage_checks.hpp"
#include "stages.hpp"

namespace wbtool {

enum class state { done, failing, not_started, needs_gpu, no_checks, not_built };

struct stage_state {
  stage_ref ref;
  state st = state::not_started;
  check_result result;  // when it ran
};

// "done", "failing", "not started", ...
const char* state_word(state s);

// Every stage of the build, in order. Untouched stages are "not started" without running them
// (their stubs fail by design); the others, or all of them outside a git checkout, run their
// checks (after building each chapter's exercise tests when build_first).
std::vector<stage_state> survey(bool build_first);

// The next stage to do: the first that is not done (and can be checked here) from the stage
// whose files the learner changed last, the one they are working on; with none changed (or
// every stage from there done), the first that is not done. Null when every stage is done.
const stage_state* next_to_do(const std::vector<stage_state>& states);

// The next stage to do, as `wb list` finds it; nullopt when every stage is done.
std::optional<stage_ref> next_stage();

}  // namespace wbtool
