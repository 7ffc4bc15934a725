// CaPFC, congestion-aware PFC (Avci, Li, Liu, "Congestion aware priority flow control in data center
// networks", IFIP Networking 2016; FutureWei patent US10003544B2), the comparison of the P-PFC paper (§5.6),
// as the flow-control policy `capfc`. The IFIP paper is not in our collection; the rules are the
// reconstruction of baselines-verified.md §7.2 from the descriptions of others (P-PFC ll. 79, 366, 428; the
// patent's claim 1):
//   - standard PFC (StandardPfc) runs unchanged;
//   - each egress queue (port, priority) enters WARN when it holds `warn` bytes or more and leaves it below
//     `warn_off`;
//   - per-input counters: the bytes of each ingress (port, priority) in each egress queue;
//   - while an egress queue is in WARN, an ingress whose counter for it reaches `warn_xoff` is paused (X-off
//     style: maximum quanta, refreshed, shared with standard PFC through HeldPauses); it is resumed when no
//     egress queue in WARN holds `warn_xon` bytes or more of it (its counters fell below warn_xon, or the
//     queues left WARN).
// Every threshold's value is an assumption (the sources give none): see CapfcParams. Pause and resume frames
// of this rule carry the kind `capfc`.
#pragma once
#include <cstdint>
#include <vector>

#include "control/pfc/standard_pfc.h"
#include "core/time.h"
#include "net/packet.h"

namespace lossless {

class Switch;

struct CapfcParams {
  Bytes warn = 0;  // 0 = auto
  Bytes warn_off = 0;
  Bytes warn_xoff = 0;
  Bytes warn_xon = 0;

  template <class V>
  void visit(V& v) {
    v.size_or_auto(
        "warn", warn,
        "egress queue (port, priority) bytes at which it enters WARN; auto = 1/4 of the shared pool "
        "(assumption: the sources give no value)");
    v.size_or_auto("warn_off", warn_off, "WARN ends below this; auto = warn / 2 (assumption)");
    v.size_or_auto(
        "warn_xoff", warn_xoff,
        "per-input counter (an ingress's bytes in a WARN egress queue) at which that ingress is "
        "paused; auto = warn / 16, so every sender of a 16:1 incast qualifies at WARN (assumption)");
    v.size_or_auto(
        "warn_xon", warn_xon,
        "the ingress is resumed when no WARN egress queue holds this much of it; auto = warn_xoff / "
        "2 (assumption)");
    v.require(!(warn && warn_off > warn), "warn_off", "must not exceed warn");
    v.require(!(warn_xoff && warn_xon > warn_xoff), "warn_xon", "must not exceed warn_xoff");
  }
};

// The CaPFC rules of one switch, without the switch: counters, WARN states and which ingresses the rule
// pauses. `hold(in, prio)` / `release(in, prio)` are called when the rule starts or stops pausing an ingress.
class CapfcEngine {
 public:
  struct Thresholds {
    Bytes warn, warn_off, warn_xoff, warn_xon;
  };
  // `auto` (0) values resolved against the shared pool of `pool_bytes`.
  static Thresholds resolve(const CapfcParams& p, Bytes pool_bytes);

  CapfcEngine(const Thresholds& t, std::uint16_t ports);

  template <class Hold>
  void admit(std::uint16_t in, std::uint8_t prio, std::uint16_t out, Bytes bytes, Hold&& hold) {
    const std::size_t e = egress_slot(out, prio);
    from_[e * n_ + in] += bytes;
    egress_[e] += bytes;
    if (!warn_[e]) {
      if (egress_[e] < t_.warn) return;
      warn_[e] = true;
      for (std::uint16_t i = 0; i < n_; ++i)
        if (from_[e * n_ + i] >= t_.warn_xoff) pause(i, prio, hold);
    } else if (from_[e * n_ + in] >= t_.warn_xoff) {
      pause(in, prio, hold);
    }
  }

