// HPCC (Li et al., SIGCOMM'19): INT-driven window/rate control (baselines.md §3, baselines-verified.md §2).
// Per ACK: per-hop utilisation u_i = min(qlen, qlen_prev)/(B_i T) + txRate_i/B_i from the INT delta against
// the previous ACK's records; U = EWMA over tau/T of the max u_i; W = Wc/(U/eta) + W_AI when U >= eta or
// incStage >= maxStage, else Wc + W_AI. The reference (Wc, incStage) is committed once per RTT (when the ACK
// passes lastUpdateSeq); other ACKs react without committing (fast react). Works in rate units as the HPCC
// code does (R = W/T, window = BDP x R/line).
#pragma once
#include <array>
#include <string>

#include "control/dcqcn/notification_point.h"
#include "control/hpcc/int_records.h"
#include "control/window.h"
#include "core/params.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

class MostUtilisedHop;

struct HpccParams {
  std::string preset = "none";
  double eta = 0.95;
  std::uint64_t max_stage = 5;
  RateBps rate_ai = 50'000'000;        // W_AI / T, when expected_flows = 0
  std::uint64_t expected_flows = 100;  // N of the paper's W_AI = W_init (1 - eta) / N, W_init = B_NIC T
  std::string queue_term = "link";
  RateBps min_rate = 100'000'000;
  bool fast_react = true;
  bool sample_feedback = false;
  std::string window = "bdp";

  static HpccParams initial(ParamSource& m);
  SubstrateHints hints() const {
    SubstrateHints h;
    h.prefetch_whole_packet = true;  // INT records span the packet
    h.one_path_per_flow = true;  // u_i compares hop i's record with hop i's on the previous ACK (paper §3.3)
    if (preset == "hpcc_paper") h.defaults.set("nic.ack_priority", "data");  // run.py hp: ACK_HIGH_PRIO 0
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.choice("preset", preset, {"none", "hpcc_paper"},
             "hpcc_paper: the HPCC paper's run.py `hp` preset (max_stage 0, rate_ai 40Mbps, min_rate 1Gbps, "
             "ACKs at data priority)");
    v.real("eta", eta, "target utilisation (paper 0.95)", 0.01, 1.0);
    v.count("max_stage", max_stage,
            "additive-increase stages before a multiplicative update (paper 5; HPCC code 0)", 0, 1000);
    v.count("expected_flows", expected_flows,
            "N in the paper's W_AI = W_init (1 - eta) / N with W_init = B_NIC x T: the additive step is "
            "NIC rate x (1 - eta) / N (50 Mb/s at 100 G for N = 100); 0 = use rate_ai for every flow",
            0, 1'000'000);
    v.rate("rate_ai", rate_ai,
           "W_AI as a rate (W_AI / T), the same for every flow; used when expected_flows = 0");
    v.unused(expected_flows > 0, "rate_ai");
    v.choice("queue_term", queue_term, {"link", "nic_scaled"},
             "link: u_i = qlen / (B_i T) + txRate / B_i as in the paper; nic_scaled: the HPCC code's "
             "qlen x R_nic / (B_i x maxBdp) (differs when NIC rates differ)");
    v.rate("min_rate", min_rate, "lowest rate", kPositive);
    v.flag("fast_react", fast_react,
           "react on every ACK, commit the reference once per RTT (HPCC FAST_REACT)");
    v.flag("sample_feedback", sample_feedback,
           "fast-react ACKs skip hops with an empty queue (HPCC SAMPLE_FEEDBACK)");
    v.choice("window", window, LOSSLESS_WINDOW_CHOICES, LOSSLESS_WINDOW_DOC);
  }
};

class HpccSender final : public CongestionControl {
 public:
  HpccSender(const HpccParams& p, SenderQp& qp, const CcEnv& env);
  void on_ack(const Packet& ack) override;
  // Each data packet leaves without INT records; switches add them.
  void on_sent(Packet& data) override { data.ext_init(int_).hops = 0; }

  double utilization() const { return u_; }
  double reference_rate_bps() const { return ref_rate_; }
  // Rate and reference rate within [min_rate, line rate], a finite non-negative utilization, the window (when
  // one is set) positive and at most its base (it follows the rate).
  void check_state(StateCheck& check) const override;

 private:
  void update(const Packet& ack, bool commit);
  // Each of the first `hops` records against the previous ACK's (`line`: the QP's line rate): the most
  // utilised hop into `most`. Whether any hop counted (kSkipEmpty: SAMPLE_FEEDBACK's fast-react ACKs skip
  // hops with an empty queue).
  template <bool kSkipEmpty>
  bool measure(const IntRecords& r, std::uint8_t hops, double line, MostUtilisedHop& most) const;

  const HpccParams& p_;
  SenderQp& qp_;
  double t_ps_;               // T: the network-wide max base RTT (HPCC GLOBAL_T)
  bool queue_term_link_;      // paper: min(qlen) / (B_i T); else the HPCC code's form with bdp_bits_per_line_
  double inv_t_per_s_;        // 1 / T
  double bdp_bits_per_line_;  // the code's window (maxBdp) in bits
  double rate_ai_;
  double u_ = 1.0;
  double ref_rate_;
  std::uint64_t inc_stage_ = 0;
  Bytes last_update_seq_ = 0;
  bool have_records_ = false;
  std::uint8_t hops_ = 0;
  std::array<IntHop, kMaxIntHops> last_{};
  Slot<IntRecords> int_;
  const double* link_rate_bps_;  // by a record's rate index (net/int_stamp.h)
};

// The receiver: the RoCEv2 notification point, and each ACK carries back the data packet's INT records (on
// the wire: nic.int_hop_size per record).
class HpccReceiver final : public EcnNotificationPoint {
 public:
  HpccReceiver(const HpccParams&, ReceiverContext&, const Flow&, const CcEnv& env)
      : EcnNotificationPoint(env.host_nic, env),
        hop_bytes_(env.nic.int_hop_bytes),
        int_(env.slots.bind(kIntRecords)) {}
  void on_ack(Packet& ack) override {
    if (ack.type == PacketType::kAck)
      ack.wire_bytes += static_cast<std::uint32_t>(ack.ext(int_).hops * hop_bytes_);
  }

 private:
  Bytes hop_bytes_;
  Slot<IntRecords> int_;
};

struct Hpcc {
  using Params = HpccParams;
  using Sender = HpccSender;
  using Receiver = HpccReceiver;
  using SwitchPart = IntStamper;
  static constexpr const SlotSpec* kSlots[] = {&kIntRecords};
};

}  // namespace lossless
