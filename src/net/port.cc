#include "net/port.h"

#include "core/error.h"

namespace lossless {

Packet* Port::dequeue() {
  if (nonempty_mask_ & (1u << kControlPriority)) return pop_from(kControlPriority);
  // Round-robin over priorities 1..7 from rr_next_: the first sendable at or above it, else the lowest.
  const unsigned sendable = nonempty_mask_ & ~paused_mask & 0xFEu;
  if (!sendable) return nullptr;
  const unsigned from_rr = sendable & (0xFFu << rr_next_);
  const auto q = static_cast<std::uint8_t>(__builtin_ctz(from_rr ? from_rr : sendable));
  rr_next_ = round_robin_after(q);
  return pop_from(q);
}

void Port::transmit(Packet* p, NetCounters& hops_into, std::uint64_t owner_work) {
  const TimePs now = sim->now();
  const TimePs ser = ps_per_byte_ ? p->wire_bytes * ps_per_byte_ : clock_.tx_time(p->wire_bytes);
  const TimePs delay = short_delay_ps_ != kLongDelay ? short_delay_ps_ : state_->delay_ps;
  ++hops_into.packet_hops;
  // One event per packet on the wire, due a fixed offset (serialization + propagation) after now: the event
  // queue keeps such events in a FIFO lane, so this costs no heap work. The event goes straight to the
  // receiving port's owner.
  const auto [deliver_order, done_order] = sim->reserve_two_orders();
  p->in_port = peer_index;
  const auto packet = reinterpret_cast<std::uint64_t>(p);
  if (hands_over_)
    remote_->push_back({{now + ser + delay, deliver_order, deliver, peer_owner, packet}, ser + delay});
  else
    sim->at_reserved(now + ser + delay, deliver_order, deliver, peer_owner, packet);
  busy_until_ = now + ser;
  tx_done_order_ = done_order;
  if (counts_tx_bytes_) tx_bytes_ += p->wire_bytes;
  tx_done_pending_ = queued_bytes > 0 || owner_work != 0;
  // From the locals, not the two members just stored: gcc read those back as one 16-byte load, which the
  // store buffer cannot forward from two 8-byte stores.
  if (tx_done_pending_) sim->at_reserved(now + ser, done_order, &Port::tx_done_event, this, owner_work);
}

void Port::tx_bytes_not_counted() {
  LOSSLESS_CHECK(false, "tx_bytes of a port that does not count them (count_tx_bytes)");
  __builtin_unreachable();
}

void Port::tx_done_event(void* target, std::uint64_t) {
  auto* port = static_cast<Port*>(target);
  port->tx_done_pending_ = false;
  port->kick(port->owner, port->index);
}

void Port::on_pfc(std::uint8_t prio, std::uint16_t quanta, std::uint8_t kind) {
  TimePs now = sim->now();
  NetCounters* counters = state_->counters;
  if (counters->log_pfc) counters->pfc_log.push_back({now, node, index, prio, quanta > 0, quanta, kind});
  if (quanta == 0) {
    ++counters->resume_frames;
    if (paused(prio)) unpause(prio);
    return;
  }
  ++counters->pause_frames;
  ++counters->pause_frames_by_kind[kind];
  const bool newly_paused = !paused(prio);
  if (newly_paused) {
    paused_mask = static_cast<std::uint8_t>(paused_mask | (1u << prio));
    state_->paused_since[prio] = now;
  }
  // A pause lasts its quanta (512 bit times each) unless refreshed or resumed explicitly.
  TimePs duration = clock_.tx_time(std::uint64_t{quanta} * 64);
  state_->pause_until[prio] = now + duration;
  const std::uint32_t gen = ++state_->pause_gen[prio];
  sim->after(duration, &Port::pause_expire_event, this, (std::uint64_t{gen} << 3) | prio);
  if (newly_paused) {
    if (state_->pause_log) state_->pause_log->push_back({now, this, prio, true});
    if (state_->pause_changed) state_->pause_changed(owner, index, prio, true);
  }
}

void Port::pause_expire_event(void* target, std::uint64_t arg) {
  auto* port = static_cast<Port*>(target);
  auto prio = static_cast<std::uint8_t>(arg & 7u);
  if ((arg >> 3) != port->state_->pause_gen[prio] || !port->paused(prio)) return;
  ++port->state_->counters->pause_expiries;
  port->unpause(prio);
}

void Port::unpause(std::uint8_t prio) {
  paused_mask = static_cast<std::uint8_t>(paused_mask & ~(1u << prio));
  ++state_->pause_gen[prio];
  state_->counters->paused_time_ps += sim->now() - state_->paused_since[prio];
  if (state_->pause_log) state_->pause_log->push_back({sim->now(), this, prio, false});
  if (state_->pause_changed) state_->pause_changed(owner, index, prio, false);
  kick_or_wait();
}

void Port::close_pause_accounting(TimePs end_ps) {
  for (std::uint8_t q = 0; q < kPriorities; ++q)
    if (paused(q)) {
      state_->counters->paused_time_ps += end_ps - state_->paused_since[q];
      state_->paused_since[q] = end_ps;
    }
}

}  // namespace lossless
