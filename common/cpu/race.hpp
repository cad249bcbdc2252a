// The cpu backend's race check (race.cpp), as the scheduler drives it. See race.cpp for how
// it works and common/CPU-BACKEND.md for what it reports.
#pragma once

#include <cstddef>
#include <string>

#include "wb/cpu/emulation.hpp"

namespace wb::cpu::race {

// Starts checking a launch on this OS thread: true when the options ask for the check and the
// grid runs on this one OS thread (the check follows one block at a time).
bool launch_begin(std::size_t blocks);
void launch_end();

// A block starts: its index, its number of threads and its dynamic shared memory.
void block_begin(uint3 index, unsigned threads, const unsigned char* shared, std::size_t shared_bytes);
// The stack of thread `thread` (its own accesses there are never shared).
void set_stack(unsigned thread, const void* low, const void* high);
// Thread `thread` of the block runs from now on (-1: the scheduler does).
void switch_to(int thread);

// Synchronisation, as the scheduler completes it.
void barrier_released();                             // every thread of the block passed a barrier
void warp_synced(unsigned warp_base, unsigned mask);  // the lanes of `mask` met at a warp collective
void fence();                                         // the running thread's __threadfence()

// A race found in the running block: its description (symbolised), once.
bool found();
std::string take_report();

}  // namespace wb::cpu::race
