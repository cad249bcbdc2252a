// Stage 0: the sequential scan, the specification every kernel must match (PMPP §11.1).
#include <cstdint>
#include <span>
#include <stdexcept>

#include "scan.hpp"

namespace scan::WB_TRACK {

template <class T>
void scan_sequential(std::span<const T> in, std::span<T> out, bool exclusive) {
  if (out.size() != in.size()) throw std::invalid_argument("scan_sequential: out must have in's size");
  // TODO(scan/0): the running total of in (PMPP §11.1), inclusive or exclusive; integers
  // wrap, so add with scan::plus.
}

template void scan_sequential<std::int32_t>(std::span<const std::int32_t>, std::span<std::int32_t>, bool);
template void scan_sequential<std::int64_t>(std::span<const std::int64_t>, std::span<std::int64_t>, bool);
template void scan_sequential<float>(std::span<const float>, std::span<float>, bool);

}  // namespace scan::WB_TRACK
