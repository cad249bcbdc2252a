// The library the stages are compared with: ncclAllReduce, one group for every rank (the report's
// baseline row). Where the build has NCCL (the cpu backend's is the emulator's).
#pragma once

#include "allreduce.hpp"

namespace allreduce::baseline {

template <class T>
void nccl_allreduce(team& t, const buffers<T>& b);

}  // namespace allreduce::baseline
