#include "control/architecture/voq.h"

#include "control/switch_schemes.h"
#include "core/error.h"
#include "net/network.h"
#include "net/port.h"

namespace lossless {

VoqBuffer::VoqBuffer(std::size_t ports, Bytes queue_size, std::vector<Bytes> xoff_bytes,
                     Bytes resume_offset_bytes)
    : ports_(ports),
      queue_size_(queue_size),
      xoff_(std::move(xoff_bytes)),
      resume_offset_(resume_offset_bytes),
      voq_(ports * ports * kPriorities, 0),
      ingress_(ports * kPriorities),
      capacity_(static_cast<Bytes>(ports * ports) * queue_size) {}

bool VoqBuffer::admit(std::uint16_t in, std::uint8_t prio, Bytes bytes, std::uint16_t out) {
  Bytes& q = voq_[(std::size_t{in} * ports_ + out) * kPriorities + prio];
  if (q + bytes > queue_size_) return false;
  Ingress& g = ingress_[slot(in, prio)];
  const Bytes on = xoff_[in], off = xon(in);
  if (q < on && q + bytes >= on) ++g.over_xoff;
  if (q <= off && q + bytes > off) ++g.over_xon;
  q += bytes;
  g.bytes += bytes;
  used_ += bytes;
  return true;
}

void VoqBuffer::release(std::uint16_t in, std::uint8_t prio, Bytes bytes, std::uint16_t out) {
  Bytes& q = voq_[(std::size_t{in} * ports_ + out) * kPriorities + prio];
  LOSSLESS_CHECK(q >= bytes, "VOQ released more than it holds");
  Ingress& g = ingress_[slot(in, prio)];
  const Bytes on = xoff_[in], off = xon(in);
  if (q >= on && q - bytes < on) --g.over_xoff;
  if (q > off && q - bytes <= off) --g.over_xon;
  q -= bytes;
  g.bytes -= bytes;
  used_ -= bytes;
}

VoqQueues::VoqQueues(Switch& sw, std::uint16_t port, std::size_t ports, Bytes queue_size,
                     bool ecn_output_only)
    : EgressQueues(/*releases_ingress=*/true),
      sw_(sw),
      port_(port),
      ports_(ports),
      queue_size_(queue_size),
      ecn_output_only_(ecn_output_only),
      prio_(kPriorities),
      in_bytes_(ports, 0) {}

bool VoqQueues::enqueue(Packet* p, std::uint16_t in_port) {
  LOSSLESS_CHECK(in_port < ports_ && in_port != port_, "a VOQ packet comes from another port of the switch");
  const std::uint8_t prio = p->priority;
  Prio& q = prio_[prio];
  if (q.voq.empty()) {
    q.voq.resize(ports_);
    q.active.resize(ports_);
  }
  PacketFifo& v = q.voq[in_port];
  if (v.empty()) q.active.push_back(in_port);
  v.push(p);
  q.waiting += p->wire_bytes;
  in_bytes_[in_port] += p->wire_bytes;
  voq_nonempty_ = static_cast<std::uint8_t>(voq_nonempty_ | (1u << prio));
  transfer(prio, sw_.sim().now());
  // Never refused: a VOQ holds what the input's PFC headroom lets in.
  return true;
}

TimePs VoqQueues::transfer(std::uint8_t prio, TimePs now) {
  Prio& q = prio_[prio];
  TimePs retry_ps = kTimeNever;
  while (!q.active.empty()) {
    // Room for the packet whose turn it is: the output's turn ends when there is none.
    if (q.oq.bytes() + q.voq[q.active.front()].front()->wire_bytes > queue_size_) break;
    std::size_t pick = 0;
    if (gate_) {
      // The first input in turn whose head may go; else the first that may go when no other can.
      constexpr std::size_t kNone = ~std::size_t{0};
      std::size_t fallback = kNone;
      for (pick = 0; pick < q.active.size(); ++pick) {
        TimePs may_ps = kTimeNever;
        const auto v = gate_->may_transfer(*q.voq[q.active.at(pick)].front(), now, may_ps);
        if (v == VoqGate::Verdict::kGo) break;
        if (v == VoqGate::Verdict::kIfNoneElse && fallback == kNone) fallback = pick;
        if (v == VoqGate::Verdict::kWait && may_ps < retry_ps) retry_ps = may_ps;
      }
      if (pick == q.active.size()) pick = fallback;
      if (pick == kNone) break;
    }
    const std::uint16_t in = q.active.at(pick);
    PacketFifo& v = q.voq[in];
    if (q.oq.bytes() + v.front()->wire_bytes > queue_size_) break;
    q.active.erase(pick);
    Packet* p = v.pop();
    if (!v.empty()) q.active.push_back(in);
    in_bytes_[in] -= p->wire_bytes;
    q.oq.push(p);
    output_bytes_ += p->wire_bytes;
    oq_nonempty_ = static_cast<std::uint8_t>(oq_nonempty_ | (1u << prio));
    sw_.release_ingress(*p, port_);
    if (gate_) gate_->transferred(*p, output_bytes_);
  }
  if (q.active.empty()) voq_nonempty_ = static_cast<std::uint8_t>(voq_nonempty_ & ~(1u << prio));
  return retry_ps;
}

Packet* VoqQueues::dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) {
  // A gate may let heads go now that it refused before (a new window).
  if (gate_) {
    for (unsigned bits = voq_nonempty_; bits; bits &= bits - 1) {
      const TimePs t = transfer(static_cast<std::uint8_t>(__builtin_ctz(bits)), now);
      if (t < retry_ps) retry_ps = t;
    }
  }
  // Round-robin over the sendable priorities, from rr_next_ (as Port::dequeue).
  const unsigned sendable = oq_nonempty_ & ~paused & 0xFEu;
  if (!sendable) return nullptr;
  retry_ps = kTimeNever;
  const unsigned from_rr = sendable & (0xFFu << rr_next_);
  const auto prio = static_cast<std::uint8_t>(__builtin_ctz(from_rr ? from_rr : sendable));
  rr_next_ = round_robin_after(prio);
  Prio& q = prio_[prio];
  Packet* p = q.oq.pop();
  output_bytes_ -= p->wire_bytes;
  q.waiting -= p->wire_bytes;
  if (q.oq.empty()) oq_nonempty_ = static_cast<std::uint8_t>(oq_nonempty_ & ~(1u << prio));
  if (voq_nonempty_ & (1u << prio)) transfer(prio, now);
  return p;
}

