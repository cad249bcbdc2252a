// The library a user would pick instead of this chapter's kernels: cub::DeviceMerge
// (cuda backend only: built when WB_HAVE_BASELINE is defined).
#pragma once

#include <cstddef>

#include "merge.hpp"

namespace merge::baseline {

// Temporary storage cub_merge needs for this problem (keys only or key-value).
template <class K>
std::size_t cub_temp_bytes(const problem<K>& device);
// cub::DeviceMerge::MergeKeys (or MergePairs when the problem has values), default stream.
template <class K>
void cub_merge(const problem<K>& device, void* temp, std::size_t temp_bytes);

}  // namespace merge::baseline
