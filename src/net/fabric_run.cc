#include "net/fabric_run.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include "core/interrupt.h"
#include "core/spin_barrier.h"
#include "net/network.h"

namespace lossless {
namespace {

// What each partition publishes between windows (read by all after the second barrier).
struct alignas(64) Published {
  TimePs next_ps = kTimeNever;
  std::uint64_t flows_completed = 0;
  std::uint64_t events = 0;
  bool observe = false;  // this partition wants the observer to look at the fabric now
};

class WindowedRun {
 public:
  WindowedRun(Network& net, TimePs stop_ps, const std::function<void(const FabricProgress&)>& progress,
              WindowObserver* observer)
      : net_(net),
        stop_ps_(stop_ps),
        window_ps_(std::max<TimePs>(net.lookahead_ps(), 1)),
        flows_(net.flows().size()),
        progress_(progress),
        observer_(observer),
        published_(net.partitions()),
        barrier_(static_cast<unsigned>(net.partitions())) {}

  FabricRunStats run() {
    const std::size_t n = net_.partitions();
    TimePs start = kTimeNever;
    for (std::size_t i = 0; i < n; ++i) start = std::min(start, net_.partition(i).sim.next_time());
    end_ = start == kTimeNever ? RunEnd::kDrained : RunEnd::kStop;
    end_ps_ = start == kTimeNever ? 0 : stop_ps_;
    std::vector<std::thread> workers;
    std::vector<std::exception_ptr> errors(n);
    for (std::size_t i = 1; i < n; ++i)
      workers.emplace_back([this, i, start, &errors] { guarded(i, start, errors[i]); });
    guarded(0, start, errors[0]);
    for (auto& w : workers) w.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    return {static_cast<unsigned>(n), end_, end_ps_};
  }

 private:
  void guarded(std::size_t i, TimePs start, std::exception_ptr& error) {
    try {
      work(i, start);
    } catch (...) {
      error = std::current_exception();
      barrier_.abort();
    }
  }

  // Whether the run ends after this window, and why.
  bool finished(TimePs next, RunEnd& why) const {
    std::uint64_t done = 0;
    for (const auto& p : published_) done += p.flows_completed;
    if (flows_ > 0 && done == flows_) {
      why = RunEnd::kAllDone;
      return true;
    }
    why = next == kTimeNever ? RunEnd::kDrained : RunEnd::kStop;
    return next == kTimeNever || next > stop_ps_;
  }

  void work(std::size_t i, TimePs start) {
    Partition& me = net_.partition(i);
    const std::size_t n = net_.partitions();
    TimePs window = start;
    while (window != kTimeNever && window <= stop_ps_) {
      const TimePs end = std::min(window + (window_ps_ - 1), stop_ps_);
      me.sim.run(end);
      if (n > 1) {
        if (!barrier_.arrive_and_wait()) return;
        // Packets sent to this partition during the window: all due after it.
        for (std::size_t q = 0; q < n; ++q) {
          if (q == i) continue;
          std::vector<HandedOverEvent>& inbox = net_.partition(q).outbox[i];
          for (const HandedOverEvent& h : inbox) {
            // The packet was last written by the other thread's core: start moving it here now, for writing,
            // rather than when its event runs (a cross-core miss costs several events' worth of time).
            __builtin_prefetch(reinterpret_cast<const void*>(h.event.arg), 1);
            me.sim.at_handed_over(h.event, h.offset_ps);
          }
          inbox.clear();
        }
      }
      published_[i] = {me.sim.next_time(), me.flows_completed, me.sim.events_processed(),
                       observer_ && observer_->wants(i, end)};
      if (n > 1 && !barrier_.arrive_and_wait()) return;
      TimePs next = kTimeNever;
      bool observe = false;
      for (const auto& p : published_) {
        next = std::min(next, p.next_ps);
        observe = observe || p.observe;
      }
      if (observe) {
        // Every partition has run the window and taken in what crossed to it: the whole fabric at `end`.
        if (i == 0) observer_->at_window_end(end);
        if (n > 1 && !barrier_.arrive_and_wait()) return;
      }
      if (i == 0 && progress_) {
        FabricProgress fp{window, 0, 0};
        for (const auto& p : published_) {
          fp.events += p.events;
          fp.flows_completed += p.flows_completed;
        }
        progress_(fp);
      }
      RunEnd why;
      if (finished(next, why)) {
        if (i == 0) {
          end_ = why;
          // Stopped: nothing happened between the last window and `stop`. Drained: nothing after the last
          // event.
          end_ps_ = why == RunEnd::kStop ? stop_ps_ : why == RunEnd::kDrained ? last_event_ps() : end;
        }
        break;
      }
      // Partition 0 alone decides (the others see the barrier aborted); a signal lands between windows, so an
      // interrupted run stops at a window end whatever the thread count.
      if (i == 0 && interrupt_requested()) {
        std::uint64_t done = 0;
        for (const auto& p : published_) done += p.flows_completed;
        throw Interrupted(window, done);
      }
      window = next;
    }
  }

  TimePs last_event_ps() const {
    TimePs t = 0;
    for (std::size_t i = 0; i < net_.partitions(); ++i) t = std::max(t, net_.partition(i).sim.now());
    return t;
  }

  Network& net_;
  const TimePs stop_ps_;
  const TimePs window_ps_;
  const std::uint64_t flows_;
  const std::function<void(const FabricProgress&)>& progress_;
  WindowObserver* observer_;
  std::vector<Published> published_;
  RunEnd end_ = RunEnd::kDrained;
  TimePs end_ps_ = 0;
  SpinBarrier barrier_;
};

}  // namespace

FabricRunStats run_fabric(Network& net, TimePs stop_ps,
                          const std::function<void(const FabricProgress&)>& progress,
                          WindowObserver* observer) {
  return WindowedRun(net, stop_ps, progress, observer).run();
}

const char* run_end_name(RunEnd e) {
  switch (e) {
    case RunEnd::kAllDone:
      return "all_done";
    case RunEnd::kDrained:
      return "drained";
    case RunEnd::kStop:
      return "stop";
    case RunEnd::kViolation:
      return "violation";
  }
  return "?";
}

}  // namespace lossless
