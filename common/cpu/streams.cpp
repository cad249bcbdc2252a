// The cpu backend's streams and events, immediate or queued (wb/cpu/devices.hpp).
//
// Immediate streams: every operation runs when it is issued; events read a host clock.
//
// Queued streams: each operation waits on its stream, behind the operations issued to that
// stream before it, behind the events it was told to wait for, and behind what the legacy
// default stream's rules add (an operation on a device's legacy stream waits for every
// blocking stream of the device, and an operation on a blocking stream waits for the legacy
// stream). Nothing runs until the host waits (a synchronising call); then the host thread
// runs, one at a time, the operations free to run, the one issued last first (or first
// issued first). Copies and memsets run on the host thread. A kernel runs on a host thread of
// its own (a "runner"), holding the one baton every emulating thread passes: when it spins on
// a system-scope flag (devices.cpp) it hands the baton back, and the host starts other
// operations or resumes other waiting kernels; a waiting kernel is resumed only once something
// has changed (a system-scope store, a peer store made visible, an operation done). When
// nothing can run and nothing has changed, the waits can never end: the waiting kernels are
// failed with a message naming each wait, and the rest of the queued work is dropped.
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "internal.hpp"
#include "queue.hpp"
#include "wb/cpu/emulation.hpp"

using wb::cpu::detail::set_last_error;

namespace wb::cpu {
namespace {

using done_token = std::shared_ptr<bool>;  // true once the operation has run
bool is_done(const done_token& t) { return !t || *t; }

struct meeting;
struct runner;

struct operation {
  std::uint64_t seq = 0;          // issue order
  std::string what;               // for messages: "kernel launched at x.cu:12 on device 1"
  std::vector<done_token> after;  // what it waits for besides its stream
  done_token done = std::make_shared<bool>(false);
  enum class kind { work, kernel, part } k = kind::work;
  std::function<void()> work;
  // kernel
  int device = 0;
  dim3 grid, block;
  std::size_t shared_bytes = 0;
  std::function<void()> body;
  runner* running = nullptr;
  // part of a meeting
  std::shared_ptr<meeting> meets;
};

}  // namespace
}  // namespace wb::cpu

struct CUstream_st {
  unsigned int flags = 0;
  int device = 0;
  bool legacy = false;
  std::deque<std::unique_ptr<wb::cpu::operation>> queue;
  wb::cpu::done_token last;  // the last operation issued to it
};

namespace wb::cpu {
namespace {
struct event_data {
  done_token recorded;  // the latest record, null before the first
  std::chrono::steady_clock::time_point time{};
  bool timed = false;
};
}  // namespace
}  // namespace wb::cpu

struct CUevent_st {
  unsigned int flags = 0;
  int device = 0;
  std::shared_ptr<wb::cpu::event_data> data = std::make_shared<wb::cpu::event_data>();
};

namespace wb::cpu {
namespace {

struct meeting {
  std::vector<std::pair<CUstream_st*, operation*>> parts;
  std::function<void()> work;
};

// A host thread that runs one kernel at a time.
struct runner {
  std::thread thread;
  operation* job = nullptr;
  bool finished = false;
  bool abort = false;
  bool quit = false;
  std::string abort_message;
  std::uint64_t epoch_seen = 0;
  std::string waiting_at;
};

thread_local runner* t_runner = nullptr;

queue_order parse_queue_order(const char* text) {
  const std::string s = text == nullptr ? "" : text;
  if (s.empty() || s == "latest-first") return queue_order::latest_first;
  if (s == "earliest-first") return queue_order::earliest_first;
  throw std::invalid_argument("WB_CPU_STREAM_ORDER: expected latest-first or earliest-first, got '" + s + "'");
}
stream_model parse_stream_model(const char* text) {
  const std::string s = text == nullptr ? "" : text;
  if (s.empty() || s == "immediate") return stream_model::immediate;
  if (s == "queued") return stream_model::queued;
  throw std::invalid_argument("WB_CPU_STREAMS: expected immediate or queued, got '" + s + "'");
}

class executor {
 public:
  executor()
      : model_(parse_stream_model(std::getenv("WB_CPU_STREAMS"))),
        order_(parse_queue_order(std::getenv("WB_CPU_STREAM_ORDER"))) {
    if (model_ == stream_model::queued) use_one_host_thread();
  }
  ~executor() {
    for (auto& r : runners_) {
      if (r->job != nullptr) {  // left waiting at exit: unwind it
        r->abort = true;
        r->abort_message = "the program ended while this kernel waited";
        resume(*r);
      }
      {
        std::unique_lock lock(mutex_);
        r->quit = true;
        active_ = r.get();
        baton_.notify_all();
      }
      r->thread.join();
    }
  }

