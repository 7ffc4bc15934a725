// Swift (Kumar et al., SIGCOMM'20): delay-target window control (baselines.md §11; the paper's Algorithm 1).
//  - Two windows, in packets and fractional: the fabric window fcwnd reacts to the fabric delay (the RTT less
//    the receiving end's delay, which the receiver stamps on each ACK), the end-host window ecwnd to that
//    end-host delay; the QP's window is min(fcwnd, ecwnd) packets.
//  - Per ACK, each window: below its target, additive increase (ai / cwnd per packet acknowledged, ai per
//    packet below one packet of window); at or above it, multiplicative decrease by
//    max(1 - beta (delay - target) / delay, 1 - max_mdf), at most once per RTT (the time since the last
//    decrease at least the latest RTT sample). A NACK (go-back-N, the fast-recovery signal here) cuts by
//    1 - max_mdf, once per RTT too. Windows stay within [min_cwnd, max_cwnd].
//  - Fabric target: base_target + hops x hop_scale + clamp(alpha_fs / sqrt(fcwnd) + beta_fs, 0, fs_range)
//    with alpha_fs = fs_range / (1/sqrt(fs_min_cwnd) - 1/sqrt(fs_max_cwnd)), beta_fs = -alpha_fs /
//    sqrt(fs_max_cwnd): topology scaling by the switches on the path (CcEnv::path_switches, the TTL
//    difference of the paper) and flow scaling (many flows, small windows: a larger target). End-host target:
//    fixed. The fixed part is never below the flow's unloaded RTT plus min_queueing (ours, below).
//  - Below one packet of window the QP keeps one packet in flight and paces one packet every RTT / cwnd;
//    from one packet up it sends at line rate within the window.
// What the paper does not fix for this simulator, ours and parameters: the targets (base_target 5 us and
// hop_scale 2 us: an unloaded RTT in the 1-us-link fabrics here is about 2 us per switch plus 2 us, which
// leaves ~3 us of queueing; fs_range 20 us, within baselines.md's base_target/2 .. 5 x base_target), the
// initial window (the largest host-pair BDP, a line-rate start as the other RDMA schemes here) and max_cwnd
// (the same BDP), and min_queueing 1 us: base_target + hops x hop_scale is the paper's stand-in for a path's
// unloaded RTT plus a little queueing, fitted to one fabric's link delays; where it falls below the RTT (2 us
// links: 15 us against 24.1 us over 5 switches) a flow alone settles where flow scaling makes up the gap and
// crawls (0.45 packets, 161 Mb/s: tests/random case 481). The floor leaves the paper's formula alone wherever
// it already allows more than min_queueing over the unloaded RTT (every 1-us-link fabric here: ~2.5 us).
// The substrate has no host software: the end-host delay is the receiving NIC's, from a data
// packet's arrival to its ACK (0 unless ACKs are coalesced), so ecwnd rarely binds. The paper's retransmit
// timeout reaction is not modelled (the NIC's timer does not call the scheme; lossless fabrics do not lose).
#pragma once
#include <cstdint>

#include "core/params.h"
#include "net/congestion_control.h"
#include "net/packet_slot.h"
#include "net/queue_pair.h"

namespace lossless {

struct SwiftParams {
  double ai = 1.0;
  double beta = 0.8;
  double max_mdf = 0.5;
  TimePs base_target = 5 * kPsPerUs;
  TimePs hop_scale = 2 * kPsPerUs;
  TimePs fs_range = 20 * kPsPerUs;
  double fs_min_cwnd = 0.1;
  double fs_max_cwnd = 100;
  TimePs endpoint_target = 5 * kPsPerUs;
  TimePs min_queueing = kPsPerUs;
  double min_cwnd = 0.001;
  double max_cwnd = 0;   // 0 = auto: the largest host-pair BDP in packets
  double init_cwnd = 0;  // 0 = auto: max_cwnd

