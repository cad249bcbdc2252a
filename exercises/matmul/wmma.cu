// Stage 5's translation unit: the kernels (wmma.cuh) and the host side both tracks
// share (wmma_host.inl, in chapters/matmul/).
#include "wmma.cuh"

#include "wmma_host.inl"