  stream_model model() const { return model_; }
  queue_order order() const { return order_; }
  void set_model(stream_model m) {
    if (m == model_) return;
    wait_everything();
    model_ = m;
    if (m == stream_model::queued) {
      use_one_host_thread();
    } else {
      current_options().host_threads = saved_host_threads_;
    }
  }
  void set_order(queue_order o) { order_ = o; }
  bool queued() const { return model_ == stream_model::queued; }

  // ---- streams --------------------------------------------------------------------------
  CUstream_st* legacy(int device) {
    if (device < 0) device = 0;
    if (static_cast<std::size_t>(device) >= legacy_.size()) legacy_.resize(static_cast<std::size_t>(device) + 1);
    auto& s = legacy_[static_cast<std::size_t>(device)];
    if (!s) {
      s = std::make_unique<CUstream_st>();
      s->device = device;
      s->legacy = true;
      streams_.push_back(s.get());
    }
    return s.get();
  }
  CUstream_st* resolve(cudaStream_t stream) { return stream != nullptr ? stream : legacy(detail::current_device()); }
  bool live(const CUstream_st* s) const {
    for (const auto* t : streams_) {
      if (t == s) return true;
    }
    return false;
  }
  CUstream_st* create(unsigned flags) {
    auto* s = new CUstream_st{};
    s->flags = flags;
    s->device = detail::current_device();
    streams_.push_back(s);
    return s;
  }
  void destroy(CUstream_st* s) {
    if (queued()) run_until([s] { return is_done(s->last); });
    std::erase(streams_, s);
    delete s;
  }

  // ---- issuing --------------------------------------------------------------------------
  // Queues `op` on `s` with the legacy default stream's rules; returns its done token.
  done_token issue(CUstream_st* s, std::unique_ptr<operation> op) {
    op->seq = ++seq_;
    if (s->legacy) {
      for (auto* t : streams_) {
        if (t != s && !t->legacy && t->device == s->device && (t->flags & cudaStreamNonBlocking) == 0 && !is_done(t->last)) {
          op->after.push_back(t->last);
        }
      }
    } else if ((s->flags & cudaStreamNonBlocking) == 0) {
      CUstream_st* l = legacy(s->device);
      if (!is_done(l->last)) op->after.push_back(l->last);
    }
    s->last = op->done;
    done_token token = op->done;
    s->queue.push_back(std::move(op));
    return token;
  }

  cudaError_t submit(cudaStream_t stream, std::string what, std::function<void()> work, bool host_waits) {
    CUstream_st* s = resolve(stream);
    if (!queued()) {
      work();
      return cudaSuccess;
    }
    auto op = std::make_unique<operation>();
    op->what = std::move(what);
    op->work = std::move(work);
    done_token token = issue(s, std::move(op));
    if (!host_waits) return cudaSuccess;
    return run_until([token] { return is_done(token); });
  }

  cudaError_t submit_meeting(const std::vector<cudaStream_t>& streams, std::string what, std::function<void()> work) {
    if (!queued()) {
      work();
      return cudaSuccess;
    }
    auto m = std::make_shared<meeting>();
    m->work = std::move(work);
    for (cudaStream_t stream : streams) {
      CUstream_st* s = resolve(stream);
      auto op = std::make_unique<operation>();
      op->what = what + " (its part on device " + std::to_string(s->device) + ")";
      op->k = operation::kind::part;
      op->meets = m;
      m->parts.emplace_back(s, op.get());
      issue(s, std::move(op));
    }
    return cudaSuccess;
  }

