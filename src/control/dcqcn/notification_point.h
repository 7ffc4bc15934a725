// The RoCEv2 NIC's notification point (DCQCN's NP, Zhu et al. SIGCOMM'15): a receiver that sees a data packet
// marked Congestion Experienced sends the flow's sender a CNP, at most one per flow per `nic.cnp_interval`.
// With `nic.cnp_interval: 0` it sends none: the ACK of each marked packet echoes the mark and the sender
// treats that as the CNP (the HPCC simulator's behaviour; DcqcnSender::on_ack). Every congestion-control
// scheme that does not bring its own receiver gets this one, as every RoCEv2 NIC has it.
#pragma once
#include "net/congestion_control.h"

namespace lossless {

class EcnNotificationPoint : public ReceiverControl {
 public:
  EcnNotificationPoint(RdmaNic& nic, const CcEnv& env)
      : nic_(nic), sim_(env.sim), interval_ps_(env.nic.cnp_interval_ps) {}
  // The schemes' receiver constructor signature (control/cc_scheme.h).
  template <class Params>
  EcnNotificationPoint(const Params&, ReceiverContext&, const Flow&, const CcEnv& env)
      : EcnNotificationPoint(env.host_nic, env) {}

  void on_data(const Packet& data) override;

 private:
  RdmaNic& nic_;
  Simulator& sim_;
  TimePs interval_ps_;
  TimePs last_cnp_ps_ = 0;
  bool cnp_sent_ = false;
};

}  // namespace lossless
