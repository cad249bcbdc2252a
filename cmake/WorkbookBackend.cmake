# Chooses the backend for this build directory and tells the user why.
#
#   -DWB_BACKEND=auto (default)  cuda if a CUDA compiler exists and a GPU answers, else cpu
#   -DWB_BACKEND=cuda            kernels compiled by nvcc for the GPU (works without a GPU:
#                                it then only compiles; running needs one)
#   -DWB_BACKEND=cpu             the same kernel sources compiled by the host compiler and
#                                run by the fiber emulator in common/cpu (no CUDA needed)
#
# GPU architecture (cuda backend): CMAKE_CUDA_ARCHITECTURES, default "native" (the GPU found
# here) when a GPU answers, else 90 (Hopper: H100/H200).
include(CheckLanguage)

set(WB_BACKEND "auto" CACHE STRING "Kernel backend: auto, cuda or cpu")
set_property(CACHE WB_BACKEND PROPERTY STRINGS auto cuda cpu)

set(_wb_requested "${WB_BACKEND}")
set(_wb_gpu_found FALSE)
set(_wb_reason "")

if(NOT _wb_requested MATCHES "^(auto|cuda|cpu)$")
  message(FATAL_ERROR "WB_BACKEND must be auto, cuda or cpu (got '${_wb_requested}')")
endif()

if(NOT _wb_requested STREQUAL "cpu")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Ask the driver whether a GPU is there: a tiny host program linked with cudart.
    get_filename_component(_wb_cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    get_filename_component(_wb_cuda_root "${_wb_cuda_bin}" DIRECTORY)
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND)
      try_run(_wb_probe_run _wb_probe_compile
        SOURCES "${CMAKE_CURRENT_LIST_DIR}/probe_gpu.cpp"
        LINK_LIBRARIES CUDA::cudart
        RUN_OUTPUT_VARIABLE _wb_probe_out
        COMPILE_OUTPUT_VARIABLE _wb_probe_compile_out)
      string(STRIP "${_wb_probe_out}" _wb_probe_out)
      if(_wb_probe_compile AND _wb_probe_run EQUAL 0)
        set(_wb_gpu_found TRUE)
        set(_wb_reason "GPU found: ${_wb_probe_out}")
      elseif(_wb_probe_compile)
        set(_wb_reason "CUDA compiler found, but no usable GPU (${_wb_probe_out})")
      else()
        set(_wb_reason "CUDA compiler found, but a cudart test program did not build")
      endif()
    else()
      set(_wb_reason "CUDA compiler found, but not the CUDA runtime library")
    endif()
  else()
    set(_wb_reason "no CUDA compiler (nvcc) found")
  endif()
endif()

if(_wb_requested STREQUAL "auto")
  if(_wb_gpu_found)
    set(WB_BACKEND_RESOLVED cuda)
  else()
    set(WB_BACKEND_RESOLVED cpu)
  endif()
elseif(_wb_requested STREQUAL "cuda")
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "WB_BACKEND=cuda but ${_wb_reason}. Install the CUDA toolkit or use -DWB_BACKEND=cpu.")
  endif()
  set(WB_BACKEND_RESOLVED cuda)
else()
  set(WB_BACKEND_RESOLVED cpu)
  set(_wb_reason "asked for with -DWB_BACKEND=cpu")
endif()

# From here on WB_BACKEND is the resolved choice (the cache keeps what the user asked for).
set(WB_BACKEND "${WB_BACKEND_RESOLVED}")
set(WB_GPU_FOUND_AT_CONFIGURE ${_wb_gpu_found})

if(WB_BACKEND STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
    if(_wb_gpu_found)
      set(CMAKE_CUDA_ARCHITECTURES native)
    else()
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
  endif()
  # CMake 3.25 does not know nvcc 13's C++20 flag yet; tell it (harmless on newer CMake).
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20" CACHE STRING "nvcc's C++20 flag")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20" CACHE STRING "nvcc's C++20 flag")
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "Workbook backend: cuda (${_wb_reason}); CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES}")
else()
  message(STATUS "Workbook backend: cpu (${_wb_reason}). Kernels run on the CPU emulator: "
                 "results are checked, timings are emulated and mean nothing for a GPU.")
endif()
