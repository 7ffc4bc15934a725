#include "net/network.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <type_traits>

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

// A core's L2 cache (deep_prefetch compares a partition's port state with four of them): 2 MiB, this
// machine's and about that of current server cores (1.25-2 MiB). A constant rather than the system's figure,
// so that the choice, and with it the instruction count, is the same on every machine and under valgrind.
constexpr std::size_t kL2CacheBytes = std::size_t{2} << 20;

}  // namespace

Network::Network(Topology topo, const SwitchConfig& sw, const NicConfig& nic, std::uint64_t seed,
                 unsigned partitions, RankLink* link)
    : topo_(std::move(topo)), link_rates_(topo_.links), sw_cfg_(sw), nic_cfg_(nic), seed_(seed) {
  resolve_switch_schemes(sw_cfg_);
  // The switch schemes' packet slots, before any switch builds its schemes (the mechanism's and the
  // congestion control's follow as they are installed; the scenario reader laid out the same to check them).
  lay_out_switch_slots(layout_, sw_cfg_);
  pause_kind_.bind(layout_);
  if (topo_.nodes() >= OrderKey::kMaxNodes)
    throw ConfigError("", "topology",
                      "too many nodes (at most " + std::to_string(OrderKey::kMaxNodes - 1) + ")");
  lookahead_ps_ = min_link_delay(topo_);
  if (link && link->size() > 1) {
    link_ = link;
    ranks_ = link->size();
    rank_ = link->rank();
    LOSSLESS_CHECK(lookahead_ps_ > 0, "a fabric without lookahead cannot be split over ranks");
    if (static_cast<std::uint32_t>(ranks_) > topo_.hosts || ranks_ > 255)
      throw ConfigError("", "topology",
                        std::to_string(ranks_) + " ranks for a fabric of " + std::to_string(topo_.hosts) +
                            " hosts: at most one rank per host (and 255 ranks)");
  }
  if (lookahead_ps_ == 0) partitions = 1;  // no lookahead: one thread
  const auto per_rank = static_cast<unsigned>(ranks_);
  partitions = std::max(1u, std::min({partitions, topo_.hosts / per_rank, 255u / per_rank}));
  global_partitions_ = partitions * per_rank;
  first_partition_ = partitions * static_cast<std::uint32_t>(rank_);
  node_partition_ = split_nodes(topo_, global_partitions_, per_rank);
  // Packed on one thread; a cache line apart when threads share the array (core/order_key.h).
  clock_shift_ = partitions > 1 ? kClockLineShift : 0;
  node_clocks_.assign(std::size_t{topo_.nodes() + 1} << clock_shift_, NodeClock{});
  for (unsigned i = 0; i < partitions; ++i) {
    partitions_.push_back(std::make_unique<Partition>(first_partition_ + i));
    Partition& partition = *partitions_.back();
    partition.net = this;
    partition.outbox.resize(global_partitions_);
    partition.sim.use_node_clocks(node_clocks_.data(), topo_.nodes(), clock_shift_);
  }
  node_ports_ = node_ports_of(topo_);
  std::size_t local_ports = 0;
  for (std::uint32_t n = 0; n < topo_.nodes(); ++n) {
    LOSSLESS_CHECK(node_ports_[n].peer.size() < 0xffff, "too many ports on one node");
    if (is_local(n)) local_ports += node_ports_[n].peer.size();
  }
  // The ports' whole state (the two lines a hop reads and the state beside them), as when it was one object:
  // the rule's threshold was measured so (docs/performance.md "Fourth pass").
  deep_prefetch_ = local_ports * (sizeof(Port) + sizeof(PortState)) / partitions > 4 * kL2CacheBytes;
  routes_ = RoutingTable(topo_, node_ports_);

  // Only this rank's nodes are built; the others stay null.
  std::size_t local_nics = 0, local_switch_count = 0;
  for (std::uint32_t n = 0; n < topo_.nodes(); ++n)
    if (is_local(n)) ++(topo_.is_host(n) ? local_nics : local_switch_count);
  nic_arena_.reserve(local_nics);
  switch_arena_.reserve(local_switch_count);
  nics_.resize(topo_.hosts);
  for (std::uint32_t h = 0; h < topo_.hosts; ++h)
    if (is_local(h)) {
      nics_[h] = nic_arena_.make(*this, h);
      local_hosts_.push_back(h);
    }
  switches_.resize(topo_.switches);
  for (std::uint32_t s = 0; s < topo_.switches; ++s)
    if (is_local(topo_.switch_node(s))) {
      switches_[s] =
          switch_arena_.make(*this, s, topo_.switch_node(s), node_ports_[topo_.switch_node(s)].peer.size());
      local_switches_.push_back(switches_[s].get());
      partition_of(topo_.switch_node(s))
          .buffer_accounts.count_ports(node_ports_[topo_.switch_node(s)].peer.size());
    }

  // A port of a node of another rank: a stand-in that names it (the target of deliveries over that link).
  auto stand_in_for = [&](std::uint32_t node, std::uint32_t idx) -> Port& {
    Port& stand_in = remote_ports_.emplace_back();
    stand_in.attach(remote_port_states_.emplace_back());
    stand_in.node = node;
    stand_in.index = static_cast<std::uint16_t>(idx);
    return stand_in;
  };
  for (std::uint32_t n = 0; n < topo_.nodes(); ++n) {
    if (!is_local(n)) continue;
    for (std::uint32_t idx = 0; idx < node_ports_[n].peer.size(); ++idx) {
      Port& p = local_port(n, idx);
      const TopoLink& l = topo_.links[node_ports_[n].link[idx]];
      std::uint32_t peer = node_ports_[n].peer[idx];
      // The peer's port on the same link.
      std::uint32_t peer_idx = 0;
      while (node_ports_[peer].link[peer_idx] != node_ports_[n].link[idx]) ++peer_idx;
      Partition& partition = partition_of(n);
      p.sim = &partition.sim;
      p.set_counters(&partition.counters);
      if (node_partition_[peer] != partition.id) p.hand_over_to(&partition.outbox[node_partition_[peer]]);
      // A switch wires its own receive handler into its peers' ports (Switch::configure).
      p.deliver = topo_.is_host(peer) ? &RdmaNic::arrive_event : nullptr;
      p.node = n;
      p.index = static_cast<std::uint16_t>(idx);
      p.peer_index = static_cast<std::uint16_t>(peer_idx);
      // Deliveries go to the peer's owner; for a node of another rank, to the stand-in (RankExchange reads
      // the far port's node and index from it).
      p.peer_owner = is_local(peer) ? arrive_target(peer) : static_cast<void*>(&stand_in_for(peer, peer_idx));
      p.set_link(l.rate_bps, l.delay_ps);
      if (topo_.is_host(n)) {
        p.owner = nics_[n].get();
        p.kick = &RdmaNic::kick;
      } else {
        p.owner = switches_[n - topo_.hosts].get();
      }
    }
  }
  // The fastest host link of the whole fabric (switches scale their PFC alpha by it), whichever rank builds
  // it.
  for (std::uint32_t h = 0; h < topo_.hosts; ++h)
    max_host_rate_ = std::max(max_host_rate_, topo_.links[node_ports_[h].link[0]].rate_bps);
  for (Switch* s : local_switches_) s->configure();
  // Switches of other ranks: a router of the switch's policy to compute flow paths through them.
  planners_.resize(topo_.switches);
  if (ranks_ > 1)
    for (std::uint32_t s = 0; s < topo_.switches; ++s)
      if (!switches_[s])
        planners_[s] = sw_cfg_.routing_factory->create_for_paths({s, topo_.switch_node(s)}, *this);
  routes_per_flow_ = all_route_per_flow();
  compute_global_rtt();
  for (Switch* s : local_switches_) {
    Simulator& sim = sim_of(s->node());
    sim.act_as(s->node());  // the policy's timers act for its switch
    s->flow_control().start();
    if (s->marking()) s->marking()->start();
    sim.act_as(topo_.nodes());
  }
}

