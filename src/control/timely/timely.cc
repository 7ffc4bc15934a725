#include "control/timely/timely.h"

#include <algorithm>

#include "control/cc_scheme.h"
#include "net/rdma_nic.h"

namespace lossless {

TimelyParams TimelyParams::initial(ParamSource& m) {
  TimelyParams p;
  if (m.has("variant")) p.variant = m.choice("variant", "paper", {"paper", "hpcc"});
  // The hpcc variant's delta is 10 Mb/s unless set (auto: rate_ai_for).
  if (p.variant == "hpcc") p.rate_ai = 10'000'000;
  if (m.has("preset") && m.choice("preset", "none", {"none", "hpcc_paper"}) == "hpcc_paper") {
    // HPCC code run.py `timely` at 100 G: R_AI = 10 x (100/10) Mb/s, R_HAI = 5 x R_AI, MIN_RATE 1 Gb/s, no
    // window.
    p.preset = "hpcc_paper";
    p.variant = "hpcc";
    p.rate_ai = 100'000'000;
    p.rate_hai = 500'000'000;
    p.min_rate = 1'000'000'000;
  }
  return p;
}

double TimelySender::rate_ai_for(const TimelyParams& p, RateBps line_rate_bps) {
  if (p.rate_ai) return static_cast<double>(p.rate_ai);
  // The TIMELY author's recommended additive increment: "10Mbps for 10Gbps line rate" (the paper's 10 Mb/s on
  // its 10 G NICs); the HPCC code's run.py scales it the same way. The hpcc variant keeps its 10 Mb/s.
  return p.variant == "hpcc" ? 10e6 : static_cast<double>(line_rate_bps) * 1e-3;
}

TimelySender::TimelySender(const TimelyParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      sim_(env.sim),
      nic_(env.host_nic),
      hpcc_(p.variant == "hpcc"),
      rate_ai_(rate_ai_for(p, qp.line_rate_bps)),
      last_update_ps_(env.sim.now()) {
  apply_window_mode(p.window, qp, env);
}

void TimelySender::on_start() {
  // "If there are N active flows at a sender, a new flow starts at rate C/(N+1)" (the paper, as CoNEXT'16
  // quotes it). This flow is not yet among the NIC's active ones.
  if (hpcc_ || p_.start_rate != "share") return;
  const double n = static_cast<double>(nic_.active_flows());
  qp_.set_rate(static_cast<double>(qp_.line_rate_bps) / (n + 1));
}

void TimelySender::on_ack(const Packet& ack) {
  if (ack.type != PacketType::kAck) return;
  const TimePs now = sim_.now();
  // hpcc: once per RTT, when the ACK passes the sequence sent at the previous update; paper: once per
  // completion event, i.e. per `segment` bytes acknowledged.
  if (have_prev_ && ack.seq <= next_sample_seq_) return;
  sample(static_cast<double>(now - ack.sent_ps), now);
  next_sample_seq_ = hpcc_ ? qp_.snd_nxt : ack.seq + p_.segment - 1;
}

void TimelySender::sample(double rtt, TimePs now) {
  if (!hpcc_) {
    sample_paper(rtt, now);
    return;
  }
  if (!have_prev_) {
    have_prev_ = true;
    prev_rtt_ = rtt;
    return;
  }
  const double new_diff = rtt - prev_rtt_;
  prev_rtt_ = rtt;
  rtt_diff_ = (1 - p_.alpha) * rtt_diff_ + p_.alpha * new_diff;
  const double gradient = rtt_diff_ / static_cast<double>(p_.min_rtt);
  const double line = static_cast<double>(qp_.line_rate_bps);
  double rate = qp_.rate_bps;
  const double t_low = static_cast<double>(p_.t_low), t_high = static_cast<double>(p_.t_high);
  bool inc = false;
  double c = 0;
  if (rtt < t_low) {
    inc = true;
  } else if (rtt > t_high) {
    c = 1 - p_.beta * (1 - t_high / rtt);
  } else if (gradient <= 0) {
    inc = true;
  } else {
    c = std::max(0.0, 1 - p_.beta * gradient);
  }
  if (inc) {
    rate += streak_ < p_.hai_threshold ? rate_ai_ : static_cast<double>(p_.rate_hai);
    ++streak_;
  } else {
    rate *= c;
    streak_ = 0;
  }
  qp_.set_rate(std::clamp(rate, qp_.rate_floor(p_.min_rate), line));
}

// Algorithm 1 of the paper, one call per completion event; the first sample is its own predecessor
// (prevRTT starts at the first RTT, so its difference is 0), as in the TIMELY author's code.
void TimelySender::sample_paper(double rtt, TimePs now) {
  if (!have_prev_) {
    have_prev_ = true;
    prev_rtt_ = rtt;
  }
  const double new_diff = rtt - prev_rtt_;
  prev_rtt_ = rtt;
  // HAI counts consecutive samples whose RTT fell (the raw difference, not the smoothed gradient).
  streak_ = new_diff < 0 ? streak_ + 1 : 0;
  rtt_diff_ = (1 - p_.alpha) * rtt_diff_ + p_.alpha * new_diff;
  const double gradient = rtt_diff_ / static_cast<double>(p_.min_rtt);
  // Rate updates at most once per D_minRTT: a change is scaled by the share of D_minRTT since the last one.
  double f = 1;
  if (p_.update_scaling == "min_rtt")
    f = std::min(1.0, static_cast<double>(now - last_update_ps_) / static_cast<double>(p_.min_rtt));
  last_update_ps_ = now;
  double rate = qp_.rate_bps;
  const double t_low = static_cast<double>(p_.t_low), t_high = static_cast<double>(p_.t_high);
  if (rtt < t_low) {
    rate += f * rate_ai_;
  } else if (rtt > t_high) {
    rate *= 1 - f * p_.beta * (1 - t_high / rtt);
  } else if (gradient <= 0) {
    const double n = streak_ >= p_.hai_threshold ? static_cast<double>(p_.hai_multiplier) : 1.0;
    rate += f * n * rate_ai_;
  } else {
    rate *= std::max(0.0, 1 - f * p_.beta * gradient);
  }
  qp_.set_rate(std::clamp(rate, qp_.rate_floor(p_.min_rate), static_cast<double>(qp_.line_rate_bps)));
}

LOSSLESS_REGISTER_CC(
    TimelyParams, TimelySender, "timely",
    "TIMELY (Mittal et al., SIGCOMM'15): RTT-gradient rate control; paper and HPCC-code variants");

}  // namespace lossless
