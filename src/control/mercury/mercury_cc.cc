#include "control/mercury/mercury_cc.h"

#include <algorithm>

#include "control/cc_scheme.h"
#include "control/mercury/mercury_cnp.h"
#include "net/rdma_nic.h"

namespace lossless {

MercurySender::MercurySender(const MercuryCcParams& p, SenderQp& qp, const CcEnv& env)
    : DcqcnSender(p, qp, env),
      qp_(qp),
      period_ps_(p.rate_increase_timer),
      full_window_(static_cast<Bytes>(static_cast<unsigned __int128>(qp.line_rate_bps) *
                                      (p.base_rtt == kTimeNever ? env.max_base_rtt_ps : p.base_rtt) /
                                      (8 * kPsPerSec))),
      min_window_(p.min_window),
      cnp_(env.slots.bind(kMercuryCnpSlot)) {
  full_window_ = std::max(full_window_, min_window_);
  qp.window_bytes = full_window_;
  qp.window_follows_rate = false;
}

void MercurySender::on_packet(const Packet& p) {
  if (p.type != kMercuryCnp) return;
  DcqcnSender::on_cnp(p);
  last_cnp_ps_ = sim().now();
  set_window(std::max<Bytes>(p.ext(cnp_).window_bytes, min_window_));
}

void MercurySender::on_rate_increase_timer() {
  if (sim().now() - last_cnp_ps_ >= period_ps_) set_window(full_window_);
}

void MercurySender::set_window(Bytes w) {
  const bool grows = w > qp_.window_bytes;
  qp_.window_bytes = w;
  if (grows) qp_.nic->on_qp_unblocked();
}

LOSSLESS_REGISTER_CC_PARTS(
    Mercury, "mercury",
    "Mercury (J. Cloud Computing 2024): DCQCN's RP plus the window of the switch's CNPs; "
    "needs switch.mechanism: mercury");

}  // namespace lossless
