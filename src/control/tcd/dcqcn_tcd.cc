#include "control/tcd/dcqcn_tcd.h"

#include "control/cc_scheme.h"
#include "control/tcd/tcd_mark.h"
#include "net/rdma_nic.h"

namespace lossless {

DcqcnTcdSender::DcqcnTcdSender(const DcqcnTcdParams& p, SenderQp& qp, const CcEnv& env)
    : DcqcnSender(p, qp, env),
      hold_(p.ue_reaction == "hold"),
      ue_in_ack_(env.nic.cnp_interval_ps == 0),
      hold_ps_(p.ue_hold == kTimeNever ? p.alpha_timer : p.ue_hold),
      mark_(env.slots.bind(kTcdMark)) {}

void DcqcnTcdSender::on_sent(Packet& data) {
  data.ext_init(mark_).ue = false;
  DcqcnSender::on_sent(data);
}

void DcqcnTcdSender::on_ack(const Packet& ack) {
  DcqcnSender::on_ack(ack);
  // An ACK is its data packet turned around: it still holds the packet's UE mark (a NACK holds none).
  if (ue_in_ack_ && ack.type == PacketType::kAck && !ack.ecn_ce && ack.ext(mark_).ue) on_ue();
}

void DcqcnTcdSender::on_packet(const Packet& p) {
  if (p.type == kTcdUeCnp) on_ue();
}

void DcqcnTcdSender::on_ue() {
  if (hold_) hold_increase_until(sim().now() + hold_ps_);
}

TcdNotificationPoint::TcdNotificationPoint(const DcqcnTcdParams&, ReceiverContext&, const Flow&,
                                           const CcEnv& env)
    : EcnNotificationPoint(env.host_nic, env),
      nic_(env.host_nic),
      sim_(env.sim),
      interval_ps_(env.nic.cnp_interval_ps),
      cnp_bytes_(env.nic.cnp_bytes),
      mark_(env.slots.bind(kTcdMark)) {}

void TcdNotificationPoint::on_data(const Packet& data) {
  EcnNotificationPoint::on_data(data);
  // CE outranks UE: a packet marked both was congested somewhere on its path.
  if (data.ecn_ce || interval_ps_ == 0 || !data.ext(mark_).ue) return;
  const TimePs now = sim_.now();
  if (ue_sent_ && now - last_ue_ps_ < interval_ps_) return;
  ue_sent_ = true;
  last_ue_ps_ = now;
  nic_.send(nic_.packet_for_flow(data.flow_id, kTcdUeCnp, static_cast<std::uint32_t>(cnp_bytes_)));
}

LOSSLESS_REGISTER_CC_PARTS(
    DcqcnTcd, "dcqcn_tcd",
    "DCQCN+TCD (assumed reaction): DCQCN on CE; a UE-CNP holds the rate increase; needs "
    "switch.mechanism: tcd");

}  // namespace lossless
