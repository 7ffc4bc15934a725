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
    if (!queue_.empty()) prefetch_event(queue_.top_payload(), prefetch_whole_arg_);
    e.fn(e.target, e.arg);
    ++events_;
  }
}

}  // namespace lossless
