#include "control/homa/homa.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "control/cc_scheme.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "net/rdma_nic.h"
#include "net/switch.h"
#include "workload/cdf.h"

namespace lossless {

const PacketType kHomaGrant = PacketKinds::add("homa.grant", PacketKinds::kEndToEnd);
const PacketType kHomaResend = PacketKinds::add("homa.resend", PacketKinds::kEndToEnd);

namespace {

std::uint8_t priority_of_level(unsigned level) { return static_cast<std::uint8_t>(1 + level); }

Bytes auto_rtt_bytes(const HomaParams& p, const CcEnv& env) {
  return p.rtt_bytes ? p.rtt_bytes : std::max<Bytes>(env.max_bdp_bytes, env.nic.mtu_bytes);
}
Bytes auto_unscheduled_bytes(const HomaParams& p, const CcEnv& env) {
  return p.unscheduled_bytes ? p.unscheduled_bytes : auto_rtt_bytes(p, env);
}
bool recovers(const HomaParams& p, const CcEnv& env) {
  return p.loss_recovery == "on" || (p.loss_recovery == "auto" && !env.lossless);
}
TimePs timeout_of(const HomaParams& p, const CcEnv& env) {
  return p.resend_timeout != kTimeNever ? p.resend_timeout : 10 * env.max_base_rtt_ps;
}

}  // namespace

std::vector<Bytes> homa_unscheduled_cutoffs(const std::vector<std::pair<double, double>>& cdf_points,
                                            Bytes unscheduled_bytes, unsigned levels) {
  // The unscheduled bytes of messages up to each size: every CDF segment spreads its probability evenly
  // over its sizes (linear interpolation); integrate min(size, unscheduled) over fine steps of it.
  constexpr int kSteps = 256;
  const double cap = static_cast<double>(unscheduled_bytes);
  std::vector<std::pair<double, double>> cumulative;  // (size, unscheduled bytes of messages <= size)
  double total = 0;
  auto add = [&](double size, double mass) {
    total += mass * std::min(std::max(size, 1.0), cap);
    cumulative.emplace_back(size, total);
  };
  add(cdf_points.front().first, cdf_points.front().second);
  for (std::size_t i = 1; i < cdf_points.size(); ++i) {
    const auto [x0, y0] = cdf_points[i - 1];
    const auto [x1, y1] = cdf_points[i];
    if (y1 <= y0) continue;
    for (int k = 1; k <= kSteps; ++k) add(x0 + (x1 - x0) * (k - 0.5) / kSteps, (y1 - y0) / kSteps);
  }
  std::vector<Bytes> cutoffs;
  std::size_t j = 0;
  for (unsigned level = 1; level < levels; ++level) {
    const double target = total * level / levels;
    while (j + 1 < cumulative.size() && cumulative[j].second < target) ++j;
    auto size = static_cast<Bytes>(std::ceil(cumulative[j].first));
    if (!cutoffs.empty()) size = std::max(size, cutoffs.back() + 1);
    cutoffs.push_back(size);
  }
  return cutoffs;
}

void HomaParams::load_cdf() {
  cdf_points = std::make_shared<const std::vector<std::pair<double, double>>>(
      SizeCdf::load(resolve_cdf_path(cdf, "")).points());
}

// --- Sender

HomaSender::HomaSender(const HomaParams& p, SenderQp& qp, const CcEnv& env)
    : qp_(qp),
      sim_(env.sim),
      unsched_end_(std::min(qp.size(), auto_unscheduled_bytes(p, env))),
      unsched_prio_(
          priority_of_level(static_cast<HomaNic&>(*env.host_nic.control()).unscheduled_level(qp.size()))),
      sched_prio_(priority_of_level(kHomaLevels - 1)),
      recover_(recovers(p, env)),
      timeout_ps_(timeout_of(p, env)),
      timer_(Timer::bind<HomaSender, &HomaSender::on_timeout>(this)),
      grant_(env.slots.bind(kHomaGrantField)),
      resend_(env.slots.bind(kHomaResendField)) {
  qp.set_send_gate(unsched_end_);
  qp.priority = unsched_prio_;
}

void HomaSender::on_start() {
  // Twice the receiver's timeout: a message the receiver knows is its to recover; this only covers one
  // whose every unscheduled packet was lost (our choice of the multiple).
  if (recover_) timer_.arm_after(sim_, 2 * timeout_ps_);
}

void HomaSender::set_next_priority() {
  qp_.priority = qp_.snd_nxt < unsched_end_ ? unsched_prio_ : sched_prio_;
}

void HomaSender::on_sent(Packet&) {
  if (resend_end_ && qp_.snd_nxt >= resend_end_) {
    // The range a RESEND asked for is out again: carry on where sending had got to.
    qp_.snd_nxt = std::max(qp_.snd_nxt, resume_);
    resend_end_ = 0;
  }
  set_next_priority();
}

void HomaSender::on_packet(const Packet& p) {
  heard_ = true;
  if (p.type == kHomaGrant) {
    const auto& g = p.ext(grant_);
    sched_prio_ = g.priority;
    if (g.offset > qp_.send_gate_bytes) qp_.set_send_gate(g.offset);
    set_next_priority();
    qp_.nic->on_qp_unblocked();
  } else if (p.type == kHomaResend) {
    const auto& r = p.ext(resend_);
    if (r.offset < qp_.snd_nxt) {
      resume_ = std::max(resume_, qp_.snd_nxt);
      resend_end_ = std::max(resend_end_, r.end);
      qp_.snd_nxt = r.offset;
      set_next_priority();
      qp_.nic->on_qp_unblocked();
    }
  }
}

void HomaSender::on_timeout() {
  // Nothing came back: the receiver has not heard of the message (all its unscheduled packets were lost).
  if (heard_) return;
  resume_ = std::max(resume_, qp_.snd_nxt);
  resend_end_ = unsched_end_;
  qp_.snd_nxt = 0;
  set_next_priority();
  qp_.nic->on_qp_unblocked();
  timer_.arm_after(sim_, 2 * timeout_ps_);
}

// --- Receiver

HomaReceiver::HomaReceiver(const HomaParams& p, ReceiverContext& rx, const Flow& flow, const CcEnv& env)
    : p_(p),
      rx_(rx),
      flow_(flow),
      nic_(static_cast<HomaNic&>(*env.host_nic.control())),
      sim_(env.sim),
      granted_(std::min(flow.size_bytes, auto_unscheduled_bytes(p, env))),
      recover_(recovers(p, env)),
      timeout_ps_(timeout_of(p, env)),
      timer_(Timer::bind<HomaReceiver, &HomaReceiver::on_timeout>(this)),
      grant_(env.slots.bind(kHomaGrantField)),
      resend_(env.slots.bind(kHomaResendField)) {
  rx.reassembles = ReceiverContext::Reassembly::kScheme;
  rx.ack_every = 0;  // one ACK, for the last byte: the message's completion
}

void HomaReceiver::on_data(const Packet& data) {
  const TimePs now = sim_.now();
  if (!known_) {
    known_ = true;
    first_ps_ = now;
    if (recover_) timer_.arm_after(sim_, timeout_ps_);
  }
  last_arrival_ps_ = now;
  const Bytes start = data.seq, end = data.seq + data.payload_bytes;
  bool fresh = false;
  if (start == rx_.expected) {
    fresh = true;
  } else if (start > rx_.expected) {
    // Keep it unless a held range already covers it (packets never straddle ranges: MTU-aligned).
    auto it = std::lower_bound(held_.begin(), held_.end(), std::make_pair(start, Bytes{0}));
    const bool covered =
        (it != held_.end() && it->first == start) || (it != held_.begin() && std::prev(it)->second >= end);
    if (!covered) {
      fresh = true;
      it = held_.insert(it, {start, end});
      // Merge with the neighbours.
      if (auto next = std::next(it); next != held_.end() && next->first <= it->second) {
        it->second = std::max(it->second, next->second);
        held_.erase(next);
      }
      if (it != held_.begin() && std::prev(it)->second >= it->first) {
        auto prev = std::prev(it);
        prev->second = std::max(prev->second, it->second);
        held_.erase(it);
      }
    }
  }
  if (!fresh) return;
  received_ += data.payload_bytes;
  nic_.on_arrival(*this);
}

Bytes HomaReceiver::contiguous_end(Bytes in_order_end) {
  std::size_t n = 0;
  while (n < held_.size() && held_[n].first <= in_order_end)
    in_order_end = std::max(in_order_end, held_[n++].second);
  held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(n));
  if (in_order_end >= flow_.size_bytes) timer_.cancel();
  return in_order_end;
}

