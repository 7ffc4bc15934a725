#include "net/network.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/error.h"
#include "net/flow_control.h"
#include "net/routing_policy.h"
#include "topo/partitioning.h"

namespace lossless {
namespace {

std::uint32_t five_tuple_hash(std::uint32_t src, std::uint32_t dst, std::uint16_t sport,
                              std::uint16_t dport) {
  std::uint64_t key = (std::uint64_t{src} << 32) ^ (std::uint64_t{dst} << 8) ^ (std::uint64_t{sport} << 48) ^
                      (std::uint64_t{dport} << 16) ^ 0x11;  // 0x11: UDP
  return static_cast<std::uint32_t>(mix64(key) >> 16);
}

}  // namespace

Network::Network(Topology topo, const SwitchConfig& sw, const NicConfig& nic, std::uint64_t seed,
                 unsigned partitions)
    : topo_(std::move(topo)), sw_cfg_(sw), nic_cfg_(nic), seed_(seed) {
  resolve_switch_schemes(sw_cfg_);
  // The switch schemes' packet slots, before any switch builds its schemes (the mechanism's and the
  // congestion control's follow as they are installed; the scenario reader laid out the same to check them).
  lay_out_switch_slots(layout_, sw_cfg_);
  if (topo_.nodes() >= OrderKey::kMaxNodes)
    throw ConfigError("", "topology",
                      "too many nodes (at most " + std::to_string(OrderKey::kMaxNodes - 1) + ")");
  lookahead_ps_ = min_link_delay(topo_);
  if (lookahead_ps_ == 0) partitions = 1;  // no lookahead: one thread
  partitions = std::max(1u, std::min({partitions, topo_.hosts, 255u}));
  node_part_ = split_nodes(topo_, partitions);
  node_clocks_.assign(topo_.nodes() + 1, NodeClock{});
  for (unsigned i = 0; i < partitions; ++i) {
    parts_.push_back(std::make_unique<Partition>(i));
    Partition& part = *parts_.back();
    part.net = this;
    part.outbox.resize(partitions);
    part.sim.use_node_clocks(node_clocks_.data(), topo_.nodes());
  }
  node_ports_.resize(topo_.nodes());
  for (std::uint32_t i = 0; i < topo_.links.size(); ++i) {
    const auto& l = topo_.links[i];
    node_ports_[l.a].peer.push_back(l.b);
    node_ports_[l.a].link.push_back(i);
    node_ports_[l.b].peer.push_back(l.a);
    node_ports_[l.b].link.push_back(i);
  }
  for (std::uint32_t n = 0; n < topo_.nodes(); ++n)
    LOSSLESS_CHECK(node_ports_[n].peer.size() < 0xffff, "too many ports on one node");
  routes_ = RoutingTable(topo_, node_ports_);

  nics_.reserve(topo_.hosts);
  for (std::uint32_t h = 0; h < topo_.hosts; ++h) nics_.push_back(std::make_unique<RdmaNic>(*this, h));
  switches_.reserve(topo_.switches);
  for (std::uint32_t s = 0; s < topo_.switches; ++s)
    switches_.push_back(std::make_unique<Switch>(*this, s, topo_.switch_node(s),
                                                 node_ports_[topo_.switch_node(s)].peer.size()));

  auto port_of = [&](std::uint32_t node, std::uint32_t idx) -> Port& {
    return topo_.is_host(node) ? nics_[node]->port : switches_[node - topo_.hosts]->ports[idx];
  };
  for (std::uint32_t n = 0; n < topo_.nodes(); ++n) {
    for (std::uint32_t idx = 0; idx < node_ports_[n].peer.size(); ++idx) {
      Port& p = port_of(n, idx);
      const TopoLink& l = topo_.links[node_ports_[n].link[idx]];
      std::uint32_t peer = node_ports_[n].peer[idx];
      // The peer's port on the same link.
      std::uint32_t peer_idx = 0;
      while (node_ports_[peer].link[peer_idx] != node_ports_[n].link[idx]) ++peer_idx;
      Partition& part = partition_of(n);
      p.sim = &part.sim;
      p.counters = &part.counters;
      if (node_part_[peer] != part.id) p.remote = &part.outbox[node_part_[peer]];
      // A switch wires its own receive handler into its peers' ports (Switch::configure).
      p.deliver = topo_.is_host(peer) ? &RdmaNic::arrive_event : nullptr;
      p.node = n;
      p.index = static_cast<std::uint16_t>(idx);
      p.peer = &port_of(peer, peer_idx);
      p.clock = SerializationClock(l.rate_bps);
      p.delay_ps = l.delay_ps;
      if (topo_.is_host(n)) {
        p.owner = nics_[n].get();
        p.kick = &RdmaNic::kick;
        p.owner_has_work = &RdmaNic::has_work;
        max_host_rate_ = std::max(max_host_rate_, l.rate_bps);
      } else {
        p.owner = switches_[n - topo_.hosts].get();
      }
    }
  }
  for (auto& s : switches_) s->configure();
  routes_per_flow_ =
      std::all_of(switches_.begin(), switches_.end(), [](const auto& s) { return s->router().per_flow(); });
  compute_global_rtt();
  for (auto& s : switches_) {
    Simulator& sim = sim_of(s->node());
    sim.act_as(s->node());  // the policy's timers act for its switch
    s->flow_control().start();
    if (s->marking()) s->marking()->start();
    sim.act_as(topo_.nodes());
  }
}

Network::~Network() = default;

PathInfo Network::path(std::uint32_t src, std::uint32_t dst, std::uint32_t hash, std::uint32_t flow_id,
                       std::vector<std::uint16_t>* switch_ports) const {
  PathInfo info;
  info.bottleneck_bps = ~RateBps{0};
  std::uint32_t node = src;
  std::uint32_t port = 0;
  const TimePs mtu_bytes = nic_cfg_.mtu_bytes;
  for (std::uint32_t guard = 0; guard <= topo_.nodes(); ++guard) {
    const TopoLink& l = topo_.links[node_ports_[node].link[port]];
    ++info.links;
    info.one_way_delay_ps += l.delay_ps;
    info.mtu_tx_ps += tx_time_ps(mtu_bytes, l.rate_bps);
    info.ps_per_byte += 8.0 * static_cast<double>(kPsPerSec) / static_cast<double>(l.rate_bps);
    info.bottleneck_bps = std::min(info.bottleneck_bps, l.rate_bps);
    node = node_ports_[node].peer[port];
    if (node == dst) return info;
    LOSSLESS_CHECK(!topo_.is_host(node), "path walked into a host");
    std::uint32_t s = node - topo_.hosts, n = 0;
    const std::uint16_t* cand = routes_.candidates(s, dst, n);
    LOSSLESS_CHECK(n > 0, "no route");
    if (n == 1) {
      port = cand[0];
    } else if (routes_per_flow_) {
      // The path every packet of the flow takes: the switch's router decides it once.
      static thread_local Packet probe;
      probe.src = src;
      probe.dst = dst;
      probe.ecmp_hash = hash;
      probe.flow_id = flow_id;
      port = switches_[s]->router().choose(probe, cand, n);
    } else {
      // Routed per packet (spraying): the nominal path of its base RTT is the ECMP one.
      port = cand[ecmp_pick(hash, switch_ecmp_seed(seed_, s), n)];
    }
    if (switch_ports) switch_ports->push_back(static_cast<std::uint16_t>(port));
  }
  throw InternalError("routing loop");
}

TimePs Network::ideal_fct_ps(const Flow& f) const {
  const SenderQp& q = qps_[f.id];
  Bytes packets = (f.size_bytes + nic_cfg_.mtu_bytes - 1) / nic_cfg_.mtu_bytes;
  Bytes wire = f.size_bytes + packets * nic_cfg_.data_header_bytes;
  return q.base_rtt_ps + tx_time_ps(wire, q.bottleneck_bps);
}

void Network::compute_global_rtt() {
  // HPCC's GLOBAL_T: the largest base RTT (and BDP) over host pairs. Paths are symmetric in hop count, so one
  // ECMP choice per pair is representative.
  auto consider = [&](std::uint32_t a, std::uint32_t b) {
    PathInfo p = path(a, b, 0, kNoFlow);
    TimePs rtt = p.base_rtt_ps();
    Bytes bdp = static_cast<Bytes>(static_cast<unsigned __int128>(rtt) * p.bottleneck_bps / (8 * kPsPerSec));
    max_base_rtt_ps_ = std::max(max_base_rtt_ps_, rtt);
    max_bdp_bytes_ = std::max(max_bdp_bytes_, bdp);
  };
  const bool by_switches =
      !routes_per_flow_ || std::all_of(switches_.begin(), switches_.end(),
                                       [](const auto& s) { return s->router().nominal_by_switches(); });
  if (!by_switches) {
    for (std::uint32_t a = 0; a < topo_.hosts; ++a)
      for (std::uint32_t b = 0; b < topo_.hosts; ++b)
        if (a != b) consider(a, b);
    return;
  }
  // The nominal path of (a, b) then depends on a's and b's links and switches only: hosts alike in those
  // give the same path, so one pair per (class, class) — two hosts of one class for the pairs within it —
  // gives the same maximum as all H^2 pairs (8,192 hosts: 0.26 M paths instead of 67 M).
  std::vector<std::uint32_t> first, second;  // per class: its first two hosts
  std::map<std::tuple<std::uint32_t, RateBps, TimePs>, std::uint32_t> class_of;
  for (std::uint32_t h = 0; h < topo_.hosts; ++h) {
    const TopoLink& l = topo_.links[node_ports_[h].link[0]];
    auto [it, fresh] = class_of.try_emplace({routes_.attachment(h), l.rate_bps, l.delay_ps},
                                            static_cast<std::uint32_t>(first.size()));
    if (fresh) {
      first.push_back(h);
      second.push_back(kNoFlow);
    } else if (second[it->second] == kNoFlow) {
      second[it->second] = h;
    }
  }
  for (std::uint32_t i = 0; i < first.size(); ++i)
    for (std::uint32_t j = 0; j < first.size(); ++j)
      if (i != j)
        consider(first[i], first[j]);
      else if (second[i] != kNoFlow)
        consider(first[i], second[i]);
}

void Network::install_mechanism(const MechanismFactory& factory) {
  layout_.add("switch.mechanism", factory);
  for (auto& s : switches_) s->set_mechanism(factory.create(*s, *this));
  for (auto& s : switches_) {
    Simulator& sim = sim_of(s->node());
    sim.act_as(s->node());  // a mechanism's timers act for its switch
    s->mechanism()->start();
    sim.act_as(topo_.nodes());
  }
  routes_per_flow_ =
      std::all_of(switches_.begin(), switches_.end(), [](const auto& s) { return s->router().per_flow(); });
}

void Network::install_flows(std::vector<Flow> flows, const CcFactory& cc) {
  flows_ = std::move(flows);
  const std::size_t n = flows_.size();
  qps_.assign(n, SenderQp{});
  rx_.assign(n, ReceiverContext{});
  ccs_.clear();
  ccs_.reserve(n);
  receivers_.clear();
  receivers_.reserve(n);
  fwd_hash_.resize(n);
  rev_hash_.resize(n);
  finish_ps_.assign(n, kTimeNever);
  fwd_route_.assign(n, 0);
  start_order_.assign(n, 0);
  rev_route_.assign(n, 0);
  route_ports_.clear();
  for (auto& part : parts_) part->flows_completed = 0;
  layout_.add("cc.algorithm", cc);
  // With INT every hop reads or writes records across the whole packet.
  const bool whole_packets = cc.hints().prefetch_whole_packet;
  const bool symmetric = cc.hints().symmetric_routes;
  const bool lossless = sw_cfg_.lossless();
  for (auto& part : parts_) part->sim.set_prefetch_whole_arg(whole_packets);
  // The scheme's part on every switch (it may change how switches route), before paths are computed.
  if (const MechanismFactory* part = cc.switch_part()) {
    for (auto& s : switches_) s->add_companion(part->create(*s, *this));
    for (auto& s : switches_) {
      Simulator& sim = sim_of(s->node());
      sim.act_as(s->node());
      s->start_companions();
      sim.act_as(topo_.nodes());
    }
  }
  routes_per_flow_ =
      std::all_of(switches_.begin(), switches_.end(), [](const auto& s) { return s->router().per_flow(); });
  for (std::uint32_t h = 0; h < topo_.hosts; ++h) {
    CcEnv env{sim_of(h), nic_cfg_, max_base_rtt_ps_, max_bdp_bytes_, *nics_[h], seed_,
              0,         0,        lossless,         layout_};
    std::unique_ptr<NicControl> part = cc.create_nic(*nics_[h], env);
    // A flow-control policy's NIC part (BFC's per-flow queues); a NIC holds one part.
    if (std::unique_ptr<NicControl> fc = sw_cfg_.flow_control_factory->create_nic(*nics_[h], env)) {
      if (part)
        throw ConfigError("", "switch.flow_control",
                          "'" + sw_cfg_.flow_control +
                              "' has a part on every NIC, and so does the congestion "
                              "control: they cannot be combined");
      part = std::move(fc);
    }
    nics_[h]->set_control(std::move(part));
  }
  flow_state_bytes_ = sizeof(Flow) + sizeof(SenderQp) + sizeof(ReceiverContext) + cc.state_bytes() +
                      2 * sizeof(std::unique_ptr<CongestionControl>) +
                      2 * sizeof(std::uint32_t) /* hashes */ + 2 * sizeof(std::uint32_t) /* route offsets */ +
                      sizeof(std::uint64_t) /* start order */ + sizeof(TimePs) /* finish */;
  // Start orders come from the set-up context's clock, shared by all partitions (set-up is single-threaded).
  Simulator& setup = parts_[0]->sim;
  for (std::size_t i = 0; i < n; ++i) {
    const Flow& f = flows_[i];
    LOSSLESS_CHECK(f.id == i, "flow ids must be dense and ordered");
    fwd_hash_[i] = five_tuple_hash(f.src, f.dst, f.sport, f.dport);
    rev_hash_[i] = five_tuple_hash(f.dst, f.src, f.dport, f.sport);
    SenderQp& q = qps_[i];
    q.flow = &flows_[i];
    q.nic = nics_[f.src].get();
    q.line_rate_bps = nics_[f.src]->port.rate_bps();
    if (f.max_rate_bps && f.max_rate_bps < q.line_rate_bps) q.line_rate_bps = f.max_rate_bps;
    q.rate_bps = static_cast<double>(q.line_rate_bps);
    q.priority = f.priority;
    q.set_send_gate(kNoSendGate);
    // With per-flow routing (ECMP) each flow's path is computed once here and carried by its packets;
    // switches then forward without a table lookup (the same ports their routers would pick).
    fwd_route_[i] = static_cast<std::uint32_t>(route_ports_.size());
    PathInfo p = path(f.src, f.dst, fwd_hash_[i], f.id, &route_ports_);
    rev_route_[i] = static_cast<std::uint32_t>(route_ports_.size());
    // The mirrored reply path crosses the same links as the data path, so its one-way delay is the data
    // path's.
    PathInfo back = p;
    if (symmetric && routes_per_flow_)
      append_mirrored_route(f.src, f.dst, fwd_route_[i]);
    else
      back = path(f.dst, f.src, rev_hash_[i], f.id, &route_ports_);
    q.base_rtt_ps = p.base_rtt_ps();
    q.bottleneck_bps = p.bottleneck_bps;
    const TimePs data_one_way = p.one_way_ps(nic_cfg_.mtu_bytes + nic_cfg_.data_header_bytes);
    const TimePs ack_one_way = back.one_way_ps(nic_cfg_.ack_bytes);
    CcEnv env{sim_of(f.src), nic_cfg_,     max_base_rtt_ps_, max_bdp_bytes_, *nics_[f.src],
              seed_,         data_one_way, ack_one_way,      lossless,       layout_};
    ccs_.push_back(cc.create(q, env));
    q.cc = ccs_.back().get();
    start_order_[i] = setup.reserve_order();
    ReceiverContext& rx = rx_[i];
    rx.ack_every = nic_cfg_.ack_interval;
    CcEnv rx_env{sim_of(f.dst), nic_cfg_,     max_base_rtt_ps_, max_bdp_bytes_, *nics_[f.dst],
                 seed_,         data_one_way, ack_one_way,      lossless,       layout_};
    receivers_.push_back(cc.create_receiver(rx, f, rx_env));
    rx.control = receivers_.back().get();
  }
  for (std::uint32_t h = 0; h < topo_.hosts; ++h)
    if (NicControl* c = nics_[h]->control()) {
      Simulator& sim = sim_of(h);
      sim.act_as(h);
      c->start();
      sim.act_as(topo_.nodes());
    }
  // Flow starts are chained per partition: only the next one waits in the event queue (a run may hold
  // millions), at the order key it would have had if all were queued now.
  std::vector<std::uint32_t> by_start(n);
  for (std::size_t i = 0; i < n; ++i) by_start[i] = static_cast<std::uint32_t>(i);
  std::sort(by_start.begin(), by_start.end(), [&](std::uint32_t a, std::uint32_t b) {
    return flows_[a].start_ps < flows_[b].start_ps || (flows_[a].start_ps == flows_[b].start_ps && a < b);
  });
  for (auto& part : parts_) {
    part->start_sequence.clear();
    part->next_start = 0;
  }
  for (std::uint32_t id : by_start) partition_of(flows_[id].src).start_sequence.push_back(id);
  for (auto& part : parts_) schedule_next_start(*part);
}

void Network::append_mirrored_route(std::uint32_t src, std::uint32_t dst, std::uint32_t forward) {
  // Walk the data path; at each switch note the port the data arrives on: the reply leaves through it.
  std::vector<std::uint16_t> in_ports;
  std::uint32_t node = src, port = 0;
  for (std::uint32_t hop = 0;; ++hop) {
    const std::uint32_t link = node_ports_[node].link[port];
    const std::uint32_t next = node_ports_[node].peer[port];
    if (next == dst) break;
    std::uint16_t in = 0;
    while (node_ports_[next].link[in] != link) ++in;
    in_ports.push_back(in);
    node = next;
    port = route_ports_[forward + hop];
  }
  route_ports_.insert(route_ports_.end(), in_ports.rbegin(), in_ports.rend());
}

void Network::schedule_next_start(Partition& part) {
  if (part.next_start == part.start_sequence.size()) return;
  std::uint32_t id = part.start_sequence[part.next_start++];
  part.sim.at_reserved(part.net->flows_[id].start_ps, part.net->start_order_[id], &Network::flow_start_event,
                       &part, id);
}

void Network::flow_start_event(void* target, std::uint64_t flow_id) {
  auto& part = *static_cast<Partition*>(target);
  schedule_next_start(part);
  SenderQp& q = part.net->qps_[flow_id];
  part.sim.act_as(q.flow->src);
  q.nic->start_flow(q);
}

void Network::flow_completed(SenderQp& qp) {
  Partition& part = partition_of(qp.flow->src);
  finish_ps_[qp.flow->id] = part.sim.now();
  ++part.flows_completed;
}

std::uint64_t Network::flows_completed() const {
  std::uint64_t n = 0;
  for (const auto& part : parts_) n += part->flows_completed;
  return n;
}

NetCounters Network::counters() const {
  NetCounters all = parts_[0]->counters;
  for (std::size_t i = 1; i < parts_.size(); ++i) all.add(parts_[i]->counters);
  // One order whatever the partitioning: by time, then place; a port's own records stay in event order.
  std::stable_sort(all.pfc_log.begin(), all.pfc_log.end(), [](const PfcLogRecord& a, const PfcLogRecord& b) {
    if (a.time_ps != b.time_ps) return a.time_ps < b.time_ps;
    if (a.node != b.node) return a.node < b.node;
    if (a.port != b.port) return a.port < b.port;
    return a.priority < b.priority;
  });
  return all;
}

void Network::set_log_pfc(bool on) {
  for (auto& part : parts_) part->counters.log_pfc = on;
}

std::size_t Network::packets_allocated() const {
  std::size_t n = 0;
  for (const auto& part : parts_) n += part->pool.allocated();
  return n;
}

TimePs Network::now() const {
  TimePs t = 0;
  for (const auto& part : parts_) t = std::max(t, part->sim.now());
  return t;
}

std::uint64_t Network::events_processed() const {
  std::uint64_t n = 0;
  for (const auto& part : parts_) n += part->sim.events_processed();
  return n;
}

void Network::finish_accounting() {
  const TimePs end = now();
  for (auto& n : nics_) n->port.close_pause_accounting(end);
  for (auto& s : switches_)
    for (auto& p : s->ports) p.close_pause_accounting(end);
}

}  // namespace lossless
