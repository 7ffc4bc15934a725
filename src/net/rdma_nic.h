// An RDMA NIC (RoCEv2): one QP per flow, per-QP pacing rate and window, round-robin among eligible QPs with
// ACK/NACK/CNP first, ACK every `ack_interval` packets, NACK + go-back-N on loss, CNP generation (the DCQCN
// notification point), and obedience to PFC on its single port.
#pragma once
#include <cstdint>
#include <vector>

#include "core/timer.h"
#include "net/packet.h"
#include "net/partition.h"
#include "net/port.h"
#include "net/queue_pair.h"

namespace lossless {

class Network;

class RdmaNic {
 public:
  RdmaNic(Network& net, std::uint32_t host);
  RdmaNic(const RdmaNic&) = delete;
  RdmaNic& operator=(const RdmaNic&) = delete;

  Port port;

  void start_flow(SenderQp& qp);
  // A QP's pacing changed: its next send slot may now be earlier than the pending wake-up.
  void on_qp_rate_change(const SenderQp& qp);

  static void arrive_event(void* port, std::uint64_t packet);
  static void kick(void* owner, std::uint16_t port);
  // QPs that may send: the port must look again when its current transmission ends.
  static bool has_work(const void* owner) { return !static_cast<const RdmaNic*>(owner)->active_.empty(); }

 private:
  void receive(Packet* p);
  // True when the packet was kept (turned into the ACK).
  bool receive_data(Packet* p);
  void receive_ack(Packet* p);
  void receive_cnp(Packet* p);
  void send_control(Packet* p);
  // What a reply needs of the data packet it answers.
  struct ReplyTo {
    std::uint32_t flow_id, src, dst;
    TimePs sent_ps;
    std::uint8_t priority;
  };
  Packet* make_reply(const Packet& data, PacketType type);
  void write_reply(Packet* p, PacketType type, const ReplyTo& to);
  void try_send();
  void on_wake();
  void on_rto(SenderQp& qp);
  void complete(SenderQp& qp);

  Network& net_;
  Partition& part_;  // the thread's share this NIC runs in
  std::uint32_t host_;
  std::vector<SenderQp*> active_;
  std::size_t rr_next_ = 0;
  Timer wake_;
};

}  // namespace lossless
