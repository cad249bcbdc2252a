// One test per pitfall of the chapter (S1-S4): the defective variant gives a wrong answer
// (or, for S4, would wait for ever), and the fixed stage gives the right one under the same
// conditions. Scheduling orders are the cpu backend's (common/CPU-BACKEND.md); on a GPU the
// races of S1 and S3 are compute-sanitizer racecheck's to show.
#include <cstdint>
#include <string>
#include <vector>

#include "defective_variants.hpp"
#include "test_support.hpp"
#include "wb/race_check.hpp"

using namespace scan;
using namespace scan::testing;

namespace {

#if defined(WB_BACKEND_CPU)
// Runs a check under one thread order (or block order) and restores the previous one.
struct thread_order_scope {
  std::string saved = wb::cpu::schedule_order_name();
  explicit thread_order_scope(const char* order) { wb::cpu::set_schedule_order(order); }
  ~thread_order_scope() { wb::cpu::set_schedule_order(saved); }
};
struct block_order_scope {
  std::string saved = wb::cpu::block_order_name();
  explicit block_order_scope(const char* order) { wb::cpu::set_block_order(order); }
  ~block_order_scope() { wb::cpu::set_block_order(saved); }
};
#endif

// Stage `stage` with sections of 64 threads x 8 items (stage 3's block_scan_coarsened) on
// `in`, under the in-order, reverse and a shuffled thread order (the cpu backend's; on a GPU
// the same check three times).
void check_coarsened_under_every_thread_order(int stage, const std::vector<std::int32_t>& in) {
  for (const std::string order : {"in-order", "reverse", "shuffle:9"}) {
#if defined(WB_BACKEND_CPU)
    thread_order_scope scope(order.c_str());
#endif
    CAPTURE(order);
    check_stage<std::int32_t>(stage, in, config{64, 8, false});
  }
}

std::vector<std::int32_t> small_positive(std::size_t n, std::uint64_t salt) {
  return wb::gen::uniform<std::int32_t>(n, wb::testing::seed(salt), 1, 9);
}

}  // namespace

TEST_SUITE("scan/1 kogge-stone") {
  TEST_CASE("S1: Kogge-Stone in place races; read, barrier, write does not") {
    const auto in = small_positive(256, 11);
#if defined(WB_BACKEND_CPU)
    {
      // The race check reports the in-place step whatever the order (thread t reads xy[t -
      // stride] with no barrier after thread t - stride wrote it); unchecked, in blockIdx order,
      // thread t - stride writes its new value first and some items are added twice.
      if (wb::testing::race_check_active()) {
        std::string race;
        CHECK(wb::testing::race_reported([&] { defective::kogge_stone_in_place(in); }, &race));
        CHECK(race.find("data race on shared memory") != std::string::npos);
      }
      const bool checked = wb::cpu::race_check();
      thread_order_scope order("in-order");
      wb::cpu::set_race_check(false);
      const auto wrong = defective::kogge_stone_in_place(in);
      wb::cpu::set_race_check(checked);
      CHECK_FALSE(scan_error(in, wrong, false).empty());
    }
#else
    // On a GPU the race is timing-dependent: the result may be right or wrong; gpu_check.sh
    // runs this case under compute-sanitizer racecheck, which reports the hazard.
    MESSAGE("in-place Kogge-Stone on the GPU: "
            << (scan_error(in, defective::kogge_stone_in_place(in), false).empty() ? "right this time" : "wrong"));
#endif
    for (const std::string order : {"in-order", "reverse", "shuffle:5"}) {
#if defined(WB_BACKEND_CPU)
      thread_order_scope scope(order.c_str());
#endif
      CAPTURE(order);
      check_stage<std::int32_t>(1, in, config{256, 0, false});
      check_stage<std::int32_t>(1, small_positive(1000, 12), config{64, 0, true});
    }
  }
}

TEST_SUITE("scan/2 brent-kung") {
  TEST_CASE("S2: the up-sweep updates the last item of each subtree pair, (t+1)*2s - 1") {
    const auto in = small_positive(64, 21);
    CHECK_FALSE(scan_error(in, defective::brent_kung_index_off_by_one(in), false).empty());
    check_stage<std::int32_t>(2, in, config{32, 0, false});
  }
}

