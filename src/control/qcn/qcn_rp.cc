#include "control/qcn/qcn_rp.h"

#include <algorithm>

#include "control/cc_scheme.h"
#include "control/qcn/qcn_cp.h"

namespace lossless {

QcnSender::QcnSender(const QcnRpParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      sim_(env.sim),
      timer_(Timer::bind<QcnSender, &QcnSender::on_timer>(this)),
      cnm_(env.slots.bind(kQcnCnmSlot)) {}

void QcnSender::on_finish() { timer_.cancel(); }

void QcnSender::set_rate(double cr) {
  qp_.set_rate(std::clamp(cr, qp_.rate_floor(p_.min_rate), static_cast<double>(qp_.line_rate_bps)));
}

void QcnSender::on_packet(const Packet& p) {
  if (p.type != kQcnCnm) return;
  const unsigned fb = p.ext(cnm_).fb;
  if (fb == 0) return;
  if (!limited_ || p_.clamp_target_rate || byte_stage_since_cut_) tr_ = qp_.rate_bps;
  limited_ = true;
  byte_stage_since_cut_ = false;
  set_rate(qp_.rate_bps * (1 - p_.gd * fb));
  byte_stage_ = timer_stage_ = 0;
  bytes_left_ = static_cast<std::int64_t>(p_.byte_counter);
  timer_.arm_after(sim_, p_.timer);
}

void QcnSender::on_sent(Packet& data) {
  if (!limited_) return;
  bytes_left_ -= data.wire_bytes;
  if (bytes_left_ > 0) return;
  ++byte_stage_;
  byte_stage_since_cut_ = true;
  const Bytes period = byte_stage_ > p_.threshold ? p_.byte_counter / 2 : p_.byte_counter;
  bytes_left_ = static_cast<std::int64_t>(period);
  increase();
}

void QcnSender::on_timer() {
  if (!limited_) return;
  ++timer_stage_;
  timer_.arm_after(sim_, timer_stage_ > p_.threshold ? p_.timer / 2 : p_.timer);
  increase();
}

void QcnSender::increase() {
  const std::uint64_t f = p_.threshold;
  const std::uint64_t hi = std::max(byte_stage_, timer_stage_), lo = std::min(byte_stage_, timer_stage_);
  if (hi <= f) {
    // fast recovery: toward TR
  } else if (lo <= f) {
    tr_ += static_cast<double>(p_.rate_ai);
  } else {
    tr_ += static_cast<double>(lo - f) * static_cast<double>(p_.rate_hai);
  }
  const double line = static_cast<double>(qp_.line_rate_bps);
  tr_ = std::min(tr_, line);
  const double cr = (qp_.rate_bps + tr_) / 2;
  if (line - cr < static_cast<double>(p_.rate_ai)) {
    // Back within one additive step of line rate (halving the gap never closes it): the limiter is released
    // until the next CNM (our reading of "the limiter is removed at line rate").
    limited_ = false;
    timer_.cancel();
    qp_.set_rate(line);
    return;
  }
  set_rate(cr);
}

LOSSLESS_REGISTER_CC(QcnRpParams, QcnSender, "qcn",
                     "QCN reaction point (802.1Qau): rate limiter with byte-counter and timer stages, set by "
                     "the switch's quantised feedback; needs switch.mechanism: qcn");

}  // namespace lossless
