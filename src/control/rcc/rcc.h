// RCC (Zhang et al., IEEE/ACM ToN 2023; MECHANISMS.md §3): receiver-driven congestion control. The receiver
// tells last-hop congestion (its link saturated: B_R >= eta C base_rtt) from in-network congestion (n
// consecutive one-way delays above base (1 + delta) while the last hop is not saturated; base = the flow's
// base RTT by default, paper §V-A, or its one-way delay, §III-C: params.base). Last-hop congestion
// gets the explicit window assignment (EWA: C base_rtt / N for each of the host's N active flows); a flow in
// in-network congestion enters a PID controller on the one-way delay for the rest of its life, run once per
// base RTT, its window capped by the EWA share. The window rides on every ACK; the sender keeps at most W in
// flight and paces at W / base_rtt. Variant `sender` (paper §III-G) moves the delay measurement (RTT) and the
// PID to the sender; the receiver then feeds back the EWA share and whether its last hop is saturated.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>

#include "core/params.h"
#include "core/rng.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct RccParams {
  std::string variant = "receiver";
  bool ewa = true;
  bool pid = true;
  std::uint64_t n = 3;
  double delta = 0.2;
  double eta = 0.95;
  double kp = 16;
  double kd = 7e3;
  std::string received_bytes = "wire";
  TimePs clock_jitter = 0;
  TimePs clock_offset = 0;
  bool trace = false;
  std::string entry_derivative = "sample";
  bool anti_windup = false;
  std::string base = "rtt";

  // The variants MECHANISMS.md names, as switches: no_pid = RCC-EWA, no_ewa = RCC-PID.
  bool sender_side() const { return variant == "sender"; }
  bool pid_on() const { return pid && variant != "no_pid"; }
  bool ewa_on() const { return ewa && variant != "no_ewa"; }

  template <class V>
  void visit(V& v) {
    v.choice("variant", variant, {"receiver", "sender", "no_pid", "no_ewa"},
             "receiver: one-way delay and PID at the receiver (paper); sender: RCC-sender (§III-G), RTT and "
             "PID at the sender, the receiver feeds back the EWA share and its last-hop saturation; no_pid = "
             "receiver with pid: false (RCC-EWA); no_ewa = receiver with ewa: false (RCC-PID)");
    v.flag(
        "ewa", ewa,
        "explicit window assignment C x base_rtt / N for last-hop congestion and as the PID's cap; false = "
        "RCC-PID: every congestion goes to the PID, capped at one line-rate BDP");
    v.flag("pid", pid, "PID on the delay for in-network congestion; false = RCC-EWA: always the EWA share");
    v.require(pid_on() || ewa_on(), "pid",
              "RCC with neither the EWA nor the PID controls nothing (use cc.algorithm: none)");
    v.count("n", n, "consecutive delay samples above base x (1 + delta) that mean in-network congestion", 1,
            1000);
    v.real("delta", delta, "allowed queueing: threshold base x (1 + delta), PID target base x (1 + delta/2)",
           0.0, 10.0);
    v.real("eta", eta,
           "last hop saturated when the bytes received in the last base RTT >= eta x C x base RTT", 0.01,
           1.0);
    v.choice(
        "received_bytes", received_bytes, {"wire", "payload"},
        "what B_R counts (paper: 'received bytes'; our choice): wire = data packets as they cross the last "
        "hop (a saturated link gives B_R = C x base_rtt); payload = their payload only (a saturated link "
        "gives mtu / (mtu + header) of it, 95.4 % with 1000 B + 48 B, just above eta = 0.95)");
    v.real(
        "kp", kp,
        "PID proportional gain, E in seconds; default 16, the top of the paper's range 'in actual use' "
        "(§IV-D: [1, 16]); its evaluation's 1e4 (§V-A) winds U up while a window sits at the one-MTU floor "
        "(experiments/rcc/README.md)",
        0.0, 1e9);
    v.real("kd", kd,
           "PID derivative gain, E in seconds; default 7e3, the top of §IV-D's [1e3, 7e3] (evaluation: 1e5)",
           0.0, 1e12);
    v.time(
        "clock_jitter", clock_jitter,
        "RCC-async (our model): every clock reading (the sender's timestamp, the receiver's arrival time) is "
        "off by a fresh uniform draw in [-J/2, J/2] from its host's stream of the scenario seed");
    v.time("clock_offset", clock_offset,
           "our model: each host's clock is off by a constant uniform draw in [-O/2, O/2] from the scenario "
           "seed (a one-way delay is then biased by the difference of two hosts' offsets)");
    v.choice(
        "base", base, {"rtt", "one_way"},
        "RTT_base of the thresholds base x (1 + delta) and target base x (1 + delta/2) that the measured "
        "one-way delay is compared with: rtt = the flow's unloaded round trip (paper §V-A: '12 us base "
        "RTT', delta 0.2 'leads to a 13.2 us RTT target'; §IV: R_ref 13.2 us); one_way = the flow's "
        "unloaded one-way delay (§III-C: 'the base and measured one-way delay'). Variant sender measures "
        "the RTT and always uses the round trip");
    v.choice(
        "entry_derivative", entry_derivative, {"sample", "zero"},
        "E(t-1) of the first PID step: sample = the error of the delay measured just before (paper Table "
        "I: last_rtt, 'the last measured RTT'); zero = 0 (a derivative kick of Kd x E at entry)");
    v.flag("anti_windup", anti_windup,
           "not in the paper (for isolating runs): while the window is held at the one-MTU floor or the EWA "
           "cap, U is set to the value that yields the window applied instead of integrating on");
    v.flag("trace", trace,
           "write rcc.csv, one row per flow: when it entered PID control, its PID steps, the time its window "
           "sat at the one-MTU floor and at the EWA cap while in PID, its largest U");
  }
};

