// What the allreduce checks share: a team on emulated (cpu backend) or real GPUs, running one
// stage of this build's track on given inputs, and the check of its outputs against the
// specification.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wb/testing.hpp"

#include "allreduce.hpp"
#include "data.hpp"
#include "team.hpp"

namespace allreduce::testing {

namespace track = allreduce::WB_TRACK;

// `ranks` ranks on `devices` GPUs (0: one each). cpu backend: that many emulated devices with
// queued streams; a GPU machine: at most the GPUs it has (ranks then share them).
std::unique_ptr<team> make_team(int ranks, int devices = 0);

// The all-reduce stages the battery runs (stage 4 has two kernels).
enum class variant { through_host, reduce_broadcast, ring, one_shot, two_shot, nccl };
const char* name_of(variant v);
// Adds in the specification's order (rank order), so float results are bit-exact.
bool adds_in_rank_order(variant v);
// The stage that builds the variant: 1 through-host, 2 reduce-broadcast, 3 ring, 4 one-shot and
// two-shot (direct), 5 nccl.
int stage_of(variant v);

// Runs the variant once on the inputs (one vector per rank), returns every rank's output.
template <class T>
std::vector<std::vector<T>> run(variant v, team& t, const std::vector<std::vector<T>>& inputs, const config& cfg = {});

// The check of one run: every rank holds the same bits, and they are the specification's
// (bit-exact, or within the order tolerance for a variant that adds in another order). "" when
// right, else what is wrong.
template <class T>
std::string check_run(variant v, const std::vector<std::vector<T>>& inputs, const std::vector<std::vector<T>>& outputs);

// The battery: G = 1, 2, 3 ranks (3 on 2 GPUs and 2 on 1 too: logical devices), every type,
// sizes 0, 1, around the vector width and the segment boundaries, the distributions, NaN in
// one rank's input, two calls in a row on one team.
void check_battery(variant v, const config& cfg = {});

// Stage 2's last order: rank 0's next work may overwrite out[0] only once every other rank has
// fetched the sum from it. Runs `allreduce` once on the team (int32, n = 64, fresh inputs from
// `seed`), queues right behind it on rank 0's stream what rank 0 does next, a write over out[0],
// and returns what is wrong with the other ranks' outputs ("" when each holds the sum). On the
// cpu backend the queued streams run, of the operations free to run, the one issued last first:
// without the wait, the write comes before the other ranks' copies of the sum, every time.
using int32_allreduce = std::function<void(team&, const buffers<std::int32_t>&)>;
std::string check_output_reuse(team& t, const int32_allreduce& allreduce, std::uint64_t seed);

}  // namespace allreduce::testing
