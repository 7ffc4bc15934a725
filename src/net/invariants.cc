#include "net/invariants.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "net/network.h"
#include "net/packet_kinds.h"
#include "topo/routing.h"

namespace lossless {
namespace {

std::string bytes_text(Bytes b) { return std::to_string(b) + " B"; }

}  // namespace

std::string format_sim_time(TimePs t) {
  // Whole nanoseconds, as summary.json's *_ns keys.
  const std::uint64_t ns = t / kPsPerNs;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu.%06llu ms", static_cast<unsigned long long>(ns / 1'000'000),
                static_cast<unsigned long long>(ns % 1'000'000));
  return buf;
}

InvariantViolation::InvariantViolation(const std::string& invariant, const std::string& where, TimePs at,
                                       const std::string& detail)
    : InternalError("invariant violated: " + invariant + ": " + where + " at " + format_sim_time(at) + ": " +
                    detail),
      invariant_(invariant) {}

FabricChecker::FabricChecker(const Network& net) : net_(net), drops_seen_(net.partitions(), 0) {
  if (net.ranks() > 1) first_port_ = first_port_of_nodes(net.topology());
}

std::string FabricChecker::port_name(const Port& p) const {
  const Topology& t = net_.topology();
  return t.node_name(p.node) + " port " + std::to_string(p.index) + " (to " +
         t.node_name(net_.peer_node(p.node, p.index)) + ")";
}

void FabricChecker::check(TimePs now, bool drained) {
  ++passes_;
  collect_drops();
  take_census();
  sum_flows();
  if (net_.ranks() > 1) sum_pauses_over_ranks();
  // A lost packet is named by its flow first (it also leaves its buffer's counters wrong).
  check_flows(now);
  check_ports(now, drained);
  check_buffers(now);
}

void FabricChecker::collect_drops() {
  dropped_.resize(net_.flows().size(), 0);
  for (std::size_t i = 0; i < net_.partitions(); ++i) {
    const std::vector<DataDrop>& d = net_.partition(i).data_drops;
    for (std::size_t k = drops_seen_[i]; k < d.size(); ++k)
      if (d[k].flow_id < dropped_.size()) dropped_[d[k].flow_id] += d[k].payload_bytes;
    drops_seen_[i] = d.size();
  }
}

void FabricChecker::take_census() {
  const Topology& topo = net_.topology();
  census_.flow_bytes.assign(net_.flows().size(), 0);
  census_.flow_packets.assign(net_.flows().size(), 0);
  census_.held.resize(net_.switch_count());
  census_.held_total.assign(net_.switch_count(), 0);
  census_.pauses_heading_to.clear();
  census_.packets = 0;
  auto note = [&](const Packet& p, const Port* toward) {
    ++census_.packets;
    if (p.type == PacketType::kData && p.flow_id < census_.flow_bytes.size()) {
      census_.flow_bytes[p.flow_id] += p.payload_bytes;
      ++census_.flow_packets[p.flow_id];
    } else if (p.type == PacketType::kPfc && p.pfc_quanta > 0 && toward) {
      census_.pauses_heading_to[toward] |= static_cast<std::uint8_t>(1u << (p.pfc_priority & 7));
    }
  };
  // Queued at a switch port: held by its buffer (data priorities), pause frames toward the peer.
  for (std::size_t s = 0; s < net_.switch_count(); ++s) {
    if (!net_.has_switch(static_cast<std::uint32_t>(s))) continue;
    const Switch& sw = net_.switch_at(static_cast<std::uint32_t>(s));
    census_.held[s].assign(sw.ports.size() * kPriorities, 0);
    for (const Port& port : sw.ports) {
      auto in_switch = [&](const Packet& p) {
        note(p, &net_.peer_of(port));
        if (p.priority != kControlPriority) {
          census_.held[s][std::size_t{p.in_port} * kPriorities + p.priority] += p.wire_bytes;
          census_.held_total[s] += p.wire_bytes;
        }
      };
      for (const PacketFifo& q : port.queues()) q.for_each(in_switch);
      if (port.custom_queues()) port.custom_queues()->for_each(in_switch);
    }
  }
  for (std::uint32_t h = 0; h < topo.hosts; ++h) {
    if (!net_.is_local(h)) continue;
    const Port& port = net_.nic(h).port;
    for (const PacketFifo& q : port.queues())
      q.for_each([&](const Packet& p) { note(p, &net_.peer_of(port)); });
  }
  // On a link: the delivery event to the receiving port is pending. Deliveries are the events whose handler
  // is one of the ports' receive handlers (Port::deliver); their target is the receiving node's switch or
  // NIC, their argument the packet, whose `in_port` names the receiving port.
  std::vector<EventFn> deliver;
  auto add_fn = [&](EventFn f) {
    if (f && std::find(deliver.begin(), deliver.end(), f) == deliver.end()) deliver.push_back(f);
  };
  for (std::uint32_t h = 0; h < topo.hosts; ++h)
    if (net_.is_local(h)) add_fn(net_.nic(h).port.deliver);
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s)
    if (net_.has_switch(s))
      for (const Port& port : net_.switch_at(s).ports) add_fn(port.deliver);
  for (std::size_t i = 0; i < net_.partitions(); ++i)
    net_.partition(i).sim.for_each_pending([&](const EventKey&, const EventPayload& e) {
      if (std::find(deliver.begin(), deliver.end(), e.fn) == deliver.end()) return;
      const auto& p = *reinterpret_cast<const Packet*>(e.arg);
      note(p, e.fn == &RdmaNic::arrive_event ? &static_cast<const RdmaNic*>(e.target)->port
                                             : &static_cast<const Switch*>(e.target)->ports[p.in_port]);
    });
}

