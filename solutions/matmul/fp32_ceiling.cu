// Stage 4's translation unit: the kernels (fp32_ceiling.cuh) and the host side both tracks
// share (fp32_ceiling_host.inl, in chapters/matmul/).
#include "fp32_ceiling.cuh"

#include "fp32_ceiling_host.inl"
