#include "net/switch.h"

#include "core/error.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "net/switch_path.h"

namespace lossless {

Switch::Switch(Network& net, std::uint32_t index, std::uint32_t node, std::size_t n_ports)
    : ports(n_ports),
      net_(net),
      partition_(net.partition_of(node)),
      index_(index),
      node_(node),
      rng_(net.seed(), "switch", index),
      port_states_(n_ports) {
  for (std::size_t i = 0; i < n_ports; ++i) ports[i].attach(port_states_[i]);
}

Switch::~Switch() = default;

void Switch::configure() {
  const SwitchConfig& cfg = net_.switch_config();
  lossless_ = cfg.lossless();
  ecn_enabled_ = cfg.ecn_enabled;
  RateBps nic_rate = net_.max_host_rate();
  std::vector<SharedBufferMmu::PortSetup> setup;
  for (auto& p : ports) {
    Bytes headroom = cfg.headroom_bytes;
    if (headroom == 0) headroom = auto_headroom_bytes(p.rate_bps(), p.delay_ps(), net_.nic_config());
    // As in the HPCC simulator: alpha doubles for each doubling of port speed above the host NIC speed.
    double alpha = cfg.alpha;
    for (RateBps r = p.rate_bps(); r > nic_rate && alpha < 1.0; r /= 2) alpha *= 2;
    setup.push_back(
        {headroom, std::min(alpha, 1.0), cfg.static_xoff(p.rate_bps()), cfg.static_xon(p.rate_bps())});
    const EcnSetting e{static_cast<Bytes>(per_rate_value(cfg.kmin_bytes, p.rate_bps(), true)),
                       static_cast<Bytes>(per_rate_value(cfg.kmax_bytes, p.rate_bps(), true)),
                       per_rate_value(cfg.pmax, p.rate_bps(), false)};
    // The distinct settings once (one per link rate in practice), each port pointing at its own.
    std::size_t i = 0;
    while (i < ecn_.size() && !(ecn_[i].kmin_bytes == e.kmin_bytes && ecn_[i].kmax_bytes == e.kmax_bytes &&
                                ecn_[i].pmax == e.pmax))
      ++i;
    if (i == ecn_.size()) ecn_.push_back(e);
    ecn_of_port_.push_back(static_cast<std::uint16_t>(i));
  }
  mmu = SharedBufferMmu(cfg, setup, lossless_, &partition_.buffer_accounts);
  custom_queues_.resize(ports.size());
  custom_queues_owner_.resize(ports.size());
  custom_buffer_ = cfg.architecture_factory->create_buffer(*this);
  buffer_ = custom_buffer_ ? custom_buffer_.get() : &mmu;
  for (auto& p : ports)
    if (auto q = cfg.architecture_factory->create_queues(*this, p))
      set_egress_queues(p.index, std::move(q), "switch.architecture: " + cfg.architecture);
  router_ = cfg.routing_factory->create(*this, net_);
  fc_ = cfg.flow_control_factory->create(*this);
  if (cfg.ecn_enabled && cfg.marking_factory) {
    // A registered marking scheme replaces the inline RED: it marks in its dequeue hook.
    ecn_enabled_ = false;
    marking_ = cfg.marking_factory->create(*this, net_);
    add_hooks(marking_.get());
  }
  select_path();
}

void Switch::select_path() {
  unsigned features = 0;
  for (const auto& q : custom_queues_)
    if (q) features |= kCustomQueues;
  if (!on_enqueue_.empty()) features |= kEnqueueHooks;
  if (!on_dequeue_.empty()) features |= kDequeueHooks;
  // INT stamping alone: compiled in (the same stamp at the same point as the hook's call).
  if (features == kDequeueHooks && on_dequeue_.size() == 1 &&
      (on_dequeue_[0]->packet_hooks() & SwitchMechanism::kStampsInt)) {
    int_stamp_ = *on_dequeue_[0]->int_stamping();
    features = kIntStamp;
  }
  const SwitchPathFns path =
      net_.switch_config().flow_control_factory->path(features, custom_buffer_ != nullptr);
  release_ = path.release;
  arrive_ = path.arrive;
  if (net_.deep_prefetch()) partition_.sim.add_prefetcher(path.arrive, path.prefetch_arrival);
  for (auto& p : ports) {
    p.kick = path.kick;
    net_.peer_of(p).deliver = path.arrive;  // the port at the other end delivers into this switch
    p.set_pause_listener(on_pause_.empty() ? nullptr : &Switch::on_pause_change);
  }
}

void Switch::add_hooks(SwitchMechanism* m) {
  const unsigned h = m->packet_hooks();
  if (h & SwitchMechanism::kOnEnqueue) on_enqueue_.push_back(m);
  if (h & SwitchMechanism::kOnDequeue) on_dequeue_.push_back(m);
  if (h & SwitchMechanism::kOnPauseChange) on_pause_.push_back(m);
  if (h & SwitchMechanism::kOnPacket) on_packet_.push_back(m);
  // A mechanism sees the switch's ports (INT stamps their bytes sent): they keep count from now on.
  for (auto& p : ports) p.count_tx_bytes();
  select_path();
}

void Switch::set_mechanism(std::unique_ptr<SwitchMechanism> m) {
  LOSSLESS_CHECK(!mechanism_, "a switch has one switch.mechanism");
  mechanism_ = std::move(m);
  add_hooks(mechanism_.get());
}

void Switch::add_companion(std::unique_ptr<SwitchMechanism> m) {
  companions_.push_back(std::move(m));
  add_hooks(companions_.back().get());
}

void Switch::set_router(std::unique_ptr<RoutingPolicy> r) { router_ = std::move(r); }

void Switch::set_egress_queues(std::uint16_t port, std::unique_ptr<EgressQueues> q,
                               const std::string& owner) {
  LOSSLESS_CHECK(ports[port].queued_bytes == 0, "egress queues replaced while packets wait");
  // Whoever gave the port its queue set (the architecture, a flow-control policy, a scheme's switch part)
  // holds on to it: a second one would leave the first working on queues that are gone.
  if (custom_queues_[port])
    throw ConfigError("", "switch",
                      custom_queues_owner_[port] + " and " + owner +
                          " cannot be combined: each gives every port its own queue set (port " +
                          std::to_string(port) + " of switch " + net_.topology().node_name(node_) + ")");
  ports[port].set_custom_queues(q.get());
  custom_queues_owner_[port] = owner;
  custom_queues_[port] = std::move(q);
  if (!retry_) {
    retry_ = std::make_unique<RetryTimer[]>(ports.size());
    for (std::uint16_t i = 0; i < ports.size(); ++i)
      retry_[i] = {this, i, Timer(&retry_[i], [](void* r) {
                     auto* t = static_cast<RetryTimer*>(r);
                     t->sw->ports[t->port].kick_or_wait();
                   })};
  }
  select_path();
}

std::uint16_t Switch::route_by_table(const Packet& p) {
  std::uint32_t n = 0;
  const std::uint16_t* cand = net_.routes().candidates(index_, p.dst, n);
  if (n == 1) return cand[0];
  return router_->choose(p, cand, n);
}

bool Switch::should_mark(std::uint16_t port, Bytes queue_bytes) {
  const EcnSetting& e = ecn_[ecn_of_port_[port]];
  if (queue_bytes > e.kmax_bytes) return true;
  if (queue_bytes <= e.kmin_bytes) return false;
  double p = e.pmax * static_cast<double>(queue_bytes - e.kmin_bytes) /
             static_cast<double>(e.kmax_bytes - e.kmin_bytes);
  return rng_.uniform() < p;
}

Packet* Switch::packet_to_source(std::uint32_t flow_id, PacketType kind, std::uint32_t wire_bytes) {
  const Flow& f = net_.flow(flow_id);
  Packet* p = partition_.pool.get();
  p->type = kind;
  p->priority = kControlPriority;
  p->ecn_capable = false;
  p->flow_id = flow_id;
  p->src = f.dst;
  p->dst = f.src;
  p->ecmp_hash = net_.reverse_hash(flow_id);
  p->wire_bytes = wire_bytes;
  p->sent_ps = partition_.sim.now();
  return p;
}

void Switch::send(Packet* p) { send_on(route(*p), p); }

void Switch::send_on(std::uint16_t port, Packet* p) {
  // A packet made here was never admitted by the buffer: it travels at priority 0, which bypasses it.
  LOSSLESS_CHECK(p->priority == kControlPriority, "a switch sends its own packets at priority 0");
  Port& out = ports[port];
  if (!out.enqueue_from(p, EgressQueues::kSwitchMade)) {
    partition_.count_drop(*p, DropReason::kScheme);
    partition_.pool.put(p);
    return;
  }
  out.kick_or_wait();
}

void Switch::queue_pause_frame(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta,
                               std::uint8_t kind) {
  Packet* f = partition_.pool.get();
  f->type = PacketType::kPfc;
  f->priority = kControlPriority;
  f->ecn_capable = false;
  f->pfc_priority = prio;
  f->pfc_quanta = quanta;
  net_.pause_kind().write(*f, kind);
  f->wire_bytes = static_cast<std::uint32_t>(net_.nic_config().pfc_bytes);
  ports[port].enqueue(f);
}

void Switch::deliver_link_local(Port& in, Packet* p) {
  if (fc_->on_packet(in, p)) return;
  for (SwitchMechanism* m : on_packet_)
    if (m->on_packet(in, p)) return;
  throw InternalError("switch " + std::to_string(node_) + ": no scheme takes packets of kind " +
                      PacketKinds::name(p->type));
}

void Switch::retry_at(std::uint16_t port, TimePs at) {
  Timer& t = retry_[port].timer;
  if (!t.armed() || at < t.due()) t.arm_at(partition_.sim, at);
}

void Switch::on_pause_change(void* owner, std::uint16_t port, std::uint8_t prio, bool paused) {
  auto* sw = static_cast<Switch*>(owner);
  for (SwitchMechanism* m : sw->on_pause_) m->on_pause_change(sw->ports[port], prio, paused);
}

}  // namespace lossless