void VoqQueues::for_each(const std::function<void(const Packet&)>& f) const {
  for (const Prio& q : prio_) {
    q.oq.for_each(f);
    for (const PacketFifo& v : q.voq) v.for_each(f);
  }
}

namespace {

struct VoqArchitecture {
  static std::unique_ptr<BufferModel> buffer(const VoqParams& p, Switch& sw) {
    const Network& net = sw.net();
    const SwitchConfig& cfg = net.switch_config();
    const Bytes max_packet = net.nic_config().mtu_bytes + net.nic_config().data_header_bytes;
    if (p.queue_size < 2 * max_packet)
      throw ConfigError(
          "", "switch.voq.queue_size",
          format_size(p.queue_size) + " does not hold two packets of " + format_size(max_packet));
    std::vector<Bytes> xoff;
    for (const Port& port : sw.ports) {
      if (!sw.lossless()) {
        xoff.push_back(p.queue_size);  // never paused: tail drop at queue_size
        continue;
      }
      Bytes headroom = cfg.headroom_bytes;
      if (headroom == 0) headroom = auto_headroom_bytes(port.rate_bps(), port.delay_ps(), net.nic_config());
      if (headroom + max_packet > p.queue_size)
        throw ConfigError("", "switch.voq.queue_size",
                          format_size(p.queue_size) + " leaves no room below the PFC headroom of " +
                              format_size(headroom) + " of switch " + net.topology().node_name(sw.node()) +
                              " port " + std::to_string(port.index) +
                              " (raise switch.voq.queue_size or lower switch.pfc.headroom)");
      xoff.push_back(p.queue_size - headroom);
    }
    return std::make_unique<VoqBuffer>(sw.ports.size(), p.queue_size, std::move(xoff),
                                       cfg.resume_offset_bytes);
  }
  static std::unique_ptr<EgressQueues> queues(const VoqParams& p, Switch& sw, const Port& port) {
    return std::make_unique<VoqQueues>(sw, port.index, sw.ports.size(), p.queue_size,
                                       p.ecn_queue == "output");
  }
};

}  // namespace

LOSSLESS_REGISTER_ARCHITECTURE(
    VoqParams, VoqArchitecture, "voq", "voq",
    "input-and-output-queued switch (RCM, NPC'17): a VOQ per input, output and priority, an output queue per "
    "output and priority, each switch.voq.queue_size; PFC per input when one of its VOQs reaches queue_size "
    "- headroom; round-robin from the inputs to each output");

}  // namespace lossless
