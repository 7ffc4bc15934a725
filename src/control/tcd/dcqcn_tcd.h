// DCQCN+TCD (baselines-verified.md §6.4, an assumption: the TCD paper's end-host reaction is UNVERIFIED).
// The receiver is the RoCEv2 notification point (a CNP for CE, TCD's congestion mark) that also answers the
// UE mark of an undetermined port with a UE-CNP, at most one per flow per nic.cnp_interval (with
// cnp_interval 0 the UE mark rides back on the ACK, as CE does). The sender is DCQCN's reaction point; a
// UE-CNP does not cut the rate but holds its increase (neither the timer nor the byte counter advances a
// stage) until no UE-CNP has come for ue_hold. Needs switch.mechanism: tcd.
#pragma once
#include "control/dcqcn/dcqcn.h"
#include "control/dcqcn/notification_point.h"
#include "control/tcd/tcd_mark.h"

namespace lossless {

struct DcqcnTcdParams : DcqcnParams {
  std::string ue_reaction = "hold";
  TimePs ue_hold = kTimeNever;  // auto: alpha_timer

  static DcqcnTcdParams initial(ParamSource& m) {
    DcqcnTcdParams p;
    static_cast<DcqcnParams&>(p) = DcqcnParams::initial(m);
    return p;
  }
  SubstrateHints hints() const {
    SubstrateHints h = DcqcnParams::hints();
    h.required_mechanism = "tcd";
    return h;
  }
  template <class V>
  void visit(V& v) {
    DcqcnParams::visit(v);
    v.choice("ue_reaction", ue_reaction, {"hold", "ignore"},
             "on a UE-CNP: hold = no cut, rate increase suspended (assumption, baselines-verified §6.4); "
             "ignore = react to CE only (the public reimplementation's choice)");
    v.time_or_auto("ue_hold", ue_hold,
                   "increases stay held until no UE-CNP has come for this long; auto = alpha_timer (one "
                   "alpha-update period, assumption)");
  }
};

class DcqcnTcdSender final : public DcqcnSender {
 public:
  DcqcnTcdSender(const DcqcnTcdParams& p, SenderQp& qp, const CcEnv& env);
  void on_ack(const Packet& ack) override;
  void on_packet(const Packet& p) override;
  // Every data packet leaves with a clear UE mark (switches set it).
  void on_sent(Packet& data) override;
  bool held() const { return increase_held(); }

 private:
  void on_ue();

  bool hold_;
  bool ue_in_ack_;
  TimePs hold_ps_;
  Slot<TcdMark> mark_;
};

class TcdNotificationPoint final : public EcnNotificationPoint {
 public:
  TcdNotificationPoint(const DcqcnTcdParams&, ReceiverContext&, const Flow& flow, const CcEnv& env);
  void on_data(const Packet& data) override;

 private:
  RdmaNic& nic_;
  Simulator& sim_;
  TimePs interval_ps_;
  Bytes cnp_bytes_;
  TimePs last_ue_ps_ = 0;
  bool ue_sent_ = false;
  Slot<TcdMark> mark_;
};

struct DcqcnTcd {
  using Params = DcqcnTcdParams;
  using Sender = DcqcnTcdSender;
  using Receiver = TcdNotificationPoint;
  static constexpr const SlotSpec* kSlots[] = {&kTcdMark};
};

}  // namespace lossless
