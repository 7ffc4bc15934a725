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
    // fetching it while this one runs.
    if (!queue_.empty()) {
      const EventPayload& next = queue_.top_payload();
      prefetch_event(next, prefetch_whole_arg_);
      // And what its handler reaches through them (add_prefetcher).
      if (next.fn == prefetch_fn_[0])
        prefetch_deps_[0](next.target, next.arg);
      else if (next.fn == prefetch_fn_[1])
        prefetch_deps_[1](next.target, next.arg);
    }
    e.fn(e.target, e.arg);
    ++events_;
  }
}

}  // namespace lossless
