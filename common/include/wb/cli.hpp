// Command-line handling shared by the chapter executables: the options added to a CLI11 app,
// and the main body's error handling. The values themselves are read and checked by
// wb/arguments.hpp, which this includes.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "wb/arguments.hpp"

namespace wb {

// Adds --seed --reps --stage --track --compare --print --csv --json.
void add_common_options(CLI::App& app, common_options& options);

// Runs a chapter's main body with uniform error handling:
//   CLI11 parse errors and wb::usage_error -> message, exit 2;
//   wb::cuda_error and other exceptions    -> message, exit 1.
int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& body);

// The CLI11 transform behind add_size_option: reads the size syntax, refuses sizes above
// `max` ("--n: 2^41 is more than 2^40"), and hands the digits on to the option's own type.
CLI::Validator size_syntax(std::uint64_t max);
// Adds a size option (see parse_size) for an integer variable, at most `max`.
template <class T>
CLI::Option* add_size_option(CLI::App& app, const std::string& name, T& value, const std::string& description,
                             std::uint64_t max = static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
  return app.add_option(name, value, description)->transform(size_syntax(max))->type_name("SIZE");
}

// Adds both (they exclude each other), with the chapter's words for them.
void add_input_options(CLI::App& app, input_options& input, const std::string& list_help, const std::string& file_help);

}  // namespace wb
