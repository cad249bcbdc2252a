// The pitfalls of stages 2, 3 and 4 as runnable variants, written here (not in the tracks) so the
// checks can show that each one gives a wrong answer every time on the cpu backend, and that
// the same code with the fix gives the right one. int32 only; one piece per ring segment.
#pragma once

#include <cstdint>

#include "allreduce.hpp"
#include "team.hpp"

namespace allreduce::defective {

// Reduce to rank 0, then broadcast (stage 2), with or without rank 0's last wait: for every
// rank's 'fetched' (without it rank 0's next work may overwrite out[0] while a rank still copies it).
void reduce_broadcast(team& t, const buffers<std::int32_t>& b, bool wait_for_fetched);

// The ring (stage 3) with or without the receiver's wait for a piece to arrive before it adds it.
void ring(team& t, const buffers<std::int32_t>& b, bool wait_for_arrival);
// The two-shot kernel (stage 4) whose end barrier announces the peer stores with a release store,
// or with a relaxed one (the flag may then arrive before the data).
void two_shot(team& t, const buffers<std::int32_t>& b, bool release);
// The one-shot kernel (stage 4) with or without its end barrier (without it a rank may go on
// and overwrite its input while another rank still reads it).
void one_shot(team& t, const buffers<std::int32_t>& b, bool end_barrier);

}  // namespace allreduce::defective
