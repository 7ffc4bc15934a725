#include "net/switch.h"

#include "net/network.h"

namespace lossless {

Switch::Switch(Network& net, std::uint32_t index, std::uint32_t node, std::size_t n_ports)
    : ports(n_ports),
      net_(net),
      part_(net.partition_of(node)),
      index_(index),
      node_(node),
      ecmp_seed_(switch_ecmp_seed(net.seed(), index)),
      rng_(net.seed(), "switch", index) {}

void Switch::configure() {
  const SwitchConfig& cfg = net_.switch_config();
  lossless_ = cfg.lossless();
  RateBps nic_rate = net_.max_host_rate();
  std::vector<SharedBufferMmu::PortSetup> setup;
  for (auto& p : ports) {
    Bytes headroom = cfg.headroom_bytes;
    if (headroom == 0) headroom = auto_headroom_bytes(p.rate_bps(), p.delay_ps, net_.nic_config());
    // As in the HPCC simulator: alpha doubles for each doubling of port speed above the host NIC speed.
    double alpha = cfg.alpha;
    for (RateBps r = p.rate_bps(); r > nic_rate && alpha < 1.0; r /= 2) alpha *= 2;
    setup.push_back({headroom, std::min(alpha, 1.0)});
    ecn_.push_back({static_cast<Bytes>(per_rate_value(cfg.kmin_bytes, p.rate_bps(), true)),
                    static_cast<Bytes>(per_rate_value(cfg.kmax_bytes, p.rate_bps(), true)),
                    per_rate_value(cfg.pmax, p.rate_bps(), false)});
  }
  mmu = SharedBufferMmu(cfg, setup);
  refresh_gen_.assign(ports.size() * kPriorities, 0);
}

void Switch::arrive_event(void* target, std::uint64_t packet) {
  auto* port = static_cast<Port*>(target);
  port->sim->act_as(port->node);  // the event was scheduled by the sending node
  static_cast<Switch*>(port->owner)->receive(*port, reinterpret_cast<Packet*>(packet));
}

void Switch::kick(void* owner, std::uint16_t port) {
  auto* sw = static_cast<Switch*>(owner);
  sw->try_send(sw->ports[port]);
}

std::uint16_t Switch::route(Packet& p) {
  if (p.route) return p.route[p.route_hop++];
  std::uint32_t n = 0;
  const std::uint16_t* cand = net_.routes().candidates(index_, p.dst, n);
  if (n == 1) return cand[0];
  if (net_.switch_config().routing == Routing::kSpray) return cand[rng_.below(n)];
  return cand[ecmp_pick(p.ecmp_hash, ecmp_seed_, n)];
}

void Switch::receive(Port& in, Packet* p) {
  if (p->type == PacketType::kPfc) {
    in.on_pfc(p->pfc_priority, p->pfc_quanta);
    part_.pool.put(p);
    return;
  }
  std::uint16_t out = route(*p);
  const std::uint8_t prio = p->priority;
  if (prio != kControlPriority) {
    if (!mmu.admit(in.index, prio, p->wire_bytes)) {
      part_.counters.drop(lossless_ ? DropReason::kHeadroomFull : DropReason::kBufferFull);
      part_.pool.put(p);
      return;
    }
    p->in_port = in.index;
    if (lossless_ && mmu.should_pause(in.index, prio))
      send_pfc(in.index, prio, net_.switch_config().pause_quanta);
  }
  Port& egress = ports[out];
  egress.enqueue(p);
  if (egress.queued_bytes > part_.counters.max_queue_bytes)
    part_.counters.max_queue_bytes = egress.queued_bytes;
  egress.kick_or_wait();
}

bool Switch::should_mark(std::uint16_t port, Bytes queue_bytes) {
  const EcnSetting& e = ecn_[port];
  if (queue_bytes > e.kmax_bytes) return true;
  if (queue_bytes <= e.kmin_bytes) return false;
  double p = e.pmax * static_cast<double>(queue_bytes - e.kmin_bytes) /
             static_cast<double>(e.kmax_bytes - e.kmin_bytes);
  return rng_.uniform() < p;
}

void Switch::try_send(Port& out) {
  if (out.busy()) return;
  Packet* p = out.dequeue();
  if (!p) return;
  const std::uint8_t prio = p->priority;
  if (prio != kControlPriority) {
    mmu.release(p->in_port, prio, p->wire_bytes);
    // RED on the instantaneous queue of (port, priority), decided at dequeue.
    if (p->ecn_capable && net_.switch_config().ecn_enabled &&
        should_mark(out.index, out.queues[prio].bytes())) {
      if (!p->ecn_ce) ++part_.counters.ecn_marks;
      p->ecn_ce = true;
    }
    if (lossless_ && mmu.should_resume(p->in_port, prio)) send_pfc(p->in_port, prio, 0);
    // In-band telemetry (HPCC): the port's line rate, time, cumulative bytes sent and bytes still queued.
    if (net_.int_enabled() && p->type == PacketType::kData && p->int_hops < kMaxIntHops) {
      p->hops[p->int_hops++] = {part_.sim.now(), out.tx_bytes, out.queued_bytes, out.rate_bps()};
      p->wire_bytes += static_cast<std::uint32_t>(net_.nic_config().int_hop_bytes);
    }
  }
  if (p->type != PacketType::kData) ++part_.counters.control_packets;
  out.transmit(p);
}

void Switch::send_feedback(std::uint32_t flow_id, std::uint64_t value, std::uint32_t origin) {
  const Flow& f = net_.flow(flow_id);
  Packet* p = part_.pool.get();
  p->type = PacketType::kFeedback;
  p->priority = kControlPriority;
  p->ecn_capable = false;
  p->flow_id = flow_id;
  p->src = f.dst;
  p->dst = f.src;
  p->ecmp_hash = net_.reverse_hash(flow_id);
  p->wire_bytes = static_cast<std::uint32_t>(net_.nic_config().cnp_bytes);
  p->feedback = value;
  p->feedback_origin = origin;
  p->sent_ps = part_.sim.now();
  Port& out = ports[route(*p)];
  out.enqueue(p);
  out.kick_or_wait();
}

void Switch::send_pfc(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta) {
  mmu.set_paused(port, prio, quanta > 0);
  std::size_t slot = std::size_t{port} * kPriorities + prio;
  ++refresh_gen_[slot];
  Packet* f = part_.pool.get();
  f->type = PacketType::kPfc;
  f->priority = kControlPriority;
  f->ecn_capable = false;
  f->pfc_priority = prio;
  f->pfc_quanta = quanta;
  f->wire_bytes = static_cast<std::uint32_t>(net_.nic_config().pfc_bytes);
  Port& p = ports[port];
  p.enqueue(f);
  if (quanta > 0) {
    // Standard PFC refreshes a pause before the peer's timer runs out, for as long as congestion lasts.
    TimePs duration = p.clock.tx_time(std::uint64_t{quanta} * 64);
    std::uint64_t arg = (std::uint64_t{refresh_gen_[slot]} << 24) | (std::uint64_t{port} << 3) | prio;
    part_.sim.after(duration / 2, &Switch::pfc_refresh_event, this, arg);
  }
  p.kick_or_wait();
}

void Switch::pfc_refresh_event(void* target, std::uint64_t arg) {
  auto* sw = static_cast<Switch*>(target);
  auto prio = static_cast<std::uint8_t>(arg & 7u);
  auto port = static_cast<std::uint16_t>((arg >> 3) & 0x1fffffu);
  std::size_t slot = std::size_t{port} * kPriorities + prio;
  if ((arg >> 24) != sw->refresh_gen_[slot] || !sw->mmu.paused(port, prio)) return;
  sw->send_pfc(port, prio, sw->net_.switch_config().pause_quanta);
}

}  // namespace lossless
