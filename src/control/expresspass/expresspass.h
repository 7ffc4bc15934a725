// ExpressPass (Cho et al., SIGCOMM'17; baselines.md §8), following the authors' ns-2 agent and switch queue
// (XPass-ns2: xpass.cc, xpass-drop-tail.cc, ns-default.tcl):
//  - The sender asks for credits (CREDIT_REQUEST, with its packets to send) and sends one data packet per
//    credit that arrives (the QP's send gate opens by one MTU per credit); each data packet echoes the
//    credit's sequence number and send time. With every packet credited it sends CREDIT_STOP (also early,
//    when the credits of the last RTT already cover what is left).
//  - The receiver paces credits (84 B) at cur_rate with +-10 % jitter. Once per RTT (the RTT measured from
//    credit to data) it compares the credit loss it sees as gaps in the echoed sequence numbers with a target
//    loss and moves cur_rate: decrease to the credits that got through x (1 + target), w halved; increase
//    cur = w max + (1 - w) cur, w + 0.05 up to w_max; cur in [one credit per RTT, max_rate].
//  - Every switch egress (and every NIC, for the credits it sends) holds credits in a small queue (10
//    credits) released by a token bucket at the credit share of the link, `credit / (credit + data frame)`,
//    so the data the credits call back fills the reverse link exactly; a full credit queue drops credits
//    (EgressQueues::enqueue refusing: a scheme drop, not a data loss). Data is served when no credit may go.
//    Credits travel at a data priority (`credit_priority`) so they pass the ports' queue sets.
//  - Data follows the credits' path in reverse (symmetric routing: SubstrateHints::symmetric_routes).
//  - A flow is acknowledged once, at its last byte (its FCT); a gap in the data is NACKed by the NIC
//    (go-back-N) and the sender asks for credits again if it had stopped; a lost tail is asked for by the
//    receiver (RESUME) when the flow is still incomplete two RTTs after CREDIT_STOP.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>

#include "core/params.h"
#include "core/rng.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;
class Port;

extern const PacketType kXpassRequest;
extern const PacketType kXpassCredit;
extern const PacketType kXpassStop;
extern const PacketType kXpassResume;

struct XpassRequestField {
  std::uint64_t packets;  // the sender's packets still to send (scales the initial credit rate)
};
struct XpassCreditField {
  std::uint64_t seq;
  TimePs sent_ps;
};
// What a data packet echoes of the credit that let it go.
struct XpassDataField {
  std::uint64_t credit_seq;
  TimePs credit_sent_ps;
};
struct XpassResumeField {
  Bytes offset;
};
inline constexpr PacketSlot<XpassRequestField> kXpassRequestField{"expresspass.request",
                                                                  {"expresspass.request"}};
inline constexpr PacketSlot<XpassCreditField> kXpassCreditField{"expresspass.credit", {"expresspass.credit"}};
inline constexpr PacketSlot<XpassDataField> kXpassDataField{"expresspass.data", {"data"}};
inline constexpr PacketSlot<XpassResumeField> kXpassResumeField{"expresspass.resume", {"expresspass.resume"}};
// The four, bound by a sender or a receiver.
struct XpassSlots {
  explicit XpassSlots(const PacketLayout& l)
      : request(l.bind(kXpassRequestField)),
        credit(l.bind(kXpassCreditField)),
        data(l.bind(kXpassDataField)),
        resume(l.bind(kXpassResumeField)) {}
  Slot<XpassRequestField> request;
  Slot<XpassCreditField> credit;
  Slot<XpassDataField> data;
  Slot<XpassResumeField> resume;
};

struct ExpressPassParams {
  Bytes credit_bytes = 84;
  double credit_share = 0;  // 0 = auto
  double alpha = 0.5;
  double w_init = 0.5;
  double w_min = 0.01;
  double w_max = 0.5;
  double w_step = 0.05;
  double target_loss_scaling = 0.125;
  Bytes credit_queue_bytes = 840;
  Bytes credit_bucket_bytes = 840;
  double jitter = 0.1;
  std::uint64_t credit_priority = 1;
  bool early_stop = true;
  std::uint64_t full_rate_packets = 40;

  // The share of a link's capacity credits may use: the credit over a credit plus a full data frame.
  double share(Bytes data_frame_bytes) const {
    return credit_share > 0
               ? credit_share
               : static_cast<double>(credit_bytes) / static_cast<double>(credit_bytes + data_frame_bytes);
  }

