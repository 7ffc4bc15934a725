// RoCC reaction point (Algorithm 2): a per-flow rate limiter set by the fair rates switches send. A CNP is
// accepted when its rate is not above the current one, when it comes from the congestion point that set the
// current rate, or when it is the flow's first; each takes effect `reaction_delay` after it reaches the NIC.
// Without accepted CNPs the rate doubles every `recovery_interval`; reaching line rate removes the limiter.
#pragma once
#include <deque>

#include "control/rocc/fair_rate_packet.h"
#include "core/params.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct RoccRpParams {
  TimePs reaction_delay = 15 * kPsPerUs;
  TimePs recovery_interval = 55 * kPsPerUs;

  SubstrateHints hints() const {
    SubstrateHints h;
    h.required_mechanism = "rocc";
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.time("reaction_delay", reaction_delay, "delay from a CNP's arrival to the rate change (paper 15us)");
    v.time("recovery_interval", recovery_interval,
           "fast recovery: the rate doubles after this long without an accepted CNP (authors' model 55us)");
  }
};

class RoccSender final : public CongestionControl {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kRoccFairRateSlot};
  RoccSender(const RoccRpParams& p, SenderQp& qp, const CcEnv& env);
  // A fair rate from a congestion point (ECN-based CNPs are not RoCC's).
  void on_packet(const Packet& p) override;
  void on_finish() override;
  bool limited() const { return limited_; }

 private:
  struct Pending {
    TimePs due_ps;
    double rate_bps;
    std::uint32_t origin;
  };
  void apply_due();
  void on_recovery();

  const RoccRpParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  std::deque<Pending> pending_;
  bool limited_ = false;
  bool accepted_any_ = false;
  std::uint32_t cp_ = 0;
  Timer apply_timer_;
  Timer recovery_timer_;
  Slot<RoccFairRate> fair_rate_;
};

}  // namespace lossless
