#include "control/ppfc/ppfc.h"

#include <algorithm>

#include "control/switch_schemes.h"
#include "core/rate_table.h"
#include "net/network.h"
#include "net/pause_kinds.h"

namespace lossless {

const std::uint8_t kPredictivePause = PauseKinds::add("predictive");

bool ppfc_predicts_fill(Bytes free_bytes, std::int64_t growth_bytes, TimePs interval, TimePs horizon) {
  if (growth_bytes <= 0) return false;
  // remaining = free / (growth / interval) < horizon, without dividing.
  using Wide = unsigned __int128;
  return Wide{free_bytes} * interval < Wide{horizon} * static_cast<std::uint64_t>(growth_bytes);
}

std::uint16_t ppfc_pause_quanta(Bytes bytes, RateBps egress_bps, RateBps ingress_bps) {
  // (bytes * 8 / egress_bps) seconds, in units of 512 bits at ingress_bps: bytes * ingress / (64 * egress).
  using Wide = unsigned __int128;
  const Wide num = Wide{bytes} * ingress_bps;
  const Wide den = Wide{64} * egress_bps;
  const Wide quanta = (num + den - 1) / den;
  return static_cast<std::uint16_t>(std::clamp<Wide>(quanta, 1, 65535));
}

std::uint16_t ppfc_share_pause_quanta(Bytes bytes, Bytes from, Bytes queue, RateBps egress_bps,
                                      RateBps ingress_bps) {
  // (bytes x queue / from) x 8 / egress_bps seconds, in 512-bit times at ingress_bps.
  using Wide = unsigned __int128;
  const Wide bytes_x_queue = Wide{bytes} * queue;  // sizes up to 10^15 (README "Limits"): within 2^100
  // Beyond 128 bits the quotient is far above the clamp (den < 64 x 10^15 x 10^15 < 2^106).
  if (bytes_x_queue > ~Wide{0} / std::max<RateBps>(ingress_bps, 1)) return 65535;
  const Wide num = bytes_x_queue * ingress_bps;
  const Wide den = Wide{64} * from * egress_bps;
  return static_cast<std::uint16_t>(std::clamp<Wide>((num + den - 1) / den, 1, 65535));
}

std::uint16_t quanta_for(TimePs duration, RateBps rate_bps) {
  using Wide = unsigned __int128;
  const Wide num = Wide{duration} * rate_bps;
  const Wide den = Wide{512} * kPsPerSec;
  return static_cast<std::uint16_t>(std::clamp<Wide>((num + den - 1) / den, 1, 65535));
}

std::vector<std::size_t> ppfc_choose(const std::vector<Bytes>& candidates, Bytes queue_bytes, double fraction,
                                     RngStream& rng) {
  std::vector<std::size_t> picked;
  std::vector<std::size_t> left(candidates.size());
  for (std::size_t i = 0; i < left.size(); ++i) left[i] = i;
  Bytes left_bytes = 0;
  for (const Bytes b : candidates) left_bytes += b;
  const double target = fraction * static_cast<double>(queue_bytes);
  Bytes covered = 0;
  while (static_cast<double>(covered) < target && !left.empty()) {
    // A draw in [0, left_bytes) lands in one candidate's span of bytes.
    auto x = static_cast<Bytes>(rng.uniform() * static_cast<double>(left_bytes));
    std::size_t k = 0;
    while (k + 1 < left.size() && x >= candidates[left[k]]) x -= candidates[left[k++]];
    const std::size_t c = left[k];
    picked.push_back(c);
    covered += candidates[c];
    left_bytes -= candidates[c];
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(k));
  }
  return picked;
}

PpfcEngine::PpfcEngine(const PpfcParams& p, std::vector<PortInfo> ports, RngStream rng)
    : p_(p),
      ports_(std::move(ports)),
      n_(static_cast<std::uint16_t>(ports_.size())),
      share_rate_(p.drain_rate == "share"),
      most_congested_only_(p.egress_queues == "most_congested"),
      rng_(rng),
      from_(std::size_t{n_} * kPriorities * n_, 0),
      egress_(std::size_t{n_} * kPriorities, 0),
      increment_(std::size_t{n_} * kPriorities, 0),
      suppressed_until_(std::size_t{n_} * kPriorities, 0) {
  for (const PortInfo& port : ports_) {
    clocks_.emplace_back(port.rate_bps);
    fixed_quanta_.push_back(p.pause_time == kTimeNever ? 0 : quanta_for(p.pause_time, port.rate_bps));
  }
}

bool PpfcEngine::gate() {
  congested_.clear();
  for (std::size_t e = 0; e < egress_.size(); ++e)
    if (egress_[e] > ports_[e / kPriorities].kmax_bytes) congested_.push_back(e);
  std::stable_sort(congested_.begin(), congested_.end(),
                   [this](std::size_t a, std::size_t b) { return egress_[a] > egress_[b]; });
  return !congested_.empty();
}

std::int64_t PpfcEngine::total_growth() const {
  std::int64_t total = 0;
  const bool net = p_.growth == "net";
  for (const std::int64_t inc : increment_)
    if (net || inc > 0) total += inc;
  return total;
}

namespace {

std::vector<PpfcEngine::PortInfo> port_infos(const Switch& sw) {
  const SwitchConfig& cfg = sw.net().switch_config();
  std::vector<PpfcEngine::PortInfo> infos;
  for (const Port& port : sw.ports)
    infos.push_back(
        {static_cast<Bytes>(per_rate_value(cfg.kmax_bytes, port.rate_bps(), true)), port.rate_bps()});
  return infos;
}

}  // namespace

Ppfc::Ppfc(const PpfcParams& p, Switch& sw)
    : sw_(sw),
      interval_(p.interval),
      standard_(NoParams{}, sw),
      engine_(p, port_infos(sw), RngStream(sw.net().seed(), "ppfc", sw.index())),
      tick_(Timer::bind<Ppfc, &Ppfc::on_interval>(this)) {}

void Ppfc::start() { tick_.arm_after(sw_.sim(), interval_); }

void Ppfc::on_interval() {
  HeldPauses& held = standard_.pauses();
  engine_.end_interval(
      sw_.sim().now(), sw_.buffer().free_bytes(),
      [&held](std::uint16_t port, std::uint8_t prio) { return held.held(port, prio); }, frames_);
  for (const PpfcEngine::Pause& f : frames_) {
    sw_.queue_pause_frame(f.port, f.prio, f.quanta, kPredictivePause);
    sw_.ports[f.port].kick_or_wait();
  }
  tick_.arm_after(sw_.sim(), interval_);
}

LOSSLESS_REGISTER_FLOW_CONTROL(
    PpfcParams, Ppfc, "ppfc", "ppfc",
    "P-PFC (TPDS'20): standard PFC plus predictive pauses of computed duration when "
    "the shared buffer would fill within the horizon");

}  // namespace lossless