TEST_SUITE("scan/3 coarsened") {
  TEST_CASE("S3: a barrier between phase 1 and phase 2 of the coarsened scan") {
    const auto in = small_positive(64 * 8, 31);
#if defined(WB_BACKEND_CPU)
    {
      // Reported by the race check whatever the order; unchecked, last thread first, it reads
      // its predecessor's last item before phase 1 scanned it.
      if (wb::testing::race_check_active()) {
        std::string race;
        CHECK(wb::testing::race_reported([&] { defective::coarsened_missing_barrier(in, 64, 8); }, &race));
        CHECK(race.find("data race on shared memory") != std::string::npos);
      }
      const bool checked = wb::cpu::race_check();
      thread_order_scope order("reverse");
      wb::cpu::set_race_check(false);
      const auto wrong = defective::coarsened_missing_barrier(in, 64, 8);
      wb::cpu::set_race_check(checked);
      CHECK_FALSE(scan_error(in, wrong, false).empty());
    }
#else
    MESSAGE("coarsened scan without the phase barrier on the GPU: "
            << (scan_error(in, defective::coarsened_missing_barrier(in, 64, 8), false).empty() ? "right this time"
                                                                                             : "wrong"));
#endif
    check_coarsened_under_every_thread_order(3, in);
  }
}

// Stages 4 and 5 scan their sections with stage 3's block_scan_coarsened: the same orders,
// each in its own stage's suite (a learner on stage 3 has not written them yet).
TEST_SUITE("scan/4 hierarchical") {
  TEST_CASE("S3: the sections' coarsened block scans under every thread order") {
    check_coarsened_under_every_thread_order(4, small_positive(5000, 32));
  }
}

TEST_SUITE("scan/5 domino") {
  TEST_CASE("S3: the tiles' coarsened block scans under every thread order") {
    check_coarsened_under_every_thread_order(5, small_positive(5000, 32));
  }
}

TEST_SUITE("scan/5 domino") {
  TEST_CASE("S4: static tile indices wait for blocks that have not started; a tile counter does not") {
#if defined(WB_BACKEND_CPU)
    // The cpu backend runs one block at a time to completion. Started last block first, the
    // static variant's block k waits for block k-1, which cannot start until block k returns:
    // on a GPU full of waiting blocks, the same deadlock. The variant gives up after a bounded
    // number of polls so that the test can report it.
    const auto in = small_positive(40 * 64 + 7, 41);
    {
      block_order_scope order("in-order");
      const auto r = defective::domino_static_index(in, 64, 100000);
      CHECK(r.gave_up == 0);  // in order it happens to work: why the defect survives testing
      CHECK(scan_error(in, r.out, false).empty());
    }
    {
      block_order_scope order("reverse");
      const auto r = defective::domino_static_index(in, 64, 100000);
      CHECK(r.gave_up == 40);  // every block but the first would wait for ever
    }
    // The fixed stage takes its tile from a counter: right in either block order (stage 6's
    // suite checks stage 6 the same way).
    for (const std::string order : {"in-order", "reverse"}) {
      block_order_scope scope(order.c_str());
      CAPTURE(order);
      check_stage<std::int32_t>(5, in, config{64, 0, false});
      check_stage<std::int64_t>(5, std::vector<std::int64_t>(in.begin(), in.end()), config{64, 0, true});
    }
#else
    // On a GPU blocks are dispatched roughly in blockIdx order, so the deadlock is possible
    // but not reproducible; the fixed stage must simply be right on many tiles.
    const auto in = small_positive(5000 * 64 + 7, 42);
    check_stage<std::int32_t>(5, in, config{64, 0, false});
#endif
  }
}

TEST_SUITE("scan/6 single-pass") {
  TEST_CASE("S4: tiles from a counter, right when the last block starts first") {
    const auto in = small_positive(40 * 64 + 7, 41);
#if defined(WB_BACKEND_CPU)
    for (const std::string order : {"in-order", "reverse"}) {
      block_order_scope scope(order.c_str());
      CAPTURE(order);
#endif
      check_stage<std::int32_t>(6, in, config{32, 4, false});
      check_stage<std::int64_t>(6, std::vector<std::int64_t>(in.begin(), in.end()), config{32, 2, true});
      check_stage<float>(6, std::vector<float>(in.begin(), in.end()), config{64, 0, false});
#if defined(WB_BACKEND_CPU)
    }
#endif
  }
}
