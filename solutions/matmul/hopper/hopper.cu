// Stage 6's translation unit: the kernels (hopper.cuh) and the host side both tracks
// share (hopper_host.inl, in chapters/matmul/).
#include "hopper.cuh"

#include "hopper_host.inl"