  SubstrateHints hints() const {
    SubstrateHints h;
    h.symmetric_routes = true;           // data must cross the links its credits crossed
    h.own_loss_recovery = true;          // one ACK per flow: the NIC's timeout would fire on any long flow
    h.required_architecture = "shared";  // credit-limited queues on every port (ExpressPassSwitch)
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.size("credit_size", credit_bytes, "wire bytes of a credit (and of a request or stop) (ns-2 84 B)");
    v.require(credit_bytes > 0, "credit_size", "must be positive");
    v.real("credit_share", credit_share,
           "share of each link's capacity credits may use; 0 = auto: credit / (credit + nic.mtu + "
           "nic.data_header), the paper's 84/(84+1538) for this fabric's frames (7.4 % with 1048-B frames)",
           0, 0.5);
    v.real("alpha", alpha, "initial credit rate as a fraction of the maximum (ns-2 0.5)", 0.001, 1);
    v.real("w_init", w_init, "initial aggressiveness w (ns-2 0.5)", 0.0001, 1);
    v.real("w_min", w_min, "lowest w (ns-2 0.01)", 0.0001, 1);
    v.real("w_max", w_max, "highest w (ns-2 0.5)", 0.0001, 1);
    v.real("w_step", w_step, "increase of w per period without credit loss (ns-2 0.05)", 0, 1);
    v.require(w_min <= w_init && w_init <= w_max, "w_init", "must lie in [w_min, w_max]");
    v.real("target_loss_scaling", target_loss_scaling,
           "target credit loss = (1 - cur_rate / max_rate) x this (ns-2 0.125)", 0, 1);
    v.size("credit_queue", credit_queue_bytes,
           "bytes of credits a switch egress or NIC holds before dropping credits (ns-2 840 B: 10 credits)");
    v.size("credit_bucket", credit_bucket_bytes, "token bucket depth of the credit limiter (ns-2 840 B)");
    v.require(credit_queue_bytes >= credit_bytes, "credit_queue", "must hold at least one credit");
    v.require(credit_bucket_bytes >= credit_bytes, "credit_bucket", "must hold at least one credit");
    v.real("jitter", jitter, "credit gaps vary uniformly by +- this fraction (ns-2 0.1)", 0, 0.9);
    v.count("credit_priority", credit_priority,
            "data priority credits travel at (our choice: not the data's, so PFC on data does not hold "
            "credits)",
            1, 7);
    v.flag("early_stop", early_stop,
           "stop credits once those of the last RTT cover the packets left (ns-2 early credit stop)");
    v.count("full_rate_packets", full_rate_packets,
            "a flow of fewer packets starts at alpha x max_rate x packets / this (ns-2 40)", 1, 1'000'000);
  }
};

// Credits waiting for tokens at one place (a switch egress, a NIC): a queue of at most `limit` bytes drained
// at `rate` bytes per second by a token bucket of `depth` bytes (XPass-ns2 XPassDropTail).
class CreditLimiter {
 public:
  CreditLimiter(double rate_bytes_per_s, Bytes limit, Bytes depth)
      : ps_per_byte_(static_cast<double>(kPsPerSec) / rate_bytes_per_s),
        limit_(limit),
        depth_(static_cast<double>(depth)),
        tokens_(static_cast<double>(depth)) {}
  // False: full, the credit is refused.
  bool push(Packet* p) {
    if (q_.bytes() + p->wire_bytes > limit_) return false;
    q_.push(p);
    return true;
  }
  // The head credit if the bucket holds enough tokens now; else null and `retry_ps` lowered to when it will.
  Packet* pop(TimePs now, TimePs& retry_ps);
  bool empty() const { return q_.empty(); }
  Bytes bytes() const { return q_.bytes(); }
  const PacketFifo& queue() const { return q_; }

 private:
  void refill(TimePs now);
  PacketFifo q_;
  double ps_per_byte_;
  Bytes limit_;
  double depth_;
  double tokens_;
  TimePs clock_ps_ = 0;
};

class ExpressPassSender final : public CongestionControl {
 public:
  ExpressPassSender(const ExpressPassParams& p, SenderQp& qp, const CcEnv& env);
  void on_start() override;
  void on_ack(const Packet& ack) override;
  void on_packet(const Packet& p) override;
  void on_sent(Packet& data) override;
  void on_finish() override { restart_.cancel(); }

  std::uint64_t credits_wasted() const { return wasted_; }
  bool stopped() const { return stop_sent_; }
  const char* send_gate_name() const override { return "credit"; }
  // Credited bytes within the message, and data never sent beyond them.
  void check_state(StateCheck& check) const override;

 private:
  void request();
  void stop();
  void go_back(Bytes offset);
  void on_restart();