// The scheme's packet fields: a data packet's timestamp on its sender's clock; the ACK (the data packet
// turned around) carries the window.
struct RccFields {
  std::int64_t stamp_ps;  // data: the sender's clock reading when it sent the packet
  double window_bytes;    // ack: W (variant receiver), or the EWA share (variant sender)
  bool last_hop_busy;     // ack, variant sender: B_R >= eta C base_rtt at the receiver
};
// On data packets, their ACKs (the data packet turned around) and NACKs (the window only).
inline constexpr PacketSlot<RccFields> kRccFields{"rcc.fields", {"data", "ack", "nack"}};

// Algorithm 1 and the PID for one flow, in the delay its measurer sees (one-way at the receiver, RTT at the
// sender). Windows in bytes, delays in seconds.
class RccFlowRules {
 public:
  struct Config {
    double base_s = 0;  // the unloaded delay
    std::uint64_t n = 3;
    double delta = 0.2;
    double kp = 1e4, kd = 1e5;
    double mtu_bytes = 1000;
    bool entry_from_sample = true;  // E_prev at PID entry: the last sample's error (else 0)
    bool anti_windup = false;
    bool ewa = true, pid = true;
  };
  RccFlowRules(const Config& c, double initial_window_bytes);

  // One delay sample. `cap` is the EWA share (or one line-rate BDP without the EWA), `last_hop_busy` whether
  // the receiver's link was saturated over the last base RTT. Returns true when the flow has just entered PID
  // control (its first PID step is taken now; the caller then runs pid_step() once per base RTT).
  bool on_sample(double delay_s, bool last_hop_busy, double cap_bytes);
  // The PID, once per base RTT: E = d - target, U += Kp E + Kd (E - E_prev), W = W (1 - tanh U), floored at
  // one MTU, capped at `cap`.
  void pid_step(double cap_bytes);

  // Where the window stands in PID control: its own value, at the one-MTU floor, or held by the cap.
  enum class Held : std::uint8_t { kNone, kFloor, kCap };

  double window_bytes() const { return window_; }
  bool in_pid() const { return in_pid_; }
  Held held() const { return held_; }
  std::uint64_t pid_steps() const { return steps_; }
  std::uint64_t floor_steps() const { return floor_steps_; }
  double max_control_factor() const { return max_u_; }
  double control_factor() const { return u_; }
  double last_delay_s() const { return last_delay_s_; }
  std::uint64_t consecutive() const { return over_; }
  double threshold_s() const { return threshold_s_; }
  double target_s() const { return target_s_; }

 private:
  Config c_;
  double threshold_s_, target_s_;
  double window_;
  double last_delay_s_ = 0;
  double u_ = 0, e_prev_ = 0;
  std::uint64_t over_ = 0;
  bool in_pid_ = false;
  bool sampled_ = false;
  Held held_ = Held::kNone;
  std::uint64_t steps_ = 0, floor_steps_ = 0;
  double max_u_ = 0;
};

