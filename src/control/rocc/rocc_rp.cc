#include "control/rocc/rocc_rp.h"

#include <algorithm>

#include "control/cc_scheme.h"
#include "control/rocc/fair_rate_packet.h"

namespace lossless {

RoccSender::RoccSender(const RoccRpParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      sim_(env.sim),
      apply_timer_(Timer::bind<RoccSender, &RoccSender::apply_due>(this)),
      recovery_timer_(Timer::bind<RoccSender, &RoccSender::on_recovery>(this)),
      fair_rate_(env.slots.bind(kRoccFairRateSlot)) {}

void RoccSender::on_finish() {
  apply_timer_.cancel();
  recovery_timer_.cancel();
  pending_.clear();
}

void RoccSender::on_packet(const Packet& p) {
  if (p.type != kRoccFairRate) return;
  const RoccFairRate& f = p.ext(fair_rate_);
  pending_.push_back({sim_.now() + p_.reaction_delay, static_cast<double>(f.rate_bps), f.cp});
  if (!apply_timer_.armed()) apply_timer_.arm_at(sim_, pending_.front().due_ps);
}

void RoccSender::apply_due() {
  const double line = static_cast<double>(qp_.line_rate_bps);
  while (!pending_.empty() && pending_.front().due_ps <= sim_.now()) {
    Pending c = pending_.front();
    pending_.pop_front();
    const double current = limited_ ? qp_.rate_bps : line;
    if (c.rate_bps <= current || c.origin == cp_ || !accepted_any_) {
      accepted_any_ = true;
      cp_ = c.origin;
      if (c.rate_bps >= line) {
        limited_ = false;
        recovery_timer_.cancel();
        qp_.set_rate(line);
      } else {
        limited_ = true;
        qp_.set_rate(c.rate_bps);
        recovery_timer_.arm_after(sim_, p_.recovery_interval);
      }
    }
  }
  if (!pending_.empty()) apply_timer_.arm_at(sim_, pending_.front().due_ps);
}

void RoccSender::on_recovery() {
  if (!limited_) return;
  const double line = static_cast<double>(qp_.line_rate_bps);
  double r = qp_.rate_bps * 2;
  if (r >= line) {
    limited_ = false;
    qp_.set_rate(line);
    return;
  }
  qp_.set_rate(r);
  recovery_timer_.arm_after(sim_, p_.recovery_interval);
}

LOSSLESS_REGISTER_CC(RoccRpParams, RoccSender, "rocc",
                     "RoCC reaction point (TPDS'23): per-flow rate limiter set by switch fair rates; needs "
                     "switch.mechanism: rocc");

}  // namespace lossless
