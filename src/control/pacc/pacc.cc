#include "control/pacc/pacc.h"

#include <algorithm>
#include <cmath>

#include "control/mechanism_scheme.h"
#include "net/network.h"

namespace lossless {

const std::vector<PaccPort::Allocation>& PaccPort::end_period(Bytes queue_bytes) {
  const double q_ref = static_cast<double>(s_.q_ref_bytes);
  const double q = static_cast<double>(queue_bytes);
  // Clipping x is the anti-windup.
  x_ = std::clamp(x_ + s_.a * (q - q_ref) / q_ref + s_.b * (q - static_cast<double>(q_old_)) / q_ref, 0.0,
                  1.0);
  q_old_ = queue_bytes;
  out_.clear();
  const auto n_cnps = static_cast<std::uint64_t>(std::llround(x_ * static_cast<double>(period_packets_)));
  if (n_cnps > 0) {
    // Contributors: at least flow_threshold of the fair share of this period's bytes.
    const double fair = static_cast<double>(period_bytes_) / static_cast<double>(flows_.size());
    contributors_.clear();
    Bytes weight = 0;
    for (const auto& [flow, e] : flows_)
      if (static_cast<double>(e.bytes) >= s_.flow_threshold * fair) {
        contributors_.emplace_back(flow, e.bytes);
        weight += e.bytes;
      }
    std::sort(contributors_.begin(), contributors_.end());
    // Split by byte share: whole parts first, then the CNPs left to the largest remainders (lower flow id
    // first among equals), never more than max_cnps_per_flow to one flow.
    remainders_.clear();
    std::uint64_t given = 0;
    for (const auto& [flow, bytes] : contributors_) {
      const double quota =
          static_cast<double>(n_cnps) * static_cast<double>(bytes) / static_cast<double>(weight);
      const auto whole = static_cast<std::uint64_t>(quota);
      out_.push_back({flow, std::min(whole, s_.max_cnps_per_flow)});
      remainders_.push_back(quota - static_cast<double>(whole));
      given += whole;
    }
    std::uint64_t left = n_cnps > given ? n_cnps - given : 0;
    while (left > 0) {
      std::size_t best = out_.size();
      for (std::size_t i = 0; i < out_.size(); ++i)
        if (remainders_[i] > 0 && out_[i].cnps < s_.max_cnps_per_flow &&
            (best == out_.size() || remainders_[i] > remainders_[best]))
          best = i;
      if (best == out_.size()) break;
      ++out_[best].cnps;
      remainders_[best] = 0;
      --left;
    }
    std::erase_if(out_, [](const Allocation& a) { return a.cnps == 0; });
  }
  flows_.clear();
  period_bytes_ = 0;
  period_packets_ = 0;
  return out_;
}

PaccSwitch::PaccSwitch(const PaccParams& p, Switch& sw, Network& net)
    : p_(p), sw_(sw), net_(net), tick_(Timer::bind<PaccSwitch, &PaccSwitch::on_tick>(this)) {}

void PaccSwitch::start() {
  const SwitchConfig& cfg = net_.switch_config();
  for (const Port& port : sw_.ports) {
    PaccPort::Setting s;
    s.q_ref_bytes =
        p_.q_ref ? p_.q_ref : static_cast<Bytes>(per_rate_value(cfg.kmin_bytes, port.rate_bps(), true));
    s.q_ref_bytes = std::max<Bytes>(s.q_ref_bytes, 1);
    s.a = p_.a;
    s.b = p_.b;
    s.flow_threshold = p_.flow_threshold;
    s.max_cnps_per_flow = p_.max_cnps_per_flow;
    ports_.emplace_back(s);
  }
  tick_.arm_after(sw_.sim(), p_.period);
}

void PaccSwitch::on_enqueue(const Port& egress, const Packet& p) {
  if (p.type == PacketType::kData) ports_[egress.index].on_enqueue(p.flow_id, p.wire_bytes);
}

void PaccSwitch::on_tick() {
  const auto cnp_bytes = static_cast<std::uint32_t>(net_.nic_config().cnp_bytes);
  for (std::size_t i = 0; i < sw_.ports.size(); ++i) {
    for (const auto& a : ports_[i].end_period(sw_.ports[i].data_bytes()))
      for (std::uint64_t k = 0; k < a.cnps; ++k) {
        // A standard CNP: the sender's DCQCN reaction point takes it as it takes a receiver's.
        sw_.send(sw_.packet_to_source(a.flow, PacketType::kCnp, cnp_bytes));
        ++cnps_;
      }
  }
  tick_.arm_after(sw_.sim(), p_.period);
}

LOSSLESS_REGISTER_MECHANISM(PaccParams, PaccSwitch, "pacc",
                            "PACC (INFOCOM'22), reconstructed: the switch's PI controller sends CNPs to the "
                            "sources (use with cc.algorithm: dcqcn); knobs marked UNVERIFIED in the list");

}  // namespace lossless
