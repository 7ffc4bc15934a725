// QCN reaction point (IEEE 802.1Qau; baselines.md §10.1): a per-flow rate limiter installed by the first
// congestion notification message (CNM). On a CNM with quantised feedback Fb: TR = CR (on the first CNM of a
// cycle: after a byte-counter stage), CR = CR (1 - Gd Fb),
// both stage counters reset. Rate increases come from a byte counter (a stage every BC bytes sent) and a
// timer (a stage every T), each at half its period once its own stage count passed the threshold: fast
// recovery CR = (CR + TR) / 2 while both counts are at most the threshold, active increase (TR += R_AI) when
// one is above it, hyper-active increase (TR += i R_HAI, i = min count - threshold) when both are. Coming
// within R_AI of line rate removes the limiter.
#pragma once
#include <cstdint>

#include "control/qcn/qcn_cp.h"
#include "core/params.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct QcnRpParams {
  double gd = 1.0 / 128;
  Bytes byte_counter = 150'000;
  TimePs timer = 15 * kPsPerMs;
  std::uint64_t threshold = 5;
  RateBps rate_ai = 5'000'000;
  RateBps rate_hai = 50'000'000;
  RateBps min_rate = 10'000'000;
  bool clamp_target_rate = false;

  SubstrateHints hints() const {
    SubstrateHints h;
    h.required_mechanism = "qcn";
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.real("gd", gd, "Gd: rate cut per unit of quantised Fb (802.1Qau 1/128: at most 49 % for 6 bits)", 0, 1);
    v.size(
        "byte_counter", byte_counter,
        "BC: bytes sent per byte-counter stage (802.1Qau 150KB; half once the count passed the threshold)");
    v.require(byte_counter > 0, "byte_counter", "must be positive");
    v.time("timer", timer,
           "T: period of timer stages (15ms [recall]; half once the count passed the threshold)");
    v.require(timer > 0, "timer", "must be positive");
    v.count("threshold", threshold, "stages of fast recovery (802.1Qau 5)", 0, 1000);
    v.rate("rate_ai", rate_ai, "R_AI: active-increase step of TR (802.1Qau 5Mbps)");
    v.rate("rate_hai", rate_hai, "R_HAI: hyper-active increase step of TR, times i (802.1Qau 50Mbps)");
    v.rate("min_rate", min_rate, "lowest rate a cut can reach (10Mbps [recall])");
    v.flag(
        "clamp_target_rate", clamp_target_rate,
        "true: TR = CR on every CNM; false: only on the first CNM of a cycle, i.e. the first after a "
        "byte-counter stage (baselines.md §10.1; DCQCN's author code, derived from QCN's, without its clamp "
        "options)");
  }
};

class QcnSender final : public CongestionControl {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kQcnCnmSlot};
  QcnSender(const QcnRpParams& p, SenderQp& qp, const CcEnv& env);
  void on_packet(const Packet& p) override;
  void on_sent(Packet& data) override;
  void on_finish() override;
  bool limited() const { return limited_; }
  double target_rate_bps() const { return tr_; }

 private:
  void increase();
  void on_timer();
  void set_rate(double cr);

  const QcnRpParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  bool limited_ = false;
  bool byte_stage_since_cut_ = false;
  double tr_ = 0;
  std::uint64_t byte_stage_ = 0, timer_stage_ = 0;
  std::int64_t bytes_left_ = 0;
  Timer timer_;
  Slot<QcnCnm> cnm_;
};

}  // namespace lossless
