// The simulation kernel: clock + event queue. No globals: every component gets a Simulator& (STYLE P2).
#pragma once
#include <cstdint>

#include "core/event_queue.h"
#include "core/time.h"

namespace lossless {

class Simulator {
 public:
  TimePs now() const { return now_; }
  std::uint64_t events_processed() const { return events_; }

  void at(TimePs time, EventFn fn, void* target, std::uint64_t arg = 0,
          EventPhase phase = EventPhase::kNormal) {
    queue_.push(time, fn, target, arg, phase);
  }
  void after(TimePs delay, EventFn fn, void* target, std::uint64_t arg = 0,
             EventPhase phase = EventPhase::kNormal) {
    queue_.push(now_ + delay, fn, target, arg, phase);
  }

  // The order key of the event being run (ties at the same instant are resolved by it).
  std::uint64_t current_order() const { return current_order_; }
  std::uint64_t reserve_order(EventPhase phase = EventPhase::kNormal) { return queue_.reserve(phase); }
  void at_reserved(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg = 0) {
    queue_.push_ordered(time, order, fn, target, arg);
  }

  // Runs events with time <= until, or until stop() is called or the queue drains. `on_batch` is called every
  // `batch` events (progress reporting, early-exit checks) with no effect on the simulation.
  template <class OnBatch>
  void run(TimePs until, std::uint64_t batch, OnBatch&& on_batch) {
    stopped_ = false;
    std::uint64_t next_check = events_ + batch;
    Event e;
    while (!stopped_ && queue_.pop_until(until, e)) {
      now_ = e.time;
      current_order_ = e.order;
      // The next event's state is almost always cold (a packet that left a port a link delay ago): start
      // fetching it while this one runs. Prefetches never fault, whatever the argument holds.
      if (!queue_.empty()) {
        const EventPayload& next = queue_.top_payload();
        __builtin_prefetch(next.target);
        __builtin_prefetch(reinterpret_cast<const void*>(next.arg));
      }
      e.fn(e.target, e.arg);
      if (++events_ == next_check) {
        on_batch();
        next_check += batch;
      }
    }
  }
  void run(TimePs until) {
    run(until, ~std::uint64_t{0} >> 1, [] {});
  }
  void stop() { stopped_ = true; }
  std::size_t pending() const { return queue_.size(); }

 private:
  EventQueue queue_;
  TimePs now_ = 0;
  std::uint64_t current_order_ = 0;
  std::uint64_t events_ = 0;
  bool stopped_ = false;
};

// Adapts a member function to an EventFn: sim.at(t, &member_event<Port, &Port::on_tx_done>, this, arg).
template <class T, void (T::*Method)(std::uint64_t)>
void member_event(void* target, std::uint64_t arg) {
  (static_cast<T*>(target)->*Method)(arg);
}

}  // namespace lossless
