// TIMELY (Mittal et al., SIGCOMM'15): RTT-gradient rate control (baselines.md §2).
//  - variant paper: one RTT sample per completed segment of `segment` bytes; rttDiff EWMA; below T_low add
//    delta; above T_high cut by beta(1 - T_high/rtt); gradient <= 0 adds N x delta (N = 5 after 5 consecutive
//    non-positive gradients: HAI), else cut by beta x gradient.
//  - variant hpcc: the HPCC code (CC_MODE 7): update once per RTT (ACK beyond lastUpdateSeq), increase R_AI
//  for the
//    first 5 consecutive increases then R_HAI, decrease factor clamped at 0, rate in [min_rate, line].
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
  RateBps rate_ai = 10'000'000;   // delta
  RateBps rate_hai = 50'000'000;  // hpcc variant: the step after 5 increases
  std::uint64_t hai_threshold = 5;
  std::uint64_t hai_multiplier = 5;
  Bytes segment = 16'000;
  RateBps min_rate = 10'000'000;
  std::string window = "none";

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
    v.rate("rate_ai", rate_ai, "delta: additive step (paper 10Mbps at 10G)");
    v.rate("rate_hai", rate_hai, "hpcc variant: step after hai_threshold consecutive increases");
    v.count("hai_threshold", hai_threshold,
            "consecutive non-positive gradients (paper) / increases (hpcc) before HAI", 0, 1000);
    v.count("hai_multiplier", hai_multiplier, "paper variant: N in N x delta during HAI", 1, 1000);
    v.size("segment", segment, "paper variant: bytes acknowledged per RTT sample", kPositive);
    v.rate("min_rate", min_rate, "lowest rate", kPositive);
    v.choice("window", window, LOSSLESS_WINDOW_CHOICES, LOSSLESS_WINDOW_DOC);
  }
};

class TimelySender final : public CongestionControl {
 public:
  TimelySender(const TimelyParams& p, SenderQp& qp, const CcEnv& env);
  void on_ack(const Packet& ack) override;
  double rtt_diff_ps() const { return rtt_diff_; }

 private:
  void sample(double rtt_ps, TimePs now);

  const TimelyParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  bool hpcc_;
  bool have_prev_ = false;
  double prev_rtt_ = 0;
  double rtt_diff_ = 0;
  std::uint64_t streak_ = 0;  // consecutive increases (hpcc) / non-positive gradients (paper)
  Bytes next_sample_seq_ = 0;
};

}  // namespace lossless
