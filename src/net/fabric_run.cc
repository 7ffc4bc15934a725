#include "net/fabric_run.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <exception>
#include <memory>
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
              WindowObserver* observer, RankLink* link)
      : net_(net),
        stop_ps_(stop_ps),
        window_ps_(std::max<TimePs>(net.lookahead_ps(), 1)),
        flows_(net.flows().size()),
        progress_(progress),
        observer_(observer),
        published_(net.partitions()),
        barrier_(static_cast<unsigned>(net.partitions())),
        exchange_(link ? std::make_unique<RankExchange>(*link, &net) : nullptr) {
    LOSSLESS_CHECK(!(observer && net.ranks() > 1),
                   "run-time checks look at the whole fabric: not split over ranks");
  }

  FabricRunStats run() {
    const std::size_t n = net_.partitions();
    TimePs start = kTimeNever;
    for (std::size_t i = 0; i < n; ++i) start = std::min(start, net_.partition(i).sim.next_time());
    if (exchange_) start = exchange_->agree_on_start(start);
    end_ = start == kTimeNever ? RunEnd::kDrained : RunEnd::kStop;
    end_ps_ = start == kTimeNever ? 0 : stop_ps_;
    std::vector<std::thread> workers;
    std::vector<std::exception_ptr> errors(n);
    {
      const InterruptsBlockedInNewThreads main_thread_only;
      for (std::size_t i = 1; i < n; ++i)
        workers.emplace_back([this, i, start, &errors] { guarded(i, start, errors[i]); });
    }
    guarded(0, start, errors[0]);
    for (auto& w : workers) w.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    FabricRunStats stats;
    stats.threads = static_cast<unsigned>(n);
    stats.end = end_;
    stats.end_ps = end_ps_;
    if (exchange_) stats.exchange = exchange_->stats();
    stats.run_seconds = run_seconds_;
    return stats;
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
  bool finished(TimePs next, std::uint64_t done, RunEnd& why) const {
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
      if (exchange_ && i == 0) {
        const auto t0 = std::chrono::steady_clock::now();
        me.sim.run(end);
        run_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      } else {
        me.sim.run(end);
      }
      if (n > 1) {
        if (!barrier_.arrive_and_wait()) return;
        // Packets sent to this partition during the window by the rank's other threads: all due after it.
        for (std::size_t q = 0; q < n; ++q) {
          if (q == i) continue;
          std::vector<HandedOverEvent>& inbox = net_.partition(q).outbox[me.id];
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
      std::uint64_t done = 0, events = 0;
      bool observe = false;
      if (exchange_) {
        // One thread of the rank trades packets with the other ranks and agrees with them on the next window,
        // the end and an interrupt, while the rank's other threads wait.
        if (i == 0) {
          RankWindowState mine;
          for (const auto& p : published_) {
            mine.next_ps = std::min(mine.next_ps, p.next_ps);
            mine.flows_completed += p.flows_completed;
            mine.events += p.events;
          }
          mine.last_ps = last_event_ps();
          mine.signal = interrupt_requested() ? (interrupt_signal() ? interrupt_signal() : SIGINT) : 0;
          decision_ = exchange_->exchange(mine);
        }
        if (n > 1 && !barrier_.arrive_and_wait()) return;
        next = decision_.next_ps;
        done = decision_.flows_completed;
        events = decision_.events;
      } else {
        for (const auto& p : published_) {
          next = std::min(next, p.next_ps);
          done += p.flows_completed;
          events += p.events;
        }
      }
      for (const auto& p : published_) observe = observe || p.observe;
      if (observe) {
        // Every partition has run the window and taken in what crossed to it: the whole fabric at `end`.
        if (i == 0) observe_window(end, window, done);
        if (n > 1 && !barrier_.arrive_and_wait()) return;
      }
      if (i == 0 && progress_) progress_(FabricProgress{window, events, done});
      RunEnd why;
      if (finished(next, done, why)) {
        if (i == 0) {
          end_ = why;
          // Stopped: nothing happened between the last window and `stop`. Drained: nothing after the last
          // event (of any rank).
          end_ps_ = why == RunEnd::kStop      ? stop_ps_
                    : why == RunEnd::kDrained ? (exchange_ ? decision_.last_ps : last_event_ps())
                                              : end;
        }
        break;
      }
      // Partition 0 alone decides (the others see the barrier aborted); a signal lands between windows, so an
      // interrupted run stops at a window end whatever the thread count. Over ranks, every rank stops at the
      // window where any of them was interrupted.
      if (i == 0 && (exchange_ ? decision_.interrupted : interrupt_requested()))
        throw Interrupted(window, done, exchange_ ? decision_.signal : 0);
      window = next;
    }
  }

  // The observer at a window end. Over ranks (the whole fabric on this one, the others following its
  // windows: follow_fabric_windows), an exception from it is first told to the other ranks, which then end
  // their run as finished, so that none waits for a window that will not come.
  void observe_window(TimePs end, TimePs window, std::uint64_t done) {
    if (!exchange_) {
      observer_->at_window_end(end);
      return;
    }
    try {
      observer_->at_window_end(end);
    } catch (...) {
      RankWindowState mine;
      mine.next_ps = kTimeNever;
      mine.flows_completed = done;
      mine.failed = true;
      (void)window;
      exchange_->exchange(mine);
      throw;
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
  std::unique_ptr<RankExchange> exchange_;
  WindowDecision decision_;  // written by the rank's first thread between its barriers
  double run_seconds_ = 0;
};

// The run ends once nothing is due before `stop_ps`, or once every flow has completed.
bool run_finished(TimePs next, std::uint64_t done, std::uint64_t flows, TimePs stop_ps) {
  if (flows > 0 && done == flows) return true;
  return next == kTimeNever || next > stop_ps;
}

}  // namespace

FabricRunStats run_fabric(Network& net, TimePs stop_ps,
                          const std::function<void(const FabricProgress&)>& progress,
                          WindowObserver* observer, RankLink* link) {
  return WindowedRun(net, stop_ps, progress, observer, link).run();
}

RankExchangeStats follow_fabric_windows(RankLink& link, TimePs stop_ps, std::uint64_t flows) {
  RankExchange exchange(link, nullptr);
  TimePs window = exchange.agree_on_start(kTimeNever);
  while (window != kTimeNever && window <= stop_ps) {
    RankWindowState mine;
    mine.signal = interrupt_requested() ? (interrupt_signal() ? interrupt_signal() : SIGINT) : 0;
    const WindowDecision d = exchange.exchange(mine);
    if (d.failed) break;  // the rank that runs the fabric failed: it reports why
    if (run_finished(d.next_ps, d.flows_completed, flows, stop_ps)) break;
    if (d.interrupted) throw Interrupted(window, d.flows_completed, d.signal);
    window = d.next_ps;
  }
  return exchange.stats();
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
