#include "control/qcn/qcn_cp.h"

#include <algorithm>
#include <cmath>

#include "control/mechanism_scheme.h"
#include "net/network.h"
#include "net/packet_kinds.h"

namespace lossless {

const PacketType kQcnCnm = PacketKinds::add("qcn.cnm", PacketKinds::kEndToEnd);

unsigned QcnSampler::sample(Bytes queue_bytes) {
  const auto q = static_cast<double>(queue_bytes);
  const double fb = -((q - q_eq_) + w_ * (q - q_old_));
  q_old_ = q;
  if (fb >= 0) return last_fb_ = 0;
  // |Fb| saturates at Q_eq (1 + 2w), which maps to the largest level.
  const double fb_max = q_eq_ * (1 + 2 * w_);
  const auto level = static_cast<unsigned>(-fb / fb_max * levels_);
  return last_fb_ = std::min(level, levels_ - 1);
}

QcnCp::QcnCp(const QcnCpParams& p, Switch& sw, Network& net)
    : p_(p), sw_(sw), net_(net), cnm_(net.slots().bind(kQcnCnmSlot)) {
  for (const Port& port : sw.ports) {
    const double q_eq = per_rate_value(p.q_eq, port.rate_bps(), true);
    for (int prio = 0; prio < kPriorities; ++prio)
      queues_.push_back({QcnSampler(q_eq, p.w, static_cast<unsigned>(p.fb_bits)), 0});
  }
  for (auto& q : queues_) q.bytes_to_sample = next_interval(0);
}

std::int64_t QcnCp::next_interval(unsigned fb) {
  // 802.1Qau: the sampling interval shrinks in eight steps as the feedback grows (150 KB ... 18.75 KB for 6
  // bits), and each interval is randomised.
  const unsigned steps = 1 + fb * 8 / (1u << p_.fb_bits);
  const double base = static_cast<double>(p_.sample_bytes) / steps;
  const double jitter = 1 + p_.sample_jitter * (2 * sw_.rng().uniform() - 1);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(base * jitter));
}

void QcnCp::on_enqueue(const Port& egress, const Packet& p) {
  if (p.type != PacketType::kData) return;
  Queue& q = queues_[std::size_t{egress.index} * kPriorities + p.priority];
  q.bytes_to_sample -= p.wire_bytes;
  if (q.bytes_to_sample > 0) return;
  const unsigned fb = q.sampler.sample(egress.priority_bytes(p.priority));
  q.bytes_to_sample = next_interval(fb);
  if (fb == 0) return;
  Packet* cnm =
      sw_.packet_to_source(p.flow_id, kQcnCnm, static_cast<std::uint32_t>(net_.nic_config().cnp_bytes));
  cnm->ext_init(cnm_) = {(sw_.node() << 16) | egress.index, static_cast<std::uint8_t>(fb)};
  sw_.send(cnm);
}

LOSSLESS_REGISTER_MECHANISM(
    QcnCpParams, QcnCp, "qcn",
    "QCN congestion point (802.1Qau): sampled Fb from Q_off and Q_delta, 6-bit feedback "
    "to the source; with cc.algorithm: qcn");

}  // namespace lossless
