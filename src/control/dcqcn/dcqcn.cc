#include "control/dcqcn/dcqcn.h"

#include <algorithm>

#include "control/cc_scheme.h"

namespace lossless {

DcqcnParams DcqcnParams::for_variant(const std::string& variant) {
  DcqcnParams p;
  p.variant = variant;
  if (variant == "hpcc") {
    // HPCC-code run.py `dcqcn` preset at 100 G (config_dcqcn.txt of the HPCC paper's experiments).
    p.fast_recovery_steps = 1;
    p.rate_ai = 20'000'000;
    p.rate_hai = 200'000'000;
    p.min_rate = 1'000'000'000;
    p.rate_increase_timer = 300 * kPsPerUs;
    p.byte_counter = 0;
    p.alpha_timer = 1 * kPsPerUs;
    p.rate_decrease_interval = 4 * kPsPerUs;
    p.clamp_target_rate = false;
  }
  return p;
}

DcqcnParams DcqcnParams::initial(ParamSource& m) {
  // Read in the order the parameters are listed (variant, then preset), as the resolved scenario.yaml lists
  // them: a resolved file run again resolves to the same text.
  std::string variant = m.has("variant") ? m.choice("variant", "paper", {"paper", "hpcc"}) : "paper";
  bool preset = m.has("preset") && m.choice("preset", "none", {"none", "hpcc_paper"}) == "hpcc_paper";
  if (preset && m.has("variant") && variant != "hpcc")
    m.fail("variant", "preset hpcc_paper uses variant hpcc");
  DcqcnParams p = for_variant(preset ? "hpcc" : variant);
  if (preset) p.preset = "hpcc_paper";
  return p;
}

DcqcnSender::DcqcnSender(const DcqcnParams& params, SenderQp& qp, const CcEnv& env)
    : p_(params),
      qp_(qp),
      sim_(env.sim),
      hpcc_(params.variant == "hpcc"),
      cnp_in_ack_(env.nic.cnp_interval_ps == 0),
      rt_(static_cast<double>(qp.line_rate_bps)),
      alpha_(params.initial_alpha),
      rate_timer_(Timer::bind<DcqcnSender, &DcqcnSender::on_paper_rate_timer>(this)),
      alpha_timer_(Timer::bind<DcqcnSender, &DcqcnSender::on_paper_alpha_timer>(this)),
      decrease_timer_(Timer::bind<DcqcnSender, &DcqcnSender::on_hpcc_decrease_check>(this)) {
  apply_window_mode(p_.window, qp, env);
  if (hpcc_) {
    rate_timer_ = Timer::bind<DcqcnSender, &DcqcnSender::on_hpcc_increase_timer>(this);
    alpha_timer_ = Timer::bind<DcqcnSender, &DcqcnSender::on_hpcc_alpha_timer>(this);
  }
}

void DcqcnSender::set_rate(double rc) { qp_.set_rate(std::clamp(rc, qp_.rate_floor(p_.min_rate), line())); }

void DcqcnSender::on_finish() {
  rate_timer_.cancel();
  alpha_timer_.cancel();
  decrease_timer_.cancel();
}

void DcqcnSender::on_cnp(const Packet&) {
  if (hpcc_) {
    alpha_cnp_arrived_ = true;
    decrease_cnp_arrived_ = true;
    if (!cut_) {
      cut_ = true;
      alpha_ = 1.0;
      alpha_cnp_arrived_ = false;
      // The alpha update runs before a decrease check due at the same instant (phases, not a 1 ns offset). As
      // in the HPCC code (ScheduleDecreaseRateMlx(q, 1)), the first check is one interval after the first
      // CNP.
      alpha_timer_.arm_after(sim_, p_.alpha_timer, EventPhase::kEarly);
      decrease_timer_.arm_after(sim_, p_.rate_decrease_interval, EventPhase::kLate);
      rt_ = p_.rate_on_first_cnp * qp_.rate_bps;
      set_rate(rt_);
    }
    return;
  }
  // Paper RP: alpha first, then the cut with the new alpha (author ns-3 order).
  cut_ = true;
  alpha_ = (1 - p_.g) * alpha_ + p_.g;
  if (p_.clamp_target_rate || timer_count_ > 0 || byte_count_ > 0) rt_ = qp_.rate_bps;
  set_rate(qp_.rate_bps * (1 - alpha_ / 2));
  timer_count_ = 0;
  byte_count_ = 0;
  bytes_left_ = static_cast<std::int64_t>(p_.byte_counter);
  rate_timer_.arm_after(sim_, p_.rate_increase_timer);
  alpha_timer_.arm_after(sim_, p_.alpha_timer);
}

void DcqcnSender::on_sent(Packet& data) {
  if (hpcc_ || !cut_ || p_.byte_counter == 0) return;
  bytes_left_ -= data.wire_bytes;
  if (bytes_left_ <= 0) {
    bytes_left_ += static_cast<std::int64_t>(p_.byte_counter);
    if (increase_held()) return;
    ++byte_count_;
    paper_increase();
  }
}

void DcqcnSender::paper_increase() {
  const std::uint64_t f = p_.fast_recovery_steps;
  const std::uint64_t hi = std::max(timer_count_, byte_count_);
  const std::uint64_t lo = std::min(timer_count_, byte_count_);
  if (hi < f) {
    // fast recovery: R_T unchanged
  } else if (lo < f) {
    rt_ += static_cast<double>(p_.rate_ai);
  } else {
    rt_ += static_cast<double>(lo - f + 1) * static_cast<double>(p_.rate_hai);
  }
  rt_ = std::min(rt_, line());
  set_rate((rt_ + qp_.rate_bps) / 2);
}

void DcqcnSender::on_paper_rate_timer() {
  on_rate_increase_timer();
  if (increase_held()) {
    rate_timer_.arm_after(sim_, p_.rate_increase_timer);
    return;
  }
  ++timer_count_;
  paper_increase();
  // Back at line rate with nothing left to recover: the timer has no more work until the next CNP.
  if (qp_.rate_bps < line() || rt_ < line()) rate_timer_.arm_after(sim_, p_.rate_increase_timer);
}

void DcqcnSender::on_paper_alpha_timer() {
  alpha_ = (1 - p_.g) * alpha_;
  alpha_timer_.arm_after(sim_, p_.alpha_timer);
}

void DcqcnSender::on_hpcc_alpha_timer() {
  alpha_ = alpha_cnp_arrived_ ? (1 - p_.g) * alpha_ + p_.g : (1 - p_.g) * alpha_;
  alpha_cnp_arrived_ = false;
  alpha_timer_.arm_after(sim_, p_.alpha_timer, EventPhase::kEarly);
}

void DcqcnSender::on_hpcc_decrease_check() {
  decrease_timer_.arm_after(sim_, p_.rate_decrease_interval, EventPhase::kLate);
  if (!decrease_cnp_arrived_) return;
  if (p_.clamp_target_rate || timer_count_ != 0) rt_ = qp_.rate_bps;
  set_rate(qp_.rate_bps * (1 - alpha_ / 2));
  timer_count_ = 0;
  decrease_cnp_arrived_ = false;
  rate_timer_.arm_after(sim_, p_.rate_increase_timer);
}

void DcqcnSender::on_hpcc_increase_timer() {
  rate_timer_.arm_after(sim_, p_.rate_increase_timer);
  on_rate_increase_timer();
  if (increase_held()) return;
  const std::uint64_t f = p_.fast_recovery_steps;
  if (timer_count_ == f) {
    rt_ = std::min(rt_ + static_cast<double>(p_.rate_ai), line());
  } else if (timer_count_ > f) {
    rt_ = std::min(rt_ + static_cast<double>(p_.rate_hai), line());
  }
  set_rate((qp_.rate_bps + rt_) / 2);
  ++timer_count_;
}

LOSSLESS_REGISTER_CC(DcqcnParams, DcqcnSender, "dcqcn",
                     "DCQCN (Zhu et al., SIGCOMM'15): ECN-driven rate control; paper and HPCC-code variants");

void DcqcnSender::check_state(StateCheck& check) const {
  check.in_range("rate_bps", qp_.rate_bps, qp_.rate_floor(p_.min_rate), line());
  check.in_range("target_rate_bps", rt_, 0, line());
  check.in_range("alpha", alpha_, 0, 1);
}

}  // namespace lossless
