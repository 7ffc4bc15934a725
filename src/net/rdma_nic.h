// An RDMA NIC (RoCEv2): one QP per flow, per-QP pacing rate, window and send gate, round-robin among eligible
// QPs (or the scheme's own choice) with ACK/NACK/CNP first, ACK every `ack_every` packets, NACK + go-back-N
// on loss or reordering (or, with nic.out_of_order: place, out-of-order data kept until the gap fills), and
// obedience to PFC on its single port. What a scheme does at the NIC — the sender's reaction,
// the receiver's notification point, its own packets — lives in the scheme's hooks
// (net/congestion_control.h).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/timer.h"
#include "net/packet.h"
#include "net/partition.h"
#include "net/port.h"
#include "net/queue_pair.h"

namespace lossless {

class Network;
class NicControl;

class RdmaNic {
 public:
  RdmaNic(Network& net, std::uint32_t host);
  RdmaNic(const RdmaNic&) = delete;
  RdmaNic& operator=(const RdmaNic&) = delete;
  ~RdmaNic();

  Port port;

  std::uint32_t host() const { return host_; }
  // Flows started at this NIC and not yet completed (TIMELY starts a flow at C / (this + 1)).
  std::size_t active_flows() const { return active_.size(); }
  Simulator& sim() { return partition_.sim; }
  void start_flow(SenderQp& qp);
  // A QP's pacing, window or send gate changed: it may be able to send earlier than the NIC planned.
  void on_qp_rate_change(const SenderQp& qp);
  void on_qp_unblocked() { port.kick_or_wait(); }
  // The scheme's per-NIC part (optional).
  void set_control(std::unique_ptr<NicControl> c);
  NicControl* control() { return control_.get(); }
  const NicControl* control() const { return control_.get(); }

  // Whether `qp` may send a packet now: data left, its priority not paused, below its window and send gate,
  // and its pacer allows it (else `earliest` is lowered to when it does).
  bool may_send(const SenderQp& qp, TimePs now, TimePs& earliest) const {
    if (qp.snd_nxt >= qp.send_limit_bytes || port.paused(qp.priority)) return false;
    if (Bytes w = qp.window(); w && qp.in_flight() >= w) return false;
    if (qp.next_avail_ps > now) {
      earliest = std::min(earliest, qp.next_avail_ps);
      return false;
    }
    return true;
  }

  // Packets a scheme sends from this NIC: a reset packet from the pool, addressed for flow `flow_id` toward
  // its other end (to its receiver when this NIC is the flow's source, else to its sender), with control
  // priority; the caller writes its fields, then send()s it.
  Packet* packet_for_flow(std::uint32_t flow_id, PacketType kind, std::uint32_t wire_bytes);
  // A packet for the switch at the other end of the link (a link-local kind).
  Packet* packet_to_link(PacketType kind, std::uint32_t wire_bytes);
  // Queues a packet with the NIC's replies (sent before data, in priority order) and starts the port.
  void send(Packet* p);
  void free_packet(Packet* p) { partition_.pool.put(p); }
  // A scheme's own queue at this NIC refused its packet (a full credit queue): counted as a scheme drop
  // (summary.json packets.scheme_drops, not a loss of data), and freed.
  void drop_scheme_packet(Packet* p) {
    partition_.count_drop(*p, DropReason::kScheme);
    partition_.pool.put(p);
  }
  // A CNP for the flow of `data` (the ECN notification point): counted, queued, sent.
  void send_cnp(const Packet& data);
  // The same for flow `flow_id` of which this NIC is the receiver, without a data packet at hand (a periodic
  // notification point's check).
  void send_cnp(std::uint32_t flow_id);

  static void arrive_event(void* nic, std::uint64_t packet);
  // arrive_event's second-stage prefetch (Simulator::add_prefetcher): the flow state the packet will update.
  static void prefetch_arrival(const void* nic, std::uint64_t packet);
  static void kick(void* owner, std::uint16_t port);
  // QPs that may send: the port must look again when its current transmission ends (Port::transmit's
  // owner_work). The answer is the QP the round-robin tries first then, 0 when there is none.
  static std::uint64_t next_work(const void* owner) {
    const RdmaNic& nic = *static_cast<const RdmaNic*>(owner);
    const std::size_t n = nic.active_.size();
    if (n == 0) return 0;
    return reinterpret_cast<std::uint64_t>(nic.active_[nic.rr_next_ < n ? nic.rr_next_ : 0]);
  }

 private:
  void receive(Packet* p);
  // True when the packet was kept (turned into the ACK).
  bool receive_data(Packet* p);
  void receive_ack(Packet* p);
  // nic.out_of_order place: keeps a data packet beyond the in-order end, and gives the end of the contiguous
  // bytes from the in-order end `in_order_end` on (releasing what it covers).
  void place(const Packet& p, ReceiverContext& rx);
  Bytes placed_end(std::uint32_t flow, ReceiverContext& rx, Bytes in_order_end);
  void receive_scheme_packet(const Packet& p);
  // What a reply needs of the data packet it answers.
  struct ReplyTo {
    std::uint32_t flow_id, src, dst;
    TimePs sent_ps;
    std::uint8_t priority;
  };
  // A scheme's packet from this host at priority 0, not yet addressed.
  Packet* control_packet(PacketType kind, std::uint32_t wire_bytes);
  Packet* make_reply(const Packet& data, PacketType type);
  void write_reply(Packet* p, PacketType type, const ReplyTo& to);
  void try_send();
  [[gnu::always_inline]] inline void send_data(SenderQp& qp, TimePs now);
  void on_wake();
  void on_rto(SenderQp& qp);
  // Turns the data packet `p` of rx's flow into the cumulative ACK of rx.expected and sends it.
  void send_ack(Packet* p, ReceiverContext& rx);
  // nic.ack_timeout: ACKs every flow whose first unacknowledged in-order packet arrived a timeout ago.
  void on_ack_timer();
  void complete(SenderQp& qp);
  // Sends a reply (ACK, NACK, CNP or a scheme's packet) now: the port is idle and it is the one to go.
  void transmit_reply(Packet* p);

  // What an arrival and a send read, in the line after the port's (64 bytes): at scale a NIC is last touched
  // a transmission or more earlier, and a second line here was a second miss per packet sent.
  Network& net_;
  Partition& partition_;  // the thread's share this NIC runs in
  std::vector<SenderQp*> active_;
  std::uint32_t host_;
  std::uint32_t rr_next_ = 0;
  NicControl* scheduler_ = nullptr;  // the per-NIC part when it picks QPs; null = round-robin
  std::unique_ptr<NicControl> control_;
  Timer wake_;
  // Placed out-of-order data per flow (nic.out_of_order place): disjoint [begin, end) byte ranges, in order.
  std::unordered_map<std::uint32_t, std::vector<std::pair<Bytes, Bytes>>> placed_;
  // ACK coalescing (an ACK every ack_every > 1 packets) with its timeout, nic.ack_timeout: per flow, the last
  // in-order data packet not yet acknowledged (kept to become the ACK: it carries the scheme's fields, INT
  // records, as the ACK of a counted packet does) and when the timeout of the first such packet runs out.
  struct Unacked {
    Packet* packet;
    TimePs due;
  };
  std::unordered_map<std::uint32_t, Unacked> unacked_;
  // (due, flow) in the order the timeouts started, which is the order they run out (one timeout for all).
  std::deque<std::pair<TimePs, std::uint32_t>> ack_due_;
  Timer ack_timer_;
  PortState port_state_;  // the port's queues and pause bookkeeping (cold: last)
};

}  // namespace lossless