Port& Network::local_port(std::uint32_t node, std::uint32_t port) {
  return topo_.is_host(node) ? nics_[node]->port : switches_[node - topo_.hosts]->ports[port];
}

Port& Network::peer_of(const Port& p) {
  const std::uint32_t n = peer_node(p.node, p.index);
  return is_local(n) ? local_port(n, p.peer_index) : *static_cast<Port*>(p.peer_owner);
}

void* Network::arrive_target(std::uint32_t node) const {
  return topo_.is_host(node) ? static_cast<void*>(nics_[node].get())
                             : static_cast<void*>(switches_[node - topo_.hosts].get());
}

EventFn Network::arrive_handler(std::uint32_t node) {
  return topo_.is_host(node) ? &RdmaNic::arrive_event : switches_[node - topo_.hosts]->arrive_handler();
}

RoutingPolicy& Network::path_router(std::uint32_t s) const {
  if (switches_[s]) return switches_[s]->router();
  if (!planners_[s])
    throw ConfigError("", "switch.routing",
                      "'" + sw_cfg_.routing +
                          "' cannot compute paths through a switch of another rank: run on "
                          "one process");
  return *planners_[s];
}

bool Network::all_route_per_flow() const {
  if (!local_switches_.empty())
    return std::all_of(local_switches_.begin(), local_switches_.end(),
                       [](Switch* s) { return s->router().per_flow(); });
  for (const auto& p : planners_)
    if (p) return p->per_flow();
  return ranks_ > 1 && topo_.switches > 0 ? false : true;
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
      port = path_router(s).choose(probe, cand, n);
    } else {
      // Routed per packet (spraying): the nominal path of its base RTT is the ECMP one.
      port = cand[ecmp_pick(hash, switch_ecmp_seed(seed_, s), n)];
    }
    if (switch_ports) switch_ports->push_back(static_cast<std::uint16_t>(port));
  }
  throw InternalError("routing loop");
}

