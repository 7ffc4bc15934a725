#include "control/bfc/bfc.h"

#include <algorithm>
#include <bit>

#include "control/switch_schemes.h"
#include "core/rng.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "net/rdma_nic.h"

namespace lossless {

const PacketType kBfcPause = PacketKinds::add("bfc.pause", PacketKinds::kLinkLocal);

namespace {
std::uint64_t low_bits(std::uint64_t n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }
}  // namespace

// --- egress queues

BfcQueues::BfcQueues(Bfc& bfc, const Port& port)
    : bfc_(bfc),
      port_(port),
      q_(bfc.params().data_queues),
      table_(bfc.params().flow_table_buckets),
      hop_(bfc.sw().net().slots().bind(kBfcHop)) {}

std::size_t BfcQueues::bucket(std::uint32_t flow_id) const {
  return mix64(flow_id ^ bfc_.salt()) % table_.size();
}

int BfcQueues::queue_of(std::uint32_t flow_id) const {
  const Entry& e = table_[bucket(flow_id)];
  if (!e.used) return -1;
  if (e.packets == 0 && bfc_.sw().sim().now() - e.last_arrival_ps > bfc_.params().sticky) return -1;
  return e.queue;
}

unsigned BfcQueues::assign(std::size_t bucket_index) {
  // An empty queue nobody pauses, scanning from a random start; else a collision in a queue chosen by the
  // entry (the authors seed a pseudo-random choice with the entry's index).
  const auto n = static_cast<unsigned>(q_.size());
  const auto start = static_cast<unsigned>(bfc_.sw().rng().below(n));
  const std::uint64_t free = ~nonempty_ & ~paused_ & low_bits(n);
  if (free) {
    const std::uint64_t from_start = free & ~low_bits(start);
    return static_cast<unsigned>(std::countr_zero(from_start ? from_start : free));
  }
  return static_cast<unsigned>(mix64(bucket_index ^ bfc_.salt()) % n);
}

bool BfcQueues::enqueue(Packet* p, std::uint16_t in_port) {
  const TimePs now = bfc_.sw().sim().now();
  const std::size_t b = bucket(p->flow_id);
  Entry& e = table_[b];
  if (!e.used || (e.packets == 0 && now - e.last_arrival_ps > bfc_.params().sticky)) {
    e.queue = static_cast<std::uint8_t>(assign(b));
    e.used = true;
  }
  e.last_arrival_ps = now;
  ++e.packets;
  PacketFifo& q = q_[e.queue];
  q.push(p);
  nonempty_ |= std::uint64_t{1} << e.queue;
  prio_bytes_[p->priority] += p->wire_bytes;
  // Only data packets carry BFC's per-hop fields (a scheme's packet at a data priority is queued, never the
  // cause of a pause); a switch's own packets come from no upstream queue.
  if (p->type != PacketType::kData) return true;
  if (in_port == kSwitchMade) {
    p->ext_init(hop_) = BfcHop{0, false};
    return true;
  }
  BfcHop& hop = p->ext(hop_);
  hop.asked_pause = false;
  if (e.packets <= 1) return true;
  // Th = th_factor x C x hop RTT / N_active, in bits.
  const BfcParams& prm = bfc_.params();
  const int active = std::max(1, std::popcount(nonempty_ & ~paused_));
  const TimePs rtt = prm.hop_rtt == kTimeNever ? 2 * bfc_.sw().ports[in_port].delay_ps() : prm.hop_rtt;
  const double th_bits = prm.th_factor * static_cast<double>(port_.rate_bps()) * static_cast<double>(rtt) /
                         static_cast<double>(kPsPerSec) / active;
  if (static_cast<double>(q.bytes()) * 8 > th_bits) {
    hop.asked_pause = true;
    bfc_.request_pause(in_port, hop.queue);
  }
  return true;
}

Packet* BfcQueues::dequeue(std::uint8_t paused, TimePs, TimePs&) {
  const auto n = static_cast<unsigned>(q_.size());
  std::uint64_t ready = nonempty_ & ~paused_;
  while (ready) {
    // Round-robin: the first ready queue at or after rr_, else the lowest.
    const std::uint64_t from = rr_ < 64 ? ready & ~low_bits(rr_) : 0;
    const auto qi = static_cast<unsigned>(std::countr_zero(from ? from : ready));
    PacketFifo& q = q_[qi];
    if ((paused >> q.front()->priority) & 1u) {
      ready &= ~(std::uint64_t{1} << qi);  // its head waits for a PFC resume
      continue;
    }
    rr_ = (qi + 1) % n;
    Packet* p = q.pop();
    if (q.empty()) nonempty_ &= ~(std::uint64_t{1} << qi);
    prio_bytes_[p->priority] -= p->wire_bytes;
    --table_[bucket(p->flow_id)].packets;
    if (p->type != PacketType::kData) return p;
    BfcHop& hop = p->ext(hop_);
    if (hop.asked_pause) {
      bfc_.release_pause(p->in_port, hop.queue);
      hop.asked_pause = false;
    }
    hop.queue = static_cast<std::uint16_t>(qi);  // the next hop's "upstream queue"
    return p;
  }
  return nullptr;
}

void BfcQueues::for_each(const std::function<void(const Packet&)>& f) const {
  for (const auto& q : q_) q.for_each(f);
}

bool BfcQueues::set_remote(const BfcBitmap& b) {
  const std::uint64_t bits = bfc_.params().bitmap_bits;
  std::uint64_t paused = 0;
  for (unsigned q = 0; q < q_.size(); ++q) {
    const std::uint64_t bit = q % bits;
    if ((b.words[bit / 64] >> (bit % 64)) & 1u) paused |= std::uint64_t{1} << q;
  }
  const bool resumed = (paused_ & ~paused) != 0;
  paused_ = paused;
  return resumed;
}

// --- the policy

Bfc::Bfc(const BfcParams& p, Switch& sw)
    : p_(p),
      sw_(sw),
      pfc_(NoParams{}, sw),
      pfc_enabled_(sw.net().switch_config().pfc_enabled),
      salt_(sw.rng().next()),
      // The authors' frame: a 6-byte pause header, the bitmap, IPv4 (20) and PPP (2) headers.
      frame_bytes_(static_cast<std::uint32_t>(28 + p.bitmap_bits / 8)),
      ingress_(sw.ports.size()),
      period_(Timer::bind<Bfc, &Bfc::on_period>(this)),
      bitmap_slot_(sw.net().slots().bind(kBfcBitmap)) {
  for (auto& in : ingress_) in.counters.assign(p.bitmap_bits, 0);
  for (Port& port : sw.ports) {
    auto q = std::make_unique<BfcQueues>(*this, port);
    queues_.push_back(q.get());
    sw.set_egress_queues(port.index, std::move(q), "switch.flow_control: bfc");
  }
}

void Bfc::start() { period_.arm_after(sw_.sim(), p_.pause_frame_period); }

void Bfc::request_pause(std::uint16_t in_port, std::uint16_t id) {
  const std::uint64_t bit = id % p_.bitmap_bits;
  Ingress& in = ingress_[in_port];
  if (in.counters[bit]++ == 0) in.bitmap.words[bit / 64] |= std::uint64_t{1} << (bit % 64);
  // A set bit waits for the next periodic frame.
}

void Bfc::release_pause(std::uint16_t in_port, std::uint16_t id) {
  const std::uint64_t bit = id % p_.bitmap_bits;
  Ingress& in = ingress_[in_port];
  if (--in.counters[bit] == 0) {
    in.bitmap.words[bit / 64] &= ~(std::uint64_t{1} << (bit % 64));
    in.resume_due = true;  // sent at once, once the packet that cleared it has left (after_release)
    resume_pending_ = true;
  }
}

void Bfc::send_bitmap(std::uint16_t port) {
  Packet* f = sw_.new_packet();
  f->type = kBfcPause;
  f->priority = kControlPriority;
  f->ecn_capable = false;
  f->wire_bytes = frame_bytes_;
  f->ext_init(bitmap_slot_) = ingress_[port].bitmap;
  ++frames_sent_;
  sw_.send_on(port, f);
}

void Bfc::send_resumes() {
  resume_pending_ = false;
  for (std::uint16_t i = 0; i < ingress_.size(); ++i)
    if (ingress_[i].resume_due) {
      ingress_[i].resume_due = false;
      send_bitmap(i);
    }
}

void Bfc::on_period() {
  for (std::uint16_t i = 0; i < ingress_.size(); ++i) {
    ingress_[i].resume_due = false;
    send_bitmap(i);
  }
  resume_pending_ = false;
  period_.arm_after(sw_.sim(), p_.pause_frame_period);
}

bool Bfc::on_packet(Port& in, Packet* p) {
  if (p->type != kBfcPause) return false;
  const bool resumed = queues_[in.index]->set_remote(p->ext(bitmap_slot_));
  sw_.free_packet(p);
  if (resumed) in.kick_or_wait();
  return true;
}

// --- the NIC

BfcNic::BfcNic(const BfcParams& p, RdmaNic& nic, const CcEnv& env)
    : nic_(nic),
      bits_(p.bitmap_bits),
      queues_(static_cast<std::uint16_t>(p.nic_queues)),
      in_use_(p.nic_queues),
      bitmap_slot_(env.slots.bind(kBfcBitmap)),
      hop_(env.slots.bind(kBfcHop)) {}

void BfcNic::on_flow_start(SenderQp& qp) {
  // The lowest free id (the authors draw from a shuffled free list).
  while (next_free_ < queues_ && in_use_[next_free_] > 0) ++next_free_;
  const std::uint16_t id =
      next_free_ < queues_ ? next_free_ : static_cast<std::uint16_t>(overflow_++ % queues_);  // share one
  queue_[&qp] = id;
  ++in_use_[id];
}

void BfcNic::on_flow_finish(SenderQp& qp) {
  // A shared id stays taken until its last flow finishes.
  const auto it = queue_.find(&qp);
  if (it == queue_.end()) return;
  const std::uint16_t id = it->second;
  queue_.erase(it);
  if (in_use_[id] > 0 && --in_use_[id] == 0) next_free_ = std::min(next_free_, id);
}

void BfcNic::on_packet(const Packet& p) {
  if (p.type != kBfcPause) return;
  bitmap_ = p.ext(bitmap_slot_);
  nic_.on_qp_unblocked();
}

SenderQp* BfcNic::pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) {
  const std::size_t n = active.size();
  for (std::size_t i = 0, idx = rr_ < n ? rr_ : 0; i < n; ++i, idx = idx + 1 < n ? idx + 1 : 0) {
    SenderQp& qp = *active[idx];
    if (paused(queue_of(qp)) || !nic_.may_send(qp, now, earliest)) continue;
    rr_ = idx + 1 < n ? idx + 1 : 0;
    return &qp;
  }
  return nullptr;
}

LOSSLESS_REGISTER_FLOW_CONTROL(
    BfcParams, Bfc, "bfc", "bfc",
    "BFC (NSDI'22): per-hop, per-flow backpressure over a bounded number of queues "
    "per port (parameters under switch.bfc); PFC stays as a last resort");

}  // namespace lossless
