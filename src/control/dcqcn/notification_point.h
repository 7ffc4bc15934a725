// The RoCEv2 NIC's notification point (DCQCN's NP, Zhu et al. SIGCOMM'15): a receiver that sees a data packet
// marked Congestion Experienced sends the flow's sender a CNP, at most one per flow per `nic.cnp_interval`.
// With `nic.cnp_interval: 0` it sends none: the ACK of each marked packet echoes the mark and the sender
// treats that as the CNP (the HPCC simulator's behaviour; DcqcnSender::on_ack). Every congestion-control
// scheme that does not bring its own receiver gets this one, as every RoCEv2 NIC has it.
// When (`nic.cnp_timing`): immediate = the DCQCN paper's NP, a CNP at once when a marked packet arrives and
// none was sent in the last interval; periodic = the NP of the DCQCN authors' ns-3 (bobzhuyb/ns3-rdma,
// QbbNetDevice::CheckandSendQCN): a check at the flow's first packet and every interval after it sends a CNP
// if a marked packet arrived since the previous check, so the first CNP comes up to one interval after the
// first mark. Checks without a marked packet send nothing, so only those after a mark are scheduled.
#pragma once
#include "core/timer.h"
#include "net/congestion_control.h"

namespace lossless {

class EcnNotificationPoint : public ReceiverControl {
 public:
  EcnNotificationPoint(RdmaNic& nic, const CcEnv& env)
      : nic_(nic),
        sim_(env.sim),
        interval_ps_(env.nic.cnp_interval_ps),
        periodic_(env.nic.cnp_periodic),
        check_(Timer::bind<EcnNotificationPoint, &EcnNotificationPoint::on_check>(this)) {}
  // The schemes' receiver constructor signature (control/cc_scheme.h).
  template <class Params>
  EcnNotificationPoint(const Params&, ReceiverContext&, const Flow&, const CcEnv& env)
      : EcnNotificationPoint(env.host_nic, env) {}

  void on_data(const Packet& data) override;

 private:
  void on_check();

  RdmaNic& nic_;
  Simulator& sim_;
  TimePs interval_ps_;
  bool periodic_;
  TimePs last_cnp_ps_ = 0;
  bool cnp_sent_ = false;
  // periodic: the first packet's arrival (the checks' phase) and the flow a due check answers
  bool started_ = false;
  TimePs first_ps_ = 0;
  std::uint32_t flow_id_ = 0;
  Timer check_;
};

}  // namespace lossless
