#include "net/rdma_nic.h"

#include <algorithm>

#include "core/error.h"
#include "net/congestion_control.h"
#include "net/network.h"
#include "net/packet_kinds.h"

namespace lossless {

void SenderQp::set_rate(double new_rate_bps) {
  if (new_rate_bps == rate_bps) return;
  if (last_wire_bytes > 0) {
    double bits = static_cast<double>(last_wire_bytes) * 8.0 * static_cast<double>(kPsPerSec);
    double shift = bits / new_rate_bps - bits / rate_bps;
    double moved = static_cast<double>(next_avail_ps) + shift;
    next_avail_ps = moved <= 0 ? 0 : static_cast<TimePs>(moved);
  }
  rate_bps = new_rate_bps;
  nic->on_qp_rate_change(*this);
}

RdmaNic::RdmaNic(Network& net, std::uint32_t host)
    : net_(net),
      partition_(net.partition_of(host)),
      host_(host),
      wake_(Timer::bind<RdmaNic, &RdmaNic::on_wake>(this)),
      ack_timer_(Timer::bind<RdmaNic, &RdmaNic::on_ack_timer>(this)) {
  port.attach(port_state_);
  if (net.deep_prefetch()) partition_.sim.add_prefetcher(&RdmaNic::arrive_event, &RdmaNic::prefetch_arrival);
}

RdmaNic::~RdmaNic() = default;

void RdmaNic::set_control(std::unique_ptr<NicControl> c) {
  control_ = std::move(c);
  scheduler_ = control_ && control_->schedules_qps() ? control_.get() : nullptr;
}

void RdmaNic::arrive_event(void* target, std::uint64_t packet) {
  auto* nic = static_cast<RdmaNic*>(target);
  nic->partition_.sim.act_as(nic->host_);  // the event was scheduled by the sending node
  nic->receive(reinterpret_cast<Packet*>(packet));
}

void RdmaNic::prefetch_arrival(const void* nic, std::uint64_t packet) {
  const auto* p = reinterpret_cast<const Packet*>(packet);
  const Network& net = static_cast<const RdmaNic*>(nic)->net_;
  const char* state;
  switch (p->type) {
    case PacketType::kData:
      state = reinterpret_cast<const char*>(&net.receiver(p->flow_id));
      break;
    case PacketType::kAck:
    case PacketType::kNack:
    case PacketType::kCnp:
      state = reinterpret_cast<const char*>(&net.qp(p->flow_id));
      break;
    default:
      return;
  }
  __builtin_prefetch(state);
  __builtin_prefetch(state + 64);
}

void RdmaNic::kick(void* owner, std::uint16_t) { static_cast<RdmaNic*>(owner)->try_send(); }

void RdmaNic::start_flow(SenderQp& qp) {
  qp.active = true;
  qp.rate_bps = static_cast<double>(qp.line_rate_bps);
  qp.next_avail_ps = partition_.sim.now();
  qp.last_progress_ps = partition_.sim.now();
  qp.cc->on_start();
  if (control_) control_->on_flow_start(qp);
  active_.push_back(&qp);
  if (net_.nic_config().rto_ps > 0) {
    qp.rto = Timer(&qp, [](void* q) {
      auto* s = static_cast<SenderQp*>(q);
      s->nic->on_rto(*s);
    });
    qp.rto.arm_after(partition_.sim, net_.nic_config().rto_ps);
  }
  port.kick_or_wait();
}

void RdmaNic::on_qp_rate_change(const SenderQp& qp) {
  if (wake_.armed() && qp.next_avail_ps < wake_.due()) {
    wake_.arm_at(partition_.sim, std::max(qp.next_avail_ps, partition_.sim.now()));
  }
}

void RdmaNic::on_wake() { port.kick_or_wait(); }

inline void RdmaNic::send_data(SenderQp& qp, TimePs now) {
  const NicConfig& cfg = net_.nic_config();
  Packet* p = partition_.pool.get();
  p->type = PacketType::kData;
  p->priority = qp.priority;
  p->flow_id = qp.flow_id;
  p->src = host_;  // the flow's source: a QP sends from its flow's source NIC
  p->dst = qp.dst;
  p->ecmp_hash = qp.ecmp_hash;
  p->route_offset = qp.route_offset;
  p->seq = qp.snd_nxt;
  p->payload_bytes = static_cast<std::uint32_t>(std::min<Bytes>(cfg.mtu_bytes, qp.size() - qp.snd_nxt));
  p->wire_bytes = static_cast<std::uint32_t>(p->payload_bytes + cfg.data_header_bytes + cfg.data_extra_bytes);
  p->sent_ps = now;
  if (qp.snd_nxt < qp.max_sent) partition_.counters.retransmitted_bytes += p->payload_bytes;
  qp.sent_bytes += p->payload_bytes;
  qp.snd_nxt += p->payload_bytes;
  qp.max_sent = std::max(qp.max_sent, qp.snd_nxt);
  if (cfg.ack_interval > 1) [[unlikely]] {
    // The window is full after this packet: ask for its ACK now, or the receiver would wait for packets
    // that cannot come before sending one (an ACK every ack_interval packets).
    if (Bytes w = qp.window(); w && qp.in_flight() >= w) p->ack_req = 1;
  }
  qp.last_wire_bytes = p->wire_bytes;
  qp.next_avail_ps = now + static_cast<TimePs>(static_cast<double>(p->wire_bytes) * 8.0 *
                                               static_cast<double>(kPsPerSec) / qp.rate_bps);
  qp.cc->on_sent(*p);
  if (control_) control_->on_sent(qp, *p);
  ++partition_.counters.data_packets;
  port.transmit(p, partition_.counters, next_work(this));
}

inline void RdmaNic::transmit_reply(Packet* p) {
  port.transmit(p, partition_.counters, next_work(this));
  ++partition_.counters.control_packets;
}

void RdmaNic::try_send() {
  if (port.busy()) return;
  Simulator& sim = partition_.sim;
  // ACK/NACK/CNP first, whatever priority they travel at (ACKs at data priority obey its pauses unless
  // nic.ack_priority is data_unpaused).
  if (Packet* p = port.pop_first_sendable(net_.nic_config().ack_unpaused_at_nic)) {
    transmit_reply(p);
    return;
  }
  const TimePs now = sim.now();
  TimePs earliest = kTimeNever;
  if (scheduler_) {
    if (SenderQp* qp = scheduler_->pick(active_, now, earliest)) {
      send_data(*qp, now);
      return;
    }
  } else {
    const std::size_t n = active_.size();
    // rr_next_ < n: the scan wraps with a compare, not a division.
    for (std::size_t i = 0, idx = rr_next_ < n ? rr_next_ : 0; i < n; ++i, idx = idx + 1 < n ? idx + 1 : 0) {
      SenderQp& qp = *active_[idx];
      if (!may_send(qp, now, earliest)) continue;
      rr_next_ = static_cast<std::uint32_t>(idx + 1 < n ? idx + 1 : 0);
      send_data(qp, now);
      return;
    }
  }
  if (earliest != kTimeNever && (!wake_.armed() || earliest < wake_.due())) wake_.arm_at(sim, earliest);
}

void RdmaNic::send(Packet* p) {
  // A packet that finds the port idle with nothing queued goes out at once: what queueing it and kicking the
  // port does (try_send sends replies first), without the queue, the kick, or the port's second line.
  if (port.first_sendable_now(p->priority, net_.nic_config().ack_unpaused_at_nic)) {
    transmit_reply(p);
    return;
  }
  port.enqueue(p);
  port.kick_or_wait();
}

Packet* RdmaNic::packet_for_flow(std::uint32_t flow_id, PacketType kind, std::uint32_t wire_bytes) {
  const Flow& f = net_.flow(flow_id);
  const bool at_sender = f.src == host_;
  Packet* p = control_packet(kind, wire_bytes);
  p->flow_id = flow_id;
  p->dst = at_sender ? f.dst : f.src;
  p->ecmp_hash = at_sender ? net_.forward_hash(flow_id) : net_.reverse_hash(flow_id);
  p->route_offset = at_sender ? net_.forward_route_offset(flow_id) : net_.reverse_route_offset(flow_id);
  return p;
}

Packet* RdmaNic::packet_to_link(PacketType kind, std::uint32_t wire_bytes) {
  LOSSLESS_CHECK(is_link_local(kind), "packet_to_link takes a link-local kind");
  return control_packet(kind, wire_bytes);
}

Packet* RdmaNic::control_packet(PacketType kind, std::uint32_t wire_bytes) {
  Packet* p = partition_.pool.get();
  p->type = kind;
  p->priority = kControlPriority;
  p->ecn_capable = false;
  p->src = host_;
  p->wire_bytes = wire_bytes;
  p->sent_ps = partition_.sim.now();
  return p;
}

void RdmaNic::send_cnp(const Packet& data) {
  ++partition_.counters.cnps;
  send(make_reply(data, PacketType::kCnp));
}

void RdmaNic::send_cnp(std::uint32_t flow_id) {
  ++partition_.counters.cnps;
  send(packet_for_flow(flow_id, PacketType::kCnp, static_cast<std::uint32_t>(net_.nic_config().cnp_bytes)));
}

Packet* RdmaNic::make_reply(const Packet& data, PacketType type) {
  Packet* p = partition_.pool.get();
  write_reply(p, type, ReplyTo{data.flow_id, data.src, data.dst, data.sent_ps, data.priority});
  return p;
}

void RdmaNic::write_reply(Packet* p, PacketType type, const ReplyTo& to) {
  const NicConfig& cfg = net_.nic_config();
  p->type = type;
  p->priority = (cfg.ack_high_priority || type == PacketType::kCnp) ? kControlPriority : to.priority;
  p->flow_id = to.flow_id;
  p->src = to.dst;
  p->dst = to.src;
  p->ecmp_hash = net_.reverse_hash(to.flow_id);
  p->route_offset = net_.reverse_route_offset(to.flow_id);
  p->ecn_capable = false;
  p->wire_bytes = static_cast<std::uint32_t>(type == PacketType::kCnp ? cfg.cnp_bytes : cfg.ack_bytes);
  p->sent_ps = to.sent_ps;
}

void RdmaNic::receive(Packet* p) {
  switch (p->type) {
    case PacketType::kData:
      if (receive_data(p)) return;  // the packet became the ACK
      break;
    case PacketType::kAck:
    case PacketType::kNack:
      receive_ack(p);
      break;
    case PacketType::kCnp: {
      SenderQp& qp = net_.qp(p->flow_id);
      if (!qp.finished) qp.cc->on_cnp(*p);
      break;
    }
    case PacketType::kPfc:
      port.on_pfc(p->pfc_priority, p->pfc_quanta, net_.pause_kind().read(*p));
      break;
    default:
      receive_scheme_packet(*p);
  }
  partition_.pool.put(p);
}

void RdmaNic::receive_scheme_packet(const Packet& p) {
  if (is_link_local(p.type)) {
    if (!control_)
      throw InternalError("host " + std::to_string(host_) + ": no scheme takes packets of kind " +
                          PacketKinds::name(p.type));
    control_->on_packet(p);
    return;
  }
  if (net_.flow(p.flow_id).src == host_) {
    SenderQp& qp = net_.qp(p.flow_id);
    if (!qp.finished) qp.cc->on_packet(p);
  } else {
    net_.receiver(p.flow_id).control->on_packet(p);
  }
}

bool RdmaNic::receive_data(Packet* p) {
  const NicConfig& cfg = net_.nic_config();
  ReceiverContext& rx = net_.receiver(p->flow_id);
  const Flow& f = net_.flow(p->flow_id);
  const TimePs now = partition_.sim.now();
  rx.arrived_bytes += p->payload_bytes;
  rx.control->on_data(*p);  // the notification point (CNPs), or the scheme's receiver
  if (p->seq == rx.expected) {
    rx.expected += p->payload_bytes;
    rx.last_delivery_ps = now;
    if (rx.reassembles != ReceiverContext::Reassembly::kNone) [[unlikely]] {
      rx.expected = rx.reassembles == ReceiverContext::Reassembly::kScheme
                        ? rx.control->contiguous_end(rx.expected)
                        : placed_end(p->flow_id, rx, rx.expected);
    }
    rx.ce_pending = rx.ce_pending | p->ecn_ce;  // not ||: gcc made a branch of it, which mispredicted
    if ((rx.ack_every != 0 && ++rx.packets_since_ack >= rx.ack_every) || rx.expected >= f.size_bytes ||
        p->ack_req || rx.ack_requested) {
      if (rx.ack_every > 1) [[unlikely]] {
        // This ACK covers the packet kept for the timeout, if any: it is not needed any more.
        if (auto held = unacked_.find(p->flow_id); held != unacked_.end()) {
          partition_.pool.put(held->second.packet);
          unacked_.erase(held);
        }
      }
      send_ack(p, rx);
      return true;
    }
    if (rx.ack_every > 1) [[unlikely]] {
      // Counted, not acknowledged: kept (the latest replaces the one before) to become the ACK if nothing
      // completes the interval within nic.ack_timeout of the first unacknowledged packet.
      auto [held, first] = unacked_.try_emplace(p->flow_id, Unacked{p, now + cfg.ack_timeout_ps});
      if (first) {
        ack_due_.emplace_back(held->second.due, p->flow_id);
        if (!ack_timer_.armed()) ack_timer_.arm_at(partition_.sim, held->second.due);
      } else {
        partition_.pool.put(held->second.packet);
        held->second.packet = p;
      }
      return true;
    }
  } else if (p->seq > rx.expected && rx.reassembles != ReceiverContext::Reassembly::kScheme) {
    if (cfg.place_out_of_order) {
      place(*p, rx);
    } else if (rx.last_nack_seq != rx.expected || now >= rx.nack_allowed_ps) {
      // A gap: ask for go-back-N, at most once per nack_interval for the same expected sequence.
      rx.last_nack_seq = rx.expected;
      rx.nack_allowed_ps = now + cfg.nack_interval_ps;
      Packet* nack = make_reply(*p, PacketType::kNack);
      nack->seq = rx.expected;
      nack->ecn_ce = p->ecn_ce;
      ++partition_.counters.nacks;
      rx.control->on_ack(*nack);
      send(nack);
    }
  }
  // seq < expected: a duplicate from a go-back-N; already delivered. Beyond it with `reassembles` kScheme:
  // the scheme's receiver holds it.
  return false;
}

void RdmaNic::send_ack(Packet* p, ReceiverContext& rx) {
  // The ACK is the data packet turned around: the scheme's fields (INT records) are already where the ACK
  // carries them, and no other packet has to be fetched and cleared.
  const ReplyTo to{p->flow_id, p->src, p->dst, p->sent_ps, p->priority};
  p->reset_header();  // keeps the schemes' fields
  write_reply(p, PacketType::kAck, to);
  p->seq = rx.expected;
  p->ecn_ce = rx.ce_pending;
  rx.control->on_ack(*p);
  rx.packets_since_ack = 0;
  rx.ce_pending = false;
  rx.ack_requested = false;
  send(p);
}

void RdmaNic::on_ack_timer() {
  const TimePs now = partition_.sim.now();
  while (!ack_due_.empty() && ack_due_.front().first <= now) {
    const auto [due, flow] = ack_due_.front();
    ack_due_.pop_front();
    // A flow ACKed by count since has no packet kept, or one kept for a later timeout (its own entry).
    auto held = unacked_.find(flow);
    if (held == unacked_.end() || held->second.due != due) continue;
    Packet* p = held->second.packet;
    unacked_.erase(held);
    send_ack(p, net_.receiver(flow));
  }
  if (!ack_due_.empty()) ack_timer_.arm_at(partition_.sim, ack_due_.front().first);
}

void RdmaNic::place(const Packet& p, ReceiverContext& rx) {
  // Out-of-order placement: the payload lands at its offset and is remembered as a byte range (merged with
  // its neighbours); a copy already held (a retransmission) changes nothing. No ACK: the cumulative ACK of
  // the packet that fills the gap covers it, with its CE mark.
  auto& ranges = placed_[p.flow_id];
  Bytes b = p.seq, e = p.seq + p.payload_bytes;
  auto it = std::lower_bound(ranges.begin(), ranges.end(), std::pair<Bytes, Bytes>{b, 0});
  if (it != ranges.begin() && std::prev(it)->second >= b) --it;
  auto last = it;
  while (last != ranges.end() && last->first <= e) {
    b = std::min(b, last->first);
    e = std::max(e, last->second);
    ++last;
  }
  it = ranges.erase(it, last);
  ranges.insert(it, {b, e});
  rx.reassembles = ReceiverContext::Reassembly::kNic;
  rx.ce_pending = rx.ce_pending || p.ecn_ce;
  rx.ack_requested = rx.ack_requested || p.ack_req;
}

Bytes RdmaNic::placed_end(std::uint32_t flow, ReceiverContext& rx, Bytes in_order_end) {
  auto found = placed_.find(flow);
  auto& ranges = found->second;
  std::size_t n = 0;
  while (n < ranges.size() && ranges[n].first <= in_order_end)
    in_order_end = std::max(in_order_end, ranges[n++].second);
  ranges.erase(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(n));
  if (ranges.empty()) {
    placed_.erase(found);
    rx.reassembles = ReceiverContext::Reassembly::kNone;
  }
  return in_order_end;
}

void RdmaNic::receive_ack(Packet* p) {
  SenderQp& qp = net_.qp(p->flow_id);
  if (qp.finished) return;
  if (p->seq > qp.snd_una) {
    qp.snd_una = p->seq;
    qp.last_progress_ps = partition_.sim.now();
  }
  if (p->type == PacketType::kNack) {
    qp.snd_nxt = qp.snd_una;  // go-back-N
  } else if (qp.snd_nxt < qp.snd_una) {
    qp.snd_nxt = qp.snd_una;
  }
  qp.cc->on_ack(*p);
  if (qp.snd_una >= qp.size()) complete(qp);
  port.kick_or_wait();
}

void RdmaNic::on_rto(SenderQp& qp) {
  if (qp.finished) return;
  TimePs rto = net_.nic_config().rto_ps;
  TimePs deadline = qp.last_progress_ps + rto;
  if (qp.snd_una < qp.snd_nxt && partition_.sim.now() >= deadline) {
    ++partition_.counters.timeouts;
    qp.snd_nxt = qp.snd_una;
    qp.last_progress_ps = partition_.sim.now();
    deadline = qp.last_progress_ps + rto;
    port.kick_or_wait();
  } else if (partition_.sim.now() >= deadline) {
    deadline = partition_.sim.now() + rto;
  }
  qp.rto.arm_at(partition_.sim, deadline);
}

void RdmaNic::complete(SenderQp& qp) {
  qp.finished = true;
  qp.active = false;
  qp.rto.cancel();
  qp.cc->on_finish();
  if (control_) control_->on_flow_finish(qp);
  auto it = std::find(active_.begin(), active_.end(), &qp);
  std::size_t idx = static_cast<std::size_t>(it - active_.begin());
  active_.erase(it);
  if (rr_next_ > idx) --rr_next_;
  if (rr_next_ >= active_.size()) rr_next_ = 0;
  net_.flow_completed(qp);
}

}  // namespace lossless
