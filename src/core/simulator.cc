#include "core/simulator.h"

namespace lossless {

void Simulator::run(TimePs until) {
  Event e;
  while (queue_.pop_until(until, e)) {
    now_ = e.time;
    current_order_ = e.order;
    seq_floor_ = OrderKey::seq(e.order) + 1;
    node_ = OrderKey::node(e.order);
    // The next event's state is almost always cold (a packet that left a port a link delay ago): start
    // fetching it while this one runs. Prefetches never fault, whatever the argument holds. They stay in this
    // body: gcc deletes calls to a small non-inlined helper that only prefetches (no side effects).
    if (!queue_.empty()) {
      const EventPayload& next = queue_.top_payload();
      __builtin_prefetch(next.target);
      const auto* arg = reinterpret_cast<const char*>(next.arg);
      __builtin_prefetch(arg);
      if (prefetch_whole_arg_) {
        __builtin_prefetch(arg + 64);
        __builtin_prefetch(arg + 128);
        __builtin_prefetch(arg + 192);
      }
    }
    e.fn(e.target, e.arg);
    ++events_;
  }
}

}  // namespace lossless
