// wb/device_info.hpp: the device line.
#include <string>

#include "wb/device_info.hpp"
#include "wb/runtime.hpp"
#include "wb/testing.hpp"

TEST_CASE("the device line says where kernels run") {
  const std::string line = wb::device_description();
  CHECK(line.find('\n') == std::string::npos);
  if constexpr (wb::backend_is_cuda) {
    if (wb::gpu_available()) {
      CHECK(line.rfind("GPU ", 0) == 0);
      CHECK(line.find(" SMs") != std::string::npos);
      CHECK(line.find("GiB") != std::string::npos);
      CHECK(line.find("MHz") != std::string::npos);
    } else {
      CHECK(line.rfind("no CUDA GPU available (cudaGetDeviceCount", 0) == 0);
      CHECK(line.find("-DWB_BACKEND=cpu") != std::string::npos);
    }
  } else {
    CHECK_FALSE(wb::gpu_available());
    CHECK(line.rfind("cpu backend: kernels run on the fiber emulator", 0) == 0);
    CHECK(line.find("hardware threads") != std::string::npos);
    CHECK(line.find("timings are emulated") != std::string::npos);
  }
}

TEST_CASE("gpu_present agrees with gpu_available") {
  CHECK(wb::testing::gpu_present() == wb::gpu_available());
}

WB_GPU_TEST_CASE("a GPU is present when GPU test cases run") {
  CHECK(wb::testing::gpu_present());
  CHECK(wb::device_description().rfind("GPU ", 0) == 0);
}