void HomaReceiver::grant(Bytes offset, std::uint8_t priority) {
  granted_ = offset;
  last_prio_ = priority;
  RdmaNic& nic = nic_.nic();
  Packet* g = nic.packet_for_flow(flow_.id, kHomaGrant, static_cast<std::uint32_t>(p_.grant_bytes));
  g->ext_init(grant_) = {offset, priority};
  nic.send(g);
}

void HomaReceiver::on_timeout() {
  if (rx_.expected >= flow_.size_bytes) return;
  const TimePs now = sim_.now();
  if (now - last_arrival_ps_ >= timeout_ps_) {
    // Missing: from the in-order end up to the first held range or the end of what was granted.
    const Bytes end = held_.empty() ? granted_ : std::min(granted_, held_.front().first);
    if (end > rx_.expected) {
      RdmaNic& nic = nic_.nic();
      Packet* r = nic.packet_for_flow(flow_.id, kHomaResend, static_cast<std::uint32_t>(p_.grant_bytes));
      r->ext_init(resend_) = {rx_.expected, end};
      nic.send(r);
    }
    last_arrival_ps_ = now;
  }
  timer_.arm_at(sim_, last_arrival_ps_ + timeout_ps_);
}

void HomaReceiver::check_state(StateCheck& check) const {
  const auto size = static_cast<double>(flow_.size_bytes);
  check.in_range("granted_bytes", static_cast<double>(granted_), 0, size);
  check.in_range("received_bytes", static_cast<double>(received_), 0, size);
}