  void launch(CUstream_st* s, dim3 grid, dim3 block, std::size_t shared_bytes, std::function<void()> body,
              const std::source_location& where) {
    auto op = std::make_unique<operation>();
    op->what = "kernel launched at " + site(where) + " on device " + std::to_string(s->device);
    op->k = operation::kind::kernel;
    op->device = s->device;
    op->grid = grid;
    op->block = block;
    op->shared_bytes = shared_bytes;
    op->body = std::move(body);
    issue(s, std::move(op));
  }

  void record(CUevent_st* e, CUstream_st* s) {
    std::shared_ptr<event_data> data = e->data;
    if (!queued()) {
      data->time = std::chrono::steady_clock::now();
      data->timed = true;
      data->recorded = std::make_shared<bool>(true);
      return;
    }
    auto op = std::make_unique<operation>();
    op->what = "cudaEventRecord on device " + std::to_string(s->device);
    op->work = [data] {
      data->time = std::chrono::steady_clock::now();
      data->timed = true;
    };
    data->recorded = issue(s, std::move(op));
  }

  void wait_event(CUstream_st* s, CUevent_st* e) {
    if (!queued() || is_done(e->data->recorded)) return;
    auto op = std::make_unique<operation>();
    op->what = "cudaStreamWaitEvent on device " + std::to_string(s->device);
    op->after.push_back(e->data->recorded);
    op->work = [] {};
    issue(s, std::move(op));
  }

  // ---- waiting ----------------------------------------------------------------------------
  cudaError_t run_until(const std::function<bool()>& done) {
    while (!done()) {
      if (!step()) {
        break_deadlock();
        break;
      }
    }
    return take_error();
  }
  cudaError_t wait_everything() {
    return run_until([this] {
      for (auto* s : streams_) {
        if (!s->queue.empty()) return false;
      }
      return true;
    });
  }
  cudaError_t wait_device(int device) {
    return run_until([this, device] {
      for (auto* s : streams_) {
        if (s->device == device && !s->queue.empty()) return false;
      }
      return true;
    });
  }
  // One operation or one resumption, if any can go (cudaEventQuery's progress).
  bool try_step() { return queued() && step(); }

  // ---- kernels' waits (called on a runner) ------------------------------------------------
  bool yield_kernel(const std::string& waiting_at) {
    runner* r = t_runner;
    if (r == nullptr) return false;
    std::unique_lock lock(mutex_);
    r->epoch_seen = epoch_;
    r->waiting_at = waiting_at;
    active_ = nullptr;
    baton_.notify_all();
    baton_.wait(lock, [r, this] { return active_ == r; });
    if (r->abort) {
      const std::string message = r->abort_message;
      lock.unlock();
      fault(message);
    }
    return true;
  }
  void note_progress() { ++epoch_; }
  std::uint64_t epoch() const { return epoch_; }

 private:
  // A kernel that waits hands the baton back from the host thread it runs on: its blocks run
  // on that one thread (WB_CPU_THREADS comes back with immediate streams).
  void use_one_host_thread() {
    saved_host_threads_ = current_options().host_threads;
    current_options().host_threads = 1;
  }

