#include "control/dcqcn/notification_point.h"

#include "net/rdma_nic.h"

namespace lossless {

void EcnNotificationPoint::on_data(const Packet& data) {
  if (interval_ps_ == 0) return;
  const TimePs now = sim_.now();
  if (periodic_) {
    if (!started_) {
      started_ = true;
      first_ps_ = now;
    }
    if (!data.ecn_ce || check_.armed()) return;
    // The next check at or after now: first + k x interval.
    const TimePs since = now - first_ps_;
    flow_id_ = data.flow_id;
    check_.arm_at(sim_, first_ps_ + (since + interval_ps_ - 1) / interval_ps_ * interval_ps_);
    return;
  }
  if (!data.ecn_ce) return;
  if (cnp_sent_ && now - last_cnp_ps_ < interval_ps_) return;
  cnp_sent_ = true;
  last_cnp_ps_ = now;
  nic_.send_cnp(data);
}

void EcnNotificationPoint::on_check() { nic_.send_cnp(flow_id_); }

}  // namespace lossless
