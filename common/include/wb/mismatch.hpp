// Where two outputs first differ, as a message a learner can act on ("at index 17: expected 5,
// got 6"): used by the chapter executables and, through wb/testing.hpp, by the checks.
#pragma once

#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace wb {

// Writes one element for a message: 8-bit integers as numbers (not characters), floating
// point with enough digits to tell neighbours apart.
template <class T>
void write_element(std::ostream& out, const T& value) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 1) {
    out << +value;
  } else if constexpr (std::is_floating_point_v<T>) {
    const auto old = out.precision(std::numeric_limits<T>::max_digits10);
    out << value;
    out.precision(old);
  } else {
    out << value;
  }
}

// First index where two sequences differ: "at index 17: expected 5, got 6" (or the size
// mismatch); nothing when they are equal (element by element, with ==).
template <class T>
std::optional<std::string> first_mismatch(const std::vector<T>& expected, const std::vector<T>& got) {
  if (expected.size() != got.size()) {
    std::ostringstream out;
    out << "size mismatch: expected " << expected.size() << " elements, got " << got.size();
    return out.str();
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(expected[i] == got[i])) {
      std::ostringstream out;
      out << "at index " << i << ": expected ";
      write_element(out, static_cast<T>(expected[i]));
      out << ", got ";
      write_element(out, static_cast<T>(got[i]));
      return out.str();
    }
  }
  return std::nullopt;
}

}  // namespace wb