  static std::string site(const std::source_location& where) {
    std::string file = where.file_name();
    const auto slash = file.find_last_of('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    return file + ":" + std::to_string(where.line());
  }

  bool ready(CUstream_st* s) const {
    if (s->queue.empty()) return false;
    const operation& op = *s->queue.front();
    if (op.running != nullptr) return false;
    for (const auto& t : op.after) {
      if (!is_done(t)) return false;
    }
    if (op.k != operation::kind::part) return true;
    for (const auto& [other, part] : op.meets->parts) {
      if (other->queue.empty() || other->queue.front().get() != part) return false;
      for (const auto& t : part->after) {
        if (!is_done(t)) return false;
      }
    }
    return true;
  }

  CUstream_st* pick() const {
    CUstream_st* best = nullptr;
    for (auto* s : streams_) {
      if (!ready(s)) continue;
      const std::uint64_t seq = s->queue.front()->seq;
      if (best == nullptr || (order_ == queue_order::latest_first ? seq > best->queue.front()->seq
                                                                  : seq < best->queue.front()->seq)) {
        best = s;
      }
    }
    return best;
  }

  void finish(CUstream_st* s) {
    *s->queue.front()->done = true;
    s->queue.pop_front();
    ++epoch_;
  }

  bool step() {
    if (CUstream_st* s = pick()) {
      operation& op = *s->queue.front();
      switch (op.k) {
        case operation::kind::work:
          op.work();
          finish(s);
          break;
        case operation::kind::part: {
          std::shared_ptr<meeting> m = op.meets;
          m->work();
          for (auto& [other, part] : m->parts) finish(other);
          break;
        }
        case operation::kind::kernel: start(s, op); break;
      }
      return true;
    }
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
      runner* r = *it;
      if (r->epoch_seen == epoch_) continue;
      waiting_.erase(it);
      resume(*r);
      after_turn(*r);
      return true;
    }
    return false;
  }

  runner& idle_runner() {
    for (auto& r : runners_) {
      if (r->job == nullptr) return *r;
    }
    runners_.push_back(std::make_unique<runner>());
    runner* r = runners_.back().get();
    r->thread = std::thread([this, r] { runner_main(*r); });
    return *r;
  }

  void start(CUstream_st* s, operation& op) {
    runner& r = idle_runner();
    r.job = &op;
    r.finished = false;
    r.abort = false;
    r.waiting_at.clear();
    op.running = &r;
    running_streams_.emplace_back(&r, s);
    resume(r);
    after_turn(r);
  }

  void after_turn(runner& r) {
    if (!r.finished) {
      waiting_.push_back(&r);
      return;
    }
    for (auto it = running_streams_.begin(); it != running_streams_.end(); ++it) {
      if (it->first != &r) continue;
      CUstream_st* s = it->second;
      running_streams_.erase(it);
      r.job = nullptr;
      finish(s);
      return;
    }
  }

  void resume(runner& r) {
    std::unique_lock lock(mutex_);
    active_ = &r;
    baton_.notify_all();
    baton_.wait(lock, [this] { return active_ == nullptr; });
  }

  void runner_main(runner& r) {
    t_runner = &r;
    std::unique_lock lock(mutex_);
    for (;;) {
      baton_.wait(lock, [&r, this] { return active_ == &r; });
      if (r.quit) {
        active_ = nullptr;
        baton_.notify_all();
        return;
      }
      lock.unlock();
      operation& op = *r.job;
      detail::set_kernel_device(op.device);
      detail::begin_kernel_memory();
      launch_kernel(op.grid, op.block, op.shared_bytes, op.body);
      detail::end_kernel_memory();
      detail::set_kernel_device(-1);
      const cudaError_t e = cudaGetLastError();
      lock.lock();
      if (e != cudaSuccess && error_ == cudaSuccess) {
        error_ = e;
        error_text_ = op.what + ": " + cudaGetErrorString(e);
      }
      r.finished = true;
      active_ = nullptr;
      baton_.notify_all();
    }
  }

  void break_deadlock() {
    std::string message = "deadlock (cpu backend, queued streams): nothing can run and nothing will change";
    for (runner* r : waiting_) message += "\n  " + r->job->what + ": " + r->waiting_at;
    for (auto* s : streams_) {
      if (s->queue.empty() || s->queue.front()->running != nullptr) continue;
      const operation& op = *s->queue.front();
      message += "\n  " + op.what + (op.k == operation::kind::part ? ": waits for the other streams to reach it"
                                                                   : ": waits for an event or another stream");
    }
    if (error_ == cudaSuccess) {
      error_ = cudaErrorLaunchFailure;
      error_text_ = message;
    }
    // Fail every waiting kernel (its wait throws a kernel fault), then drop what is queued.
    while (!waiting_.empty()) {
      runner* r = waiting_.front();
      waiting_.pop_front();
      r->abort = true;
      r->abort_message = message;
      resume(*r);
      after_turn(*r);
    }
    for (auto* s : streams_) {
      while (!s->queue.empty()) {
        *s->queue.front()->done = true;
        s->queue.pop_front();
      }
    }
  }

