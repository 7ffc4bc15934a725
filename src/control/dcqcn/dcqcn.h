// DCQCN reaction point (Zhu et al., SIGCOMM'15), two variants (docs: baselines.md §1):
//  - paper: byte counter + timer rate increase with F fast-recovery stages, AI and HAI (i * R_HAI), alpha
//  decay
//    timer tau', cut on every CNP; the NIC's notification point sends at most one CNP per flow per 50 us.
//  - hpcc:  the HPCC simulator's "Mellanox" RP (CC_MODE 1): timer-only increase, alpha updated every
//    alpha_timer from a CNP-arrived flag, rate decreased at most every rate_decrease_interval, constant HAI
//    step, min rate; every ACK of a marked packet stands for a CNP.
#pragma once
#include <algorithm>
#include <string>

#include "control/window.h"
#include "core/params.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct DcqcnParams {
  std::string variant = "paper";
  std::string preset = "none";
  std::string window = "none";
  double g = 1.0 / 256;
  double initial_alpha = 1.0;
  std::uint64_t fast_recovery_steps = 5;
  RateBps rate_ai = 40'000'000;
  RateBps rate_hai = 200'000'000;
  RateBps min_rate = 100'000'000;
  TimePs rate_increase_timer = 55 * kPsPerUs;
  Bytes byte_counter = 10'000'000;
  TimePs alpha_timer = 55 * kPsPerUs;
  TimePs rate_decrease_interval = 4 * kPsPerUs;
  bool clamp_target_rate = true;
  double rate_on_first_cnp = 1.0;

  // Defaults of the chosen variant; the HPCC variant's are the HPCC paper's run.py preset at 100 G.
  static DcqcnParams for_variant(const std::string& variant);
  static DcqcnParams initial(ParamSource& m);
  SubstrateHints hints() const {
    SubstrateHints h;
    h.cnp_interval_ps = variant == "hpcc" ? 0 : 50 * kPsPerUs;
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.choice(
        "variant", variant, {"paper", "hpcc"},
        "paper: byte counter + timer RP with 50us NP; hpcc: HPCC-code timer-only RP, CNP per marked ACK");
    v.choice("preset", preset, {"none", "hpcc_paper"},
             "hpcc_paper: the HPCC paper's run.py `dcqcn` at 100G (variant hpcc with its defaults below)");
    v.choice("window", window, LOSSLESS_WINDOW_CHOICES, LOSSLESS_WINDOW_DOC);
    v.real("g", g, "alpha EWMA gain (paper 1/256)", 0.0, 1.0);
    v.real("initial_alpha", initial_alpha, "alpha at flow start (paper) or first CNP (hpcc sets 1)", 0.0,
           1.0);
    v.count("fast_recovery_steps", fast_recovery_steps,
            "F: increase events before additive increase (paper 5; hpcc 1)", 0, 1000);
    v.rate("rate_ai", rate_ai, "R_AI additive-increase step (paper 40Mbps; hpcc 20Mbps at 100G)");
    v.rate("rate_hai", rate_hai, "R_HAI hyper-increase step (paper i*R_HAI; hpcc constant; 200Mbps)");
    v.rate("min_rate", min_rate, "lowest rate a cut can reach (paper 100Mbps; hpcc 1Gbps)", kPositive);
    v.time("rate_increase_timer", rate_increase_timer,
           "T: rate-increase timer period (paper 55us; hpcc RP_TIMER 300us)", kPositive);
    v.size("byte_counter", byte_counter,
           "B: bytes sent per byte-counter increase event (paper 10MB; 0 = off; hpcc off)");
    v.time("alpha_timer", alpha_timer,
           "alpha update period tau' (paper 55us; hpcc ALPHA_RESUME_INTERVAL 1us)", kPositive);
    v.time("rate_decrease_interval", rate_decrease_interval, "hpcc: period of the rate-decrease check (4us)",
           kPositive);
    v.flag("clamp_target_rate", clamp_target_rate,
           "on a cut set R_T = R_C always (paper true); false: only after a timer increase (hpcc)");
    v.real("rate_on_first_cnp", rate_on_first_cnp, "hpcc: fraction of the current rate set on the first CNP",
           0.0, 1.0);
  }
};

// Schemes that keep DCQCN's reaction point and add to it derive from this class (Mercury's window,
// DCQCN+TCD's hold on increases): they see each firing of the rate-increase timer and may hold increases for
// a while.
class DcqcnSender : public CongestionControl {
 public:
  DcqcnSender(const DcqcnParams& params, SenderQp& qp, const CcEnv& env);
  // With nic.cnp_interval 0 the ACK of a marked packet stands for a CNP (HPCC code).
  void on_ack(const Packet& ack) override {
    if (ack.ecn_ce && cnp_in_ack_) DcqcnSender::on_cnp(ack);
  }
  void on_cnp(const Packet& cnp) override;
  void on_sent(Packet& data) override;
  void on_finish() override;

  double alpha() const { return alpha_; }
  double target_rate_bps() const { return rt_; }
  // The current rate within [min_rate, line rate], the target rate within [0, line rate], alpha within [0,
  // 1].
  void check_state(StateCheck& check) const override;

 protected:
  // The rate-increase timer fired (before the increase it triggers, which a hold may skip).
  virtual void on_rate_increase_timer() {}
  // Until `until_ps` increase events (timer and byte counter) neither advance their stages nor raise the
  // rate.
  void hold_increase_until(TimePs until_ps) { hold_until_ps_ = std::max(hold_until_ps_, until_ps); }
  bool increase_held() const { return sim_.now() < hold_until_ps_; }
  Simulator& sim() const { return sim_; }

 private:
  void set_rate(double rc);
  double line() const { return static_cast<double>(qp_.line_rate_bps); }
  // paper variant
  void paper_increase();
  void on_paper_rate_timer();
  void on_paper_alpha_timer();
  // hpcc variant
  void on_hpcc_alpha_timer();
  void on_hpcc_decrease_check();
  void on_hpcc_increase_timer();

  const DcqcnParams& p_;
  SenderQp& qp_;
  Simulator& sim_;
  bool hpcc_;
  bool cnp_in_ack_;
  double rt_;
  double alpha_;
  std::uint64_t timer_count_ = 0;  // T_cnt (paper) / rpTimeStage (hpcc)
  std::uint64_t byte_count_ = 0;   // BC_cnt
  std::int64_t bytes_left_ = 0;    // until the next byte-counter event
  bool cut_ = false;               // a CNP has been received
  bool alpha_cnp_arrived_ = false;
  bool decrease_cnp_arrived_ = false;
  TimePs hold_until_ps_ = 0;
  Timer rate_timer_;
  Timer alpha_timer_;
  Timer decrease_timer_;
};

}  // namespace lossless
