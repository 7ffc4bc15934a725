// Per-flow NIC state: the sender's QP (what congestion control steers) and the receiver's context.
#pragma once
#include <cstdint>

#include "core/time.h"
#include "core/timer.h"
#include "workload/flow.h"

namespace lossless {

class RdmaNic;
class CongestionControl;

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
  Bytes window_bytes = 0;            // 0 = no window
  bool window_follows_rate = false;  // effective window = window_bytes x rate / line rate (HPCC VAR_WIN)
  TimePs next_avail_ps = 0;
  Bytes last_wire_bytes = 0;
  Bytes max_sent = 0;  // highest snd_nxt reached (to count retransmitted bytes)
  TimePs base_rtt_ps = 0;
  RateBps bottleneck_bps = 0;
  TimePs last_progress_ps = 0;
  Timer rto;
  bool active = false;
  bool finished = false;

  Bytes size() const { return flow->size_bytes; }
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
  Bytes expected = 0;
  Bytes delivered = 0;  // in-order payload bytes (flow_rates monitor)
  std::uint32_t packets_since_ack = 0;
  bool ce_pending = false;
  Bytes last_nack_seq = ~Bytes{0};
  TimePs nack_allowed_ps = 0;
  TimePs last_cnp_ps = 0;
  bool cnp_sent = false;
};

}  // namespace lossless