  cudaError_t take_error() {
    if (error_ == cudaSuccess) return cudaSuccess;
    const cudaError_t e = error_;
    error_ = cudaSuccess;
    return set_last_error(e, std::exchange(error_text_, std::string()));
  }

  stream_model model_;
  queue_order order_;
  int saved_host_threads_ = 1;
  std::vector<CUstream_st*> streams_;
  std::vector<std::unique_ptr<CUstream_st>> legacy_;
  std::uint64_t seq_ = 0;
  std::uint64_t epoch_ = 0;
  std::vector<std::unique_ptr<runner>> runners_;
  std::deque<runner*> waiting_;
  std::vector<std::pair<runner*, CUstream_st*>> running_streams_;
  cudaError_t error_ = cudaSuccess;
  std::string error_text_;
  std::mutex mutex_;
  std::condition_variable baton_;
  runner* active_ = nullptr;  // who holds the baton: a runner, or (null) the host thread
};

executor& exec() {
  static executor e;
  return e;
}

// The launch limits wb::launch reports at once (the grid itself runs later when queued).
bool valid_launch(dim3 grid, dim3 block, std::size_t shared_bytes) {
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64) {
    set_last_error(cudaErrorInvalidConfiguration,
                   "invalid configuration argument: block (" + std::to_string(block.x) + "," + std::to_string(block.y) +
                       "," + std::to_string(block.z) + ") has " + std::to_string(threads) +
                       " threads; a block holds 1 to 1024 (z at most 64)");
    return false;
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) {
    set_last_error(cudaErrorInvalidConfiguration, "invalid configuration argument: grid (" + std::to_string(grid.x) +
                                                      "," + std::to_string(grid.y) + "," + std::to_string(grid.z) +
                                                      ") is empty or too large (x up to 2^31-1, y and z up to 65535)");
    return false;
  }
  if (shared_bytes > current_options().max_dynamic_shared) {
    set_last_error(cudaErrorInvalidValue, "invalid argument: " + std::to_string(shared_bytes) +
                                              " bytes of dynamic shared memory requested; the limit per block is " +
                                              std::to_string(current_options().max_dynamic_shared));
    return false;
  }
  return true;
}

}  // namespace

// ---- the stream models ----------------------------------------------------------------------
void set_stream_model(stream_model model) { exec().set_model(model); }
stream_model current_stream_model() { return exec().model(); }
void set_queue_order(queue_order order) { exec().set_order(order); }
queue_order current_queue_order() { return exec().order(); }
std::string stream_model_name() {
  if (!exec().queued()) return "immediate";
  return exec().order() == queue_order::latest_first ? "queued (latest-first)" : "queued (earliest-first)";
}

void launch_on_stream(cudaStream_t stream, dim3 grid, dim3 block, std::size_t shared_bytes, std::function<void()> body,
                      std::source_location where) {
  executor& e = exec();
  if (stream != nullptr && !e.live(stream)) {
    set_last_error(cudaErrorInvalidResourceHandle, "kernel launch: the stream is not a live stream");
    return;
  }
  CUstream_st* s = e.resolve(stream);
  if (s->device != detail::current_device()) {
    set_last_error(cudaErrorInvalidResourceHandle,
                   "kernel launch: the stream belongs to device " + std::to_string(s->device) +
                       " but the current device is " + std::to_string(detail::current_device()) +
                       " (cudaSetDevice to the stream's device first)");
    return;
  }
  if (!e.queued()) {
    detail::set_kernel_device(s->device);
    detail::begin_kernel_memory();
    launch_kernel(grid, block, shared_bytes, body);
    detail::end_kernel_memory();
    detail::set_kernel_device(-1);
    return;
  }
  if (!valid_launch(grid, block, shared_bytes)) return;
  e.launch(s, grid, block, shared_bytes, std::move(body), where);
}

