#include "control/dcqcn/notification_point.h"

#include "net/rdma_nic.h"

namespace lossless {

void EcnNotificationPoint::on_data(const Packet& data) {
  if (!data.ecn_ce || interval_ps_ == 0) return;
  const TimePs now = sim_.now();
  if (cnp_sent_ && now - last_cnp_ps_ < interval_ps_) return;
  cnp_sent_ = true;
  last_cnp_ps_ = now;
  nic_.send_cnp(data);
}

}  // namespace lossless