  const ExpressPassParams& p_;
  SenderQp& qp_;
  RdmaNic& nic_;
  Simulator& sim_;
  Bytes mtu_;
  Bytes credited_ = 0;                  // bytes below this offset have a credit
  std::deque<XpassDataField> credits_;  // unused credits, oldest first
  XpassDataField last_{0, 0};
  std::uint64_t wasted_ = 0;
  bool stop_sent_ = false;
  TimePs request_ps_ = 0;
  bool awaiting_first_credit_ = false;
  TimePs rtt_ps_ = 0;  // from a request to its first credit
  TimePs rtt_window_start_ps_ = 0;
  std::uint64_t credits_this_rtt_ = 0;
  bool got_credit_since_stop_ = false;
  Timer restart_;
  XpassSlots slots_;
};

class ExpressPassNic;

class ExpressPassReceiver final : public ReceiverControl {
 public:
  ExpressPassReceiver(const ExpressPassParams& p, ReceiverContext& rx, const Flow& flow, const CcEnv& env);
  void on_data(const Packet& data) override;
  void on_packet(const Packet& p) override;

  // Credit rate in bytes of credits per second, and its bounds.
  double credit_rate() const { return cur_rate_; }
  double max_rate() const { return max_rate_; }
  double w() const { return w_; }
  bool sending() const { return sending_; }
  TimePs rtt_ps() const { return rtt_ps_; }
  // The credit rate within [0, max rate], w within [w_min, w_max].
  void check_state(StateCheck& check) const override;
  // The feedback control, as the ns-2 agent runs it before each credit (tests call it directly).
  void feedback_control(TimePs now);
  // What data packets have shown since the last update (tests).
  void count_credits(std::uint64_t total, std::uint64_t dropped) {
    credit_total_ += total;
    credit_dropped_ += dropped;
  }
  void set_rtt(TimePs rtt) { rtt_ps_ = rtt; }
  void start(std::uint64_t packets);

 private:
  void send_credit();
  void on_tail_check();

  const ExpressPassParams& p_;
  ReceiverContext& rx_;
  const Flow& flow_;
  RdmaNic& nic_;
  ExpressPassNic* limiter_;
  Simulator& sim_;
  RngStream rng_;
  double max_rate_;
  double cur_rate_ = 0;
  double w_;
  bool can_increase_w_ = true;
  bool sending_ = false;
  bool recover_ = false;  // the fabric may drop data: check for a lost tail
  TimePs rtt_ps_ = 0;
  TimePs last_update_ps_ = 0;
  std::uint64_t credit_total_ = 0, credit_dropped_ = 0;
  std::uint64_t next_seq_ = 0;    // of the next credit sent
  std::uint64_t expect_seq_ = 0;  // credit sequence the next data packet should echo
  Bytes tail_check_expected_ = 0;
  Timer credit_timer_;
  Timer tail_timer_;
  XpassSlots slots_;
};

// Per NIC: the credits its receivers send go through the NIC's own credit limiter (the host's queue in ns-2).
class ExpressPassNic final : public NicControl {
 public:
  ExpressPassNic(const ExpressPassParams& p, RdmaNic& nic, const CcEnv& env);
  void submit(Packet* credit);

 private:
  void release();
  RdmaNic& nic_;
  Simulator& sim_;
  CreditLimiter limiter_;
  Timer timer_;
};

// A switch egress port's queue set: the credit limiter, then the data priorities round-robin.
class ExpressPassQueues final : public EgressQueues {
 public:
  ExpressPassQueues(const ExpressPassParams& p, const Port& port, Bytes data_frame_bytes);
  bool enqueue(Packet* p, std::uint16_t in_port) override;
  Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) override;
  Bytes bytes(std::uint8_t prio) const override;
  void for_each(const std::function<void(const Packet&)>& f) const override;
  const CreditLimiter& credits() const { return credits_; }

 private:
  CreditLimiter credits_;
  std::uint8_t credit_prio_;
  std::array<PacketFifo, kPriorities> q_;
  std::uint8_t nonempty_ = 0;
  std::uint8_t rr_next_ = 1;
};

class ExpressPassSwitch final : public SwitchMechanism {
 public:
  ExpressPassSwitch(const ExpressPassParams& p, Switch& sw, Network& net);
};

struct ExpressPass {
  using Params = ExpressPassParams;
  using Sender = ExpressPassSender;
  using Receiver = ExpressPassReceiver;
  using Nic = ExpressPassNic;
  using SwitchPart = ExpressPassSwitch;
  static constexpr const SlotSpec* kSlots[] = {&kXpassRequestField, &kXpassCreditField, &kXpassDataField,
                                               &kXpassResumeField};
};

}  // namespace lossless
