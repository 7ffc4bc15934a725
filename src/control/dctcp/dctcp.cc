#include "control/dctcp/dctcp.h"

#include <algorithm>

#include "control/cc_scheme.h"

namespace lossless {

DctcpParams DctcpParams::initial(ParamSource& m) {
  DctcpParams p;
  if (m.has("preset") && m.choice("preset", "none", {"none", "hpcc_paper"}) == "hpcc_paper") {
    p.preset = "hpcc_paper";
    p.min_rate = 1'000'000'000;
  }
  return p;
}

DctcpSender::DctcpSender(const DctcpParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p), qp_(qp), mtu_(env.nic.mtu_bytes) {
  apply_window_mode(p.window, qp, env);
}

void DctcpSender::on_ack(const Packet& ack) {
  const Bytes ack_seq = ack.seq;
  bool new_batch = false;
  if (ack.ecn_ce) ++marked_;
  if (ack_seq > last_update_seq_) {
    new_batch = true;
    if (!started_) {
      started_ = true;
      batch_packets_ = qp_.snd_nxt / mtu_ + 1;
    } else {
      double frac = std::min(1.0, static_cast<double>(marked_) / static_cast<double>(batch_packets_));
      alpha_ = (1 - p_.g) * alpha_ + p_.g * frac;
      marked_ = 0;
      batch_packets_ = (qp_.snd_nxt - ack_seq) / mtu_ + 1;
    }
    last_update_seq_ = qp_.snd_nxt;
  }
  if (cwr_ && ack_seq > high_seq_) cwr_ = false;
  const double line = static_cast<double>(qp_.line_rate_bps);
  if (ack.ecn_ce && !cwr_) {
    cwr_ = true;
    high_seq_ = qp_.snd_nxt;
    qp_.set_rate(std::max(qp_.rate_floor(p_.min_rate), qp_.rate_bps * (1 - alpha_ / 2)));
  }
  if (!cwr_ && new_batch) qp_.set_rate(std::min(line, qp_.rate_bps + static_cast<double>(p_.rate_ai)));
}

LOSSLESS_REGISTER_CC(
    DctcpParams, DctcpSender, "dctcp",
    "DCTCP for RDMA NICs (HPCC code CC_MODE 8): ECN-fraction alpha, rate cut once per window");

}  // namespace lossless
