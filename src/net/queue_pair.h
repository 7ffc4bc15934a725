// Per-flow NIC state: the sender's QP (what congestion control steers) and the receiver's context.
#pragma once
#include <cstdint>

#include "core/time.h"
#include "core/timer.h"
#include "net/packet.h"
#include "workload/flow.h"

namespace lossless {

class RdmaNic;
class CongestionControl;
class ReceiverControl;

constexpr Bytes kNoSendGate = ~Bytes{0};

// Cache-line aligned: a sender and a receiver may run on different threads (net/partition.h), and
// neighbouring entries must not share a line.
struct alignas(64) SenderQp {
  const Flow* flow = nullptr;
  RdmaNic* nic = nullptr;
  CongestionControl* cc = nullptr;
  Bytes snd_nxt = 0;  // next byte to send
  Bytes snd_una = 0;  // first unacknowledged byte
  double rate_bps = 0;
  RateBps line_rate_bps = 0;
  // A scheme's rate floor on this QP: its min_rate, or the line rate where that is lower (a link or a
  // per-flow `rate` cap below the floor), so that [floor, line rate] is never empty.
  double rate_floor(RateBps min_rate_bps) const {
    return static_cast<double>(min_rate_bps < line_rate_bps ? min_rate_bps : line_rate_bps);
  }
  Bytes window_bytes = 0;            // 0 = no window
  bool window_follows_rate = false;  // effective window = window_bytes x rate / line rate (HPCC VAR_WIN)
  // Priority of the next data packets (the flow's unless the scheme chooses per packet).
  std::uint8_t priority = 0;
  bool active = false;
  bool finished = false;
  // What every data packet of the flow carries (Flow::id, Flow::dst, Network::forward_hash, the offset of
  // Network::forward_route; written at set-up, Network::install_flows): copies in the QP's second line, which
  // a send reads anyway, so that sending does not wait on the flow record and two per-flow tables in turn.
  std::uint32_t flow_id = 0;
  TimePs next_avail_ps = 0;
  // Bytes below this offset may be sent: the flow's size, or less while a send gate holds (set_send_gate).
  Bytes send_limit_bytes = 0;
  std::uint32_t dst = 0;
  std::uint32_t ecmp_hash = 0;
  std::uint32_t last_wire_bytes = 0;
  std::uint32_t route_offset = kNoRoute;  // kNoRoute: packets are routed per packet (no per-flow route)
  Bytes max_sent = 0;                     // highest snd_nxt reached (to count retransmitted bytes)
  // Payload bytes of every data packet this QP put on the wire, retransmissions included (the invariant
  // checker's per-flow byte balance, net/invariants.h).
  Bytes sent_bytes = 0;
  Bytes size_bytes = 0;  // Flow::size_bytes
  // The send gate of receiver-driven schemes (grants, credits): bytes at or beyond this offset wait.
  Bytes send_gate_bytes = kNoSendGate;
  TimePs base_rtt_ps = 0;
  TimePs last_progress_ps = 0;
  Timer rto;

  Bytes size() const { return size_bytes; }
  // Closes the send gate at `offset` (a grant or credit moves it forward; kNoSendGate opens it). Tell the
  // NIC (RdmaNic::on_qp_unblocked) when it moves forward.
  void set_send_gate(Bytes offset) {
    send_gate_bytes = offset;
    send_limit_bytes = offset < size() ? offset : size();
  }
  Bytes in_flight() const { return snd_nxt - snd_una; }
  // The window in force now; 0 = none.
  Bytes window() const {
    if (!window_follows_rate || window_bytes == 0) return window_bytes;
    auto w =
        static_cast<Bytes>(static_cast<double>(window_bytes) * rate_bps / static_cast<double>(line_rate_bps));
    return w ? w : 1;
  }
  // Changes the pacing rate. As in the HPCC NIC, the pending send slot moves by the difference of the last
  // packet's serialization time at the old and new rate, so a cut takes effect at once.
  void set_rate(double new_rate_bps);
};

struct alignas(64) ReceiverContext {
  Bytes expected = 0;       // in-order payload bytes delivered: the next byte expected
  Bytes arrived_bytes = 0;  // payload of every data packet that reached the receiver (duplicates too)
  ReceiverControl* control = nullptr;  // the scheme's receiver (net/congestion_control.h)
  TimePs last_delivery_ps = 0;         // when in-order data last arrived (stall classification)
  std::uint32_t packets_since_ack = 0;
  // ACK every this many in-order packets (nic.ack_interval unless the scheme says otherwise); 0 = only the
  // last one (the scheme sends its own feedback).
  std::uint32_t ack_every = 1;
  // Who holds data that arrived beyond the in-order end. kNone: nobody, it is NACKed (go-back-N). kScheme:
  // the scheme's receiver (ReceiverControl::contiguous_end), a message transport that reassembles (Homa),
  // where packets of one message may overtake each other. kNic: the NIC placed it (nic.out_of_order:
  // place), set while it holds some.
  enum class Reassembly : std::uint8_t { kNone, kScheme, kNic };
  Reassembly reassembles = Reassembly::kNone;
  bool ce_pending = false;
  bool ack_requested = false;  // a packet placed out of order asked for an ACK (Packet::ack_req)
  Bytes last_nack_seq = ~Bytes{0};
  TimePs nack_allowed_ps = 0;

  // In-order payload bytes delivered (flow_rates monitor).
  Bytes delivered() const { return expected; }
};

}  // namespace lossless