// --- Per NIC

HomaNic::HomaNic(const HomaParams& p, RdmaNic& nic, const CcEnv& env)
    : p_(p), nic_(nic), rtt_bytes_(auto_rtt_bytes(p, env)), unsched_bytes_(auto_unscheduled_bytes(p, env)) {
  if (p.unscheduled_levels() > 1) {
    if (p.cdf_points) {
      cutoffs_ = homa_unscheduled_cutoffs(*p.cdf_points, unsched_bytes_, p.unscheduled_levels());
    } else {
      HomaParams loaded = p;
      loaded.load_cdf();
      cutoffs_ = homa_unscheduled_cutoffs(*loaded.cdf_points, unsched_bytes_, p.unscheduled_levels());
    }
  }
}

SenderQp* HomaNic::pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) {
  // SRBF: the message with the fewest bytes left to send; the earliest started on ties.
  SenderQp* best = nullptr;
  Bytes best_left = 0;
  for (SenderQp* qp : active) {
    if (!nic_.may_send(*qp, now, earliest)) continue;
    const Bytes left = qp->size() - qp->snd_nxt;
    if (!best || left < best_left) {
      best = qp;
      best_left = left;
    }
  }
  return best;
}

void HomaNic::on_arrival(HomaReceiver& m) {
  // Only a message the scheduler knows, or a new one that needs grants, changes what it would decide (a
  // message it has granted in full leaves its list at the next decision, freeing its place).
  if (std::find(waiting_.begin(), waiting_.end(), &m) == waiting_.end()) {
    if (m.granted_bytes() >= m.flow().size_bytes) return;
    waiting_.push_back(&m);
  }
  schedule();
}

