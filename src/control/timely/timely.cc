#include "control/timely/timely.h"

#include <algorithm>

#include "control/cc_scheme.h"

namespace lossless {

TimelyParams TimelyParams::initial(ParamSource& m) {
  TimelyParams p;
  if (m.has("variant")) p.variant = m.choice("variant", "paper", {"paper", "hpcc"});
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

TimelySender::TimelySender(const TimelyParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p), qp_(qp), sim_(env.sim), hpcc_(p.variant == "hpcc") {
  apply_window_mode(p.window, qp, env);
}

void TimelySender::on_ack(const Packet& ack) {
  if (ack.type != PacketType::kAck) return;
  const TimePs now = sim_.now();
  // hpcc: once per RTT, when the ACK passes the sequence sent at the previous update; paper: once per
  // segment.
  if (have_prev_ && ack.seq <= next_sample_seq_) return;
  sample(static_cast<double>(now - ack.sent_ps), now);
  next_sample_seq_ = hpcc_ ? qp_.snd_nxt : ack.seq + p_.segment - 1;
}

void TimelySender::sample(double rtt, TimePs) {
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
  const double ai = static_cast<double>(p_.rate_ai);
  if (hpcc_) {
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
      rate += streak_ < p_.hai_threshold ? ai : static_cast<double>(p_.rate_hai);
      ++streak_;
    } else {
      rate *= c;
      streak_ = 0;
    }
  } else {
    if (rtt < t_low) {
      rate += ai;
    } else if (rtt > t_high) {
      rate *= 1 - p_.beta * (1 - t_high / rtt);
    } else if (gradient <= 0) {
      streak_ = streak_ + 1;
      rate += (streak_ >= p_.hai_threshold ? static_cast<double>(p_.hai_multiplier) : 1.0) * ai;
    } else {
      rate *= std::max(0.0, 1 - p_.beta * gradient);
    }
    if (!(rtt <= t_high && rtt >= t_low && gradient <= 0)) streak_ = 0;
  }
  qp_.set_rate(std::clamp(rate, static_cast<double>(p_.min_rate), line));
}

LOSSLESS_REGISTER_CC(
    TimelyParams, TimelySender, "timely",
    "TIMELY (Mittal et al., SIGCOMM'15): RTT-gradient rate control; paper and HPCC-code variants");

}  // namespace lossless
