// Stage 0's translation unit: the merge you write is in sequential.cuh (host and device code).
#include "sequential.cuh"

#include "sequential_host.inl"  // the host side of stage 0, shared by both tracks