namespace queue {
bool queued() { return exec().queued(); }
cudaError_t submit(cudaStream_t stream, std::string what, std::function<void()> work, bool host_waits) {
  if (stream != nullptr && !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, what + ": the stream is not a live stream");
  }
  return exec().submit(stream, std::move(what), std::move(work), host_waits);
}
cudaError_t submit_meeting(const std::vector<cudaStream_t>& streams, std::string what, std::function<void()> work) {
  return exec().submit_meeting(streams, std::move(what), std::move(work));
}
cudaError_t wait_all() { return exec().queued() ? exec().wait_everything() : cudaSuccess; }
cudaError_t wait_device(int device) { return exec().queued() ? exec().wait_device(device) : cudaSuccess; }
int stream_device(cudaStream_t stream) {
  if (stream == nullptr) return detail::current_device();
  return exec().live(stream) ? stream->device : -1;
}
bool yield_kernel(const std::string& waiting_at) { return exec().queued() && exec().yield_kernel(waiting_at); }
void note_progress() { exec().note_progress(); }
std::uint64_t progress_epoch() { return exec().epoch(); }
}  // namespace queue

}  // namespace wb::cpu

// --- streams and events ----------------------------------------------------------------------
using wb::cpu::exec;

cudaError_t cudaDeviceSynchronize() { return wb::cpu::queue::wait_device(wb::cpu::detail::current_device()); }

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (stream == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaStreamCreate: null pointer");
  *stream = exec().create(flags);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: not a stream");
  }
  exec().destroy(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (stream != nullptr && !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize: not a stream");
  }
  if (!exec().queued()) return cudaSuccess;
  CUstream_st* s = exec().resolve(stream);
  return exec().run_until([s] { return wb::cpu::is_done(s->last); });
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (stream != nullptr && !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaStreamQuery: not a stream");
  }
  CUstream_st* s = exec().resolve(stream);
  if (wb::cpu::is_done(s->last)) return cudaSuccess;
  exec().try_step();  // the host polls: let one operation go
  return wb::cpu::is_done(s->last) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (event == nullptr) return set_last_error(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: null event");
  if (stream != nullptr && !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: not a stream");
  }
  exec().wait_event(exec().resolve(stream), event);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (event == nullptr) return set_last_error(cudaErrorInvalidValue, "cudaEventCreate: null pointer");
  *event = new CUevent_st{};
  (*event)->flags = flags;
  (*event)->device = wb::cpu::detail::current_device();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;  // a pending record still holds the event's data
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (event == nullptr) return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventRecord: null event");
  if (stream != nullptr && !exec().live(stream)) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventRecord: not a stream");
  }
  CUstream_st* s = exec().resolve(stream);
  if (s->device != event->device) {
    return set_last_error(cudaErrorInvalidResourceHandle,
                          "cudaEventRecord: the event was created on device " + std::to_string(event->device) +
                              " and the stream belongs to device " + std::to_string(s->device) +
                              " (an event is recorded on a stream of its own device)");
  }
  exec().record(event, s);
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (event == nullptr) return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: null event");
  if (!exec().queued()) return cudaSuccess;
  wb::cpu::done_token t = event->data->recorded;
  return exec().run_until([t] { return wb::cpu::is_done(t); });
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (event == nullptr) return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventQuery: null event");
  const wb::cpu::done_token t = event->data->recorded;
  if (wb::cpu::is_done(t)) return cudaSuccess;
  exec().try_step();  // the host polls: let one operation go
  return wb::cpu::is_done(t) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: null argument");
  }
  if (!start->data->recorded || !end->data->recorded) {
    return set_last_error(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was never recorded");
  }
  if (!wb::cpu::is_done(start->data->recorded) || !wb::cpu::is_done(end->data->recorded)) {
    return set_last_error(cudaErrorNotReady, "cudaEventElapsedTime: an event has not completed yet");
  }
  *ms = std::chrono::duration<float, std::milli>(end->data->time - start->data->time).count();
  return cudaSuccess;
}
