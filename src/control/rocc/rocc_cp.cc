#include "control/rocc/rocc_cp.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "control/mechanism_scheme.h"
#include "control/rocc/fair_rate_packet.h"
#include "net/network.h"
#include "net/packet_kinds.h"

namespace lossless {

const PacketType kRoccFairRate = PacketKinds::add("rocc.fair_rate", PacketKinds::kEndToEnd);

RoccController::Setting RoccController::for_link(const RoccCpParams& p, RateBps rate_bps) {
  Setting s;
  const double dq = static_cast<double>(p.delta_q);
  s.f_min = static_cast<std::int64_t>(p.f_min);
  s.f_max = static_cast<std::int64_t>(rate_bps / p.delta_f);
  s.q_ref = static_cast<std::int64_t>(per_rate_value(p.q_ref, rate_bps, false) / dq);
  s.q_mid = static_cast<std::int64_t>(per_rate_value(p.q_mid, rate_bps, false) / dq);
  s.q_max = static_cast<std::int64_t>(per_rate_value(p.q_max, rate_bps, false) / dq);
  s.alpha0 = per_rate_value(p.alpha0, rate_bps, false);
  s.beta0 = per_rate_value(p.beta0, rate_bps, false);
  s.round_result = p.pi_rounding == "result";
  s.low_queue_full_gain = p.low_queue_full_gain;
  return s;
}

std::int64_t RoccController::update(Bytes queue_bytes, Bytes delta_q) {
  const std::int64_t q_cur = static_cast<std::int64_t>(queue_bytes / delta_q);
  if (q_cur >= s_.q_max && f_ > s_.f_max / 8) {
    f_ = s_.f_min;
  } else if (q_cur - q_old_ >= s_.q_mid && f_ > s_.f_max / 8) {
    f_ = f_ / 2;
  } else {
    const bool nearly_empty =
        s_.low_queue_full_gain && q_cur < s_.q_ref / 8 && (q_cur + q_old_) / 2 < s_.q_ref / 8;
    const auto ratio = nearly_empty ? 1.0 : static_cast<double>(gain_ratio(f_, s_.f_max));
    const double alpha = s_.alpha0 / ratio, beta = s_.beta0 / ratio;
    const double step =
        alpha * static_cast<double>(q_cur - s_.q_ref) + beta * static_cast<double>(q_cur - q_old_);
    if (s_.round_result) {
      // The authors' model: the whole result is truncated (toward zero; F - step is positive here or
      // clamped).
      f_ = static_cast<std::int64_t>(static_cast<double>(f_) - step);
    } else {
      // The PI adjustment is truncated toward zero, as a fixed-point datapath computes it: a fraction of a
      // unit moves F neither up nor down. (Truncating F - adjustment instead would floor every small cut to a
      // whole unit while dropping every small raise, biasing the queue below Q_ref.)
      f_ -= static_cast<std::int64_t>(step);
    }
  }
  f_ = std::clamp(f_, s_.f_min, s_.f_max);
  q_old_ = q_cur;
  return f_;
}

RoccCp::RoccCp(const RoccCpParams& p, Switch& sw, Network& net)
    : p_(p),
      sw_(sw),
      net_(net),
      tick_(Timer::bind<RoccCp, &RoccCp::on_tick>(this)),
      fair_rate_(net.slots().bind(kRoccFairRateSlot)) {}

void RoccCp::start() {
  for (const Port& port : sw_.ports) {
    RoccController::Setting s = RoccController::for_link(p_, port.rate_bps());
    ports_.emplace_back(s, p_.f_init ? static_cast<std::int64_t>(p_.f_init) : s.f_min);
  }
  ever_queued_.assign(ports_.size(), false);
  tick_.arm_after(net_.sim_of(sw_.node()), p_.period);
}

void RoccCp::on_tick() {
  for (std::size_t i = 0; i < sw_.ports.size(); ++i) {
    const Port& port = sw_.ports[i];
    Bytes data_bytes = port.data_bytes();
    std::int64_t f = ports_[i].update(data_bytes, p_.delta_q);
    if (data_bytes > 0) ever_queued_[i] = true;
    if (p_.trace && ever_queued_[i])
      trace_.push_back({net_.sim_of(sw_.node()).now(), static_cast<std::uint16_t>(i), f, data_bytes});
    if (data_bytes == 0) continue;
    // Flow table: the flows with a packet in the queue now; one CNP each.
    flows_.clear();
    port.for_each_data_packet([&](const Packet& pkt) {
      if (pkt.type == PacketType::kData) flows_.push_back(pkt.flow_id);
    });
    std::sort(flows_.begin(), flows_.end());
    flows_.erase(std::unique(flows_.begin(), flows_.end()), flows_.end());
    const std::uint32_t origin = (sw_.node() << 16) | static_cast<std::uint32_t>(i);
    const auto cnp_bytes = static_cast<std::uint32_t>(net_.nic_config().cnp_bytes);
    for (std::uint32_t flow : flows_) {
      Packet* cnp = sw_.packet_to_source(flow, kRoccFairRate, cnp_bytes);
      cnp->ext_init(fair_rate_) = {static_cast<std::uint64_t>(f) * p_.delta_f, origin};
      sw_.send(cnp);
    }
  }
  tick_.arm_after(net_.sim_of(sw_.node()), p_.period);
}

void RoccCp::write_trace(std::FILE* out) const {
  const std::string node = net_.topology().node_name(sw_.node());
  for (const auto& r : trace_)
    std::fprintf(out, "%.3f,%s,%u,%lld,%llu\n", ps_to_ns(r.time_ps), node.c_str(),
                 static_cast<unsigned>(r.port),
                 static_cast<long long>(r.f) * static_cast<long long>(p_.delta_f),
                 static_cast<unsigned long long>(r.queue_bytes));
}

LOSSLESS_REGISTER_MECHANISM(
    RoccCpParams, RoccCp, "rocc",
    "RoCC congestion point (TPDS'23): PI-controlled fair rate per egress port, sent to sources");

}  // namespace lossless
