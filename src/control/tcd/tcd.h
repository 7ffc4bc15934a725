// TCD, ternary congestion detection (Zhang et al., SIGCOMM'21; baselines.md §6, baselines-verified.md §6).
// Verified: each egress port is in one of three states, congestion, non-congestion and undetermined (a
// queue built by hop-by-hop flow control, not by the port's own load), decided once the port has been ON
// for longer than max(T_on). Not verified, so every rule is a parameter or documented here: the transitions
// (the one public reimplementation's reading, baselines-verified.md §6.3, evaluated at each departure), the
// max(T_on) formula (§6.4's assumption: factor x (pause round trip + (Xoff - Xon)/C)), and the encoding: a
// packet leaving a congestion port gets ECN CE, one leaving an undetermined port a UE mark (control/tcd/
// tcd_mark.h). With cc.algorithm dcqcn the sender ignores UE (the reimplementation's reaction); with
// cc.algorithm dcqcn_tcd a UE-CNP holds DCQCN's rate increase.
#pragma once
#include <cstdint>
#include <vector>

#include "control/tcd/tcd_mark.h"
#include "core/params.h"
#include "core/time.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;
class Port;

struct TcdParams {
  TimePs max_ton = kTimeNever;  // auto
  double max_ton_factor = 2.0;
  Bytes threshold = 0;  // 0 = auto: the port's switch.ecn.kmin
  TimePs sample_interval = 10 * kPsPerUs;
  bool mark_undetermined = true;

  // TCD's marks replace RED's.
  MechanismHints hints() const {
    MechanismHints h;
    h.ecn_enabled = false;
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.time_or_auto(
        "max_ton", max_ton,
        "max(T_on): a port ON for longer is no longer throttled by PFC; auto = max_ton_factor x (2 x "
        "link delay + PFC frame + one MTU packet + PFC hysteresis (xoff - xon, or resume_offset with "
        "dynamic thresholds) at the port's rate), per port (assumption, baselines-verified §6.4: the "
        "paper's formula is UNVERIFIED)");
    v.real("max_ton_factor", max_ton_factor, "safety factor of the auto max_ton (assumption, UNVERIFIED)", 0,
           1000);
    v.size_or_auto("threshold", threshold,
                   "long queue above this; auto = the port's switch.ecn.kmin (our choice, UNVERIFIED)");
    v.time("sample_interval", sample_interval,
           "the queue is 'decreasing' if it shrank over the last interval (our choice, UNVERIFIED)");
    v.require(sample_interval > 0, "sample_interval", "must be positive");
    v.flag("mark_undetermined", mark_undetermined,
           "write the UE mark into TCD's packet slot of data packets leaving an undetermined port (read by "
           "cc.algorithm dcqcn_tcd)");
  }
};

// One egress port's ternary state machine, apart from the switch so that its rules can be tested.
class TcdPortState {
 public:
  enum class State : std::uint8_t { kNonCongestion, kCongestion, kUndetermined };
  struct Setting {
    Bytes threshold_bytes = 0;
    TimePs max_ton_ps = 0;
    TimePs sample_interval_ps = 0;
  };
  TcdPortState() = default;
  explicit TcdPortState(const Setting& s) : s_(s) {}

  void on_pause() { paused_ = true; }
  void on_resume(TimePs now) {
    paused_ = false;
    resumed_ = true;
    last_on_ps_ = now;
  }
  // A packet leaves with `queue_bytes` behind it: the transition, then the state it is marked with.
  State on_dequeue(TimePs now, Bytes queue_bytes);
  State state() const { return state_; }
  bool paused() const { return paused_; }

 private:
  Setting s_{};
  State state_ = State::kNonCongestion;
  bool paused_ = false;
  bool resumed_ = false;  // ever resumed (a port never paused has been ON since the start)
  TimePs last_on_ps_ = 0;
  TimePs sample_ps_ = 0;
  Bytes q_sample_ = 0;
  bool decreasing_ = false;
};

class TcdSwitch final : public SwitchMechanism {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kTcdMark};
  TcdSwitch(const TcdParams& p, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnDequeue | kOnPauseChange; }
  void start() override;
  void on_dequeue(const Port& egress, Packet& p) override;
  void on_pause_change(const Port& port, std::uint8_t prio, bool paused) override;
  const TcdPortState& port_state(std::size_t i) const { return ports_[i]; }
  // The auto max(T_on): factor x (2 x link delay + PFC frame + packet + hysteresis at the port's rate).
  static TimePs auto_max_ton_ps(TimePs delay_ps, RateBps rate_bps, Bytes pfc_bytes, Bytes packet_bytes,
                                Bytes hysteresis_bytes, double factor);
  TimePs max_ton_ps(std::size_t i) const { return max_ton_[i]; }

 private:
  const TcdParams& p_;
  Switch& sw_;
  Network& net_;
  std::vector<TcdPortState> ports_;
  std::vector<TimePs> max_ton_;
  Slot<TcdMark> mark_;
};

}  // namespace lossless