  SubstrateHints hints() const {
    SubstrateHints h;
    h.defaults.set("switch.ecn.enabled", "false");  // delay is the only signal: switches need not mark
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.real("ai", ai, "additive increment, packets per RTT (paper's ai; Vertigo's Swift 1)", 0.0, 1000.0);
    v.real("beta", beta, "multiplicative-decrease constant (Vertigo's Swift 0.8)", 0.0, 1.0);
    v.real("max_mdf", max_mdf, "largest multiplicative decrease per RTT (Vertigo's Swift 0.5)", 0.0, 1.0);
    v.time("base_target", base_target,
           "fabric target delay before scaling (ours: 5us, ~3us of queueing over an unloaded RTT here)");
    v.time("hop_scale", hop_scale,
           "fabric target per switch on the path, the paper's topology scaling h (ours: 2us, an unloaded "
           "RTT's growth per switch with 1us links)");
    v.time("min_queueing", min_queueing,
           "the fabric target before flow scaling is at least the flow's unloaded RTT plus this (ours: 1us; "
           "0 = at least the RTT)");
    v.time("fs_range", fs_range,
           "flow scaling: the most it adds to the fabric target, at fs_min_cwnd and below (ours: 20us)");
    v.real("fs_min_cwnd", fs_min_cwnd, "flow scaling: the window at which it adds fs_range (packets)", 1e-6,
           1e9);
    v.real("fs_max_cwnd", fs_max_cwnd, "flow scaling: the window from which it adds nothing (packets)", 1e-6,
           1e9);
    v.require(fs_max_cwnd > fs_min_cwnd, "fs_max_cwnd", "must exceed fs_min_cwnd");
    v.time("endpoint_target", endpoint_target, "end-host target delay, for the end-host window ecwnd (ours)");
    v.real("min_cwnd", min_cwnd, "smallest window in packets (Vertigo's Swift 0.001)", 1e-6, 1e9);
    v.real("max_cwnd", max_cwnd,
           "largest window in packets; 0 = the largest host-pair BDP (ours: a flow alone reaches line rate)",
           0.0, 1e9);
    v.require(max_cwnd == 0 || max_cwnd >= min_cwnd, "max_cwnd", "must be at least min_cwnd");
    v.real("init_cwnd", init_cwnd, "a flow's first window in packets; 0 = max_cwnd (a line-rate start, ours)",
           0.0, 1e9);
  }
};

// What the receiver stamps on an ACK: its end-host delay, from the acknowledged data packet's arrival at the
// receiving NIC to the ACK's departure.
struct SwiftEndpointDelay {
  TimePs delay_ps;
};
inline constexpr PacketSlot<SwiftEndpointDelay> kSwiftEndpointDelay{"swift.endpoint_delay", {"ack"}};

class SwiftSender final : public CongestionControl {
 public:
  SwiftSender(const SwiftParams& p, SenderQp& qp, const CcEnv& env);
  // The NIC starts a flow at line rate: set the window and pacing of the first window.
  void on_start() override { apply(); }
  void on_ack(const Packet& ack) override;
  void check_state(StateCheck& check) const override;

  double fcwnd() const { return fcwnd_; }
  double ecwnd() const { return ecwnd_; }
  double cwnd() const { return fcwnd_ < ecwnd_ ? fcwnd_ : ecwnd_; }
  // The fabric target delay at the current fabric window.
  double fabric_target_ps() const;
  double rtt_ps() const { return rtt_ps_; }

 private:
  // Algorithm 1's reaction of one window to one delay sample.
  double react(double cwnd, double delay_ps, double target_ps, double acked, bool can_decrease) const;
  double clamp(double cwnd) const;
  // The QP's window for the current windows: cwnd packets, at least one.
  Bytes window_bytes() const;
  // The QP's window and pacing for the current windows.
  void apply();

  const SwiftParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  Slot<SwiftEndpointDelay> delay_;
  double mtu_;
  double wire_bits_;   // bits of a full data packet on the wire
  double max_cwnd_;    // packets
  double hop_target_;  // base_target + hops x hop_scale
  double alpha_fs_, beta_fs_;
  double fcwnd_, ecwnd_;
  double rtt_ps_;  // the latest RTT sample (the unloaded RTT before the first)
  TimePs last_decrease_ps_ = 0;
  Bytes acked_ = 0;  // snd_una at the previous ACK
};

// The receiver: stamps each ACK with the end-host delay of the data packet it acknowledges.
class SwiftReceiver final : public ReceiverControl {
 public:
  SwiftReceiver(const SwiftParams&, ReceiverContext&, const Flow&, const CcEnv& env);
  void on_data(const Packet& data) override {
    (void)data;
    last_arrival_ps_ = sim_.now();
  }
  void on_ack(Packet& ack) override {
    if (ack.type == PacketType::kAck) ack.ext_init(delay_).delay_ps = sim_.now() - last_arrival_ps_;
  }

 private:
  Simulator& sim_;
  Slot<SwiftEndpointDelay> delay_;
  TimePs last_arrival_ps_ = 0;
};

struct Swift {
  using Params = SwiftParams;
  using Sender = SwiftSender;
  using Receiver = SwiftReceiver;
  static constexpr const SlotSpec* kSlots[] = {&kSwiftEndpointDelay};
};

}  // namespace lossless