void FabricChecker::sum_flows() {
  flow_sums_.assign(net_.flows().size() * kFlowSums, 0);
  for (const Flow& f : net_.flows()) {
    std::uint64_t* v = &flow_sums_[std::size_t{f.id} * kFlowSums];
    if (net_.is_local(f.src)) v[0] = net_.qp(f.id).sent_bytes;
    if (net_.is_local(f.dst)) {
      v[1] = net_.receiver(f.id).arrived_bytes;
      v[2] = net_.receiver(f.id).expected;
    }
    v[3] = census_.flow_bytes[f.id];
    v[4] = census_.flow_packets[f.id];
    v[5] = dropped_[f.id];
  }
  if (net_.ranks() > 1) net_.link()->all_sum(flow_sums_);
}

void FabricChecker::sum_pauses_over_ranks() {
  pause_seen_.assign(std::size_t{first_port_.back()} * kPriorities, 0);
  auto seen = [&](const Port& p, std::uint8_t mask) {
    for (std::uint8_t q = 0; q < kPriorities; ++q)
      if ((mask >> q) & 1u) pause_seen_[(std::size_t{first_port_[p.node]} + p.index) * kPriorities + q] = 1;
  };
  auto paused_mask = [](const Port& p) {
    std::uint8_t m = 0;
    for (std::uint8_t q = 0; q < kPriorities; ++q)
      if (p.paused(q)) m = static_cast<std::uint8_t>(m | (1u << q));
    return m;
  };
  for (std::uint32_t h = 0; h < net_.topology().hosts; ++h)
    if (net_.is_local(h)) seen(net_.nic(h).port, paused_mask(net_.nic(h).port));
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s)
    if (net_.has_switch(s))
      for (const Port& port : net_.switch_at(s).ports) seen(port, paused_mask(port));
  // Pause frames queued here toward a port of another rank (its stand-in) or on a link into this rank.
  for (const auto& [port, mask] : census_.pauses_heading_to) seen(*port, mask);
  net_.link()->all_sum(pause_seen_);
}

