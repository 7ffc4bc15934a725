// P-PFC, predictive PFC (Tian et al., "P-PFC: Reducing Tail Latency with Predictive PFC in Lossless Data
// Center Networks", IEEE TPDS 2020; docs: MECHANISMS.md §2), as the flow-control policy `ppfc`: standard PFC
// (StandardPfc, unchanged) plus, every `interval`, the paper's three algorithms on the switch's shared
// buffer:
//   gate (§4.1): only while some egress queue (port, priority) holds more than the ECN Kmax of its port;
//   Algorithm 1: increment[in][prio] = growth of each ingress queue over the last interval; the shared pool
//     fills in remaining = free / (total growth / interval); act when remaining < T (`horizon`);
//   Algorithm 2: for the most congested egress queue (`egress_queues: most_congested`, the ruling of issue
//   25;
//     `all`: every congested one, most congested first), pick ingresses at random in proportion to their
//     share of that queue, among those whose increment is positive, until the picked shares reach R
//     (`fraction`) or none is left;
//   Algorithm 3: pause each picked ingress for (its bytes in that egress queue + its increment) / the rate at
//     which its bytes leave that FIFO queue, the egress rate x its share of the queue (`drain_rate: share`,
//     the ruling of issue 25, the bound of the paper's Theorem 3.2; `egress`: the egress rate), as that many
//     512-bit quanta at the ingress link's rate, rounded up; the pause expires by itself (no resume);
//   §6.3: one suppression bit per ingress (port, priority): no new predictive pause to it while one is
//   running.
// Choices where the paper is silent (MECHANISMS §2 "Decisions", and ours):
//   - the paper's `increment > 1` (packets) is `> 0` bytes;
//   - the increments are counted in bytes held per ingress, headroom included;
//   - total growth: the positive increments (MECHANISMS §2) or every increment (the paper's Algorithm 1:
//     `growth: net`);
//   - picks are without replacement; a picked ingress that is suppressed, or paused by standard PFC, counts
//     toward R but gets no frame (the paper's register bit blocks the frame, not the choice), and no
//     predictive pause ever replaces a standard one (its shorter duration would end the standard pause
//     early);
//   - the suppression bit clears when the computed duration has passed since the frame was sent;
//   - parameters for readings the paper leaves open: `growth`, `drain_rate` (the rate of Algorithm 3),
//     `egress_queues` (one congested egress queue or all), `pause_time` (fixed durations, the paper's Fig.
//     10).
// Pause frames carry the kind `predictive` (pfc.csv, summary.json pfc.pause_frames_by_kind).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "control/pfc/standard_pfc.h"
#include "core/rng.h"
#include "core/time.h"
#include "core/timer.h"
#include "net/packet.h"

namespace lossless {

class Switch;

struct PpfcParams {
  TimePs horizon = 100 * kPsPerUs;
  double fraction = 0.8;
  TimePs interval = 1 * kPsPerUs;
  std::string growth = "positive";
  TimePs pause_time = kTimeNever;  // auto: Algorithm 3
  std::string drain_rate = "share";
  std::string egress_queues = "most_congested";

