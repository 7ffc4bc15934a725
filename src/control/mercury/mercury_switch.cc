#include "control/mercury/mercury_switch.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "control/mechanism_scheme.h"
#include "control/mercury/mercury_cnp.h"
#include "net/network.h"
#include "net/packet_kinds.h"

namespace lossless {

const PacketType kMercuryCnp = PacketKinds::add("mercury.cnp", PacketKinds::kEndToEnd);

void MercuryPortState::on_pause(TimePs now) {
  paused_ = true;
  pause_start_ps_ = now;
  rx_bytes_ = 0;
  determined_ = false;
}

void MercuryPortState::on_resume(TimePs now, Bytes queue_bytes) {
  paused_ = false;
  if (queue_bytes > s_.threshold_bytes) {
    // More arrived during the pause than the port drains at line rate in that time: the queue keeps growing
    // now that it sends again, so the port itself is congested.
    const auto drained = static_cast<Bytes>(static_cast<unsigned __int128>(s_.rate_bps) *
                                            (now - pause_start_ps_) / (8 * kPsPerSec));
    determined_ = rx_bytes_ > drained;
  } else {
    determined_ = true;
  }
  // The periodic check compares with the queue at the resume: the growth during the pause says nothing
  // about the port's own load.
  last_check_ps_ = now;
  q_at_last_check_ = queue_bytes;
}

void MercuryPortState::on_dequeue(TimePs now, Bytes queue_bytes) {
  if (determined_ || paused_ || now - last_check_ps_ < s_.check_period_ps) return;
  // Still draining a long queue: the PFC side effect goes away by itself.
  determined_ = !(queue_bytes > s_.threshold_bytes && queue_bytes < q_at_last_check_);
  q_at_last_check_ = queue_bytes;
  last_check_ps_ = now;
}

MercurySwitch::MercurySwitch(const MercuryParams& p, Switch& sw, Network& net)
    : p_(p), sw_(sw), net_(net), cnp_(net.slots().bind(kMercuryCnpSlot)) {}

void MercurySwitch::start() {
  base_rtt_ps_ = p_.base_rtt == kTimeNever ? net_.max_base_rtt_ps() : p_.base_rtt;
  const SwitchConfig& cfg = net_.switch_config();
  for (const Port& port : sw_.ports) {
    MercuryPortState::Setting s;
    s.threshold_bytes = p_.threshold
                            ? p_.threshold
                            : static_cast<Bytes>(per_rate_value(cfg.kmin_bytes, port.rate_bps(), true));
    s.rate_bps = port.rate_bps();
    s.check_period_ps = p_.check_period;
    ports_.push_back({MercuryPortState(s), {}, 0});
  }
}

Bytes MercurySwitch::flow_bytes(std::size_t port, std::uint32_t flow) const {
  const auto it = ports_[port].flows.find(flow);
  return it == ports_[port].flows.end() ? 0 : it->second;
}

void MercurySwitch::on_enqueue(const Port& egress, const Packet& p) {
  PortData& d = ports_[egress.index];
  d.state.on_enqueue(p.wire_bytes);
  // The flow table holds data packets: ACKs and NACKs at data priority belong to no flow's forward load.
  if (p.type != PacketType::kData) return;
  Bytes& mine = d.flows[p.flow_id];
  mine += p.wire_bytes;
  d.total_bytes += p.wire_bytes;
  if (d.state.congested(egress.data_bytes())) send_cnp(egress, d, p.flow_id, mine);
}

void MercurySwitch::on_dequeue(const Port& egress, Packet& p) {
  PortData& d = ports_[egress.index];
  if (p.type == PacketType::kData) {
    auto it = d.flows.find(p.flow_id);
    if (it != d.flows.end()) {
      const Bytes b = std::min(it->second, static_cast<Bytes>(p.wire_bytes));
      it->second -= b;
      d.total_bytes -= b;
      if (it->second == 0) d.flows.erase(it);
    }
  }
  const bool was = d.state.determined();
  d.state.on_dequeue(sw_.sim().now(), egress.data_bytes());
  if (p_.trace && was != d.state.determined()) trace_state(egress, was);
}

void MercurySwitch::on_pause_change(const Port& port, std::uint8_t prio, bool) {
  if (prio == kControlPriority) return;
  // The port is paused while any data priority is.
  const bool paused = (port.paused_mask & ~(1u << kControlPriority)) != 0;
  PortData& d = ports_[port.index];
  if (paused == d.state.paused()) return;
  const bool was = d.state.determined();
  if (paused) {
    d.state.on_pause(sw_.sim().now());
  } else {
    d.state.on_resume(sw_.sim().now(), port.data_bytes());
  }
  if (p_.trace && was != d.state.determined()) trace_state(port, was);
}

void MercurySwitch::send_cnp(const Port& egress, const PortData& d, std::uint32_t flow, Bytes flow_bytes) {
  const TimePs now = sw_.sim().now();
  auto [it, fresh] = last_cnp_.try_emplace(flow, now);
  if (!fresh) {
    if (now - it->second < p_.cnp_interval) return;
    it->second = now;
  }
  if (last_cnp_.size() >= prune_at_) {
    // Flows not heard of for an interval need no entry: keeps the table at the flows of the last interval.
    std::erase_if(last_cnp_, [&](const auto& e) { return now - e.second >= p_.cnp_interval; });
    prune_at_ = std::max<std::size_t>(4096, 2 * last_cnp_.size());
  }
  // Win = C x flow_bytes / total_bytes x baseRTT: the flow's share of the port's capacity over one base RTT.
  const double window = static_cast<double>(egress.rate_bps()) * static_cast<double>(flow_bytes) /
                        static_cast<double>(d.total_bytes) * static_cast<double>(base_rtt_ps_) /
                        (8.0 * kPsPerSec);
  const auto bytes = static_cast<std::uint32_t>(
      std::min(window, static_cast<double>(std::numeric_limits<std::uint32_t>::max())));
  const auto cnp_bytes = static_cast<std::uint32_t>(net_.nic_config().cnp_bytes);
  Packet* cnp = sw_.packet_to_source(flow, kMercuryCnp, cnp_bytes);
  cnp->ext_init(cnp_).window_bytes = bytes;
  sw_.send(cnp);
  ++cnps_;
  if (p_.trace) trace_.push_back({now, egress.index, 2, flow, bytes});
}

void MercurySwitch::trace_state(const Port& port, bool was_determined) {
  trace_.push_back(
      {sw_.sim().now(), port.index, static_cast<std::uint8_t>(was_determined ? 1 : 0), 0, port.data_bytes()});
}

void MercurySwitch::write_trace(std::FILE* out) const {
  static const char* const kEvents[] = {"determined", "undetermined", "cnp"};
  const std::string node = net_.topology().node_name(sw_.node());
  for (const auto& r : trace_)
    std::fprintf(out, "%.3f,%s,%u,%s,%u,%llu\n", ps_to_ns(r.time_ps), node.c_str(),
                 static_cast<unsigned>(r.port), kEvents[r.event], r.flow,
                 static_cast<unsigned long long>(r.bytes));
}

LOSSLESS_REGISTER_MECHANISM(MercuryParams, MercurySwitch, "mercury",
                            "Mercury switch (J. Cloud Computing 2024): PFC-aware port states, window CNPs to "
                            "flows through truly congested ports; use with cc.algorithm: mercury");

}  // namespace lossless
