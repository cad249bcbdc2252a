// The allreduce executable's command line, shared by its parts (main.cpp, sweep.hpp,
// application.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wb/arguments.hpp"

#include "allreduce.hpp"

namespace allreduce {

struct options {
  wb::common_options common;
  int gpus = 0;             // --gpus: ranks (0: every visible GPU; the cpu backend: 2)
  int devices = 0;          // --devices: GPUs the ranks are spread over (0: min(ranks, visible))
  std::int64_t n = -1;      // --n: elements per rank (-1: the default for this backend)
  std::string type = "int32";
  std::string dist = "uniform";
  std::string input;        // --input "1,2,3;4,5,6": one vector per rank
  bool input_given = false;
  config cfg;
  bool sweep = false;
  std::uint64_t sweep_max = 0;  // --sweep-max: largest message in bytes (0: 1 GiB, 64 KiB on the cpu backend)
  bool trace = false;
  std::string svg;
  std::string app;          // --app histogram|distinct: stage 6
  std::uint64_t items = 0;  // --items: the application's items in all (0: its default)
  std::uint64_t distinct = 0;  // --distinct: distinct keys of --app distinct (0: 2^20)
  std::string exchange;     // --exchange nccl|peer (default: NCCL where there is one)
  bool phases = false;      // --phases: --app distinct prints each rank's step times on stderr
};

// The largest message per rank: 1 GiB (the sweep: 8 B to 1 GiB).
inline constexpr std::uint64_t max_message_bytes = std::uint64_t{1} << 30;

}  // namespace allreduce