  template <class V>
  void visit(V& v) {
    v.time("horizon", horizon,
           "T: pause predictively when the shared pool would fill within T at the last interval's growth "
           "(paper Table 2: 100us)");
    v.require(horizon > 0, "horizon", "must be positive");
    v.real("fraction", fraction,
           "R: pick growing ingresses of a congested egress queue until their share of it reaches R (paper "
           "Table 2: 0.8)",
           0.0, 1.0);
    v.time("interval", interval, "period of the prediction and of the increments (paper §4.1: 1us)");
    v.require(interval > 0, "interval", "must be positive");
    v.choice("growth", growth, {"positive", "net"},
             "total growth of Algorithm 1: positive = the growing ingress queues only (MECHANISMS §2), net = "
             "every ingress's change (the paper's Algorithm 1 sums all increments); our choice");
    v.time_or_auto(
        "pause_time", pause_time,
        "duration of a predictive pause: auto = Algorithm 3 (bytes from the ingress in the egress "
        "queue + its increment, over drain_rate); a fixed time for the paper's Fig. 10 comparison");
    v.require(pause_time > 0, "pause_time", "must be positive");
    v.choice(
        "drain_rate", drain_rate, {"egress", "share"},
        "Transmission_speed of Algorithm 3: share = the rate at which the ingress's bytes leave the FIFO "
        "egress queue, the egress rate x its share of the queue (MECHANISMS §2, ruling of issue 25: the "
        "pause "
        "lasts until its bytes have left, the bound of the paper's Theorem 3.2); egress = the egress link "
        "rate (the earlier reading: shorter pauses)");
    v.choice("egress_queues", egress_queues, {"all", "most_congested"},
             "the egress queues Algorithms 2-3 run for when the pool is predicted to fill: most_congested = "
             "only the fullest one above Kmax (MECHANISMS §2, ruling of issue 25: the paper's Fig. 4 and "
             "Algorithm 2 speak of one egress queue, and its Fig. 8 pauses no sender of a less congested "
             "queue); all = every queue above Kmax, most congested first");
  }
};

// Algorithm 1: the shared pool (`free_bytes` left) fills within `horizon` at `growth_bytes` per `interval`.
bool ppfc_predicts_fill(Bytes free_bytes, std::int64_t growth_bytes, TimePs interval, TimePs horizon);
// Algorithm 3: the quanta (512-bit times at `ingress_bps`) of a pause lasting the time `bytes` take to leave
// at `egress_bps`, rounded up, within [1, 65535].
std::uint16_t ppfc_pause_quanta(Bytes bytes, RateBps egress_bps, RateBps ingress_bps);
// Algorithm 3 with drain_rate share: the ingress holds `from` of the `queue` bytes of a FIFO egress queue
// draining at `egress_bps`, so its bytes leave at egress_bps x from / queue; the pause lasts `bytes` (its
// bytes in the queue plus its increment) at that rate: bytes x queue / (from x egress_bps), in quanta at
// `ingress_bps`, rounded up once, within [1, 65535]. `from` > 0.
std::uint16_t ppfc_share_pause_quanta(Bytes bytes, Bytes from, Bytes queue, RateBps egress_bps,
                                      RateBps ingress_bps);

// The quanta (512-bit times at `rate_bps`) closest above `duration`, within [1, 65535].
std::uint16_t quanta_for(TimePs duration, RateBps rate_bps);

// Algorithm 2: picks among `candidates` (bytes each holds in the egress queue, all > 0) at random in
// proportion to those bytes, without replacement, until the picked bytes reach `fraction` of `queue_bytes`
// or none is left. Returns the picked indices in the order picked.
std::vector<std::size_t> ppfc_choose(const std::vector<Bytes>& candidates, Bytes queue_bytes, double fraction,
                                     RngStream& rng);

// The predictive part of one switch, without the switch: byte counts per (ingress, egress queue), the
// increments of the current interval, the suppression bits, and the decision at the end of each interval.
class PpfcEngine {
 public:
  struct PortInfo {
    Bytes kmax_bytes;  // ECN Kmax of the port's egress queues: the gate
    RateBps rate_bps;
  };
  struct Pause {
    std::uint16_t port;
    std::uint8_t prio;
    std::uint16_t quanta;
  };

  PpfcEngine(const PpfcParams& p, std::vector<PortInfo> ports, RngStream rng);

  void admit(std::uint16_t in, std::uint8_t prio, std::uint16_t out, Bytes bytes) {
    from_[egress_slot(out, prio) * n_ + in] += bytes;
    egress_[egress_slot(out, prio)] += bytes;
    increment_[ingress_slot(in, prio)] += static_cast<std::int64_t>(bytes);
  }
  void release(std::uint16_t in, std::uint8_t prio, std::uint16_t out, Bytes bytes) {
    from_[egress_slot(out, prio) * n_ + in] -= bytes;
    egress_[egress_slot(out, prio)] -= bytes;
    increment_[ingress_slot(in, prio)] -= static_cast<std::int64_t>(bytes);
  }

  // The end of an interval at `now` with `free_bytes` left in the shared pool: Algorithms 1-3 over the
  // increments of the interval, which then start again from zero. `held(port, prio)`: standard PFC pauses
  // that ingress (it gets no predictive frame). Fills `out` with the frames to send.
  template <class Held>
  void end_interval(TimePs now, Bytes free_bytes, Held&& held, std::vector<Pause>& out) {
    out.clear();
    if (gate()) decide(now, free_bytes, held, out);
    std::fill(increment_.begin(), increment_.end(), 0);
  }

  Bytes egress_bytes(std::uint16_t out, std::uint8_t prio) const { return egress_[egress_slot(out, prio)]; }
  Bytes bytes_from(std::uint16_t out, std::uint8_t prio, std::uint16_t in) const {
    return from_[egress_slot(out, prio) * n_ + in];
  }
  std::int64_t increment(std::uint16_t in, std::uint8_t prio) const {
    return increment_[ingress_slot(in, prio)];
  }
  bool suppressed(std::uint16_t in, std::uint8_t prio, TimePs now) const {
    return now < suppressed_until_[ingress_slot(in, prio)];
  }
  // Intervals in which Algorithm 1 predicted the pool would fill (the gate open).
  std::uint64_t predictions() const { return predictions_; }