void FabricChecker::check_ports(TimePs now, bool drained) const {
  auto check_port = [&](const Port& port, Bytes capacity, const char* bound) {
    Bytes total = 0;
    for (int q = 0; q < kPriorities; ++q) {
      const PacketFifo& fifo = port.queues()[q];
      Bytes bytes = 0;
      std::uint32_t count = 0;
      fifo.for_each([&](const Packet& p) {
        bytes += p.wire_bytes;
        ++count;
      });
      if (bytes != fifo.bytes() || count != fifo.count())
        throw InvariantViolation("queue bytes", port_name(port) + " priority " + std::to_string(q), now,
                                 "the queue counts " + bytes_text(fifo.bytes()) + " in " +
                                     std::to_string(fifo.count()) + " packets but holds " +
                                     bytes_text(bytes) + " in " + std::to_string(count));
      total += bytes;
    }
    if (port.custom_queues()) {
      std::array<Bytes, kPriorities> by_prio{};
      port.custom_queues()->for_each([&](const Packet& p) { by_prio[p.priority & 7] += p.wire_bytes; });
      for (std::uint8_t q = 1; q < kPriorities; ++q) {
        if (by_prio[q] != port.custom_queues()->bytes(q))
          throw InvariantViolation("queue bytes", port_name(port) + " priority " + std::to_string(q), now,
                                   "the port's queue set counts " +
                                       bytes_text(port.custom_queues()->bytes(q)) + " but holds " +
                                       bytes_text(by_prio[q]));
        total += by_prio[q];
      }
    }
    if (total != port.queued_bytes)
      throw InvariantViolation(
          "queue bytes", port_name(port), now,
          "the port counts " + bytes_text(port.queued_bytes) + " queued but holds " + bytes_text(total));
    if (port.data_bytes() > capacity)
      throw InvariantViolation(
          "queue bytes", port_name(port), now,
          bytes_text(port.data_bytes()) + " queued, more than " + bound + " (" + bytes_text(capacity) + ")");
    for (std::uint8_t q = 0; q < kPriorities; ++q) {
      if (!port.paused(q)) continue;
      const std::string where = port_name(port) + " priority " + std::to_string(q);
      if (drained)
        throw InvariantViolation("pause", where, now,
                                 "paused (since " + format_sim_time(port.paused_since(q)) +
                                     ") when no event is left to resume it or let it expire");
      if (port.pause_until(q) <= now)
        throw InvariantViolation("pause", where, now,
                                 "still paused after its pause ran out at " +
                                     format_sim_time(port.pause_until(q)) + ": neither resumed nor expired");
    }
  };
  for (std::uint32_t h = 0; h < net_.topology().hosts; ++h)
    if (net_.is_local(h)) check_port(net_.nic(h).port, ~Bytes{0}, "");
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s) {
    if (!net_.has_switch(s)) continue;
    const Switch& sw = net_.switch_at(s);
    const Bytes capacity =
        std::max(net_.switch_config().buffer_bytes,
                 sw.mmu.shared_pool_bytes() + sw.mmu.total_reserve_bytes() + sw.mmu.total_headroom_bytes());
    for (const Port& port : sw.ports) {
      // An architecture that sizes its queues itself bounds them (VOQ), not switch.buffer.
      const Bytes own = port.custom_queues() ? port.custom_queues()->capacity() : 0;
      check_port(port, own ? own : capacity, own ? "its queues' sizes" : "the switch's memory");
    }
  }
}

void FabricChecker::check_buffers(TimePs now) const {
  const Topology& topo = net_.topology();
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s) {
    if (!net_.has_switch(s)) continue;
    const Switch& sw = net_.switch_at(s);
    const BufferModel& buf = sw.buffer();
    const std::vector<Bytes>& held = census_.held[s];
    auto name = [&] { return topo.node_name(sw.node()); };
    // The shared buffer accounts a packet from its arrival to its departure: its counters are the packets.
    bool exact = &buf == &sw.mmu;
    for (const Port& port : sw.ports)
      if (port.custom_queues() && port.custom_queues()->releases_ingress()) exact = false;
    if (exact) {
      const SharedBufferMmu& mmu = sw.mmu;
      Bytes shared = 0;
      for (std::uint16_t j = 0; j < sw.ports.size(); ++j)
        for (std::uint8_t q = 1; q < kPriorities; ++q) {
          const Bytes in = mmu.ingress_bytes(j, q), head = mmu.headroom_used(j, q);
          const Bytes have = held[std::size_t{j} * kPriorities + q];
          auto where = [&] {
            return name() + " ingress port " + std::to_string(j) + " priority " + std::to_string(q);
          };
          if (in + head != have)
            throw InvariantViolation("buffer", where(), now,
                                     "the buffer counts " + bytes_text(in + head) + " (" + bytes_text(in) +
                                         " reserve and shared, " + bytes_text(head) +
                                         " headroom) but the packets that arrived there and are still queued "
                                         "come to " +
                                         bytes_text(have));
          if (head > mmu.port_headroom_bytes(j))
            throw InvariantViolation("buffer", where(), now,
                                     bytes_text(head) + " in headroom, more than the port's " +
                                         bytes_text(mmu.port_headroom_bytes(j)));
          shared += in > mmu.reserve_bytes() ? in - mmu.reserve_bytes() : 0;
        }
      if (shared != mmu.total_shared_used() || mmu.total_shared_used() > mmu.shared_pool_bytes())
        throw InvariantViolation("buffer", name() + " shared pool", now,
                                 "the pool counts " + bytes_text(mmu.total_shared_used()) + " used of " +
                                     bytes_text(mmu.shared_pool_bytes()) +
                                     "; the ingress counters beyond their reserves come to " +
                                     bytes_text(shared));
    } else if (census_.held_total[s] == 0) {
      for (std::uint16_t j = 0; j < sw.ports.size(); ++j)
        for (std::uint8_t q = 1; q < kPriorities; ++q)
          if (buf.ingress_bytes(j, q) != 0)
            throw InvariantViolation(
                "buffer", name() + " ingress port " + std::to_string(j) + " priority " + std::to_string(q),
                now,
                "the buffer counts " + bytes_text(buf.ingress_bytes(j, q)) +
                    " held when the switch holds no packet");
    }
    // A pause this switch holds toward an upstream port is in force there, or its frame is on the way.
    for (std::uint16_t j = 0; j < sw.ports.size(); ++j)
      for (std::uint8_t q = 1; q < kPriorities; ++q) {
        if (!buf.paused(j, q)) continue;
        const Port* up = &net_.peer_of(sw.ports[j]);
        if (net_.ranks() > 1 && !net_.is_local(up->node)) {
          if (pause_seen_[(std::size_t{first_port_[up->node]} + up->index) * kPriorities + q]) continue;
        } else {
          if (up->paused(q)) continue;
          auto it = census_.pauses_heading_to.find(up);
          if (it != census_.pauses_heading_to.end() && ((it->second >> q) & 1u)) continue;
        }
        throw InvariantViolation(
            "pause", name() + " ingress port " + std::to_string(j) + " priority " + std::to_string(q), now,
            "the switch holds a pause of its upstream " + port_name(*up) +
                ", which is not paused, and no pause frame is on its way there");
      }
  }
}