void HomaNic::schedule() {
  std::erase_if(waiting_,
                [](const HomaReceiver* msg) { return msg->granted_bytes() >= msg->flow().size_bytes; });
  // SRPT by bytes still to grant, then size, then first arrival (HomaSimulation's CompareBytesToGrant).
  std::sort(waiting_.begin(), waiting_.end(), [](const HomaReceiver* a, const HomaReceiver* b) {
    const Bytes ga = a->flow().size_bytes - a->granted_bytes(),
                gb = b->flow().size_bytes - b->granted_bytes();
    if (ga != gb) return ga < gb;
    if (a->flow().size_bytes != b->flow().size_bytes) return a->flow().size_bytes < b->flow().size_bytes;
    if (a->first_arrival_ps() != b->first_arrival_ps()) return a->first_arrival_ps() < b->first_arrival_ps();
    return a->flow().id < b->flow().id;
  });
  // The best message of each sender, up to the overcommitment degree.
  chosen_.clear();
  senders_.clear();
  const unsigned k = p_.granted_messages();
  for (HomaReceiver* m : waiting_) {
    if (chosen_.size() == k) break;
    if (std::find(senders_.begin(), senders_.end(), m->flow().src) != senders_.end()) continue;
    chosen_.push_back(m);
    senders_.push_back(m->flow().src);
  }
  const unsigned unsched_levels = p_.unscheduled_levels();
  const auto s = static_cast<unsigned>(p_.scheduled_levels);
  const auto m = static_cast<unsigned>(chosen_.size());
  for (unsigned r = 0; r < m; ++r) {
    HomaReceiver& msg = *chosen_[r];
    const Bytes size = msg.flow().size_bytes;
    if (msg.outstanding_bytes() >= rtt_bytes_) continue;  // RTTbytes outstanding already
    unsigned level = unsched_levels + (s - m + r);
    const Bytes to_grant = size - msg.granted_bytes();
    if (p_.boost_tail && to_grant < rtt_bytes_) level = std::min(level, unscheduled_level(to_grant));
    msg.grant(std::min(size, msg.received_bytes() + rtt_bytes_), priority_of_level(level));
  }
}

// --- Switch part

bool StrictPriorityQueues::enqueue(Packet* p, std::uint16_t) {
  q_[p->priority].push(p);
  nonempty_ = static_cast<std::uint8_t>(nonempty_ | (1u << p->priority));
  return true;
}

Packet* StrictPriorityQueues::dequeue(std::uint8_t paused, TimePs, TimePs&) {
  const unsigned sendable = nonempty_ & ~paused & 0xFEu;
  if (!sendable) return nullptr;
  const auto q = static_cast<std::uint8_t>(__builtin_ctz(sendable));
  Packet* p = q_[q].pop();
  if (q_[q].empty()) nonempty_ = static_cast<std::uint8_t>(nonempty_ & ~(1u << q));
  return p;
}

void StrictPriorityQueues::for_each(const std::function<void(const Packet&)>& f) const {
  for (int q = 1; q < kPriorities; ++q) q_[q].for_each(f);
}

HomaSwitch::HomaSwitch(const HomaParams&, Switch& sw, Network&) {
  for (const Port& port : sw.ports)
    sw.set_egress_queues(port.index, std::make_unique<StrictPriorityQueues>());
}

LOSSLESS_REGISTER_CC_PARTS(
    Homa, "homa",
    "Homa (SIGCOMM'18, HomaSimulation): unscheduled RTTbytes, receiver grants by SRPT with "
    "overcommitment, strict priorities at every switch");

}  // namespace lossless
