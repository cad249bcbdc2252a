// The pitfalls of stages 2, 3 and 4, each as a variant that differs from the right code in one
// line (defective_variants.cu): on the cpu backend the defective one gives a wrong answer every
// time (the queued streams run work the program did not order in the opposite order to how it
// was issued; a peer store waits in the store buffer until a release), and the right one the
// right answer. On a GPU only the right one is checked: a race may or may not show there.
#include <cstdint>
#include <vector>

#include "wb/device_buffer.hpp"

#include "defective_variants.hpp"
#include "support.hpp"

using namespace allreduce;
using namespace allreduce::testing;

namespace {

struct rank_data {
  std::vector<wb::device_buffer<std::int32_t>> in, out, next;
  buffers<std::int32_t> view;
};

rank_data put(team& t, const std::vector<std::vector<std::int32_t>>& inputs) {
  rank_data d;
  d.view.n = static_cast<std::int64_t>(inputs[0].size());
  for (int r = 0; r < t.size(); ++r) {
    device_scope on(t.device(r));
    d.in.emplace_back(inputs[static_cast<std::size_t>(r)]);
    d.out.emplace_back(inputs[0].size());
    d.out.back().fill_bytes(0xA5);
    d.next.emplace_back(inputs[0].size());
    d.next.back().fill_bytes(0xA5);
  }
  for (int r = 0; r < t.size(); ++r) {
    d.view.in.push_back(d.in[static_cast<std::size_t>(r)].data());
    d.view.out.push_back(d.out[static_cast<std::size_t>(r)].data());
  }
  return d;
}

std::vector<std::vector<std::int32_t>> read(team& t, const std::vector<wb::device_buffer<std::int32_t>>& v) {
  t.synchronize();
  std::vector<std::vector<std::int32_t>> host;
  for (int r = 0; r < t.size(); ++r) {
    device_scope on(t.device(r));
    host.push_back(v[static_cast<std::size_t>(r)].to_host());
  }
  return host;
}

struct latest_first {
#if defined(WB_BACKEND_CPU)
  latest_first() { wb::cpu::set_queue_order(wb::cpu::queue_order::latest_first); }
#endif
};

}  // namespace

TEST_SUITE("allreduce/2 reduce-broadcast") {
  // The check of the stage's own code (test_reduce_broadcast.cpp) is check_output_reuse: here
  // it must fail the same code without rank 0's last waits, every time, and pass it with them.
  TEST_CASE("pitfall: rank 0's stream goes on before every rank has fetched the sum") {
    for (const int G : {2, 3}) {
      CAPTURE(G);
      auto t = make_team(G);
      for (const bool wait : {true, false}) {
        const std::string wrong = check_output_reuse(
            *t, [wait](team& tm, const buffers<std::int32_t>& b) { defective::reduce_broadcast(tm, b, wait); },
            wb::testing::seed(32) + static_cast<std::uint64_t>(G + 10 * wait));
        if (wait) {
          CHECK_MESSAGE(wrong.empty(), wrong);
        } else if (!wb::backend_is_cuda) {
          CHECK_MESSAGE(!wrong.empty(), "without the waits for 'fetched' rank 0's next write must reach a rank's result");
        }
      }
    }
  }
}

TEST_SUITE("allreduce/3 ring") {
  TEST_CASE("pitfall: a ring step that adds a piece before the sender's copy has arrived") {
    for (const int G : {2, 3}) {
      CAPTURE(G);
      auto t = make_team(G);
      [[maybe_unused]] latest_first order;
      for (const bool wait : {true, false}) {
        // New inputs each time: a slot still holding the last run's piece must not pass for this one's.
        const auto inputs = make_inputs<std::int32_t>(G, 40, distribution::uniform, wb::testing::seed(31) + G + 10 * wait);
        rank_data d = put(*t, inputs);
        defective::ring(*t, d.view, wait);
        const std::string wrong = check_run(variant::ring, inputs, read(*t, d.out));
        if (wait) {
          CHECK_MESSAGE(wrong.empty(), wrong);
        } else if (!wb::backend_is_cuda) {
          CHECK_MESSAGE(!wrong.empty(), "without the wait for 'arrived' the addition must read the slot too early");
        }
      }
    }
  }
}

TEST_SUITE("allreduce/4 direct") {
  TEST_CASE("pitfall: the flag written before the data (a relaxed store where a release belongs)") {
    for (const int G : {2, 3}) {
      CAPTURE(G);
      auto t = make_team(G);
      [[maybe_unused]] latest_first order;
      for (const bool release : {true, false}) {
        const auto inputs = make_inputs<std::int32_t>(G, 64, distribution::uniform, wb::testing::seed(41) + G + 10 * release);
        rank_data d = put(*t, inputs);
        defective::two_shot(*t, d.view, release);
        // What each rank's next operation sees: a copy of its output, queued right behind.
        t->for_each_rank([&](int r) {
          WB_CHECK(cudaMemcpyAsync(d.next[static_cast<std::size_t>(r)].data(), d.out[static_cast<std::size_t>(r)].data(),
                                   64 * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, t->stream(r)));
        });
        const std::string wrong = check_run(variant::two_shot, inputs, read(*t, d.next));
        if (release) {
          CHECK_MESSAGE(wrong.empty(), wrong);
        } else if (!wb::backend_is_cuda) {
          CHECK_MESSAGE(!wrong.empty(), "with a relaxed flag the next operation must see an output still missing a peer's segment");
        }
      }
    }
  }

  TEST_CASE("pitfall: an input overwritten while a peer still reads it (no barrier at the end)") {
    for (const int G : {2, 3}) {
      CAPTURE(G);
      auto t = make_team(G);
      [[maybe_unused]] latest_first order;
      for (const bool end_barrier : {true, false}) {
        const auto inputs = make_inputs<std::int32_t>(G, 64, distribution::uniform, wb::testing::seed(42) + G + 10 * end_barrier);
        rank_data d = put(*t, inputs);
        defective::one_shot(*t, d.view, end_barrier);
        // Each rank's next operation reuses its input buffer for the next batch.
        t->for_each_rank([&](int r) {
          WB_CHECK(cudaMemsetAsync(d.in[static_cast<std::size_t>(r)].data(), 0, 64 * sizeof(std::int32_t), t->stream(r)));
        });
        const std::string wrong = check_run(variant::one_shot, inputs, read(*t, d.out));
        if (end_barrier) {
          CHECK_MESSAGE(wrong.empty(), wrong);
        } else if (!wb::backend_is_cuda) {
          CHECK_MESSAGE(!wrong.empty(), "without the end barrier a peer must read an input already overwritten");
        }
      }
    }
  }
}
