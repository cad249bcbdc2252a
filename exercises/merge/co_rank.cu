// Stage 1's translation unit: the search you write is in co_rank.cuh (host and device code).
#include "wb/kernel.hpp"

#include "co_rank.cuh"
#include "merge.hpp"
#include "output_ranges.cuh"

#include "co_rank_host.inl"  // the host side of stage 1, shared by both tracks