// The trace of one flow's PID (params.trace, rcc.csv): when it entered, and how long its window sat at the
// one-MTU floor and at the EWA cap, accounted at every window update of its rules.
struct RccTrace {
  TimePs entry_ps = kTimeNever;
  TimePs floor_ps = 0, cap_ps = 0;
  TimePs last_ps = 0;
  double entry_delay_s = 0;  // the sample that completed the n over the threshold
  RccFlowRules::Held held = RccFlowRules::Held::kNone;
  bool closed = false;
  // The rules' window may have changed at `now`.
  void update(TimePs now, const RccFlowRules& r);
  // The flow's last packet (receiver) or completion (sender): time stops here.
  void close(TimePs now);
  static const char* header();
  void write_row(std::FILE* out, const RccFlowRules& r) const;
};

// Per NIC: the receiver's count N of active flows (first packet arrived, last not yet), the bytes it received
// over the last base RTT (B_R, a sliding window of arrivals), and the host's clock (RCC-async).
class RccNic final : public NicControl {
 public:
  RccNic(const RccParams& p, RdmaNic& nic, const CcEnv& env);

  std::uint32_t active_flows = 0;
  RateBps rate_bps() const { return rate_bps_; }
  // A data packet arrived now; `bytes` is what B_R counts of it (params.received_bytes).
  void record_arrival(TimePs now, Bytes bytes);
  // The longest window a flow will ask received_within() about (arrivals older than that are forgotten).
  void keep_at_least(TimePs window_ps) { keep_ps_ = std::max(keep_ps_, window_ps); }
  // The bytes of the data packets that arrived in (now - window, now].
  Bytes received_within(TimePs now, TimePs window_ps) const;
  // What this host's clock reads at true time `now` (its offset and, per reading, its jitter).
  std::int64_t clock_reading(TimePs now);

 private:
  RateBps rate_bps_;
  std::deque<std::pair<TimePs, Bytes>> arrivals_;  // (time, bytes received up to and including it)
  Bytes total_bytes_ = 0, dropped_bytes_ = 0;      // dropped: up to the last arrival forgotten
  TimePs keep_ps_ = 0;
  RngStream clock_rng_;
  double offset_ps_ = 0, jitter_ps_ = 0;
  bool exact_clock_;
};

// Per flow at its receiver.
class RccReceiver final : public ReceiverControl {
 public:
  RccReceiver(const RccParams& p, ReceiverContext&, const Flow& flow, const CcEnv& env);
  void on_data(const Packet& data) override;
  void on_ack(Packet& ack) override;

  // The window the next ACK carries (variant receiver), or the EWA share (variant sender).
  double window_bytes() const { return window_; }
  const RccFlowRules& rules() const { return rules_; }
  const RccTrace& trace() const { return trace_; }

 private:
  double cap_bytes() const;
  void on_pid_timer();

  const RccParams& p_;
  Simulator& sim_;
  RccNic& nic_;
  Bytes flow_bytes_;
  TimePs base_rtt_ps_;
  double bdp_bytes_;  // C x base_rtt, C the receiver's link rate
  RccFlowRules rules_;
  Timer pid_timer_;
  RccTrace trace_;
  double window_;
  bool count_payload_;
  bool busy_ = false;
  bool counted_ = false, done_ = false;
  Slot<RccFields> fields_;
};

// Per flow at its sender: the window from the latest ACK, paced at W / base_rtt (variant sender: from its own
// RTT samples and PID).
class RccSender final : public CongestionControl {
 public:
  RccSender(const RccParams& p, SenderQp& qp, const CcEnv& env);
  void on_ack(const Packet& ack) override;
  void on_sent(Packet& data) override;
  void on_finish() override;

  const RccFlowRules& rules() const { return rules_; }
  const RccTrace& trace() const { return trace_; }

 private:
  void apply(double window_bytes);
  void on_pid_timer();

  const RccParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  RccNic& nic_;
  TimePs base_rtt_ps_;
  double rate_per_window_byte_;  // b/s per byte of window: the pacing rate is W x 8 / base_rtt
  double mtu_bytes_;
  RccFlowRules rules_;  // variant sender only
  Timer pid_timer_;
  RccTrace trace_;    // variant sender only
  double cap_bytes_;  // variant sender: the latest EWA share from the receiver
  Slot<RccFields> fields_;
};

struct Rcc {
  using Params = RccParams;
  using Sender = RccSender;
  using Receiver = RccReceiver;
  using Nic = RccNic;
  static constexpr const SlotSpec* kSlots[] = {&kRccFields};
  static const char* trace_header(const Params& p) { return p.trace ? RccTrace::header() : nullptr; }
  // The PID is the receiver's, or the sender's in variant sender.
  static void write_trace_row(std::FILE* out, const Params& p, const Sender& s, const Receiver& r) {
    if (p.sender_side())
      s.trace().write_row(out, s.rules());
    else
      r.trace().write_row(out, r.rules());
  }
};

}  // namespace lossless
