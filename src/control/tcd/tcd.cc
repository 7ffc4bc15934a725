#include "control/tcd/tcd.h"

#include "control/mechanism_scheme.h"
#include "control/tcd/tcd_mark.h"
#include "net/network.h"
#include "net/packet_kinds.h"

namespace lossless {

const PacketType kTcdUeCnp = PacketKinds::add("tcd.ue_cnp", PacketKinds::kEndToEnd);

TcdPortState::State TcdPortState::on_dequeue(TimePs now, Bytes queue_bytes) {
  if (now - sample_ps_ >= s_.sample_interval_ps) {
    decreasing_ = queue_bytes < q_sample_;
    q_sample_ = queue_bytes;
    sample_ps_ = now;
  }
  // ON continuously for longer than max(T_on): no longer in a PFC ON-OFF pattern.
  const bool on = !paused_ && (!resumed_ || now - last_on_ps_ > s_.max_ton_ps);
  const bool long_queue = queue_bytes > s_.threshold_bytes;
  switch (state_) {
    case State::kNonCongestion:
      if (on && long_queue) {
        state_ = State::kCongestion;
      } else if (!on) {
        state_ = State::kUndetermined;
      }
      break;
    case State::kCongestion:
      if (on && !long_queue) {
        state_ = State::kNonCongestion;
      } else if (!on) {
        state_ = State::kUndetermined;
      }
      break;
    case State::kUndetermined:
      if (on && (decreasing_ || !long_queue)) {
        state_ = State::kNonCongestion;
      } else if (on) {
        state_ = State::kCongestion;  // long and not draining although the port sends without pauses
      }
      break;
  }
  return state_;
}

TimePs TcdSwitch::auto_max_ton_ps(TimePs delay_ps, RateBps rate_bps, Bytes pfc_bytes, Bytes packet_bytes,
                                  Bytes hysteresis_bytes, double factor) {
  // The PFC pause loop: the pause travels to this port and the last packet already on the wire arrives; then
  // the downstream ingress refills over the hysteresis.
  const TimePs loop = 2 * delay_ps + tx_time_ps(pfc_bytes, rate_bps) + tx_time_ps(packet_bytes, rate_bps) +
                      tx_time_ps(hysteresis_bytes, rate_bps);
  return static_cast<TimePs>(factor * static_cast<double>(loop));
}

TcdSwitch::TcdSwitch(const TcdParams& p, Switch& sw, Network& net)
    : p_(p), sw_(sw), net_(net), mark_(net.slots().bind(kTcdMark)) {}

void TcdSwitch::start() {
  const SwitchConfig& cfg = net_.switch_config();
  const NicConfig& nic = net_.nic_config();
  for (const Port& port : sw_.ports) {
    const Bytes hysteresis = cfg.threshold == PfcThreshold::kStatic
                                 ? cfg.static_xoff(port.rate_bps()) - cfg.static_xon(port.rate_bps())
                                 : cfg.resume_offset_bytes;
    TcdPortState::Setting s;
    s.threshold_bytes = p_.threshold
                            ? p_.threshold
                            : static_cast<Bytes>(per_rate_value(cfg.kmin_bytes, port.rate_bps(), true));
    if (p_.max_ton == kTimeNever) {
      s.max_ton_ps = auto_max_ton_ps(port.delay_ps(), port.rate_bps(), nic.pfc_bytes,
                                     nic.mtu_bytes + nic.data_header_bytes, hysteresis, p_.max_ton_factor);
    } else {
      s.max_ton_ps = p_.max_ton;
    }
    s.sample_interval_ps = p_.sample_interval;
    ports_.emplace_back(s);
    max_ton_.push_back(s.max_ton_ps);
  }
}

void TcdSwitch::on_pause_change(const Port& port, std::uint8_t prio, bool) {
  if (prio == kControlPriority) return;
  const bool paused = (port.paused_mask & ~(1u << kControlPriority)) != 0;
  TcdPortState& s = ports_[port.index];
  if (paused == s.paused()) return;
  if (paused) {
    s.on_pause();
  } else {
    s.on_resume(sw_.sim().now());
  }
}

void TcdSwitch::on_dequeue(const Port& egress, Packet& p) {
  const TcdPortState::State s = ports_[egress.index].on_dequeue(sw_.sim().now(), egress.data_bytes());
  if (p.type != PacketType::kData) return;
  if (s == TcdPortState::State::kCongestion) {
    if (p.ecn_capable) p.ecn_ce = true;
  } else if (s == TcdPortState::State::kUndetermined && p_.mark_undetermined) {
    p.ext_init(mark_).ue = true;
  }
}

LOSSLESS_REGISTER_MECHANISM(
    TcdParams, TcdSwitch, "tcd",
    "TCD (SIGCOMM'21), reconstructed: ternary port states from PFC ON/OFF and the queue; "
    "CE for congestion, UE for undetermined (cc.algorithm: dcqcn_tcd reacts to UE)");

}  // namespace lossless
