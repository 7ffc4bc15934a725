// RoCC congestion point (Menikumbura et al., IEEE TPDS 2023; MECHANISMS.md §1): every T each egress port runs
// Algorithm 1 — a PI controller on its queue length with auto-tuned gains and multiplicative-decrease guards,
// in the paper's fixed-point units (queue in dQ, fair rate in dF) — and sends the fair rate to the source of
// every flow with a packet in its queues.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "control/rocc/fair_rate_packet.h"
#include "core/params.h"
#include "core/rate_table.h"
#include "core/timer.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

struct RoccCpParams {
  RateBps delta_f = 10'000'000;   // fair-rate unit
  Bytes delta_q = 600;            // queue unit
  TimePs period = 40 * kPsPerUs;  // T
  std::uint64_t f_min = 10;
  std::uint64_t f_init = 0;  // 0 = f_min
  std::vector<RateValue> q_ref{{40'000'000'000, 150'000}, {100'000'000'000, 300'000}};
  std::vector<RateValue> q_mid{{40'000'000'000, 300'000}, {100'000'000'000, 600'000}};
  std::vector<RateValue> q_max{{40'000'000'000, 360'000}, {100'000'000'000, 660'000}};
  std::vector<RateValue> alpha0{{40'000'000'000, 0.3}, {100'000'000'000, 0.45}};
  std::vector<RateValue> beta0{{40'000'000'000, 1.5}, {100'000'000'000, 2.25}};
  std::string pi_rounding = "adjustment";
  bool low_queue_full_gain = false;
  bool trace = false;

  template <class V>
  void visit(V& v) {
    v.rate("delta_f", delta_f, "dF: unit of the fair rate F (paper 10Mbps)", kPositive);
    v.size("delta_q", delta_q, "dQ: unit of the queue length (paper 600B)", kPositive);
    v.time("period", period, "T: fair-rate update period (paper 40us)", kPositive);
    v.count("f_min", f_min, "F_min in dF (paper 10 = 100Mbps); F_max = link rate / dF", 1, 1'000'000);
    v.count("f_init", f_init, "initial F in dF (0 = F_min)", 0, 1'000'000);
    v.size_table("q_ref", q_ref,
                 "Q_ref per link rate (paper 40G 150KB, 100G 300KB; other rates take the nearest entry)");
    v.size_table("q_mid", q_mid, "Q_mid: queue growth in one period that halves F (300KB / 600KB)");
    v.size_table("q_max", q_max, "Q_max: queue that resets F to F_min (360KB / 660KB)");
    v.real_table("alpha0", alpha0, "PI gain on Q - Q_ref before auto-tuning (0.3 / 0.45)", 0, 1000);
    v.real_table("beta0", beta0, "PI gain on Q - Q_old before auto-tuning (1.5 / 2.25)", 0, 1000);
    v.choice(
        "pi_rounding", pi_rounding, {"adjustment", "result"},
        "how the PI step becomes a whole number of dF (the paper says only that F is an integer): "
        "adjustment = truncate alpha (Q - Q_ref) + beta (Q - Q_old) toward zero, so fractions of a unit move "
        "F in neither direction (our choice); result = truncate F - adjustment, as the authors' model "
        "(danushkam/rocc SwitchEtherQueue.cc), which floors every small cut to a whole unit and drops every "
        "small raise, biasing the queue below Q_ref at large N");
    v.flag(
        "low_queue_full_gain", low_queue_full_gain,
        "not in the paper (sensitivity switch): a tick with Q_cur < Q_ref/8 and (Q_cur + Q_old)/2 < Q_ref/8 "
        "(dQ units, integer division) uses ratio 1 in the auto-tune, as the authors' earlier, unused "
        "controller getFairRateForAlgo1 does; the climb from F_min then takes ~1-2 ms instead of up to 7 ms");
    v.flag("trace", trace, "write rocc.csv: fair rate and queue of every congested port at every period");
  }
};

// One congestion point's controller, separate from the switch so that its rules can be tested alone.
class RoccController {
 public:
  struct Setting {
    std::int64_t f_min, f_max, q_ref, q_mid, q_max;  // F in dF, Q in dQ
    double alpha0, beta0;
    bool round_result = false;         // pi_rounding: result
    bool low_queue_full_gain = false;  // ratio 1 while the queue is nearly empty
  };
  RoccController() = default;
  RoccController(const Setting& s, std::int64_t f_init) : s_(s), f_(f_init) {}
  static Setting for_link(const RoccCpParams& p, RateBps rate_bps);
  // Auto-tuning: alpha = alpha0 / ratio and beta = beta0 / ratio, where ratio (1, 2, ..., 32) halves the
  // gains for each halving of F below F_max / 2 (six regions).
  static std::int64_t gain_ratio(std::int64_t f, std::int64_t f_max) {
    std::int64_t level = 2;
    while (f < f_max / level && level < 64) level *= 2;
    return level / 2;
  }

  // Algorithm 1 with the queue length in bytes; returns F (in dF).
  std::int64_t update(Bytes queue_bytes, Bytes delta_q);
  std::int64_t fair_rate() const { return f_; }
  const Setting& setting() const { return s_; }

 private:
  Setting s_{};
  std::int64_t f_ = 0;
  std::int64_t q_old_ = 0;
};

class RoccCp final : public SwitchMechanism {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kRoccFairRateSlot};
  RoccCp(const RoccCpParams& p, Switch& sw, Network& net);
  void start() override;
  void write_trace(std::FILE* out) const override;
  const char* trace_header() const override {
    return p_.trace ? "time_ns,node,port,fair_rate_bps,queue_bytes\n" : nullptr;
  }
  const RoccController& controller(std::size_t port) const { return ports_[port]; }

 private:
  void on_tick();

  const RoccCpParams& p_;
  Switch& sw_;
  Network& net_;
  std::vector<RoccController> ports_;
  std::vector<std::uint32_t> flows_;  // scratch: distinct flows in one queue
  struct TraceRow {
    TimePs time_ps;
    std::uint16_t port;
    std::int64_t f;
    Bytes queue_bytes;
  };
  std::vector<TraceRow> trace_;
  std::vector<bool> ever_queued_;  // ports traced: those that have held data
  Timer tick_;
  Slot<RoccFairRate> fair_rate_;
};

}  // namespace lossless
