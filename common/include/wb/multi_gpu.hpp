// Host-side helpers for programs that drive several GPUs from one process.
#pragma once

#include <functional>
#include <string>

namespace wb {

// cpu backend: `count` emulated devices, each with its own memory, and queued streams (work
// waits on its stream and runs, in an adversarial order, when the host waits for it:
// common/CPU-BACKEND.md, "Several devices"). cuda backend: nothing; the GPUs are what they are.
void emulate_devices(int count);

// cudaGetDeviceCount, checked.
int visible_devices();

// fn(0), ..., fn(n - 1), as if at the same time: on the cuda backend each on a host thread of
// its own (a library call that waits for its GPU, such as one that reads back a size, then
// holds up only its own GPU); on the cpu backend one after the other. fn(i) must not wait for
// the work of another fn(j). The first exception thrown is rethrown once all have returned.
void for_each_concurrently(int n, const std::function<void(int)>& fn);

// "cpu emulator: 3 devices, queued (latest-first) streams" or "" on the cuda backend.
std::string emulated_devices_note();

}  // namespace wb