void FabricChecker::check_flows(TimePs now) const {
  const Topology& topo = net_.topology();
  StateCheck sc;
  for (const Flow& f : net_.flows()) {
    const bool sender = net_.is_local(f.src), receiver = net_.is_local(f.dst);
    if (!sender && !receiver) continue;
    auto where = [&] {
      return "flow " + std::to_string(f.id) + " (" + topo.node_name(f.src) + " -> " + topo.node_name(f.dst) +
             ", " + bytes_text(f.size_bytes) + ")";
    };
    const std::uint64_t* v = &flow_sums_[std::size_t{f.id} * kFlowSums];
    const Bytes sent = v[0], arrived = v[1], delivered = v[2], wire = v[3], dropped = v[5];
    auto state = [&](bool ok, auto&& what) {
      if (!ok) throw InvariantViolation("flow state", where(), now, what());
    };
    if (sender) {  // what spans ranks is checked once, on the sender's rank
      const SenderQp& q = net_.qp(f.id);
      const Bytes accounted = arrived + wire + dropped;
      if (sent != accounted)
        throw InvariantViolation(
            "flow bytes", where(), now,
            "sent " + bytes_text(sent) + ", but arrived " + bytes_text(arrived) + " + in flight " +
                bytes_text(wire) + " (" + std::to_string(v[4]) + " packets) + dropped " +
                bytes_text(dropped) + " = " + bytes_text(accounted) + ": " +
                (sent > accounted ? bytes_text(sent - accounted) + " lost uncounted"
                                  : bytes_text(accounted - sent) + " more than was sent"));
      state(q.snd_una <= q.snd_nxt && q.snd_nxt <= f.size_bytes && q.max_sent <= f.size_bytes, [&] {
        return "sequence out of order: acknowledged " + bytes_text(q.snd_una) + ", next to send " +
               bytes_text(q.snd_nxt) + ", highest sent " + bytes_text(q.max_sent);
      });
      state(q.snd_una <= delivered, [&] {
        return "acknowledged " + bytes_text(q.snd_una) + ", beyond the " + bytes_text(delivered) +
               " delivered";
      });
      state(delivered <= arrived && delivered <= f.size_bytes,
            [&] { return "delivered " + bytes_text(delivered) + " of " + bytes_text(arrived) + " arrived"; });
      state(std::isfinite(q.rate_bps) && q.rate_bps > 0,
            [&] { return "pacing rate " + std::to_string(q.rate_bps) + " b/s"; });
      if (q.cc) q.cc->check_state(sc);
      if (sc.failed()) throw InvariantViolation("scheme state", where() + " sender", now, sc.failure());
    }
    if (receiver) {
      const ReceiverContext& rx = net_.receiver(f.id);
      if (rx.control) rx.control->check_state(sc);
      if (sc.failed()) throw InvariantViolation("scheme state", where() + " receiver", now, sc.failure());
    }
  }
  for (std::uint32_t h = 0; h < topo.hosts; ++h)
    if (!net_.is_local(h)) {
      continue;
    } else if (const NicControl* c = net_.nic(h).control()) {
      c->check_state(sc);
      if (sc.failed())
        throw InvariantViolation("scheme state", topo.node_name(h) + " NIC", now, sc.failure());
    }
}

}  // namespace lossless
