#include "control/swift/swift.h"

#include <algorithm>
#include <cmath>

#include "control/cc_scheme.h"
#include "net/rdma_nic.h"

namespace lossless {

SwiftSender::SwiftSender(const SwiftParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      sim_(env.sim),
      delay_(env.slots.bind(kSwiftEndpointDelay)),
      mtu_(static_cast<double>(env.nic.mtu_bytes)),
      wire_bits_(8.0 * static_cast<double>(env.nic.mtu_bytes + env.nic.data_header_bytes +
                                           env.nic.data_extra_bytes)),
      max_cwnd_(p.max_cwnd > 0 ? p.max_cwnd
                               : std::max(p.min_cwnd, static_cast<double>(env.max_bdp_bytes) / mtu_)),
      hop_target_(std::max(static_cast<double>(p.base_target) +
                               static_cast<double>(env.path_switches) * static_cast<double>(p.hop_scale),
                           static_cast<double>(env.data_one_way_ps + env.ack_one_way_ps + p.min_queueing))),
      alpha_fs_(static_cast<double>(p.fs_range) /
                (1 / std::sqrt(p.fs_min_cwnd) - 1 / std::sqrt(p.fs_max_cwnd))),
      beta_fs_(-alpha_fs_ / std::sqrt(p.fs_max_cwnd)),
      fcwnd_(clamp(p.init_cwnd > 0 ? p.init_cwnd : max_cwnd_)),
      ecwnd_(fcwnd_),
      rtt_ps_(static_cast<double>(env.data_one_way_ps + env.ack_one_way_ps)) {
  qp_.window_bytes = window_bytes();  // the rate is the NIC's until the flow starts (on_start)
}

double SwiftSender::clamp(double cwnd) const { return std::clamp(cwnd, p_.min_cwnd, max_cwnd_); }

double SwiftSender::fabric_target_ps() const {
  const double fs = alpha_fs_ / std::sqrt(fcwnd_) + beta_fs_;
  return hop_target_ + std::clamp(fs, 0.0, static_cast<double>(p_.fs_range));
}

double SwiftSender::react(double cwnd, double delay_ps, double target_ps, double acked,
                          bool can_decrease) const {
  if (delay_ps < target_ps) return cwnd >= 1 ? cwnd + p_.ai * acked / cwnd : cwnd + p_.ai * acked;
  // No delay at a target of 0: nothing above the target to cut by.
  if (!can_decrease || delay_ps <= 0) return cwnd;
  return cwnd * std::max(1 - p_.beta * (delay_ps - target_ps) / delay_ps, 1 - p_.max_mdf);
}

void SwiftSender::on_ack(const Packet& ack) {
  const TimePs now = sim_.now();
  const double acked = static_cast<double>(qp_.snd_una > acked_ ? qp_.snd_una - acked_ : 0) / mtu_;
  acked_ = std::max(acked_, qp_.snd_una);
  const double prev = cwnd();
  const bool can_decrease = static_cast<double>(now - last_decrease_ps_) >= rtt_ps_;
  if (ack.type == PacketType::kNack) {
    // Loss recovery: cut by max_mdf, at most once per RTT.
    if (can_decrease) {
      fcwnd_ = clamp(fcwnd_ * (1 - p_.max_mdf));
      ecwnd_ = clamp(ecwnd_ * (1 - p_.max_mdf));
    }
  } else {
    const double rtt = static_cast<double>(now - ack.sent_ps);
    const double endpoint = std::min(rtt, static_cast<double>(ack.ext(delay_).delay_ps));
    rtt_ps_ = rtt;
    fcwnd_ = clamp(react(fcwnd_, rtt - endpoint, fabric_target_ps(), acked, can_decrease));
    ecwnd_ = clamp(react(ecwnd_, endpoint, static_cast<double>(p_.endpoint_target), acked, can_decrease));
  }
  if (cwnd() < prev) last_decrease_ps_ = now;
  apply();
}

Bytes SwiftSender::window_bytes() const {
  const double w = cwnd();
  return static_cast<Bytes>(w >= 1 ? w * mtu_ : mtu_);
}

void SwiftSender::apply() {
  const double w = cwnd();
  qp_.window_bytes = window_bytes();
  if (w >= 1) {
    qp_.set_rate(static_cast<double>(qp_.line_rate_bps));
  } else {
    // One packet in flight, one packet every RTT / cwnd.
    const double rtt_s = std::max(rtt_ps_, 1.0) / static_cast<double>(kPsPerSec);
    qp_.set_rate(std::min(static_cast<double>(qp_.line_rate_bps), wire_bits_ * w / rtt_s));
  }
}

void SwiftSender::check_state(StateCheck& check) const {
  check.in_range("fcwnd", fcwnd_, p_.min_cwnd, max_cwnd_);
  check.in_range("ecwnd", ecwnd_, p_.min_cwnd, max_cwnd_);
  check.positive("window_bytes", static_cast<double>(qp_.window_bytes));
  check.in_range("rate_bps", qp_.rate_bps, 1e-9, static_cast<double>(qp_.line_rate_bps));
}

SwiftReceiver::SwiftReceiver(const SwiftParams&, ReceiverContext&, const Flow&, const CcEnv& env)
    : sim_(env.sim), delay_(env.slots.bind(kSwiftEndpointDelay)) {}

LOSSLESS_REGISTER_CC_PARTS(Swift, "swift",
                           "Swift (Kumar et al., SIGCOMM'20): fabric and end-host delay targets with hop and "
                           "flow scaling, once-per-RTT decrease, pacing below one packet of window");

}  // namespace lossless
