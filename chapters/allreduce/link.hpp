// The link between two GPUs, measured: the ceiling the report's bus bandwidth is compared with.
#pragma once

namespace allreduce {

class team;

struct link_rates {
  double one_way_gbs = 0;    // rank 0 -> rank 1, alone
  double each_way_gbs = 0;   // each direction while both copy at once (what a ring's step uses)
};

// cudaMemcpyPeerAsync between the GPUs of ranks 0 and 1 (256 MiB; the cpu backend 1 MiB and
// meaningless), timed like the stages. Zero when the two ranks share a GPU or there is one rank.
link_rates measure_link(team& t);

}  // namespace allreduce
