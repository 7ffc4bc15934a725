#include "control/hpcc/int_records.h"

#include "net/network.h"

namespace lossless {

IntStamper::IntStamper(const HpccParams&, Switch& sw, Network& net)
    : sim_(sw.sim()),
      hop_bytes_(static_cast<std::uint32_t>(net.nic_config().int_hop_bytes)),
      int_(net.slots().bind(kIntRecords)) {}

void IntStamper::on_dequeue(const Port& out, Packet& p) {
  if (p.type != PacketType::kData) return;
  IntRecords& r = p.ext(int_);
  if (r.hops >= kMaxIntHops) return;
  r.hop[r.hops++] = {sim_.now(), out.tx_bytes, out.queued_bytes, out.rate_bps()};
  p.wire_bytes += hop_bytes_;
}

}  // namespace lossless
