#include "control/rcm/rcm.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "control/mechanism_scheme.h"
#include "core/error.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "topo/routing.h"

namespace lossless {

const PacketType kRcmCn = PacketKinds::add("rcm.cn", PacketKinds::kLinkLocal);

// --- CRD

std::uint8_t CongestionDetector::quantize(double fb, double fb_max) {
  if (fb <= 0) return 0;
  const double q = std::ceil(kFbLevels * fb / fb_max);
  return static_cast<std::uint8_t>(std::min<double>(q, kFbLevels));
}

Bytes CongestionDetector::sample_interval(std::uint8_t fb_q, Bytes sample_bytes) {
  // QCN samples 1% of the bytes when uncongested, up to 10% at the largest |Fb|.
  const Bytes b = sample_bytes * kFbLevels / (kFbLevels + 9 * Bytes{fb_q});
  return std::max<Bytes>(b, 1);
}

bool CongestionDetector::on_arrival(Bytes bytes, Bytes queue_bytes, const Setting& s) {
  to_sample_ -= static_cast<std::int64_t>(bytes);
  if (to_sample_ > 0) return false;
  const double q = static_cast<double>(queue_bytes);
  // Paper eq. 1: Fb = Q_off + w Q_delta, Q_off = Q - Q_eq, Q_delta = Q - Q at the previous sample.
  fb_ = (q - static_cast<double>(s.q_eq)) + s.w * (q - static_cast<double>(q_old_));
  q_old_ = queue_bytes;
  fb_q_ = quantize(fb_, s.fb_max());
  to_sample_ = static_cast<std::int64_t>(sample_interval(fb_q_, s.sample_bytes));
  return true;
}

// --- CFR

void FlowCam::write(std::uint32_t flow, std::uint16_t in_port) {
  if (filled_ == entries_.size()) {
    const std::uint32_t old = entries_[cursor_].flow;
    auto it = std::find_if(counts_.begin(), counts_.end(), [&](const Count& c) { return c.flow == old; });
    if (--it->hits == 0) {
      *it = counts_.back();
      counts_.pop_back();
    }
  } else {
    ++filled_;
  }
  entries_[cursor_] = {flow, in_port};
  cursor_ = cursor_ + 1 == entries_.size() ? 0 : cursor_ + 1;
  auto it = std::find_if(counts_.begin(), counts_.end(), [&](const Count& c) { return c.flow == flow; });
  if (it != counts_.end())
    ++it->hits;
  else
    counts_.push_back({flow, 1});
}

std::uint32_t FlowCam::hits(std::uint32_t flow) const {
  for (const Count& c : counts_)
    if (c.flow == flow) return c.hits;
  return 0;
}

std::vector<std::uint32_t> FlowCam::flows_from(std::uint16_t in_port, std::size_t max) const {
  std::vector<std::uint32_t> ids;
  // Most recent first.
  for (std::size_t k = 0; k < filled_ && ids.size() < max; ++k) {
    const std::size_t i = (cursor_ + entries_.size() - 1 - k) % entries_.size();
    if (entries_[i].in_port != in_port) continue;
    if (std::find(ids.begin(), ids.end(), entries_[i].flow) == ids.end()) ids.push_back(entries_[i].flow);
  }
  return ids;
}

// --- Regional CC

void RegionalWindow::engage(TimePs now, Bytes w, TimePs period) {
  active_ = true;
  measuring_ = true;
  start_ = now;
  period_ = period;
  w_ = w_c_ = w;
  sent_ = sent_c_ = 0;
}

void RegionalWindow::next(TimePs now, Bytes measured_harmful) {
  if (measuring_) {
    w_c_ = std::min(measured_harmful, w_);
    measuring_ = false;
  }
  start_ = now;
  sent_ = sent_c_ = 0;
  if (has_new_fb_) {
    // Paper eqs. 5-6: W_c <- W_c (1 - Fb G_d), W_nc = W - W_c.
    w_c_ = static_cast<Bytes>(static_cast<double>(w_c_) * (1.0 - fb_q_ * kGd));
    has_new_fb_ = false;
  }
}

// --- The mechanism

class RcmMechanism::Gate final : public VoqGate {
 public:
  Gate(RcmMechanism& m, std::uint16_t port) : m_(m), port_(port) {}
  Verdict may_transfer(const Packet& head, TimePs now, TimePs& retry_ps) override {
    return m_.may_transfer(port_, head, now, retry_ps);
  }
  void transferred(const Packet& p, Bytes output_bytes) override { m_.transferred(port_, p, output_bytes); }

