#include "control/pi_marking/pi_marking.h"

#include <algorithm>

#include "control/mechanism_scheme.h"
#include "net/switch.h"

namespace lossless {

void PiController::advance(TimePs now, Bytes held_bytes) {
  if (now < next_ps_) return;
  const TimePs updates = (now - next_ps_) / interval_ + 1;
  const double q_kb = static_cast<double>(held_bytes) / 1000.0;
  // The first update sees the queue change since the previous one; the queue held still for the others, so
  // each adds the same integral step and the clip of the last is the clip of their sum.
  p_ = std::clamp(p_ + a_ * (q_kb - q_ref_kb_) - b_ * (q_old_kb_ - q_ref_kb_), 0.0, 1.0);
  if (updates > 1)
    p_ = std::clamp(p_ + static_cast<double>(updates - 1) * (a_ - b_) * (q_kb - q_ref_kb_), 0.0, 1.0);
  q_old_kb_ = q_kb;
  next_ps_ += updates * interval_;
}

PiMarking::PiMarking(const PiMarkingParams& p, Switch& sw, Network&) : sw_(sw) {
  for (const Port& port : sw.ports) {
    const double q_ref_kb = per_rate_value(p.q_ref, port.rate_bps(), true) / 1000.0;
    for (int prio = 0; prio < kPriorities; ++prio) queues_.emplace_back(p.a, p.b, q_ref_kb, p.interval);
  }
}

void PiMarking::on_enqueue(const Port& egress, const Packet& p) {
  // The packet is queued already: the queue held the bytes before it until now.
  queues_[std::size_t{egress.index} * kPriorities + p.priority].advance(
      sw_.sim().now(), egress.priority_bytes(p.priority) - p.wire_bytes);
}

void PiMarking::on_dequeue(const Port& egress, Packet& p) {
  PiController& c = queues_[std::size_t{egress.index} * kPriorities + p.priority];
  c.advance(sw_.sim().now(), egress.priority_bytes(p.priority) + p.wire_bytes);
  if (p.ecn_capable && c.probability() > 0 && sw_.rng().uniform() < c.probability()) sw_.mark_ce(p);
}

LOSSLESS_REGISTER_MARKING(PiMarkingParams, PiMarking, "pi",
                          "DCQCN+PI (CoNEXT'16): ECN marking probability from a PI controller on the egress "
                          "queue, with cc.algorithm: dcqcn");

}  // namespace lossless