  template <class Release>
  void release(std::uint16_t in, std::uint8_t prio, std::uint16_t out, Bytes bytes, Release&& release) {
    const std::size_t e = egress_slot(out, prio);
    Bytes& from = from_[e * n_ + in];
    const bool crossed_xon = from >= t_.warn_xon && from - bytes < t_.warn_xon;
    from -= bytes;
    egress_[e] -= bytes;
    if (warn_[e] && egress_[e] < t_.warn_off) {
      warn_[e] = false;
      for (std::uint16_t i = 0; i < n_; ++i) recheck(i, prio, release);
    } else if (crossed_xon) {
      recheck(in, prio, release);
    }
  }

  bool paused(std::uint16_t in, std::uint8_t prio) const { return paused_[ingress_slot(in, prio)]; }
  bool in_warn(std::uint16_t out, std::uint8_t prio) const { return warn_[egress_slot(out, prio)]; }
  Bytes bytes_from(std::uint16_t out, std::uint8_t prio, std::uint16_t in) const {
    return from_[egress_slot(out, prio) * n_ + in];
  }
  const Thresholds& thresholds() const { return t_; }

 private:
  static std::size_t egress_slot(std::uint16_t out, std::uint8_t prio) {
    return std::size_t{out} * kPriorities + prio;
  }
  static std::size_t ingress_slot(std::uint16_t in, std::uint8_t prio) {
    return std::size_t{in} * kPriorities + prio;
  }
  template <class Hold>
  void pause(std::uint16_t in, std::uint8_t prio, Hold& hold) {
    if (paused_[ingress_slot(in, prio)]) return;
    paused_[ingress_slot(in, prio)] = true;
    hold(in, prio);
  }
  // Resumes a paused ingress unless a WARN egress queue still holds warn_xon bytes or more of it.
  template <class Release>
  void recheck(std::uint16_t in, std::uint8_t prio, Release& release) {
    if (!paused_[ingress_slot(in, prio)]) return;
    for (std::uint16_t out = 0; out < n_; ++out) {
      const std::size_t e = egress_slot(out, prio);
      if (warn_[e] && from_[e * n_ + in] >= t_.warn_xon) return;
    }
    paused_[ingress_slot(in, prio)] = false;
    release(in, prio);
  }

  Thresholds t_;
  std::uint16_t n_;
  std::vector<Bytes> from_;    // [(out, prio) * n + in]: the per-input counters
  std::vector<Bytes> egress_;  // [(out, prio)]
  std::vector<bool> warn_;     // [(out, prio)]
  std::vector<bool> paused_;   // [(in, prio)]: this rule pauses it
};

class Capfc final : public FlowControlPolicy {
 public:
  // Its pause frames carry their kind (net/pause_kinds.h).
  static constexpr const SlotSpec* kSlots[] = {&kPauseKindSlot};
  static constexpr bool kLossless = true;
  Capfc(const CapfcParams& p, Switch& sw);

  template <class Buffer>
  void after_admit(Switch& sw, Buffer& buf, std::uint16_t in, std::uint8_t prio, const Packet& p,
                   std::uint16_t out) {
    standard_.after_admit(sw, buf, in, prio, p, out);
    engine_.admit(in, prio, out, p.wire_bytes,
                  [this](std::uint16_t port, std::uint8_t q) { standard_.pauses().hold(port, q, kind_); });
  }
  template <class Buffer>
  void after_release(Switch& sw, Buffer& buf, std::uint16_t in, std::uint8_t prio, const Packet& p,
                     std::uint16_t out) {
    standard_.after_release(sw, buf, in, prio, p, out);
    engine_.release(in, prio, out, p.wire_bytes, [this](std::uint16_t port, std::uint8_t q) {
      standard_.pauses().release(port, q, kind_);
    });
  }

  const CapfcEngine& engine() const { return engine_; }

 private:
  std::uint8_t kind_;
  StandardPfc standard_;
  CapfcEngine engine_;
};

}  // namespace lossless
