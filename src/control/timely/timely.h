// TIMELY (Mittal et al., SIGCOMM'15): RTT-gradient rate control (baselines.md §2).
//  - variant paper (Algorithm 1, per completion event): one RTT sample per completed segment of `segment`
//    bytes; rttDiff = EWMA of successive differences, gradient = rttDiff / D_minRTT; below T_low add delta;
//    above T_high cut by beta (1 - T_high/rtt); gradient <= 0 adds N x delta (N = hai_multiplier once the
//    last hai_threshold raw RTT differences were all negative: HAI), else cut by beta x gradient. Every
//    change is scaled by min(1, time since the last update / D_minRTT) (TIMELY §5: rate updates at most
//    once per D_minRTT; the fluid model's tau* = max(Seg/R, D_minRTT)). delta is 10 Mb/s per 10 Gb/s of
//    the NIC's line rate unless set. start_rate share starts a flow at C / (N + 1), N the flows already
//    active at its sender (the paper's rule); the default, line, keeps the line-rate start every result so
//    far used.
//  - variant hpcc: the HPCC code (CC_MODE 7): update once per RTT (ACK beyond lastUpdateSeq), increase R_AI
//    for the first 5 consecutive increases then R_HAI, decrease factor clamped at 0, rate in [min_rate,
//    line].
// RTT = now - the data packet's send time echoed by the ACK.
#pragma once
#include <string>

#include "control/window.h"
#include "core/params.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct TimelyParams {
  std::string variant = "paper";
  std::string preset = "none";
  double alpha = 0.875;
  double beta = 0.8;
  TimePs t_low = 50 * kPsPerUs;
  TimePs t_high = 500 * kPsPerUs;
  TimePs min_rtt = 20 * kPsPerUs;
  RateBps rate_ai = 0;            // delta; 0 = auto (per line rate: rate_ai_for)
  RateBps rate_hai = 50'000'000;  // hpcc variant: the step after 5 increases
  std::uint64_t hai_threshold = 5;
  std::uint64_t hai_multiplier = 5;
  Bytes segment = 16'000;
  RateBps min_rate = 10'000'000;
  std::string window = "none";
  std::string update_scaling = "min_rtt";
  std::string start_rate = "line";

  static TimelyParams initial(ParamSource& m);

  template <class V>
  void visit(V& v) {
    v.choice("variant", variant, {"paper", "hpcc"},
             "paper: per-segment samples, N x delta HAI; hpcc: HPCC code once-per-RTT update");
    v.choice("preset", preset, {"none", "hpcc_paper"},
             "hpcc_paper: run.py `timely` (variant hpcc, R_AI 100Mbps, R_HAI 500Mbps, min 1Gbps)");
    v.real("alpha", alpha, "EWMA weight of the new RTT difference", 0.0, 1.0);
    v.real("beta", beta, "multiplicative-decrease factor", 0.0, 1.0);
    v.time("t_low", t_low, "below this RTT always increase");
    v.time("t_high", t_high, "above this RTT always decrease");
    v.time("min_rtt", min_rtt, "D_minRTT normalising the gradient", kPositive);
    v.rate_or_auto("rate_ai", rate_ai,
                   "delta: additive step; auto = paper: 10Mbps per 10Gbps of line rate (the TIMELY author's "
                   "value for 10G NICs), hpcc: 10Mbps");
    v.rate("rate_hai", rate_hai, "hpcc variant: step after hai_threshold consecutive increases");
    v.count("hai_threshold", hai_threshold,
            "consecutive negative RTT differences (paper) / increases (hpcc) before HAI", 0, 1000);
    v.count("hai_multiplier", hai_multiplier, "paper variant: N in N x delta during HAI", 1, 1000);
    v.size("segment", segment, "paper variant: bytes acknowledged per RTT sample (completion event)",
           kPositive);
    v.choice("update_scaling", update_scaling, {"min_rtt", "none"},
             "paper variant: min_rtt = scale every change by min(1, time since the last update / min_rtt) "
             "(TIMELY §5), none = apply each in full");
    v.unused(variant == "hpcc", "update_scaling");
    v.choice("start_rate", start_rate, {"share", "line"},
             "paper variant: share = a new flow starts at C / (N + 1) with N the flows already active at its "
             "sender (the paper's rule), line = at line rate (default: the start all published runs of this "
             "simulator used)");
    v.unused(variant == "hpcc", "start_rate");
    v.rate("min_rate", min_rate, "lowest rate", kPositive);
    v.choice("window", window, LOSSLESS_WINDOW_CHOICES, LOSSLESS_WINDOW_DOC);
  }
};

class TimelySender final : public CongestionControl {
 public:
  TimelySender(const TimelyParams& p, SenderQp& qp, const CcEnv& env);
  void on_start() override;
  void on_ack(const Packet& ack) override;
  double rtt_diff_ps() const { return rtt_diff_; }
  double rate_ai_bps() const { return rate_ai_; }
  // delta when rate_ai is auto: 10 Mb/s per 10 Gb/s of line rate (paper), 10 Mb/s (hpcc).
  static double rate_ai_for(const TimelyParams& p, RateBps line_rate_bps);

 private:
  void sample(double rtt_ps, TimePs now);
  void sample_paper(double rtt_ps, TimePs now);

  const TimelyParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  RdmaNic& nic_;
  bool hpcc_;
  double rate_ai_;
  bool have_prev_ = false;
  double prev_rtt_ = 0;
  double rtt_diff_ = 0;
  std::uint64_t streak_ = 0;  // consecutive increases (hpcc) / negative RTT differences (paper)
  Bytes next_sample_seq_ = 0;
  TimePs last_update_ps_ = 0;  // paper: time of the last rate update (the flow's start before the first)
};

}  // namespace lossless
