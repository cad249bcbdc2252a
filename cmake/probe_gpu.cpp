// Configure-time probe: exits 0 and prints the GPU's name when a CUDA GPU answers.
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    std::printf("cudaGetDeviceCount: %s", cudaGetErrorString(err));
    return 1;
  }
  if (count == 0) {
    std::printf("no CUDA device");
    return 1;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("cudaGetDeviceProperties failed");
    return 1;
  }
  std::printf("%s, compute capability %d.%d", prop.name, prop.major, prop.minor);
  return 0;
}
