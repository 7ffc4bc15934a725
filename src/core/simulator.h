// The simulation kernel: clock + event queue. No globals: every component gets a Simulator& (STYLE P2).
#pragma once
#include <cstdint>
#include <utility>

#include "core/event_queue.h"
#include "core/order_key.h"
#include "core/time.h"

namespace lossless {

class Simulator {
 public:
  TimePs now() const { return now_; }
  std::uint64_t events_processed() const { return events_; }

  void at(TimePs time, EventFn fn, void* target, std::uint64_t arg = 0,
          EventPhase phase = EventPhase::kNormal) {
    queue_.push_ordered(time, reserve_order(phase), fn, target, arg);
  }
  void after(TimePs delay, EventFn fn, void* target, std::uint64_t arg = 0,
             EventPhase phase = EventPhase::kNormal) {
    queue_.push_ordered(now_ + delay, reserve_order(phase), fn, target, arg);
  }

  // The order key of the event being run (ties at the same instant are resolved by it).
  std::uint64_t current_order() const { return current_order_; }
  // A key taken now for an event that may be pushed later: it runs exactly where it would have run had it
  // been pushed now. Keys come from the acting node's Lamport clock (core/order_key.h).
  std::uint64_t reserve_order(EventPhase phase = EventPhase::kNormal) {
    return OrderKey::make(static_cast<std::uint8_t>(phase), take_seqs(1), node_);
  }
  // Two consecutive keys (a transmission's delivery and its end), for one clock update instead of two.
  std::pair<std::uint64_t, std::uint64_t> reserve_two_orders() {
    const std::uint64_t seq = take_seqs(2);
    constexpr auto kNormal = static_cast<std::uint8_t>(EventPhase::kNormal);
    return {OrderKey::make(kNormal, seq, node_), OrderKey::make(kNormal, seq + 1, node_)};
  }
  void at_reserved(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg = 0) {
    queue_.push_ordered(time, order, fn, target, arg);
  }
  // An event due soon at a time no lane serves (a pacing wake-up): the near-event ring first
  // (EventQueue::push_soon); one due later goes where at() would put it.
  void at_soon(TimePs time, EventFn fn, void* target, std::uint64_t arg = 0,
               EventPhase phase = EventPhase::kNormal) {
    queue_.push_soon(time, reserve_order(phase), fn, target, arg);
  }
  // The same for an event due soon at a time no lane serves (EventQueue::push_soon).
  void at_reserved_soon(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg = 0) {
    queue_.push_soon(time, order, fn, target, arg);
  }

  // An event scheduled by another simulator `offset` before it is due (a partitioned run hands them over
  // between windows).
  void at_handed_over(const Event& e, TimePs offset) {
    queue_.push_handed_over(e.time, e.order, e.fn, e.target, e.arg, offset);
  }

  // The node on whose behalf events are being scheduled. An event acts for the node that scheduled it; a
  // handler that runs on behalf of another node (a packet arriving over a link, a flow starting at its host)
  // says so first. Before the run it is the set-up context.
  void act_as(std::uint32_t node) { node_ = node; }
  // Per-node Lamport clocks (nodes 0..setup_node, the last being the set-up context; node n's is entry
  // n << shift, core/order_key.h), shared by the simulators of a partitioned run: each node's entry is only
  // touched by the thread that runs that node.
  void use_node_clocks(NodeClock* clocks, std::uint32_t setup_node, unsigned shift = 0) {
    clocks_ = clocks;
    clock_shift_ = shift;
    node_ = setup_node;
  }

  // Before an event runs, the loop calls `deps` for the next one when its handler is `fn`: the next event's
  // target and argument were prefetched a few events ago, and what the handler reaches through them (a
  // switch's egress port and buffer account, found from the packet's route) would otherwise be one miss
  // after another once it runs. Only speed depends on it: a handler beyond the first kPrefetchers registered
  // gets none.
  void add_prefetcher(EventFn fn, PrefetchFn deps) {
    for (std::size_t i = 0; i < kPrefetchers; ++i) {
      if (prefetch_fn_[i] == fn) return;
      if (!prefetch_fn_[i]) {
        prefetch_fn_[i] = fn;
        prefetch_deps_[i] = deps;
        return;
      }
    }
  }

  // Runs events with time <= until, or until the queue drains. Compiled in one place (simulator.cc): the
  // event loop's speed should not depend on the code around its caller.
  void run(TimePs until);
  std::size_t pending() const { return queue_.size(); }
  // Calls f(key, payload) for every pending event, in no particular order (between runs only).
  template <class F>
  void for_each_pending(F&& f) const {
    queue_.for_each(f);
  }
  // Prefetch the first three cache lines of the next event's argument (a 192-byte packet), not only the
  // first: worth it when handlers read whole packets (INT records); otherwise it only spends memory
  // bandwidth.
  void set_prefetch_whole_arg(bool on) {
    prefetch_whole_arg_ = on;
    queue_.set_touch_whole_arg(on);
  }
  // When the next event is due (kTimeNever if none is).
  TimePs next_time() const { return queue_.top_time(); }

 private:
  // The acting node's next `count` sequence numbers: above its previous keys and above the running event's.
  std::uint64_t take_seqs(std::uint64_t count) {
    std::uint64_t& clock = clocks_[std::size_t{node_} << clock_shift_].next_seq;
    const std::uint64_t seq = clock > seq_floor_ ? clock : seq_floor_;
    clock = seq + count;
    return seq;
  }

  EventQueue queue_;
  TimePs now_ = 0;
  std::uint64_t current_order_ = 0;
  std::uint64_t seq_floor_ = 1;  // keys taken while an event runs sort after it
  NodeClock own_clock_;          // a simulator on its own: one set-up context, node 0
  NodeClock* clocks_ = &own_clock_;
  unsigned clock_shift_ = 0;
  std::uint32_t node_ = 0;
  std::uint64_t events_ = 0;
  bool prefetch_whole_arg_ = false;
  static constexpr std::size_t kPrefetchers = 2;
  EventFn prefetch_fn_[kPrefetchers] = {};
  PrefetchFn prefetch_deps_[kPrefetchers] = {};
};

// Adapts a member function to an EventFn: sim.at(t, &member_event<Port, &Port::on_tx_done>, this, arg).
template <class T, void (T::*Method)(std::uint64_t)>
void member_event(void* target, std::uint64_t arg) {
  (static_cast<T*>(target)->*Method)(arg);
}

}  // namespace lossless
