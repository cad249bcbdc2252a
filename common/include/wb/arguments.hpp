// The command line's values, read and checked: sizes (2^20, 1e9), lists, files of numbers, the
// memory a run needs, the stage selection, and the error a user's bad input raises. No CLI11
// here (wb/cli.hpp adds the options to a CLI11 app): code that only checks what it was given
// includes this one, and leaves CLI11's header to the translation units that parse.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "wb/stage.hpp"

namespace wb {

// Bad input from the user: printed as "error: <message>" and exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct common_options {
  std::uint64_t seed = 42;
  int reps = 20;                      // timed repetitions (median reported)
  bool reps_given = false;            // --reps was on the command line (else the driver may use fewer)
  std::vector<std::string> stages;    // --stage a,b (ids or numbers); empty: all
  std::string track = "solution";     // --track solution|exercise
  bool compare = false;               // --compare: learner's stage vs the solution's
  bool print = false;                 // --print: each stage's output on one line
  std::string csv;                    // --csv FILE
  std::string json;                   // --json FILE
};

// Sizes on the command line, one syntax for every size flag (--n, --m, --distinct, --chunk,
// --block, ...): a whole number written as digits (1048576), a power (2^20, 10^9) or in
// scientific notation (1e9, 1.5e6). Text that is none of these is a usage_error naming it as
// unread ("--n: cannot read '2^x' as a size (...)"); a size past 2^64 - 1 is "too large".
std::uint64_t parse_size(const std::string& text, const std::string& flag);
// "2^20" for powers of two from 2^10 on, else the digits: how messages and help show a size.
std::string size_text(std::uint64_t size);

// Refuses (wb::usage_error) a run that needs more device or host memory than there is:
// device_bytes against the free device memory (cudaMemGetInfo), host_bytes against the
// machine's physical memory (on the cpu backend "device" memory is host memory too, so the
// two are added). `what` names the run in the message ("merge of 2^34 int32").
void require_memory(std::uint64_t device_bytes, std::uint64_t host_bytes, const std::string& what);
// count * element_bytes, or a usage_error naming `what` when that overflows 64 bits.
std::uint64_t bytes_for(std::uint64_t count, std::uint64_t element_bytes, const std::string& what);

// "1,3,5" -> {1,3,5}; a malformed or out-of-range number is a usage_error naming it (and
// `what`, e.g. "--sizes"). "" (or only spaces) is an explicit empty list: {}. Whether an
// option was given at all is CLI11's app.count("--a"), never the emptiness of its text.
// Spaces around items are allowed; empty items ("1,,2", "1,") and
// trailing junk ("3x") are not; int8_t/uint8_t are numbers, not characters; floating-point
// values must be finite. Instantiated for every standard integer type, float and double.
template <class T>
std::vector<T> parse_list(const std::string& text, const std::string& what);
// Whitespace-separated numbers from a file ('#' starts a comment to the end of the line); an
// empty or comment-only file is an empty input. A missing or unreadable file or a bad number
// (with its line) is a usage_error.
template <class T>
std::vector<T> read_numbers_file(const std::string& path);

// --input LIST and --input-file FILE: the items themselves, on the command line or in a file
// (an empty list or a file with no numbers is an empty input, never replaced by generated data).
struct input_options {
  std::string list;  // --input
  std::string file;  // --input-file
  bool list_given = false;
  bool file_given = false;
  bool given() const { return list_given || file_given; }
  std::string source() const { return list_given ? "--input" : file; }  // for the report's title
};
// The items of --input (parse_list) or --input-file (read_numbers_file); `size_flag` ("--n") is
// refused beside them when `size_given`: the input sets the size.
template <class T>
std::vector<T> read_input(const input_options& input, bool size_given, const std::string& size_flag = "--n");

// --print writes every element on one line: refused (usage_error, before any work) for an
// input of more than max_print_elements elements. `what` names it ("the merge of A and B").
inline constexpr std::uint64_t max_print_elements = 100000;
void require_printable(std::uint64_t elements, const std::string& what);

// An output file named on the command line (--svg FILE): refused (usage_error, before any
// work) when it is a folder, its folder does not exist, or it cannot be written there.
// `flag` names the option in the message. Creates nothing.
void require_writable_file(const std::string& path, const std::string& flag);

// Does the --stage selection pick the stage with this number and id? Empty selects all.
// `id` is the stage's id with or without the chapter prefix ("merge/2 basic" or "basic");
// an item selects it as its number ("2"), its name ("basic"), both ("2-basic", "2 basic",
// "2_basic") or the full id ("merge/2 basic", "merge/2"). Case, '-', '_' and ' ' don't matter.
bool stage_selected(const std::vector<std::string>& selection, int number, const std::string& id);
// A usage_error for a --stage item that selects none of these (number, id) stages; the
// message lists the stages there are.
void require_known_stages(const std::vector<std::string>& selection,
                          const std::vector<std::pair<int, std::string>>& stages);
// The same for a chapter's stage table (stages.hpp).
void require_known_stages(const std::vector<std::string>& selection, std::span<const stage> stages);

}  // namespace wb
