// Mercury's sender and receiver (He et al., J. Cloud Computing 2024; MECHANISMS.md §4). The sender is DCQCN's
// reaction point unchanged (every Mercury CNP is a CNP to it) plus a window: each CNP sets cwnd to the window
// the switch computed, and sending stops while the bytes in flight reach it; when the rate-increase timer
// fires with no CNP received during its period, cwnd returns to C x baseRTT, the window every flow starts
// with. The receiver sends nothing: the switch is the notification point.
#pragma once
#include "control/dcqcn/dcqcn.h"
#include "control/mercury/mercury_switch.h"

namespace lossless {

struct MercuryCcParams : DcqcnParams {
  TimePs base_rtt = kTimeNever;  // auto: the fabric's largest base RTT
  Bytes min_window = 1000;

  static MercuryCcParams initial(ParamSource& m) {
    MercuryCcParams p;
    static_cast<DcqcnParams&>(p) = DcqcnParams::initial(m);
    return p;
  }
  SubstrateHints hints() const {
    SubstrateHints h = DcqcnParams::hints();
    h.required_mechanism = "mercury";
    h.ecn_enabled = false;  // the switch is CP and NP: no RED marks, so the receivers send no CNPs
    return h;
  }
  template <class V>
  void visit(V& v) {
    DcqcnParams::visit(v);
    v.require(window == "none", "window", "Mercury's window comes from the switch's CNPs: keep window none");
    v.time_or_auto("base_rtt", base_rtt,
                   "baseRTT of the initial and restored window C x baseRTT (C = NIC line rate); auto = the "
                   "fabric's largest host-pair base RTT (paper: known from the topology)");
    v.size("min_window", min_window,
           "smallest window a CNP can set (our choice: one 1000-byte payload; the paper has none)");
    v.require(min_window > 0, "min_window", "must be positive");
  }
};

class MercurySender final : public DcqcnSender {
 public:
  MercurySender(const MercuryCcParams& p, SenderQp& qp, const CcEnv& env);
  // A Mercury CNP: DCQCN's cut, and cwnd = the window it carries.
  void on_packet(const Packet& p) override;
  Bytes full_window() const { return full_window_; }

 private:
  void on_rate_increase_timer() override;
  void set_window(Bytes w);

  SenderQp& qp_;
  TimePs period_ps_;
  Bytes full_window_;
  Bytes min_window_;
  TimePs last_cnp_ps_ = 0;
  Slot<MercuryCnp> cnp_;
};

class MercuryReceiver final : public ReceiverControl {
 public:
  MercuryReceiver(const MercuryCcParams&, ReceiverContext&, const Flow&, const CcEnv&) {}
};

struct Mercury {
  using Params = MercuryCcParams;
  using Sender = MercurySender;
  using Receiver = MercuryReceiver;
  static constexpr const SlotSpec* kSlots[] = {&kMercuryCnpSlot};
};

}  // namespace lossless