 private:
  RcmMechanism& m_;
  std::uint16_t port_;
};

class RcmMechanism::Sar final : public RoutingPolicy {
 public:
  Sar(RcmMechanism& m, std::uint64_t ecmp_seed)
      : m_(m), seed_(ecmp_seed), table_(m.p_.sar_hold, m.p_.sar_flows == "new") {}
  std::uint16_t choose(const Packet& p, const std::uint16_t* cand, std::uint32_t n) override {
    // ECMP unless the switch is in a congestion region (and for everything but data).
    const std::uint16_t ecmp = cand[ecmp_pick(p.ecmp_hash, seed_, n)];
    if (p.type != PacketType::kData || p.priority == kControlPriority) return ecmp;
    const TimePs now = m_.sw_.sim().now();
    const bool region = m_.in_region(now);
    if (!region && table_.empty()) return ecmp;
    // The message's first and last packets (RoCEv2's BTH opcodes First / Last, Only for both).
    const bool first = p.seq == 0;
    const bool last = p.seq + p.payload_bytes >= m_.net_.flow(p.flow_id).size_bytes;
    return table_.choose(
        p.flow_id, first, last, ecmp, cand, n, region, now,
        [&](std::uint16_t port) { return m_.regional_degree(port, now); },
        [&](std::uint16_t port) { return m_.seen_harmful(port, p.flow_id, now); });
  }