TimePs Network::ideal_fct_ps(const Flow& f) const { return ideal_fct_ps_[f.id]; }

void Network::compute_global_rtt() {
  // HPCC's GLOBAL_T: the largest base RTT (and BDP) over host pairs. Paths are symmetric in hop count, so one
  // ECMP choice per pair is representative. Over ranks, agree_on_global_rtt takes the maximum of the ranks'.
  auto consider = [&](std::uint32_t a, std::uint32_t b) {
    PathInfo p = path(a, b, 0, kNoFlow);
    TimePs rtt = p.base_rtt_ps();
    Bytes bdp = static_cast<Bytes>(static_cast<unsigned __int128>(rtt) * p.bottleneck_bps / (8 * kPsPerSec));
    max_base_rtt_ps_ = std::max(max_base_rtt_ps_, rtt);
    max_bdp_bytes_ = std::max(max_bdp_bytes_, bdp);
  };
  global_rtt_agreed_ = ranks_ == 1;
  bool by_switches = true;
  if (routes_per_flow_)
    for (std::uint32_t s = 0; s < topo_.switches && by_switches; ++s)
      by_switches = path_router(s).nominal_by_switches();
  if (!by_switches) {
    // Each rank takes every ranks-th source.
    for (std::uint32_t a = static_cast<std::uint32_t>(rank_); a < topo_.hosts;
         a += static_cast<std::uint32_t>(ranks_))
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

void Network::agree_on_global_rtt() {
  if (ranks_ == 1) return;
  std::uint64_t v[2] = {max_base_rtt_ps_, max_bdp_bytes_};
  link_->all_max(v);
  max_base_rtt_ps_ = v[0];
  max_bdp_bytes_ = v[1];
  global_rtt_agreed_ = true;
}

void Network::install_mechanism(const MechanismFactory& factory) {
  layout_.add("switch.mechanism", factory);
  for (Switch* s : local_switches_) s->set_mechanism(factory.create(*s, *this));
  for (Switch* s : local_switches_) {
    Simulator& sim = sim_of(s->node());
    sim.act_as(s->node());  // a mechanism's timers act for its switch
    s->mechanism()->start();
    sim.act_as(topo_.nodes());
  }
  routes_per_flow_ = all_route_per_flow();
}

void Network::install_flows(std::vector<Flow> flows, const CcFactory& cc) {
  LOSSLESS_CHECK(global_rtt_agreed_, "install_flows before agree_on_global_rtt");
  flows_ = std::move(flows);
  const std::size_t n = flows_.size();
  // Over ranks, only the flows sent or received here get a QP or a receiver context.
  sender_slot_.clear();
  receiver_slot_.clear();
  std::size_t senders = n, receivers = n;
  if (ranks_ > 1) {
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    sender_slot_.assign(n, kNone);
    receiver_slot_.assign(n, kNone);
    senders = receivers = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (is_local(flows_[i].src)) sender_slot_[i] = static_cast<std::uint32_t>(senders++);
      if (is_local(flows_[i].dst)) receiver_slot_[i] = static_cast<std::uint32_t>(receivers++);
    }
  }
  qps_.assign(senders, SenderQp{});
  rx_.assign(receivers, ReceiverContext{});
  ccs_.clear();
  ccs_.reserve(senders);
  receivers_.clear();
  receivers_.reserve(receivers);
  fwd_hash_.resize(n);
  rev_hash_.resize(n);
  finish_ps_.assign(n, kTimeNever);
  ideal_fct_ps_.assign(n, 0);
  fwd_route_.assign(n, 0);
  start_order_.assign(n, 0);
  rev_route_.assign(n, 0);
  route_ports_.clear();
  for (auto& partition : partitions_) partition->flows_completed = 0;
  layout_.add("cc.algorithm", cc);
  // The layout is final: packets from now on are cut to the bytes the run's schemes reach.
  for (auto& partition : partitions_) partition->pool.fit_to_layout(layout_.used_bytes());
  // With INT every hop reads or writes records across the whole packet.
  const bool whole_packets = cc.hints().prefetch_whole_packet;
  const bool symmetric = cc.hints().symmetric_routes;
  for (auto& partition : partitions_) partition->sim.set_prefetch_whole_arg(whole_packets);
  // The scheme's part on every switch (it may change how switches route), before paths are computed.
  if (const MechanismFactory* part = cc.switch_part()) {
    for (Switch* s : local_switches_) s->add_companion(part->create(*s, *this));
    for (Switch* s : local_switches_) {
      Simulator& sim = sim_of(s->node());
      sim.act_as(s->node());
      s->start_companions();
      sim.act_as(topo_.nodes());
    }
  }
  routes_per_flow_ = all_route_per_flow();
  for (std::uint32_t h : local_hosts_) {
    const CcEnv env = cc_env(h, 0, 0, 0);
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
                      sizeof(std::uint64_t) /* start order */ + 2 * sizeof(TimePs) /* finish, ideal FCT */;
  // Start orders come from the set-up context's clock, shared by all partitions (set-up is single-threaded);
  // every rank takes them for every flow, so that each flow's start has its key of a run on one process.
  Simulator& setup = partitions_[0]->sim;
  for (std::size_t i = 0; i < n; ++i) {
    const Flow& f = flows_[i];
    LOSSLESS_CHECK(f.id == i, "flow ids must be dense and ordered");
    fwd_hash_[i] = five_tuple_hash(f.src, f.dst, f.sport, f.dport);
    rev_hash_[i] = five_tuple_hash(f.dst, f.src, f.dport, f.sport);
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
    {
      const Bytes packets = (f.size_bytes + nic_cfg_.mtu_bytes - 1) / nic_cfg_.mtu_bytes;
      const Bytes wire = f.size_bytes + packets * nic_cfg_.data_header_bytes;
      ideal_fct_ps_[i] = p.base_rtt_ps() + tx_time_ps(wire, p.bottleneck_bps);
    }
    const TimePs data_one_way = p.one_way_ps(nic_cfg_.mtu_bytes + nic_cfg_.data_header_bytes);
    const TimePs ack_one_way = back.one_way_ps(nic_cfg_.ack_bytes);
    const std::uint32_t switches = p.links - 1;
    if (is_local(f.src)) {
      SenderQp& q = qp(f.id);
      q.flow = &flows_[i];
      q.flow_id = f.id;
      q.dst = f.dst;
      q.size_bytes = f.size_bytes;
      q.ecmp_hash = fwd_hash_[i];
      if (routes_per_flow_) q.route_offset = fwd_route_[i];
      q.nic = nics_[f.src].get();
      q.line_rate_bps = nics_[f.src]->port.rate_bps();
      if (f.max_rate_bps && f.max_rate_bps < q.line_rate_bps) q.line_rate_bps = f.max_rate_bps;
      q.rate_bps = static_cast<double>(q.line_rate_bps);
      q.priority = f.priority;
      q.set_send_gate(kNoSendGate);
      q.base_rtt_ps = p.base_rtt_ps();
      const CcEnv env = cc_env(f.src, data_one_way, ack_one_way, switches);
      ccs_.push_back(cc.create(q, env));
      q.cc = ccs_.back().get();
    }
    start_order_[i] = setup.reserve_order();
    if (is_local(f.dst)) {
      ReceiverContext& rx = receiver(f.id);
      rx.ack_every = nic_cfg_.ack_interval;
      const CcEnv rx_env = cc_env(f.dst, data_one_way, ack_one_way, switches);
      receivers_.push_back(cc.create_receiver(rx, f, rx_env));
      rx.control = receivers_.back().get();
    }
  }
  // Packets carry a route as a 32-bit offset into route_ports_ (kNoRoute being none).
  LOSSLESS_CHECK(route_ports_.size() < kNoRoute, "the flows' routes exceed 2^32 - 1 switch hops");
  for (auto& sw : switches_)
    if (sw) sw->flow_routes = route_ports_.data();
  for (std::uint32_t h : local_hosts_)
    if (NicControl* c = nics_[h]->control()) {
      Simulator& sim = sim_of(h);
      sim.act_as(h);
      c->start();
      sim.act_as(topo_.nodes());
    }
  // Flow starts are chained per partition: only the next one waits in the event queue (a run may hold
  // millions), at the order key it would have had if all were queued now.
  std::vector<std::uint32_t> by_start;
  by_start.reserve(senders);
  for (std::size_t i = 0; i < n; ++i)
    if (is_local(flows_[i].src)) by_start.push_back(static_cast<std::uint32_t>(i));
  std::sort(by_start.begin(), by_start.end(), [&](std::uint32_t a, std::uint32_t b) {
    return flows_[a].start_ps < flows_[b].start_ps || (flows_[a].start_ps == flows_[b].start_ps && a < b);
  });
  for (auto& partition : partitions_) {
    partition->start_sequence.clear();
    partition->next_start = 0;
  }
  for (std::uint32_t id : by_start) partition_of(flows_[id].src).start_sequence.push_back(id);
  for (auto& partition : partitions_) schedule_next_start(*partition);
}

CcEnv Network::cc_env(std::uint32_t host, TimePs data_one_way_ps, TimePs ack_one_way_ps,
                      std::uint32_t path_switches) {
  return CcEnv{sim_of(host),       nic_cfg_, max_base_rtt_ps_, max_bdp_bytes_,
               *nics_[host],       seed_,    data_one_way_ps,  ack_one_way_ps,
               sw_cfg_.lossless(), layout_,  path_switches,    &link_rates_};
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

void Network::schedule_next_start(Partition& partition) {
  if (partition.next_start == partition.start_sequence.size()) return;
  std::uint32_t id = partition.start_sequence[partition.next_start++];
  partition.sim.at_reserved(partition.net->flows_[id].start_ps, partition.net->start_order_[id],
                            &Network::flow_start_event, &partition, id);
}

void Network::flow_start_event(void* target, std::uint64_t flow_id) {
  auto& partition = *static_cast<Partition*>(target);
  schedule_next_start(partition);
  SenderQp& q = partition.net->qp(static_cast<std::uint32_t>(flow_id));
  partition.sim.act_as(q.flow->src);
  q.nic->start_flow(q);
}

void Network::flow_completed(SenderQp& qp) {
  Partition& partition = partition_of(qp.flow->src);
  finish_ps_[qp.flow->id] = partition.sim.now();
  ++partition.flows_completed;
}

std::uint64_t Network::flows_completed() const {
  if (combined_) return combined_flows_completed_;
  std::uint64_t n = 0;
  for (const auto& partition : partitions_) n += partition->flows_completed;
  return n;
}

namespace {

// One order whatever the partitioning: by time, then place; a port's own records stay in event order.
void sort_pfc_log(std::vector<PfcLogRecord>& log) {
  std::stable_sort(log.begin(), log.end(), [](const PfcLogRecord& a, const PfcLogRecord& b) {
    if (a.time_ps != b.time_ps) return a.time_ps < b.time_ps;
    if (a.node != b.node) return a.node < b.node;
    if (a.port != b.port) return a.port < b.port;
    return a.priority < b.priority;
  });
}

}  // namespace

NetCounters Network::counters() const {
  if (combined_) return combined_counters_;
  NetCounters all = partitions_[0]->counters;
  for (std::size_t i = 1; i < partitions_.size(); ++i) all.add(partitions_[i]->counters);
  sort_pfc_log(all.pfc_log);
  return all;
}

void Network::set_log_pfc(bool on) {
  for (auto& partition : partitions_) partition->counters.log_pfc = on;
}

std::size_t Network::packets_allocated() const {
  if (combined_) {
    std::size_t n = 0;
    for (std::uint64_t p : packets_by_rank_) n += p;
    return n;
  }
  std::size_t n = 0;
  for (const auto& partition : partitions_) n += partition->pool.allocated();
  return n;
}

TimePs Network::now() const {
  if (combined_) return combined_now_;
  TimePs t = 0;
  for (const auto& partition : partitions_) t = std::max(t, partition->sim.now());
  return t;
}

std::uint64_t Network::events_processed() const {
  return combined_ ? combined_events_ : events_processed_here();
}

std::uint64_t Network::events_processed_here() const {
  std::uint64_t n = 0;
  for (const auto& partition : partitions_) n += partition->sim.events_processed();
  return n;
}

void Network::finish_accounting() { finish_accounting_at(now()); }

void Network::finish_accounting_at(TimePs end) {
  for (std::uint32_t h : local_hosts_) nics_[h]->port.close_pause_accounting(end);
  for (Switch* s : local_switches_)
    for (auto& p : s->ports) p.close_pause_accounting(end);
}

namespace {

// A trace of the switch mechanism as text (its write_trace takes a FILE).
std::string trace_text(SwitchMechanism& m) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  LOSSLESS_CHECK(f, "open_memstream failed");
  m.write_trace(f);
  std::fclose(f);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

void put_u64(RankMessage& m, std::uint64_t v) {
  const auto* b = reinterpret_cast<const unsigned char*>(&v);
  m.insert(m.end(), b, b + sizeof v);
}

std::uint64_t get_u64(const RankMessage& m, std::size_t& at) {
  std::uint64_t v = 0;
  LOSSLESS_CHECK(at + sizeof v <= m.size(), "a message between ranks is cut short");
  std::memcpy(&v, m.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

void put_bytes(RankMessage& m, const void* data, std::size_t n) {
  put_u64(m, n);
  const auto* b = static_cast<const unsigned char*>(data);
  m.insert(m.end(), b, b + n);
}

const unsigned char* get_bytes(const RankMessage& m, std::size_t& at, std::size_t& n) {
  n = get_u64(m, at);
  LOSSLESS_CHECK(at + n <= m.size(), "a message between ranks is cut short");
  const unsigned char* p = m.data() + at;
  at += n;
  return p;
}

// NetCounters travel as the bytes of their counts (every member before the PFC log: plain numbers) and the
// log's records; NetCounters::add then merges them, so a count added to the struct travels without a change
// here.
constexpr std::size_t kCountBytes = offsetof(NetCounters, pfc_log);
static_assert(offsetof(NetCounters, pfc_log) + sizeof(std::vector<PfcLogRecord>) == sizeof(NetCounters),
              "the PFC log must be NetCounters' last member (everything before it travels as bytes)");
static_assert(std::is_trivially_copyable_v<PfcLogRecord>);

}  // namespace

void Network::combine_ranks() {
  if (ranks_ == 1) return;
  // The end of the run is the latest event of any rank; pause accounting closes there, as on one process.
  std::uint64_t totals[3] = {now(), events_processed(), flows_completed()};
  std::uint64_t end[1] = {totals[0]};
  link_->all_max(end);
  std::uint64_t sums[2] = {totals[1], totals[2]};
  link_->all_sum(sums);
  combined_now_ = end[0];
  finish_accounting_at(end[0]);
  link_->all_min(finish_ps_);
  // Counters, PFC log, packet pools and mechanism traces to rank 0.
  NetCounters mine = partitions_[0]->counters;
  for (std::size_t i = 1; i < partitions_.size(); ++i) mine.add(partitions_[i]->counters);
  RankMessage msg;
  put_bytes(msg, &mine, kCountBytes);
  put_bytes(msg, mine.pfc_log.data(), mine.pfc_log.size() * sizeof(PfcLogRecord));
  std::size_t pool = 0;
  for (const auto& partition : partitions_) pool += partition->pool.allocated();
  put_u64(msg, pool);
  const char* header = nullptr;
  for (Switch* s : local_switches_)
    if (s->mechanism() && s->mechanism()->trace_header()) header = s->mechanism()->trace_header();
  put_bytes(msg, header ? header : "", header ? std::strlen(header) : 0);
  put_u64(msg, header ? local_switches_.size() : 0);
  if (header)
    for (Switch* s : local_switches_) {
      put_u64(msg, s->index());
      const std::string text = trace_text(*s->mechanism());
      put_bytes(msg, text.data(), text.size());
    }
  const std::vector<RankMessage> all = link_->gather(msg);
  combined_events_ = sums[0];
  combined_flows_completed_ = sums[1];
  combined_ = true;
  if (rank_ != 0) return;
  combined_counters_ = NetCounters{};
  combined_counters_.log_pfc = mine.log_pfc;
  packets_by_rank_.clear();
  traces_.assign(topo_.switches, std::string());
  for (const RankMessage& m : all) {
    std::size_t at = 0, n = 0;
    NetCounters c;
    const unsigned char* counts = get_bytes(m, at, n);
    LOSSLESS_CHECK(n == kCountBytes, "counters of another rank have another size");
    std::memcpy(static_cast<void*>(&c), counts, kCountBytes);
    const unsigned char* log = get_bytes(m, at, n);
    c.pfc_log.resize(n / sizeof(PfcLogRecord));
    if (n) std::memcpy(c.pfc_log.data(), log, n);
    combined_counters_.add(c);
    packets_by_rank_.push_back(get_u64(m, at));
    const unsigned char* h = get_bytes(m, at, n);
    if (n) trace_header_.assign(reinterpret_cast<const char*>(h), n);
    const std::uint64_t traced = get_u64(m, at);
    for (std::uint64_t k = 0; k < traced; ++k) {
      const std::uint64_t s = get_u64(m, at);
      const unsigned char* text = get_bytes(m, at, n);
      traces_.at(s).assign(reinterpret_cast<const char*>(text), n);
    }
  }
  sort_pfc_log(combined_counters_.pfc_log);
}

const char* Network::mechanism_trace_header() const {
  if (combined_) return trace_header_.empty() ? nullptr : trace_header_.c_str();
  if (switches_.empty() || !switches_[0] || !switches_[0]->mechanism()) return nullptr;
  return switches_[0]->mechanism()->trace_header();
}

void Network::write_mechanism_traces(std::FILE* out) const {
  if (combined_) {
    for (const std::string& t : traces_) std::fwrite(t.data(), 1, t.size(), out);
    return;
  }
  for (const auto& s : switches_) s->mechanism()->write_trace(out);
}

void Network::check_ranks_agree() {
  if (ranks_ == 1) return;
  // A hash of what every rank computed for the whole fabric: paths, routing mode, the set-up clock.
  std::uint64_t h = mix64(routes_per_flow_ ? 1 : 2);
  auto add = [&](std::uint64_t v) { h = mix64(h ^ v); };
  for (std::uint16_t p : route_ports_) add(p);
  for (std::size_t i = 0; i < flows_.size(); ++i) {
    add(fwd_route_[i]);
    add(rev_route_[i]);
    add(start_order_[i]);
    add(ideal_fct_ps_[i]);
  }
  add(node_clocks_[std::size_t{topo_.nodes()} << clock_shift_].next_seq);
  add(max_base_rtt_ps_);
  std::uint64_t lo[1] = {h}, hi[1] = {h};
  link_->all_min(lo);
  link_->all_max(hi);
  if (lo[0] != hi[0])
    throw InternalError(
        "the ranks computed different flow paths or set-up order keys (a routing policy or scheme that "
        "differs by rank: run on one process)");
}

}  // namespace lossless