 private:
  static std::size_t egress_slot(std::uint16_t out, std::uint8_t prio) {
    return std::size_t{out} * kPriorities + prio;
  }
  static std::size_t ingress_slot(std::uint16_t in, std::uint8_t prio) {
    return std::size_t{in} * kPriorities + prio;
  }
  // Fills congested_ with the egress queues above their Kmax, most bytes first; true if any.
  bool gate();
  template <class Held>
  void decide(TimePs now, Bytes free_bytes, Held& held, std::vector<Pause>& out) {
    if (!ppfc_predicts_fill(free_bytes, total_growth(), p_.interval, p_.horizon)) return;
    ++predictions_;
    const std::size_t queues = most_congested_only_ ? 1 : congested_.size();
    for (std::size_t q = 0; q < queues; ++q) {
      const std::size_t e = congested_[q];
      const auto out_port = static_cast<std::uint16_t>(e / kPriorities);
      const auto prio = static_cast<std::uint8_t>(e % kPriorities);
      candidate_ports_.clear();
      candidate_bytes_.clear();
      for (std::uint16_t in = 0; in < n_; ++in) {
        const Bytes b = from_[e * n_ + in];
        if (b > 0 && increment_[ingress_slot(in, prio)] > 0) {
          candidate_ports_.push_back(in);
          candidate_bytes_.push_back(b);
        }
      }
      for (const std::size_t c : ppfc_choose(candidate_bytes_, egress_[e], p_.fraction, rng_)) {
        const std::uint16_t in = candidate_ports_[c];
        if (suppressed(in, prio, now) || held(in, prio)) continue;
        const Bytes bytes = candidate_bytes_[c] + static_cast<Bytes>(increment_[ingress_slot(in, prio)]);
        const RateBps egress_bps = ports_[out_port].rate_bps, ingress_bps = ports_[in].rate_bps;
        const std::uint16_t quanta =
            p_.pause_time != kTimeNever ? fixed_quanta_[in]
            : share_rate_
                ? ppfc_share_pause_quanta(bytes, candidate_bytes_[c], egress_[e], egress_bps, ingress_bps)
                : ppfc_pause_quanta(bytes, egress_bps, ingress_bps);
        suppressed_until_[ingress_slot(in, prio)] = now + clocks_[in].tx_time(std::uint64_t{quanta} * 64);
        out.push_back({in, prio, quanta});
      }
    }
  }
  std::int64_t total_growth() const;

  PpfcParams p_;
  std::vector<PortInfo> ports_;
  std::vector<SerializationClock> clocks_;   // per ingress port: quanta to time at the upstream
  std::vector<std::uint16_t> fixed_quanta_;  // per ingress port: pause_time in quanta, when fixed
  std::uint16_t n_;
  bool share_rate_;
  bool most_congested_only_;
  RngStream rng_;
  std::vector<Bytes> from_;               // [(out, prio) * n + in]: bytes from that ingress queued there
  std::vector<Bytes> egress_;             // [(out, prio)]
  std::vector<std::int64_t> increment_;   // [(in, prio)]: bytes in minus bytes out this interval
  std::vector<TimePs> suppressed_until_;  // [(in, prio)]
  std::vector<std::size_t> congested_;
  std::vector<std::uint16_t> candidate_ports_;
  std::vector<Bytes> candidate_bytes_;
  std::uint64_t predictions_ = 0;
};

class Ppfc final : public FlowControlPolicy {
 public:
  // Its pause frames carry their kind (net/pause_kinds.h).
  static constexpr const SlotSpec* kSlots[] = {&kPauseKindSlot};
  static constexpr bool kLossless = true;
  Ppfc(const PpfcParams& p, Switch& sw);
  void start() override;

  template <class Buffer>
  void after_admit(Switch& sw, Buffer& buf, std::uint16_t in, std::uint8_t prio, const Packet& p,
                   std::uint16_t out) {
    engine_.admit(in, prio, out, p.wire_bytes);
    standard_.after_admit(sw, buf, in, prio, p, out);
  }
  template <class Buffer>
  void after_release(Switch& sw, Buffer& buf, std::uint16_t in, std::uint8_t prio, const Packet& p,
                     std::uint16_t out) {
    engine_.release(in, prio, out, p.wire_bytes);
    standard_.after_release(sw, buf, in, prio, p, out);
  }

  const PpfcEngine& engine() const { return engine_; }

 private:
  void on_interval();

  Switch& sw_;
  TimePs interval_;
  StandardPfc standard_;
  PpfcEngine engine_;
  Timer tick_;
  std::vector<PpfcEngine::Pause> frames_;
};

}  // namespace lossless