 private:
  RcmMechanism& m_;
  std::uint64_t seed_;
  SarTable table_;
};

RcmMechanism::RcmMechanism(const RcmParams& p, Switch& sw, Network& net)
    : p_(p),
      sw_(sw),
      net_(net),
      periodic_cfr_(p.cfr_sampling == "periodic"),
      strict_window_(p.window_mode == "strict"),
      rng_(net.seed(), "rcm", sw.index()),
      cn_(net.slots().bind(kRcmCnFields)) {
  const std::size_t n = sw.ports.size();
  for (Port& port : sw.ports) {
    auto* q = dynamic_cast<VoqQueues*>(port.custom_queues());
    if (!q) throw ConfigError("", "switch.mechanism", "rcm needs switch.architecture: voq");
    queues_.push_back(q);
    to_switch_.push_back(!net.topology().is_host(net.peer_node(port.node, port.index)));
  }
  const Bytes queue_size = queues_.empty() ? 0 : queues_[0]->queue_size();
  const auto q_eq = static_cast<Bytes>(p.q_eq_fraction * static_cast<double>(queue_size));
  voq_setting_ = oq_setting_ = {q_eq, p.w, p.sample_bytes};
  ports_.resize(n);
  for (auto& s : ports_) {
    s.cam = FlowCam(p.cam_depth);
    s.sample_countdown = static_cast<std::uint32_t>(p.cfr_sample);
  }
  voq_.resize(n * n);
  voq_congested_.assign(n * n, 0);
  cn_times_.assign(p.sar_cn_threshold, kTimeNever);
  for (std::uint16_t i = 0; i < n; ++i) {
    gates_.push_back(std::make_unique<Gate>(*this, i));
    queues_[i]->set_gate(gates_.back().get());
  }
  if (p.sar) sw.set_router(std::make_unique<Sar>(*this, switch_ecmp_seed(net.seed(), sw.index())));
}

// The switch destroys its queue sets first: the gates they point to outlive them.
RcmMechanism::~RcmMechanism() = default;

std::uint8_t RcmMechanism::combined(std::uint8_t local_q, std::uint16_t port, TimePs now) const {
  const PortState& s = ports_[port];
  if (s.remote_until <= now) return local_q;
  // Paper eq. 2: Fb' = (1 - w_r) Fb + w_r Fb_remote.
  const double d = (1.0 - p_.w_r) * local_q + p_.w_r * s.remote_fb_q;
  return static_cast<std::uint8_t>(std::lround(d));
}

double RcmMechanism::regional_degree(std::uint16_t port, TimePs now) const {
  const PortState& s = ports_[port];
  const double local = s.oq.fb_q();
  if (s.remote_until <= now) return local;
  return (1.0 - p_.w_r) * local + p_.w_r * s.remote_fb_q;
}

bool RcmMechanism::harmful(std::uint16_t port, std::uint32_t flow, TimePs now) const {
  const PortState& s = ports_[port];
  if (s.remote_until > now) {
    // The root's harmful flows replace the port's own (paper §3.2).
    for (const auto& r : s.remote_flows)
      if (r.flow == flow && r.until > now) return true;
    return false;
  }
  return std::find(s.harmful_flows.begin(), s.harmful_flows.end(), flow) != s.harmful_flows.end();
}

bool RcmMechanism::seen_harmful(std::uint16_t port, std::uint32_t flow, TimePs now) const {
  const PortState& s = ports_[port];
  if (s.cam.contains(flow)) return true;
  if (s.remote_until <= now) return false;
  for (const auto& r : s.remote_flows)
    if (r.flow == flow && r.until > now) return true;
  return false;
}

void RcmMechanism::recognize(std::uint16_t port) {
  PortState& s = ports_[port];
  const double mean = s.cam.mean_hits();
  std::erase_if(s.harmful_flows, [&](std::uint32_t f) {
    return !s.cam.contains(f) || s.cam.hits(f) < p_.harmless_share * mean;
  });
  s.cam.for_each_flow([&](std::uint32_t f, std::uint32_t hits) {
    if (hits >= p_.harmful_share * mean &&
        std::find(s.harmful_flows.begin(), s.harmful_flows.end(), f) == s.harmful_flows.end())
      s.harmful_flows.push_back(f);
  });
}

bool RcmMechanism::in_region(TimePs now) const {
  if (congested_queues_ > 0) return true;
  const TimePs oldest = cn_times_[cn_next_];
  return oldest != kTimeNever && now - oldest <= p_.sar_window;
}

void RcmMechanism::set_voq_congested(std::size_t slot, bool congested) {
  if (voq_congested_[slot] == congested) return;
  voq_congested_[slot] = congested;
  if (congested)
    ++congested_queues_;
  else
    --congested_queues_;
}

void RcmMechanism::update_window(std::uint16_t port, TimePs now) {
  PortState& s = ports_[port];
  RegionalWindow& w = s.window;
  const bool engaged = s.oq.congested() || s.remote_until > now;
  if (engaged && !w.active()) {
    const Bytes bytes = static_cast<Bytes>(static_cast<unsigned __int128>(sw_.ports[port].rate_bps()) *
                                           p_.window_period / (8 * kPsPerSec));
    w.engage(now, bytes, p_.window_period);
    s.measured.clear();
    s.harmful_flows.clear();
    if (p_.trace) trace(port, "engage", 0, 0);
  } else if (!engaged && w.active()) {
    w.disengage();
    if (p_.trace) trace(port, "end", 0, 0);
  } else if (w.due(now)) {
    recognize(port);
    Bytes harmful_bytes = 0;
    if (w.measuring()) {
      // What the flows harmful now sent since the congestion was found.
      for (const auto& m : s.measured)
        if (harmful(port, m.flow, now)) harmful_bytes += m.bytes;
      s.measured.clear();
    }
    const Bytes before = w.w_c();
    w.next(now, harmful_bytes);
    if (p_.trace && w.w_c() != before) trace(port, "window", 0, 0);
  }
}

VoqGate::Verdict RcmMechanism::may_transfer(std::uint16_t port, const Packet& head, TimePs now,
                                            TimePs& retry_ps) {
  if (!p_.regional_cc) return VoqGate::Verdict::kGo;
  update_window(port, now);
  const RegionalWindow& w = ports_[port].window;
  if (!w.active() || w.may_send_harmful(head.wire_bytes) || !harmful(port, head.flow_id, now))
    return VoqGate::Verdict::kGo;
  if (!strict_window_) return VoqGate::Verdict::kIfNoneElse;
  retry_ps = w.window_end();
  return VoqGate::Verdict::kWait;
}

void RcmMechanism::transferred(std::uint16_t port, const Packet& p, Bytes output_bytes) {
  const TimePs now = sw_.sim().now();
  PortState& s = ports_[port];
  const std::size_t slot = std::size_t{p.in_port} * ports_.size() + port;
  if (queues_[port]->voq_bytes(p.in_port) == 0) {
    voq_[slot].clear();
    set_voq_congested(slot, false);
  }
  const bool was = s.oq.congested();
  if (s.oq.on_arrival(p.wire_bytes, output_bytes, oq_setting_)) {
    if (was != s.oq.congested()) {
      if (was)
        --congested_queues_;
      else
        ++congested_queues_;
    }
    if (s.oq.congested()) s.window.new_fb(combined(s.oq.fb_q(), port, now));
  }
  if (!p_.regional_cc) return;
  update_window(port, now);
  RegionalWindow& w = s.window;
  if (!w.active()) return;
  w.sent(p.wire_bytes, harmful(port, p.flow_id, now));
  if (w.measuring()) {
    auto it = std::find_if(s.measured.begin(), s.measured.end(),
                           [&](const PortState::Sent& m) { return m.flow == p.flow_id; });
    if (it != s.measured.end())
      it->bytes += p.wire_bytes;
    else
      s.measured.push_back({p.flow_id, p.wire_bytes});
  }
}

void RcmMechanism::on_enqueue(const Port& egress, const Packet& p) {
  const std::uint16_t out = egress.index, in = p.in_port;
  const std::size_t slot = std::size_t{in} * ports_.size() + out;
  CongestionDetector& d = voq_[slot];
  if (!d.on_arrival(p.wire_bytes, queues_[out]->voq_bytes(in), voq_setting_)) return;
  set_voq_congested(slot, d.congested());
  // A congested input queue: the input is a root congestion point; its upstream neighbour hears of it.
  if (d.congested() && to_switch_[in]) send_cn(in, out, combined(d.fb_q(), out, sw_.sim().now()));
}

void RcmMechanism::send_cn(std::uint16_t in_port, std::uint16_t out_port, std::uint8_t fb_q) {
  const TimePs now = sw_.sim().now();
  const PortState& s = ports_[out_port];
  std::vector<std::uint32_t>& ids = scratch_ids_;
  if (s.remote_until > now) {
    // Inside the region: the root's harmful flows travel on upstream.
    ids.clear();
    for (const auto& r : s.remote_flows)
      if (r.until > now && ids.size() < p_.cn_max_ids) ids.push_back(r.flow);
  } else {
    ids = s.cam.flows_from(in_port, p_.cn_max_ids);
  }
  Packet* cn = sw_.new_packet();
  cn->type = kRcmCn;
  cn->priority = kControlPriority;
  cn->ecn_capable = false;
  cn->wire_bytes = static_cast<std::uint32_t>(p_.cn_size + ids.size() * p_.cn_id_size);
  RcmCnFields& f = cn->ext_init(cn_);
  f.fb_q = fb_q;
  f.n_ids = static_cast<std::uint8_t>(ids.size());
  std::copy(ids.begin(), ids.end(), f.ids);
  sw_.send_on(in_port, cn);
  ++cns_sent_;
  if (p_.trace) trace(in_port, "cn_sent", fb_q, ids.size());
}

bool RcmMechanism::on_packet(Port& in, Packet* p) {
  if (p->type != kRcmCn) return false;
  const TimePs now = sw_.sim().now();
  const RcmCnFields& f = p->ext(cn_);
  const std::uint16_t port = in.index;
  PortState& s = ports_[port];
  const TimePs until = now + p_.remote_hold;
  s.remote_until = until;
  s.remote_fb_q = f.fb_q;
  std::erase_if(s.remote_flows, [&](const PortState::RemoteFlow& r) { return r.until <= now; });
  for (std::size_t i = 0; i < f.n_ids; ++i) {
    auto it = std::find_if(s.remote_flows.begin(), s.remote_flows.end(),
                           [&](const PortState::RemoteFlow& r) { return r.flow == f.ids[i]; });
    if (it != s.remote_flows.end())
      it->until = until;
    else
      s.remote_flows.push_back({f.ids[i], until});
  }
  cn_times_[cn_next_] = now;
  cn_next_ = cn_next_ + 1 == cn_times_.size() ? 0 : cn_next_ + 1;
  if (p_.trace) trace(port, "cn_received", f.fb_q, f.n_ids);
  sw_.free_packet(p);
  if (p_.regional_cc) {
    s.window.new_fb(combined(s.oq.fb_q(), port, now));
    update_window(port, now);
  }
  return true;
}

void RcmMechanism::on_dequeue(const Port& egress, Packet& p) {
  const std::uint16_t port = egress.index;
  PortState& s = ports_[port];
  bool sample;
  if (periodic_cfr_) {
    sample = --s.sample_countdown == 0;
    if (sample) s.sample_countdown = static_cast<std::uint32_t>(p_.cfr_sample);
  } else {
    sample = rng_.below(p_.cfr_sample) == 0;
  }
  if (sample) s.cam.write(p.flow_id, p.in_port);
  if (queues_[port]->output_bytes() == 0 && s.oq.congested()) {
    s.oq.clear();
    --congested_queues_;
    if (p_.regional_cc) update_window(port, sw_.sim().now());
  }
}

void RcmMechanism::trace(std::uint16_t port, const char* event, std::uint8_t fb_q, std::size_t flows) {
  const RegionalWindow& w = ports_[port].window;
  trace_.push_back({sw_.sim().now(), port, event, fb_q, w.w_c(), w.w(), flows});
}

void RcmMechanism::write_trace(std::FILE* out) const {
  const std::string node = net_.topology().node_name(sw_.node());
  for (const auto& r : trace_)
    std::fprintf(out, "%.3f,%s,%u,%s,%u,%llu,%llu,%zu\n", ps_to_ns(r.time_ps), node.c_str(),
                 static_cast<unsigned>(r.port), r.event, static_cast<unsigned>(r.fb_q),
                 static_cast<unsigned long long>(r.w_c), static_cast<unsigned long long>(r.w), r.flows);
}

LOSSLESS_REGISTER_MECHANISM(
    RcmParams, RcmMechanism, "rcm",
    "RCM regional congestion mitigation (NPC'17) on switch.architecture voq: CRD, CFR, regional CC, SAR");

}  // namespace lossless
